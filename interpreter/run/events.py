"""Events: triggering, replacing and collecting from the handlers and
abilities that are live (on the table, in play), in a fixed order (a
part of engine.Game)."""
from __future__ import annotations

from bisect import bisect_right, insort
from typing import Any, Iterator

from ..model.state import Comp, Zone, py_name
from .builtins import RuleError, kind_of
from .gamestate import GameState
from .program import NOMATCH


class Events(GameState):
    """A part of engine.Game."""

    # A handler runs when its component lies in a live zone (rule-file
    # handlers always), or — with `on X` — when its component is one of X,
    # wherever X lies; then no rule-file handler runs.
    def owners(self, targets: Any) -> set[Comp]:
        """The components `on X` names, as a set (X: a component, list or zone)."""
        if type(targets) is Comp:
            return {targets}
        if targets is None:
            return set()
        items = targets.items if type(targets) is Zone else targets
        if not isinstance(items, list):
            raise RuleError(f"'on' names components, not {kind_of(targets)}")
        self.fuel -= len(items)
        if self.fuel < 0:
            self.out_of_steps()
        for c in items:
            if type(c) is not Comp:
                raise RuleError(f"'on' names components, not {kind_of(c)}")
        return set(items)

    def handlers_of(self, event: str) -> list[tuple]:
        """[(owner, instead, fn)] of an event, in order (made on first use)."""
        hs = self._handlers.get(event)
        if hs is None:
            by_id = self.comps_by_id
            hs = self._handlers[event] = [(by_id[o] if o else None, inst, fn) for o, inst, fn
                                          in self.program.handlers.get(event, ())]
        return hs

    def abilities_of(self, window: str) -> list[tuple]:
        """[(label, owner, cond, body)] of a window, in order (made on first use)."""
        abs_ = self._abilities.get(window)
        if abs_ is None:
            by_id = self.comps_by_id
            abs_ = self._abilities[window] = [
                (label, by_id[o] if o else None, cond, body)
                for label, o, cond, body in self.program.abilities.get(window, ())]
        return abs_

    def trigger(self, event: str, args: tuple, on: set[Comp] | None = None) -> None:
        for owner, instead, fn in self.handlers_of(event):
            if instead or not _runs(owner, on):
                continue
            fn(self, owner, *args)

    def replace(self, event: str, args: tuple, on: set[Comp] | None = None) -> bool:
        for owner, instead, fn in self.handlers_of(event):
            if not instead or not _runs(owner, on):
                continue
            if fn(self, owner, *args) is not NOMATCH:
                return True
        return False

    def collect(self, event: str, args: tuple, on: set[Comp] | None = None) -> list:
        out = []
        for owner, instead, fn in self.handlers_of(event):
            if instead or not _runs(owner, on):
                continue
            v = fn(self, owner, *args)
            if v is not None and v is not NOMATCH:
                out.append(v)
        return out

    # The fast back end's trigger, replace and collect: the same handlers in
    # the same order, found through the live places instead of by testing
    # each. Places are looked up afresh after every handler, as the reference
    # tests each handler's liveness when it comes to it.
    def _live_handlers(self, event: str) -> Iterator[tuple]:
        hs, live = self.handlers_of(event), self.live_at.get(event, ())
        pos = -1
        while True:
            j = bisect_right(live, pos)
            if j >= len(live):
                return
            pos = live[j]
            yield hs[pos]

    def _handlers_on(self, event, on):
        """The handlers of `event` owned by the components in `on`, in order:
        the ones the reference finds testing each (`on` does not change)."""
        places = self.program.places_of.get(event)
        if not places or not on:
            return ()
        hs = self.handlers_of(event)
        if len(places) < len(on):  # walk the smaller of the two
            by_id = self.comps_by_id
            found = [p for cid, ps in places.items() if by_id[cid] in on for p in ps]
        else:
            found = [p for c in on for p in places.get(c.id, ())]
        found.sort()
        return [hs[p] for p in found]

    def _trigger_live(self, event, args, on=None):
        for owner, instead, fn in (self._live_handlers(event) if on is None
                                   else self._handlers_on(event, on)):
            if not instead:
                fn(self, owner, *args)

    def _replace_live(self, event, args, on=None):
        for owner, instead, fn in (self._live_handlers(event) if on is None
                                   else self._handlers_on(event, on)):
            if instead and fn(self, owner, *args) is not NOMATCH:
                return True
        return False

    def _collect_live(self, event, args, on=None):
        out = []
        for owner, instead, fn in (self._live_handlers(event) if on is None
                                   else self._handlers_on(event, on)):
            if not instead:
                v = fn(self, owner, *args)
                if v is not None and v is not NOMATCH:
                    out.append(v)
        return out

    def first_by(self, kind: str, attr: str, value: Any) -> Comp | None:
        """The first component of `kind` whose fixed `attr` equals value (the
        fast back end's `first(components(kind), x => x.attr == value)`)."""
        index = self._firsts.get((kind, attr)) or self.first_index(kind, attr)
        try:
            return index.get(value)
        except TypeError:  # a list, say: equal to no attribute value
            return None

    def first_index(self, kind: str, attr: str) -> dict[Any, Comp]:
        """{value: the first component of kind with that fixed attribute},
        made the first time a game asks (generated code reads it in place)."""
        py = attr if attr == "id" else py_name(attr)
        index: dict[Any, Comp]
        index = self._firsts[(kind, attr)] = {}
        for c in self.comps_by_kind.get(kind, ()):
            index.setdefault(getattr(c, py), c)
        return index

    def _relive(self, c: Comp, live: bool) -> None:
        """Component c moves into a live zone (live) or out of one."""
        step = 1 if live else -1
        for count, event, pos in c._hooks:
            setattr(self, count, getattr(self, count) + step)
            if event is not None:
                places = self.live_at[event]
                if live:
                    insort(places, pos)
                else:
                    places.remove(pos)

    def collect_on(self, event: str, args: tuple, targets: Any) -> list:
        return self.collect(event, args, self.owners(targets))


def _runs(owner, on):
    """Does a handler (owner: its component, or None in a rule file) run?"""
    if on is not None:
        return owner in on
    return owner is None or (owner.zone is not None and owner.zone.live)
