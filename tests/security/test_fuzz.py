"""Fuzzing: mutated rule text, YAML and scenarios from the shipped rulesets
never produce a traceback or an INTERNAL error, in validate or in play; rule
code that builds nested values, long texts and control characters ends with
the game or a located diagnostic and puts no raw control character on the
terminal; and no symbolic link or `ruleset:` field leads any command to read
or quote a file outside the folder it was given.

Mutations are made of bytes, whole lines and — for rule text — tokens of the
language itself (keywords, names the ruleset defines, hostile names such as
__class__, huge numbers, deep nesting), so that most mutants parse and reach
the checker, the code generator and a game. CI runs a few hundred cases;
`tools/fuzz` runs as many as asked (RULEBOOK_FUZZ_EXAMPLES).
"""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from helpers import RULES, cli_clean, copy_ruleset
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.support.diagnostics import CODES

EXAMPLES = int(os.environ.get("RULEBOOK_FUZZ_EXAMPLES", "70"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="RULEBOOK_FUZZ_SEED" not in
                os.environ, suppress_health_check=list(HealthCheck))

TOKENS = [b"{", b"}", b"(", b")", b"[", b"]", b",", b".", b"=", b"==", b"+", b"-", b"*", b"/",
          b"%", b"=>", b"\n", b";", b" if ", b" else ", b" for ", b" in ", b" while true ",
          b" let x = ", b" return ", b" break ", b" roll ", b" move ", b" to ", b" choose ",
          b" option ", b" trigger ", b" log ", b" win ", b" end game ", b" none ", b" true ",
          b"__class__", b"_x", b".__globals__", b"9" * 30, b"-1", b"0", b"range(100000)",
          b"x => x", b'"{x}"', b'"\\', b"#", b"((((((((((((", b"tables", b"players", b"current",
          b"this", b"original()", b"collect", b" repeat 1000000 ", b"[1] + [1]"]


def vocabulary(folder: Path) -> list[bytes]:
    """Names the ruleset itself uses: mutants then refer to real things."""
    words = set()
    for f in folder.rglob("*.rules"):
        words |= set(re.findall(rb"[a-z_][a-z0-9_]{2,}", f.read_bytes()))
    return sorted(words)[:400]


def mutation(words):
    return st.one_of(
        st.tuples(st.just("insert"), st.integers(0, 10**7), st.sampled_from(TOKENS + words)),
        st.tuples(st.just("replace"), st.integers(0, 10**7), st.sampled_from(TOKENS + words)),
        st.tuples(st.just("bytes"), st.integers(0, 10**7), st.binary(min_size=1, max_size=6)),
        st.tuples(st.just("delete"), st.integers(0, 10**7), st.integers(1, 40)),
        st.tuples(st.just("drop-line"), st.integers(0, 10**7), st.just(0)),
        st.tuples(st.just("dup-line"), st.integers(0, 10**7), st.integers(0, 10**7)),
    )


def mutate(data: bytes, ops) -> bytes:
    for op, a, b in ops:
        i = a % (len(data) + 1)
        if op == "insert" or op == "bytes":
            data = data[:i] + b + data[i:]
        elif op == "replace":
            m = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*|\S").search(data, i)
            if m:
                data = data[:m.start()] + b + data[m.end():]
        elif op == "delete":
            data = data[:i] + data[i + b:]
        else:
            lines = data.split(b"\n")
            k = a % len(lines)
            if op == "drop-line":
                del lines[k]
            else:
                lines.insert(k, lines[b % len(lines)])
            data = b"\n".join(lines)
    return data


def run(*args):
    r = cli_clean(*args)
    assert r.exit_code in (0, 1, 2), r.output
    return r


def check_json(r):
    for d in json.loads(r.stdout or "[]"):
        assert d["code"] in CODES and d["line"] >= 0 and d["col"] >= 0, d


# the shipped rulesets and the guide's cookbook recipes (rules/examples/NAME)
RULESETS = ["smile_and_gun", "chicago", "tutorial_race", "moonshine_kingdom", "scarface_1920",
            *sorted(f"examples/{p.parent.name}" for p in (RULES / "examples").glob("*/game.yaml"))]


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    base = tmp_path_factory.mktemp("fuzz")
    # variants are validated one overlay at a time: too slow to fuzz here
    return {name: copy_ruleset(name, base / name, "variants") for name in RULESETS}


def fuzz_file(folder: Path, name: str, ops, play=True):
    path = folder / name
    original = path.read_bytes()
    path.write_bytes(mutate(original, ops))
    try:
        r = run("validate", "--format", "json", "--no-warnings", folder)
        check_json(r)
        if r.exit_code == 0 and play:
            run("play", folder, "--seed", "1", "--quiet", "--max-steps", "300000")
    finally:
        path.write_bytes(original)


RULE_FILES = [("smile_and_gun", "flow.rules"), ("chicago", "flow.rules"),
              ("tutorial_race", "race.rules"), ("chicago", "cards.yaml"),
              ("smile_and_gun", "shadows.yaml"), ("moonshine_kingdom", "fights.rules"),
              ("moonshine_kingdom", "jobs.yaml"), ("scarface_1920", "orders.rules"),
              ("scarface_1920", "associates.yaml")]
YAML_FILES = [("smile_and_gun", "game.yaml"), ("smile_and_gun", "board.yaml"),
              ("smile_and_gun", "tokens.yaml"), ("chicago", "game.yaml"),
              ("chicago", "board.yaml"), ("chicago", "tables.yaml"),
              ("tutorial_race", "game.yaml"), ("tutorial_race", "dice.yaml"),
              ("moonshine_kingdom", "board.yaml"), ("moonshine_kingdom", "tables.yaml"),
              ("scarface_1920", "board.yaml"), ("scarface_1920", "tiles.yaml")]
WORDS = vocabulary(RULES)


@FUZZ
@given(target=st.sampled_from(RULE_FILES), ops=st.lists(mutation(WORDS), min_size=1, max_size=3))
def test_mutated_rule_text_never_crashes(copies, target, ops):
    ruleset, name = target
    fuzz_file(copies[ruleset], name, ops)


@FUZZ
@given(target=st.sampled_from(YAML_FILES), ops=st.lists(mutation([]), min_size=1, max_size=3))
def test_mutated_yaml_never_crashes(copies, target, ops):
    ruleset, name = target
    fuzz_file(copies[ruleset], name, ops)


SCENARIOS = sorted(p for p in RULES.rglob("*.scenario.yaml") if "variants" not in p.parts)


@FUZZ
@given(scenario=st.sampled_from(SCENARIOS), ops=st.lists(mutation(WORDS), min_size=1, max_size=3))
def test_mutated_scenarios_never_crash(copies, tmp_path_factory, scenario, ops):
    ruleset = str(scenario.parent.parent.relative_to(RULES))
    folder = copies[ruleset] / "scenarios"
    folder.mkdir(exist_ok=True)
    path = folder / scenario.name
    path.write_bytes(mutate(scenario.read_bytes(), ops))
    try:
        check_json(run("validate", "--format", "json", path))
        run("play", "--scenario", path)
    finally:
        path.unlink()


# ------------------------------------------ values built while playing
# Rule code made of nested lists, long texts and control characters, run in
# a small game: whatever it builds, compares, sorts or logs, the tool ends
# with the game or a located diagnostic, and no raw control character of the
# rule text reaches the terminal.
CONTROL = ["\x1b[2J", "\x1b]52;c;aGk=\x07", "\x07", "\r", "\x08", "\x7f", "\x9b", "\x00",
           "\u202e", "\x1b[1A\x1b[K"]
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _text():
    piece = st.one_of(st.sampled_from(CONTROL), st.text("ab{}\\ é", max_size=8))
    return st.builds(lambda parts, n: ("".join(parts) * n)[:30_000], st.lists(piece, max_size=4),
                     st.sampled_from([1, 2, 50, 3000]))


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("{", "{{").replace("}", "}}") \
        .replace("\n", " ") + '"'


def _expr():
    leaf = st.one_of(st.integers(-10**16, 10**16).map(str), _text().map(_quote),
                     st.sampled_from(["p", "p.at", "players", "s", "none", "true",
                                      "range(5)", "range(3000)", "track(\"loop\")"]))
    return st.recursive(leaf, lambda e: st.one_of(
        st.lists(e, max_size=6).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(e, e, st.sampled_from(["==", "!=", "+", "in", "<"])).map(
            lambda t: f"({t[0]} {t[2]} {t[1]})"),
        st.tuples(st.sampled_from(["sort", "len", "max", "min", "sum", "reverse"]), e).map(
            lambda t: f"{t[0]}({t[1]})"),
        e.map(lambda x: f"max({x}, {x})"),
        e.map(lambda x: f"[{x} for i in range(40)]"),
        e.map(lambda x: '"{' + x + '}"'),
    ), max_leaves=24)


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    return copy_ruleset("tutorial_race", tmp_path_factory.mktemp("values") / "race", "scenarios")


@FUZZ
@given(exprs=st.lists(_expr(), min_size=1, max_size=3), name=_text())
def test_built_values_never_crash_nor_reach_the_terminal_raw(host, exprs, name):
    lines = [f'  let v{i} = {e}\n  log "{{p}}: {{v{i}}}"' for i, e in enumerate(exprs)]
    (host / "fuzz.rules").write_text("on landed(p, s) {\n" + "\n".join(lines) + "\n}\n",
                                     encoding="utf-8")
    game = (host / "game.yaml").read_text(encoding="utf-8")
    try:
        (host / "game.yaml").write_text(game.replace("name: Red", "name: " + json.dumps(name))
                                        .replace("name: Tutorial Race", "name: " + json.dumps(name)),
                                        encoding="utf-8")
        r = run("validate", "--format", "json", "--no-warnings", host)
        check_json(r)
        if r.exit_code == 0:
            r = run("play", host, "--seed", "1", "--max-steps", "300000")
            assert not RAW_CONTROL.search(r.output), repr(RAW_CONTROL.search(r.output))
    finally:
        (host / "game.yaml").write_text(game, encoding="utf-8")
        (host / "fuzz.rules").unlink()


# ------------------------------------------ the folder is sealed
# Symbolic links and `ruleset:` fields that point outside the folder the
# user named: no command reads or quotes what lies there.
MARK = "SECRET-MARKER-7f3a"
LINKS = ["variants/evil", "scenarios", "evil.rules", "evil.yaml", "sub/evil.rules",
         "variants/long/evil.rules", "scenarios/evil.scenario.yaml"]
COMMANDS = [["validate"], ["play", "--seed", "1", "--quiet"], ["info"], ["lint"],
            ["play", "--seed", "1", "--quiet", "--variant", "evil"], ["docs"],
            ["coverage", "--games", "1"]]


def _outside(root: Path) -> Path:
    out = root / "outside"
    (out / "variants").mkdir(parents=True, exist_ok=True)
    bad = f"{MARK} = {{ broken\n"
    for f in ["evil.rules", "secret.rules", "game.yaml", "variant.yaml", "evil.yaml",
              "evil.scenario.yaml"]:
        (out / f).write_text(f"# {MARK}\n{bad}", encoding="utf-8")
    return out


@FUZZ
@given(link=st.sampled_from(LINKS), to_dir=st.booleans(), command=st.sampled_from(COMMANDS))
def test_links_out_of_the_folder_are_never_read(tmp_path_factory, link, to_dir, command):
    root = tmp_path_factory.mktemp("sealed")
    out = _outside(root)
    rs = copy_ruleset("tutorial_race", root / "race")
    where = rs / link
    if where.exists():
        shutil.rmtree(where) if where.is_dir() else where.unlink()
    where.parent.mkdir(parents=True, exist_ok=True)
    where.symlink_to(out if to_dir else out / Path(link).name, target_is_directory=to_dir)
    r = run(command[0], rs, *command[1:])
    assert MARK not in r.output


@FUZZ
@given(kind=st.sampled_from(["scenario", "save"]),
       field=st.sampled_from(["../outside", "../../outside", "/", "../outside/variants", "."]))
def test_a_scenario_or_save_names_no_folder_outside(tmp_path_factory, kind, field):
    root = tmp_path_factory.mktemp("named")
    _outside(root)
    inbox = root / "inbox"
    inbox.mkdir()
    if kind == "scenario":
        f = inbox / "x.scenario.yaml"
        f.write_text(f"scenario: hostile\nruleset: {json.dumps(field)}\nplayers: 2\n"
                     "expect: []\n", encoding="utf-8")
        r = run("play", "--scenario", f)
    else:
        f = inbox / "x.json"
        f.write_text(json.dumps({"ruleset": field, "seed": 1, "choices": []}), encoding="utf-8")
        r = run("play", "--replay", f, "--quiet")
    assert MARK not in r.output


# ------------------------------------------ secrecy follows the value
# Values built from cards in hands only their owners see (lists, texts,
# str(), ids shown in a text, labels, a side variable holding a text) reach
# every reader's log and view only as 'a card' unless that reader was dealt
# the card (tests/security/test_hidden_values.py holds the game).
def _secret_expr():
    leaf = st.sampled_from(["p.hand.items", "p.hand.top", "o.hand.items", "o.hand.top",
                            "[p.hand.top, 3]", "p.id", "7", "players", "p.note", "o.note"])
    value = st.recursive(leaf, lambda e: st.one_of(
        st.lists(e, min_size=1, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        e.map(lambda x: f"str({x})"),
        e.map(lambda x: f"reverse([{x}])"),
        e.map(lambda x: f"first([{x}])"),
    ), max_leaves=6)
    # a text is never written inside another one's {...}: texts nest through names
    return st.one_of(value, value.map(lambda x: '"<{' + x + '}>"'),
                     st.sampled_from(['"{p.hand.top.id}"', '"{o.hand.top.id}:{p}"']))


@pytest.fixture(scope="module")
def secrets_game(tmp_path_factory):
    from test_hidden_values import folder
    return folder(tmp_path_factory.mktemp("secrets"), "phase play { }\n")


@FUZZ
@given(exprs=st.lists(_secret_expr(), min_size=1, max_size=3))
def test_values_built_from_hidden_cards_reach_only_those_who_may_see_them(secrets_game, exprs):
    from test_hidden_values import GAME, dealt, leaks, named, run

    from interpreter.model.views import view_for
    lets = "\n".join(f"      let v{i} = {e}\n      log \"{{p}}: {{v{i}}}\"\n"
                     f"      p.note = \"{{p.note}}{{v{i}}}\"" for i, e in enumerate(exprs))
    (secrets_game / "game.yaml").write_text(
        GAME.replace("{score: 0}", "{score: 0, note: \"\"}"), encoding="utf-8")
    (secrets_game / "play.rules").write_text(
        "phase play {\n  for p in players {\n    turn p {\n      let o = next_of(players, p)\n"
        f"{lets}\n      choose p as pick \"pick?\" {{\n"
        "        option \"{v0}\" for i in [1] { log \"{p}: {p.note}\" }\n"
        "        option \"other\" { p.score += 1 }\n      }\n    }\n  }\n"
        "  log \"notes: {players[0].note} / {players[1].note}\"\n}\n", encoding="utf-8")
    s = (secrets_game / "s.rules").read_text(encoding="utf-8")
    (secrets_game / "s.rules").write_text(s.split("phase play")[0], encoding="utf-8")
    try:
        r = run(secrets_game, 1)
    except AssertionError:  # a mistake of the generated rules (a type), not a leak
        return
    finally:
        (secrets_game / "s.rules").write_text(s, encoding="utf-8")
    assert leaks(r) == []
    for sid in ("ann", "ben", None):
        side = r.side_by_id(sid) if sid else None
        seen = named(json.dumps(view_for(r, side)))
        assert seen <= (dealt(r, sid) if sid else set()), (sid, seen)
