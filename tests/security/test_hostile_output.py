"""What a ruleset writes reaches people's terminals and logs as text only:
piece names are never a Python format string (issue 30, item 18), control
characters never reach a terminal raw (item 17), and a log text never draws
from the game's generator, so a game plays the same logged or quiet (item 16)."""
import pytest
from helpers import compiled, first_agents, load_errors, rulebook_process, run_game

# (make_ruleset, the factory of small games with rules of their own, is a
# fixture of tests/conftest.py)


def play(folder, logging=True, seed=1):
    return run_game(compiled(folder), agents=first_agents(), logging=logging, seed=seed)


PLACES = """
game { rounds 1 { race } }
phase race {
  place 1 flag of red at space("s1")
  place 3 flag of red at space("s2")
  transfer 1 flag of red from space("s2") to space("s3")
}
"""


def test_piece_names_are_never_a_format_string(make_ruleset):
    pieces = ('pieces:\n  flag: {supply: 5, name: "{0.__class__.__base__}", '
              'plural: "{0:>5000000} {1}"}\n')
    lines = [e["text"] for e in play(make_ruleset(PLACES, pieces)).log]
    assert "red places a {0.__class__.__base__} at s1" in lines
    assert "red places 3 {0:>5000000} {1} at s2" in lines
    assert "red moves a {0.__class__.__base__} from s2 to s3" in lines
    assert all(len(t) < 200 and "object" not in t for t in lines)


DRAWING = """
game { rounds 1 { race } }
phase race {
  LINE
}
def pick() { return random(players) }
def indirect() { return pick() }
"""


@pytest.mark.parametrize("line,what", [
    ('log "{random(players)}"', "calls random()"),
    ('log "{shuffled(players)}"', "calls shuffled()"),
    ('log "{indirect()}"', "calls indirect()"),
    ('place 1 flag of red at space("s1") log n => "{random(players)} {n}"', "calls random()"),
])
def test_a_log_text_may_not_draw_from_the_games_generator(make_ruleset, line, what):
    """Log texts are made only when a log is kept: a draw there would make the
    same seed play differently logged and quiet, and saves fail to replay."""
    folder = make_ruleset(DRAWING.replace("LINE", line), "pieces:\n  flag: {supply: 5}\n")
    bad = load_errors(folder)
    assert bad and bad[0].code == "TYPE", [d.short() for d in bad]
    assert what in bad[0].message and "random generator" in bad[0].message
    assert bad[0].path.endswith("race.rules") and bad[0].line == 4


def test_a_function_that_draws_may_still_be_called_outside_log_texts(make_ruleset):
    folder = make_ruleset(DRAWING.replace("LINE", 'let p = indirect()\n  log "{p}"'))
    assert play(folder).finished


# a line erased, the cursor moved up, the clipboard written (OSC 52), an 8-bit CSI
CONTROLS = "\x1b[2K\x1b[1A \x1b]52;c;aGVsbG8=\x1b\\ \u009b2J \u2028"
CONTROL_RULES = f"""
game {{ rounds 1 {{ race }} }}
phase race {{
  log "evil {CONTROLS}"
  choose red as pick "pick {CONTROLS}" {{
    option "a{CONTROLS}" {{ }}
    option "c" {{ }}
  }}
  log "{{nope().name}} {CONTROLS}" to red
}}
def nope() {{ return none }}
"""


def _rulebook(*args, stdin="", color=False):
    import os
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    if color:
        env["FORCE_COLOR"] = "1"  # rich writes its own colour codes: those must stay
    return rulebook_process(*args, input=stdin, timeout=120, env=env)


@pytest.mark.parametrize("color", [False, True])
def test_control_characters_in_rule_texts_never_reach_the_terminal(make_ruleset, color):
    folder = make_ruleset(CONTROL_RULES)
    for args, stdin in ((["play", str(folder), "--seed", "1"], ""),
                        (["play", str(folder), "--seed", "1", "--agents", "human,random"], "1\n"),
                        (["validate", str(folder)], "")):
        r = _rulebook(*args, stdin=stdin, color=color)
        out = r.stdout + r.stderr
        assert "Traceback" not in out and "INTERNAL" not in out
        for raw in ("\x1b[2K", "\x1b[1A", "\x1b]52", "\u009b", "\u2028"):
            assert raw not in out, (args, out)
        if "play" in args:
            assert "evil \\x1b[2K\\x1b[1A" in out  # shown, escaped
        if color and "play" in args:
            assert "\x1b[" in out  # (rich's own colours still work)
    r = _rulebook("play", str(folder), "--seed", "1", "--agents", "human,random", stdin="1\n")
    assert "pick \\x1b[2K" in r.stdout and "a\\x1b[2K" in r.stdout  # the prompt and label
