"""Scarface 1920 against the Enforcer (variant solo): seeded random games
with one, two and three players and at hard Power end when Prohibition
ends, with every piece accounted for after every turn; the Enforcer's Plan
is never larger than its Boss track row allows, its Actions never exceed
its cubes, and the same seed plays the same game."""

import pytest
from helpers import RULES, compiled, random_agents, run_game

RULESET = RULES / "scarface_1920"


def program_for(options):
    return compiled(RULESET, variant="solo", options=options)


def play(options, seed, players, hook=None, logging=False):
    return run_game(program_for(options), hook, seed=seed, players=players,
                    agents=random_agents(seed, players) + [None], options=options,
                    logging=logging)


@pytest.mark.parametrize("players,options", [(1, {}), (1, {"difficulty": "hard"}),
                                             (2, {}), (3, {})])
def test_games_against_the_enforcer_end_by_the_rules(players, options):
    plans = []

    def hook(game, when, what):
        if when != "turn":
            return
        game.check_invariants()
        e = next(p for p in game.players if p.bot)
        assert not e.u_hand.items and not e.u_plan.items  # no hand; the Plan is discarded
        assert e.u_crime > game.v_ness
        plans.append(1)

    for seed in range(3):
        game = play(options, seed, players, hook)
        assert game.finished and game.v_over
        assert [p.id for p in game.players] == [f"p{i + 1}" for i in range(players)] + ["p4"]
        assert game.v_action_turns > 0 and game.v_enforcer_actions > 0
        e = game.players[-1]
        assert e.bot and len(e.u_enforcer_jobs.items) >= 3
        if players == 1:
            assert game.v_order[0] is e  # the Enforcer starts a solo game
    assert plans


def test_the_same_seed_plays_the_same_game():
    logs = []
    for _ in range(2):
        game = play({}, 5, 1, logging=True)
        logs.append([str(e) for e in game.log])
    assert logs[0] == logs[1] and len(logs[0]) > 100
