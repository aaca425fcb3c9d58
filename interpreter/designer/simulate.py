"""Many games, one per seed, in this process or spread over worker processes.

Each game depends only on its seed, so the per-seed results are the same
however the seeds are shared out; they are gathered back in seed order.
Workers are forked from a process that has already compiled the program,
so none of them loads the ruleset again (where fork is not available they
load it once each)."""
from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from ..support.diagnostics import DiagnosticError

if TYPE_CHECKING:
    from ..run.engine import Game, Program

T = TypeVar("T")


@dataclass(frozen=True)
class Outcome:
    seed: int
    winner: str | None = None  # a seat id, or "tie"
    code: str | None = None  # the first diagnostic's code, when the game failed
    error: str | None = None  # ... and its one-line text


@dataclass
class Job:
    """What every worker needs to play a seed: picklable, so that a spawned
    worker can rebuild the program from it."""
    path: str
    variant: str | None
    options: dict
    players: int | None
    max_steps: int | None
    agents: str
    make_agents: Callable  # (program, seed, options, players) -> list of agents
    backend: str = "fast"


_STATE: dict = {}  # the worker's program and job (set before forking, or by _load)


def play_seed(program: Program, job: Job, seed: int) -> Outcome:
    from ..run.engine import Game
    try:
        game = Game(program, seed=seed, options=job.options, players=job.players,
                    agents=job.make_agents(job.agents, program, seed, job.options, job.players),
                    steps=job.max_steps)
        game.run()
    except DiagnosticError as e:
        d = e.diagnostics[0] if e.diagnostics else None
        return Outcome(seed, code=d.code if d else "RUNTIME", error=d.short() if d else str(e))
    return Outcome(seed, winner=game.winners[0].id if len(game.winners) == 1 else "tie")


def _plain(value: Any) -> Any:
    """An option's value as JSON holds it."""
    return value if value is None or isinstance(value, (bool, int, float, str)) else str(value)


def _numeric(scores: dict) -> dict | None:
    """The scores when every one is a number, else None."""
    if not scores or not all(type(v) in (int, float) for v in scores.values()):
        return None
    return dict(scores)


def play_record(program: Program, job: Job, seed: int) -> dict:
    """One game as the balance report reads it (a plain dict: it travels between
    processes and machines): the winners, rounds played, final scores, each
    player's score at the end of every round, the options used (and which of
    them were drawn at random), and what each player held in its own zones
    when the first round began, for every zone holding one component; and
    `first`, the player whose turn came first once the rounds began (the
    turn order may be shuffled: it is not always the first seat), or None
    in a game without turns."""
    from ..run.engine import Game
    from ..model.state import py_name

    rec: dict[str, Any] = {"seed": seed, "seats": [], "first": None, "winners": [], "rounds": 0,
           "scores": None, "series": [], "options": {}, "drawn": [], "held": {},
           "code": None, "error": None}
    zones = [(z, py_name(z)) for z in program.rs.zone_names("side")]
    last = program.phases[-1][0] if program.phases else None
    series = rec["series"]

    def hook(game: Game, when: str, phase: Any) -> None:
        if when == "turn":  # (phase: whose turn ended) the first turn of round 1 on
            if rec["first"] is None and game.round >= 1:
                rec["first"] = phase
            return
        if when not in ("before", "after"):
            return
        if not rec["seats"]:  # the first phase of the first round: setup is done
            rec["seats"] = [p.id for p in game.players]
            for z, attr in zones:
                held: dict[str, str] = {}
                for p in game.players:
                    zone = getattr(p, attr, None)
                    items = list(zone) if zone is not None else []
                    if len(items) == 1:
                        held[p.id] = items[0].id
                rec["held"][z] = held
        if when == "after" and (phase == last or phase == "finish"):
            series.append(_numeric(game.scores()))

    try:
        game = Game(program, seed=seed, options=job.options, players=job.players,
                    agents=job.make_agents(job.agents, program, seed, job.options, job.players),
                    steps=job.max_steps)
        game.hooks = hook
        game.run()
    except DiagnosticError as e:
        d = e.diagnostics[0] if e.diagnostics else None
        rec.update(code=d.code if d else "RUNTIME", error=d.short() if d else str(e))
        return rec
    rec.update(seats=[p.id for p in game.players], winners=[w.id for w in game.winners],
               rounds=game.round, scores=_numeric(game.scores()),
               options={k: _plain(v) for k, v in sorted(dict(game.options).items())},
               drawn=sorted(game.drawn))
    rec["series"] = [s for s in series if s is not None]
    return rec


def _load(job: Job) -> None:
    from ..run.engine import load_program
    program, _ = load_program(job.path, variant=job.variant, options=job.options,
                              backend=job.backend)
    _STATE.update(program=program, job=job)


def _run(seed: int) -> Outcome:
    return play_seed(_STATE["program"], _STATE["job"], seed)


def _run_record(seed: int) -> dict:
    return play_record(_STATE["program"], _STATE["job"], seed)


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not every platform has it
        return os.cpu_count() or 1


def outcomes(program: Program, job: Job, seeds: range, workers: int) -> Iterator[Outcome]:
    """Every seed's outcome, in seed order."""
    return _spread(program, job, seeds, workers, play_seed, _run)


def records(program: Program, job: Job, seeds: range, workers: int) -> Iterator[dict]:
    """Every seed's play_record, in seed order."""
    return _spread(program, job, seeds, workers, play_record, _run_record)


def _spread(program: Program, job: Job, seeds: range, workers: int,
            play: Callable[[Program, Job, int], T], run: Callable[[int], T]) -> Iterator[T]:
    workers = max(1, min(workers, len(seeds)))
    if workers == 1:
        for s in seeds:
            yield play(program, job, s)
        return
    methods = multiprocessing.get_all_start_methods()
    ctx: multiprocessing.context.BaseContext
    if "fork" in methods:
        ctx = multiprocessing.get_context("fork")
        _STATE.update(program=program, job=job)
        pool = ctx.Pool(workers)
    else:
        ctx = multiprocessing.get_context("spawn")
        pool = ctx.Pool(workers, initializer=_load, initargs=(job,))
    chunk = max(1, min(50, len(seeds) // (workers * 8)))
    try:
        yield from pool.imap(run, seeds, chunksize=chunk)
    finally:
        pool.terminate()
        pool.join()
        _STATE.clear()
