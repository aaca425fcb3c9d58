"""Decisions: the half of a game that asks. A `choose` becomes one question
to one player's agent (or, for a bot, to its rules' `prefer` ranks); a
"choose some" becomes one question about counts (some.py); a window offers
the abilities live at that moment. Every decision agents answer is
recorded, so a saved game replays it.

A mixin of engine.Game: it uses the game's agents, history, hooks, step
budget and log.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Protocol, Sequence

from ..model.numbers import NumberLabels, Numbers
from ..model.some import SomeLabels, SomeOffer, chosen, grouped
from ..model.state import FrozenList, RuleError, Side, display
from ..model.views import Secret
from ..support.limits import MAX_DECISIONS, MAX_SOME
from .builtins import num
from .gamestate import GameState, Say


class Decision:
    """What an agent is shown: who decides what, the option labels, and — for
    an agent that asks for it (`wants_view = True`) — that player's view of
    the game as plain data. It holds no path to the game itself: no state,
    deck order or other players' hidden zones reach an agent."""

    __slots__ = ("player", "decision", "prompt", "labels", "_view", "some", "search")

    def __init__(self, player: str, decision: str, prompt: str | None,
                 labels: Sequence[str] | None, view: dict | None = None,
                 some: SomeOffer | None = None, search: Any = None):
        self.player = player
        self.decision = decision
        self.prompt = prompt
        # (a number entry's labels stay a NumberLabels: made one at a time)
        self.labels: Sequence[str] | None = None if labels is None else \
            labels if type(labels) is NumberLabels else list(labels)
        self._view = view
        # a "choose some" offer (some.SomeOffer): with labels None, the agent
        # answers pick_some() with a count per group, or None to pass
        self.some = some
        # for an agent that asks for it (`wants_search = True`): playouts of
        # samples of the game as this seat knows it (playout.Playouts)
        self.search = search

    def view(self) -> dict | None:
        return self._view


class Asked(Protocol):
    """What every agent is shown of a Decision."""

    @property
    def player(self) -> str: ...
    @property
    def decision(self) -> str: ...
    @property
    def prompt(self) -> str | None: ...
    def view(self) -> dict | None: ...


class LabelledDecision(Asked, Protocol):
    """A Decision as an agent's pick() is shown it: with its option labels."""

    @property
    def labels(self) -> Sequence[str]: ...  # a list, or a number entry's NumberLabels
    @property
    def some(self) -> SomeOffer | None: ...  # a "choose some" asked one selection at a time


class SomeDecision(Asked, Protocol):
    """A Decision as an agent's pick_some() is shown it: a "choose some"
    offer, answered with a count per group (or None to pass); no labels."""

    @property
    def some(self) -> SomeOffer: ...


class Decisions(GameState):
    """The asking half of engine.Game."""

    def choose(self, player: Side, name: str, prompt: str | None, opts: Sequence,
               labels: Any, prefs: list | None = None, site: str | None = None,
               say: Say | None = None) -> Any:
        n = len(opts)
        if prefs is not None and not player.bot and n > 1 and \
                any(r is not None for r in prefs):
            # a seat played by the rules' ranks where they give some (a
            # search's playouts, run/playout.py), by its agent where not
            if type(labels) is not list:
                labels = [labels(o) for o in opts]
            return self._bot_choice(player, name, opts, labels, prefs, site, say)
        # the fast back end may give labels as a function of the option, when
        # they cannot be alike (compiler.lazy_label): made only when needed
        # a number entry's labels (NumberLabels) are made one at a time, and differ
        lazy = type(labels) is not list and type(labels) is not NumberLabels
        if n > 1 and self.hooks is None and not player.bot and player.is_player and \
                (lazy or type(labels) is NumberLabels or len(set(labels)) == n):
            # the common case, a plain random agent's pick among distinct options,
            # as the general way below makes it, without its other questions
            bits = self.uniform[player.index]
            if bits is not None and self.viewless[player.index] and \
                    self.decisions < MAX_DECISIONS:
                self.decisions += 1
                k = n.bit_length()
                i = bits(k)
                while i >= n:
                    i = bits(k)
                label = labels(opts[i]) if lazy else labels[i]
                self.history.append((player.id, name, label))
                if self.logging:
                    self._log_choice(player, name, opts[i], label, None, say, choice=label, options=n)
                return opts[i]
        if lazy and (player.bot or n == 0 or self.hooks is not None):
            labels, lazy = [labels(o) for o in opts], False
        if player.bot and n:
            return self._bot_choice(player, name, opts, labels, prefs, site, say)
        if n == 0:
            if self.logging:
                self.say(f"{display(player)} has no legal option for {name}",
                         event={"kind": "decision", "player": player.id, "decision": name,
                                "options": 0})
            if self.hooks is not None:
                self.hooks(self, "asked", (player.id, name, [], None, None))
            return None
        if type(labels) is list and n > 1 and len(set(labels)) < n:  # options that read alike are one
            seen = {}
            for i, lab in enumerate(labels):
                if lab not in seen:
                    seen[lab] = i
            if len(seen) < n:
                keep = list(seen.values())
                opts = [opts[i] for i in keep]
                labels = [labels[i] for i in keep]
                n = len(opts)
        if n == 1:
            if self.logging:
                label = labels(opts[0]) if lazy else labels[0]
                self._log_choice(player, name, opts[0], label, "only option", say,
                                 choice=label, forced=True)
            if self.hooks is not None:
                self._asked(player, name, labels, labels[0])
            return opts[0]
        if player.is_player and self.decisions < MAX_DECISIONS and \
                self.viewless[player.index]:
            self.decisions += 1  # _agent_for's common case, without its calls
            agent, view, search, bits = self.agents[player.index], None, None, self.uniform[player.index]
        else:
            (agent, view, search), bits = self._agent_for(player, name), None
        if bits is not None:  # RandomAgent.pick's own draw, written out
            k = n.bit_length()
            i = bits(k)
            while i >= n:
                i = bits(k)
        else:
            if lazy:
                labels, lazy = [labels(o) for o in opts], False
            offered = labels
            if view is not None and type(opts) is Numbers:
                from ..model.labels import names_for
                view["names"] = names_for(self.program, ())  # (numbers name nothing more)
            elif view is not None:  # ids in the labels (and places, seats) by their names
                from ..model.labels import names_for
                # a label built from what this seat may not see reads as it may
                # (a person, a search): it answers by position all the same
                offered = [lab.others if type(lab) is Secret and player.id not in lab.readers
                           else lab for lab in labels]
                view["names"] = names_for(self.program, offered)
            asked = time.monotonic()
            i = agent.pick(Decision(player.id, name, prompt, offered, view, self._offer, search))
            self.started += time.monotonic() - asked  # (an agent's thinking is not the rules')
        label = labels(opts[i]) if lazy else labels[i]
        self.history.append((player.id, name, label))
        if self.logging:
            self._log_choice(player, name, opts[i], label, None, say, choice=label, options=n)
        if self.hooks is not None:
            self._asked(player, name, labels, label)
        return opts[i]

    def numbers(self, low: Any, high: Any, step: Any, opts: Sequence,
                labels: Sequence[str], key: int) -> Numbers:
        """A number entry's options (`number N from LOW to HIGH`, the menu's
        option `key`), then the decision's others."""
        return Numbers(low, high, step, opts, labels, key)

    def choose_some(self, player: Side, name: str, prompt: str | None, items: Sequence,
                    labels: Sequence[str], low: int | None, high: int | None,
                    test: Callable[[list], Any] | None, prefer: Callable[[list], Any] | None,
                    may: bool, site: str | None = None, say: Say | None = None) -> list | None:
        """"Choose some of these": the chosen items (a list), or None for a pass
        or when there is nothing to choose. Selections are counts per label
        (some.py); they are listed one by one only when a `when` test or a
        bot's ranks must look at each."""
        groups = grouped(labels)
        if may and any(lab == "pass" for lab, _ in groups):
            raise RuleError("an item labelled 'pass' cannot be told apart from passing")
        n = len(items)
        low = max(0 if low is None else num(low), 0)
        high = n if high is None else min(num(high), n)
        offer = SomeOffer([(lab, len(pos)) for lab, pos in groups], low, high, may)
        self.fuel -= offer.cells()  # counting the selections costs the table's size
        if self.fuel < 0:
            self.out_of_steps()
        if test is not None or player.bot:
            return self._some_listed(player, name, prompt, items, groups, offer, test, prefer,
                                     may, site, say)
        counts: list[int] | None
        picked: list | None
        total = offer.total()
        if total == 0 or (total == 1 and not may):
            counts = next(iter(offer.selections()), None)
            if counts is None:
                return self.choose(player, name, prompt, [], [])
            picked = chosen(items, groups, counts)
            label = offer.label(counts)
            if self.logging:
                self._log_choice(player, name, (0, *picked), label, "only option", say,
                                 choice=label, forced=True)
            if self.hooks is not None:
                self._asked(player, name, [label], label, offer)
            return picked
        agent, view, search = self._agent_for(player, name)
        if view is not None:
            from ..model.labels import names_for
            view["names"] = names_for(self.program, [lab for lab, _ in offer.groups])
        asked = time.monotonic()
        counts = agent.pick_some(Decision(player.id, name, prompt, None, view, offer, search))
        self.started += time.monotonic() - asked
        label = "pass" if counts is None else offer.label(counts)
        self.history.append((player.id, name, label))
        picked = None if counts is None else chosen(items, groups, counts)
        if self.logging:
            self._log_choice(player, name, (0, *(picked or ())), label, None, say, choice=label,
                             options=total + (1 if may else 0))
        if self.hooks is not None:
            self._asked(player, name, SomeLabels(offer), label)
            if picked is None:
                self.decided()  # a pass: nothing more runs for it
        return picked

    def choose_ordered(self, player: Side, name: str, prompt: str | None, items: Sequence,
                       labels: Sequence[str], low: int | None, high: int | None,
                       prefer: Callable[[list], Any] | None, may: bool,
                       site: str | None = None, say: Say | None = None) -> list | None:
        """`choose P some PICKED in order from ...`: picks one at a time, each its
        own decision of this name (items with the same label are one option),
        until `high` are picked or the player stops (`done`, once `low` are
        picked; `nothing` before the first pick when none is needed; `pass`
        when it may pass). The picked items in the order picked, or None for
        a pass or when nothing can be picked. A bot ranks each option by its
        rules' rank of the picks as they would then be."""
        for lab in labels:
            if lab in _STOPS:
                raise RuleError(f"an item labelled {lab!r} cannot be told apart from stopping")
        n = len(items)
        low = max(0 if low is None else num(low), 0)
        high = n if high is None else min(num(high), n)
        if low > high:
            return self.choose(player, name, prompt, [], [])
        left = list(range(n))
        picked: list = []
        picked_at: list[int] = []
        ranked = prefer is not None and player.ranked
        while len(picked) < high:
            seen: dict[str, int] = {}
            for i in left:
                seen.setdefault(labels[i], i)
            # (i, item): the log knows which component a pick is (and whom it hides from)
            opts: list = [(i, items[i]) for i in seen.values()]
            labs: list[str] = list(seen)
            prefs: list | None = None
            if ranked:
                assert prefer is not None
                self.fuel -= len(opts) + 1
                if self.fuel < 0:
                    self.out_of_steps()
                prefs = [prefer(picked + [item]) for _, item in opts]
            if len(picked) >= low and (picked or low == 0):
                opts.append((-1,))
                labs.append("done" if picked else "nothing")
                if prefs is not None:
                    prefs.append(prefer(picked))  # type: ignore[misc]
            if may and not picked:
                opts.append((-2,))
                labs.append("pass")
                if prefs is not None:
                    prefs.append(None)
            if picked and self._deciding:
                self._deciding.pop()  # (the picks are decided together, after the block)
            so_far = None if not picked else \
                f"{prompt + ' — ' if prompt else ''}picked so far: " + \
                ", ".join(str(labels[i]) for i in picked_at)
            pick = self.choose(player, name, so_far or prompt, opts, labs, prefs, site, say)
            at = None if pick is None else pick[0]
            if at is None or at == -2:
                if at == -2 and self.hooks is not None:
                    self.decided()  # a pass: nothing more runs for it
                return None
            if at == -1:
                break
            picked.append(items[at])
            picked_at.append(at)
            left.remove(at)
        return picked

    def _some_listed(self, player, name, prompt, items, groups, offer, test, prefer, may, site,
                     say=None):
        """Every selection tested (and ranked, for a bot), then one ordinary decision."""
        opts: list[tuple]
        labels: list[str]
        prefs: list | None
        opts, labels, prefs = [], [], [] if (player.bot and prefer is not None) else None
        for k, counts in enumerate(offer.selections()):
            if k >= MAX_SOME:
                raise RuleError(f"{name} offers more than {MAX_SOME:,} selections to test "
                                "one by one; narrow it with 'where', 'min' and 'max'")
            self.fuel -= 1
            if self.fuel < 0:
                self.out_of_steps()
            picked = chosen(items, groups, counts)
            if test is not None and test(picked) is not True:
                continue
            opts.append((0, *picked))
            labels.append(offer.label(counts))
            if prefs is not None:
                prefs.append(prefer(picked))
        if may:
            opts.append((-1,))
            labels.append("pass")
            if prefs is not None:
                prefs.append(None)
        self._offer = offer  # scripts may name a selection's parts in any order
        try:
            pick = self.choose(player, name, prompt, opts, labels, prefs, site, say)
        finally:
            self._offer = None
        if pick is None:
            return None
        if pick[0] == -1:
            if self.hooks is not None:
                self.decided()
            return None
        return list(pick[1:])

    def _agent_for(self, player, name):
        """The agent answering `player`'s decision (counted), and the view and
        the playouts it asks for, if it does (none in a game a scenario
        arranged or started part-way: a replay would not make it again)."""
        if not player.is_player:
            raise RuleError(f"{player.id} is not a player and cannot choose ({name}); "
                            "decide for it in the rules")
        self._count_decision(player, name)
        agent = self.agents[player.index]
        view = None
        if getattr(agent, "wants_view", False):
            from ..model.views import log_for, view_for
            view = view_for(self, player)
            seen = log_for(self, player)
            view["log"] = seen  # every line this seat may read, from the start
            view["log_size"] = len(seen)
            if getattr(agent, "wants_summary", False):
                view["summary"] = self.summary_for(player)
        search = None
        if getattr(agent, "wants_search", False) and self.replayable:
            from .playout import Playouts
            search = Playouts(self, player.index)  # type: ignore[arg-type]
        return agent, view, search

    def _asked(self, player, name, labels, label, offer=None):
        """Tell a scenario what was offered and taken (and, for "choose some",
        the offer, which reads a selection's parts in any order); the
        decision counts as made once its rules have run (decided)."""
        if offer is None:
            offer = labels.offer if isinstance(labels, SomeLabels) else self._offer
        assert self.hooks is not None  # (only a scenario's hooks are told)
        self.hooks(self, "asked", (player.id, name, labels if type(labels) is NumberLabels
                                   else list(labels), label, offer))
        self._deciding.append((player.id, name))

    def decided(self) -> None:
        """The rules of the option taken have run: a scenario checkpoint."""
        if self._deciding:  # (only while a scenario's hooks are told: _asked)
            assert self.hooks is not None
            self.hooks(self, "decided", self._deciding.pop())

    def _count_decision(self, player, name):
        self.decisions += 1
        if self.decisions > MAX_DECISIONS:
            recent = [f"{p} {d}" for p, d, _ in self.history[-6:]]
            raise RuleError(f"the game did not end within {MAX_DECISIONS:,} decisions: it goes "
                            f"round in circles here ({player.id} {name}"
                            + (f"; before: {', '.join(recent)}" if recent else "") + ")")

    def _bot_choice(self, player, name, opts, labels, prefs, site, say=None):
        """A bot takes the option its rules rank lowest (`prefer`); ties go to
        the first; options ranked none are never taken, except `pass`."""
        best, why = None, "the only option"
        if prefs is not None:
            keys: list[Any] = [None if r is None else _rank(r) for r in prefs]
            for i, key in enumerate(keys):
                if key is not None and (best is None or key < keys[best]):
                    best = i
            if best is not None:
                why = f"rank {_rank_text(prefs[best])} by the rule at {site}"
        if best is None:
            if "pass" in labels:
                best, why = labels.index("pass"), "no rule ranks an option"
            elif len(opts) == 1:
                best = 0
            else:
                raise RuleError(f"bot {player.id} has no rule to choose {name} "
                                "(give its options a 'prefer' rank)")
        self._count_decision(player, name)
        label = labels[best]  # not in history: replays make the same choice again
        if self.logging:
            self._log_choice(player, name, opts[best], label, why, say, choice=label,
                             bot=True)
        if self.hooks is not None:
            self._asked(player, name, labels, label)
        return opts[best]

    def window(self, name: str, args: tuple, who: Any, round_robin: bool) -> None:
        if not round_robin:  # one player, offered again after each use (as _WindowRun)
            if not who.bot and self.abilities_of(name):
                while self.offer(who, name, args):
                    pass
            return
        run = self.window_run(name, args, who, round_robin)
        while run.step():
            pass

    def window_run(self, name: str, args: tuple, who: Any, round_robin: bool) -> _WindowRun:
        """A window as steps: each step() offers until one ability is used
        (True) or the window closes (False), so rules can act between uses
        (`window ... after { ... }`)."""
        return _WindowRun(self, name, args, who, round_robin)

    def offer(self, p: Side, name: str, args: tuple) -> bool:
        """Offer p the abilities live at window `name`, once: True if one was used."""
        abilities = self.abilities_of(name)
        opts: list[tuple | None]
        labels: list[str]
        opts, labels = [], []
        for label, owner, cond, body in abilities:
            if owner is not None and (owner.zone is None or not owner.zone.live):
                continue
            if owner is not None and type(owner.zone.owner) is Side and \
                    owner.zone.owner is not p:
                continue  # a card in another side's zone is that side's to use
            if cond(self, owner, p, *args):
                opts.append((owner, body))
                labels.append(label)
        used = False
        if opts:
            opts.append(None)
            labels.append("pass")
            pick = self.choose(p, name, None, opts, labels)
            if pick is not None:
                owner, body = pick  # (the decision's line says which was used)
                body(self, owner, p, *args)
                used = True
            if self.hooks is not None:
                self.decided()
        return used


class _WindowRun:
    """One open window: who is offered next, and how many passed in a row."""

    __slots__ = ("game", "name", "args", "order", "round_robin", "passes", "i", "closed")

    def __init__(self, game: Decisions, name: str, args: tuple, who: Any, round_robin: bool):
        self.game = game
        self.name = name
        self.args = args
        self.order = list(who) if round_robin else [who]
        self.round_robin = round_robin
        self.passes = 0
        self.i = 0
        self.closed = not game.abilities_of(name) or not self.order

    def step(self) -> bool:
        """Offer round until an ability is used (True) or everyone passes (False)."""
        game, order = self.game, self.order
        while not self.closed:
            p = order[self.i % len(order)]
            used = False if p.bot else game.offer(p, self.name, self.args)  # bots never use them
            if not self.round_robin:
                if not used:
                    self.closed = True
                return used
            self.passes = 0 if used else self.passes + 1
            self.i += 1
            if self.passes >= len(order):
                self.closed = True
            if used:
                return True
        return False


_STOPS = ("done", "nothing", "pass")  # what an ordered pick's stopping reads as


def _rank_text(r) -> str:
    """A rank as the log shows it: 6, or [0, 6]."""
    return display(r) if type(r) is int else "[" + ", ".join(display(x) for x in r) + "]"


def _rank(r) -> tuple:
    """A `prefer` rank as a key: a number, or a list of numbers compared item
    by item (a shorter list that agrees so far comes first)."""
    if type(r) is int:
        return (r,)
    if type(r) in (list, FrozenList) and all(type(x) is int for x in r):
        return tuple(r)
    raise RuleError(f"a 'prefer' rank is a number or a list of numbers, not {display(r)}")
