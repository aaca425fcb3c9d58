"""`rulebook new NAME`: a small, valid ruleset to start from.

The files come from the package's `templates/new/` folder (package data,
read through importlib.resources), with the ruleset's id and title filled
in. The game is complete and plays; its one scenario passes; everything
in it is meant to be edited.
"""
from __future__ import annotations

import json
import re
import shlex
from importlib import resources
from pathlib import Path

import click

from ..support.terminal import echo


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


@click.command("new")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--name", help="The game's title (default: made from the folder's name).")
def command(folder, name):
    """Start a new ruleset in FOLDER: a small card game that validates, plays
    and passes its one scenario, ready to be changed into yours."""
    path = Path(folder)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise click.UsageError(f"{folder}: already exists and is not an empty folder "
                               "(choose a new name)")
    if name is not None and ("\n" in name or not name.strip()):
        raise click.UsageError("--name: give a title on one line")
    try:
        written = scaffold(path, name)
    except OSError as e:
        raise click.UsageError(f"{folder}: {e.strerror or e}") from None
    echo(f"made {folder}/ ({len(written)} files): {', '.join(sorted(str(w.relative_to(path)) for w in written))}")
    echo("next:")
    q = shlex.quote(folder)
    for line in (f"rulebook validate {q}", f"rulebook play {q} --seed 1",
                 f"rulebook play {q} --agents human,random",
                 f"python -m pytest {q}    # runs its scenarios"):
        echo(f"  {line}")
