"""Runtime objects of a game: sides, spaces, components, zones, piece counts.

User-visible attributes (variables, zones, component attributes and
properties) are plain Python attributes so that compiled rules reach them with
one attribute lookup; the engine's own bookkeeping starts with an underscore,
which rule names may not.
"""
from __future__ import annotations

import keyword


def py_name(name: str) -> str:
    """The Python attribute that holds rule-level attribute `name`."""
    return name + "_" if keyword.iskeyword(name) else name


class Table(dict):
    """A YAML table: index with t["key"] or t.key."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


def to_table(value):
    if isinstance(value, dict):
        return Table({k: to_table(v) for k, v in value.items()})
    if isinstance(value, list):
        return [to_table(v) for v in value]
    return value


class Entity:
    """Something with an id, shown by its id in labels and logs."""

    __slots__ = ()

    def __repr__(self):
        return f"<{type(self).__name__} {self.id}>"

    def __str__(self):
        return self.id


class Side(Entity):
    """A player seat or a non-player side (a neutral faction, a bot seat)."""

    def __init__(self, id, name, index, is_player):
        self.id = id
        self.name = name
        self.index = index
        self.is_player = is_player
        self.bot = False  # a seat whose decisions the rules make (`prefer`)

    def __lt__(self, other):
        return self.index < other.index


class Space(Entity):
    def __init__(self, id, index):
        self.id = id
        self.index = index
        self._links = {}

    def __lt__(self, other):
        return self.index < other.index


class Comp(Entity):
    """A component: card, token, tile, die. Attributes are fixed; properties change."""

    def __init__(self, id, kind, index):
        self.id = id
        self.kind = kind
        self.index = index
        self.zone = None

    @property
    def holder(self):
        z = self.zone
        return z.owner if z is not None and isinstance(z.owner, Side) else None

    def __lt__(self, other):
        return self.index < other.index


class Zone(Entity):
    """An ordered collection of components; items[0] is the top."""

    __slots__ = ("id", "name", "owner", "items", "live", "kind", "visibility", "_key")

    def __init__(self, name, owner, kind="set", visibility="public", live=False):
        self.name = name
        self.owner = owner
        self.id = name if owner is None else f"{owner.id}.{name}"
        self.items = []
        self.kind = kind
        self.visibility = visibility
        self.live = live

    @property
    def size(self):
        return len(self.items)

    @property
    def top(self):
        return self.items[0] if self.items else None

    def __iter__(self):
        return iter(self.items[:])

    def __len__(self):
        return len(self.items)

    def __contains__(self, comp):
        return comp.zone is self

    def __getitem__(self, i):
        return self.items[i]

    def __bool__(self):
        return bool(self.items)

    def __repr__(self):
        return f"<Zone {self.id} {len(self.items)}>"


class PieceRow:
    """How many pieces of one kind each side has at one location."""

    __slots__ = ("counts", "location", "piece")

    def __init__(self, piece, location, nsides):
        self.piece = piece
        self.location = location
        self.counts = [0] * nsides

    def __getitem__(self, side):
        return self.counts[side.index]

    @property
    def total(self):
        return sum(self.counts)

    def __repr__(self):
        return f"<{self.piece} at {self.location.id}: {self.counts}>"


def display(value) -> str:
    """How a value reads in labels, logs and messages."""
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (list, tuple)):
        return ",".join(display(v) for v in value)
    if isinstance(value, (Entity, Zone)):
        return value.id
    return str(value)
