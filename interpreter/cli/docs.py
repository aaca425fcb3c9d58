"""`rulebook docs`: a readable rules reference made from a ruleset alone."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from ..designer.refdocs import reference
from ..support.terminal import echo


@click.command("docs")
@click.argument("path")
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md",
              show_default=True, help="GitHub Markdown, or one self-contained HTML page.")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False),
              help="Write the reference to this file instead of the screen.")
@click.option("--variant", help="Describe the game with this variant (a folder under variants/).")
@click.option("--option", "opts", multiple=True,
              help="KEY=VALUE option (selects a variant's overlays).")
def command(path: str, fmt: str, out: str | None, variant: str | None,
            opts: tuple[str, ...]) -> None:
    """Write a readable rules reference made from the ruleset alone."""
    from ..designer.commands import parse_options, program_or_exit

    options = parse_options(opts)
    program_or_exit(path, "text", variant, options)  # exits with the located problems
    text = reference(path, variant, options, fmt)
    if out:
        try:
            Path(out).write_text(text, encoding="utf-8")
        except OSError as e:
            echo(f"{out}: cannot write: {e.strerror or e}", err=True)
            sys.exit(1)
        echo(f"wrote {out}", err=True)
    else:
        echo(text, nl=False)
