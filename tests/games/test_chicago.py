"""Chicago: random games end by a rule of the game, with money conserved."""

import pytest
from helpers import RULES, compiled, random_agents, run_game

from interpreter.run.agents import RandomAgent
from interpreter.run.builtins import B_cash
from interpreter.run.engine import Game
from interpreter.support.limits import MAX_DECISIONS

RULESET = RULES / "chicago"
TOTAL = 265_000  # 420 notes: 20 x 5000, 100 each of 1000, 500, 100, 50


@pytest.fixture(scope="module")
def program():
    return compiled(RULESET)


def money(game):
    """All money: notes held by every side (bank included) plus credit."""
    return sum(B_cash(game, s) for s in game.sides) + sum(p.u_credit for p in game.players)


@pytest.mark.parametrize("bosses", [2, 3, 4])
def test_random_games_end_by_a_rule_with_money_conserved(program, bosses):
    checks = []

    def hook(game, when, phase):
        game.check_invariants()
        assert money(game) == TOTAL
        checks.append(1)

    for seed in range(12):
        game = run_game(program, hook, seed=seed, options={"bosses": bosses},
                        agents=random_agents(seed, bosses + 1))
        assert game.finished and game.decisions < MAX_DECISIONS
        assert len(game.winners) == 1
        w = game.winners[0]
        alive_bosses = [p for p in game.players if p.id != "police" and not p.u_out]
        by_rule = (game.v_ended_by_bank or w.u_marks >= 4 or
                   (w.id != "police" and alive_bosses == [w]) or
                   (w.id == "police" and not alive_bosses))
        assert by_rule, f"seed {seed}: {w.id} won without a rule of the game"
        assert len(game.players) == bosses + 1
    assert checks


@pytest.mark.parametrize("bosses,bank", [(2, 229_000), (3, 217_000), (4, 205_000)])
def test_setup_leaves_the_bank_its_due(program, bosses, bank):
    game = Game(program, seed=1, options={"bosses": bosses},
                agents=[RandomAgent(i) for i in range(bosses + 1)])
    program.setup(game)
    assert B_cash(game, game.n_bank) == bank
    assert all(B_cash(game, p) == 12_000 for p in game.players)
    game.check_invariants()
