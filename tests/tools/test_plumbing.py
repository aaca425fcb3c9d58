"""The command line's plumbing: --json wherever a result is printed (after
--view), streams (results on stdout, diagnostics on stderr), no wrapping in
a pipe, command-line mistakes as usage errors naming the flag, flags that
--replay and --scenario ignore said aloud, `rulebook bench`."""
import json
from pathlib import Path

from helpers import RULES, edit
from helpers import cli_raising as run

RACE = str(RULES / "tutorial_race")
HANDS = str(RULES / "examples" / "hidden_hands")
SCENARIO = str(RULES / "tutorial_race" / "scenarios" / "first-to-finish.scenario.yaml")


def test_a_scenario_result_as_json(tmp_path):
    r = run("play", "--scenario", SCENARIO, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["ok"] is True and out["checks"] == 9 and out["diagnostics"] == []
    assert out["winners"] == ["red"] and out["choices"][0] == ["red", "move", "move:5"]
    bad = tmp_path / "bad.scenario.yaml"
    bad.write_text(Path(SCENARIO).read_text().replace("winners == [red]", "winners == [blue]")
                   .replace("ruleset: ..", f"ruleset: {RACE}"))
    r = run("play", RACE, "--scenario", bad, "--json")
    assert r.exit_code == 1
    out = json.loads(r.stdout)
    assert out["ok"] is False and out["diagnostics"][0]["code"] == "EXPECT-FAIL"
    assert out["diagnostics"][0]["path"] == str(bad)


def test_json_follows_the_view():
    """--view SEAT --json lists only the choices that seat reads in full."""
    whole = json.loads(run("play", HANDS, "--seed", "3", "--json").stdout)
    mine = json.loads(run("play", HANDS, "--seed", "3", "--json", "--view", "ann").stdout)
    public = json.loads(run("play", HANDS, "--seed", "3", "--json", "--view", "public").stdout)
    assert mine["view"] == "ann" and mine["winners"] == whole["winners"]
    assert {c[0] for c in mine["choices"]} == {"ann"} and mine["choices"]
    assert all(c in whole["choices"] for c in mine["choices"])
    assert public["choices"] == [] and public["decisions"] == 0
    assert mine["decisions"] == len(mine["choices"]) < whole["decisions"]


def test_results_on_stdout_diagnostics_on_stderr(ruleset_copy):
    broken = ruleset_copy("tutorial_race", to="race")
    edit(broken / "race.rules", "phase race {", "phase race {\n  lapz += 1")
    r = run("validate", broken)
    assert r.exit_code == 1
    assert "REF-UNDEF" in r.stderr and "REF-UNDEF" not in r.stdout
    assert r.stdout.startswith("1 error(s)")
    r = run("validate", broken, "--format", "json")  # asked for JSON: the result
    assert json.loads(r.stdout)[0]["code"] == "REF-UNDEF"
    r = run("play", broken)
    assert "REF-UNDEF" in r.stderr and r.stdout == ""
    lint = run("lint", RACE)
    assert lint.stdout.strip() == "0 finding(s)"


def test_no_wrapping_into_a_pipe():
    r = run("play", str(RULES / "chicago"), "--players", "3", "--seed", "2")
    lines = r.stdout.splitlines()
    assert max(len(line) for line in lines) > 100  # long lines stay whole
    assert not any(line.startswith("   ") and not line.strip().startswith(("│", "┃", "└", "┏"))
                   for line in lines)  # no continuation lines


def test_command_line_mistakes_name_the_flag():
    r = run("play", RACE, "--option", "foo=bar")
    assert r.exit_code == 2
    assert "Error: --option foo=bar: unknown option 'foo'" in r.output
    assert "game.yaml:1:1" not in r.output and "kind: game" not in r.output
    r = run("play", RACE, "--variant", "nope")
    assert r.exit_code == 2 and "--variant nope: no variant 'nope'" in r.output
    r = run("simulate", RACE, "--players", "5", "--games", "1")
    assert r.exit_code == 2 and "--players 5:" in r.output


def test_replay_and_scenario_say_which_flags_they_ignore(tmp_path):
    save = tmp_path / "g.json"
    assert run("play", RACE, "--seed", "4", "--quiet", "--save", save).exit_code == 0
    r = run("play", RACE, "--replay", save, "--seed", "5", "--option", "laps=3", "--quiet")
    assert r.exit_code == 0
    assert "note: --replay ignores --seed, --option" in r.stderr
    r = run("play", RACE, "--replay", save, "--quiet")
    assert "ignores" not in r.stderr
    r = run("play", "--scenario", SCENARIO, "--seed", "9")
    assert r.exit_code == 0 and "note: --scenario ignores --seed" in r.stderr


def test_simulate_prints_a_table_not_a_dict():
    r = run("simulate", RACE, "--games", "20", "--workers", "1")
    assert r.exit_code == 0
    assert "{" not in r.stdout and "20 games, 20 finished, 0 with errors" in r.stdout
    assert "red" in r.stdout and "%" in r.stdout


def test_bench_is_a_command_with_help():
    r = run("bench", "--help")
    assert r.exit_code == 0 and "--instructions" in r.output and "--compare" in r.output
    r = run("bench", RACE, "--report", "--games", "10")
    assert r.exit_code == 0 and "10 random games" in r.stdout and "ended:" in r.stdout
    r = run("bench", RACE, "--compare", "3")
    assert r.exit_code == 0 and "3 of 3 seeds play the same" in r.stdout
    r = run("bench", RACE, "--games", "5", "--repeat", "1", "--backend", "fast")
    assert r.exit_code == 0 and "games/s" in r.stdout
