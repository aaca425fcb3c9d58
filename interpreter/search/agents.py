"""Agents by name, as `--agents` gives them: random, first, mcts[:N] (or mcts:Ts)."""
from __future__ import annotations

import re
from typing import Any

from ..run.agents import make_agent as plain_agent
from .mcts import MCTSAgent

NAMES = ("random, first, mcts, mcts:N (iterations), mcts:Ts (seconds), mcts:N:D (playouts "
         "cut at D), mcts:N:bot (playouts by the rules' ranks)")
_MCTS = re.compile(r"mcts(?::(?:(\d{1,7})|(\d{1,4}(?:\.\d{1,3})?)s)(?::(\d{1,5}))?)?(:bot)?\Z")


def make_agent(spec: str, seed: int, seat: int) -> Any:
    """The agent `spec` names, for seat number `seat` of a game with `seed`."""
    spec = spec.strip()
    if spec.startswith("mcts"):
        m = _MCTS.match(spec)
        if m is None:
            raise ValueError(f"unknown agent {spec!r}: an MCTS agent is mcts, mcts:N "
                             "(N iterations a decision) or mcts:Ts (T seconds a decision), "
                             "then optionally :D (random play cut after D decisions, the "
                             "score deciding) and :bot (playouts by the rules' prefer ranks)")
        iterations, seconds, depth = m.group(1), m.group(2), m.group(3)
        if depth is not None and int(depth) < 1:
            raise ValueError(f"{spec!r}: a playout cut needs at least 1 decision")
        if iterations is not None and int(iterations) < 1:
            raise ValueError(f"{spec!r}: an MCTS agent needs at least 1 iteration")
        if seconds is not None and float(seconds) <= 0:
            raise ValueError(f"{spec!r}: an MCTS agent needs some time")
        return MCTSAgent(int(iterations) if iterations else 500, seed=f"{seed}:{seat}",
                         seconds=float(seconds) if seconds else None,
                         depth=int(depth) if depth else None,
                         rollout="bot" if m.group(4) else "random")
    try:
        return plain_agent(spec, seed, seat)
    except ValueError as e:
        raise ValueError(str(e).replace("(random, first, human)", f"({NAMES}, human)")
                         .replace("(agents here: random, first)",
                                  "(agents here: random, first, mcts)")) from None
