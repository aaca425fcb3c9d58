"""`rulebook coverage` (being written)."""
from __future__ import annotations

import click


@click.command("coverage")
@click.argument("path")
def command(path):
    """(not yet written)"""
    raise click.UsageError("rulebook coverage is not written yet")
