"""`rulebook new`: start a new ruleset from a template."""
from __future__ import annotations

import shlex
from pathlib import Path

import click

from ..designer.scaffold import scaffold
from ..support.terminal import echo


@click.command("new")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--name", help="The game's title (default: made from the folder's name).")
def command(folder: str, name: str | None) -> None:
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
