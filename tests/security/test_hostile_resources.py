"""Hostile rule files that try to use up time or memory (issue 30, "Time
and memory"): each runs `rulebook` in a subprocess under a memory limit and
a timeout, and must end with a located RUNTIME diagnostic (or a located
validate error), exit 1, never INTERNAL, a traceback or a kill by the OS.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
from pathlib import Path

from helpers import probe_game, probe_ruleset, rulebook_process

MEMORY = 1_500_000_000  # bytes of address space for the run
GIGABYTE = 1_000_000_000
TIMEOUT = 100  # seconds: the engine's own backstop is 60

GAME_YAML = probe_game("    keep: null\n")


def make(tmp_path: Path, probe: str, game: str = GAME_YAML) -> Path:
    return probe_ruleset(tmp_path / "probe", probe, game)


def _limited():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def rulebook(*args) -> subprocess.CompletedProcess:
    return rulebook_process(*args, timeout=TIMEOUT, preexec_fn=_limited)


def stopped(result, folder: Path, needle: str) -> str:
    """The run ended with exit 1 and one RUNTIME diagnostic located in the
    rule file; `needle` is in its message."""
    out = result.stdout + result.stderr
    assert result.returncode == 1, (result.returncode, out[-2000:])
    assert "INTERNAL" not in out and "Traceback" not in out, out[-2000:]
    line = next(x for x in out.splitlines() if " RUNTIME " in x)
    assert line.startswith(str(folder / "flow.rules") + ":"), line
    assert needle in line, line
    return line


# three levels of lists, each made from one list repeated: cheap to build,
# 2.7x10^10 item comparisons to compare whole
DEEP = """\
let a = [0 for i in range(3000)]
let b = [0 for i in range(3000)]
let aa = [a for i in range(3000)]
let bb = [b for i in range(3000)]
let x = [aa for i in range(3000)]
let y = [bb for i in range(3000)]
"""


def test_comparing_deep_lists_is_paid_for_item_by_item(tmp_path):
    folder = make(tmp_path, DEEP + "keep = ident(x) == ident(y)\n"
                  "}\ndef ident(v) { return v }\nphase unused {")
    stopped(rulebook("play", folder, "--seed", "1", "--quiet"), folder, "steps")


def test_in_sort_and_max_of_deep_lists_are_paid_for(tmp_path):
    for i, probe in enumerate(["keep = ident(x) in [ident(y)]",
                               "keep = sort([ident(x), ident(y)])",
                               "keep = max(ident(x), ident(y))"]):
        folder = make(tmp_path / str(i), DEEP + probe +
                      "\n}\ndef ident(v) { return v }\nphase unused {")
        stopped(rulebook("play", folder, "--seed", "1", "--quiet"), folder, "steps")


LONG_TEXT = """\
let t = "x"
for i in range(16) { t = "{t}{t}" }
"""


def test_showing_a_list_of_long_texts_stops_at_the_cut(tmp_path):
    # 40,000 texts of 65,536 characters: joined whole, 2.6 GB before the cut
    folder = make(tmp_path, LONG_TEXT + "let xs = [t for i in range(40000)]\n"
                  'log "{xs}"\nlog "{xs}"\nlet z = [1 for i in range(20000000)]')
    result = rulebook("play", folder, "--seed", "1", "--quiet")
    stopped(result, folder, "100,000")  # range() past the list limit, after the logs


def test_long_log_lines_are_cut_and_the_log_has_a_size(tmp_path):
    folder = make(tmp_path, LONG_TEXT + 'for i in range(10000) { log "{t}{t}{t}" }')
    line = stopped(rulebook("play", folder, "--seed", "1"), folder, "characters")
    assert "the log passed" in line
    # and a line of three long texts is cut, not kept whole
    folder = make(tmp_path / "one", LONG_TEXT + 'log "{t}{t}{t}"')
    result = rulebook("play", folder, "--seed", "1", "--format", "jsonl")
    assert result.returncode == 0, result.stdout + result.stderr
    texts = [json.loads(x).get("text", "") for x in result.stdout.splitlines()]
    assert max(map(len, texts)) == 100_003, [len(x) for x in texts]  # cut, and '...'


def test_names_ending_in_a_newline_are_refused_at_validate(tmp_path):
    game = GAME_YAML.replace('    score: 0\n', '    score: 0\n    "score\\n": 0\n')
    game = game.replace("    pool: {}\n", '    pool: {}\n    "pool\\n": {}\n')
    folder = make(tmp_path, 'log "hi"', game)
    result = rulebook("validate", "--format", "json", folder)
    assert result.returncode == 1, result.stdout + result.stderr
    found = json.loads(result.stdout)
    assert len(found) == 2, found
    for d in found:
        assert d["path"] == str(folder / "game.yaml") and d["line"] > 0, d
        assert "is not a name" in d["message"], d
    result = rulebook("play", folder, "--seed", "1", "--quiet")
    assert result.returncode == 1 and "INTERNAL" not in result.stdout + result.stderr


# 50,000 components (the limit), with four piece kinds the rules place on
# them: every component gets a row of each. The new-game code once held a
# line per value and took 85 s and 3.9 GB to compile; built by loops it
# costs what the rows cost.
ROWS_GAME = GAME_YAML + """\
pieces:
  a: {supply: {red: 5}}
  b: {supply: {red: 5}}
  c: {supply: {red: 5}}
  d: {supply: {red: 5}}
"""


def test_fifty_thousand_components_with_piece_rows_load_within_a_gigabyte(tmp_path):
    folder = make(tmp_path, "for p in players {\n" + "".join(
        f'  place 1 {k} of p at component("k0-1")\n' for k in "abcd") + "}")
    items = "".join(f"  - {{id: k{i}, count: 10000}}\n" for i in range(5))
    (folder / "tokens.yaml").write_text("kind: components\ncomponent: token\nzone: pool\n"
                                        "items:\n" + items, encoding="utf-8")
    (folder / "game.yaml").write_text(ROWS_GAME, encoding="utf-8")
    r = rulebook_process("play", folder, "--seed", "1", "--quiet", timeout=TIMEOUT,
                         env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS,
                                                               (GIGABYTE, GIGABYTE)))
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-2000:]
    assert "INTERNAL" not in out and "Traceback" not in out
