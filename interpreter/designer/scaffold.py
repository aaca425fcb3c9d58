"""`rulebook new NAME`: a small, valid ruleset to start from.

The files come from the package's `templates/new/` folder (package data,
read through importlib.resources), with the ruleset's id and title filled
in. The game is complete and plays; its one scenario passes; everything
in it is meant to be edited.
"""
from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path




def ruleset_id(folder_name: str) -> str:
    """A ruleset id from a folder's name: lower case, `_` for anything an
    id may not hold, a letter first."""
    text = re.sub(r"[^a-z0-9_]+", "_", folder_name.lower()).strip("_")
    if not text or not text[0].isalpha():
        text = "game_" + text if text else "my_game"
    return text


def title(ident: str) -> str:
    return " ".join(w.capitalize() for w in ident.split("_") if w) or "My Game"


def _files(node, rel=""):
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if child.is_dir():
            yield from _files(child, f"{rel}{child.name}/")
        elif not child.name.startswith("."):
            yield f"{rel}{child.name}", child.read_text(encoding="utf-8")


def scaffold(folder: Path, name: str | None = None) -> list[Path]:
    """Write the template into `folder` (which must not exist, or be empty):
    the files written."""
    ident = ruleset_id(folder.name)
    shown = name or title(ident)
    written = []
    folder.mkdir(parents=True, exist_ok=True)
    for rel, text in _files(resources.files("interpreter").joinpath("templates", "new")):
        text = (text.replace("{{id}}", ident).replace("{{name_yaml}}", json.dumps(shown))
                .replace("{{name}}", shown))
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written
