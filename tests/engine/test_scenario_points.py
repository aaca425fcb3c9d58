"""Scenarios precise enough to prove a rule: checkpoints anywhere (after a
decision, after a turn), what a decision offers or takes, rigged randomness
left unused, arrange that sets anything up, and a scenario's ruleset.

Each test writes a scenario for the Tutorial Race and runs it; the expected
diagnostics (code, line, column) are computed from the scenario text.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from helpers import RACE, ROOT, RULES, cli, copy_ruleset, edit

from interpreter.designer.scenario import run_scenario_file

# Red rolls 2 and 5 and runs 5; blue rolls 3 and 1 and runs 3 to the boost on
# s3, carried on to s5; red's double 3 is forced and passes the start: a lap.
HEAD = f"""\
scenario: points
ruleset: {RACE}
options: {{laps: 1}}
rig:
  rolls: [2, 5, 3, 1, 3, 3]
script:
  - red: move:5
  - blue: move:3
"""


def write(tmp_path, body, head=HEAD) -> Path:
    path = tmp_path / "s.scenario.yaml"
    path.write_text(head + body, encoding="utf-8")
    return path


def run(path):
    """As `play RULESET --scenario FILE`: these scenarios name a shipped
    ruleset, outside their own folder (guide, section 13)."""
    named = re.search(r"^ruleset: (.*)$", Path(path).read_text(), re.M).group(1)
    return run_scenario_file(path, ruleset=Path(path).parent / named)


def pos(path, needle):
    text = path.read_text(encoding="utf-8")
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)


def failures(result):
    return [(d.code, d.line, d.col, d.message) for d in result.diagnostics]


def test_a_check_after_a_decision_sees_its_effect(tmp_path):
    path = write(tmp_path, """\
expect:
  - after: {decision: move, player: red}
    that: ['red.at == space("s5")', 'blue.at == space("start")']
  - after: {decision: move, player: blue}
    that: ['blue.at == space("s5")']
  - after: {decision: move, count: 3}
    that: ['red.laps == 1']
""")
    r = run(path)
    assert r.ok, failures(r)
    assert r.checks == 4


def test_a_failing_mid_phase_check_names_its_line(tmp_path):
    path = write(tmp_path, """\
expect:
  - after: {decision: move, player: red}
    that: ['blue.at == space("s5")']
""")
    r = run(path)
    (code, line, col, msg), = failures(r)
    assert (code, line, col) == ("EXPECT-FAIL", *pos(path, 'blue.at =='))
    assert "left side is start" in msg


def test_a_check_between_turns(tmp_path):
    path = write(tmp_path, """\
expect:
  - after: {turn: red}
    that: ['red.at == space("s5")', 'blue.at == space("start")']
  - after: {turn: blue, count: 1}
    that: ['blue.at == space("s5")']
""")
    assert run(path).ok


def test_stop_after_a_decision_or_a_turn(tmp_path):
    path = write(tmp_path, """\
stop: {after: {decision: move, player: red}}
expect:
  - that: ['red.at == space("s5")', 'blue.at == space("start")']
""", head=HEAD.replace("  rolls: [2, 5, 3, 1, 3, 3]", "  rolls: [2, 5]")
                 .replace("  - blue: move:3\n", ""))
    r = run(path)
    assert r.ok, failures(r)
    assert r.game.stopped
    path = write(tmp_path, """\
stop: {after: {turn: blue}}
expect:
  - that: ['blue.at == space("s5")', 'red.laps == 0']
""", head=HEAD.replace("  rolls: [2, 5, 3, 1, 3, 3]", "  rolls: [2, 5, 3, 1]"))
    r = run(path)
    assert r.ok, failures(r)


def test_offered_and_not_offered(tmp_path):
    path = write(tmp_path, """\
expect:
  - offered: {player: red, decision: move, count: 1, labels: ["move:2", "move:5"], exactly: true}
  - not_offered: {player: blue, decision: move, labels: ["move:6", "move:4"]}
  - chosen: {player: red, decision: move, count: 2, label: "move:3"}
  - that: ['winners == [red]']
""")
    r = run(path)
    assert r.ok, failures(r)


def test_an_offer_that_is_missing_or_present_fails_at_its_entry(tmp_path):
    path = write(tmp_path, """\
expect:
  - offered: {player: blue, decision: move, labels: ["move:6"]}
  - not_offered: {player: red, decision: move, count: 1, labels: ["move:5"]}
  - chosen: {player: blue, decision: move, label: "move:1"}
  - offered: {player: blue, decision: move, count: 9, labels: ["move:1"]}
""")
    r = run(path)
    got = {(code, line): msg for code, line, col, msg in failures(r)}
    assert "missing move:6" in got[("EXPECT-FAIL", pos(path, "offered: {player: blue")[0])]
    assert "move:5, which it must not" in got[("EXPECT-FAIL", pos(path, "not_offered")[0])]
    assert "took move:3, not move:1" in got[("EXPECT-FAIL", pos(path, "chosen")[0])]
    assert "never asked" in got[("EXPECT-FAIL", pos(path, "count: 9")[0])]


def test_unknown_decisions_and_players_in_points_are_reported(tmp_path):
    copy_ruleset("tutorial_race", tmp_path / "race")  # (validate names no ruleset: the file's own)
    path = write(tmp_path, """\
expect:
  - after: {decision: mvoe}
    that: ['true']
  - offered: {player: green, decision: move, labels: [x]}
""", HEAD.replace(f"ruleset: {RACE}", "ruleset: race"))
    r = cli("validate", "--format", "json", path)
    codes = {(d["code"], d["line"]) for d in json.loads(r.stdout)}
    assert ("REF-UNDEF", pos(path, "mvoe")[0]) in codes
    assert ("REF-UNDEF", pos(path, "green")[0]) in codes


def test_an_expectation_has_exactly_one_kind(tmp_path):
    path = write(tmp_path, """\
expect:
  - offered: {player: red, decision: move, labels: [x]}
    that: ['true']
""")
    r = run(path)
    assert [c for c, *_ in failures(r)] == ["SCHEMA-VALUE"]


def test_rigged_rolls_left_unused_fail(tmp_path):
    path = write(tmp_path, """\
expect:
  - that: ['winners == [red]']
""", head=HEAD.replace("[2, 5, 3, 1, 3, 3]", "[2, 5, 3, 1, 3, 3, 6, 6]"))
    (code, line, col, msg), = failures(run(path))
    assert (code, line, col) == ("RIG-LEFT", *pos(path, "[2, 5"))
    assert "2 rigged roll(s) unused: 6 6" in msg


def test_running_out_of_rigged_rolls_is_logged(tmp_path):
    path = write(tmp_path, """\
then: first
expect:
  - that: ['red.laps <= 1']
""", head=HEAD.replace("[2, 5, 3, 1, 3, 3]", "[2, 5, 3, 1]"))
    r = run(path)
    assert r.ok, failures(r)
    texts = [e["text"] for e in r.game.log]
    assert texts.count("rig exhausted; seeded dice from here") == 1


def test_arrange_sets_supplies_and_game_variables(tmp_path):
    chicago = ROOT / "rules" / "chicago"
    path = tmp_path / "s.scenario.yaml"
    path.write_text(f"""\
scenario: arrange
ruleset: {chicago}
options: {{bosses: 2}}
then: first
stop: {{after: round, round: 1}}
arrange: |
  ended_by_bank = true
  bank.note5000 = 0
expect:
  - before: round
    round: 1
    that: ['ended_by_bank', 'bank.note5000 == 0']
""", encoding="utf-8")
    r = run(path)
    assert r.ok, failures(r)


def test_an_error_in_rules_called_from_arrange_points_at_the_arrange_line(tmp_path):
    path = write(tmp_path, """\
arrange: |
  red.at = space("s1")
  advance(red, none)
expect:
  - that: ['true']
""")
    (code, line, col, msg), = failures(run(path))
    assert (code, line) == ("RUNTIME", pos(path, "advance(red")[0])
    d = run(path).diagnostics[0]
    assert "race.rules" in d.hint


def test_play_honours_path_with_a_scenario(tmp_path):
    path = write(tmp_path, "expect:\n  - that: ['winners == [red]']\n")
    ok = cli("play", RACE, "--scenario", path)
    assert ok.exit_code == 0, ok.output
    other = cli("play", ROOT / "rules" / "chicago", "--scenario", path)
    assert other.exit_code == 2 and "OPTION" in other.output


def test_a_failing_scenario_shows_the_log_up_to_the_failure(tmp_path):
    path = write(tmp_path, "expect:\n  - that: ['winners == [blue]']\n")
    r = cli("play", RACE, "--scenario", path)
    assert r.exit_code == 1
    assert "the log up to the failure" in r.output and "red completes lap 1" in r.output


def test_a_bots_log_line_gives_the_rank_that_won():
    from interpreter.run.agents import RandomAgent
    from interpreter.run.engine import Game, load_program

    program, _ = load_program(ROOT / "rules" / "smile_and_gun", variant="solo")
    game = Game(program, seed=1, agents=[RandomAgent(1), None], logging=True).run()
    bot = [e["text"] for e in game.log if e.get("bot")]
    assert bot and any(", rank " in t and " by the rule at solo.rules:" in t for t in bot)


def test_logged_finds_a_line_or_shows_the_closest(tmp_path):
    path = write(tmp_path, """\
expect:
  - logged: "red completes lap 1"
  - logged: ["red completes lap 2"]
""")
    (code, line, col, msg), = failures(run(path))
    assert (code, line) == ("EXPECT-FAIL", pos(path, "lap 2")[0])
    assert run(path).diagnostics[0].hint == "closest: 'red completes lap 1'"


def test_a_one_item_list_keeps_its_brackets_in_a_failure(tmp_path):
    path = write(tmp_path, "expect:\n  - that: ['winners == [blue]']\n")
    (code, line, col, msg), = failures(run(path))
    assert "left side is [red], right side is [blue]" in msg


def test_a_scenario_names_its_player_count(tmp_path):
    chicago = ROOT / "rules" / "chicago"
    path = tmp_path / "s.scenario.yaml"
    text = (f"scenario: three\nruleset: {chicago}\nplayers: 3\nthen: first\n"
            "stop: {after: round, round: 1}\nexpect:\n"
            "  - that: ['len(players) == 3', 'options.bosses == 2']\n")
    path.write_text(text, encoding="utf-8")
    r = run(path)
    assert r.ok, failures(r)
    path.write_text(text.replace("players: 3", "players: 7"), encoding="utf-8")
    (code, line, col, msg), = failures(run(path))
    assert (code, line, col) == ("OPTION", 3, 10) and "not 7" in msg


def test_setup_first_leaves_the_script_to_the_game_proper(tmp_path):
    folder = copy_ruleset("tutorial_race", tmp_path / "race")
    # a setup decision the scenario does not want to script
    edit(folder / "race.rules", "  setup {\n",
         "  setup {\n    choose red as warm_up \"warm up?\" {\n"
         "      option \"jog\" { red.laps = 0 }\n"
         "      option \"rest\" { red.laps = 0 }\n    }\n")
    body = HEAD.replace(str(RACE), str(folder))
    path = tmp_path / "s.scenario.yaml"
    path.write_text(body + "setup: first\nexpect:\n  - chosen: {player: red, decision: warm_up, "
                    "label: jog}\n  - that: ['winners == [red]']\n", encoding="utf-8")
    r = run(path)
    assert r.ok, failures(r)
    # without it, the script's first entry meets the setup's question
    path.write_text(body + "expect:\n  - that: ['winners == [red]']\n", encoding="utf-8")
    assert [f[0] for f in failures(run(path))] == ["CHOICE-ILLEGAL"]


def test_choose_some_selections_are_checked_in_any_order(tmp_path):
    """`offered`, `not_offered` and `chosen` read a "choose some" selection's
    parts in any order, as scripts do: a reordered label that is on offer
    is offered (never vacuously not offered)."""
    rules = copy_ruleset(RULES / "examples" / "hidden_hands", tmp_path / "hands")
    src = (rules / "scenarios" / "pass-then-play.scenario.yaml").read_text()
    flipped = src.replace('''labels: ["sun-3 + moon-1", "sun-3 + moon-2",''',
                          '''labels: ["moon-1 + sun-3", "moon-2 + sun-3",''')
    assert flipped != src
    ok = rules / "scenarios" / "flipped.scenario.yaml"
    ok.write_text(flipped)
    assert run_scenario_file(ok).ok, [d.short() for d in run_scenario_file(ok).diagnostics]
    absent = flipped.replace("expect:\n", "expect:\n  - not_offered: {player: ben, decision: "
                             "pass_cards, count: 1, labels: [\"star-5 + moon-2\"]}\n", 1)
    bad = rules / "scenarios" / "absent.scenario.yaml"
    bad.write_text(absent)
    result = run_scenario_file(bad)
    assert not result.ok and any("star-5 + moon-2, which it must not" in d.message
                                 for d in result.diagnostics), \
        [d.short() for d in result.diagnostics]
