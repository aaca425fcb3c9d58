"""Differential testing of the back ends: play the same seeds with the same
random agents on the fast back end and on the reference one, and compare
everything a game leaves behind — every log entry, byte for byte, the
decisions, the winners, the scores and the steps it took — and then both
once more without a log (decisions, winners, scores and steps), since some
shortcuts are taken only when no log is kept.

The reference back end is the plain compilation of the rules; every
shortcut of the fast one (compiler.Compiler) must leave games exactly as
they were. tests/engine/test_backends.py runs a sample of seeds of every shipped
ruleset, variant and option set; `tools/bench --compare N` runs N seeds.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..run.agents import RandomAgent
from ..support.diagnostics import DiagnosticError
from ..run.engine import Game, Program, active_seats, load_program, with_players


@dataclass
class Mismatch:
    seed: int
    what: str  # "log line 17", "winners", "steps", ...
    fast: str
    reference: str

    def __str__(self) -> str:
        return (f"seed {self.seed}: {self.what} differs\n  fast:      {self.fast}\n"
                f"  reference: {self.reference}")


def record(program: Program, seed: int, options: dict, players: int | None,
           logging: bool = True) -> dict:
    """One seeded game with random agents, as comparable text."""
    seated = with_players(program.rs, options, players)
    seats = active_seats(program.rs, seated, players)
    agents = [None if sid in program.rs.bots else RandomAgent(f"{seed}:{i}")
              for i, (sid, _) in enumerate(seats)]
    game = Game(program, seed=seed, options=seated, agents=agents, players=players,
                logging=logging)
    try:
        game.run()
        failure = None
    except DiagnosticError as e:  # a game that fails must fail the same way
        failure = str(e)
    return {"log": [json.dumps(e, sort_keys=True, default=str) for e in game.log],
            "history": [repr(h) for h in game.history],
            "winners": repr([w.id for w in game.winners]),
            "scores": repr(game.scores()), "steps": str(game.steps_used()),
            "failure": repr(failure)}


def compare(path: str | Path, seeds: Iterable[int], variant: str | None = None,
            options: dict | None = None, players: int | None = None) -> list[Mismatch]:
    """The first difference of each seed that plays differently (empty: none)."""
    options = dict(options or {})
    fast, diags = load_program(path, variant=variant, options=options, backend="fast")
    ref, _ = load_program(path, variant=variant, options=options, backend="reference")
    if fast is None or ref is None:
        raise DiagnosticError(diags)
    out = []
    for seed in seeds:
        a, b = record(fast, seed, options, players), record(ref, seed, options, players)
        for key in ("log", "history"):
            for i, (x, y) in enumerate(zip(a[key], b[key])):
                if x != y:
                    out.append(Mismatch(seed, f"{key} entry {i + 1}", x, y))
                    break
            else:
                if len(a[key]) != len(b[key]):
                    out.append(Mismatch(seed, f"{key} length", str(len(a[key])),
                                        str(len(b[key]))))
            if out and out[-1].seed == seed:
                break
        else:
            for key in ("winners", "scores", "steps", "failure"):
                if a[key] != b[key]:
                    out.append(Mismatch(seed, key, a[key], b[key]))
                    break
            else:
                # and quietly: some shortcuts are taken only when no log is
                # kept (and a log's texts pay steps on both back ends)
                qa = record(fast, seed, options, players, logging=False)
                qb = record(ref, seed, options, players, logging=False)
                for key in ("history", "winners", "scores", "steps", "failure"):
                    if qa[key] != qb[key]:
                        out.append(Mismatch(seed, f"{key} (without a log)", qa[key], qb[key]))
                        break
    return out
