"""What many tests share, as plain functions (tests/conftest.py puts this
folder on the path, so any test imports it as `helpers`; the fixtures built
on these are in tests/conftest.py and a folder's own conftest.py):

- where the repository and its rulesets are;
- `rulebook` run in-process (`cli`) or in a process of its own;
- a ruleset folder copied, edited or written from texts (a shipped
  ruleset's copy; the tutorial race's data with rules of a test's own), and
  a program loaded from one;
- a game played to its end by given, first-option or random agents;
- diagnostics read from `validate --format json`, and the line and column
  of a text in a file, computed from the text itself;
- the small games several files write as text (a game of hidden hands, a
  one-phase probe, a cup of dice), built byte for byte as they wrote them.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from click.testing import CliRunner

from interpreter.cli.main import main
from interpreter.run.agents import FirstAgent, RandomAgent
from interpreter.run.engine import Game, load_program
from interpreter.run.savegame import Step
from interpreter.support.diagnostics import CODES

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
GOLDEN = ROOT / "tests" / "golden"
RACE = RULES / "tutorial_race"
SMILE = RULES / "smile_and_gun"


# ------------------------------------------------------------ rulebook
def cli(*args, **kw):
    """`rulebook ARGS` in-process: the click result (output, exit code).
    Keywords go to CliRunner.invoke (input=, env=, catch_exceptions=)."""
    return CliRunner().invoke(main, [str(a) for a in args], **kw)


def cli_raising(*args, **kw):
    """cli(), letting an exception inside the command reach the test."""
    return cli(*args, catch_exceptions=False, **kw)


def clean(result):
    """The command ended without a traceback, an INTERNAL error or an
    exception other than the command's own exit."""
    out = result.output
    assert "Traceback" not in out and "INTERNAL" not in out, out[:3000]
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)


def cli_clean(*args, **kw):
    """cli(), which must end clean()."""
    r = cli(*args, **kw)
    clean(r)
    return r


def rulebook_process(*args, timeout=300, **kw) -> subprocess.CompletedProcess:
    """`python -m interpreter ARGS` in a process of its own, its output
    captured as text. Keywords go to subprocess.run (cwd=, env=, input=)."""
    return subprocess.run([sys.executable, "-m", "interpreter", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, **kw)


# ------------------------------------------------------------ ruleset folders
def copy_ruleset(source, dest: Path, *leave_out: str) -> Path:
    """A copy of a ruleset folder (a name under rules/, or a path) at dest,
    without the entries matching the patterns in leave_out: dest."""
    src = source if isinstance(source, Path) else RULES / source
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(*leave_out) if leave_out else None)
    return dest


def edit(path: Path, old: str, new: str, count: int = 1) -> str:
    """Replace `old`, which the file must hold, by `new` (the first `count`
    times; -1: every time): the new text."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is not in {path.name}"
    text = text.replace(old, new, count)
    path.write_text(text, encoding="utf-8")
    return text


def inject(folder: Path, name: str, old: str, new: str) -> str:
    """Replace the single occurrence of `old` in folder/name; return the new text."""
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} should occur once in {name}"
    text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return text


def write_files(folder: Path, files: dict[str, str]) -> Path:
    """The folder (made if need be) with one file per name: text (a name may
    hold folders, made too): the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def race_with_rules(folder: Path, rules: str, game_extra: str = "",
                    game_edits: dict[str, str] | None = None,
                    files: dict[str, str] | None = None) -> Path:
    """A two-seat game in `folder`: the tutorial race's YAML files, with
    `rules` (dedented) as race.rules, its only rule file; game.yaml with each
    `old: new` of game_edits replaced and game_extra added at its end; and
    `files` written beside them. The folder."""
    folder.mkdir(parents=True)
    for f in RACE.iterdir():
        if f.is_file() and f.suffix == ".yaml":
            shutil.copy(f, folder)
    game = folder / "game.yaml"
    text = game.read_text()
    for old, new in (game_edits or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    game.write_text(text + game_extra)
    write_files(folder, files or {})
    (folder / "race.rules").write_text(textwrap.dedent(rules))
    return folder


# ------------------------------------------------------------ programs and games
def compiled(folder, **kw):
    """load_program(folder, **kw), which must compile: the program."""
    prog, diags = load_program(folder, **kw)
    assert prog is not None, [d.short() for d in diags]
    return prog


def load_errors(folder, **kw) -> list:
    """The errors load_program(folder, **kw) finds (Diagnostic objects)."""
    _, diags = load_program(folder, **kw)
    return [d for d in diags if d.severity == "error"]


def first_agents(n: int = 2) -> list:
    """n agents that always take the first option."""
    return [FirstAgent() for _ in range(n)]


def random_agents(seed, n: int = 2) -> list:
    """n random agents, each seeded by the game's seed and its seat."""
    return [RandomAgent(f"{seed}:{i}") for i in range(n)]


def seat_agents(program, seed, seats=None) -> list:
    """For each seat (of `seats`, (id, name) pairs; the ruleset's by default)
    a random agent seeded by the game's seed and its place, or None for a
    bot the rules play."""
    return [None if sid in program.rs.bots else RandomAgent(f"{seed}:{i}")
            for i, (sid, _) in enumerate(program.rs.seats if seats is None else seats)]


def run_game(program, hooks=None, game=Game, **kw):
    """A `game` (Game or a subclass) of `program` with Game's keywords (seed,
    agents, options, players, logging, steps ...) and `hooks` watching it,
    played to its end: the game."""
    g = game(program, **kw)
    g.hooks = hooks
    return g.run()


def replay_script(game) -> list:
    """The decisions a finished game took, as a ScriptedAgent's script."""
    return [Step(p, label, name) for p, name, label in game.history]


# ------------------------------------------------------------ diagnostics
def line_col(text: str, i: int) -> tuple[int, int]:
    """1-based (line, col) of the index i in text."""
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def locate(text: str, needle: str, after: str | None = None, nth: int = 1) -> tuple[int, int]:
    """1-based (line, col) of the nth `needle` (after the first `after` if given)."""
    start = 0
    if after is not None:
        assert after in text, after
        start = text.index(after)
    i = start - 1
    for _ in range(nth):
        i = text.index(needle, i + 1)
    return line_col(text, i)


def diagnostics(*paths) -> list[dict]:
    """`rulebook validate --format json PATHS`, which must end clean(): the
    list of diagnostics."""
    return json.loads(cli_clean("validate", "--format", "json", *paths).stdout)


def validate(*paths) -> list[dict]:
    """diagnostics(), the exit code checked too (1 if any is an error, else 0)."""
    r = cli_clean("validate", "--format", "json", *paths)
    diags = json.loads(r.stdout)
    errors = [d for d in diags if d["severity"] == "error"]
    assert r.exit_code == (1 if errors else 0), r.output[:2000]
    return diags


def only(diags: list[dict], code: str, severity: str = "error") -> dict:
    """The single diagnostic with this code and severity (and, for an
    error, no other error at all)."""
    errors = [d for d in diags if d["severity"] == "error"]
    hits = [d for d in diags if d["code"] == code and d["severity"] == severity]
    assert len(hits) == 1, json.dumps(diags, indent=1)[:3000]
    if severity == "error":
        assert errors == hits, json.dumps(diags, indent=1)[:3000]
    return hits[0]


def at(d: dict, path: Path, line: int, col: int):
    """A diagnostic with a known code, at path:line:col."""
    assert d["code"] in CODES
    assert (Path(d["path"]), d["line"], d["col"]) == (path, line, col), d


# ------------------------------------------------------------ small games as text
def dice_yaml(zone: str, *items: str) -> str:
    """A components file of six-sided dice lying in `zone`, one item for each
    YAML flow mapping's inside in items ("id: d1, sides: 1")."""
    return ("kind: components\ncomponent: die\nattributes:\n  sides: {type: int, default: 6}\n"
            f"properties:\n  value: 1\nzone: {zone}\nitems:\n"
            + "".join(f"  - {{{item}}}\n" for item in items))


def hands_game(id: str, seats: tuple[str, str], table: bool = False) -> str:
    """game.yaml of a two-seat game of hidden things, named `id` (capitalised):
    a hidden deck and a face-down pile (a face-up table if asked), a cup,
    and for each seat a hand and dice only its owner sees; score by score."""
    return (f"kind: game\nid: {id}\nname: {id.capitalize()}\nplayers: 2\n"
            f"seats: [{{id: {seats[0]}}}, {{id: {seats[1]}}}]\n"
            "variables:\n  side: {score: 0}\nscore: score\nzones:\n  game:\n"
            "    deck: {type: deck, visibility: hidden}\n    pile: {visibility: hidden}\n"
            + ("    table: {}\n" if table else "") + "    cup: {}\n"
            "  side:\n    hand: {visibility: owner}\n    dice: {visibility: owner}\n")


def probe_game(game_variables: str, zones: str = "") -> str:
    """game.yaml of the two-seat probe (red and blue, a side score, a pool),
    with these lines (indented by four) under variables: game: and under
    zones: after the pool."""
    return ("kind: game\nid: probe\nname: Probe\nplayers: 2\nseats:\n  - {id: red}\n"
            f"  - {{id: blue}}\nvariables:\n  game:\n{game_variables}  side:\n    score: 0\n"
            f"score: score\nzones:\n  game:\n    pool: {{}}\n{zones}")


def probe_ruleset(folder: Path, probe: str, game: str, defs: str = "",
                  files: dict[str, str] | None = None) -> Path:
    """A ruleset in `folder` (game.yaml: game) of one round whose one phase,
    main, runs `probe` (indented by two), after the rule definitions in defs;
    `files` written beside. The folder."""
    body = "\n".join("  " + line for line in probe.splitlines())
    flow = f"game {{\n  rounds 1 {{ main }}\n}}\n\n{defs}phase main {{\n{body}\n}}\n"
    return write_files(folder, {"game.yaml": game, **(files or {}), "flow.rules": flow})


# the hands game: a hidden deck, owner-only hands and dice, a face-down pile;
# each turn a card is passed face down and one played face up
HANDS_GAME = hands_game("hands", ("north", "south"), table=True)
HANDS_CARDS = """\
kind: components
component: card
attributes:
  rank: {type: int}
zone: deck
items:
  - {id: ace, rank: 14}
  - {id: king, rank: 13}
  - {id: queen, rank: 12}
  - {id: jack, rank: 11}
  - {id: ten, rank: 10}
  - {id: nine, rank: 9}
  - {id: eight, rank: 8}
  - {id: seven, rank: 7}
  - {id: six, rank: 6}
  - {id: five, rank: 5}
  - {id: four, rank: 4}
  - {id: three, rank: 3}
"""
HANDS_DICE = dice_yaml("cup", "id: dn1", "id: dn2", "id: ds1", "id: ds2")
HANDS_RULES = """\
game {
  setup {
    shuffle deck
    for p in players { draw 3 from deck to p.hand }
    move [component("dn1"), component("dn2")] to north.dice
    move [component("ds1"), component("ds2")] to south.dice
  }
  rounds 2 { play }
}

phase play {
  for p in players {
    turn p {
      roll p.dice
      choose p as pass "pass a card face down" {
        option "{c}" for c in p.hand { move c to pile }
      }
      choose p as show "play a card face up" {
        option "{c}" for c in p.hand {
          move c to table
          p.score += c.rank
        }
      }
      log "{p} keeps {p.hand.top} in hand"
      move sort_by(p.hand.items, c => c.rank) to pile
      draw 2 from deck to p.hand
    }
  }
}
"""
HANDS_FILES = {"game.yaml": HANDS_GAME, "cards.yaml": HANDS_CARDS, "dice.yaml": HANDS_DICE,
               "hands.rules": HANDS_RULES}
