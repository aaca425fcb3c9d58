"""What one side may see: the single visibility model for agents and logs.

Zones are `public` (everyone sees the components), `owner` (only the side
owning the zone sees them; others see a count) or `hidden` (nobody sees
which components are inside, only how many: a bag, a deck).

Log entries carry `see`: "all", or the ids of the seats that may read their
`text`; every other reader gets `others` (what the table saw: "a card") or
nothing. Views and logs for a seat are built from these alone.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol, cast

from .state import Comp, Side, Space, Zone, capped_join, cut, display, py_name

if TYPE_CHECKING:
    from ..load.ruleset import Ruleset
    from .logwords import Words


class ProgramLike(Protocol):
    """What this floor reads of a compiled program (run/program.Program)."""

    # id -> name of the seats, sides, spaces and pieces; of the components (labels.py)
    _label_names: tuple[dict[str, str], dict[str, str]]

    @property
    def rs(self) -> Ruleset: ...

    @property
    def words(self) -> Words: ...


class GameLike(Protocol):
    """What a view reads of a game (run/engine.Game)."""

    @property
    def program(self) -> ProgramLike: ...

    @property
    def round(self) -> int: ...

    @property
    def phase(self) -> str | None: ...

    @property
    def current(self) -> Side | None: ...

    @property
    def options(self) -> dict: ...

    @property
    def zones(self) -> dict[str, Zone]: ...

    @property
    def sides(self) -> list[Side]: ...

    @property
    def spaces(self) -> list[Space]: ...

    @property
    def log(self) -> list[dict]: ...


def visible(zone: Zone | None, side: Side | None) -> bool:
    if zone is None or zone.visibility == "public":
        return True
    return zone.visibility == "owner" and side is not None and zone.owner is side


def viewers(zone: Zone | None) -> set[str] | None:
    """None when everyone may see what lies in `zone`; else the set of seat
    ids that may (its owner's, for an owner zone; nobody's, when hidden)."""
    if zone is None or zone.visibility == "public":
        return None
    owner = zone.owner
    if zone.visibility == "owner" and isinstance(owner, Side):
        return {owner.id}
    return set()


def knowers(comp: Any) -> set[str] | None:
    """Like viewers, for one component: those who see its zone, and the sides
    it was revealed to where it lies."""
    if type(comp) is Sourced or type(comp) is Secret:
        return set(comp.readers)
    seers = viewers(comp.zone)
    if seers is None or not comp._seen:
        return seers
    return seers | set(comp._seen)


# knowers() of a thing some seat may not see (one hidden_comps finds): a set,
# never None. The same function, typed for that use.
hidden_knowers = cast("Callable[[Any], set[str]]", knowers)


def _leaves(value: Any) -> list:
    """The items of a value that are not lists, lists inside lists to any
    depth, in order: walked with a stack (no depth limit, so nothing nested
    deeper than a limit escapes hiding) and each list once (a list holding
    itself, or the same list twice, costs no more than its size)."""
    out, stack, seen = [], [value], set()
    while stack:
        v = stack.pop()
        if isinstance(v, (list, dict)):  # (a record's fields are its items)
            if id(v) not in seen:
                seen.add(id(v))
                stack.extend(reversed(v if isinstance(v, list) else list(v.values())))
        else:
            out.append(v)
    return out


class Sourced:
    """A value a log text or prompt read from the fields of components a
    secret decision hides (`{c.rank}` of the card just picked from a hand):
    only that decision's `readers` may read it (Game.sourced). In the walks
    below it stands as a hidden thing of its own, whose knowers are its
    readers; `field` names what was read."""

    __slots__ = ("value", "comps", "readers", "field")

    def __init__(self, value: Any, comps: list[Comp], readers: set[str] | frozenset[str],
                 field: str | None):
        self.value, self.comps, self.readers, self.field = value, comps, readers, field

    def hidden_as(self) -> str:
        """What those who may not see the components read in its place."""
        kinds = sorted({c.kind.replace("_", " ") for c in self.comps})
        if self.field == "id" and len(self.comps) == 1:
            return f"a {kinds[0]}"  # (an id is the component itself)
        if self.field is not None and len(kinds) == 1:
            return f"(a {kinds[0]}'s {self.field.replace('_', ' ')})"
        return "(hidden)"


class Secret(str):
    """A text built by interpolation from values some seat may not see
    (`"{p.hand.items}"`, `"{c.rank}"` of a card a secret decision picked,
    another secret text): the text itself to its `readers`, `others` (the
    same words with each hidden thing as 'a <kind>') to everyone else. It is
    a text like any other to the rules (compared, looked up, stored); every
    output that shows it (log, prompt, label, view, result) stands it as a
    hidden thing of its own, whose knowers are its readers."""

    readers: frozenset[str]
    others: str

    def __new__(cls, text: str, readers: Iterable[str], others: str) -> Secret:
        out = super().__new__(cls, text)
        out.readers = frozenset(readers)
        out.others = others
        return out

    # copied and pickled whole (a plain str would lose the secret)
    def __reduce__(self) -> tuple[type[Secret], tuple[str, frozenset[str], str]]:
        return Secret, (str(self), self.readers, self.others)


def plain(value: Any) -> Any:
    """The value itself, as the seats who may see it read it."""
    return value.value if type(value) is Sourced else value


def hidden_comps(value: Any) -> list:
    """The components in a value (itself, or inside lists at any depth) that
    lie where some seat may not see them: what a text showing the value must
    hide."""
    if type(value) is Sourced:
        return [value] + hidden_comps(value.value)
    if type(value) is Comp:
        return [value] if viewers(value.zone) is not None else []
    if type(value) is Secret:
        return [value]
    if not isinstance(value, (list, dict)):
        return []
    return [c for c in _leaves(value) if type(c) is Comp and viewers(c.zone) is not None
            or type(c) is Secret]


_DEEP = 8  # lists nested deeper than this read flat (their items, in order)


def shown(value: Any, hide: Any, show: Callable[[Any], str] = display, sep: str = ",") -> str:
    """show(value) (display, or the log's words), with each component in
    `hide` (inside lists too, at any depth) as 'a <kind>'."""
    if not hide:
        return show(plain(value))

    def text(v: Any, depth: int = 0) -> str:
        if type(v) is Sourced:
            return v.hidden_as() if v in hide else text(v.value, depth)
        if type(v) is Comp and v in hide:
            return f"a {v.kind}"
        if type(v) is Secret and v in hide:
            return v.others
        if isinstance(v, list):
            if depth < _DEEP:
                return capped_join(sep, (text(x, depth + 1) for x in v))
            return capped_join(sep, (text(x, depth) for x in _leaves(v)))  # flat: no deeper
        if isinstance(v, dict):  # a record: its fields, each hidden as it must be
            if depth < _DEEP:
                return "{" + capped_join(", ", (f"{k}: {text(x, depth + 1)}"
                                                for k, x in v.items())) + "}"
            return capped_join(sep, (text(x, depth) for x in _leaves(v)))
        return show(v)
    return cut(text(value))


def sees(comp: Any, side: Side | None) -> bool:
    if type(comp) is Sourced or type(comp) is Secret:
        return side is not None and side.id in comp.readers
    return visible(comp.zone, side) or (side is not None and bool(comp._seen) and
                                        side.id in comp._seen)


def _value(v: Any, side: Side | None, depth: int = 0) -> Any:
    """A value as `side` may see it: a component it may not see is only its kind."""
    if isinstance(v, Comp):
        return v.id if sees(v, side) else {"hidden": v.kind}
    if type(v) is Secret:
        return str(v) if sees(v, side) else v.others
    if isinstance(v, (Space, Side)):
        return v.id
    if isinstance(v, list):
        if depth < _DEEP:
            return [_value(x, side, depth + 1) for x in v]
        # deeper lists read as a text, a component the side may not see as its kind
        return shown(v, {c for c in hidden_comps(v) if not sees(c, side)})
    if isinstance(v, dict):  # a record (or a table's row): each field as the side may see it
        if depth < _DEEP:
            return {str(k): _value(x, side, depth + 1) for k, x in v.items()}
        return shown(v, {c for c in hidden_comps(v) if not sees(c, side)})
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, (int, str)):
        return v
    return display(v)


def _comp(c: Comp, side: Side | None, program: ProgramLike) -> dict:
    kd = program.rs.kinds[c.kind]
    out = {"id": c.id, "kind": c.kind}
    for name in list(kd.attributes) + list(kd.properties):
        out[name] = _value(getattr(c, py_name(name), None), side)
    if c.host is not None:  # attached to another (`attach`): which, as the side may see it
        out["host"] = _value(c.host, side)
    return out


def _zone(z: Zone, side: Side | None, program: ProgramLike) -> list[dict] | dict:
    if visible(z, side):
        return [_comp(c, side, program) for c in z.items]
    out: dict[str, Any] = {"count": len(z.items)}
    known = [dict(_comp(c, side, program), position=i) for i, c in enumerate(z.items)
             if side is not None and c._seen and side.id in c._seen]
    if known:
        out["known"] = known  # revealed to this side where they lie (0: the top)
    return out


def view_for(game: GameLike, side: Side | None) -> dict:
    """A JSON-able picture of the game as `side` sees it (None: a spectator)."""
    rs = game.program.rs
    out: dict[str, Any] = {
        "round": game.round,
        "phase": game.phase,
        "current": game.current.id if game.current else None,
        "you": side.id if side is not None else None,
        "options": dict(game.options),
        "variables": {k: _value(getattr(game, f"v_{k}"), side) if
                      ("game", k) not in rs.var_visibility else {"hidden": "variable"}
                      for k in rs.game_vars},
        "zones": {name: _zone(z, side, game.program) for name, z in game.zones.items()},
        "sides": {},
        "spaces": {},
    }
    for s in game.sides:
        out["sides"][s.id] = {
            "variables": {k: _value(getattr(s, py_name(k)), side) if
                          _may_see_var(rs, k, s, side) else {"hidden": "variable"}
                          for k in rs.side_vars},
            "supply": {p: getattr(s, py_name(p)) for p in rs.pieces},
            "zones": {n: _zone(getattr(s, py_name(n)), side, game.program)
                      for n in rs.zone_names("side")},
        }
    for sp in game.spaces:
        entry = {n: _zone(getattr(sp, py_name(n)), side, game.program)
                 for n in rs.zone_names("space")}
        for p in rs.pieces:
            row = getattr(sp, py_name(p))
            entry[p] = {s.id: row.counts[s.index] for s in game.sides if row.counts[s.index]}
        out["spaces"][sp.id] = entry
    return out


def _may_see_var(rs: Ruleset, name: str, owner: Side, side: Side | None) -> bool:
    """A side variable declared `visibility: owner` is seen by that side only;
    `hidden`, by nobody."""
    vis = rs.var_visibility.get(("side", name))
    if vis is None:
        return True
    return vis == "owner" and side is not None and side is owner


PUBLIC_FIELDS = ("round", "phase", "player", "decision")


def entry_for(entry: dict, sid: str | None) -> dict | None:
    """One log entry as seat `sid` (None: an onlooker) may read it."""
    see = entry.get("see", "all")
    if see == "all" or (sid is not None and sid in see):
        return entry
    others = entry.get("others")
    if others is None:
        return None
    out = {k: entry[k] for k in PUBLIC_FIELDS if k in entry}
    out["text"] = others
    out["see"] = "all"
    if "others_event" in entry:  # the event as those who may not see it know it
        out["event"] = entry["others_event"]
    if entry.get("summary"):
        out["summary"] = True
    return out


def log_for(game: GameLike, side: Side | None) -> list[dict]:
    """The log as `side` (None: an onlooker) may read it."""
    sid = side.id if side is not None else None
    return [e for e in (entry_for(x, sid) for x in game.log) if e is not None]


def scores_seen(game: GameLike, side: Side | None, scores: dict) -> dict:
    """The scores `side` may see during play (None: an onlooker): all of them,
    its own when the score variable is `visibility: owner`, none when
    `hidden`. (The result at the end shows every score.)"""
    rs = game.program.rs
    vis = rs.var_visibility.get(("side", rs.score_var)) if rs.score_var else None
    if vis is None:
        return scores
    if vis == "owner" and side is not None:
        return {k: v for k, v in scores.items() if k == side.id}
    return {}
