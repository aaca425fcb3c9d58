"""Information-Set Monte Carlo Tree Search (Cowling, Powley & Whitehouse 2012).

Each iteration draws one sample of the game as the agent's seat knows it
(run/determinise.py), walks down a tree of decisions shared by all samples —
the seat's own and every other player's, each chosen by UCB from the point
of view of the player deciding — adds one new decision, lets random agents
finish the game, and adds each player's reward along the path. Options a
sample does not offer are not counted against (an option's "availability"
is how often it was on offer, as in ISMCTS). In a game without hidden
information every sample is the game itself and this is plain UCT, with the
dice and shuffles still to come drawn afresh each time (the future is not
known either). The move played is the root's most visited option.

The agent is deterministic for its seed and an iteration budget; a time
budget (`mcts:2s`) stops by the clock, so it is not.
"""
from __future__ import annotations

import math
import random
import time
from typing import Any

from ..run.builtins import RuleError
from ..run.forward import Asking, answer, some_labels
from ..run.playout import ROLLOUT

UCB_C = 0.7  # exploration, for rewards in [0, 1]


class Node:
    """Statistics of one option at one point of the tree, and what follows it."""

    __slots__ = ("visits", "total", "offered", "kids")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.offered = 0  # how often it was on offer when its parent decided
        self.kids: dict[tuple[str, str, str], Node] = {}


class MCTSAgent:
    """`mcts[:N][:D][:bot]`: N iterations a decision (500 by default), or
    `mcts:Ts` seconds; with D, each playout's random play stops after D
    decisions and the score decides (the leaders share the win); with bot,
    playouts take the options the rules rank (`prefer`) where they rank any."""

    name = "mcts"
    wants_search = True

    def __init__(self, iterations: int = 500, seed: int | str = 0,
                 seconds: float | None = None, c: float = UCB_C, depth: int | None = None,
                 rollout: str = "random"):
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout  # "random", or "bot": the rules' `prefer` ranks where given
        self.depth = depth  # random decisions a playout makes before the score decides
        self.c = c
        self.rng = random.Random(f"mcts:{seed}")
        self.spent = 0.0  # seconds searching, all decisions
        self.searched = 0  # decisions searched
        self.runs = 0  # playouts, all decisions
        self.last: dict[str, tuple[int, float]] = {}  # the last root: label -> (visits, total)

    def pick(self, d: Any) -> int:
        return self._decide(d, list(d.labels))

    def pick_some(self, d: Any) -> list[int] | None:
        labels = some_labels(d.some)
        i = self._decide(d, labels)
        counts = answer(Asking(d.player, d.decision, d.prompt, tuple(labels), d.some), i)
        assert not isinstance(counts, int)  # (a "choose some" is answered by counts)
        return counts

    def _decide(self, d: Any, labels: list[str]) -> int:
        search = getattr(d, "search", None)
        if len(labels) < 2:
            return 0
        if search is None:  # never a silent random pick in a search agent's name
            raise RuleError(f"{d.player}'s search agent cannot look ahead here: the game was "
                            "arranged by a scenario or started part-way (play it from the "
                            "start, or give this seat another agent)")
        started = time.perf_counter()
        search.depth = self.depth
        search.ranked = self.rollout == "bot"
        root = Node()
        me = (d.player, d.decision)
        seats = search.seats
        n = 0
        while True:
            if self.seconds is None:
                if n >= self.iterations:
                    break
            elif n and time.perf_counter() - started >= self.seconds:
                break
            n += 1
            self._iterate(search, root, seats)
        self.spent += time.perf_counter() - started
        self.searched += 1
        self.runs += n
        best, most = 0, -1
        self.last = {}
        for i, lab in enumerate(labels):
            kid = root.kids.get((*me, str(lab)))
            if kid is not None:
                self.last[str(lab)] = (kid.visits, kid.total)
                if kid.visits > most:
                    best, most = i, kid.visits
        return best

    def _iterate(self, search: Any, root: Node, seats: list[str]) -> None:
        rng = random.Random(self.rng.getrandbits(64))  # the sample's and the random agents'
        prng = random.Random(self.rng.getrandbits(64))  # the tree's own (see run/playout.py)
        path: list[tuple[Node, int]] = []
        node: Node | None = root
        c = self.c

        def policy(asking: Asking) -> int:
            nonlocal node
            if node is None:
                return ROLLOUT
            labels = asking.labels
            if len(labels) < 2:
                return 0  # nothing to decide: not a point of the tree
            kids = node.kids
            keys = [(asking.player, asking.decision, str(lab)) for lab in labels]
            untried = []
            for i, key in enumerate(keys):
                kid = kids.get(key)
                if kid is None:
                    kid = kids[key] = Node()
                kid.offered += 1
                if kid.visits == 0:
                    untried.append(i)
            who = seats.index(asking.player)
            if untried:
                i = untried[prng.randrange(len(untried))]
                path.append((kids[keys[i]], who))
                node = None  # the new point: random agents play on from here
                return i
            best, score = 0, -1.0
            for i, key in enumerate(keys):
                kid = kids[key]
                s = kid.total / kid.visits + c * math.sqrt(math.log(kid.offered) / kid.visits)
                if s > score:
                    best, score = i, s
            kid = kids[keys[best]]
            path.append((kid, who))
            node = kid
            return best

        rewards = search.playout(rng, policy)
        for kid, who in path:
            kid.visits += 1
            kid.total += rewards[who]
