"""The engine's own code passes ruff at the level pyproject.toml sets
(unused imports, undefined names, redefinitions, syntax errors), so CI
runs it with every test run."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *args],
                          cwd=cwd, capture_output=True, text=True)


def test_the_code_passes_ruff():
    r = ruff()
    assert r.returncode == 0, r.stdout + r.stderr


def test_ruff_finds_an_undefined_name(tmp_path):
    """The check can fail: a name used and never defined is found."""
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "interpreter").mkdir()
    (tmp_path / "interpreter" / "x.py").write_text("def f():\n    return undefined_name\n")
    r = ruff(cwd=tmp_path)
    assert r.returncode == 1 and "F821" in r.stdout, r.stdout
