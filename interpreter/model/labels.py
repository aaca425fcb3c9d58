"""Option labels in words, for people.

A label is made for scripts and saves (`take:noodle_house`,
`remove:rivals@heights`, `sun-4 + moon-1`). A person reads it better
with the names the ruleset gives its components, spaces, seats and pieces:
"take Noodle House", "remove Rivals at The Heights". The label itself stays
the answer scripts and saves use; a person may type either.

The names are the ruleset's declared data (a component's `name`, a space's
`name`, a seat's `name`, a piece's `name`), never the state of a game, so
showing them tells nobody anything the label did not.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from .views import ProgramLike

_TOKEN = re.compile(r"[a-z0-9][a-z0-9_-]*")
_SEPARATORS = {":": " ", "@": " at ", ">": " to "}


def names_for(program: ProgramLike, labels: Iterable[str] | None) -> dict[str, str]:
    """id -> name for what a person's screen may name: the ruleset's seats,
    sides, spaces and pieces, and the components the labels name (only
    those: the screen never lists components the decision does not show)."""
    fixed, comps = names_of(program)
    out = dict(fixed)
    for label in labels or ():
        for m in _TOKEN.finditer(label):
            name = comps.get(m.group())
            if name is not None:
                out[m.group()] = name
    return out


def names_of(program: ProgramLike) -> tuple[dict[str, str], dict[str, str]]:
    """(id -> name for seats, sides, spaces and pieces; id -> name for
    components), made once per program."""
    got = getattr(program, "_label_names", None)
    if got is not None:
        return got
    rs = program.rs
    out: dict = {}
    for piece, (one, _many) in (rs.piece_words or {}).items():
        if one and one != piece:
            out[piece] = one
    for sid, name in list(rs.seats) + list(rs.sides):
        if name and name != sid:
            out[sid] = name
    for sid, attrs in rs.spaces:
        name = attrs.get("name") if isinstance(attrs, dict) else None
        if isinstance(name, str) and name:
            out[sid] = name
    program._label_names = out, dict(program.words.names)  # components named alone
    return program._label_names


def readable(label: str, names: dict[str, str]) -> str:
    """The label in words: ids by their names, `take:x` as "take X",
    `a@b` as "a at b", `a>b` as "a to b"; other words with spaces for `_`."""
    out, pos = [], 0
    for m in _TOKEN.finditer(label):
        sep = label[pos:m.start()]
        out.append(_SEPARATORS.get(sep, sep))
        token = m.group()
        name = names.get(token)
        out.append(name if name is not None else token.replace("_", " "))
        pos = m.end()
    out.append(label[pos:])
    return "".join(out)


def match(text: str, labels: list[str], shown: list[str]) -> tuple[int | None, list[int]]:
    """The option a person's answer names: (index, or None with the options
    it could mean). A label or its words, whole or by a unique start, in any
    case."""
    low = text.lower()
    for group in (labels, shown):
        if text in group:
            return group.index(text), []
    for group in (labels, shown):
        exact = [i for i, x in enumerate(group) if x.lower() == low]
        if len(exact) == 1:
            return exact[0], []
    starts = sorted({i for group in (labels, shown)
                     for i, x in enumerate(group) if x.lower().startswith(low)})
    if len(starts) == 1:
        return starts[0], []
    return None, starts
