"""Scarface 1920: seeded random games with 2, 3 and 4 players and with each
variant end when Prohibition ends, with every thug, vehicle, Control and
Business marker accounted for after every turn; hands, decks, unfulfilled
Jobs and the money behind each screen never reach another seat."""
import json

import pytest
from helpers import RULES, cli, compiled, random_agents, run_game

from interpreter.model.views import log_for, view_for

RULESET = RULES / "scarface_1920"
GAMES = 4


@pytest.fixture(scope="module")
def program():
    return compiled(RULESET)


def play(program, seed, players, hook=None, logging=False, **options):
    return run_game(program, hook, seed=seed, players=players,
                    agents=random_agents(seed, players), options=options, logging=logging)


CASES = [(2, {}), (3, {}), (4, {}), (3, {"job_draft": "true"}),
         (4, {"customized_deck": "true"}), (2, {"job_draft": "true", "customized_deck": "true"})]


@pytest.mark.parametrize("players,options", CASES)
def test_random_games_end_with_prohibition_and_everything_conserved(program, players, options):
    checked = []

    def hook(game, when, what):
        if when != "turn":
            return
        game.check_invariants()  # every thug, vehicle, marker and good accounted for
        supply = game.sides[[s.id for s in game.sides].index("supply")]
        for p in game.players:
            assert p.u_money >= 0 and 1 <= p.u_crime <= 11
            assert p.u_crime > game.v_ness
        for t in game.comps:
            if t.kind == "tile" and t.zone is not None and t.zone.id.endswith(".tiles"):
                assert sum(t.u_control.counts) <= 1, t.id
                marks = sum(getattr(t, "u_" + k).counts[supply.index]
                            for k in ("speakeasy", "casino", "brothel"))
                assert marks <= 3, t.id
        checked.append(1)

    for seed in range(GAMES):
        game = play(program, seed, players, hook, **options)
        assert game.finished and len(game.players) == players
        assert game.v_over, "the game must end when Prohibition ends"
        assert game.v_extras >= 2
        assert game.winners
    assert checked


def test_the_job_draft_leaves_three_jobs_each(program):
    seen = {}

    def hook(game, when, what):
        if when == "before" and what == "turns" and not seen:
            seen.update({p.id: len(p.u_jobs.items) for p in game.players})

    play(program, 3, 4, hook, job_draft="true")
    assert seen == {"p1": 3, "p2": 3, "p3": 3, "p4": 3}


def test_the_customized_deck_swaps_level_one_associates_for_members(program):
    swapped = 0
    for seed in range(4):
        seen = {}

        def hook(game, when, what):
            if when == "before" and what == "turns" and not seen:
                seen["pool"] = len(game.z_draft_pool.items)
                for p in game.players:
                    cards = p.u_hand.items + p.u_deck.items
                    seen[p.id] = (len(cards), [c for c in cards if c.kind == "associate"],
                                  len(p.u_picked.items))

        play(program, seed, 3, hook, customized_deck="true")
        assert seen["pool"] == 0
        for pid in ("p1", "p2", "p3"):
            size, associates, picked = seen[pid]
            assert size == 6 and picked == 0  # a swap keeps the deck's size
            assert len(associates) <= 2 and all(a.u_level == 1 for a in associates)
            swapped += len(associates)
    assert swapped > 0


@pytest.mark.parametrize("players", [2, 4])
def test_hands_decks_jobs_and_money_stay_with_their_owner(program, players):
    for seed in range(2):
        game = play(program, seed, players, logging=True)
        # (the final count, when the screens are lifted, is public)
        public = [e for e in log_for(game, None) if e["phase"] != "finish"]
        assert public and not any("behind the screen" in e["text"] for e in public)
        for me in game.players:
            view = view_for(game, me)
            for other in game.players:
                if other is me:
                    continue
                mine = view["sides"][other.id]
                assert mine["variables"]["money"] == {"hidden": "variable"}
                for zone in ("hand", "deck", "jobs", "looking", "discard"):
                    assert set(mine["zones"][zone]) == {"count"}, zone
            for e in log_for(game, me):
                if "behind the screen" in e["text"] and e["phase"] != "finish":
                    assert e["text"].startswith(me.id), e["text"]


def test_options_with_hyphens_on_the_command_line():
    r = cli("play", RULESET, "--seed", "2", "--players", "2", "--option", "job-draft=true",
            "--option", "customized-deck=true", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["options"]["job_draft"] is True and out["options"]["customized_deck"] is True
