"""Any ruleset as an OpenSpiel game (extra: `pip install .[openspiel]`).

    game = interpreter.openspiel_game("rules/tutorial_race")
    state = game.new_initial_state()

The game is sequential: the engine asks one seat at a time, and a `choose
each` (a simultaneous choice) is that many decisions none of which sees the
others' answers (each seat's information state shows what its log shows).
Every random draw of the rules — a die, a shuffle, a draw from a bag, a
random pick — is a chance node of n alike likely outcomes, so algorithms
that weigh chance themselves (CFR, expectimax) see it; those that sample
just apply `chance_outcomes()`. An action is the position of an option
among the decision's labels (`action_to_string` gives the label).

Information: a player's information state is its log as it may read it
(every line from the start) and the decision it is asked; its observation is
its view of the table as JSON. `resample_from_infostate` gives a game that
agrees with everything that player has seen (run/determinise.py), as
OpenSpiel's ISMCTS asks.

Rewards are terminal: a win is 1, shared among the winners. Seats the rules
play themselves (bots) are not OpenSpiel players. A state is its recipe and
its history: cloning costs a tuple, and the clone is replayed the first time
it is read (a state carried on by apply_action goes on in place).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from ..model.state import Zone
from ..model.views import log_for, view_for
from ..run.determinise import Knowledge
from ..run.forward import CHANCE, MAX_LISTED, Position, Recipe
from ..support.limits import MAX_DECISIONS
from .program import program_for

MAX_ACTIONS = MAX_LISTED + 1


class _Spec:
    """What a registered game is: its recipe and its OpenSpiel players."""

    def __init__(self, recipe: Recipe, seats: list[str], hidden: bool, outcomes: int):
        self.recipe, self.seats, self.hidden, self.outcomes = recipe, seats, hidden, outcomes


# by OpenSpiel short name: copies of games and states OpenSpiel makes on its
# own side carry no Python attributes, only their name
_SPECS: dict[str, _Spec] = {}
_CLASSES: dict[str, type] = {}


class RulesetGame(pyspiel.Game):
    """One ruleset (with its variant, options and player count) as a game."""

    name = ""  # each registered game is a subclass naming itself

    def __init__(self, params: dict | None = None):
        name = self.name
        spec = _SPECS[name]
        info = pyspiel.GameInfo(
            num_distinct_actions=MAX_ACTIONS, max_chance_outcomes=spec.outcomes,
            num_players=len(spec.seats), min_utility=0.0, max_utility=1.0,
            utility_sum=None, max_game_length=MAX_DECISIONS)
        super().__init__(_game_type(name, len(spec.seats), spec.hidden), info, params or {})

    def new_initial_state(self) -> RulesetState:
        return RulesetState(self, Position(_spec(self).recipe))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return _Observer(perfect_recall)


class RulesetState(pyspiel.State):
    """A game of the ruleset at one point: a forward-model position."""

    def __init__(self, game: Any, position: Position):
        super().__init__(game)
        self.position = position

    @property
    def seats(self) -> list[str]:
        return _spec(self.get_game()).seats

    # -- who, what
    def current_player(self) -> int:
        asking = self.position.asking
        if asking is None:
            return pyspiel.PlayerId.TERMINAL
        if asking.player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return self.seats.index(asking.player)

    def _legal_actions(self, player: int) -> list[int]:
        asking = self.position.asking
        if asking is None or asking.player == CHANCE:
            return []
        return list(range(min(len(asking.labels), MAX_ACTIONS)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        asking = self.position.asking
        assert asking is not None and asking.player == CHANCE
        n = len(asking.labels)
        return [(i, 1.0 / n) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        self.position = self.position.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        asking = self.position.asking
        if asking is None or not 0 <= action < len(asking.labels):
            return f"action {action}"
        label = str(asking.labels[action])
        return f"roll {label}" if asking.player == CHANCE else label

    def is_terminal(self) -> bool:
        return self.position.asking is None

    def returns(self) -> list[float]:
        if self.position.asking is not None:
            return [0.0] * len(self.seats)
        ids = [p.id for p in self.position.game.players]
        rewards = self.position.rewards()
        return [float(rewards[ids.index(s)]) for s in self.seats]

    # -- copies and samples
    def __deepcopy__(self, memo: Any) -> RulesetState:
        return RulesetState(self.get_game(), self.position.copy())

    def clone(self) -> RulesetState:
        return RulesetState(self.get_game(), self.position.copy())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> \
            RulesetState:
        """A game that agrees with all `player_id` has seen and is random in
        all it has not (the sampler is not used: the sample is drawn as the
        rules deal, from a generator seeded by the history and a counter)."""
        pos = self.position
        seat = [p.id for p in pos.game.players].index(self.seats[player_id])
        knowledge = Knowledge.of(pos.recipe, pos.choices, seat)
        self._samples = getattr(self, "_samples", 0) + 1
        seed = int(hashlib.sha256(repr((pos.choices, self._samples)).encode()).hexdigest()[:15], 16)
        recipe = replace(pos.recipe, sample=(len(pos.choices), seat, knowledge, seed))
        return RulesetState(self.get_game(), Position(recipe, choices=pos.choices))

    def __str__(self) -> str:
        asking = self.position.asking
        if asking is None:
            return "game over: " + (", ".join(w.id for w in self.position.game.winners)
                                    or "no winner")
        return f"{asking.player} to choose {asking.decision}: {', '.join(asking.labels)}"


class _Observer:
    """What a player knows: its log and the decision asked (information
    state), or its view of the table (observation). Strings only."""

    def __init__(self, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: RulesetState, player: int) -> None:
        pass

    def string_from(self, state: RulesetState, player: int) -> str:
        game = state.position.game
        sid = state.seats[player]
        side = next(p for p in game.players if p.id == sid)
        if not self.perfect_recall:
            return json.dumps(view_for(game, side), sort_keys=True, default=str)
        lines = [e["text"] for e in log_for(game, side)]
        asking = state.position.asking
        if asking is not None and asking.player == sid:
            lines.append(f"[{sid} to choose {asking.decision}: {' | '.join(asking.labels)}]")
        return f"{sid}\n" + "\n".join(lines)


def _game_type(name: str, players: int, hidden: bool) -> Any:
    return pyspiel.GameType(
        short_name=name, long_name=name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False,
        parameter_specification={})


def openspiel_game(path: str | Path, *, variant: str | None = None, options: dict | None = None,
                   players: int | None = None, seed: int = 0) -> RulesetGame:
    """The ruleset at `path` as an OpenSpiel game (registered with OpenSpiel
    under `rulebook_<id>`, with a suffix for a variant, options or player
    count, so pyspiel.load_game finds it too). `seed` only draws the options
    a ruleset leaves to chance at the start."""
    program = program_for(path, variant, options)
    recipe = Recipe(program, seed, dict(options or {}), players, chance=True, logging=True)
    first = Position(recipe).game
    seats = [p.id for p in first.players if not p.bot]
    rs = program.rs
    hidden = bool(rs.var_visibility) or any(
        z.visibility != "public" for z in _zone_specs(first))
    tag = repr((variant, sorted((options or {}).items()), players, seed))
    name = f"rulebook_{rs.id}" + ("" if tag == repr((None, [], None, 0)) else
                                  "_" + hashlib.sha256(tag.encode()).hexdigest()[:10])

    # the most outcomes a draw has: a shuffle or bag of every component, a die
    outcomes = max(64, len(first.comps) + 1,
                   *[c.u_sides for c in first.comps if type(getattr(c, "u_sides", None)) is int])

    new = name not in _SPECS
    _SPECS[name] = _Spec(recipe, seats, hidden, outcomes)
    if new:
        _CLASSES[name] = type(f"RulesetGame_{name}", (RulesetGame,), {"name": name})
        pyspiel.register_game(_game_type(name, len(seats), hidden), _CLASSES[name])
    return _CLASSES[name]()


def _spec(game: Any) -> _Spec:
    return _SPECS[game.get_type().short_name]


def _zone_specs(game: Any) -> list[Any]:
    """Every zone of a game: the game's, each side's, each space's."""
    zones = list(game.zones.values())
    for c in game.comps:
        if c.zone is not None:
            zones.append(c.zone)
    for s in game.sides:
        zones += [v for v in vars(s).values() if type(v) is Zone]
    return zones


