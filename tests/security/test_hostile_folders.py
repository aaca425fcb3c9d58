"""A ruleset reads nothing outside the folder the user named (issue 30,
items 6 and 7): not through a variant, overlay or `variants/` folder that is
a symbolic link out of it, and not through a scenario's or a save's
`ruleset:` naming a folder elsewhere. Nothing from outside is quoted either."""
import json
import os
import shutil
from pathlib import Path

import pytest
from helpers import RACE, copy_ruleset, rulebook_process

SECRET = "AWS_KEY=hunter2"


def rulebook(*args, cwd=None):
    r = rulebook_process(*args, cwd=cwd)
    return r.returncode, r.stdout + r.stderr


def secrets(folder: Path) -> Path:
    """A folder of files that look like rule files and hold a secret on each line."""
    folder.mkdir(parents=True)
    (folder / "variant.yaml").write_text(f"kind: variant\nid: x\nname: {SECRET}\n[{SECRET}\n")
    (folder / "game.yaml").write_text(f"kind: game\n[{SECRET}\n")
    (folder / "leak.rules").write_text(f"{SECRET} {{\n")
    return folder


def race_copy(tmp_path) -> Path:
    return copy_ruleset("tutorial_race", tmp_path / "rs")


@pytest.mark.parametrize("link", ["variants/evil", "variants"])
def test_a_folder_linked_out_of_the_ruleset_is_never_read(tmp_path, link):
    outside = secrets(tmp_path / "outside" / "evil")
    rs = race_copy(tmp_path)
    if link == "variants":
        shutil.rmtree(rs / "variants", ignore_errors=True)
        os.symlink(outside.parent, rs / "variants")
    else:
        (rs / "variants").mkdir(exist_ok=True)
        os.symlink(outside, rs / link)
    for args in (["validate", rs], ["play", rs, "--variant", "evil", "--seed", "1"],
                 ["info", rs, "--variant", "evil"], ["lint", rs], ["docs", rs]):
        code, out = rulebook(*args)
        assert SECRET not in out, (args, out)
        assert "Traceback" not in out and "INTERNAL" not in out, (args, out)
    code, out = rulebook("validate", rs)
    assert code == 1 and "variants/evil/variant.yaml:1:1: FILE-MISSING" in out, out
    assert "symbolic link out of the ruleset folder" in out


SCENARIO = "scenario: s\nruleset: {}\nthen: first\nexpect:\n  - that: ['true']\n"


def downloaded(tmp_path):
    """A downloaded ruleset whose scenario names a folder beside it, and that
    folder: rule-looking files with a secret, and no game.yaml of its own."""
    outside = tmp_path / "outside"
    secrets(outside)
    (outside / "game.yaml").unlink()
    rs = race_copy(tmp_path)
    (rs / "scenarios" / "x.scenario.yaml").write_text(SCENARIO.format("../../outside"))
    return rs, outside


def test_a_scenario_names_only_a_ruleset_within_its_reach(tmp_path):
    rs, outside = downloaded(tmp_path)
    scenario = rs / "scenarios" / "x.scenario.yaml"
    for args in (["validate", scenario], ["play", "--scenario", scenario],
                 ["coverage", rs, "--games", "0"]):
        code, out = rulebook(*args)
        assert SECRET not in out, (args, out)
        assert "Traceback" not in out and "INTERNAL" not in out, (args, out)
        assert code != 0 or args[0] == "coverage", (args, out)  # (coverage: a warning)
    code, out = rulebook("validate", scenario)
    assert f"{scenario}:2:10: OPTION" in out and "outside this file's reach" in out, out
    from interpreter.designer.scenario import run_scenario_file  # (what the pytest plugin runs)
    result = run_scenario_file(scenario)
    assert not result.ok and result.diagnostics[0].code == "OPTION"
    # the same scenario, given its ruleset on the command line, runs it
    (scenario).write_text(SCENARIO.format(RACE))
    code, out = rulebook("play", RACE, "--scenario", scenario)
    assert code == 0, out


def test_a_save_names_only_a_ruleset_within_its_reach(tmp_path):
    rs, outside = downloaded(tmp_path)
    saves = tmp_path / "saves"
    saves.mkdir()
    save = saves / "g.json"
    code, out = rulebook("play", rs, "--seed", "1", "--quiet", "--save", save)
    assert code == 0, out
    data = json.loads(save.read_text())
    assert data["ruleset"] == "../rs"  # beside the save's folder: out of its reach
    code, out = rulebook("play", "--replay", save, "--quiet")
    assert code == 2 and f"{save}:1:1: OPTION" in out and "rulebook play RULESET" in out, out
    assert rulebook("play", rs, "--replay", save, "--quiet")[0] == 0
    save.write_text(json.dumps({**data, "ruleset": "../outside"}))
    code, out = rulebook("play", "--replay", save)
    assert code == 2 and SECRET not in out, out
    (saves / "inside").symlink_to(outside)  # (inside by name, outside really)
    save.write_text(json.dumps({**data, "ruleset": "inside"}))
    code, out = rulebook("play", "--replay", save)
    assert code == 2 and SECRET not in out, out


def test_a_folder_without_a_game_yaml_is_not_read(tmp_path):
    _, outside = downloaded(tmp_path)
    code, out = rulebook("validate", outside)
    assert code == 1 and SECRET not in out and "FILE-MISSING" in out, out
