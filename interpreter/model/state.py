"""Runtime objects of a game: sides, spaces, components, zones, piece counts.

Everything a ruleset declares on a side, space or component (variables,
zones, attributes, properties, piece counts) is a plain Python attribute named
`u_<name>` (py_name), so compiled rules reach it with one attribute lookup and
no declared name can ever meet an engine field or a Python attribute. Engine
fields the language documents (id, name, index, kind, zone ...) keep their
own names; the engine's private bookkeeping starts with an underscore, which
rule names may not.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

from ..support.limits import MAX_TEXT


class _PyNames(dict):
    def __missing__(self, name: str) -> str:
        self[name] = attr = "u_" + name
        return attr


# py_name(name): the Python attribute that holds declared attribute `name`
# (a dict lookup, memoised: the engine asks for piece attributes constantly)
py_name = _PyNames().__getitem__


class RuleError(Exception):
    """A rule did something impossible at run time; the message is for designers."""


class FrozenList(list):
    """A list the rules may read but not change: the engine's own lists
    (players, winners, a table's lists, a space list attribute)."""

    __slots__ = ()

    def _frozen(self, *args, **kwargs):
        raise RuleError("this list belongs to the game and cannot be changed; "
                        "copy it first: [x for x in xs]")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _frozen
    append = extend = insert = pop = remove = clear = sort = reverse = _frozen


class Table(dict):
    """A YAML table or the game's options: read with t["key"]; never changed
    by the rules (tables are shared by every game of a program)."""

    __slots__ = ()

    def _frozen(self, *args, **kwargs):
        raise RuleError("tables and options cannot be changed by the rules")

    def __getattr__(self, attr):
        # t.name compiles to t.u_name, like every declared attribute: a key of
        # the table, never one of dict's own methods
        if attr.startswith("u_"):
            try:
                return self[attr[2:]]
            except KeyError:
                pass
        raise AttributeError(f"'Table' object has no attribute {attr!r}")

    def __missing__(self, key):
        # YAML keys arrive as text (`{3: 9, 4: 8}` is {"3": 9, "4": 8}): a
        # number finds the key written as that number
        if type(key) is int and dict.__contains__(self, str(key)):
            return dict.__getitem__(self, str(key))
        raise KeyError(key)

    def __contains__(self, key):
        return dict.__contains__(self, key) or (type(key) is int and
                                                dict.__contains__(self, str(key)))

    def get(self, key: Any, default: Any = None) -> Any:
        return self[key] if key in self else default

    __setitem__ = __delitem__ = __ior__ = _frozen
    clear = pop = popitem = setdefault = update = _frozen


def to_table(value: Any) -> Any:
    if isinstance(value, dict):
        t = Table()
        for k, v in value.items():
            dict.__setitem__(t, k, to_table(v))
        return t
    if isinstance(value, list):
        return FrozenList(to_table(v) for v in value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):  # ruamel's int and str subclasses carry formatting
        return int(value)
    if isinstance(value, str):
        return str(value)
    return value


class Entity:
    """Something with an id, shown by its id in labels and logs. Entities
    define no order and no equality of their own: == is identity, which
    CPython answers without a method call only while the class defines no
    comparison (the built-ins that sort put entities by index instead:
    builtins._in_order)."""

    __slots__ = ()
    id: str

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id}>"

    def __str__(self) -> str:
        return self.id


class Side(Entity):
    """A player seat or a non-player side (a neutral faction, a bot seat)."""

    def __init__(self, id: str, name: str | None, index: int, is_player: bool):
        self.id = id
        self.name = name
        self.index = index
        self.is_player = is_player
        self.bot = False  # a seat whose decisions the rules make (`prefer`)
        # its decisions' `prefer` ranks are worked out: a bot's, and in a
        # search's playouts a seat played "as the rules' bot would"
        self.ranked = False


class Space(Entity):
    def __init__(self, id: str, index: int):
        self.id = id
        self.index = index
        self._links: dict[str, tuple[int, ...]] = {}


class Comp(Entity):
    """A component: card, token, tile, die. Attributes are fixed; properties change."""

    # the game's live counts it adds to in a live zone (engine.Program.hooks):
    # (count's attribute of the game, event or None, handler's place or None)
    _hooks: Sequence[tuple[str, str | None, Any]] = ()
    # declared attributes are u_<name> (py_name); the engine itself reads a die's
    u_sides: Any
    u_value: Any

    def __init__(self, id: str, kind: str, index: int):
        self.id = id
        self.kind = kind
        self.index = index
        self.zone: Zone | None = None
        # ids of sides shown it by `reveal` where it lies (cleared on a move)
        self._seen: frozenset[str] | None = None

    @property
    def holder(self) -> Side | None:
        z = self.zone
        return z.holder if z is not None else None

    # what it is attached to and what is attached to it (`attach`), None for
    # neither: the engine's moves carry the attached along (Effects.move)
    _att: Attachment | None = None

    @property
    def host(self) -> Comp | None:
        a = self._att
        return a.host if a is not None else None

    @property
    def attached(self) -> FrozenList:
        a = self._att
        return FrozenList(a.guests) if a is not None else FrozenList()


class Attachment:
    """A component's place among attachments: its host (or None) and the
    components attached to it, in the order attached."""

    __slots__ = ("host", "guests")

    def __init__(self) -> None:
        self.host: Comp | None = None
        self.guests: list[Comp] = []


class Zone(Entity):
    """An ordered collection of components; items[0] is the top."""

    __slots__ = ("id", "name", "owner", "holder", "items", "live", "kind", "visibility", "_key")

    def __init__(self, name: str, owner: Side | Space | Comp | None, kind: str = "set",
                 visibility: str = "public", live: bool = False):
        self.name = name
        self.owner = owner
        # what its components' holder is
        self.holder: Side | None = owner if isinstance(owner, Side) else None
        self.id = name if owner is None else f"{owner.id}.{name}"
        self.items: list[Comp] = []
        self.kind = kind
        self.visibility = visibility
        self.live = live

    @property
    def size(self) -> int:
        return len(self.items)

    @property
    def top(self) -> Comp | None:
        return self.items[0] if self.items else None

    def __iter__(self) -> Iterator[Comp]:
        return iter(self.items[:])

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, comp: Any) -> bool:
        return comp.zone is self

    def __getitem__(self, i: int) -> Comp:
        return self.items[i]

    def __bool__(self) -> bool:
        return bool(self.items)

    def __repr__(self) -> str:
        return f"<Zone {self.id} {len(self.items)}>"


class PieceRow:
    """How many pieces of one kind each side has at one location."""

    __slots__ = ("counts", "location", "piece")

    def __init__(self, piece: str, location: Any, nsides: int):  # a space or component
        self.piece = piece
        self.location = location
        self.counts: list[int] | tuple[int, ...] = [0] * nsides

    def __getitem__(self, side: Side) -> int:
        return self.counts[side.index]

    @property
    def total(self) -> int:
        return sum(self.counts)

    def __repr__(self) -> str:
        return f"<{self.piece} at {self.location.id}: {self.counts}>"


class ZeroRow(PieceRow):
    """No pieces of a kind, at every location the rules never add it to (one
    row shared by all of them: place and transfer never reach it)."""

    __slots__ = ()

    def __init__(self, piece: str, nsides: int):
        super().__init__(piece, None, nsides)
        self.counts = (0,) * nsides  # a tuple: any write would fail loudly

    def __repr__(self) -> str:
        return f"<no {self.piece}>"


def capped_parts(parts: Iterable[str], sep: str = ", ") -> tuple[list[str], bool]:
    """The first of `parts` (an iterable of texts) up to where, joined by
    `sep`, they pass MAX_TEXT characters, and whether that was all of them:
    the parts after that point are never made (a list of 40,000 long texts
    would otherwise be joined whole, gigabytes, before the cut)."""
    out, size = [], 0
    for part in parts:
        out.append(part)
        size += len(part) + len(sep)
        if size > MAX_TEXT:
            return out, False
    return out, True


def capped_join(sep: str, parts: Iterable[str]) -> str:
    """sep.join(parts), built no further than MAX_TEXT characters and a part."""
    return sep.join(capped_parts(parts, sep)[0])


def cut(text: str) -> str:
    """A text of at most MAX_TEXT characters; a longer one is cut and marked."""
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "..."


def display(value: Any) -> str:
    """How a value reads in labels, logs and messages (at most MAX_TEXT
    characters: longer text is cut and marked)."""
    return cut(_display(value))


def _display(value: Any) -> str:
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (list, tuple)):
        return capped_join(",", (_display(v) for v in value))
    if isinstance(value, (Entity, Zone)):
        return value.id
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, dict):
        return "{" + capped_join(", ", (f"{k}: {_display(v)}" for k, v in value.items())) + "}"
    if callable(value):
        return "a function"  # never a Python repr: it would show memory addresses
    return type(value).__name__
