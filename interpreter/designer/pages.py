"""Every HTML page the tools write (the game log, the rules reference, the
coverage page, the balance report) comes from the Jinja2 templates in the
package's `templates/html/` folder, through render().

The folder holds one base template (`base.html`: the page frame, with the
one stylesheet `page.css` written inline, so that every page stays a single
file that loads nothing), a template per page, and the shared macros
(`macros.html`: a table; `charts.html`: a chart of charts.py as SVG).

Autoescaping is on for every template: a text from a ruleset, a log or a
report reaches a page escaped, whatever it holds. The only text passed as
Markup is the board's picture (boardsvg.py builds it from escaped parts);
charts are drawn by a template macro from numbers and plain texts. A
missing value is an error (StrictUndefined), not an empty cell. Control
characters are escaped on the finished page as on every output of the tool
(support/escapes.py), whether it is printed or written to a file.

What the templates cost: the log page of a long game (3,920 entries) takes
about 19 ms to render where the string concatenation it replaced took 7;
Jinja2's import and the templates' compiling cost 70 to 90 ms more, once
per process (jinja2 is imported only by a command that makes a page).
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..support.escapes import printable

if TYPE_CHECKING:
    from jinja2 import Environment
    from markupsafe import Markup

FOLDER = "templates/html"  # inside the interpreter package (package data)


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The one Jinja2 Environment of the pages (jinja2 is imported only when
    a page is made, so that other commands start without it)."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    return Environment(loader=PackageLoader("interpreter", FOLDER), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                       keep_trailing_newline=True)


def render(template: str, **context: Any) -> str:
    """The page `template` (a file name in templates/html/) with `context`."""
    page = environment().get_template(template).render(**context)
    return "\n".join(printable(line) for line in page.split("\n"))  # (a line: one C test)


def built(html: str) -> Markup:
    """HTML (an SVG drawing) that code of this package built itself from
    escaped parts, to be put in a page as it is; never a text from outside."""
    from markupsafe import Markup  # (Jinja2's own)

    return Markup(html)


def stylesheet() -> str:
    """The text of the one stylesheet every page holds (for the tests)."""
    env = environment()
    assert env.loader is not None  # (made with one)
    return env.loader.get_source(env, "page.css")[0]
