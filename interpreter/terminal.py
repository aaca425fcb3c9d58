"""The screen the command line writes to.

At a terminal, rich draws as it does (colour, the terminal's width). Into a
pipe or a file nothing is wrapped: a log line stays one line however long,
so that `rulebook play ... > game.txt` or `| grep` reads what the screen
would show, one event a line.

Streams, for every command: what the command was asked for (a log, a
result, a report, a JSON object) goes to stdout; diagnostics (problems,
warnings, notes about flags) go to stderr. A command asked for JSON prints
its diagnostics as JSON on stdout, as its result.
"""
from __future__ import annotations

import sys

from rich.console import Console

WIDE = 250  # a table's width limit where no terminal sets one


def console(stderr: bool = False, **kw) -> Console:
    stream = sys.stderr if stderr else sys.stdout
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        kw.setdefault("soft_wrap", True)
        kw.setdefault("width", WIDE)
    return Console(highlight=False, stderr=stderr, **kw)
