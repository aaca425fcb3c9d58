"""Runtime failures in plain words: the rule it happened in, whose turn,
the part of the line it is about, the last log lines, and the same report
from `play` and `simulate` for the same seed."""
import json
from pathlib import Path

from helpers import cli_raising, copy_ruleset, edit

from interpreter.run.failures import rule_at, with_subject


def _race(tmp_path, before_roll="", in_advance=""):
    rules = copy_ruleset("tutorial_race", tmp_path / "race")
    edit(rules / "game.yaml", "    cup: {description: The two dice}",
         "    cup: {description: The two dice}\n    box: {description: Always empty}")
    edit(rules / "race.rules", "      roll cup\n", "      roll cup\n" + before_roll)
    edit(rules / "race.rules", "def advance(p, n) {\n", "def advance(p, n) {\n" + in_advance)
    return str(rules)


def test_an_index_past_the_end_names_the_expression_and_the_turn(tmp_path):
    rules = _race(tmp_path, before_roll="      let d = box[3]\n")
    r = cli_raising("play", rules)
    assert r.exit_code == 1
    assert "RUNTIME `box[3]`: an index past the end of a list (in phase race, round 1, " \
           "red's turn)" in r.stderr, r.stderr
    assert "the last lines of the log:" in r.stderr and "-- red's turn --" in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_an_attribute_of_none_names_the_value_and_the_function(tmp_path):
    rules = _race(tmp_path, in_advance="  let c = box.top\n  p.laps = c.value + n\n")
    r = cli_raising("play", rules, "--quiet")
    assert r.exit_code == 1
    assert "RUNTIME used .value of `c`, which is none (a value that is missing) " \
           "(in advance, round 1, race, red's turn)" in r.stderr, r.stderr
    assert "the last lines" not in r.stderr  # --quiet: the diagnostic only


def test_simulate_reports_what_play_reports(tmp_path):
    rules = _race(tmp_path, in_advance="  if n == 6 { p.laps = box.top.value }\n")
    plays = {}
    for seed in range(6):
        r = cli_raising("play", rules, "--seed", str(seed), "--quiet")
        if r.exit_code == 1:
            plays[seed] = [x for x in r.stderr.splitlines() if "RUNTIME" in x][0]
    assert plays, "some seed should roll a 6"
    r = cli_raising("simulate", rules, "--games", "6", "--json", "--workers", "1")
    out = json.loads(r.stdout)
    simulated = {e["seed"]: e["error"] for e in out["first_errors"]}
    assert simulated.keys() == plays.keys()
    for seed, line in plays.items():
        assert simulated[seed] in line or line.endswith(simulated[seed]), (simulated[seed], line)
        assert "in advance" in simulated[seed]


def test_rule_names_and_subjects():
    places = [("a.rules", 1, "phase race"), ("a.rules", 9, "advance"),
              ("cards.yaml", 4, "a handler of landed on boost")]
    assert rule_at(places, "a.rules", 1) == "phase race"
    assert rule_at(places, "a.rules", 8) == "phase race"
    assert rule_at(places, "a.rules", 30) == "advance"
    assert rule_at(places, "cards.yaml", 5) == "a handler of landed on boost"
    assert rule_at(places, "cards.yaml", 2) is None and rule_at(places, "b.rules", 3) is None
    # a line with two candidates keeps the plain message
    assert with_subject("an index past the end of a list", "", 1) == \
        "an index past the end of a list"


def test_a_function_written_into_its_caller_is_still_named(tmp_path):
    """Small functions are written into their callers by the fast back end:
    the failure still names the function, on both back ends alike."""
    rules = _race(tmp_path, in_advance="  if n == 6 { p.laps = gap(p) }\n")
    flow = Path(rules) / "race.rules"
    flow.write_text(flow.read_text() + "\ndef gap(p) {\n  return box.top.value\n}\n")
    for backend in ("fast", "reference"):
        r = cli_raising("play", rules, "--quiet", "--seed", "1", "--backend", backend)
        assert "(in gap, round" in r.stderr, (backend, r.stderr)
