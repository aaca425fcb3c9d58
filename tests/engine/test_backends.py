"""The fast back end plays every game exactly as the reference one: the same
log, byte for byte, the same decisions, winners, scores and steps, over
seeds of every shipped ruleset, variant and option set (a sample here;
`tools/bench RULESET --compare N` runs as many seeds as you like)."""
from pathlib import Path

import pytest
from helpers import RULES, compiled, copy_ruleset, edit

from interpreter.designer.difftest import compare

# (ruleset, variant, options, players, seeds)
CONFIGS = [
    ("tutorial_race", None, {}, None, 200),
    ("tutorial_race", None, {"laps": "3"}, None, 100),
    ("smile_and_gun", None, {}, None, 300),  # Shadow and Infusion drawn by each seed
    ("smile_and_gun", None, {"shadow": "the-badge", "infusion": "second-chance"}, None, 100),
    ("smile_and_gun", "solo", {}, None, 100),
    ("smile_and_gun", "solo", {"difficulty": "legendary", "scenario": "the-cask"}, None, 40),
    ("chicago", None, {"bosses": "2"}, None, 100),
    ("chicago", None, {"bosses": "4"}, None, 100),
    ("moonshine_kingdom", None, {}, 3, 20),
    ("moonshine_kingdom", None, {}, 4, 20),
    ("moonshine_kingdom", "blood-oath", {"homes": "random"}, None, 15),
    ("scarface_1920", None, {}, 2, 15),
    ("scarface_1920", None, {"job_draft": "true", "customized_deck": "true"}, 4, 8),
    ("scarface_1920", "solo", {}, None, 15),
    ("scarface_1920", "solo", {"difficulty": "hard"}, 2, 8),
]


@pytest.mark.parametrize("ruleset,variant,options,players,seeds", CONFIGS,
                         ids=[f"{r}-{v or 'base'}-{'-'.join(o.values()) or 'default'}-{p or 'most'}"
                              for r, v, o, p, _ in CONFIGS])
def test_fast_and_reference_back_ends_play_the_same_games(ruleset, variant, options, players,
                                                         seeds):
    found = compare(RULES / ruleset, range(seeds), variant, options, players)
    assert not found, "\n".join(str(m) for m in found[:3])


def _race_with(tmp_path, phase, rules_text, seeds, game=None):
    """The tutorial race with one more phase first in each round (and each
    `old: new` of `game` replaced in game.yaml), checked to play the same on
    both back ends over `seeds` seeds: its folder."""
    rules = copy_ruleset("tutorial_race", tmp_path / "race")
    for old, new in (game or {}).items():
        edit(rules / "game.yaml", old, new)
    edit(rules / "race.rules", "  rounds 10 {\n    race\n",
         f"  rounds 10 {{\n    {phase}\n    race\n")
    with open(rules / "race.rules", "a", encoding="utf-8") as fh:
        fh.write(rules_text)
    found = compare(rules, range(seeds), None, {})
    assert not found, "\n".join(str(m) for m in found[:3])
    return rules


def test_the_comparison_sees_a_difference(tmp_path, monkeypatch):
    """A fast back end that dropped a live trigger would be caught."""
    from interpreter.compile import compiler
    real = compiler.Compiler.s_Trigger

    def deaf(self, s, scope, ind):  # the fast back end forgets every trigger
        if self.fast:
            self.emit(ind, "pass", s.span)
            return
        real(self, s, scope, ind)
    monkeypatch.setattr(compiler.Compiler, "s_Trigger", deaf)
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    from interpreter.run import program
    from interpreter.support import diskcache
    monkeypatch.setattr(diskcache, "_folder", False)
    program._PROGRAMS.clear()
    found = compare(RULES / "smile_and_gun", range(5), None,
                    {"shadow": "the-river", "infusion": "knockoff"})
    program._PROGRAMS.clear()
    assert found and found[0].what.startswith(("log", "history"))


@pytest.mark.parametrize("ruleset", ["tutorial_race", "smile_and_gun", "chicago",
                                     "moonshine_kingdom", "scarface_1920"])
def test_both_back_ends_report_the_same_diagnostics(ruleset):
    """validate checks with the reference back end: the fast one must agree."""
    from interpreter.run.engine import load_program
    found = {}
    for backend in ("fast", "reference"):
        _, diags = load_program(RULES / ruleset, backend=backend)
        found[backend] = [d.short() for d in diags]
    assert found["fast"] == found["reference"]


def test_a_broken_rule_is_reported_once_by_either_back_end(ruleset_copy):
    from interpreter.run.engine import load_program
    rules = ruleset_copy("tutorial_race", to="race")
    flow = next(rules.glob("*.rules"))
    flow.write_text(flow.read_text() + '\ndef odd(s) {\n  return first(components("x"), '
                    'c => c.id == nowhere)\n}\n')
    found = {}
    for backend in ("fast", "reference"):
        _, diags = load_program(rules, backend=backend)
        found[backend] = [d.short() for d in diags]
    assert found["fast"] == found["reference"] and found["fast"]


# Rules that reach each form the fast back end writes in place of a call:
# sum/count/any/every/first with a lambda written in place (whose body logs
# and pays steps, so order and stopping points show), range of a literal,
# len of a zone and of a list, space("id"), a trigger and a window whose
# arguments call functions (evaluated before anyone is asked), and a test
# against []. Both back ends must leave the same log and steps.
_INLINED = '''
def noisy(p, k) {
  log "{p} looks at {k}"
  return k
}

on landed(p, s) when p.laps > 99 { log "never" }

phase inlined {
  for p in players {
    let xs = [noisy(p, i) for i in range(4)]
    let total = sum(xs, x => noisy(p, x) * 2)
    let odd = count(xs, x => noisy(p, x) % 2 == 1)
    let some = any(xs, x => noisy(p, x) == 1)
    let all_small = every(xs, x => noisy(p, x) < 2)
    let found = first(xs, x => noisy(p, x) > 1)
    let s3 = space("s3")
    log "{p}: {total} {odd} {some} {all_small} {found} {len(xs)} {len(cup)} {s3}"
    trigger landed(p, step("loop", p.at, noisy(p, 1)))
    window anytime(noisy(p, 2)) for p
    if [x for x in xs if x > 5] == [] { log "none above five" }
  }
}
'''


def test_written_in_place_forms_play_the_same(tmp_path):
    rules = _race_with(tmp_path, "inlined", _INLINED, 20)
    from interpreter.run.agents import RandomAgent
    from interpreter.run.engine import Game
    program = compiled(rules)
    game = Game(program, seed=1, logging=True, agents=[RandomAgent("a"), RandomAgent("b")])
    game.run()
    text = "\n".join(e.get("text", "") for e in game.log)
    # sum pays each body once, in order; any and every stop where they decide
    assert "red: 12 2 true false 2 4 2 s3" in text, text[:2000]
    first_round = text.split("== round 2")[0]
    # 4 + 4 (sum) + 4 (count) + 2 (any stops at 1) + 3 (every stops at 2)
    # + 3 (first stops at 2) + 1 (the trigger's argument) + 1 (the window's)
    assert first_round.count("red looks at") == 22
    assert "none above five" in text


_ARITHMETIC = '''
phase numbers {
  for p in players {
    let a = p.laps + 1
    let b = a * 7
    let c = b * a + a - b
    let top = cup.top
    log "{p}: {a} {b} {c} {top}"
    let big = 1
    let n = 0
    while n < 60 {
      big = big * 3 + big
      n += 1
    }
    log "never: {big}"
  }
}
'''


def test_arithmetic_in_place_fails_as_the_helpers_do(tmp_path):
    """Sums and products written in place take the helpers' path near the
    limit: a number that grows past it fails the same way on both back ends."""
    rules = _race_with(tmp_path, "numbers", _ARITHMETIC, 3)
    from interpreter.run.agents import RandomAgent
    from interpreter.run.engine import Game, load_program
    program, _ = load_program(rules)
    assert "B_mul(G" in program.compiled.source  # the fallback is there
    game = Game(program, seed=1, logging=True, agents=[RandomAgent("a"), RandomAgent("b")])
    with pytest.raises(Exception, match="past the limit"):
        game.run()
    assert any(e.get("text") == "red: 1 7 1 a die" for e in game.log), game.log[:5]


def test_a_number_that_may_be_none_keeps_showing_none(tmp_path):
    """Numbers are inferred for parameters and results, but never for one
    that may be none: that one must still read "none" in a log line."""
    rules = _race_with(tmp_path, "shown", '''
def say(n) {
  let text = "n is {n}"
  log "{text}"
  return n
}

def twice(n) {
  return n + n
}

phase shown {
  say(3)
  say(none)
  log "twice {twice(4)}"
}
''', 3)
    from interpreter.run.agents import RandomAgent
    from interpreter.run.engine import Game, load_program
    program, _ = load_program(rules)
    assert "(l_n + l_n if -" in program.compiled.source  # twice's n is a number
    game = Game(program, seed=1, logging=True, agents=[RandomAgent("a"), RandomAgent("b")])
    game.run()
    texts = [e.get("text") for e in game.log]
    assert "n is 3" in texts and "n is none" in texts and "twice 8" in texts


_LABELS = '''
phase labels {
  for p in players {
    choose p as go may "where to?" {
      option "go:{s.id}" for s in track("loop") when s != p.at { log "{p} goes to {s}" }
    }
    choose p as same "all alike" {
      option "lap" for s in track("loop") { log "{p} laps at {s}" }
    }
    choose p as pair "two clauses" {
      option "a:{s.id}>{t.id}" for s in track("loop"), t in track("loop")
          when s.index + 1 == t.index { log "{p} pairs {s} and {t}" }
      option "ab:{s}" for s in track("loop") { log "{p} takes {s}" }
    }
    choose p as overlap "one head starts the other" {
      option "x{s.id}" for s in track("loop") { log "{p} x {s}" }
      option "x:{s.id}" for s in track("loop") { log "{p} x: {s}" }
    }
    choose p as faces "faces may repeat" {
      option "face:{d.value}" for d in cup { log "{p} face {d}" }
    }
  }
}
'''


def test_labels_made_only_when_asked_for_play_the_same(tmp_path):
    """The fast back end makes an option's label only when someone reads it,
    where the labels cannot be alike; options that may read alike are still
    merged into one, as on the reference back end."""
    import re

    from interpreter.run.agents import FirstAgent, RandomAgent
    from interpreter.run.engine import Game, load_program
    rules = _race_with(tmp_path, "labels", _LABELS, 20)
    program = compiled(rules)
    source = program.compiled.source
    lazy = {m.group(1) for m in re.finditer(r"G\.choose\([^,]+, '(\w+)', .*, (_l\d+)\)", source)
            if f"def {m.group(2)}(o):" in source}
    assert lazy == {"go", "pair"}, lazy
    histories = {}
    for backend in ("fast", "reference"):
        prog, _ = load_program(rules, backend=backend)
        games = [Game(prog, seed=3, logging=True, agents=[FirstAgent(), RandomAgent("b")]),
                 Game(prog, seed=4, logging=True, agents=[RandomAgent("a"), RandomAgent("b")])]
        for g in games:
            g.run()
        histories[backend] = [(g.history, [e.get("text") for e in g.log]) for g in games]
    assert histories["fast"] == histories["reference"]
    texts = histories["fast"][1][1]
    assert any(t and " pairs " in t or t and " takes " in t for t in texts)
    assert any(h[1] == "go" and h[2].startswith("go:") for h in histories["fast"][1][0])
    assert not any(h[1] == "same" for h in histories["fast"][1][0])  # one option: not asked


_GROUPS = '''
phase groups {
  for p in players {
    let faces = group_by(cup, d => d.value)
    choose p as twice "a face and another, or the same twice" {
      option "pair:{f[0].value}+{g[0].value}" for f in faces, g in faces
          when f[0] != g[0] or len(f) > 1 {
        log "{p} takes {f[0].value} then {g[0].value} ({len(f)} of the first)"
        move f[0] to cup
      }
    }
    let again = group_by(cup, d => d.value)
    again = [x for x in again if len(x) > 0]
    choose p as rebound "a face (the list was bound twice)" {
      option "face:{f[0].value}" for f in again { log "{p} picks {f[0].value}" }
    }
    let big = sum([d for d in cup if d.value > 2], d => d.value)
    log "{p} counts {big} above two"
    roll cup
  }
}
'''


def test_groups_rolls_and_moves_in_place_play_the_same(tmp_path):
    """group_by in place, its labels made only when read (through a `let`
    bound once; not when bound again), a filter walked as one loop, and a
    roll and a move in place (taken only when no log is kept: the
    comparison plays each seed without a log as well)."""
    import re

    from interpreter.run.agents import RandomAgent
    from interpreter.run.engine import Game, load_program
    rules = _race_with(tmp_path, "groups", _GROUPS, 30)
    program, _ = load_program(rules)
    source = program.compiled.source
    lazy = {m.group(1) for m in re.finditer(r"G\.choose\([^,]+, '(\w+)', .*, (_l\d+)\)", source)
            if f"def {m.group(2)}(o):" in source}
    assert "twice" in lazy and "rebound" not in lazy, lazy
    body = source.split("def p_groups")[1].split("\ndef ")[0]
    assert "B_group_by" not in body and "getrandbits" in body and "._hooks" in body
    assert re.search(r"_k\d+ \+= 1", body)  # the filter walked with the sum
    game = Game(program, seed=2, logging=True, agents=[RandomAgent("a"), RandomAgent("b")])
    game.run()
    texts = [e.get("text") or "" for e in game.log]
    taken = [t for t in texts if " takes " in t]
    assert taken and all(re.fullmatch(r"\w+ takes [1-6] then [1-6] \([12] of the first\)", t)
                         for t in taken)
    # the same face twice only from a pair of dice showing it
    assert all(t.split()[2] != t.split()[4] or "(2 of" in t for t in taken)


_ORDER = '''
phase order {
  if round == 1 {
    let ps = reverse(players)
    let loop = reverse(track("loop"))
    log "sort {sort(ps)} max {max(ps)} min {min(loop)} sorted {sorted(loop, by: s => [s.boost, s])}"
    log "max_by {max_by(loop, s => s)} min_by {min_by(ps, q => [0, q])} most {most(loop, s => s.boost)}"
    log "fewest {fewest(ps, q => q)} ranked {len(ranked(loop, by: s => [s.boost]))} sort_by {sort_by(loop, s => s)}"
  }
}
'''


def test_sides_spaces_and_components_still_sort_by_index(tmp_path):
    """Entities define no order of their own (so == and `in` on them stay
    identity tests); every built-in that orders values still puts them by
    index, inside keys and lists of keys too, on both back ends."""
    from interpreter.run.agents import RandomAgent
    from interpreter.run.engine import Game, load_program
    rules = _race_with(tmp_path, "order", _ORDER, 3)
    program, _ = load_program(rules)
    game = Game(program, seed=1, logging=True, agents=[RandomAgent("a"), RandomAgent("b")])
    game.run()
    texts = [e.get("text") for e in game.log]
    assert "sort red and blue max blue min start sorted start, s1, s2, s4, s5, s7, s3 and s6" in texts
    assert "max_by s7 min_by red most s6 and s3" in texts
    assert "fewest red ranked 2 sort_by start, s1, s2, s3, s4, s5, s6 and s7" in texts


_LOOPS = '''
def even(p, x) {
  log "{p} checks {x}"
  return x % 2 == 0
}

def first_even(p, xs) {
  return first(xs, y => even(p, y))
}

phase loops {
  for p in players {
    let x = 7
    let xs = [i for i in range(6)]
    xs = [x for x in xs if even(p, x)]
    let ys = [x * 10 for x in [y for y in xs if y > 0] if x != 4]
    let near = [t for t in track("loop") if t.index < 3]
    let all_even = every(xs, y => even(p, y))
    let n = count([x for x in range(5)], y => y > x - 5)
    log "{p}: {x} {xs} {ys} {len(near)} {all_even} {n} {first_even(p, [3, 5, 8, 9])}"
    move [d for d in cup if d.value > 0] to cup
  }
}
'''


def test_comprehensions_written_as_loops_play_the_same(tmp_path):
    """A list built or folded by a statement is written out as loops: a loop
    variable never changes the function's own variable of the same name, a
    list may be rebuilt from itself, and folds stop at the same item."""
    from interpreter.run.agents import RandomAgent
    from interpreter.run.engine import Game, load_program
    rules = _race_with(tmp_path, "loops", _LOOPS, 5)
    program, _ = load_program(rules)
    source = program.compiled.source
    body = source.split("def p_loops")[1].split("\ndef ")[0]
    assert "paid" not in body and " for " not in body.replace("    for ", "")  # all loops
    game = Game(program, seed=1, logging=True, agents=[RandomAgent("a"), RandomAgent("b")])
    game.run()
    texts = [e.get("text") for e in game.log]
    assert "red: 7 0, 2 and 4 20 3 true 2 8" in texts, texts[:20]
    first_round = texts[:texts.index("red: 7 0, 2 and 4 20 3 true 2 8")]
    # count's x is the phase's 7, not the list's last x: 2 of 0..4 pass;
    # 6 for the filter, 3 for every, and first_even stops at 8 (3 looked at)
    assert sum(1 for t in first_round if t and t.startswith("red checks")) == 12


_CALLS = '''
def laps_of(p) {
  return p.laps + 1
}

phase calls {
  for p in players {
    if laps_of(p) > 0 { log "{p} is on lap {laps_of(p)}" }
    let who = none
    if round == 2 {
      who = laps_of(who)
    }
  }
}
'''


def test_small_functions_written_in_place_fail_where_they_are_written(tmp_path):
    """A function that only returns is written into the statements that
    call it first thing: the same games, and a failure inside it is still
    reported at its own line."""
    from interpreter.run.agents import RandomAgent
    from interpreter.run.engine import Game, load_program
    from interpreter.support.diagnostics import DiagnosticError
    rules = _race_with(tmp_path, "calls", _CALLS, 3)
    flow = (rules / "race.rules").read_text().splitlines()
    line = next(i for i, t in enumerate(flow, 1) if t.strip() == "return p.laps + 1")
    for backend in ("fast", "reference"):
        program, _ = load_program(rules, backend=backend)
        if backend == "fast":
            calls = program.compiled.source.split("def p_calls")[1].split("\ndef ")[0]
            # the test and the assignment, not the call inside the log line
            assert calls.count("f_laps_of(") == 1 and calls.count("G.fuel -= 1") >= 2
        game = Game(program, seed=1, logging=True, agents=[RandomAgent("a"), RandomAgent("b")])
        with pytest.raises(DiagnosticError) as failed:
            game.run()
        d = failed.value.diagnostics[0]
        assert (d.path.endswith("race.rules"), d.line) == (True, line), (backend, str(d))
        assert "red is on lap 1" in [e.get("text") for e in game.log]


_ODD_TEXT = '''
phase odd_text {
  for p in players {
    choose p as odd may "text that reads like Python" {
      option "'); G.fuel = 0; ('>{s.id}" for s in track("loop") { log "{p} took {s}" }
    }
    let xs = [s for s in track("loop") if "x; y" != "{s.id}; G.fuel = 0"]
    log "{p}: {len(xs)} kept; G.winners = 1"
    let c = cup.top
    log "l_c.holder of {c.id} is {c.holder}"
  }
}
'''


def test_rule_text_that_reads_like_python_stays_text(tmp_path):
    """A hostile label or text that looks like Python ("'); G.fuel = 0; (")
    stays text through the fast back end's rewrites of labels and loops."""
    from interpreter.run.agents import RandomAgent
    from interpreter.run.engine import Game, load_program
    rules = _race_with(tmp_path, "odd_text", _ODD_TEXT, 5)
    program, _ = load_program(rules)
    import re
    source = program.compiled.source
    asked = re.search(r"G\.choose\(l_p, 'odd', [^\n]*, (_l\d+)\)", source)
    assert asked and f"def {asked.group(1)}(o):" in source  # its labels made when read
    game = Game(program, seed=2, logging=True, agents=[RandomAgent("a"), RandomAgent("b")])
    game.run()
    taken = [h[2] for h in game.history if h[1] == "odd"]
    assert any(t.startswith("'); G.fuel = 0; ('>") for t in taken), taken[:3]
    texts = [e.get("text") for e in game.log]
    assert any(t and t.endswith("kept; G.winners = 1") for t in texts)
    # `c.holder` is read in place (compiler._holder_read), the text left alone
    assert "(l_c.zone.holder if l_c.zone is not None else None)" in source
    assert any(t and re.fullmatch(r"l_c\.holder of \S+ is none", t) for t in texts), texts[-5:]
    assert game.steps_used() > 100 and game.finished


@pytest.mark.skipif(__import__("shutil").which("valgrind") is None, reason="needs valgrind")
def test_the_benchmark_counts_instructions_per_game():
    import re
    import subprocess
    import sys
    bench = Path(__file__).resolve().parents[2] / "tools" / "bench"
    out = subprocess.run([sys.executable, str(bench), str(RULES / "tutorial_race"),
                          "--backend", "fast", "--instructions", "--games", "2"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    m = re.search(r"fast: ([\d.]+) million instructions per game \(2 games\)", out.stdout)
    assert m and float(m.group(1)) > 0, out.stdout


_PIECES = '''
phase pieces {
  roll cup
  for p in players {
    let n = cup.top.value - 2
    place n marks of p at p.at
    if round % 3 == 0 { place all marks of p at space("start") }
    transfer cup[1].value - 3 marks of p from p.at to space("start")
    remove n - 1 marks of p from space("start")
    if round % 4 == 0 { remove all marks of p from p.at }
    if round % 5 == 0 { remove all marks from space("start") }
    let s = space("start")
    log "{p} has {p.marks} marks: {p.at.marks[p]} here, {s.marks[p]} at the start"
  }
}
'''


def test_pieces_counted_in_place_play_the_same(tmp_path):
    """place, remove and transfer of a typed side and count are counted in
    place (no log kept): a short supply, a count of none (`all`), below one
    and past what a location holds take the engine's own way, and every
    seed plays as the reference plays it, with and without a log."""
    rules = _race_with(tmp_path, "pieces", _PIECES, 40,
                       game={"zones:\n": "pieces:\n  marks: {supply: 6}\nzones:\n"})
    program = compiled(rules)
    body = program.compiled.source.split("def p_pieces")[1].split("\ndef ")[0]
    assert body.count("G.place(") == 2 and body.count("G.transfer(") == 1  # each as a way out
    assert ".u_marks.counts[" in body
