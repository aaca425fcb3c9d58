"""Every class of problem is reported with its exact code, file, line and column.

Each test copies rules/smile_and_gun into a temporary folder, injects one error
with str.replace, and computes the expected position from the edited text
(never a hard-coded guess), so the tests keep working as the ruleset grows.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import SMILE, at, clean, cli, cli_clean, copy_ruleset, inject, locate, only, validate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.support.diagnostics import CODES

SHORT = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z-]+) (?P<msg>.*)$")
FIELDS = {"path", "line", "col", "code", "message", "severity", "hint"}


# ---------------------------------------------------------------- helpers
# (rs, the fixture: a fresh copy of the ruleset, is in tests/conftest.py;
# inject, locate, validate, only and at in tests/helpers.py)
def end_of(text: str, needle: str, after: str | None = None) -> tuple[int, int]:
    """1-based (line, col) just past `needle`."""
    line, col = locate(text, needle, after)
    return line, col + len(needle)


def play_json(folder: Path, *extra) -> tuple[int, list | dict]:
    r = cli_clean("play", folder, "--quiet", "--json", *extra)
    return r.exit_code, json.loads(r.stdout)


def short_lines(output: str) -> list[dict]:
    """Parse `path:line:col: CODE message` lines of the text format."""
    out = []
    for ln in output.splitlines():
        m = SHORT.match(ln)
        if m:
            d = m.groupdict()
            d["line"], d["col"] = int(d["line"]), int(d["col"])
            out.append(d)
    return out


# ---------------------------------------------------------------- YAML
def test_yaml_syntax_bad_indentation(rs):
    text = inject(rs, "game.yaml", "\n  - {id: yellow,", "\n - {id: yellow,")
    d = only(validate(rs), "YAML-SYNTAX")
    line, col = locate(text, "- {id: yellow")
    at(d, rs / "game.yaml", line, col)
    assert "expected" in d["message"]


def test_yaml_syntax_unclosed_bracket(rs):
    old = "faces: [docks, warehouses, railyard]}"
    text = inject(rs, "board.yaml", old, old.replace("]}", "}"))
    d = only(validate(rs), "YAML-SYNTAX")
    at(d, rs / "board.yaml", *locate(text, "}", after="faces: [docks, warehouses, railyard"))
    assert "']'" in d["message"]
    oline, ocol = locate(text, "[docks, warehouses, railyard}")
    assert f"'[' opened at line {oline}, col {ocol}" in d["hint"]


def test_yaml_syntax_unclosed_flow_mapping_points_where_the_parser_stops(rs):
    text = inject(rs, "game.yaml", "  - {id: green, name: Green}", "  - {id: green, name: Green")
    d = only(validate(rs), "YAML-SYNTAX")
    at(d, rs / "game.yaml", *locate(text, "{id: yellow"))
    oline, ocol = locate(text, "{id: green")
    assert f"'{{' opened at line {oline}, col {ocol}" in d["hint"]


def test_a_broken_game_file_does_not_cascade_into_other_files(rs):
    inject(rs, "game.yaml", "zones:", "zones: [")
    diags = validate(rs)
    assert diags and {Path(d["path"]).name for d in diags} == {"game.yaml"}, diags
    assert [d["code"] for d in diags] == ["YAML-SYNTAX"]


def test_a_board_with_schema_errors_does_not_cascade_into_undefined_spaces(rs):
    text = inject(rs, "board.yaml", "spaces:\n", "spaces:\n  - {name: nameless}\n")
    d = only(validate(rs), "SCHEMA-MISSING")
    at(d, rs / "board.yaml", *locate(text, "{name: nameless}"))
    assert "'id'" in d["message"]


def test_yaml_duplicate_key(rs):
    text = inject(rs, "game.yaml", "\nplayers: 2\n", "\nplayers: 2\nplayers: 3\n")
    d = only(validate(rs), "YAML-DUPKEY")
    at(d, rs / "game.yaml", *locate(text, "players: 3"))
    assert "'players'" in d["message"]


@pytest.mark.parametrize("tagged", ["!!python/object 2", "!!str 2", "!custom {a: 1}"])
def test_yaml_tag_is_refused(rs, tagged):
    text = inject(rs, "game.yaml", "\nplayers: 2\n", f"\nplayers: {tagged}\n")
    d = only(validate(rs), "YAML-TAG")
    at(d, rs / "game.yaml", *locate(text, tagged))
    assert tagged.split()[0] in d["message"]


@pytest.mark.parametrize("name", ["game.yaml", "board.yaml"])
def test_an_empty_yaml_file_is_reported_not_skipped(rs, name):
    (rs / name).write_text("# nothing yet\n", encoding="utf-8")
    diags = validate(rs)
    d = only(diags, "SCHEMA-MISSING")
    at(d, rs / name, 1, 1)
    assert "empty" in d["message"]


# ---------------------------------------------------------------- schemas
def test_schema_unknown_key_in_game_yaml_with_did_you_mean(rs):
    text = inject(rs, "game.yaml", "\nscore: score", "\nscroe: score")
    d = only(validate(rs), "SCHEMA-UNKNOWN-KEY")
    at(d, rs / "game.yaml", *locate(text, "scroe:"))
    assert "'scroe'" in d["message"]
    assert d["hint"] == "did you mean 'score'?"


def test_an_unquoted_comma_in_braces_is_explained(rs):
    """{description: a, b c}: YAML reads `b c` as a key; the hint says why."""
    text = inject(rs, "game.yaml", "aside: {description: Tokens beside the board",
                  "aside: {description: Tokens beside, the board")
    d = only(validate(rs), "SCHEMA-UNKNOWN-KEY")
    at(d, rs / "game.yaml", *locate(text, "the board; hats"))
    assert "unknown key 'the board; hats" in d["message"]
    assert d["hint"] == "a comma inside {...} starts a new key: put the text in quotes"


def test_schema_missing_top_level_key(rs):
    text = inject(rs, "game.yaml", "\nname: ", "\ntitle: ")
    diags = validate(rs)
    d = [x for x in diags if x["code"] == "SCHEMA-MISSING"]
    assert len(d) == 1, diags
    at(d[0], rs / "game.yaml", 1, 1)
    assert "missing required key 'name'" in d[0]["message"]
    u = [x for x in diags if x["code"] == "SCHEMA-UNKNOWN-KEY"]
    assert len(u) == 1 and (u[0]["line"], u[0]["col"]) == locate(text, "title:")


def test_schema_missing_nested_key_points_at_its_owner(rs):
    text = inject(rs, "game.yaml", "    supply: 35\n", "")
    d = only(validate(rs), "SCHEMA-MISSING")
    at(d, rs / "game.yaml", *locate(text, "cubes:", after="pieces:"))
    assert "pieces/cubes" in d["message"] and "'supply'" in d["message"]


def test_schema_missing_key_in_a_flow_mapping(rs):
    text = inject(rs, "game.yaml", "{id: green, name: Green}", "{name: Green}")
    d = only(validate(rs), "SCHEMA-MISSING")
    at(d, rs / "game.yaml", *locate(text, "{name: Green}"))
    assert "seats/0" in d["message"] and "'id'" in d["message"]


def test_schema_type(rs):
    text = inject(rs, "game.yaml", "supply: 35", 'supply: "many"')
    d = only(validate(rs), "SCHEMA-TYPE")
    at(d, rs / "game.yaml", *locate(text, '"many"'))
    assert "pieces/cubes/supply" in d["message"] and "whole number" in d["message"]
    assert "'many'" in d["message"]


def test_schema_value_enum(rs):
    text = inject(rs, "game.yaml", "bag: {type: bag,", "bag: {type: sack,")
    d = only(validate(rs), "SCHEMA-VALUE")
    at(d, rs / "game.yaml", *locate(text, "sack"))
    assert "'sack' is not one of" in d["message"]


def test_unknown_kind(rs):
    text = inject(rs, "dice.yaml", "kind: components", "kind: componets")
    d = only(validate(rs), "SCHEMA-VALUE")
    at(d, rs / "dice.yaml", *locate(text, "componets"))
    assert "'kind'" in d["message"]


# ---------------------------------------------------------------- component attributes
def test_unknown_component_attribute(rs):
    old = "  - {id: hat-2, count: 4, name: hat-2,"
    text = inject(rs, "tokens.yaml", old, old.replace("name:", "nmae:"))
    diags = validate(rs)
    hits = [d for d in diags if d["code"] == "SCHEMA-UNKNOWN-KEY"]
    assert len(hits) == 1, diags
    at(hits[0], rs / "tokens.yaml", *locate(text, "nmae"))
    assert "'nmae'" in hits[0]["message"]
    assert hits[0]["hint"] == "did you mean 'name'?"


def test_wrong_typed_component_attribute(rs):
    old = "  - {id: hat-2, count: 4, name: hat-2, type: hat, value: 2,"
    text = inject(rs, "tokens.yaml", old, old.replace("value: 2,", "value: two,"))
    d = only(validate(rs), "SCHEMA-TYPE")
    at(d, rs / "tokens.yaml", *locate(text, "two"))
    assert "value must be int" in d["message"] and "'two'" in d["message"]


def test_component_attribute_outside_its_enum(rs):
    old = "  - {id: hat-2, count: 4, name: hat-2, type: hat,"
    text = inject(rs, "tokens.yaml", old, old.replace("type: hat,", "type: hatt,"))
    d = only(validate(rs), "SCHEMA-VALUE")
    at(d, rs / "tokens.yaml", *locate(text, "hatt"))
    assert "type must be one of" in d["message"]


# ---------------------------------------------------------------- rule syntax
def test_syntax_in_rules_file(rs):
    old = 'move [d for d in components("die")] to pool'
    text = inject(rs, "flow.rules", old, old.replace("] to pool", "] pool"))
    d = only(validate(rs), "SYNTAX")
    at(d, rs / "flow.rules", *locate(text, "pool", after='components("die")]'))
    assert "expected" in d["message"] and "'to'" in d["message"]


def test_syntax_unexpected_end_of_file_points_past_the_text(rs):
    path = rs / "flow.rules"
    text = path.read_text(encoding="utf-8").rstrip()
    assert text.endswith("}")
    text = text[:-1].rstrip() + "\n"
    path.write_text(text, encoding="utf-8")
    d = only(validate(rs), "SYNTAX")
    lines = text.rstrip().splitlines()
    at(d, path, len(lines), len(lines[-1]) + 1)
    assert "end of text" in d["message"] and "expected" in d["message"]


def test_syntax_in_a_cards_rules_block_is_mapped_into_the_yaml_file(rs):
    old = "        remove all cubes of bluecoats from d\n"
    text = inject(rs, "shadows.yaml", old, old.replace(" from d", " frm d"))
    d = only(validate(rs), "SYNTAX")
    at(d, rs / "shadows.yaml", *locate(text, "frm d"))
    assert "expected 'from'" in d["message"]


@pytest.mark.parametrize("quote", ['"', "'", ""])
def test_syntax_in_a_one_line_rules_scalar_is_mapped_into_the_yaml_file(rs, quote):
    old = "    rules: |\n      on shadow_acts(d, v) {\n        remove all cubes of bluecoats from d\n      }\n"
    new = f"    rules: {quote}on shadow_acts(d, v) {{ remove all cubes of bluecoats frm d }}{quote}\n"
    text = inject(rs, "shadows.yaml", old, new)
    d = only(validate(rs), "SYNTAX")
    at(d, rs / "shadows.yaml", *locate(text, "frm d"))


def test_break_outside_a_loop_is_a_diagnostic_not_a_crash(rs):
    text = inject(rs, "flow.rules", "  time = round\n", "  time = round\n  break\n")
    d = only(validate(rs), "SYNTAX")
    at(d, rs / "flow.rules", *locate(text, "break", after="time = round"))
    assert "outside a loop" in d["message"]


def test_unclosed_brace_in_a_string(rs):
    text = inject(rs, "flow.rules", "  time = round\n", '  time = round\n  log "now {round"\n')
    d = only(validate(rs), "SYNTAX")
    at(d, rs / "flow.rules", *locate(text, "{round"))
    assert "unclosed '{'" in d["message"]


def test_syntax_inside_an_interpolation(rs):
    text = inject(rs, "flow.rules", "  time = round\n", '  time = round\n  log "now {round +}"\n')
    d = only(validate(rs), "SYNTAX")
    at(d, rs / "flow.rules", *end_of(text, "{round +"))
    assert "end of text" in d["message"]


# ---------------------------------------------------------------- REF-UNDEF
def test_undefined_name(rs):
    text = inject(rs, "flow.rules", "  time = round\n", "  time = roundz\n")
    d = only(validate(rs), "REF-UNDEF")
    at(d, rs / "flow.rules", *locate(text, "roundz"))
    assert "undefined name 'roundz'" in d["message"] and d["hint"] == "did you mean 'round'?"


def test_undefined_name_inside_an_interpolation(rs):
    text = inject(rs, "flow.rules", "  time = round\n", '  time = round\n  log "now {roundz}"\n')
    d = only(validate(rs), "REF-UNDEF")
    at(d, rs / "flow.rules", *locate(text, "roundz"))


def test_undefined_function(rs):
    text = inject(rs, "flow.rules", "  fill_city()\n", "  fill_citty()\n")
    d = only(validate(rs), "REF-UNDEF")
    at(d, rs / "flow.rules", *locate(text, "fill_citty()"))
    assert "undefined function 'fill_citty'" in d["message"]
    assert d["hint"] == "did you mean 'fill_city'?"


def test_undefined_zone_attribute(rs):
    old = "for p in players { draw 1 from reserve to p.tokens }"
    text = inject(rs, "flow.rules", old, old.replace("p.tokens", "p.tokenz"))
    d = only(validate(rs), "REF-UNDEF")
    at(d, rs / "flow.rules", *locate(text, "p.tokenz"))
    assert "'tokenz'" in d["message"] and d["hint"] == "did you mean 'tokens'?"


def test_phase_listed_in_rounds_but_not_defined(rs):
    text = inject(rs, "flow.rules", "    dodging_the_heat\n", "    dodging_the_heat\n    napping\n")
    d = only(validate(rs), "REF-UNDEF")
    at(d, rs / "flow.rules", *locate(text, "napping"))
    assert "undefined phase 'napping'" in d["message"]


def test_undefined_space_literal(rs):
    text = inject(rs, "flow.rules", 'return space("downtown")', 'return space("nowhere")')
    d = only(validate(rs), "REF-UNDEF")
    at(d, rs / "flow.rules", *locate(text, '"nowhere"'))
    assert "undefined space 'nowhere'" in d["message"]


def test_undefined_component_literal(rs):
    text = inject(rs, "flow.rules", 'return space("downtown")', 'return component("no-such")')
    d = only(validate(rs), "REF-UNDEF")
    at(d, rs / "flow.rules", *locate(text, '"no-such"'))
    assert "undefined component 'no-such'" in d["message"]


def test_undefined_space_in_board_faces(rs):
    old = "faces: [docks, warehouses, railyard]"
    text = inject(rs, "board.yaml", old, old.replace("warehouses", "wharehouses"))
    d = only(validate(rs), "REF-UNDEF")
    at(d, rs / "board.yaml", *locate(text, "wharehouses"))
    assert "'wharehouses'" in d["message"] and d["hint"] == "did you mean 'warehouses'?"


def test_undefined_zone_of_a_components_file(rs):
    text = inject(rs, "dice.yaml", "zone: pool", "zone: poool")
    d = only(validate(rs), "REF-UNDEF")
    at(d, rs / "dice.yaml", *locate(text, "poool"))
    assert "undefined game zone 'poool'" in d["message"] and d["hint"] == "did you mean 'pool'?"


def test_option_from_an_undefined_component_kind(rs):
    text = inject(rs, "game.yaml", "from: shadow\n", "from: shaddow\n")
    d = only(validate(rs), "REF-UNDEF")
    at(d, rs / "game.yaml", *locate(text, "shaddow"))
    assert "component kind 'shaddow'" in d["message"]


# ---------------------------------------------------------------- DUP-ID
def test_component_id_twice(rs):
    first = "  - {id: hat-2, count: 4,"
    old = "  - {id: gambling, count: 4,"
    text = inject(rs, "tokens.yaml", old, old.replace("gambling", "hat-2", 1))
    d = only(validate(rs), "DUP-ID")  # one diagnostic, not one per copy
    at(d, rs / "tokens.yaml", *locate(text, "id: hat-2, count: 4,", nth=2))
    assert "'hat-2-1' is defined twice" in d["message"]
    assert f"tokens.yaml:{locate(text, first)[0]})" in d["message"]
    assert "3 more" in d["message"]


def test_component_id_clashing_with_one_copy(rs):
    old = "  - {id: gambling, count: 4,"
    text = inject(rs, "tokens.yaml", old, "  - {id: hat-2-3,")
    d = only(validate(rs), "DUP-ID")
    at(d, rs / "tokens.yaml", *locate(text, "id: hat-2-3"))
    assert "'hat-2-3' is defined twice" in d["message"] and "more" not in d["message"]


def test_function_defined_twice(rs):
    path = rs / "flow.rules"
    text = path.read_text(encoding="utf-8")
    first = locate(text, "def downtown()")
    text += '\ndef downtown() {\n  return space("docks")\n}\n'
    path.write_text(text, encoding="utf-8")
    d = only(validate(rs), "DUP-ID")
    at(d, path, *locate(text, "def downtown()", after="\ndef downtown() {\n  return space(\"docks\")"))
    assert "function 'downtown' is defined twice" in d["message"]
    assert f"flow.rules:{first[0]})" in d["message"]


# ---------------------------------------------------------------- TYPE
def test_type_operand_of_plus(rs):
    text = inject(rs, "flow.rules", "  time = round\n", "  time = round\n  let x = 1 + true\n")
    d = only(validate(rs), "TYPE")
    at(d, rs / "flow.rules", *locate(text, "true", after="let x = 1 +"))
    assert "'+'" in d["message"] and "number" in d["message"]


def test_type_if_condition(rs):
    text = inject(rs, "flow.rules", "  time = round\n", "  time = round\n  if 3 { time = 2 }\n")
    d = only(validate(rs), "TYPE")
    at(d, rs / "flow.rules", *locate(text, "3 {", after="if 3"))
    assert "'if' condition" in d["message"]


def test_type_assigning_text_to_a_number(rs):
    text = inject(rs, "flow.rules", "  time = round\n", '  time = "late"\n')
    d = only(validate(rs), "TYPE")
    at(d, rs / "flow.rules", *locate(text, '"late"'))
    assert "assigning text" in d["message"]


# ---------------------------------------------------------------- ARITY
def test_arity_of_a_rules_function(rs):
    text = inject(rs, "flow.rules", "  fill_city()\n", "  fill_city(1)\n")
    d = only(validate(rs), "ARITY")
    at(d, rs / "flow.rules", *locate(text, "fill_city(1)"))
    assert "fill_city() takes 0 argument(s), got 1" in d["message"]


def test_arity_of_a_handler_against_its_trigger(rs):
    old = "    rules: |\n      on shadow_acts(d, v) {\n        remove all cubes of bluecoats"
    text = inject(rs, "shadows.yaml", old, old.replace("(d, v)", "(d)"))
    d = only(validate(rs), "ARITY")
    at(d, rs / "shadows.yaml", *locate(text, "on shadow_acts(d)"))
    assert "'shadow_acts'" in d["message"] and "takes 1" in d["message"]


# ---------------------------------------------------------------- OPTION
def test_option_value_not_allowed(rs):
    code, diags = play_json(rs, "--option", "shadow=nope")
    assert code == 2  # a usage error, in every command
    (d,) = diags
    text = (rs / "game.yaml").read_text(encoding="utf-8")
    at(d, rs / "game.yaml", *locate(text, "shadow:", after="\noptions:"))
    assert d["code"] == "OPTION" and "shadow='nope'" in d["message"]
    assert "the-badge" in d["hint"]


def test_unknown_option(rs):
    code, diags = play_json(rs, "--option", "colour=red")
    assert code == 2
    (d,) = diags
    at(d, rs / "game.yaml", 1, 1)
    assert d["code"] == "OPTION" and "unknown option 'colour'" in d["message"]
    assert "shadow" in d["hint"]


def test_option_default_not_among_its_choices(rs):
    text = inject(rs, "game.yaml", "from: shadow\n    default: random",
                  "from: shadow\n    default: the-dog")
    d = only(validate(rs), "OPTION")
    at(d, rs / "game.yaml", *locate(text, "the-dog"))
    assert "'the-dog'" in d["message"]


def test_option_without_a_value_is_a_usage_error(rs):
    r = cli_clean("play", rs, "--quiet", "--option", "colourred")
    assert r.exit_code == 2 and "KEY=VALUE" in r.output


# ---------------------------------------------------------------- RUNTIME
def test_runtime_error_is_reported_at_the_rule(rs):
    text = inject(rs, "flow.rules", "  time = round\n",
                  "  time = round\n  let x = 1 / (round - round)\n")
    code, diags = play_json(rs, "--seed", "3")
    assert code == 1
    (d,) = diags
    at(d, rs / "flow.rules", *locate(text, "let x = 1 / (round"))
    assert d["code"] == "RUNTIME" and "division by zero" in d["message"]


def test_runtime_error_in_text_form(rs):
    text = inject(rs, "flow.rules", "  time = round\n",
                  "  time = round\n  let x = 1 / (round - round)\n")
    r = cli_clean("play", rs, "--quiet")
    assert r.exit_code == 1
    (d,) = short_lines(r.output)
    line, col = locate(text, "let x = 1 / (round")
    assert (Path(d["path"]), d["line"], d["col"], d["code"]) == \
        (rs / "flow.rules", line, col, "RUNTIME")


# ---------------------------------------------------------------- scenarios
SCENARIO = """\
scenario: One district holds two hats; only green has cubes there and picks one.
ruleset: rs
options: {shadow: the-badge, infusion: second-chance}
seed: 1
start: {round: 1, phase: settling_the_score}
arrange: |
  for d in track("city") { move d.tokens to bag }
  move component("hat-2-1") to space("docks").tokens
  move component("hat-4-1") to space("docks").tokens
  place 3 cubes of green at space("docks")
stop: {after: settling_the_score, round: 1}
script:
  - green: token:hat-4
expect:
  - that:
      - round == 1
      - component("hat-4-1") in green.tokens
"""


def scenario(rs: Path, old: str | None = None, new: str = "") -> tuple[Path, str]:
    """A small scenario file beside the copied ruleset, with one edit."""
    text = SCENARIO
    if old is not None:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = rs.parent / "test.scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def run_scenario(rs: Path, path: Path):
    return cli_clean("play", "--scenario", path, rs)


def scenario_diag(rs: Path, path: Path) -> dict:
    r = run_scenario(rs, path)
    assert r.exit_code == 1, r.output
    (d,) = short_lines(r.output)
    return d


def test_the_unchanged_scenario_passes(rs):
    path, _ = scenario(rs)
    r = run_scenario(rs, path)
    assert r.exit_code == 0 and "passed (2 expectation(s))" in r.output, r.output
    assert validate(path) == []


def test_choice_illegal(rs):
    path, text = scenario(rs, "  - green: token:hat-4\n", "  - green: token:hat-9\n")
    d = scenario_diag(rs, path)
    line, col = locate(text, "green: token:hat-9")
    assert (Path(d["path"]), d["line"], d["col"], d["code"]) == (path, line, col, "CHOICE-ILLEGAL")
    assert "'token:hat-9'" in d["msg"] and "token:hat-4" in d["msg"]


def test_choice_by_the_wrong_player(rs):
    path, text = scenario(rs, "  - green: token:hat-4\n", "  - yellow: token:hat-4\n")
    d = scenario_diag(rs, path)
    line, col = locate(text, "yellow: token:hat-4")
    assert (Path(d["path"]), d["line"], d["col"], d["code"]) == (path, line, col, "CHOICE-ILLEGAL")
    assert "yellow" in d["msg"] and "green" in d["msg"]


def test_expect_fail(rs):
    path, text = scenario(rs, "      - round == 1\n", "      - round == 2\n")
    d = scenario_diag(rs, path)
    line, col = locate(text, "round == 2")
    assert (Path(d["path"]), d["line"], d["col"], d["code"]) == (path, line, col, "EXPECT-FAIL")
    assert "left side is 1" in d["msg"] and "right side is 2" in d["msg"]


def test_expect_fail_of_a_plain_condition(rs):
    old = '      - component("hat-4-1") in green.tokens\n'
    path, text = scenario(rs, old, old.replace("green", "yellow"))
    d = scenario_diag(rs, path)
    line, col = locate(text, 'component("hat-4-1") in yellow.tokens')
    assert (Path(d["path"]), d["line"], d["col"], d["code"]) == (path, line, col, "EXPECT-FAIL")
    assert "false" in d["msg"]


def test_script_left(rs):
    old = "  - green: token:hat-4\n"
    path, text = scenario(rs, old, old + "  - yellow: token:hat-2\n")
    d = scenario_diag(rs, path)
    line, col = locate(text, "yellow: token:hat-2")
    assert (Path(d["path"]), d["line"], d["col"], d["code"]) == (path, line, col, "SCRIPT-LEFT")
    assert "1 scripted choice(s) unused" in d["msg"]


def test_scenario_expectation_with_an_undefined_name(rs):
    old = '      - component("hat-4-1") in green.tokens\n'
    path, text = scenario(rs, old, old.replace("green", "gren"))
    d = only(validate(path), "REF-UNDEF")
    at(d, path, *locate(text, "gren"))
    assert d["hint"] == "did you mean 'green'?"


@pytest.mark.parametrize("quote", ['"', ""])
def test_scenario_expectation_syntax_at_its_end(rs, quote):
    path, text = scenario(rs, "      - round == 1\n", f"      - {quote}round == {quote}\n")
    d = only(validate(path), "SYNTAX")
    at(d, path, *end_of(text, "round =="))


def test_scenario_arrange_block_is_mapped_into_the_file(rs):
    old = '  place 3 cubes of green at space("docks")\n'
    path, text = scenario(rs, old, old.replace('space("docks")', 'space("dokcs")'))
    d = only(validate(path), "REF-UNDEF")
    at(d, path, *locate(text, '"dokcs"'))
    assert d["hint"] == "did you mean 'docks'?"


def test_scenario_schema_problem(rs):
    path, text = scenario(rs, "seed: 1\n", "seed: one\n")
    d = only(validate(path), "SCHEMA-TYPE")
    at(d, path, *locate(text, "one", after="seed:"))


def test_an_empty_scenario_file(rs):
    path, _ = scenario(rs)
    path.write_text("", encoding="utf-8")
    d = only(validate(path), "SCHEMA-MISSING")
    at(d, path, 1, 1)
    d = scenario_diag(rs, path)
    assert (Path(d["path"]), d["line"], d["col"], d["code"]) == (path, 1, 1, "SCHEMA-MISSING")


def test_validating_a_ruleset_file_as_a_scenario(rs):
    d = only(validate(rs / "game.yaml"), "SCHEMA-VALUE")
    at(d, rs / "game.yaml", 1, 1)
    assert "ruleset file" in d["message"]


# ---------------------------------------------------------------- many problems, formats, exit codes
def test_several_problems_in_one_file_are_all_reported(rs):
    path = rs / "game.yaml"
    text = path.read_text(encoding="utf-8")
    for old, new in (("\nscore: score", "\nscroe: score"), ("supply: 35", 'supply: "many"'),
                     ("bag: {type: bag,", "bag: {type: sack,")):
        assert text.count(old) == 1
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    diags = validate(rs)
    got = [(Path(d["path"]), d["line"], d["col"], d["code"]) for d in diags]
    assert got == sorted([
        (path, *locate(text, "scroe:"), "SCHEMA-UNKNOWN-KEY"),
        (path, *locate(text, '"many"'), "SCHEMA-TYPE"),
        (path, *locate(text, "sack"), "SCHEMA-VALUE"),
    ], key=lambda g: (g[1], g[2]))


def test_several_rule_problems_in_one_file_are_all_reported(rs):
    text = inject(rs, "flow.rules", "  time = round\n", "  time = roundz\n")
    path = rs / "flow.rules"
    old = "  fill_city()\n"
    assert text.count(old) == 1
    text = text.replace(old, "  fill_citty()\n")
    old = 'return space("downtown")'
    assert text.count(old) == 1
    text = text.replace(old, 'return space("nowhere")')
    path.write_text(text, encoding="utf-8")
    diags = [d for d in validate(rs) if d["severity"] == "error"]
    assert [(d["line"], d["col"], d["code"]) for d in diags] == [
        (*locate(text, "roundz"), "REF-UNDEF"),
        (*locate(text, "fill_citty"), "REF-UNDEF"),
        (*locate(text, '"nowhere"'), "REF-UNDEF"),
    ]


def test_problems_in_several_files_are_all_reported(rs):
    gtext = inject(rs, "game.yaml", "\nscore: score", "\nscroe: score")
    inject(rs, "board.yaml", "\nlinks:", "\nlinks: [")
    ttext = inject(rs, "tables.yaml", "\ntables:", "\ntables:\n  x: 1\ntables:")
    diags = validate(rs)
    got = {(Path(d["path"]).name, d["line"], d["col"], d["code"]) for d in diags}
    assert ("game.yaml", *locate(gtext, "scroe"), "SCHEMA-UNKNOWN-KEY") in got
    assert ("tables.yaml", *locate(ttext, "tables:", after="x: 1"), "YAML-DUPKEY") in got
    assert any(g[0] == "board.yaml" and g[3] == "YAML-SYNTAX" for g in got)
    assert len(got) == 3, diags


def test_json_format_has_every_field(rs):
    inject(rs, "game.yaml", "\nscore: score", "\nscroe: score")
    r = cli("validate", "--format", "json", rs)
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert isinstance(data, list) and len(data) == 1
    (d,) = data
    assert set(d) == FIELDS
    assert isinstance(d["line"], int) and isinstance(d["col"], int)
    assert d["severity"] == "error" and d["code"] in CODES


def test_json_format_of_a_clean_ruleset_is_an_empty_list(rs):
    r = cli("validate", "--format", "json", rs)
    assert r.exit_code == 0
    assert json.loads(r.stdout) == []


def test_text_format_has_the_source_line_and_a_caret(rs):
    text = inject(rs, "flow.rules", "  time = round\n", "  time = roundz\n")
    r = cli("validate", rs)
    assert r.exit_code == 1
    lines = r.output.splitlines()
    line, col = locate(text, "roundz")
    head = f"{rs / 'flow.rules'}:{line}:{col}: REF-UNDEF undefined name 'roundz'"
    i = next(k for k, ln in enumerate(lines) if ln.startswith(head))
    assert lines[i + 1] == "    " + text.splitlines()[line - 1].rstrip()
    assert lines[i + 2] == "    " + " " * (col - 1) + "^"
    assert lines[-1].startswith("1 error(s)")


def test_text_caret_for_a_one_line_yaml_rules_scalar_shows_the_real_line(rs):
    old = "    rules: |\n      on shadow_acts(d, v) {\n        remove all cubes of bluecoats from d\n      }\n"
    new = '    rules: "on shadow_acts(d, v) { remove all cubes of bluecoats frm d }"\n'
    text = inject(rs, "shadows.yaml", old, new)
    r = cli("validate", rs)
    lines = r.output.splitlines()
    line, col = locate(text, "frm d")
    i = next(k for k, ln in enumerate(lines) if ln.startswith(f"{rs / 'shadows.yaml'}:{line}:{col}: SYNTAX"))
    assert lines[i + 1] == "    " + text.splitlines()[line - 1]
    assert lines[i + 2].index("^") == 4 + col - 1


def test_exit_code_0_when_clean(rs):
    r = cli("validate", rs)
    assert r.exit_code == 0, r.output
    assert "0 error(s)" in r.output


def test_exit_code_1_when_problems(rs):
    inject(rs, "dice.yaml", "zone: pool", "zone: poool")
    assert cli("validate", rs).exit_code == 1


def test_exit_code_1_for_a_missing_folder(tmp_path):
    r = cli("validate", "--format", "json", tmp_path / "nothing")
    assert r.exit_code == 1
    (d,) = json.loads(r.stdout)
    assert d["code"] == "FILE-MISSING"


@pytest.mark.parametrize("args", [["validate"], ["validate", "--format", "xml", "."],
                                  ["frobnicate"], ["play"]])
def test_exit_code_2_for_usage_errors(args):
    r = cli_clean(*args)
    assert r.exit_code == 2


# ---------------------------------------------------------------- never a traceback
@pytest.fixture(scope="module")
def fuzz_copy(tmp_path_factory) -> Path:
    return copy_ruleset("smile_and_gun", tmp_path_factory.mktemp("fuzz") / "rs",
                        "scenarios", "variants", "__pycache__")


SNIPPETS = [b"{", b"}", b"[", b"]", b":", b"- ", b"\t", b"  ", b"\n", b'"', b"'", b"#", b"&a ",
            b"*a", b"!!str ", b"\xff", b"\x00", b"%", b"|", b">", b",", b"=", b"(", b")",
            b"break", b"1/0", b"true", b"none", b'"{x"', b"\\", b"---\n", b"def f() {}", b"on "]

mutation = st.one_of(
    st.tuples(st.just("delete"), st.integers(0, 10**6), st.integers(1, 30)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.sampled_from(SNIPPETS)),
    st.tuples(st.just("bytes"), st.integers(0, 10**6), st.binary(min_size=1, max_size=8)),
    st.tuples(st.just("drop-line"), st.integers(0, 10**6), st.just(0)),
    st.tuples(st.just("swap-lines"), st.integers(0, 10**6), st.integers(0, 10**6)),
    st.tuples(st.just("dup-line"), st.integers(0, 10**6), st.integers(0, 10**6)),
)


def mutate(data: bytes, ops) -> bytes:
    for op, a, b in ops:
        if op in ("delete", "insert", "bytes"):
            i = a % (len(data) + 1)
            if op == "delete":
                data = data[:i] + data[i + b:]
            else:
                data = data[:i] + b + data[i:]
        else:
            lines = data.split(b"\n")
            i, j = a % len(lines), b % len(lines)
            if op == "drop-line":
                del lines[i]
            elif op == "swap-lines":
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines.insert(i, lines[j])
            data = b"\n".join(lines)
    return data


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(["game.yaml", "flow.rules"]),
       ops=st.lists(mutation, min_size=1, max_size=4),
       fmt=st.sampled_from(["text", "json"]))
def test_mutated_files_never_produce_a_traceback(fuzz_copy, name, ops, fmt):
    path = fuzz_copy / name
    original = (SMILE / name).read_bytes()
    path.write_bytes(mutate(original, ops))
    try:
        r = cli("validate", "--format", fmt, fuzz_copy)
    finally:
        path.write_bytes(original)
    assert r.exit_code in (0, 1), r.output
    clean(r)
    if fmt == "json":
        for d in json.loads(r.stdout):
            assert set(d) == FIELDS and d["code"] in CODES
            assert d["line"] >= 1 and d["col"] >= 1
