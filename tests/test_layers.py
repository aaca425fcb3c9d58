"""The engine's packages are floors of one pipeline (interpreter/README.md):
a module imports its own package and those below it, never one above, so
that the stages can be read, and changed, from the ground up."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"
# the ground floor first
FLOORS = ["support", "language", "load", "model", "compile", "run", "search", "bridges", "designer",
          "serve", "cli"]


def imports(path: Path) -> list[tuple[str, int]]:
    """The engine packages a module imports (anywhere in it), with the line."""
    here = path.relative_to(PACKAGE).parts
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = list(here[:-1])[: len(here) - node.level]  # the package `.`s lead to
            target = base + (node.module.split(".") if node.module else [])
            if not target and node.module is None:  # `from .. import x`: x is the package
                target = [a.name for a in node.names]
            out += [(t, node.lineno) for t in target[:1]]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            out += [(n.split(".")[1], node.lineno) for n in names
                    if n and n.startswith("interpreter.") and len(n.split(".")) > 1]
    return out


def test_every_package_has_a_floor_and_a_paragraph():
    found = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert found == sorted(FLOORS)
    readme = (PACKAGE / "README.md").read_text(encoding="utf-8")
    for name in FLOORS:
        assert f"`{name}/`" in readme, f"interpreter/README.md says nothing of {name}/"


def test_no_module_imports_a_package_above_its_own():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if len(rel.parts) < 2:
            continue  # the package's own face (__init__, __main__) stands above all
        floor = FLOORS.index(rel.parts[0])
        for target, line in imports(path):
            if target in FLOORS and FLOORS.index(target) > floor:
                wrong.append(f"interpreter/{rel}:{line}: {rel.parts[0]}/ imports {target}/")
    assert wrong == []


def test_the_check_finds_an_import_from_above(tmp_path, monkeypatch):
    """The test above can fail: a module of run/ that imports cli/ is named."""
    fake = tmp_path / "interpreter"
    (fake / "run").mkdir(parents=True)
    (fake / "run" / "x.py").write_text("def f():\n    from ..cli.main import main\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", fake)
    assert imports(fake / "run" / "x.py") == [("cli", 2)]


# the compiler's checker: every diagnostic the compiler makes is made there
CHECKER = {"checker.py", "typecheck.py"}
# ways to report: a method of the checker, or a Diagnostic made in place
REPORTS = ("err", "undef", "no_attr")


def reports(path: Path) -> list[int]:
    """Lines of `path` that make a diagnostic themselves."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id == "Diagnostic" or \
                isinstance(f, ast.Attribute) and f.attr in REPORTS and \
                isinstance(f.value, ast.Name) and f.value.id == "self":
            out.append(node.lineno)
    return out


def test_only_the_checker_reports():
    wrong = [f"interpreter/compile/{p.name}:{line}" for p in sorted((PACKAGE / "compile").glob("*.py"))
             if p.name not in CHECKER for line in reports(p)]
    assert wrong == []


def test_the_report_check_finds_one(tmp_path):
    p = tmp_path / "x.py"
    p.write_text("class X:\n    def f(self):\n        self.err(1, 'TYPE', 'no')\n"
                 "        return Diagnostic('a', 1, 1, 'TYPE', 'no')\n")
    assert reports(p) == [3, 4]


# the sizes a newcomer can read: a module, a class
MAX_MODULE_LINES = 800
MAX_CLASS_LINES = 500


def too_big(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    out = []
    lines = text.count("\n")
    if lines > MAX_MODULE_LINES:
        out.append(f"{path.name}: {lines} lines")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno > MAX_CLASS_LINES:
            out.append(f"{path.name}: class {node.name} of {node.end_lineno - node.lineno} lines")
    return out


def test_no_module_or_class_too_big():
    wrong = [w for p in sorted(PACKAGE.rglob("*.py")) for w in too_big(p)]
    assert wrong == []


def test_the_size_check_finds_one(tmp_path):
    p = tmp_path / "big.py"
    p.write_text("class Big:\n" + "    x = 1\n" * (MAX_CLASS_LINES + 1))
    assert too_big(p) == [f"big.py: class Big of {MAX_CLASS_LINES + 1} lines"]
