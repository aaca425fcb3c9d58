"""A saved game replays exactly, and a save file is untrusted input.

Every shipped ruleset, variant and option set — options left to chance
included — is played, saved, and replayed through the command line; the
replay must give the same choices, log and result, byte for byte.
"""
from __future__ import annotations

import json

import pytest
from helpers import ROOT, RULES, copy_ruleset, edit
from helpers import cli_clean as cli

CONFIGS = [
    ("smile_and_gun", None, []),  # Shadow and Infusion drawn at random
    ("smile_and_gun", None, ["shadow=the-badge"]),  # one given, one drawn
    ("smile_and_gun", "solo", []),
    ("smile_and_gun", "solo", ["difficulty=legendary", "scenario=the-cask"]),
    ("smile_and_gun", "solo", ["difficulty=easy", "scenario=your-legacy"]),
    ("chicago", None, ["bosses=2"]),
    ("chicago", None, ["bosses=4"]),
    ("tutorial_race", None, ["laps=3"]),
    ("moonshine_kingdom", None, ["days=20"]),
    ("moonshine_kingdom", "blood-oath", ["days=20", "homes=random"]),
    ("scarface_1920", None, []),
    ("scarface_1920", None, ["job-draft=true", "customized-deck=true"]),
    ("scarface_1920", "solo", []),
    ("scarface_1920", "solo", ["difficulty=hard"]),
    ("examples/auction", None, []),  # bids entered as numbers
]


def opts(options):
    return [x for o in options for x in ("--option", o)]


@pytest.mark.parametrize("ruleset,variant,options", CONFIGS)
def test_every_saved_game_replays_identically(tmp_path, ruleset, variant, options):
    for seed in range(4):
        save, log1, log2 = (tmp_path / f"{seed}.{x}" for x in ("json", "a.jsonl", "b.jsonl"))
        args = ["play", RULES / ruleset, "--seed", seed, "--json", *opts(options)]
        if variant:
            args += ["--variant", variant]
        first = cli(*args, "--save", save, "--log", log1)
        assert first.exit_code == 0, first.output
        again = cli("play", RULES / ruleset, "--replay", save, "--json", "--log", log2)
        assert again.exit_code == 0, again.output
        assert json.loads(again.output) == json.loads(first.output)
        assert log2.read_bytes() == log1.read_bytes()


def test_drawn_options_are_recorded_in_the_order_drawn(tmp_path):
    save = tmp_path / "g.json"
    cli("play", RULES / "smile_and_gun", "--seed", 5, "--quiet", "--save", save)
    data = json.loads(save.read_text())
    assert data["drawn"] == ["shadow", "infusion"]
    assert set(data["options"]) == {"shadow", "infusion"}
    assert data["agents"] == ["random", "random"] and data["finished"] is True


def test_a_truncated_save_continues_the_same_game_with_random_agents(tmp_path):
    save = tmp_path / "g.json"
    full = json.loads(cli("play", RULES / "smile_and_gun", "--seed", 11, "--json",
                          "--save", save).output)
    data = json.loads(save.read_text())
    for cut in (1, 17, len(data["choices"]) // 2):
        part = dict(data, choices=data["choices"][:cut], finished=False)
        short = tmp_path / f"cut{cut}.json"
        short.write_text(json.dumps(part))
        out = json.loads(cli("play", RULES / "smile_and_gun", "--replay", short, "--json", "--agents", "random").output)
        assert out["choices"] == full["choices"] and out["scores"] == full["scores"]


def test_a_drawn_option_that_changed_is_reported(tmp_path):
    save = tmp_path / "g.json"
    cli("play", RULES / "smile_and_gun", "--seed", 5, "--quiet", "--save", save)
    data = json.loads(save.read_text())
    data["options"]["shadow"] = "the-badge" if data["options"]["shadow"] != "the-badge" \
        else "the-feds"
    save.write_text(json.dumps(data))
    r = cli("play", RULES / "smile_and_gun", "--replay", save)
    assert r.exit_code == 2 and "OPTION" in r.output and "drawn" in r.output


def test_the_ruleset_is_found_from_the_save_files_folder(tmp_path, monkeypatch):
    """A folder of rules and its saves moves as a whole (the save's ruleset is
    relative to the save), and replays there without naming the ruleset."""
    copy_ruleset("tutorial_race", tmp_path / "game")
    (tmp_path / "game" / "saves").mkdir()
    monkeypatch.chdir(tmp_path)
    first = cli("play", "game", "--seed", 2, "--json", "--save", "game/saves/g.json")
    data = json.loads((tmp_path / "game" / "saves" / "g.json").read_text())
    assert data["ruleset"] == ".."
    (tmp_path / "game").rename(tmp_path / "moved")
    monkeypatch.chdir(ROOT)  # elsewhere: the path still resolves from the save
    again = cli("play", "--replay", tmp_path / "moved" / "saves" / "g.json", "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.output) == json.loads(first.output)


@pytest.mark.parametrize("variant", ["../solo", "solo/../solo", "/etc", "a\\b", "..", "Solo!"])
def test_a_variant_is_a_folder_name_and_nothing_else(tmp_path, variant):
    r = cli("play", RULES / "smile_and_gun", "--variant", variant, "--quiet")
    assert r.exit_code == 2 and "OPTION" in r.output
    save = tmp_path / "g.json"
    cli("play", RULES / "tutorial_race", "--quiet", "--save", save)
    data = json.loads(save.read_text())
    data["variant"] = variant
    save.write_text(json.dumps(data))
    r = cli("play", RULES / "tutorial_race", "--replay", save, "--quiet")
    assert r.exit_code == 2 and "OPTION" in r.output


@pytest.mark.parametrize("text,code", [
    ("[" * 100_000 + "]" * 100_000, "SAVE-INVALID"),
    ('{"ruleset": ".", "seed": 1e400, "choices": []}', "SAVE-INVALID"),
    ('{"ruleset": ".", "seed": 1, "variant": 123, "choices": []}', "SAVE-INVALID"),
    ('{"ruleset": ".", "seed": 1, "choices": [["a", "b"]]}', "SAVE-INVALID"),
    ('{"ruleset": ".", "seed": 1, "choices": [], "extra": 1}', "SAVE-INVALID"),
    ("not json at all", "SAVE-INVALID"),
    ("", "SAVE-INVALID"),
])
def test_broken_save_files_are_plain_errors(tmp_path, text, code):
    save = tmp_path / "g.json"
    save.write_text(text)
    r = cli("play", RULES / "tutorial_race", "--replay", save)
    assert r.exit_code == 1 and f"{save}:" in r.output and code in r.output, r.output


def test_a_save_that_is_not_utf8_is_an_encoding_error(tmp_path):
    save = tmp_path / "g.json"
    save.write_bytes(b'{"ruleset": "\xff"}')
    r = cli("play", RULES / "tutorial_race", "--replay", save)
    assert r.exit_code == 1 and "FILE-ENCODING" in r.output


@pytest.mark.parametrize("flag", ["--log", "--save"])
def test_writing_into_a_missing_folder_is_a_usage_error(tmp_path, flag):
    r = cli("play", RULES / "tutorial_race", flag, tmp_path / "nowhere" / "out.json")
    assert r.exit_code == 2 and "no folder" in r.output


def test_log_and_save_are_written_up_to_a_failure(tmp_path):
    folder = copy_ruleset("tutorial_race", tmp_path / "race")
    edit(folder / "race.rules", "    if p.laps >= options.laps { win p }",
         "    if round == 3 { p.laps = 1 / 0 }")
    log, save = tmp_path / "log.jsonl", tmp_path / "g.json"
    r = cli("play", folder, "--seed", 1, "--log", log, "--save", save)
    assert r.exit_code == 1 and "RUNTIME division by zero" in r.output
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines and lines[-1]["round"] == 3
    data = json.loads(save.read_text())
    assert data["finished"] is False and "division by zero" in data["error"]
    assert len(data["choices"]) >= 4


def test_log_is_honoured_with_a_scenario(tmp_path):
    log = tmp_path / "log.jsonl"
    scenario = RULES / "tutorial_race" / "scenarios" / "first-to-finish.scenario.yaml"
    r = cli("play", "--scenario", scenario, "--log", log)
    assert r.exit_code == 0, r.output
    assert any("round 1" in json.loads(x)["text"] for x in log.read_text().splitlines())
