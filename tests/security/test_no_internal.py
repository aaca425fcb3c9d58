"""No INTERNAL, no silent collisions: odd but possible input gets a plain,
located error (or simply works), never a traceback.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from helpers import RACE, ROOT, copy_ruleset, diagnostics, edit, locate
from helpers import cli_clean as cli

# (race, a fresh copy of the tutorial race without its scenarios, is a
# fixture of tests/conftest.py)


# ------------------------------------------------------------ names
@pytest.mark.parametrize("piece", ["holder", "index", "zone", "id", "kind"])
def test_a_piece_named_like_a_built_in_field_is_a_located_error(race, piece):
    text = edit(race / "game.yaml", "score: laps",
                f"score: laps\npieces:\n  {piece}: {{supply: 3}}")
    (d,) = [d for d in diagnostics(race) if d["code"] == "DUP-ID"]
    assert (d["line"], d["col"]) == locate(text, f"{piece}: {{supply")
    assert "built-in field" in d["message"]


def test_a_board_attribute_id_is_a_located_error(race):
    text = edit(race / "board.yaml", "  boost: {type: bool, default: false}",
                "  boost: {type: bool, default: false}\n  id: {type: int, default: 0}")
    (d,) = [d for d in diagnostics(race) if d["code"] == "DUP-ID"]
    assert (d["line"], d["col"]) == locate(text, "id: {type: int")


def test_a_piece_named_like_a_side_variable_is_a_located_error(race):
    text = edit(race / "game.yaml", "score: laps", "score: laps\npieces:\n  laps: {supply: 3}")
    (d,) = [d for d in diagnostics(race) if d["code"] == "DUP-ID"]
    assert (d["line"], d["col"]) == locate(text, "laps: {supply")


def test_a_seat_named_side_plays(race):
    edit(race / "game.yaml", "{id: blue, name: Blue}", "{id: side, name: Blue}")
    assert diagnostics(race) == []
    r = cli("play", race, "--seed", 3, "--json")
    assert r.exit_code == 0 and set(json.loads(r.output)["scores"]) == {"red", "side"}


def test_engine_fields_cannot_be_assigned(race):
    text = edit(race / "race.rules", "    if p.laps >= options.laps { win p }",
                "    p.index = 3\n    if p.laps >= options.laps { win p }")
    (d,) = [d for d in diagnostics(race) if d["code"] == "TYPE"]
    assert (d["line"], d["col"]) == locate(text, "p.index = 3")
    edit(race / "race.rules", "    p.index = 3\n", "    round = 3\n")
    assert [d["code"] for d in diagnostics(race)] == ["TYPE"]


def test_engine_fields_of_unknown_values_cannot_be_assigned_at_run_time(race):
    edit(race / "race.rules", "    if p.laps >= options.laps { win p }",
         "    let q = same(p)\n    q.index = 3")
    with open(race / "race.rules", "a", encoding="utf-8") as fh:
        fh.write("\ndef same(x) { return x }\n")  # hides the type from the checker
    r = cli("play", race, "--quiet")
    assert r.exit_code == 1 and "RUNTIME 'index' of a side cannot be changed" in r.output


# ------------------------------------------------------------ rich markup
MARKUP = "[bold]x[/] [/] [red"


def test_markup_in_names_labels_and_tables_is_shown_literally(race):
    edit(race / "game.yaml", "name: Tutorial Race", f"name: '{MARKUP}'")
    edit(race / "game.yaml", "{id: red, name: Red}", f"{{id: red, name: '{MARKUP}'}}")
    (race / "tables.yaml").write_text(f"kind: tables\ntables:\n  odd: ['{MARKUP}']\n"
                                      f"  rows: [{{a: '{MARKUP}'}}]\n  plain: {{k: '{MARKUP}'}}\n",
                                      encoding="utf-8")
    edit(race / "race.rules", 'option "move:{d.value}"', 'option "[/]{d.value}[bold]"')
    r = cli("info", race)
    assert r.exit_code == 0 and "[bold]x[/]" in r.output
    r = cli("play", race, "--seed", 1)
    assert r.exit_code == 0 and "[/]" in r.output and "[bold]x[/]" in r.output


# ------------------------------------------------------------ command line
def test_a_closed_pipe_is_not_a_traceback():
    cmd = f"{sys.executable} -m interpreter validate {ROOT / 'rules' / 'chicago'} " \
          f"{RACE} --format json | head -c 1"
    p = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in p.stderr and "INTERNAL" not in p.stderr, p.stderr
    assert "BrokenPipe" not in p.stderr


@pytest.mark.parametrize("args", [
    ["simulate", RACE, "--games", "-5"],
    ["simulate", RACE, "--games", "0"],
    ["play", RACE, "--option", "colour=red"],
    ["simulate", RACE, "--option", "colour=red"],
    ["info", RACE, "--option", "colour=red"],
    ["info", RACE, "--option", "laps=99"],
    ["play", RACE, "--option", "laps"],
    ["play", RACE, "--seed", "1e400"],
    ["play", RACE, "--bogus"],
    ["validate", RACE, "--bogus"],
    ["info", RACE, "--variant", "../x"],
])
def test_usage_errors_exit_2_in_every_command(args):
    r = cli(*args)
    assert r.exit_code == 2, (args, r.output)


def test_validate_a_path_too_long_for_the_system():
    r = cli("validate", "a" * 300)
    assert r.exit_code == 1 and "FILE-MISSING" in r.output


def test_validate_a_scenario_path_too_long_for_the_system(tmp_path):
    r = cli("validate", tmp_path / ("b" * 300 + ".yaml"))
    assert r.exit_code == 1


def test_a_symbolic_link_is_not_followed(race, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("kind: tables\ntables:\n  password: hunter2\n", encoding="utf-8")
    os.symlink(secret, race / "stolen.yaml")
    r = cli("validate", race)
    assert r.exit_code == 1 and "symbolic link" in r.output and "hunter2" not in r.output


def test_a_named_pipe_in_a_ruleset_does_not_hang(race):
    os.mkfifo(race / "pipe.yaml")
    r = cli("validate", race)  # text format: the source line is not read from the pipe
    assert r.exit_code == 1 and "regular file" in r.output


def test_a_file_that_is_not_utf8_is_an_encoding_error(race):
    (race / "race.rules").write_bytes(b"phase race {\n  \xff\n}\n")
    d = [d for d in diagnostics(race) if d["code"] == "FILE-ENCODING"]
    assert d and (d[0]["line"], d[0]["col"]) == (2, 3)


@pytest.mark.parametrize("variant", ["nope", "../solo"])
def test_a_scenarios_unknown_variant_points_at_its_key(tmp_path, variant):
    copy_ruleset("smile_and_gun", tmp_path / "smile_and_gun")
    scenario = tmp_path / "s.scenario.yaml"
    scenario.write_text("scenario: s\nruleset: smile_and_gun\n"
                        f"variant: '{variant}'\nthen: first\n", encoding="utf-8")
    (d,) = diagnostics(scenario)
    assert (d["path"], d["line"], d["col"], d["code"]) == (str(scenario), 3, 10, "OPTION")


def test_a_yaml_name_starting_with_underscore_is_refused_at_the_key(race):
    text = edit(race / "game.yaml", "    laps: 0", "    laps: 0\n    _hidden: 1")
    (d,) = [d for d in diagnostics(race) if d["severity"] == "error"]
    assert (d["code"], d["line"], d["col"]) == ("SCHEMA-VALUE", *locate(text, "_hidden"))
    assert "belong to the engine" in d["hint"]
