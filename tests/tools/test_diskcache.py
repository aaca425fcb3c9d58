"""The on-disk cache of parsed files: a second run reads what the first
wrote and gets the same results; a damaged entry, or a folder others may
write to, is never trusted."""
import os
import subprocess
import sys
from pathlib import Path

from helpers import RACE, ROOT, copy_ruleset, rulebook_process


def play(cache: Path, *extra_env):
    """One game in a fresh process whose cache folder is under `cache`."""
    env = {k: v for k, v in os.environ.items() if k != "RULEBOOK_NO_CACHE"}
    env.update(XDG_CACHE_HOME=str(cache), **dict(extra_env))
    r = rulebook_process("play", RACE, "--seed", "3", "--json", "--quiet", env=env, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return r.stdout


def entries(cache: Path):
    folder = cache / "rulebook"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_a_second_run_reads_the_cache_and_plays_the_same(tmp_path):
    first = play(tmp_path)
    kept = entries(tmp_path)
    assert any(n.startswith("yaml-") for n in kept) and any(n.startswith("rules-") for n in kept)
    assert any(n.startswith("code-") for n in kept) and any(n.startswith("grammar-") for n in kept)
    assert oct((tmp_path / "rulebook").stat().st_mode & 0o777) == "0o700"
    assert play(tmp_path) == first
    assert entries(tmp_path) == kept  # nothing new: every file was read from the cache


def test_damaged_entries_are_read_afresh(tmp_path):
    first = play(tmp_path)
    for p in (tmp_path / "rulebook").iterdir():
        p.write_bytes(b"not a pickle")
    assert play(tmp_path) == first


def test_a_folder_others_may_write_to_is_not_used(tmp_path):
    folder = tmp_path / "rulebook"
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)
    first = play(tmp_path)
    assert entries(tmp_path) == []
    assert play(tmp_path, ("RULEBOOK_NO_CACHE", "1")) == first


def test_the_folder_is_pruned_to_the_newest_entries(tmp_path):
    from interpreter.support import diskcache
    for i in range(40):
        p = tmp_path / f"rules-{i:02d}.pickle"
        p.write_bytes(b"x" * 10)
        os.utime(p, (1000 + i, 1000 + i))
    diskcache.prune(tmp_path, 20, 10**6)  # too many: down to 15, the newest
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"rules-{i:02d}.pickle"
                                                           for i in range(25, 40)]
    diskcache.prune(tmp_path, 20, 10**6)  # within the bounds: nothing more goes
    assert len(list(tmp_path.iterdir())) == 15
    diskcache.prune(tmp_path, 20, 100)  # too large (150 bytes): down to 75 bytes
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"rules-{i:02d}.pickle"
                                                           for i in range(33, 40)]


def run_py(cache: Path, code: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "RULEBOOK_NO_CACHE"}
    env.update(XDG_CACHE_HOME=str(cache))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


WARM = """
import sys
from interpreter.run.agents import RandomAgent
from interpreter.run.engine import Game, load_program, validate_ruleset
print(len(validate_ruleset({path!r})))
program, diags = load_program({path!r})
Game(program, seed=1, agents=[RandomAgent(1), RandomAgent(2)]).run()
print(sorted({{m.split(".")[0] for m in sys.modules}} & {{"lark", "jsonschema", "referencing"}}),
      "interpreter.language.grammar" in sys.modules)
"""


def test_a_warm_run_needs_neither_the_parser_nor_the_schema_checker(tmp_path):
    code = WARM.format(path=str(RACE))
    assert run_py(tmp_path, code).split("\n")[1] == "['jsonschema', 'lark', 'referencing'] True"
    assert run_py(tmp_path, code).split("\n")[1] == "[] False"


def test_a_changed_file_is_validated_afresh(tmp_path):
    rules = copy_ruleset("tutorial_race", tmp_path / "race")
    code = f"from interpreter.run.engine import validate_ruleset\n" \
           f"print([d.code for d in validate_ruleset({str(rules)!r})])"
    assert run_py(tmp_path, code).strip() == "[]"
    assert run_py(tmp_path, code).strip() == "[]"  # from the cache
    flow = next(rules.glob("*.rules"))
    flow.write_text(flow.read_text() + "\nphase nowhere { let x = undefined_name }\n")
    assert "REF-UNDEF" in run_py(tmp_path, code)
