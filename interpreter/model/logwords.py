"""The words of the log: how components, zones, places and counts read in
its sentences ("2 dice go to the cup", "green places a cube at Docks").

A component reads as its `name` when no other has that name. Components
sharing a name are interchangeable and read as that name counted ("a die",
"3 dice"), as do copies made by `count:` with no name, by their kind;
anything else reads as its id. A zone reads as its
`title` (game.yaml), else its name with spaces ("street life"); a side's zone
as "green's hand", a space's as "tokens at Docks".
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from .state import Comp, Side, Space, Zone, capped_parts, cut, display

_IRREGULAR = {"die": "dice", "man": "men", "woman": "women", "person": "people",
              "child": "children", "mouse": "mice", "goose": "geese", "foot": "feet"}


def plural(word: str) -> str:
    """An English plural, good for the nouns of games: card -> cards,
    die -> dice, box -> boxes, city -> cities."""
    head, _, last = word.rpartition(" ")
    lower = last.lower()
    if lower in _IRREGULAR:
        out = _IRREGULAR[lower]
        out = out.capitalize() if last[:1].isupper() else out
    elif lower.endswith(("s", "x", "z", "ch", "sh")):
        out = last + "es"
    elif lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        out = last[:-1] + "ies"
    else:
        out = last + "s"
    return f"{head} {out}" if head else out


def article(word: str) -> str:
    return f"an {word}" if word[:1].lower() in "aeiou" else f"a {word}"


def counted(n: int, one: str, many: str | None = None) -> str:
    """'a card', '3 cards', 'no cards'."""
    if n == 1:
        return article(one)
    return f"{'no' if n == 0 else n} {many or plural(one)}"


def and_list(words: Iterable[str]) -> str:
    """'4', '4 and 2', '4, 2 and 6' (of any iterable of words)."""
    words = list(words)
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def kind_word(kind: str) -> str:
    return kind.replace("_", " ")


def count_of(comps: Iterable[Comp], one: str | None = None, many: str | None = None) -> str:
    """What the table sees of hidden components: 'a card', '3 cards', 'a card
    and 2 tokens' (kinds in a fixed order, never the components' order)."""
    kinds: dict[str, int] = {}
    for c in comps:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    return and_list([counted(kinds[k], one or kind_word(k), many) for k in sorted(kinds)])


class Words:
    """The names one program's log uses (made once per program)."""

    def __init__(self, comp_names: dict[str, str | None], zone_titles: dict[tuple[str, str], str],
                 pieces: dict[str, tuple[str, str | None]]):
        shared: dict[str | None, bool] = {}
        for name in comp_names.values():
            shared[name] = name in shared
        self.names = {c: n for c, n in comp_names.items() if n is not None and not shared[n]}
        self.nouns = {c: n for c, n in comp_names.items() if n is not None and shared[n]}
        self.zone_titles = zone_titles  # (scope, zone name) -> title
        self.pieces = pieces  # piece kind -> (one, many)

    def comps(self, comps: Sequence[Comp]) -> tuple[str, int]:
        """Components as a phrase, and how many things it names (for the
        verb): names in the order given, then the interchangeable ones counted
        ('2 dice'), in a fixed order."""
        names: list[str] = []
        nouns: dict[str, int] = {}
        for c in comps:
            noun = self.nouns.get(c.id)
            if noun is not None:
                kind = kind_word(c.kind)
                if not noun.lower().endswith(kind.lower()):
                    noun = f"{noun} {kind}"
            elif c.id not in self.names:
                noun = kind_word(c.kind)
            if noun is None:
                names.append(self.names[c.id])
            else:
                nouns[noun] = nouns.get(noun, 0) + 1
        parts = names + [counted(nouns[k], k) for k in sorted(nouns)]
        return and_list(parts), len(comps)

    def comp(self, c: Comp) -> str:
        return self.comps((c,))[0]

    def zone(self, z: Zone | None, subject: Side | None = None) -> str:
        """A zone in words; one of the sentence's `subject` is 'their hand'."""
        if z is None:
            return "nowhere"
        owner = z.owner
        scope = "game" if owner is None else "side" if isinstance(owner, Side) else "space"
        title = self.zone_titles.get((scope, z.name)) or z.name.replace("_", " ")
        if isinstance(owner, Side):
            return f"their {title}" if owner is subject else f"{owner.id}'s {title}"
        if owner is not None:
            return f"{title} at {self.place(owner)}"
        return title

    def place(self, p: Any) -> str:
        """A location: a space or a component by its name, a zone by its title."""
        if type(p) is Zone:
            return self.zone(p)
        if type(p) is Comp:
            return self.comp(p)
        if isinstance(p, Space):
            name = getattr(p, "u_name", None)
            return name if isinstance(name, str) and name else p.id
        return getattr(p, "id", str(p))

    def pieces_of(self, kind: str, n: int) -> str:
        """'a cube', '3 cubes' (game.yaml pieces: `name` and `plural`)."""
        one, many = self.pieces.get(kind, (kind, None))
        return counted(n, one, many)

    def text(self, value: Any, depth: int = 0) -> str:
        """A value in a log line: components, spaces and zones by their names,
        lists as 'a, b and c'; anything else as everywhere (state.display)."""
        if type(value) is Comp or type(value) is Zone or isinstance(value, Space):
            out = self.place(value)
        elif isinstance(value, list) and depth < 8:
            if value and all(type(v) is Comp for v in value):
                out = self.comps(value)[0]
            elif not value:
                out = "none"
            else:  # words made only as far as the cut (capped_parts)
                words, whole = capped_parts(self.text(v, depth + 1) for v in value)
                if depth:  # a list inside a list: [0, 5]
                    out = "[" + ", ".join(words) + "]"
                else:
                    out = and_list(words) if whole else ", ".join(words)
        else:
            return display(value)
        return cut(out)
