"""A rule that fails at run time, told in the language's words.

The engine turns whatever a rule did wrong into a RUNTIME diagnostic at the
rule's line. This module adds what a designer needs to see the cause
without a debugger: the rule the failure happened in (a function, phase,
handler or ability, named as the rules name it; found from the line, so a
function written into its caller is still named), and, where the message
is about part of an expression, that part as written on the line (`d` in
`d.value`, `box[3]`). Nothing here reaches Python's own words: the text
comes from the rule file and the engine's messages.
"""
from __future__ import annotations

import re
from bisect import bisect_right

from ..support.diagnostics import read_line


def rule_at(places: list[tuple[str, int, str]], path: str, line: int) -> str | None:
    """The rule a line of a rule file is in: the last of `places` (path,
    line, name; sorted) to start at or before it in the same file."""
    i = bisect_right(places, (path, line, "\uffff"))
    if i and places[i - 1][0] == path:
        return places[i - 1][2]
    return None


_NONE_ATTR = re.compile(r"^used \.(\w+) of none \(a value that is missing\)$")
_CHAIN = r"[A-Za-z_][\w]*(?:\.\w+|\[[^\[\]]*\]|\([^()]*\))*"


def with_subject(message: str, path: str, line: int) -> str:
    """The message, naming the part of the rule's line it is about when the
    line shows it unambiguously."""
    text = read_line(path, line) if path else ""
    if not text:
        return message
    m = _NONE_ATTR.match(message)
    if m:
        found = _distinct(re.findall(rf"({_CHAIN})\.{m.group(1)}\b", text))
        if len(found) == 1:
            return f"used .{m.group(1)} of `{found[0]}`, which is none (a value that is missing)"
        return message
    if message == "an index past the end of a list":
        found = _distinct(re.findall(rf"({_CHAIN}\[[^\[\]]+\])", text))
        if len(found) == 1:
            return f"`{found[0]}`: an index past the end of a list"
    return message


def _distinct(xs: list[str]) -> list[str]:
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out


_PY_TYPES = {"NoneType": "none", "int": "a number", "str": "text", "bool": "true/false",
             "list": "a list", "FrozenList": "a list", "Table": "a table", "dict": "a table",
             "Side": "a side", "Space": "a space", "Comp": "a component", "Zone": "a zone",
             "PieceRow": "a piece count", "function": "a function"}


def friendly(e: Exception) -> str:
    """A Python exception from generated code, in the language's words."""
    msg = str(e)
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    m = re.match(r"'(\w+)' object has no attribute '(?:u_)?(\w+)'", msg)
    if isinstance(e, AttributeError) and m:
        if m.group(1) == "NoneType":
            return f"used .{m.group(2)} of none (a value that is missing)"
        return f"{_PY_TYPES.get(m.group(1), 'this value')} has no attribute {m.group(2)!r}"
    if isinstance(e, TypeError) and "NoneType" in msg:
        return "used none (a missing value) where a value is needed"
    if isinstance(e, KeyError):
        return f"no entry {msg} in the table"
    if isinstance(e, IndexError):
        return "an index past the end of a list"
    for py, ours in _PY_TYPES.items():
        msg = msg.replace(f"'{py}'", ours)
    return msg
