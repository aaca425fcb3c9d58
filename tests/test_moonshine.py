"""Moonshine Kingdom: random games with 3 and 4 players, and with the Blood
Oath, end by a rule of the game, with every barrel, Mobster, Safehouse and
Influence marker accounted for after every turn."""
from pathlib import Path

import pytest

from interpreter.agents import RandomAgent
from interpreter.engine import Game, load_program

RULESET = Path(__file__).resolve().parent.parent / "rules" / "moonshine_kingdom"
GAMES = 8


@pytest.fixture(scope="module")
def programs():
    out = {}
    for variant in (None, "blood-oath"):
        prog, diags = load_program(RULESET, variant=variant)
        assert prog is not None, [d.short() for d in diags]
        out[variant] = prog
    return out


def markers(game, p):
    """Where a mob's ten Influence markers are, read from the state itself."""
    staked = sum(j.u_stake for j in p.u_jobs.items)
    on_track = sum(1 for q in game.v_heat if q is p)
    return p.u_unbought + p.u_reserves + p.u_ledger + p.u_spent + staked + on_track


def play(program, seed, players, hook=None, **options):
    agents = [RandomAgent(f"{seed}:{i}") for i in range(players)]
    game = Game(program, seed=seed, players=players, agents=agents, options=options)
    game.hooks = hook
    return game.run()


@pytest.mark.parametrize("players,variant", [(3, None), (4, None), (4, "blood-oath")])
def test_random_games_end_by_a_rule_with_everything_conserved(programs, players, variant):
    checks = []

    def hook(game, when, what):
        if when in ("turn", "after"):
            game.check_invariants()  # barrels, Mobsters, Safehouses, Squads
            for p in game.players:
                assert markers(game, p) == 10, (p.id, game.where())
                assert 0 <= p.u_ledger <= 5 and p.u_spent == 0
            assert len(game.v_heat) < 5
            assert len(game.zones["market"].items) <= players + 1
            checks.append(1)

    shaken = 0
    for seed in range(GAMES):
        game = play(programs[variant], seed, players, hook)
        assert game.finished and len(game.players) == players
        if game.winners:
            (w,) = game.winners
            assert game.v_crowned is w, f"seed {seed}: {w.id} won without the Crown"
        else:
            assert game.round == 30 and game.v_crowned is None
        shaken += sum(1 for _, d, label in game.history if d == "shake" and label == "shake")
    assert checks and shaken > 0  # deals are proposed, and some are taken


def test_a_blood_oath_game_forms_two_alliances(programs):
    for seed in range(GAMES):
        game = play(programs["blood-oath"], seed, 4)
        if game.v_truce:
            partners = {p.id: p.u_partner.id for p in game.players}
            assert all(partners[partners[x]] == x for x in partners)
            assert len(set(partners.values())) == 4
            return
    pytest.fail("no random Blood Oath game reached the Truce")


def test_the_same_seed_plays_the_same_game(programs):
    a = play(programs[None], 5, 4)
    b = play(programs[None], 5, 4)
    assert a.history == b.history and a.scores() == b.scores()
