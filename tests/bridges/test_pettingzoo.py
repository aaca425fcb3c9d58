"""The PettingZoo bridge (bridges/pettingzoo_env.py): every shipped game
passes PettingZoo's own API and seed tests, and an observation holds only
what its seat may see."""
from __future__ import annotations

import warnings

import pytest
from helpers import ROOT, compiled

pytest.importorskip("pettingzoo")
import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import interpreter  # noqa: E402
from interpreter.run.engine import Game  # noqa: E402
from interpreter.run.agents import RandomAgent  # noqa: E402

GAMES = [("tutorial_race", {}), ("smile_and_gun", {}), ("smile_and_gun", {"variant": "solo"}),
         ("chicago", {}), ("moonshine_kingdom", {"players": 4}),
         ("scarface_1920", {"players": 4}), ("scarface_1920", {"variant": "solo"})]


@pytest.mark.parametrize("game, kw", GAMES, ids=[f"{g}{'-' + '-'.join(map(str, k.values())) if k else ''}"
                                                  for g, k in GAMES])
def test_every_shipped_game_passes_the_api_and_seed_tests(game, kw):
    path = ROOT / "rules" / game
    with warnings.catch_warnings():
        # PettingZoo's advice for simple games (a Box observation, agents named
        # player_N) does not fit a dict observation with an action mask
        warnings.simplefilter("ignore")
        api_test(interpreter.pettingzoo_env(path, **kw), num_cycles=1000)
        seed_test(lambda: interpreter.pettingzoo_env(path, **kw), num_cycles=300)


def test_a_seeded_episode_is_the_game_rulebook_plays(tmp_path):
    """The env's game for a seed, with the choices a random agent makes, is
    the game Game plays with that agent."""
    path = ROOT / "rules" / "smile_and_gun"
    program = compiled(path)
    played = Game(program, seed=5, agents=[RandomAgent("a"), RandomAgent("b")]).run()
    env = interpreter.pettingzoo_env(path)
    env.reset(seed=5)
    for player, _, label in played.history:
        assert env.agent_selection == player
        labels = env.infos[player]["labels"]
        env.step(labels.index(label))
    assert all(env.terminations.values())
    winners = {w.id for w in played.winners}
    assert {a for a, r in env._cumulative_rewards.items() if r > 0} == winners


def test_an_observation_shows_only_what_its_seat_sees(hands):
    env = interpreter.pettingzoo_env(hands)
    env.reset(seed=3)
    layout = env.layout
    north = env.observe("north")["observation"]
    south = env.observe("south")["observation"]
    game = env.position.game
    for c in game.comps:
        if c.kind != "card" or c.zone is None or c.zone.visibility == "public":
            continue
        unseen = layout.comp_at[c.id] + len(layout.zones)
        owner = c.zone.owner.id if c.zone.visibility == "owner" else None
        # a card in north's hand: north knows where; south only that it is unseen
        assert north[unseen] == (0.0 if owner == "north" else 1.0)
        assert south[unseen] == (0.0 if owner == "south" else 1.0)
    mask = env.observe(env.agent_selection)["action_mask"]
    other = [a for a in env.agents if a != env.agent_selection][0]
    assert mask.sum() == len(env.infos[env.agent_selection]["labels"]) > 1
    assert env.observe(other)["action_mask"].sum() == 0
    assert north.dtype == np.float32 and north.shape == (layout.size,)


def test_an_action_not_on_offer_is_refused():
    env = interpreter.pettingzoo_env(ROOT / "rules" / "tutorial_race")
    env.reset(seed=1)
    n = len(env.infos[env.agent_selection]["labels"])
    with pytest.raises(ValueError, match="not on offer"):
        env.step(n)
