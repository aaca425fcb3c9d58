"""The OpenSpiel bridge (bridges/openspiel_game.py): OpenSpiel's own
algorithms run on rulesets unchanged — its MCTS bot on a game of dice, its
ISMCTS bot on a game of hidden hands, CFR on a small game of secret
choices — with chance nodes for every random draw and information states
from each seat's log."""
from __future__ import annotations

import pytest
from helpers import ROOT, write_files

pyspiel = pytest.importorskip("pyspiel")
import numpy as np  # noqa: E402
from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability, ismcts, mcts  # noqa: E402

import interpreter  # noqa: E402

# rock, paper, scissors as one `choose each`; north also wins rock against
# rock, so the equilibrium is not the uniform policy
RPS = {
    "game.yaml": "kind: game\nid: rps\nname: Rock paper scissors\nplayers: 2\n"
                 "seats: [{id: north}, {id: south}]\nvariables:\n  side: {score: 0, sign: \"\"}\n"
                 "score: score\n",
    "rps.rules": """\
game {
  rounds 1 { throw }
  finish { win most(players, p => p.score) }
}

phase throw {
  choose each p in players as throw "rock, paper or scissors?" from x in ["rock", "paper", "scissors"] label x {
    p.sign = x
  }
  let n = north.sign
  let s = south.sign
  if (n == "rock" and s == "scissors") or (n == "rock" and s == "rock") or (n == "paper" and s == "rock") or (n == "scissors" and s == "paper") {
    north.score += 1
  }
  if (s == "rock" and n == "scissors") or (s == "paper" and n == "rock") or (s == "scissors" and n == "paper") {
    south.score += 1
  }
}
""",
}


def _play(state, rng, choose):
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            action = choose(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


def test_openspiels_mcts_bot_plays_the_race():
    game = interpreter.openspiel_game(ROOT / "rules" / "tutorial_race")
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, 1.4, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = _play(game.new_initial_state(), rng,
                  lambda s: bot.step(s) if s.current_player() == 0 else rng.choice(s.legal_actions()))
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])
    assert "roll" in state.history_str() or state.history()  # dice were chance nodes


def test_every_die_and_shuffle_is_a_chance_node(hands):
    game = interpreter.openspiel_game(hands)
    state = game.new_initial_state()
    assert state.is_chance_node()  # the setup's shuffle: 12 cards, then 11 ...
    assert [len(state.chance_outcomes())] == [12]
    rng = np.random.RandomState(0)
    state = _play(state, rng, lambda s: rng.choice(s.legal_actions()))
    chance = [a for a in state.full_history() if a.player == pyspiel.PlayerId.CHANCE]
    assert len(chance) >= 11 + 8  # the shuffle, and four rolls of two dice


def test_openspiels_ismcts_bot_plays_hidden_hands(hands):
    game = interpreter.openspiel_game(hands)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    rng = np.random.RandomState(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.4, 30,
                           random_state=rng)
    state = _play(game.new_initial_state(), rng,
                  lambda s: bot.step(s) if s.current_player() == 0 else rng.choice(s.legal_actions()))
    assert state.is_terminal()


def test_a_resampled_state_keeps_the_information_state_and_changes_the_rest(hands):
    game = interpreter.openspiel_game(hands)
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != 0:
        state.apply_action(state.chance_outcomes()[rng.randint(len(state.chance_outcomes()))][0]
                           if state.is_chance_node() else state.legal_actions()[0])
    mine = state.information_state_string(0)
    hands_seen = set()
    for _ in range(12):
        sample = state.resample_from_infostate(0, None)
        assert sample.information_state_string(0) == mine
        assert sample.legal_actions() == state.legal_actions()
        south = sample.position.game.n_south.u_hand.items
        hands_seen.add(tuple(sorted(c.id for c in south)))
    assert len(hands_seen) > 3  # south's hand is drawn afresh


def test_a_choice_made_in_secret_is_not_in_the_others_information_state(tmp_path):
    game = interpreter.openspiel_game(write_files(tmp_path / "rps", RPS))
    state = game.new_initial_state()
    before = state.information_state_string(1)
    state.apply_action(0)  # north: rock
    assert state.current_player() == 1
    after_rock = state.information_state_string(1)
    other = game.new_initial_state()
    other.apply_action(1)  # north: paper
    assert other.information_state_string(1) == after_rock  # south cannot tell
    assert "rock" not in after_rock.split("[")[0] and before.split("\n")[0] == "south"


def test_cfr_solves_a_small_game_of_secret_choices(tmp_path):
    game = interpreter.openspiel_game(write_files(tmp_path / "rps", RPS))
    solver = cfr.CFRSolver(game)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    uniform = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    found = exploitability.nash_conv(game, solver.average_policy())
    assert uniform > 0.1 and found < 0.02
    probs = solver.average_policy().action_probability_array[:, :3]
    assert probs[0][2] > 0.4 and probs[1][1] > 0.4  # north favours scissors, south paper
