"""The command line: result formats, saving and replaying, exit codes."""
import json

from helpers import ROOT, cli
from helpers import cli_raising as run

RULESET = str(ROOT / "rules" / "smile_and_gun")
OPTS = ["--option", "shadow=the-badge", "--option", "infusion=second-chance"]


def test_play_json_has_the_result_fields():
    r = run("play", RULESET, "--seed", "4", "--json", *OPTS)
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["ruleset"] == "smile_and_gun" and out["seed"] == 4
    assert set(out["scores"]) == {"green", "yellow"}
    assert out["winner"] in ("green", "yellow", None)
    assert out["decisions"] == len(out["choices"]) > 30
    assert out["options"] == {"shadow": "the-badge", "infusion": "second-chance"}


def test_play_prints_the_game_and_the_scores():
    r = run("play", RULESET, "--seed", "1", "--agents", "random,random", *OPTS)
    assert r.exit_code == 0
    assert "round 3: settling_the_score" in r.output
    assert "score" in r.output and "winner" in r.output


def test_saved_game_replays_to_the_same_result(tmp_path):
    save = tmp_path / "game.json"
    first = json.loads(run("play", RULESET, "--seed", "9", "--json", "--save", str(save),
                           *OPTS).output)
    data = json.loads(save.read_text())
    assert data["seed"] == 9 and data["choices"] == first["choices"]
    again = json.loads(run("play", RULESET, "--replay", str(save), "--json").output)
    assert again["scores"] == first["scores"] and again["choices"] == first["choices"]


def test_a_truncated_save_resumes_with_the_agents(tmp_path):
    save = tmp_path / "game.json"
    run("play", RULESET, "--seed", "9", "--json", "--save", str(save), *OPTS)
    data = json.loads(save.read_text())
    data["choices"] = data["choices"][:10]
    save.write_text(json.dumps(data))
    out = json.loads(run("play", RULESET, "--replay", str(save), "--json",
                         "--agents", "first").output)
    assert out["choices"][:10] == data["choices"]
    assert len(out["choices"]) > 10


def test_simulate_json():
    r = run("simulate", RULESET, "--games", "5", "--json", *OPTS)
    out = json.loads(r.output)
    assert r.exit_code == 0
    assert out["games"] == 5 and out["errors"] == 0 and out["games_per_second"] > 0


def test_bad_option_is_a_diagnostic_not_a_traceback():
    # a wrong option is a usage error: exit 2, as in every command
    r = run("play", RULESET, "--option", "shadow=the-nobody")
    assert r.exit_code == 2
    assert "OPTION" in r.output and "the-badge" in r.output
    r = run("play", RULESET, "--option", "colour=red")
    assert r.exit_code == 2 and "unknown option 'colour'" in r.output


def test_usage_errors_exit_2():
    assert run("play", RULESET, "--agents", "random,random,random").exit_code == 2
    assert run("play", RULESET, "--agents", "genius").exit_code == 2
    assert run("play", RULESET, "--option", "novalue").exit_code == 2


def test_validate_clean_ruleset_exits_0():
    r = run("validate", RULESET)
    assert r.exit_code == 0, r.output
    assert "0 error(s)" in r.output


def test_players_picks_the_seats_for_every_command():
    chicago = str(ROOT / "rules" / "chicago")
    out = json.loads(run("play", chicago, "--players", "3", "--json", "--quiet").output)
    assert set(out["scores"]) == {"boss1", "boss2", "police"}
    assert out["options"]["bosses"] == 2  # the bosses option is the same choice
    out = json.loads(run("simulate", chicago, "--players", "4", "--games", "2", "--json").output)
    assert out["errors"] == 0
    info = json.loads(run("info", chicago, "--players", "5", "--json").output)
    assert info["players"] == {"min": 3, "max": 5, "default": 5,
                               "seats": ["boss1", "boss2", "boss3", "boss4", "police"]}
    race = str(ROOT / "rules" / "tutorial_race")
    assert run("play", race, "--players", "2", "--quiet").exit_code == 0
    moonshine = str(ROOT / "rules" / "moonshine_kingdom")
    out = json.loads(run("play", moonshine, "--players", "3", "--json", "--quiet").output)
    assert set(out["scores"]) == {"p1", "p2", "p3"}
    info = json.loads(run("info", moonshine, "--variant", "blood-oath", "--json").output)
    assert info["players"]["min"] == info["players"]["max"] == 4


def test_a_player_count_the_game_does_not_allow_exits_2():
    chicago = str(ROOT / "rules" / "chicago")
    for args in (["--players", "6"], ["--players", "2"], ["--players", "3", "--option", "bosses=4"]):
        r = cli("play", chicago, "--quiet", *args)
        assert r.exit_code == 2 and "OPTION" in r.output, (args, r.output)
    assert cli("info", RULESET, "--players", "3").exit_code == 2
    moonshine = str(ROOT / "rules" / "moonshine_kingdom")
    r = cli("play", moonshine, "--variant", "blood-oath", "--players", "3")
    assert r.exit_code == 2 and "variant.yaml" in r.output and "OPTION" in r.output, r.output


def test_a_save_remembers_the_player_count(tmp_path):
    save = tmp_path / "g.json"
    chicago = str(ROOT / "rules" / "chicago")
    first = json.loads(run("play", chicago, "--players", "4", "--json", "--save", str(save)).output)
    assert json.loads(save.read_text())["players"] == 4
    again = json.loads(run("play", chicago, "--replay", str(save), "--json").output)
    assert again == first


def test_simulate_gives_the_same_results_on_any_number_of_workers():
    chicago = str(ROOT / "rules" / "chicago")
    outs = []
    for workers in ("1", "2", "3"):
        r = run("simulate", chicago, "--players", "4", "--games", "12", "--seed", "5",
                "--json", "--workers", workers)
        assert r.exit_code == 0, r.output
        out = json.loads(r.output)
        out.pop("games_per_second")
        outs.append(out)
    assert outs[0] == outs[1] == outs[2] and sum(outs[0]["wins"].values()) == 12
    # failing games are reported the same way, in seed order
    failing = []
    for workers in ("1", "2"):
        r = run("simulate", chicago, "--games", "6", "--max-steps", "2000", "--json",
                "--workers", workers)
        assert r.exit_code == 1
        out = json.loads(r.output)
        out.pop("games_per_second")
        failing.append(out)
    assert failing[0] == failing[1] and failing[0]["errors"] == 6
    assert [e["seed"] for e in failing[0]["first_errors"]] == [0, 1, 2, 3, 4]
