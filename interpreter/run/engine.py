"""Games: one playthrough of a compiled program (run/program.py).

A Game holds all state, including its seeded RNG; it asks agents for every
decision and records them, so ruleset + options + seed + choices replays the
same game byte for byte.
"""
from __future__ import annotations

import random
import sys
import time
from typing import Any, Callable, NoReturn

from ..language import ast as A
from ..model.state import (
    Comp,
    FrozenList,
    PieceRow,
    Side,
    Space,
    Table,
    Zone,
    display,
    py_name,
)
from ..model.views import Secret, entry_for, hidden_comps, scores_seen, sees, shown
from ..support.diagnostics import Diagnostic, DiagnosticError
from ..support.limits import MAX_SECONDS, STEP_CHUNK
from .agents import RandomAgent
from .builtins import RULES_FILE, RuleError, items, kind_of
from .decisions import Decisions
from .effects import Effects
from .events import Events
from .failures import friendly as _friendly
from .failures import rule_at, with_subject
from .gamelog import GameLog
from .program import (
    BACKENDS,
    DRAWS_INLINE,
    EndGame,
    GameOver,
    Program,
    StopGame,
    _coerce,
    active_seats,
    load_program,
    option_problems,
    tune_gc,
    validate_ruleset,
    with_players,
)

# the engine's face: games here, programs and what commands ask of a ruleset
# from run/program.py
__all__ = ["BACKENDS", "Game", "Program", "Rig", "StopGame", "active_seats", "load_program",
           "option_problems", "tune_gc", "validate_ruleset", "with_players"]

# built-in fields of sides, spaces and components (not stored under u_<name>)
_FIELDS = {Side: frozenset({"id", "name", "index", "is_player", "bot"}),
           Space: frozenset({"id", "index"}),
           Comp: frozenset({"id", "kind", "index", "zone", "holder", "host", "attached"})}


class Rig:
    """Scenario-rigged randomness: forced die faces and draws, used first."""

    def __init__(self, rolls: list[int] | None = None, draws: dict[str, list[str]] | None = None,
                 after_setup: bool = False):
        self.rolls = list(rolls or [])
        self.draws = {k: list(v) for k, v in (draws or {}).items()}
        self.after_setup = after_setup  # setup draws and rolls at random, the rig after it
        self.told = not self.rolls  # "rig exhausted" is logged once, when it happens

    def left(self) -> bool:
        return bool(self.rolls) or any(self.draws.values())


class Game(Effects, Events, Decisions, GameLog):
    def __init__(self, program: Program, seed: int = 0, options: dict | None = None,
                 agents: list | None = None, logging: bool = False, rig: Rig | None = None,
                 players: int | None = None, steps: int | None = None):
        self.program = program
        rs = program.rs
        self.seed = seed
        self.asked_players = players  # (as given: a replay asks for the same)
        self.rng = random.Random(seed)
        self.rig = rig
        # the rig as given (a replay is rigged the same way: run/playout.py)
        self.rig_given = None if rig is None else \
            (list(rig.rolls), {k: list(v) for k, v in rig.draws.items()}, rig.after_setup)
        self.logging = logging
        self.log = []
        self.score_track = []  # (round, scores) after each round, when logging
        self.history = []
        self.final_scores: dict[str, Any] | None = None
        self.searches = {}
        self.round = 0
        self.phase = None
        self.current = None
        self.winners = FrozenList()
        self.finished = False
        self.stopped = False
        self.hooks = None  # scenario checkpoints: hooks(game, when, what)
        self._deciding = []  # (player id, decision) asked and not yet carried out
        self._offer = None  # the "choose some" offer behind the decision being asked
        self.drawn = []  # options drawn at random, in the order drawn (saves)
        self.options = Table(self._options(with_players(rs, options or {}, players)))
        self.tables = program.tables
        seats = active_seats(rs, self.options, players)
        nseats = len(seats)
        tpl = program.template
        self.players = [Side(sid, name, i, True) for i, (sid, name) in enumerate(seats)]
        neutral = [Side(sid, name, nseats + i, False) for i, (sid, name) in enumerate(rs.sides)]
        self.sides = FrozenList(self.players + neutral)
        self.players = FrozenList(self.players)
        nsides = len(self.sides)
        for sid, _ in rs.seats:
            setattr(self, f"n_{sid}", None)  # seats not in play this game
        for s in self.sides:
            s.ranked = s.bot = s.id in rs.bots
            setattr(self, f"n_{s.id}", s)
        self.__dict__.update(tpl.game_vars)
        # sides' fields and zones, game zones, spaces, tracks, components
        program.layout(nsides).build(self)
        for piece, per_side in rs.piece_supply.items():
            for s in self.sides:
                if s.id in per_side:
                    setattr(s, py_name(piece), per_side[s.id])
        self._handlers = {}  # event -> [(owner, instead, fn)], made when first fired
        self._abilities = {}  # window -> [(label, owner, cond, body)], likewise
        self._firsts = {}  # (kind, attribute) -> {value: first component} (first_by)
        if program.fast:
            # how many handlers of each event, and abilities of each window, are
            # live (generated code asks before it triggers, collects or opens),
            # and the places of the live handlers of each event, in order: only
            # those are called. Components update both as they move (_relive).
            self.live_at = {ev: places[:] for ev, places in program.start_live.items()}
            self.__dict__.update(program.start_counts)
            comps = self.comps
            for i, counts in program.comp_hooks:
                comps[i]._hooks = counts
            self.trigger, self.collect, self.replace = (  # type: ignore[method-assign]
                self._trigger_live, self._collect_live, self._replace_live)
        self.agents = list(agents) if agents else []
        # agents that never ask for a view or a search (most): choose() need not build one
        self.viewless = [not (getattr(a, "wants_view", False) or getattr(a, "wants_search", False))
                         for a in self.agents]
        # a plain random agent's pick is one draw from its own generator: choose()
        # makes that draw itself, without a Decision to build (agents.RandomAgent)
        self.uniform = [a.rng.getrandbits if type(a) is RandomAgent and DRAWS_INLINE else None
                        for a in self.agents]
        self.decisions = 0
        self.draws_inline = DRAWS_INLINE
        # the step budget (limits.py; game.yaml limits.steps; --max-steps), handed
        # out in chunks: generated code counts `fuel` down, out_of_steps refills it
        self.budget = steps or program.steps
        self.fuel = min(STEP_CHUNK, self.budget)
        self.reserve = self.budget - self.fuel
        self.started = time.monotonic()
        self.replayable = True

    def given_options(self) -> dict:
        """The options as the game was given them (not those it drew at
        random): with the seed, they make the same game again."""
        return {k: v for k, v in self.options.items() if k not in self.drawn}

    def _options(self, given: dict) -> dict:
        rs = self.program.rs
        out = {}
        bad = option_problems(rs, given)
        if bad:
            raise DiagnosticError(bad[:1])
        for name, opt in rs.options.items():
            choices = opt["choices"]
            if name in given:
                v = _coerce(given[name], choices)
            elif opt["default"] in (None, "random"):
                v = choices[self.rng.randrange(len(choices))]
                self.drawn.append(name)
            else:
                v = opt["default"]
            out[name] = v
        return out

    # ------------------------------------------------------------ flow
    def run(self, start: tuple[int, str | None] | None = None,
            arrange: Callable[[Game], Any] | None = None) -> Game:
        """Play to the end. start=(round, phase) skips ahead after setup+arrange."""
        prog = self.program
        self.started = time.monotonic()
        # a game arranged by a scenario, or started part-way, is not the one
        # its recipe replays: no playouts are offered in it (decisions.py)
        self.replayable = start is None and arrange is None
        try:
            try:
                self.phase = "setup"
                rig = self.rig
                if rig is not None and rig.after_setup:  # (rigged for the play, not the deal)
                    self.rig = None
                if prog.setup:
                    prog.setup(self)
                self.rig = rig
                if arrange is not None:
                    arrange(self)
                self._rounds(start)
            except EndGame:
                pass
            self.phase = "finish"
            self.current = None
            self._hook("before", "finish")
            if prog.finish:
                try:
                    prog.finish(self)
                except EndGame:
                    pass  # `end game` in finish just ends it
        except GameOver:
            pass
        except StopGame:
            self.stopped = True
            return self
        except DiagnosticError:
            raise
        except RuleError as e:
            if getattr(e, "entry", False) is not False:
                raise  # a scenario script problem: the scenario runner reports it
            raise self._runtime_error(self._failure(str(e))) from None
        except RecursionError:
            raise self._runtime_error("rules call themselves too deeply (a recursion without "
                                      "end?)") from None
        except MemoryError:
            raise self._runtime_error("the rules ran out of memory") from None
        except Exception as e:  # whatever the rules did, the designer gets a location
            raise self._runtime_error(self._failure(_friendly(e))) from None
        if prog.score_fn is not None:  # the result's scores, failing where the rules do
            try:
                self.final_scores = self.scores()
            except RuleError as e:
                raise self._runtime_error(self._failure(str(e))) from None
            except Exception as e:
                raise self._runtime_error(self._failure(_friendly(e))) from None
        self.finished = True
        if self.logging:
            self.score_track.append(("end", self.scores()))
        self._hook("after", "finish")
        if self.logging:
            self.say("game over: " + (", ".join(w.id for w in self.winners) or "no winner"),
                     event={"kind": "end", "winners": [w.id for w in self.winners],
                            "scores": self.scores()})
        return self

    def _rounds(self, start):
        prog = self.program
        start_round, start_phase = start if start else (1, None)
        r = start_round - 1
        skipping = start_phase is not None
        while True:
            if r and self.logging:  # (html log; a score function that fails: a note)
                self.score_track.append((f"round {r}", self.text_of(self.scores) or {}))
                self._summary(r)
            if prog.rounds_kind == "count":
                assert prog.rounds_fn is not None  # (a count of rounds has its expression)
                if r >= prog.rounds_fn(self):
                    return
            elif prog.rounds_kind == "until":
                assert prog.rounds_fn is not None
                if prog.rounds_fn(self):
                    return
            r += 1
            self.round = r
            self.fuel -= 1
            if self.fuel < 0:
                self.out_of_steps()
            when = prog.phase_when
            for i, (name, fn) in enumerate(prog.phases):
                if skipping:
                    if name != start_phase:
                        continue
                    skipping = False
                played = when[i] if when else None
                if played is not None and not played(self):
                    continue  # not played this round
                self.phase = name
                self.current = None
                self._hook("before", name)
                if self.logging:
                    self.say(f"== round {r}: {name} ==",
                             event={"kind": "phase", "round": r, "phase": name})
                fn(self)
                self._hook("after", name)
            if skipping:
                raise RuleError(f"no phase {start_phase!r} to start from")

    def _summary(self, r):
        """The end of a round in the log: the ruleset's `summary` lines, or
        each player's score."""
        start = len(self.log)
        if self.program.summary is not None:
            self.current = None
            # made as a log text is (text_of): no steps spent, a failure a note
            self.text_of(self.program.summary, self)
        elif self.program.rs.score_var is not None or self.program.score_fn is not None:
            scores = self.text_of(self.scores) or {}
            if scores_seen(self, None, scores):
                self.say(f"after round {r}: " + ", ".join(
                    f"{pid} {display(v)}" for pid, v in scores.items()),
                    event={"kind": "scores", "round": r, "scores": scores})
            else:  # a score behind a screen: each player reads its own
                for p in self.players:
                    if scores_seen(self, p, scores):
                        self.say(f"after round {r}: {p.id} {display(scores[p.id])}", [p.id],
                                 event={"kind": "scores", "round": r,
                                        "scores": {p.id: scores[p.id]}})
        for entry in self.log[start:]:
            entry["summary"] = True
            if entry.get("event", {}).get("kind") == "log":
                entry["event"] = {"kind": "summary"}
                if "others_event" in entry:
                    entry["others_event"] = {"kind": "summary"}

    def summary_for(self, side: Side | None) -> list[str] | None:
        """The ruleset's `summary` as `side` may read it now (the board summary
        of a person's view), or None without one. It is a summary's lines
        made aside: the log, the step budget and the game stay as they were."""
        if self.program.summary is None:
            return None
        log, fuel, logging, current = self.log, self.fuel, self.logging, self.current
        self.log, self.logging = [], True
        try:
            self.text_of(self.program.summary, self)
            made = self.log
        finally:
            self.log, self.fuel, self.logging, self.current = log, fuel, logging, current
        sid = side.id if side is not None else None
        return [e["text"] for e in (entry_for(x, sid) for x in made) if e is not None]

    def _hook(self, when, phase):
        if self.hooks is not None:
            self.hooks(self, when, phase)

    def prompt_for(self, side: Side, parts: list) -> str:
        """A prompt that shows values (parts: text, value, text, value ...),
        as the side choosing may see them: a component it may not see is
        'a <kind>'."""
        return "".join(p if i % 2 == 0 else
                       shown(p, {c for c in hidden_comps(p) if not sees(c, side)})
                       for i, p in enumerate(parts))

    def _failure(self, message):
        """What went wrong: running out of steps if the budget is spent (the
        fast back end checks a few plain lines after paying, stepchecks.py)."""
        if self.fuel < 0 and self.reserve <= 0:
            return self._out_of_steps_message()
        return message

    def _runtime_error(self, message):
        tb = sys.exc_info()[2]
        span, trace = A.NOWHERE, []
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == RULES_FILE:
                span = self.program.span_of(tb.tb_lineno)
                trace.append(span)
            tb = tb.tb_next
        rule = rule_at(self.program.compiled.places or [], span.path, span.line)
        where = self._failed_where or self.where_parts()
        if rule == f"phase {self.phase}":
            where = [w for w in where if w != self.phase]  # "in phase race", once
        err = DiagnosticError(Diagnostic(span.path, span.line, span.col, "RUNTIME",
                                         with_subject(message, span.path, span.line),
                                         hint=", ".join(([f"in {rule}"] if rule else []) + where)))
        err.trace = trace  # the rules active, outermost first (scenarios re-point)
        return err

    _failed_where = None  # where() when a failure left the turn it happened in

    def note_where(self) -> None:
        """A failure is leaving a turn (generated code): keep where it
        happened, whose turn included, before the turn is undone."""
        if self._failed_where is None and \
                not isinstance(sys.exc_info()[1], (GameOver, EndGame, StopGame)):
            self._failed_where = self.where_parts()

    def where(self) -> str:
        """Round, phase and whose turn: where a game was when something failed."""
        return ", ".join(self.where_parts())

    def where_parts(self) -> list[str]:
        parts = [f"round {self.round}" if self.round else "", self.phase or "",
                 f"{self.current.id}'s turn" if self.current is not None else ""]
        return [p for p in parts if p]

    # ------------------------------------------------------------ limits
    def out_of_steps(self) -> None:
        """The fuel of one chunk ran out: take the next chunk from the budget,
        or stop. Between chunks the game also looks at the clock, a backstop
        for steps that are each unusually costly (MAX_SECONDS; the time agents
        take to decide is not counted)."""
        while self.fuel < 0 and self.reserve > 0:
            take = min(STEP_CHUNK, self.reserve)
            self.reserve -= take
            self.fuel += take
        if self.fuel >= 0:
            if time.monotonic() - self.started > MAX_SECONDS:
                raise RuleError(f"the rules ran for more than {MAX_SECONDS} seconds without "
                                "the game ending (a loop without end?)")
            return
        raise RuleError(self._out_of_steps_message())

    def _out_of_steps_message(self):
        return (f"the rules ran {self.budget:,} steps without the game ending (a loop "
                "without end?); raise the budget with game.yaml 'limits: {steps: N}' "
                "or --max-steps if the game really needs it")

    def steps_used(self) -> int:
        return self.budget - self.reserve - self.fuel

    def attr(self, x: Any, name: str) -> Any:
        """`x.name` for a value the checker could not type: only the fields the
        language documents and the names the ruleset declares are readable."""
        t = type(x)
        fields = _FIELDS.get(t)
        if fields is not None and name in fields:  # the common case: c.holder, p.id ...
            return getattr(x, name)
        if t is Table:  # a row of a YAML table: its keys are what the ruleset declared
            return self.key(x, name)
        allowed = self.program.readable.get(x.kind if t is Comp else t)
        if allowed is None or name not in allowed:
            if x is None:
                raise RuleError(f"used .{name} of none (a value that is missing)")
            raise RuleError(f"{kind_of(x)} has no attribute {name!r}"
                            + (f" (a {x.kind})" if t is Comp else ""))
        if t is Zone:
            if name == "size":
                return len(x.items)
            if name == "items":  # paid for like a zone known to be one (builtins.items)
                return items(self, x)
            return getattr(x, name)
        if t is PieceRow:
            return sum(x.counts)
        return getattr(x, py_name(name))

    def set_attr(self, x: Any, name: str, value: Any) -> None:
        t = type(x)
        allowed = self.program.writable.get(x.kind if t is Comp else t)
        if allowed is None or name not in allowed:
            raise RuleError(f"{name!r} of {kind_of(x)} cannot be changed"
                            if x is not None else f"cannot set .{name} of none")
        setattr(x, py_name(name), value)

    def record(self, base: Any, fields: dict) -> Table:
        """`record([r,] name: value ...)`: a record of named fields (a Table,
        read as a YAML table's rows are), made anew or as r with some fields
        given anew; never changed in place."""
        if base is not None and not isinstance(base, dict):
            raise RuleError(f"record() copies a record, not {kind_of(base)}")
        out = Table()
        for k, v in (*(base.items() if base is not None else ()), *fields.items()):
            dict.__setitem__(out, k, v)
        return out

    def key(self, table: Any, name: str) -> Any:
        """t.name of a table read from YAML."""
        if not isinstance(table, dict):
            raise RuleError(f"{kind_of(table)} has no key {name!r}")
        try:
            return table[name]
        except KeyError:
            raise RuleError(f"the table has no key {name!r}") from None

    def win(self, who: Any) -> NoReturn:
        self.winners = FrozenList(who if isinstance(who, (list, tuple)) else (
            [] if who is None else [who]))
        raise GameOver()

    def end_game(self) -> NoReturn:
        raise EndGame()

    def begin_turn(self, who: Side) -> Side | None:
        prev = self.current
        self.current = who
        if self.logging:
            self.say_turn(who)
        return prev

    def say_turn(self, who: Side) -> None:
        self.say(f"-- {who.id}'s turn --", event={"kind": "turn", "player": who.id})

    def end_turn(self, prev: Side | None) -> None:
        self.current = prev

    def side_by_id(self, sid: str) -> Side | None:
        return getattr(self, f"n_{sid}")

    def check_invariants(self) -> None:
        """Conservation: every piece is in a supply or at one location, every
        component in exactly the zone it names. Raises RuleError if not."""
        rs = self.program.rs
        locations = self.spaces + self.comps
        notes = {piece for piece, _, _ in self.program.money}
        for piece, supply in rs.pieces.items():
            per_side = rs.piece_supply.get(piece, {})
            grand = 0
            a = py_name(piece)
            for s in self.sides:
                total = getattr(s, a) + sum(getattr(l, a).counts[s.index] for l in locations)
                expected = per_side.get(s.id, supply)
                grand += total - expected
                if total != expected and piece not in notes and piece not in self.program.given:
                    raise RuleError(f"{s.id} has {total} {piece} in play, not {expected}")
            if grand:  # notes of money change hands, but none appear or vanish
                raise RuleError(f"{grand:+d} {piece} appeared in play")
        seen = set()
        zones = list(self.zones.values())
        for owner in self.sides + self.spaces:
            for (scope, name) in rs.zones:
                if (scope == "side" and owner in self.sides) or \
                        (scope == "space" and owner in self.spaces):
                    zones.append(getattr(owner, py_name(name)))
        for z in zones:
            for c in z.items:
                if c.zone is not z or id(c) in seen:
                    raise RuleError(f"{c.id} is listed in {z.id} but lies in "
                                    f"{display(c.zone)}")
                seen.add(id(c))
        missing = [c.id for c in self.comps if c.zone is not None and id(c) not in seen]
        if missing:
            raise RuleError(f"components lost: {', '.join(missing[:5])}")


    # ------------------------------------------------------------ results
    def scores(self) -> dict[str, Any]:
        fn = self.program.score_fn
        if fn is not None:  # `score:` names a function of the rules
            if self.finished and self.final_scores is not None:
                return dict(self.final_scores)
            fuel = self.fuel  # (reading the score spends no steps: logged or not, one game)
            try:
                return {p.id: _score_shown(fn(self, p)) for p in self.players}
            finally:
                self.fuel = fuel
        var = self.program.rs.score_var
        if var is None:
            return {}
        out = {}
        for p in self.players:
            out[p.id] = _score_shown(getattr(p, py_name(var)))
        return out


def _score_shown(v: Any) -> Any:
    """A score as results show it: a number or text as it is, anything else
    in words (a text built from what some seat may not see: as the table
    reads it)."""
    return v.others if type(v) is Secret else \
        v if v is None or isinstance(v, (int, str)) else display(v)
