"""Variants as overlays, and seats played by the rules (bots)."""
import json
import shutil
from pathlib import Path

import pytest
from helpers import ROOT, RULES, cli, compiled, copy_ruleset

from interpreter.run.agents import RandomAgent
from interpreter.run.engine import Game, load_program, validate_ruleset

RULESET = RULES / "smile_and_gun"
SCENARIOS = ["none", "the-ravens", "the-red-death", "the-cask", "lenores-boys",
             "the-nevermore", "the-gold-bugs", "montresors-gang", "three-roses",
             "tarr-and-fethers", "your-legacy"]
LEVELS = ["easy", "standard", "hard", "legendary"]


def solo_game(scenario, level, seed):
    opts = {"scenario": scenario, "difficulty": level}
    program = compiled(RULESET, variant="solo", options=opts)
    game = Game(program, seed=seed, options=opts, agents=[RandomAgent(seed), None])
    game.hooks = lambda g, when, phase: g.check_invariants()
    return game.run()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_campaign_scenario_at_every_difficulty_finishes(scenario):
    for i, level in enumerate(LEVELS):
        game = solo_game(scenario, level, seed=100 + i)
        assert game.finished
        assert [w.id for w in game.winners] in (["green"], ["yellow"])
        assert game.history and all(who == "green" for who, _, _ in game.history)


def test_mandatory_card_cannot_be_changed():
    r = cli("play", RULESET, "--variant", "solo", "--option", "scenario=the-ravens", "--option",
            "infusion=knockoff")
    assert r.exit_code == 2  # a usage error, as every wrong option
    assert "OPTION" in r.output and "soulbond" in r.output


def test_suggested_card_is_the_default_but_may_change():
    program, _ = load_program(RULESET, variant="solo", options={"scenario": "the-cask"})
    game = Game(program, seed=1, options={"scenario": "the-cask"},
                agents=[RandomAgent(1), None])
    assert game.options["shadow"] == "the-siren"
    game = Game(program, seed=1, options={"scenario": "the-cask", "shadow": "the-feds"},
                agents=[RandomAgent(1), None])
    assert game.options["shadow"] == "the-feds"


def test_solo_needs_one_agent_and_info_shows_the_difficulty_table():
    r = cli("play", RULESET, "--variant", "solo", "--json", "--agents", "random,random")
    assert r.exit_code == 2 and "1 agent" in r.output
    r = cli("info", RULESET, "--variant", "solo", "--json")
    data = json.loads(r.output)
    assert data["tables"]["infusion_difficulty"]["hard"] == ["second-chance", "wanderlust"]
    assert {"id": "yellow", "name": "Yellow", "bot": True} in data["seats"]


def test_a_solo_game_replays_exactly(tmp_path):
    save = tmp_path / "solo.json"
    args = ["play", str(RULESET), "--variant", "solo", "--seed", "5", "--json"]
    first = json.loads(cli(*args + ["--save", str(save)]).output)
    again = json.loads(cli("play", RULESET, "--replay", save, "--json").output)
    assert again["scores"] == first["scores"] and again["variant"] == "solo"


@pytest.fixture()
def copy(ruleset_copy):
    return ruleset_copy("smile_and_gun", "scenarios", to="game")


def codes_at(diags, name):
    return [(d.code, Path(d.path).name, d.line, d.col) for d in diags if Path(d.path).name == name]


def test_override_of_a_missing_rule_is_an_error_with_its_place(copy):
    f = copy / "variants" / "solo" / "extra.rules"
    f.write_text("# extra\noverride def no_such_rule(p) {\n  return 1\n}\n")
    diags = validate_ruleset(copy)
    assert ("REF-UNDEF", "extra.rules", 2, 1) in codes_at(diags, "extra.rules")


def test_redefining_without_override_is_a_duplicate(copy):
    f = copy / "variants" / "solo" / "extra.rules"
    f.write_text("def downtown() {\n  return space(\"docks\")\n}\n")
    diags = validate_ruleset(copy)
    assert [d.code for d in diags if d.path.endswith("extra.rules")] == ["DUP-ID"]


def test_original_outside_an_override_is_an_error(copy):
    f = copy / "variants" / "solo" / "extra.rules"
    f.write_text("def helper() {\n  return original()\n}\n")
    diags = validate_ruleset(copy)
    assert ("REF-UNDEF", "extra.rules", 2, 10) in codes_at(diags, "extra.rules")


def test_overlay_names_unknown_option_card_and_seat(copy):
    f = copy / "variants" / "solo" / "variant.yaml"
    text = f.read_text()
    text = text.replace("bots: [yellow]", "bots: [purple]")
    text = text.replace("overlays:\n", "set_options:\n  colour: {default: red}\n"
                        "  infusion: {choices: [no-such-card]}\noverlays:\n")
    f.write_text(text)
    lines = text.splitlines()
    diags = validate_ruleset(copy)
    found = codes_at(diags, "variant.yaml")
    bots = next(i for i, ln in enumerate(lines, 1) if ln.startswith("bots:"))
    colour = next(i for i, ln in enumerate(lines, 1) if ln.startswith("  colour:"))
    card = next(i for i, ln in enumerate(lines, 1) if ln.startswith("  infusion: {choices"))
    assert ("REF-UNDEF", "variant.yaml", bots, 8) in found
    assert ("REF-UNDEF", "variant.yaml", colour, 3) in found
    assert ("OPTION", "variant.yaml", card, 24) in found


def test_overlay_folder_of_an_option_value_must_exist(copy):
    shutil.rmtree(copy / "variants" / "solo" / "campaign" / "the-cask")
    diags = validate_ruleset(copy)
    assert any(d.code == "FILE-MISSING" and "campaign/the-cask" in d.message for d in diags)


def test_bot_without_a_rank_is_a_runtime_error(copy):
    # drop the Crew's ranks on its movement die: the bot cannot decide
    f = copy / "variants" / "solo" / "solo.rules"
    text = f.read_text()
    start = text.index("        prefer [gap(")
    end = text.index("{", start)
    f.write_text(text[:start] + "       " + text[end:])
    program = compiled(copy, variant="solo")
    game = Game(program, seed=1, options={"shadow": "the-badge", "infusion": "soulbond"},
                agents=[RandomAgent(1), None])
    with pytest.raises(Exception) as e:
        game.run()
    assert "RUNTIME" in str(e.value) and "no rule to choose crew_move" in str(e.value)


def test_the_player_count_leaves_out_the_bots():
    r = cli("info", RULESET, "--variant", "solo", "--json")
    data = json.loads(r.output)
    assert data["players"] == {"min": 1, "max": 1, "default": 1, "seats": ["green", "yellow"]}
    r = cli("play", RULESET, "--variant", "solo", "--players", "1", "--quiet")
    assert r.exit_code == 0, r.output
    r = cli("play", RULESET, "--variant", "solo", "--players", "2")
    assert r.exit_code == 2
    assert "--players 2:" in r.output and "1 player besides its bots" in r.output
    assert "[OPTION, see " in r.output and "variant.yaml:8:7]" in r.output


def test_a_variant_chooses_its_default_player_count(tmp_path):
    scarface = ROOT / "rules" / "scarface_1920"
    r = cli("info", scarface, "--variant", "solo", "--json")
    data = json.loads(r.output)
    assert data["players"] == {"min": 1, "max": 3, "default": 1, "seats": ["p1", "p4"]}
    r = cli("info", scarface, "--variant", "solo", "--players", "3", "--json")
    assert json.loads(r.output)["players"]["seats"] == ["p1", "p2", "p3", "p4"]
    copy = copy_ruleset(scarface, tmp_path / "scarface_1920")
    f = copy / "variants" / "solo" / "variant.yaml"
    f.write_text(f.read_text().replace("default: 1}", "default: 4}"))
    diags = validate_ruleset(copy)
    assert any(d.code == "SCHEMA-VALUE" and d.path.endswith("variant.yaml") and
               "default" in d.message for d in diags), [d.short() for d in diags]
