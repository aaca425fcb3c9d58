"""The forward model (run/forward.py): a position reached by applying choices
one by one, or replayed from its recipe, is the very game that playing the
same choices from the start makes — on both back ends."""
from __future__ import annotations

import random

import pytest
from helpers import ROOT, compiled, random_agents

from interpreter.model.views import view_for
from interpreter.run.engine import Game
from interpreter.run.forward import Position, reward
from interpreter.run.agents import ScriptError
from interpreter.run.builtins import RuleError


def _end(game):
    """What a finished game is: winners, scores, and the table as all see it."""
    return ([w.id for w in game.winners], game.scores(), view_for(game, None), game.finished)


def _played(program, seed):
    return Game(program, seed=seed, agents=random_agents(seed, len(program.rs.seats))).run()


def _check(program, seed, cut_rng):
    played = _played(program, seed)
    pos = Position(program, seed)
    for k, (player, decision, label) in enumerate(played.history):
        asking = pos.asking
        assert asking is not None, f"seed {seed}: the position ended before choice {k}"
        assert (asking.player, asking.decision) == (player, decision)
        pos = pos.apply(label)
    assert pos.finished and pos.legal() == []
    assert _end(pos.game) == _end(played)
    assert pos.rewards() == reward(played)
    # from a recipe cut anywhere (a fresh replay), the same game goes on
    cut = cut_rng.randrange(len(played.history) + 1)
    again = Position(program, seed, choices=played.history[:cut])
    for _, _, label in played.history[cut:]:
        again = again.apply(label)
    assert _end(again.game) == _end(played)


@pytest.mark.parametrize("backend", ["fast", "reference"])
@pytest.mark.parametrize("game, seeds", [("tutorial_race", 300), ("smile_and_gun", 100)])
def test_stepping_through_a_game_is_the_game_played(game, seeds, backend):
    program = compiled(ROOT / "rules" / game, backend=backend)
    cut_rng = random.Random(backend)
    for seed in range(seeds):
        _check(program, seed, cut_rng)


def test_hidden_hands_step_the_same(hands):
    program = compiled(hands)
    cut_rng = random.Random(1)
    for seed in range(100):
        _check(program, seed, cut_rng)


def test_a_position_is_not_changed_by_what_is_applied_to_it():
    program = compiled(ROOT / "rules" / "smile_and_gun")
    pos = Position(program, 7)
    for _ in range(5):
        pos = pos.apply(0)
    labels, choices = pos.legal(), pos.choices
    assert len(labels) > 1
    a = pos.apply(0)  # carries on the paused game itself
    b = pos.apply(len(labels) - 1)  # a replay: the paused game has moved on
    assert pos.legal() == labels and pos.choices == choices
    assert a.choices[-1][2] == labels[0] and b.choices[-1][2] == labels[-1]
    assert a.choices[:-1] == b.choices[:-1] == choices
    # each goes on as a fresh replay of its own recipe does
    for p in (a, b, pos.copy()):
        assert p.legal() == Position(program, 7, choices=p.choices).legal()


def test_a_choice_not_on_offer_is_refused():
    program = compiled(ROOT / "rules" / "tutorial_race")
    pos = Position(program, 3)
    with pytest.raises(RuleError, match="not among"):
        pos.apply(len(pos.legal()))
    with pytest.raises(ValueError):
        pos.apply("move:99")
    with pytest.raises(ScriptError, match="not a legal choice"):
        Position(program, 3, choices=(("red", "move", "move:99"),)).legal()


def test_a_finished_position_takes_no_choice():
    program = compiled(ROOT / "rules" / "tutorial_race")
    played = _played(program, 5)
    end = Position(program, 5, choices=played.history)
    assert end.finished and end.asking is None
    with pytest.raises(RuleError, match="game is over"):
        end.apply(0)
