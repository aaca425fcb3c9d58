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
from typing import TYPE_CHECKING, Any, Iterable

import click
from rich.console import Console

from .escapes import printable

if TYPE_CHECKING:
    from rich.segment import Segment

WIDE = 250  # a table's width limit where no terminal sets one


class SafeConsole(Console):
    """A rich Console whose every written text has its control characters
    escaped (escapes.py): rules' texts reach it through log lines, prompts,
    labels, names and messages. Rich's own colours and cursor moves are
    made after this, so they still work."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            s if s.control else s._replace(text=printable(s.text)) for s in buffer)


def echo(message: Any = None, **kw: Any) -> None:
    """click.echo, with control characters escaped (JSON is already ASCII)."""
    click.echo(None if message is None else printable(str(message)), **kw)


def console(stderr: bool = False, **kw: Any) -> Console:
    stream = sys.stderr if stderr else sys.stdout
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        kw.setdefault("soft_wrap", True)
        kw.setdefault("width", WIDE)
    return SafeConsole(highlight=False, stderr=stderr, **kw)
