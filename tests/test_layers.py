"""The engine's packages are floors of one pipeline (interpreter/README.md):
a module imports its own package and those below it, never one above, so
that the stages can be read, and changed, from the ground up."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"
# the ground floor first
FLOORS = ["support", "language", "load", "model", "compile", "run", "designer", "cli"]


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
