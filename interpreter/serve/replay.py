"""The replay viewer: a table's game stepped through, decision by decision
(or by round), as any seat saw it, a spectator, or the designer.

A step is the game replayed from its seed to just before decision K (the
recorded choices made again, the seats' agents never asked), so what a
step shows is what the game was then, exactly; its picture is made from the
chosen seat's view like a live page's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..run.agents import ScriptedAgent
from ..run.engine import Game, StopGame, active_seats
from ..run.savegame import Step
from .seatview import DESIGNER, PUBLIC, designer_picture, picture


class _Stop:
    """The agent of every seat once the recorded choices run out: the replay
    stops there."""

    name = "stop"

    def pick(self, d: Any) -> int:
        raise StopGame()

    def pick_some(self, d: Any) -> list[int] | None:
        raise StopGame()


class _Noting(ScriptedAgent):
    """Replays the script, noting the round and whose turn it is at each
    recorded choice."""

    def __init__(self, script: list, rounds: list[tuple[int, str | None]], game_of: Any):
        super().__init__(script, fallback=_Stop())
        self.rounds = rounds
        self.game_of = game_of

    def _note(self) -> None:
        if self.script:
            game = self.game_of()
            self.rounds.append((game.round, game.current.id if game.current else None))

    def pick(self, d: Any) -> int:
        self._note()
        return super().pick(d)

    def pick_some(self, d: Any) -> list[int] | None:
        self._note()
        return super().pick_some(d)


@dataclass
class Frame:
    """What a step of the replay shows (the attributes picture() reads of a table)."""

    tid: str
    seq: int
    finished: bool
    error: str | None
    hot_seat: bool = False


def replayed(table: Any, k: int, rounds: list[tuple[int, str | None]] | None = None) -> Game:
    """The table's game replayed up to (not including) recorded choice k."""
    choices = list(table.game.history) if table.game is not None else list(table.replay)
    script = [Step(p, label, name) for p, name, label in choices[:k]]
    box: list[Game] = []
    agent: Any = _Noting(script, rounds, lambda: box[0]) if rounds is not None else \
        ScriptedAgent(script, fallback=_Stop())
    active = active_seats(table.program.rs, table.options, table.players)
    game = Game(table.program, seed=table.seed, options=table.options, players=table.players,
                agents=[None if sid in table.program.rs.bots else agent for sid, _ in active],
                logging=True)
    box.append(game)
    for side, seat in zip([p for p in game.players if not p.bot], table.seats):
        side.ranked = seat.agent == "bot"
    try:
        game.run()
    except StopGame:
        pass
    return game


def step(table: Any, k: int, key: str) -> dict:
    """The picture of replay step k (0: before the first recorded choice) as
    `key` (a seat id, PUBLIC or DESIGNER) saw it, with where the step stands."""
    total = len(table.game.history) if table.game is not None else len(table.replay)
    k = max(0, min(k, total))
    game = replayed(table, k)
    frame = Frame(table.tid, k, game.finished, None)
    if key == DESIGNER:
        shown = designer_picture(frame, game)
    else:
        side = next((p for p in game.players if p.id == key), None) if key != PUBLIC else None
        shown = picture(frame, game, side, None)  # type: ignore[arg-type]
    shown.update(at=k, total=total)
    return shown


def rounds_of(table: Any) -> list[tuple[int, str | None]]:
    """(round, whose turn) at each recorded choice (replayed once, to the end)."""
    rounds: list[tuple[int, str | None]] = []
    replayed(table, len(table.game.history) if table.game is not None else len(table.replay),
             rounds)
    return rounds


def marks(rounds: list[tuple[int, str | None]], at: int) -> tuple[list, list]:
    """Where the viewer may jump: [(round, its first step)], and, in the round
    of step `at`, [(whose turn, its first step)] (a turn: consecutive choices
    in one side's turn)."""
    firsts: dict[int, int] = {}
    for i, (r, _) in enumerate(rounds):
        firsts.setdefault(r, i)
    here = rounds[min(at, len(rounds) - 1)][0] if rounds else None
    turns: list = []
    for i, (r, who) in enumerate(rounds):
        if r == here and who is not None and (i == 0 or rounds[i - 1] != (r, who)):
            turns.append((who, i))
    return sorted(firsts.items()), turns
