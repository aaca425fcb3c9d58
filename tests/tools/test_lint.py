"""`rulebook lint`: every code has a ruleset that triggers it and one that
does not (both small changes to the clean tutorial race), the lint: block of
game.yaml, the output formats, and the shipped rulesets."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ROOT, cli, copy_ruleset, edit, write_files

from interpreter.designer.lint import lint_ruleset
from interpreter.designer.lintcheck import LINT_CODES

STMT = "    p.laps += 1\n"  # a line of advance() in race.rules, where a test adds one


def build(tmp_path, name="race", stmt=None, rules="", game=None, files=None, replace=None):
    """The tutorial race with changes: a statement in advance(), rule text
    added, game.yaml lines replaced, extra files."""
    folder = copy_ruleset("tutorial_race", tmp_path / name, "scenarios")
    race = folder / "race.rules"
    if stmt:
        edit(race, STMT, STMT + "    " + stmt + "\n")
    for old, new in (replace or {}).items():
        edit(race, old, new)
    with open(race, "a", encoding="utf-8") as fh:
        fh.write("\n" + rules)
    for old, new in (game or {}).items():
        edit(folder / "game.yaml", old, new)
    return write_files(folder, files or {})


def codes(folder):
    found, errors = lint_ruleset(folder)
    assert not errors, [e.short() for e in errors]
    return [(f.code, f.name) for f in found if not f.allowed]


TOKENS = "kind: components\ncomponent: token\nitems:\n  - {id: spare}\n"
TABLES = "kind: tables\ntables:\n  bonus: 2\n"
VARIANT = "kind: variant\nid: v\nname: V\n"
ZONES = "zones:\n  game:\n    cup: {description: The two dice}\n"
SIDE = "  side:\n    at: null            # the space a runner stands on\n"
ROUNDS = "  rounds 10 {\n    race\n"

# code -> (changes that trigger it, changes that do not), as build() keywords
CASES = {
    "LINT-UNUSED-COMPONENT": (dict(files={"tokens.yaml": TOKENS}),
                              dict(files={"tokens.yaml": TOKENS},
                                   stmt='let t = component("spare")')),
    "LINT-UNUSED-TABLE": (dict(files={"tables.yaml": TABLES}),
                          dict(files={"tables.yaml": TABLES}, stmt="let b = tables.bonus")),
    "LINT-UNUSED-VARIABLE": (dict(game={SIDE: SIDE + "    spare: 0\n"}, stmt="p.spare = 1"),
                             dict(game={SIDE: SIDE + "    spare: 0\n"},
                                  stmt="p.spare = p.spare + 1")),
    "LINT-UNUSED-OPTION": (
        dict(game={"options:\n": "options:\n  speed: {choices: [1, 2], default: 1}\n"}),
        dict(game={"options:\n": "options:\n  speed: {choices: [1, 2], default: 1}\n"},
             stmt="let s = options.speed")),
    "LINT-UNUSED-PHASE": (dict(rules='phase idle {\n  log "resting"\n}\n'),
                          dict(rules='phase idle {\n  log "resting"\n}\n',
                               replace={ROUNDS: ROUNDS + "    idle\n"})),
    "LINT-UNUSED-FUNCTION": (dict(rules="def helper() {\n  return 1\n}\n"),
                             dict(rules="def helper() {\n  return 1\n}\n",
                                  stmt="let h = helper()")),
    "LINT-UNUSED-ZONE": (dict(game={ZONES: ZONES + "    tray: {}\n"}),
                         dict(game={ZONES: ZONES + "    tray: {}\n"}, stmt="move cup to tray")),
    "LINT-UNUSED-PIECE": (dict(game={"score: laps\n": "score: laps\npieces:\n  marker: "
                                     "{supply: 3}\n"}),
                          dict(game={"score: laps\n": "score: laps\npieces:\n  marker: "
                                     "{supply: 3}\n"}, stmt="let m = p.marker")),
    "LINT-NEVER-FIRES": (dict(rules='on rested(p) {\n  log "{p} rests"\n}\n'),
                         dict(rules='on rested(p) {\n  log "{p} rests"\n}\n',
                              stmt="trigger rested(p)")),
    "LINT-DEAD-CODE": (dict(replace={"  p.at = step(": '  return\n  p.at = step('}),
                       dict(replace={"  p.at = step(": '  if p.laps > 5 { return }\n'
                                     '  p.at = step('})),
    "LINT-CONSTANT-CONDITION": (dict(stmt='if 1 > 2 and true { log "never" }'),
                                dict(stmt='if p.laps > 2 { log "often" }')),
    "LINT-ONE-OPTION": (
        dict(stmt='choose p as nod "ready?" { option "go" { log "go" } }'),
        dict(stmt='choose p as nod "ready?" { option "go" { log "go" }\n'
             ' option "wait" { log "wait" } }')),
    "LINT-NO-SOURCE": (dict(game={ZONES: ZONES + "    pile: {}\n    tray: {}\n"},
                            stmt="draw 1 from pile to tray"),
                       dict(game={ZONES: ZONES + "    pile: {}\n    tray: {}\n"},
                            stmt="move tray to pile\n    draw 1 from pile to tray")),
    "LINT-SHADOWS-NOTHING": (
        dict(files={"tables.yaml": TABLES, "variants/v/variant.yaml": VARIANT,
                    "variants/v/tables.yaml": TABLES}, stmt="let b = tables.bonus"),
        dict(files={"tables.yaml": TABLES, "variants/v/variant.yaml": VARIANT,
                    "variants/v/tables.yaml": TABLES.replace("2", "3")},
             stmt="let b = tables.bonus")),
    # (a fixed field against a text, `p.id == "blu"`, is validate's REF-TEXT)
    "LINT-DID-YOU-MEAN": (dict(stmt='if [p.id] == ["blu"] { log "blue moves" }'),
                          dict(stmt='if [p.id] == ["blue"] { log "blue moves" }')),
    "LINT-NO-EFFECT": (dict(stmt="p.laps + 1"), dict(stmt="p.laps += 0")),
    "LINT-ALLOW-STALE": (
        dict(game={"score: laps\n": "score: laps\nlint:\n  allow:\n    - {code: "
                   "LINT-UNUSED-TABLE, name: bonus, why: for later}\n"}),
        dict(files={"tables.yaml": TABLES},
             game={"score: laps\n": "score: laps\nlint:\n  allow:\n    - {code: "
                   "LINT-UNUSED-TABLE, name: bonus, why: for later}\n"})),
}


def test_the_clean_base_has_no_findings(tmp_path):
    assert codes(build(tmp_path)) == []


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_code_has_a_ruleset_that_triggers_it_and_one_that_does_not(tmp_path, code):
    bad, good = CASES[code]
    found = codes(build(tmp_path, "bad", **bad))
    assert code in [c for c, _ in found], found
    clean = codes(build(tmp_path, "good", **good))
    assert code not in [c for c, _ in clean], clean


def test_every_code_is_tested_and_in_the_guide():
    untested = set(LINT_CODES) - set(CASES) - {"LINT-NO-DESCRIPTION"}
    assert not untested
    guide = (ROOT / "rules" / "README.md").read_text()
    assert [c for c in LINT_CODES if f"`{c}`" not in guide] == []


def test_a_construct_docs_cannot_describe_is_a_finding(tmp_path, monkeypatch):
    describe = pytest.importorskip("interpreter.designer.describe")
    from interpreter.language import ast as A

    folder = build(tmp_path)
    assert "LINT-NO-DESCRIPTION" not in [c for c, _ in codes(folder)]
    monkeypatch.setattr(describe, "indescribable",
                        lambda rs: [A.EndGame(span=A.Span(str(folder / "race.rules"), 3, 5))])
    assert ("LINT-NO-DESCRIPTION", "EndGame") in codes(folder)


def test_a_trigger_nobody_hears_does_nothing(tmp_path):
    found = codes(build(tmp_path, stmt="trigger rested(p)"))
    assert found == [("LINT-NEVER-FIRES", "rested")]
    # one with a default block always does something
    assert codes(build(tmp_path, "b", stmt='trigger rested(p) { log "{p} rests" }')) == []


def test_findings_name_what_they_are_about_and_where(tmp_path):
    folder = build(tmp_path, files={"tables.yaml": TABLES},
                   rules="def helper() {\n  return 1\n}\n")
    found, _ = lint_ruleset(folder)
    by_code = {f.code: f for f in found}
    t = by_code["LINT-UNUSED-TABLE"]
    assert (Path(t.path).name, t.line, t.col, t.name) == ("tables.yaml", 3, 3, "bonus")
    f = by_code["LINT-UNUSED-FUNCTION"]
    assert Path(f.path).name == "race.rules" and f.name == "helper" and f.col == 1
    assert "tables.bonus" in t.hint


def test_a_variant_that_uses_a_table_keeps_it_from_being_unused(tmp_path):
    folder = build(tmp_path, files={
        "tables.yaml": TABLES, "variants/v/variant.yaml": VARIANT,
        "variants/v/extra.rules": "override def progress(p) {\n"
        "  return original(p) + tables.bonus\n}\n"})
    assert ("LINT-UNUSED-TABLE", "bonus") not in codes(folder)


def test_an_override_that_only_calls_the_original_shadows_nothing(tmp_path):
    folder = build(tmp_path, files={
        "variants/v/variant.yaml": VARIANT,
        "variants/v/extra.rules": "override phase race {\n  original()\n}\n"})
    assert ("LINT-SHADOWS-NOTHING", "race") in codes(folder)


def test_set_but_never_read_says_so(tmp_path):
    folder = build(tmp_path, game={SIDE: SIDE + "    spare: 0\n"}, stmt="p.spare = 1")
    found, _ = lint_ruleset(folder)
    assert [f.message for f in found] == ["side variable 'spare' is set but never read"]


def test_disable_and_allow_in_game_yaml(tmp_path):
    folder = build(tmp_path, files={"tables.yaml": TABLES},
                   rules="def helper() {\n  return 1\n}\n",
                   game={"score: laps\n": "score: laps\nlint:\n  disable: [LINT-UNUSED-FUNCTION]"
                         "\n  allow:\n    - {code: LINT-UNUSED-TABLE, name: bonus, why: kept for "
                         "the expansion}\n"})
    found, _ = lint_ruleset(folder)
    assert [(f.code, f.allowed) for f in found] == [("LINT-UNUSED-TABLE",
                                                     "kept for the expansion")]
    r = cli("lint", folder)
    assert r.exit_code == 0 and r.output.strip() == "0 finding(s), 1 accepted in game.yaml"
    r = cli("lint", folder, "--show-allowed", "--format", "concise")
    assert "LINT-UNUSED-TABLE" in r.output and "[accepted: kept for the expansion]" in r.output


def test_an_unknown_code_in_disable_is_refused_by_the_schema(tmp_path):
    folder = build(tmp_path, game={"score: laps\n": "score: laps\nlint:\n  disable: [UNUSED]\n"})
    r = cli("lint", folder)
    assert r.exit_code == 1 and "SCHEMA-VALUE" in r.output and "Traceback" not in r.output


def test_formats(tmp_path):
    folder = build(tmp_path, files={"tables.yaml": TABLES})
    r = cli("lint", folder, "--format", "concise")
    assert r.exit_code == 1
    line = r.output.splitlines()[0]
    assert line.endswith("tables.yaml:3:3: LINT-UNUSED-TABLE no rule reads table 'bonus' "
                         "(read it as tables.bonus, or delete it)")
    r = cli("lint", folder)
    assert "  bonus: 2" in r.output and "^" in r.output  # the source line and a caret
    r = cli("lint", folder, "--format", "json")
    data = json.loads(r.output)
    assert [(d["code"], d["name"], d["line"]) for d in data] == [("LINT-UNUSED-TABLE", "bonus", 3)]
    r = cli("lint", folder, "--format", "sarif")
    sarif = json.loads(r.output)
    assert sarif["version"] == "2.1.0"
    res = sarif["runs"][0]["results"]
    assert [x["ruleId"] for x in res] == ["LINT-UNUSED-TABLE"]
    assert res[0]["locations"][0]["physicalLocation"]["region"] == {"startLine": 3,
                                                                    "startColumn": 3}
    assert sarif["runs"][0]["tool"]["driver"]["rules"][0]["id"] == "LINT-UNUSED-TABLE"


def test_a_broken_or_missing_ruleset_is_a_diagnostic(tmp_path):
    r = cli("lint", tmp_path / "nothing")
    assert r.exit_code == 1 and "FILE-MISSING" in r.output and "Traceback" not in r.output
    folder = build(tmp_path, stmt="let x = nosuch")
    r = cli("lint", folder)
    assert r.exit_code == 1 and "REF-UNDEF" in r.output and "Traceback" not in r.output
    r = cli("lint", "--codes")
    assert r.exit_code == 0 and "LINT-ONE-OPTION" in r.output


SHIPPED = ["tutorial_race", "smile_and_gun", "chicago", "moonshine_kingdom", "scarface_1920"] + \
    sorted(f"examples/{p.name}" for p in (ROOT / "rules" / "examples").iterdir() if p.is_dir())


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_rulesets_have_no_findings_or_justify_them(name):
    found, errors = lint_ruleset(ROOT / "rules" / name)
    assert not errors
    assert [f.short() for f in found if not f.allowed] == []
    assert all(len(f.allowed) > 20 for f in found)  # a reason, not a placeholder
