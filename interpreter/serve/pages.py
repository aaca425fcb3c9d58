"""The pages of `rulebook serve`, made from templates/serve/ (Jinja2, every
value escaped): the start page, a table's links, a seat's page and the
fragment of it the server sends again whenever the game moves."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from ..designer.boardsvg import svg


@lru_cache(maxsize=1)
def environment() -> Environment:
    return Environment(loader=PackageLoader("interpreter", "templates/serve"),
                       autoescape=select_autoescape(default=True, default_for_string=True))


def render(name: str, **values: Any) -> str:
    return environment().get_template(name).render(**values)


def fragment(picture: dict, rs: Any) -> str:
    """A seat's picture as the HTML inside its page: the board drawn with what
    lies on each space as the seat sees it (boardsvg escapes every text)."""
    board = svg(rs, "the board", picture.get("board")) if rs.spaces else ""
    return render("fragment.html", p=picture, board=Markup(board))


def static_file(name: str) -> tuple[bytes, str] | None:
    """(bytes, media type) of a file the pages load, or None."""
    kinds = {"table.js": "text/javascript", "table.css": "text/css"}
    if name not in kinds:
        return None
    loader = environment().loader
    assert loader is not None
    source, _, _ = loader.get_source(environment(), f"static/{name}")
    return source.encode("utf-8"), kinds[name]
