"""Playouts from one seat's decision: what a search agent is given.

An agent whose class sets `wants_search = True` finds on each Decision a
`Playouts` for that seat at that decision. It knows the game only as the
seat does: each playout takes the game at the decision, turns it into a
sample that agrees with all the seat has seen and is random in all it has
not (determinise.py), then plays on, asking the agent's `policy` for every
decision (the seat's own and the others', as the sample has them) until
the policy says ROLLOUT, after which random agents finish the game — or
play `depth` more decisions, after which the score decides. The result is
each player's reward. Nothing else of the game is handed out: no state, no
seed, no other seat's hand.

Two ways to the decision, with the same results to the last bit:
- replay: each playout replays the game from the start (run/forward.py);
- fork (where the system has fork()): the game is replayed once and held
  at the decision; each playout runs in a forked copy of the process, which
  reports the rewards and the questions its policy answered; the policy is
  then asked the same questions here, so the agent's own state (its tree)
  moves on exactly as if the playout had run here. The policy must
  therefore depend only on its own state and the questions, never on the
  generator handed to playout() (which the sample and the random agents use).
A fork costs a millisecond or more, and the copy's first touches of memory
slow its play several times, so the first playout replays, the second
forks, and the quicker way plays the rest.
"""
from __future__ import annotations

import gc
import json
import os
import random
import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

from .agents import RandomAgent
from .builtins import RuleError
from .decisions import Decision
from .determinise import Knowledge, Tracking
from .forward import Asking, Position, Recipe, Replayer, answer, reward
from .program import DRAWS_INLINE, StopGame

if TYPE_CHECKING:
    from .engine import Game

ROLLOUT = -1  # a policy's answer: random agents play the rest of this playout
CAN_FORK = hasattr(os, "fork")


class Playouts:
    """Samples of the game from `seat`'s view at its decision, played out."""

    def __init__(self, game: Game, seat: int, depth: int | None = None):
        self._recipe = Recipe(game.program, game.seed, game.given_options(), game.asked_players,
                              game.budget, game.rig_given)
        self._choices = tuple(game.history)
        kept = game.searches.get(seat)
        if kept is None:
            kept = game.searches[seat] = Kept(self._recipe, seat)
        self._kept = kept
        self.seat = seat
        self.seats = [p.id for p in game.players]
        self.depth = depth  # random decisions after ROLLOUT before the score decides
        # after ROLLOUT, each seat takes the options the rules rank (`prefer`,
        # as their bots do) where they rank any, a random one elsewhere
        self.ranked = False
        # None: decided by the clock. Never in a process with other threads
        # (a worker of a pool): a forked copy would hold only this one, and
        # any lock another held, for good
        self.fork: bool | None = kept.fork if CAN_FORK and threading.active_count() == 1 \
            else False
        self._timed: list[float] = []  # seconds of the first playouts: replayed, forked
        self._knowledge: Knowledge | None = None
        self._root: Position | None = None
        self.playouts = 0

    def knowledge(self) -> Knowledge:
        """What the seat can tell of where components lie (worked out once)."""
        if self._knowledge is None:
            self._knowledge = self._kept.tracking.at(self._choices)
        return self._knowledge

    def playout(self, rng: random.Random, policy: Callable[[Asking], int]) -> list[float]:
        """Play one sample to its end (or its cut); each player's reward."""
        self.playouts += 1
        if self.fork is None:  # one of each, timed; then the quicker
            self.knowledge()
            started = time.perf_counter()
            result = self._forked(rng, policy) if self._timed else self._replayed(rng, policy)
            self._timed.append(time.perf_counter() - started)
            if len(self._timed) == 2:
                self.fork = self._timed[1] < self._timed[0]
                # a fork's cost stays flat through a game, a replay's grows:
                # once quicker, forks play every later decision untimed
                self._kept.fork = True if self.fork else None
            return result
        if self.fork:
            return self._forked(rng, policy)
        return self._replayed(rng, policy)

    def sample(self, rng: random.Random) -> Position:
        """One sample, as a position at the seat's decision: it can be read,
        and played on (apply) like any position."""
        recipe = replace(self._recipe, sample=(len(self._choices), self.seat, self.knowledge(),
                                               rng.getrandbits(64)))
        return Position(recipe, choices=self._choices)

    # -- by replay
    def _replayed(self, rng: random.Random, policy: Callable[[Asking], int]) -> list[float]:
        knowledge = self.knowledge()
        rooted = False

        def then(asking: Asking, d: Any) -> Any:
            nonlocal rooted
            if not rooted:
                rooted = True
                knowledge.sample(game, self.seat, rng)
            i = policy(asking)
            if i == ROLLOUT:
                agent = _randomise(game, rng, self.depth, self.ranked)[
                    self.seats.index(asking.player)]
                return agent.pick_some(d) if d.labels is None else agent.pick(d)
            return answer(asking, i)

        game = self._recipe.game(Replayer(self._choices, then))
        game.run()
        return _result(game)

    # -- by fork
    def _forked(self, rng: random.Random, policy: Callable[[Asking], int]) -> list[float]:
        knowledge = self.knowledge()
        if self._root is None:
            kept = self._kept
            carried = kept.root.carried(self._choices) if kept.root is not None else None
            self._root = kept.root = carried or Position(self._recipe, choices=self._choices)
        root = self._root
        root.asking  # reached here, once: every child starts from it
        gc.freeze()  # (the child's collections need not walk, and copy, all of it)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: play, report, leave without running any cleanup
            code = 0
            gc.disable()
            try:
                os.close(read)
                asked: list[tuple[str, str, list[str], int]] = []

                def recording(asking: Asking) -> int:
                    i = policy(asking)
                    asked.append((asking.player, asking.decision, list(asking.labels), i))
                    return i

                data = json.dumps({"rewards": self._play(root, knowledge, rng, recording),
                                   "asked": asked})
            except BaseException as e:  # reported to the parent, which raises it
                data, code = json.dumps({"error": f"{type(e).__name__}: {e}"}), 1
            with os.fdopen(write, "w", encoding="utf-8") as f:
                f.write(data)
            os._exit(code)
        gc.unfreeze()
        os.close(write)
        with os.fdopen(read, "r", encoding="utf-8") as f:
            text = f.read()
        os.waitpid(pid, 0)
        got: dict[str, Any] = json.loads(text) if text else \
            {"error": "the playout's process died"}
        if "error" in got:
            raise RuleError(f"a playout failed: {got['error']}")
        for player, decision, labels, i in got["asked"]:  # the policy moves on as there
            again = policy(Asking(player, decision, None, tuple(labels)))
            if again != i:
                raise RuleError("a search policy answered differently to the same question "
                                "(it must not draw from the playout's generator)")
        return [float(r) for r in got["rewards"]]

    def _play(self, root: Position, knowledge: Knowledge, rng: random.Random,
              policy: Callable[[Asking], int]) -> list[float]:
        """In a forked child: the root's game, sampled and played on."""
        game = root.game
        knowledge.sample(game, self.seat, rng)
        pos = root
        asking = pos.asking
        while asking is not None:
            i = policy(asking)
            if i == ROLLOUT:
                agent = _randomise(game, rng, self.depth, self.ranked)[
                    self.seats.index(asking.player)]
                if asking.offer is not None:  # a "choose some", as pick_some is asked it
                    counts = agent.pick_some(Decision(asking.player, asking.decision,
                                                      asking.prompt, None, None, asking.offer))
                    label = "pass" if counts is None else asking.offer.label(counts)
                    pos = pos._step(asking, label, counts)
                else:
                    k = agent.pick(Decision(asking.player, asking.decision, asking.prompt,
                                            asking.labels))
                    pos = pos._step(asking, asking.labels[k], k)
                break
            pos = pos._step(asking, asking.labels[i], answer(asking, i))
            asking = pos.asking
        return _result(pos.game)


class Kept:
    """What one seat's search keeps from one decision of a game to the next:
    its knowledge, worked out incrementally (determinise.Tracking), the game
    held at its last decision (each fork's start), carried on by the choices
    made since rather than replayed, and whether forks proved quicker."""

    def __init__(self, recipe: Recipe, seat: int):
        self.tracking = Tracking(recipe, seat)
        self.root: Position | None = None
        self.fork: bool | None = None


class _CutAgent(RandomAgent):
    """A random agent that stops the playout when the seats together have
    made `left[0]` more decisions (the score decides from there)."""

    name = "random"

    def __init__(self, seed: int, left: list[int]):
        super().__init__(seed)
        self.left = left

    def pick(self, d: Any) -> int:
        self._tick()
        return super().pick(d)

    def pick_some(self, d: Any) -> list[int] | None:
        self._tick()
        return super().pick_some(d)

    def _tick(self) -> None:
        self.left[0] -= 1
        if self.left[0] < 0:
            raise StopGame()


def _randomise(game: Game, rng: random.Random, depth: int | None,
               ranked: bool = False) -> list[Any]:
    """From here on every seat is a random agent (seeded from rng): the
    fast way choose() has for them (engine.Game.uniform), or, with a
    depth, ones that cut the playout after that many decisions; `ranked`:
    each seat takes the options the rules rank, where they rank any."""
    left = [depth if depth is not None else 0]
    if ranked:
        for p in game.players:
            p.ranked = True
    for i in range(len(game.agents)):
        seed = rng.getrandbits(64)
        if depth is None:
            a: RandomAgent = RandomAgent(seed)
            game.uniform[i] = a.rng.getrandbits if DRAWS_INLINE else None
        else:
            a = _CutAgent(seed, left)
            game.uniform[i] = None
        game.agents[i] = a
        game.viewless[i] = True
    return game.agents


def _result(game: Game) -> list[float]:
    """Each player's reward: the game's, or, for a playout cut short, a share
    of 1 among the players leading the score (none when nothing is scored)."""
    if not game.stopped:
        return reward(game)
    scores = {k: v for k, v in game.scores().items() if isinstance(v, (int, float))}
    if not scores:
        return [0.0] * len(game.players)
    best = max(scores.values())
    leaders = [k for k, v in scores.items() if v == best]
    return [1.0 / len(leaders) if p.id in leaders else 0.0 for p in game.players]
