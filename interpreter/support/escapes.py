"""Rule-made text shown on a terminal: control characters as escapes.

A ruleset, scenario or save may hold any character. Raw, an ESC sequence
could erase or rewrite lines on the reader's screen and OSC 52 could write
their clipboard, so every text leaving the tool for a terminal or a text
file passes through printable() (terminal.py: every console and echo;
diagnostics.py: quoted source lines; yamlio.shorten: names in messages).
"""
from __future__ import annotations

__all__ = ["printable"]


def printable(text: str, keep: str = "\n\t") -> str:
    """`text` with every character Python does not call printable (controls,
    line and paragraph separators, format characters), except those in
    `keep`, written as its escape ('\\x1b', '\\u2028')."""
    if text.isprintable():  # (nearly every text: no copy)
        return text
    return "".join(c if c.isprintable() or c in keep else repr(c)[1:-1] for c in text)
