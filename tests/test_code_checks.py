"""The engine's own code passes ruff and mypy at the levels pyproject.toml
sets (ruff: unused imports, undefined names, redefinitions, syntax errors;
mypy: every function body checked), so CI runs them with every test run;
and every public function of the annotated packages says the types of its
parameters and of what it returns."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Where every public function and method (a name without a leading `_`) is
# annotated: each package of interpreter/, with the modules in it that are
# not (none today; a package added to interpreter/ is added here).
ANNOTATED = {package: () for package in
             ("support", "language", "load", "model", "compile", "run", "designer", "cli")}


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


def mypy(cache, cwd=ROOT):
    """mypy as pyproject.toml configures it (its files, its level), with a
    cache of its own: nothing is read from or written to the checkout's."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[dev]')")
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache)],
                          cwd=cwd, capture_output=True, text=True)


def test_the_code_passes_mypy(tmp_path):
    r = mypy(tmp_path / "cache")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_finds_a_type_error(tmp_path):
    """The check can fail: a function that returns text where it says a
    number is found."""
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "interpreter").mkdir()
    (tmp_path / "interpreter" / "__init__.py").write_text("")
    (tmp_path / "interpreter" / "x.py").write_text("def f() -> int:\n    return 'text'\n")
    r = mypy(tmp_path / "cache", cwd=tmp_path)
    assert r.returncode == 1 and "[return-value]" in r.stdout, r.stdout + r.stderr


def unannotated(path: Path) -> list[str]:
    """`path:line: name` of each public function of a module (methods of
    its public classes too) that leaves a parameter (but self or cls) or
    its return without an annotation."""
    out = []

    def walk(body, prefix="", in_class=False):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.name.startswith("_"):
                    continue
                a = node.args
                params = a.posonlyargs + a.args
                static = any(isinstance(d, ast.Name) and d.id == "staticmethod"
                             for d in node.decorator_list)
                if in_class and not static and params and params[0].arg in ("self", "cls"):
                    params = params[1:]
                params = params + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p]
                missing = [p.arg for p in params if p.annotation is None]
                missing += ["return"] if node.returns is None else []
                if missing:
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno}: {prefix}{node.name} "
                               f"({', '.join(missing)})")
            elif isinstance(node, ast.ClassDef):
                if not node.name.startswith("_"):
                    walk(node.body, f"{prefix}{node.name}.", True)
            elif isinstance(node, (ast.If, ast.Try, ast.With)):  # (not into functions)
                for part in ("body", "orelse", "finalbody"):
                    walk(getattr(node, part, []), prefix, in_class)
                for handler in getattr(node, "handlers", []):
                    walk(handler.body, prefix, in_class)

    walk(ast.parse(path.read_text(encoding="utf-8")).body)
    return out


def test_public_functions_are_annotated():
    missing = []
    for package, not_yet in ANNOTATED.items():
        for path in sorted((ROOT / "interpreter" / package).glob("*.py")):
            if path.name not in not_yet:
                missing += unannotated(path)
    assert missing == []


def test_the_annotation_check_finds_what_is_missing(tmp_path, monkeypatch):
    """The check can fail: an unannotated parameter, return or method of a
    public class is named; private names, self and cls are not."""
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    f = tmp_path / "x.py"
    f.write_text("def f(a, b: int) -> int: ...\n"
                 "def g(*args: int, **kw: str): ...\n"
                 "def _private(a): ...\n"
                 "class C:\n"
                 "    def m(self, x: int) -> None: ...\n"
                 "    @classmethod\n"
                 "    def k(cls, y) -> None: ...\n"
                 "    @staticmethod\n"
                 "    def s(self: int) -> None: ...\n"
                 "    def __init__(self, z): ...\n"
                 "class _Hidden:\n"
                 "    def m(self, x): ...\n")
    assert unannotated(f) == ["x.py:1: f (a)", "x.py:2: g (return)", "x.py:7: C.k (y)"]
