"""The files the engine reads at run time, found through importlib.resources.

They travel inside the installed package, so a wheel installed anywhere
(a fresh virtualenv, a CI image, a requirements file) has them:

  language/rules.lark       the rule language's grammar (package data)
  interpreter.schema_files  the JSON Schemas; the package is built from the
                            top-level `schemas/` folder, which stays the
                            one source (pyproject.toml maps it)

Running from a checkout that was never installed, the schemas are read
from that checkout's `schemas/` folder instead.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


def grammar_text() -> str:
    return resources.files("interpreter.language").joinpath("rules.lark").read_text(
        encoding="utf-8")


@lru_cache(maxsize=1)
def _schema_root() -> Traversable:
    try:
        root = resources.files("interpreter.schema_files")
        if root.joinpath("game.schema.json").is_file():
            return root
    except ModuleNotFoundError:
        pass
    return Path(__file__).resolve().parents[2] / "schemas"  # an uninstalled checkout


def schema_names() -> list[str]:
    """The schema files' names (`game.schema.json`, ...), sorted."""
    return sorted(f.name for f in _schema_root().iterdir() if f.name.endswith(".schema.json"))


def schema_text(file_name: str) -> str:
    """One schema file's text, by its name (`game.schema.json`)."""
    return _schema_root().joinpath(file_name).read_text(encoding="utf-8")


def engine_files() -> list[tuple[str, bytes]]:
    """Every file whose content decides how rules are read, checked and
    compiled (the engine's modules, its grammar, its schemas), for the disk
    cache's version key."""
    out: list[tuple[str, bytes]] = []

    # the sub-packages too, each file by its path in the package
    def walk(folder: Traversable, prefix: str) -> None:
        for f in sorted(folder.iterdir(), key=lambda f: f.name):
            if f.is_dir() and f.name != "__pycache__":
                walk(f, f"{prefix}{f.name}/")
            elif f.name.endswith((".py", ".lark")):
                out.append((prefix + f.name, f.read_bytes()))
    walk(resources.files("interpreter"), "")
    out += [(n, schema_text(n).encode()) for n in schema_names()]
    return out
