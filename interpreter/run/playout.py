"""Playouts from one seat's decision: what a search agent is given.

An agent whose class sets `wants_search = True` finds on each Decision a
`Playouts` for that seat at that decision. It knows the game only as the
seat does: each playout replays the game to the decision, turns it into a
sample that agrees with all the seat has seen and is random in all it has
not (determinise.py), then plays on, asking the agent's `policy` for every
decision (the seat's own and the others', as the sample has them) until
the policy says ROLLOUT, after which random agents finish the game. The
result is each player's reward. Nothing else of the game is handed out:
no state, no seed, no other seat's hand.
"""
from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

from .agents import RandomAgent
from .determinise import Knowledge
from .forward import Asking, Position, Recipe, Replayer, answer, reward
from .program import DRAWS_INLINE

if TYPE_CHECKING:
    from .engine import Game

ROLLOUT = -1  # a policy's answer: random agents play the rest of this playout


class Playouts:
    """Samples of the game from `seat`'s view at its decision, played out."""

    def __init__(self, game: Game, seat: int):
        self._recipe = Recipe(game.program, game.seed, game.given_options(), game.asked_players,
                              game.budget, game.rig_given)
        self._choices = tuple(game.history)
        self.seat = seat
        self.seats = [p.id for p in game.players]
        self._knowledge: Knowledge | None = None
        self.playouts = 0

    def knowledge(self) -> Knowledge:
        """What the seat can tell of where components lie (worked out once)."""
        if self._knowledge is None:
            self._knowledge = Knowledge.of(self._recipe, self._choices, self.seat)
        return self._knowledge

    def playout(self, rng: random.Random, policy: Callable[[Asking], int]) -> list[float]:
        """Play one sample to its end; each player's reward (win 1, shared)."""
        knowledge = self.knowledge()
        rooted = False

        def then(asking: Asking, d: Any) -> Any:
            nonlocal rooted
            if not rooted:
                rooted = True
                knowledge.sample(game, self.seat, rng)
            i = policy(asking)
            if i == ROLLOUT:
                _randomise(game, rng)
                agent = game.agents[self.seats.index(asking.player)]
                return agent.pick_some(d) if d.labels is None else agent.pick(d)
            return answer(asking, i)

        game = self._recipe.game(Replayer(self._choices, then))
        game.run()
        self.playouts += 1
        return reward(game)

    def sample(self, rng: random.Random) -> Position:
        """One sample, as a position at the seat's decision: it can be read,
        and played on (apply) like any position."""
        recipe = replace(self._recipe, sample=(len(self._choices), self.seat, self.knowledge(),
                                               rng.getrandbits(64)))
        return Position(recipe, choices=self._choices)


def _randomise(game: Game, rng: random.Random) -> None:
    """From here on every seat is a random agent (seeded from rng): the
    fast way choose() has for them (engine.Game.uniform)."""
    for i in range(len(game.agents)):
        a = RandomAgent(rng.getrandbits(64))
        game.agents[i] = a
        game.uniform[i] = a.rng.getrandbits if DRAWS_INLINE else None
        game.viewless[i] = True
