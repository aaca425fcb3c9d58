"""`rulebook docs` (being written)."""
from __future__ import annotations

import click


@click.command("docs")
@click.argument("path")
def command(path):
    """(not yet written)"""
    raise click.UsageError("rulebook docs is not written yet")
