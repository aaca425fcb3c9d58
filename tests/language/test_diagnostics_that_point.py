"""Diagnostics a newcomer meets first, each located where the fix goes:
an unclosed '{', a line dedented out of a card's `rules: |`, `1,000` in a
mapping, a text no component holds, numeric table keys, mistakes repeated by
copies, an undeclared zone, a misspelt item key, a field nothing has, a
scenario reading a field of nothing, a script that runs out. And the line
between validate (errors and likely mistakes) and lint (style and waste)."""
from pathlib import Path

from helpers import cli, edit

from interpreter.designer.scenario import run_scenario_file
from interpreter.run.engine import validate_ruleset


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_a_missing_close_brace_names_the_open_one(ruleset_copy):
    race = ruleset_copy("tutorial_race")
    rules = race / "race.rules"
    edit(rules, '    log "{p} completes lap {p.laps}"\n  }\n', '    log "{p} completes lap {p.laps}"\n')
    diags = validate_ruleset(race)
    opened = line_of(rules, "if distance(")
    info = [d for d in diags if d.severity == "info"]
    assert [(d.line, d.code) for d in info] == [(opened, "SYNTAX")]
    assert "never closed" in info[0].message
    (err,) = [d for d in diags if d.severity == "error"]
    assert err.line > opened and f"the '{{' at line {opened} seems never closed" in err.hint


def test_a_balanced_file_gets_no_brace_advice(ruleset_copy):
    race = ruleset_copy("tutorial_race")
    edit(race / "race.rules", "p.laps += 1", "p.laps += += 1")
    assert [d for d in validate_ruleset(race) if d.severity == "info"] == []


def test_a_line_dedented_out_of_a_rules_block_is_reported_itself(ruleset_copy):
    game = ruleset_copy("smile_and_gun")
    cards = game / "infusions.yaml"
    edit(cards, "        spend_infusion(p)\n        t.doubled = true",
         "        spend_infusion(p)\n    t.doubled = true")
    (d,) = [d for d in validate_ruleset(game) if d.severity == "error"]
    assert (d.code, d.line) == ("YAML-SYNTAX", line_of(cards, "    t.doubled = true"))
    assert "indented less than the text block" in d.message and "column 7" in d.hint


def test_a_number_with_thousands_commas_is_flagged(ruleset_copy):
    race = ruleset_copy("tutorial_race")
    (race / "tables.yaml").write_text("kind: tables\ntables:\n  prices: {cost: 1,000, fee: 5}\n"
                                      "  note: |\n    a: 2,000 in prose is fine\n")
    (d,) = [d for d in validate_ruleset(race) if d.severity == "error"]
    assert (d.code, d.line, d.col) == ("YAML-NUMBER", 3, 18)
    assert "1,000" in d.message and d.hint == "write 1000"


def test_a_text_no_component_holds_is_a_validate_warning_not_a_lint_finding(ruleset_copy):
    chicago = ruleset_copy("chicago")
    flow = chicago / "flow.rules"
    edit(flow, 'c => c.title == "contacts"', 'c => c.title == "contact"')
    diags = validate_ruleset(chicago)
    (d,) = [d for d in diags if d.code == "REF-TEXT"]
    assert d.severity == "warning" and d.line == line_of(flow, '"contact")')
    assert "always false" in d.message and d.hint == "did you mean 'contacts'?"
    r = cli("lint", chicago)
    assert "contact'" not in r.output and r.exit_code == 0  # one tool per problem


def test_waste_is_lints_and_validate_leaves_it(ruleset_copy):
    race = ruleset_copy("tutorial_race")
    with open(race / "race.rules", "a") as fh:
        fh.write('\nphase idle {\n  log "resting"\n}\n')
    assert validate_ruleset(race) == []
    r = cli("lint", race, "--format", "concise")
    assert r.exit_code == 1 and "LINT-UNUSED-PHASE" in r.output


def test_numeric_table_keys_read_as_numbers(ruleset_copy):
    race = ruleset_copy("tutorial_race")
    (race / "tables.yaml").write_text("kind: tables\ntables:\n  rounds_by_players: {2: 3, 3: 2}\n")
    edit(race / "race.rules", "rounds 10 {", "rounds tables.rounds_by_players[len(players)] {")
    r = cli("play", race, "--seed", "1", "--json")
    assert r.exit_code == 0, r.output
    for backend in ("fast", "reference"):
        r = cli("play", race, "--seed", "3", "--quiet", "--backend", backend,
                "--max-steps", "100000")
        assert r.exit_code == 0, r.output


def test_a_mistake_in_a_card_with_copies_is_one_diagnostic(ruleset_copy):
    chicago = ruleset_copy("chicago")
    edit(chicago / "cards.yaml", "        if p.contacts.size < tables.contacts_max {",
         "        if pp.contacts.size < tables.contacts_max {")
    errors = [d for d in validate_ruleset(chicago) if d.severity == "error"]
    assert len(errors) == 1
    assert "found 6 times: once for each component that shares this text" in errors[0].hint


def test_an_undeclared_zone_is_one_error_with_where_to_declare_it(ruleset_copy):
    game = ruleset_copy("smile_and_gun")
    edit(game / "game.yaml", "    aside: {description: Tokens beside the board; hats here return "
         "to the bag when it runs dry}\n", "")
    errors = [d for d in validate_ruleset(game) if d.severity == "error"]
    assert len(errors) == 1 and "undefined name 'aside'" in errors[0].message
    assert "declare it in game.yaml under `zones: game:`" in errors[0].hint
    assert "also used at flow.rules:" in errors[0].hint


def test_a_misspelt_item_key_gets_a_did_you_mean(ruleset_copy):
    chicago = ruleset_copy("chicago")
    edit(chicago / "cards.yaml", "    count: 6", "    cuont: 6")
    (d,) = [d for d in validate_ruleset(chicago) if d.severity == "error"]
    assert d.code == "SCHEMA-UNKNOWN-KEY" and d.hint == "did you mean 'count'?"


def test_a_field_nothing_has_is_refused_before_play(ruleset_copy):
    race = ruleset_copy("tutorial_race")
    edit(race / "race.rules", "p.laps += 1", "p.lapz += 1")
    (d,) = validate_ruleset(race)
    assert d.code == "REF-UNDEF" and "field 'lapz'" in d.message
    assert d.hint == "did you mean 'laps'?"


SCENARIO = """scenario: a check
ruleset: ..
options: {laps: 1}
rig:
  rolls: [2, 5, 3, 1, 3, 4]
script:
  - red: move:5
  - blue: move:3
expect:
  - that:
      - first(players, p => p.laps > 5).laps == 1
"""


def test_a_scenario_reading_a_field_of_nothing_says_so_in_words(ruleset_copy):
    race = ruleset_copy("tutorial_race")
    path = race / "scenarios" / "x.scenario.yaml"
    path.write_text(SCENARIO.replace("[2, 5, 3, 1, 3, 4]", "[2, 5, 3, 1, 3, 3]"))
    res = run_scenario_file(path)
    (d,) = res.diagnostics
    assert d.code == "EXPECT-FAIL" and "NoneType" not in d.message and "u_laps" not in d.message
    assert "used .laps of `first(players, p => p.laps > 5)`, which is none" in d.message


def test_a_script_that_runs_out_points_at_its_last_entry(ruleset_copy):
    race = ruleset_copy("tutorial_race")
    path = race / "scenarios" / "x.scenario.yaml"
    path.write_text(SCENARIO)
    res = run_scenario_file(path)
    d = res.diagnostics[0]
    assert d.code == "CHOICE-ILLEGAL" and d.line == 8  # `- blue: move:3`
    assert "no choice left for red's move after this, its last entry" in d.message
