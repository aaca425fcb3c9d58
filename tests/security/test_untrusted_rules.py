"""Rule text is untrusted: it never reaches Python, and every run ends.

Each test writes a small ruleset (or a scenario) into a temporary folder with
one hostile or runaway rule, and asserts the exact diagnostic: its code, file,
line and column, computed from the text written (never guessed).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import (
    cli_clean,
    compiled,
    diagnostics,
    dice_yaml,
    first_agents,
    locate,
    probe_game,
    probe_ruleset,
    race_with_rules,
)

from interpreter.run.agents import RandomAgent
from interpreter.run.engine import Game, load_program
from interpreter.support.diagnostics import DiagnosticError
from interpreter.support.limits import MAX_NESTING

GAME_YAML = probe_game("    counter: 0\n    keep: null\n",
                       "    deck: {type: deck, visibility: hidden}\n"
                       "  side:\n    hand: {visibility: owner}\n")

DICE_YAML = dice_yaml("pool", "id: d6", "id: d1, sides: 1")

TABLES_YAML = """\
kind: tables
tables:
  costs: [1, 2, 3]
  named: {items: 7, values: 8, get: 9}
"""


def make(tmp_path: Path, probe: str, extra: dict | None = None, game: str = GAME_YAML) -> Path:
    """A two-seat ruleset whose one phase runs `probe` (indented by two)."""
    return probe_ruleset(tmp_path / "probe", probe, game, defs="def ident(x) { return x }\n\n",
                         files={"dice.yaml": DICE_YAML, "tables.yaml": TABLES_YAML,
                                **(extra or {})})


def where(folder: Path, needle: str, file: str = "flow.rules") -> tuple[str, int, int]:
    return str(folder / file), *locate((folder / file).read_text(encoding="utf-8"), needle)


def one(diags, code):
    found = [d for d in diags if d["code"] == code]
    assert found, diags
    return found[0]


def at(d, place):
    assert (d["path"], d["line"], d["col"]) == place, d


def run(folder, seed=1, steps=None, logging=False):
    program = compiled(folder)
    game = Game(program, seed=seed, agents=[RandomAgent(1), RandomAgent(2)], steps=steps,
                logging=logging)
    return game.run()


def runtime_error(folder, **kw):
    try:
        run(folder, **kw)
    except DiagnosticError as e:
        d = e.diagnostics[0]
        assert d.code == "RUNTIME", d.short()
        return d
    raise AssertionError("the game ran to its end")


# ------------------------------------------------------------ 1. no way to Python
EXPLOIT = 'let e = x.__class__.__init__.__globals__["__builtins__"]["exec"]'


def test_the_reported_exploit_is_a_syntax_error(tmp_path):
    folder = make(tmp_path, f"let x = ident(1)\n{EXPLOIT}\nlet ys = most(players, e)")
    d = one(diagnostics(folder), "SYNTAX")
    at(d, where(folder, "__class__"))
    assert "'_'" in d["message"]
    r = cli_clean("play", folder, "--quiet")
    assert r.exit_code == 1 and "SYNTAX" in r.output


def test_the_exploit_in_a_scenario_expectation_is_refused(tmp_path):
    make(tmp_path, "counter += 1")
    scenario = tmp_path / "evil.scenario.yaml"
    scenario.write_text("scenario: evil\nruleset: probe\nseed: 1\nthen: first\nexpect:\n"
                        "  - that:\n      - 'ident(1).__class__ == none'\n", encoding="utf-8")
    d = one(diagnostics(scenario), "SYNTAX")
    assert (d["line"], d["col"]) == locate(scenario.read_text(), "__class__")
    r = cli_clean("play", "--scenario", scenario)
    assert r.exit_code == 1 and "SYNTAX" in r.output


def test_underscore_names_are_refused_everywhere(tmp_path):
    folder = make(tmp_path, "let _secret = 1\ncounter = _secret")
    diags = [d for d in diagnostics(folder) if d["code"] == "SYNTAX"]
    at(diags[0], where(folder, "_secret"))


def test_undeclared_attributes_of_unknown_values_stop_at_run_time(tmp_path):
    # ident() hides the type from the checker; the game's allow-list refuses
    # a field the list does not have (a side's zone here)
    folder = make(tmp_path, "keep = ident(players).hand")
    d = runtime_error(folder)
    assert (d.path, d.line, d.col) == where(folder, "keep = ident")
    assert "has no attribute 'hand'" in d.message
    # a field no value of the ruleset has is refused before play
    from interpreter.run.engine import validate_ruleset
    folder = make(tmp_path / "b", "keep = ident(players).append")
    (d,) = [x for x in validate_ruleset(folder) if x.severity == "error"]
    assert d.code == "REF-UNDEF" and "field 'append'" in d.message
    assert (d.path, d.line, d.col) == where(folder, "keep = ident")[:2] + (10,)


def test_python_callables_are_never_called(tmp_path):
    # `p` is typed a side by its `let`, then holds a list: p.index is Python's
    # list.index, which must never reach a builtin that calls its argument
    folder = make(tmp_path, "let p = red\np = ident([1, 2])\nlet m = ident(p.index)\n"
                  "keep = most(players, m)")
    d = runtime_error(folder)
    assert (d.path, d.line, d.col) == where(folder, "keep = most")
    assert "expected a function" in d.message


def test_generated_code_has_no_python_builtins(tmp_path):
    program, _ = load_program(make(tmp_path, "counter += 1"))
    assert program.ns["__builtins__"] == {}
    assert not {"open", "exec", "eval", "__import__", "getattr"} & set(program.ns)


def test_tables_and_game_lists_cannot_be_changed(tmp_path):
    folder = make(tmp_path, "let t = ident(tables.costs)\nt[0] = 9")
    d = runtime_error(folder)
    assert (d.path, d.line) == where(folder, "t[0] = 9")[:2]
    assert "cannot be changed" in d.message
    d = runtime_error(make(tmp_path / "b", "let ps = ident(players)\nps[0] = blue"))
    assert "cannot be changed" in d.message


def test_table_keys_named_like_python_methods_are_just_keys(tmp_path):
    folder = make(tmp_path, "counter = tables.named.items + tables.named.values + "
                  "tables.named.get")
    assert run(folder).v_counter == 24


def test_a_function_variable_only_takes_functions(tmp_path):
    folder = make(tmp_path, "let f = x => x\nf = 3")
    d = one(diagnostics(folder), "TYPE")
    at(d, where(folder, "3\n"))


def test_duplicate_parameters_are_reported(tmp_path):
    folder = make(tmp_path, "counter = twice(1, 2)",
                  extra={"more.rules": "def twice(a, a) { return a }\n"})
    d = one(diagnostics(folder), "DUP-ID")
    at(d, where(folder, "def twice", "more.rules"))


def test_a_function_named_like_an_overridden_version_does_not_clash(tmp_path):
    folder = make(tmp_path, "counter = bonus(1)", extra={
        "a.rules": "def bonus(x) { return 1 }\ndef bonus__0(x) { return 100 }\n"
                   "def o0f_bonus(x) { return 1000 }\n",
        "b.rules": "override def bonus(x) { return original(x) + 1 }\n"})
    assert diagnostics(folder) == []
    assert run(folder).v_counter == 2


# ------------------------------------------------------------ 2. every run ends
def test_an_endless_while_loop_runs_out_of_steps(tmp_path):
    folder = make(tmp_path, "while true {\n  counter += 1\n}")
    d = runtime_error(folder, steps=20_000)
    assert (d.path, d.line, d.col) == where(folder, "while true")
    assert "20,000 steps" in d.message and "round 1" in d.hint and "main" in d.hint


def test_the_budget_comes_from_game_yaml(tmp_path):
    folder = make(tmp_path, "while true { counter += 1 }",
                  game=GAME_YAML + "limits: {steps: 5000}\n")
    d = runtime_error(folder)
    assert "5,000 steps" in d.message


def test_play_reports_a_runaway_loop_with_its_location(tmp_path):
    folder = make(tmp_path, "while true { counter += 1 }")
    r = cli_clean("play", folder, "--quiet", "--max-steps", "10000")
    assert r.exit_code == 1
    path, line, col = where(folder, "while true")
    assert f"{path}:{line}:{col}: RUNTIME" in r.output


def test_endless_recursion_stops_at_the_recursive_call(tmp_path):
    folder = make(tmp_path, "counter = down(1)",
                  extra={"more.rules": "def down(n) { return down(n + 1) }\n"})
    d = runtime_error(folder)
    assert (d.path, d.line) == where(folder, "return down", "more.rules")[:2]
    assert "too deeply" in d.message


def test_exponential_recursion_runs_out_of_steps(tmp_path):
    folder = make(tmp_path, "counter = tree(1)", extra={
        "more.rules": "def tree(n) {\n  if n > 60 { return 1 }\n"
                      "  return tree(n + 1) + tree(n + 1)\n}\n"})
    d = runtime_error(folder, steps=50_000)
    assert d.path.endswith("more.rules") and "steps" in d.message


def test_a_trigger_that_retriggers_itself_ends(tmp_path):
    folder = make(tmp_path, "trigger ping(1)", extra={
        "more.rules": "on ping(n) {\n  trigger ping(n + 1)\n}\n"})
    d = runtime_error(folder)
    assert d.path.endswith("more.rules") and "too deeply" in d.message


def test_waiting_for_a_face_a_one_sided_die_never_shows(tmp_path):
    folder = make(tmp_path, 'let d = component("d1")\nroll d\nwhile d.value != 2 {\n'
                  '  roll d\n}')
    d = runtime_error(folder, steps=30_000)
    assert (d.path, d.line) == where(folder, "while d.value")[:2]


def test_a_log_in_an_endless_loop_ends(tmp_path):
    folder = make(tmp_path, 'while true {\n  log "again"\n}')
    d = runtime_error(folder, logging=True)
    assert (d.path, d.line) in (where(folder, "while true")[:2], where(folder, 'log "')[:2])


def test_numbers_that_grow_without_end_stop(tmp_path):
    folder = make(tmp_path, "counter = 2\nwhile true {\n  counter = counter * counter\n}")
    d = runtime_error(folder)
    assert (d.path, d.line) == where(folder, "counter = counter *")[:2]
    assert "limit" in d.message
    d = runtime_error(make(tmp_path / "b", "counter = 2\nwhile true {\n  counter += counter\n}"))
    assert "limit" in d.message


def test_lists_and_text_that_double_stop(tmp_path):
    d = runtime_error(make(tmp_path, "let xs = [1]\nwhile true {\n  xs = xs + xs\n}"))
    assert "items" in d.message
    d = runtime_error(make(tmp_path / "b", 'let s = "ab"\nwhile true {\n  s = "{s}{s}"\n}'))
    assert "characters" in d.message
    d = runtime_error(make(tmp_path / "c", "keep = range(1000000000)"))
    assert "range()" in d.message


def test_a_huge_number_literal_is_a_located_error(tmp_path):
    folder = make(tmp_path, "counter = " + "9" * 5000)
    d = one(diagnostics(folder), "LIMIT")
    at(d, where(folder, "9999"))


def test_deep_nesting_is_a_located_error(tmp_path):
    # parentheses alone add no nesting: (((1))) is the number 1
    assert diagnostics(make(tmp_path / "p", "counter = " + "(" * 3000 + "1" + ")" * 3000)) == []
    for i, probe in enumerate(["counter = " + "1 + " * 400 + "1",
                               "counter = " + "-" * 300 + "1",
                               "counter = " + "[" * 300 + "1" + "]" * 300,
                               "".join("  " * k + "for p%d in players {\n" % k for k in range(30))
                               + "counter += 1\n" + "}\n" * 30]):
        folder = make(tmp_path / str(i), probe)
        d = one(diagnostics(folder), "LIMIT")
        assert d["path"] == str(folder / "flow.rules") and d["line"] >= 8, d
        assert str(MAX_NESTING) in d["message"]


def test_twenty_nested_loops_within_the_limit_are_a_located_error_or_run(tmp_path):
    # Python allows 20 nested blocks in one function: past that the engine
    # reports LIMIT at the rule rather than failing inside Python's compiler
    probe = "".join("for p%d in [1] {\n" % k for k in range(19)) + "counter += 1\n" + "}\n" * 19
    folder = make(tmp_path, probe)
    diags = diagnostics(folder)
    if diags:
        d = one(diags, "LIMIT")
        assert d["path"].endswith("flow.rules")
    else:
        assert run(folder).v_counter == 1


def test_the_decision_cap_says_where_the_game_goes_round_in_circles(tmp_path, monkeypatch):
    import interpreter.run.decisions as decisions

    monkeypatch.setattr(decisions, "MAX_DECISIONS", 50)
    folder = make(tmp_path, 'while true {\n  choose red as spin {\n    option "a" { }\n'
                  '    option "b" { }\n  }\n}')
    d = runtime_error(folder)
    assert (d.path, d.line) == where(folder, "choose red")[:2]
    assert re.search(r"round in circles here \(red spin", d.message), d.message


def test_costly_steps_stop_by_the_clock(tmp_path, monkeypatch):
    import interpreter.run.engine as engine

    # each turn compares two 10,000-item lists: the comparison pays a step
    # an item, so a budget far past what a second can spend leaves the clock,
    # read between chunks of steps, to stop it
    monkeypatch.setattr(engine, "MAX_SECONDS", 1)
    folder = make(tmp_path, "let a = ident(range(10000))\nlet b = ident(range(10000))\n"
                  "while true {\n  if a == b { counter += 1 }\n}")
    d = runtime_error(folder, steps=10**12)
    assert (d.path, d.line) in (where(folder, "if a == b")[:2], where(folder, "while true")[:2])
    assert "1 seconds" in d.message


# ---- the fast back end's shortcuts, used as a hostile rule file would -------
def both(folder, **kw):
    """The finished game on each back end (logging on)."""
    out = {}
    for backend in ("fast", "reference"):
        program = compiled(folder, backend=backend)
        out[backend] = Game(program, seed=1, agents=[RandomAgent(1), RandomAgent(2)],
                            logging=True, **kw).run()
    return out["fast"], out["reference"]


def test_a_table_text_folded_into_the_code_stays_text(tmp_path):
    motto = "'); __import__('os').system('echo owned'); ('\"\\n"
    folder = make(tmp_path, 'log "{tables.motto}"', extra={
        "more.yaml": "kind: tables\ntables:\n  motto: " + json.dumps(motto) + "\n"})
    fast, ref = both(folder)
    assert [e["text"] for e in fast.log] == [e["text"] for e in ref.log]
    assert any(e["text"] == motto for e in fast.log)


def test_events_named_like_engine_fields_clash_with_nothing(tmp_path):
    folder = make(tmp_path, "trigger fuel()\ntrigger trigger()\ntrigger fuel()", extra={
        "more.rules": "on fuel() { counter += 1 }\non trigger() { counter += 10 }\n"})
    fast, ref = both(folder)
    assert fast.v_counter == ref.v_counter == 12
    assert fast.steps_used() == ref.steps_used()


def test_an_indexed_lookup_of_a_list_finds_nothing_as_the_scan_does(tmp_path):
    folder = make(tmp_path, 'keep = ident([6])\nlet d = first(components("die"), '
                  'x => x.sides == keep)\nif d == none { counter = 1 }')
    assert "first_by" in load_program(folder)[0].compiled.source  # the index is used
    fast, ref = both(folder)
    assert fast.v_counter == ref.v_counter == 1


def test_an_endless_loop_of_indexed_lookups_runs_out_of_steps(tmp_path):
    folder = make(tmp_path, 'while true {\n  keep = first(components("die"), x => x.id == "d6")\n}')
    d = runtime_error(folder, steps=20_000)
    assert d.path.endswith("flow.rules") and "20,000 steps" in d.message


def test_a_one_player_window_offers_again_after_each_use(tmp_path):
    """Used, an ability is offered again at the same window until the player
    passes or nothing is usable: on both back ends (the fast one opens a
    one-player window without a window object)."""
    folder = make(tmp_path, "window bump() for red\nwindow bump() for blue", extra={
        "more.rules": 'ability "bump" at bump(p) when counter < 3 { counter += 1 }\n'})
    for backend in ("fast", "reference"):
        program = compiled(folder, backend=backend)
        game = Game(program, seed=1, agents=first_agents(), logging=True)
        game.run()
        assert game.v_counter == 3, backend
        assert sum(1 for e in game.log if e.get("player") == "red" and
                   e.get("choice") == "bump") == 3, backend


def test_a_win_inside_an_option_condition_pays_the_same_steps(tmp_path):
    """An option loop whose test runs a rule function (which may end the
    game) pays its steps turn by turn on the fast back end too."""
    folder = make(tmp_path, 'choose red as pick {\n'
                  '  option "n{i}" for i in range(50) when stop(i) { }\n}', extra={
                      "more.rules": "def stop(i) {\n  if i == 3 { win red }\n  return true\n}\n"})
    fast, ref = both(folder)
    assert [w.id for w in fast.winners] == [w.id for w in ref.winners] == ["red"]
    assert fast.steps_used() == ref.steps_used()


def test_an_endless_option_loop_runs_out_of_steps_where_it_is_written(tmp_path):
    folder = make(tmp_path, 'choose red as pick {\n'
                  '  option "{i}-{j}" for i in range(5000), j in range(5000) { }\n}')
    d = runtime_error(folder, steps=50_000)
    assert d.path.endswith("flow.rules") and "50,000 steps" in d.message, d.short()
    assert d.line == where(folder, "option")[1]


def test_the_helpers_generated_code_uses_are_out_of_a_rules_reach(tmp_path):
    """The names the compiler's own code uses (the secret-text helpers among
    them) are no names of the language: a rule that says them is an
    undefined name, and a text it builds stays a text."""
    for i, name in enumerate(["Secret", "PLAIN", "Comp", "B_built", "show", "G"]):
        folder = make(tmp_path / str(i), f"let x = {name}")
        assert one(diagnostics(folder), "REF-UNDEF")["message"] == f"undefined name {name!r}"
    # a secret text is a text: Python's attributes of it are no fields
    folder = make(tmp_path / "t", 'let t = "{players}"\nlog "{t.__class__}"')
    assert "may not begin with '_'" in one(diagnostics(folder), "SYNTAX")["message"]


def test_a_text_of_endless_open_braces_is_read_in_one_pass():
    """A text's `{...}` may hold texts of its own; the lexer reads that with
    possessive loops, so a hostile text of unclosed braces (each a place a
    backtracking reader would try twice) is one syntax error, at once."""
    from interpreter.language.grammar import TEXT, parse_module
    from interpreter.language.parser import Source

    for hostile in ('"' + "{a" * 50_000, '"' + '{"' * 50_000, '"' + "{{{" * 30_000 + "{"):
        assert TEXT.match(hostile) is None or TEXT.match(hostile).end() < len(hostile)
        with pytest.raises(DiagnosticError) as e:
            parse_module(Source("hostile.rules", "phase p {\n  log " + hostile + "\n}\n"))
        assert e.value.diagnostics[0].code == "SYNTAX"


@pytest.mark.parametrize("text", ['"{"abc".upper()}"', '"{joined([1]).__class__}"',
                                  '"{plural("x").format}"'])
def test_a_text_inside_a_text_reaches_nothing_of_python(tmp_path, text):
    folder = race_with_rules(tmp_path / "g", f"""
game {{
  rounds 1 {{ talk }}
}}
phase talk {{
  log {text}
}}
""")
    errors = [d for d in load_program(folder)[1] if d.severity == "error"]
    assert errors and errors[0].code in ("SYNTAX", "TYPE", "REF-UNDEF"), errors


def test_a_score_function_that_never_ends_runs_out_of_steps(tmp_path):
    folder = race_with_rules(tmp_path / "g", """
game {
  rounds 1 { talk }
}
phase talk { red.laps += 1 }
def points(p) {
  let n = 0
  while true { n += 1 }
  return n
}
""", game_edits={"score: laps": "score: points"})
    program, diags = load_program(folder)
    assert program is not None, [d.short() for d in diags]
    with pytest.raises(DiagnosticError) as e:
        Game(program, seed=1, agents=[RandomAgent(0), RandomAgent(1)], steps=10_000).run()
    [d] = e.value.diagnostics
    assert d.code == "RUNTIME" and "steps" in d.message and d.line == 8


def test_a_record_reaches_nothing_of_python(tmp_path):
    # a field named like a Python attribute is refused as a name; a field read
    # of a record is a key of that record, never an attribute of the object
    folder = make(tmp_path, "let r = record(__class__: 1)")
    at(one(diagnostics(folder), "SYNTAX"), where(folder, "__class__"))
    folder = make(tmp_path / "b", 'let r = record(items: 1)\ncounter = r.items')
    game = run(folder)
    assert game.v_counter == 1
    # a dict's own method through a value of unknown type: refused before play
    folder = make(tmp_path / "c", "let r = record(a: 1)\ncounter = ident(r).keys")
    assert "field 'keys'" in one(diagnostics(folder), "REF-UNDEF")["message"]


def test_a_piece_kind_named_by_a_value_reaches_no_attribute(tmp_path):
    folder = make(tmp_path, 'let k = "index"\ngive 1 k from players[0] to players[1]')
    assert "'index' is not a piece kind" in runtime_error(folder).message


def test_a_rule_text_is_text_on_a_seat_page(tmp_path):
    # labels, prompts and log lines a rule file writes reach the browser
    # escaped: markup in them is shown, never run
    from starlette.testclient import TestClient

    from interpreter.serve.app import Server, make_app
    rules = ('choose players[0] as x "<img src=x onerror=alert(1)>" {\n'
             '  option "<script>alert(2)</script>" { log "</li><script>alert(3)</script>" }\n'
             '  option "b" { }\n}')
    folder = make(tmp_path, rules)
    program, _ = load_program(folder)
    server = Server(program, {}, None)
    with TestClient(make_app(server)) as client:
        table = server.new_table([])
        import time
        end = time.monotonic() + 20
        while table.asking is None:
            assert time.monotonic() < end
            time.sleep(0.01)
        seat = table.asking[0]
        page = client.get(f"/t/{table.tid}/{seat.token}").text
        assert "&lt;img src=x onerror=alert(1)&gt;" in page and "<img src=x" not in page
        assert "&lt;script&gt;alert(2)&lt;/script&gt;" in page and "alert(2)</script>" not in page
        assert table.answer_from(seat.token, table.seq, 0) is None
        end = time.monotonic() + 20
        while not (table.finished or "alert(3)" in table.page(seat.sid)):
            assert time.monotonic() < end
            time.sleep(0.01)
        shown = table.page(seat.sid)
        assert "alert(3)&lt;/script&gt;" in shown and "<script>alert(3)" not in shown
    server.stop()
