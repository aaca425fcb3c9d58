"""Tables: games played in the browser (`rulebook serve`).

A table is one game of the served ruleset. Its seats are each played by a
person, reached through an unguessable link, or by an agent (random, first,
the rules' bot ranks, a search). The game runs in a thread of its own, as a
game always runs: the rules call the agents. A person's agent (WebAgent)
publishes what each seat may see and waits for that seat's answer, which a
browser sends through the server. Nothing else reaches the game.

Every table is written to the state folder whenever a person is asked and
when its game ends (the choices made, as a save: run/savegame.py). Agents
play the same way again from the same seed, so a server stopped at any
moment and started again replays each table's choices and carries on where
it was. A hot-seat table (every person seat on one link) can be taken back
to any earlier decision the same way.
"""
from __future__ import annotations

import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..model.numbers import NumberLabels
from ..model.state import RuleError
from ..run.agents import RandomAgent, ScriptedAgent
from ..run.engine import Game, Program, StopGame, active_seats
from ..run.savegame import Step
from ..search.agents import make_agent
from ..support.diagnostics import DiagnosticError
from .pages import fragment
from .seatview import Snapshot, snapshot

PERSON = "person"
AGENTS = ("random", "first", "bot", "mcts")  # what an empty seat may be given
STATE_FORMAT = 1
_NOTHING = object()  # no answer yet


def new_token() -> str:
    return secrets.token_urlsafe(18)


@dataclass
class Seat:
    sid: str  # the seat's id in the ruleset
    agent: str  # PERSON, or an agent spec (random, first, bot, mcts, mcts:N ...)
    token: str = field(default_factory=new_token)


class Table:
    """One game of the served program, run in its own thread."""

    def __init__(self, tid: str, program: Program, seed: int, options: dict,
                 players: int | None, seats: list[Seat], folder: Path | None,
                 variant: str | None = None, hot_seat: bool = False,
                 choices: list[tuple[str, str, str]] | None = None,
                 spectator: str | None = None, host: str | None = None,
                 publish: Callable[[Table], None] | None = None, seq: int = 0):
        self.tid = tid
        self.program = program
        self.seed = seed
        self.options = dict(options)
        self.players = players
        self.seats = seats
        self.variant = variant
        self.hot_seat = hot_seat
        self.spectator = spectator or new_token()
        self.host = host or new_token()  # the designer's link: every view, undo, saves
        self.folder = folder
        self.publish = publish or (lambda table: None)
        self.replay = list(choices or [])  # choices to make again before play goes on
        self.lock = threading.Condition()
        self.game: Game | None = None
        self.asking: tuple[Seat, Any] | None = None  # (seat, Decision) waited on
        # counts the decisions put to people, across restarts and undos: an
        # answer names the one it is for, so an old page's answer is refused
        self.seq = seq
        self.answer: Any = _NOTHING  # the choice a browser sent, checked
        self.stopping = False
        self.finished = False
        self.error: str | None = None
        self.snapshot: Snapshot | None = None
        self.pages: dict[str, str] = {}  # key -> the HTML of its picture
        self.shown = (0, False)
        self.thread: threading.Thread | None = None
        self.created = time.time()

    # ---------------------------------------------------------------- seats
    def seat_of(self, token: str) -> Seat | None:
        return next((s for s in self.seats if s.token == token), None)

    def people(self) -> list[Seat]:
        return [s for s in self.seats if s.agent == PERSON]

    # ---------------------------------------------------------------- running
    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, name=f"table-{self.tid}", daemon=True)
        self.thread.start()

    def _agents(self) -> list[Any]:
        """One agent per active seat (None for the rules' own bots): the
        recorded choices first (each agent shown its seat's, so that its
        generator stands where it stood), then the seat's own."""
        script = [Step(p, label, name) for p, name, label in self.replay]
        out: list[Any] = []
        for i, seat in enumerate(self.seats):
            if seat.agent == PERSON:
                own: Any = WebAgent(self, seat)
                follow = None
            else:
                own = make_agent("random" if seat.agent == "bot" else seat.agent, self.seed, i)
                follow = own
            out.append(ScriptedAgent(script, fallback=own, follow=follow))
        return out

    def _run(self) -> None:
        agents = self._agents()
        seats = iter(agents)
        active = active_seats(self.program.rs, self.options, self.players)
        try:
            game = Game(self.program, seed=self.seed, options=self.options,
                        agents=[None if sid in self.program.rs.bots else next(seats)
                                for sid, _ in active],
                        players=self.players, logging=True)
            for side, seat in zip([p for p in game.players if not p.bot], self.seats):
                side.ranked = seat.agent == "bot"  # the rules' ranks, where they give some
            self.game = game
            game.run()
            self.finished = True
        except StopGame:
            return
        except DiagnosticError as e:
            self.error = e.diagnostics[0].short() if e.diagnostics else str(e)
            self.finished = True
        except RuleError as e:
            self.error = str(e)
            self.finished = True
        with self.lock:
            self.asking = None
        self.save()
        self.refresh()

    def stop(self) -> None:
        """End the game's thread (the table itself stays as it was saved)."""
        with self.lock:
            self.stopping = True
            self.lock.notify_all()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join(timeout=10)

    # ---------------------------------------------------------------- answers
    def wait(self, seat: Seat, d: Any) -> Any:
        """In the game's thread: `seat` is asked decision `d`; publish it, save,
        and wait for a valid answer (or the table stopping)."""
        with self.lock:
            self.seq += 1
            self.asking = (seat, d)
            self.answer = _NOTHING
        self.save()  # kept before anyone is shown it: a restart shows nothing unsaved
        self.refresh()
        with self.lock:
            while True:
                if self.stopping:
                    raise StopGame()
                got = self.answer
                if got is not _NOTHING:  # (answer_from checked it)
                    self.answer = _NOTHING
                    return self._valid(d, got)
                self.lock.wait()

    def answer_from(self, token: str, seq: int, choice: Any) -> str | None:
        """A browser's answer: None when taken, else why it was refused (the
        table is unharmed). Only the seat asked may answer (any person seat,
        through the host's link, at a hot-seat table), and only the decision
        now asked."""
        with self.lock:
            if self.asking is None:
                return "nothing is asked now"
            seat, d = self.asking
            if not self.may_act(token, seat):
                return f"it is {seat.sid}'s decision, not yours"
            if seq != self.seq:
                return "that decision has been answered already"
            try:
                self._valid(d, choice)
            except ValueError as e:
                return str(e)
            self.answer = choice
            self.asking = None
            self.lock.notify_all()
        return None

    def may_act(self, token: str, seat: Seat) -> bool:
        return token == seat.token or (self.hot_seat and token == self.host)

    @staticmethod
    def _valid(d: Any, choice: Any) -> Any:
        """The agent's answer for decision d from a browser's choice (an
        option's index, a "choose some" selection's counts or label, a number
        entry's number); ValueError when it is not one of the options."""
        if d.labels is None:  # a "choose some": a count per group, a selection's label, or pass
            if isinstance(choice, list):
                if len(choice) != len(d.some.groups) or \
                        any(type(n) is not int or n < 0 for n in choice):
                    raise ValueError("a selection is a count for each group")
                choice = d.some.label(choice)
            if not isinstance(choice, str) or len(choice) > 10_000:
                raise ValueError("a selection is named by its label")
            if choice == "pass" and d.some.may:
                return None
            try:
                return d.some.parse(choice)
            except RuleError as e:
                raise ValueError(f"not a selection on offer: {e}") from None
        labels = d.labels
        if isinstance(labels, NumberLabels) and isinstance(choice, str):
            i = labels.position(choice)
            if i is None:
                raise ValueError(f"not on offer: {labels.describe()}")
            return i
        if type(choice) is not int or not 0 <= choice < len(labels):
            raise ValueError(f"no option {choice!r} here (there are {len(labels)})")
        return choice

    # ---------------------------------------------------------------- what is seen
    def refresh(self) -> None:
        """Remake every seat's picture of the game and tell the server."""
        game = self.game
        if game is None:
            return
        with self.lock:
            asking = self.asking
            self.snapshot = snapshot(self, game, asking)
            self.pages = {}  # (each made into HTML once, when a browser of it is sent it)
            self.shown = (self.seq, self.finished)  # the decision and the end it shows
        self.publish(self)

    def page(self, key: str) -> str:
        """The HTML of `key`'s picture now (made once a picture)."""
        with self.lock:
            html = self.pages.get(key)
            if html is None:
                snap = self.snapshot
                if snap is None:
                    return "<p class=\"waiting\">the table is being set</p>"
                html = self.pages[key] = fragment(snap[key], self.program.rs)
            return html

    # ---------------------------------------------------------------- keeping
    def state(self) -> dict:
        game = self.game
        choices = [list(h) for h in game.history] if game is not None else \
            [list(c) for c in self.replay]
        return {"format": STATE_FORMAT, "table": self.tid, "ruleset": str(self.program.rs.path),
                "variant": self.variant, "seed": self.seed, "options": self.options,
                "players": self.players, "hot_seat": self.hot_seat,
                "seats": [{"seat": s.sid, "agent": s.agent, "token": s.token}
                          for s in self.seats],
                "spectator": self.spectator, "host": self.host,
                "finished": self.finished, "error": self.error, "choices": choices,
                "seq": self.seq,
                "created": self.created}

    def save(self) -> None:
        if self.folder is None:
            return
        path = self.folder / f"{self.tid}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.state()), encoding="utf-8")
        tmp.replace(path)  # whole or not at all: a kill mid-write loses nothing

    def save_file(self) -> dict:
        """The game as `rulebook play --save` writes it (for `--replay`)."""
        game = self.game
        return {"format": 1, "ruleset": str(self.program.rs.path), "ruleset_id":
                self.program.rs.id, "variant": self.variant, "seed": self.seed,
                "options": dict(game.options) if game is not None else self.options,
                "drawn": list(game.drawn) if game is not None else [],
                "players": sum(not p.bot for p in game.players) if game is not None
                else self.players,
                "agents": ["human" if s.agent == PERSON else s.agent for s in self.seats],
                "finished": self.finished,
                "choices": [list(h) for h in (game.history if game is not None else [])]}

    # ---------------------------------------------------------------- undo
    def back_to(self, n: int) -> Table:
        """A hot-seat table taken back to before its decision number n (0: the
        start): the same table, its game replayed to there."""
        if not self.hot_seat:
            raise ValueError("only a hot-seat table can be taken back")
        game = self.game
        history = list(game.history) if game is not None else list(self.replay)
        if not 0 <= n <= len(history):
            raise ValueError(f"there is no decision {n} to go back to")
        self.stop()
        again = Table(self.tid, self.program, self.seed, self.options, self.players,
                      self.seats, self.folder, self.variant, True, history[:n],
                      self.spectator, self.host, self.publish, self.seq)
        again.created = self.created
        return again


class WebAgent:
    """A person's seat: shows each seat what it may see, waits for the answer."""

    name = "person"
    wants_view = False  # (the table makes every seat's view itself, from the game)

    def __init__(self, table: Table, seat: Seat):
        self.table = table
        self.seat = seat

    def pick(self, d: Any) -> int:
        return self.table.wait(self.seat, d)

    def pick_some(self, d: Any) -> list[int] | None:
        return self.table.wait(self.seat, d)


def seats_for(program: Program, options: dict, players: int | None,
              agents: list[str]) -> list[Seat]:
    """The seats of a new table: one per seat the rules do not play, each
    given to a person or an agent (`agents`, one per such seat; missing ones
    are people)."""
    active = [sid for sid, _ in active_seats(program.rs, options, players)
              if sid not in program.rs.bots]
    out = []
    for i, sid in enumerate(active):
        agent = agents[i] if i < len(agents) and agents[i] else PERSON
        if agent != PERSON and agent.split(":")[0] not in AGENTS:
            raise ValueError(f"seat {sid}: no agent {agent!r} (a person, or one of "
                             f"{', '.join(AGENTS)})")
        if agent.startswith("mcts"):
            make_agent(agent, 0, 0)  # a malformed search spec is refused now
        out.append(Seat(sid, agent))
    return out


def random_seed() -> int:
    return RandomAgent(secrets.token_hex(8)).rng.randrange(1_000_000)
