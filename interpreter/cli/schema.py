"""`rulebook schema`: the JSON Schema of a kind of file."""
from __future__ import annotations

import json

import click

from ..support.terminal import echo


@click.command("schema")
@click.argument("kind", type=click.Choice(["game", "components", "board", "tables", "variant",
                                          "overlay", "scenario", "save", "log"]))
def command(kind: str) -> None:
    """Print the JSON Schema of a KIND of file, self-contained, for an editor
    (`log`: one line of a JSON-lines game log).

    Save it next to your files and connect each YAML file to it with a first
    line such as `# yaml-language-server: $schema=game.schema.json`."""
    from ..load.schemas import bundled

    echo(json.dumps(bundled(kind), indent=2, ensure_ascii=False))
