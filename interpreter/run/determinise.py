"""Determinisation: a complete game that agrees with all one seat has seen.

A search agent (Information-Set MCTS) must not plan against the real deck
order or another seat's real hand. It plans against samples: games that
agree with everything its seat has seen — its own hand, what was revealed to
it, where it saw components go, public moves — and are drawn at random in
everything it has not.

What the seat can tell of each component is worked out once per decision
(`Knowledge.of`), by replaying the game with every move passing through the
engine (a logged replay takes no inline short cuts) and following it as the
seat could:
- at the start every component lies where the ruleset's data put it, which
  every seat knows;
- a move the seat can follow (it sees the component before, or sees where it
  went) tells it exactly where that component is: it stands alone;
- a move it cannot follow, out of a zone whose order it cannot know (a bag,
  a zone shuffled since, or one that received components it could not
  follow), could have been any of that zone's hidden components of the same
  kind: their groups merge.
Components of one group, wherever they now lie out of the seat's sight, are
interchangeable to it. A sample deals each group's components at random over
the group's places, shuffles the order inside each zone whose order the seat
cannot know, gives each die it cannot see a fresh roll, and reseeds the
game's generator (the seat cannot know the rolls and shuffles to come).

The groups are a function of what the seat saw; the members of each group
are put in a fixed order (by id) before they are dealt, so two games that
look alike to the seat give the very same samples for the same generator.
Known limits (rules/README.md, Agents): a variable hidden from the seat keeps
its value, and a value the rules hold on the call stack at the decision
(a `let` made before it) is the real one.
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..model.state import Comp, Side, Zone
from ..model.views import sees, visible
from .forward import Position, Recipe

if TYPE_CHECKING:
    from .engine import Game


@dataclass
class Knowledge:
    """What one seat can tell, at one decision, of where components lie:
    the groups of components hidden from it that it cannot tell apart
    (ids, sorted), and the zones whose order it cannot know."""

    groups: list[list[str]]
    unordered: list[str]

    @staticmethod
    def of(recipe: Recipe, choices: tuple, seat: int) -> Knowledge:
        """Worked out by replaying `choices` in a game of `recipe`."""
        return Tracking(recipe, seat).at(choices)

    def sample(self, game: Game, seat: int, rng: random.Random) -> None:
        """Make `game` (standing at the decision this knowledge is of) one
        sample: hidden groups dealt, hidden orders shuffled, hidden dice
        rolled afresh, the generator reseeded and a scenario's rig dropped
        (what is still to come is not known); drawn from `rng` alone."""
        side = game.players[seat]
        game.rig = None
        by_id = game.comps_by_id
        for ids in self.groups:
            comps = [by_id[i] for i in ids]
            if len(comps) < 2:
                continue
            places = sorted(((c.zone, c.zone.items.index(c)) for c in comps
                             if c.zone is not None), key=lambda p: (p[0].id, p[1]))
            dealt = comps[:]
            rng.shuffle(dealt)
            _put(game, dealt, places)
        for zid in self.unordered:
            zone = _zone(game, zid)
            if zone is None:
                continue
            places = [(zone, i) for i, c in enumerate(zone.items) if not sees(c, side)]
            if len(places) < 2:
                continue
            comps = [zone.items[i] for _, i in places]
            rng.shuffle(comps)
            _put(game, comps, places)
        for c in game.comps:
            if c.zone is not None and not sees(c, side) and \
                    type(getattr(c, "u_sides", None)) is int and c.u_sides > 0:
                c.u_value = 1 + rng.randrange(c.u_sides)
        game.rng.seed(rng.getrandbits(64))


class Tracking:
    """Knowledge.of one seat at decision after decision of one game: the
    logged replay stays paused at the last decision asked about and is
    carried on by the choices made since, so a game costs one replay, not
    one a decision (a search agent asks at each of its decisions)."""

    def __init__(self, recipe: Recipe, seat: int):
        self.recipe = recipe
        self.seat = seat
        self.pos: Position | None = None

    def at(self, choices: tuple) -> Knowledge:
        pos = self.pos.carried(choices) if self.pos is not None else None
        if pos is None:
            seat = self.seat
            pos = Position(self.recipe, choices=choices).reached(
                _follow_class(), lambda game: game.follow(seat))
        self.pos = pos
        if pos.asking is None:  # the game ended before (not a position of this game)
            return Knowledge([], [])
        return pos.game.knowledge()  # type: ignore[attr-defined]


@functools.cache
def _follow_class() -> type:
    from .engine import Game

    class Follow(_Follower, Game):
        pass

    return Follow


def _zone(game: Game, zid: str) -> Zone | None:
    """A zone by id: the game's own, a side's or a space's."""
    z = game.zones.get(zid)
    if z is not None:
        return z
    for c in game.comps:  # any zone some component lies in has this id
        if c.zone is not None and c.zone.id == zid:
            return c.zone
    return None


def _put(game: Game, comps: list[Comp], places: list[tuple[Zone, int]]) -> None:
    """Lay comps[k] at places[k] (a zone and an index), keeping every zone's
    size; a component that changes zone changes liveness as a move would."""
    for c, (zone, i) in zip(comps, places):
        was = c.zone
        zone.items[i] = c
        if was is not zone:
            if c._hooks and (was is not None and was.live) != zone.live:
                game._relive(c, zone.live)
            c.zone = zone


class _Follower:
    """A game (logged, so every move comes through move()) that follows one
    seat's knowledge of where components are."""

    def follow(self: Any, seat: int) -> None:
        self.seat: Side = self.players[seat]
        self.group: dict[str, int] = {c.id: i for i, c in enumerate(self.comps)}
        self.members: dict[int, set[str]] = {i: {c.id} for i, c in enumerate(self.comps)}
        self.fresh = len(self.comps)
        self.mixed: set[int] = set()  # id() of zones whose order the seat cannot know

    def _unordered(self: Any, z: Zone | None) -> bool:
        return z is not None and (z.kind == "bag" or id(z) in self.mixed)

    def _alone(self: Any, c: Comp) -> None:
        g = self.group[c.id]
        self.members[g].discard(c.id)
        self.group[c.id] = self.fresh
        self.members[self.fresh] = {c.id}
        self.fresh += 1

    def _merge(self: Any, comps: list[Comp]) -> None:
        gs = {self.group[c.id] for c in comps}
        if len(gs) < 2:
            return
        keep = min(gs)
        for g in gs - {keep}:
            for cid in self.members.pop(g):
                self.group[cid] = keep
                self.members[keep].add(cid)

    def move(self: Any, what: Any, dest: Any, top: bool = True, say: Any = None) -> None:
        items = [what] if type(what) is Comp else what.items[:] if type(what) is Zone else \
            list(what) if isinstance(what, list) else []
        seat = self.seat
        followed = []
        for c in items:
            if type(c) is not Comp:
                continue
            src = c.zone
            if sees(c, seat) or (type(dest) is Zone and visible(dest, seat)):
                followed.append(c)
            elif src is not dest:
                if src is not None and self._unordered(src):
                    self._merge([x for x in src.items if x.kind == c.kind and
                                 not sees(x, seat)])
                if type(dest) is Zone:
                    self.mixed.add(id(dest))
        super().move(what, dest, top, say)  # type: ignore[misc]
        for c in followed:
            self._alone(c)

    def shuffle(self: Any, zone: Zone) -> None:
        super().shuffle(zone)  # type: ignore[misc]
        self.mixed.add(id(zone))

    def knowledge(self: Any) -> Knowledge:
        seat = self.seat
        by_id = self.comps_by_id
        groups = []
        for ids in self.members.values():
            hidden = sorted(i for i in ids if by_id[i].zone is not None and
                            not sees(by_id[i], seat))
            if len(hidden) > 1:
                groups.append(hidden)
        groups.sort()
        zones = {c.zone.id: c.zone for c in self.comps if self._unordered(c.zone)}
        unordered = sorted(zid for zid, z in zones.items() if not visible(z, seat))
        return Knowledge(groups, unordered)
