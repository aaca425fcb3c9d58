"""`rulebook validate`: check rulesets and scenarios."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from ..load.yamlio import is_file
from ..run.engine import validate_ruleset
from ..support.diagnostics import Diagnostic, render
from ..support.terminal import echo


@click.command("validate")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--warnings/--no-warnings", default=True, help="Also show warnings.")
def command(paths: tuple[str, ...], fmt: str, warnings: bool) -> None:
    """Check rulesets (folders) and scenarios (.yaml files)."""
    from ..designer.scenario import validate_scenario

    diags: list[Diagnostic] = []
    for path in paths:
        p = Path(path)
        if is_file(p) and p.suffix in (".yaml", ".yml"):
            diags.extend(validate_scenario(p))
        else:
            diags.extend(validate_ruleset(p))
    shown = [d for d in diags if warnings or d.severity == "error"]
    errors = [d for d in diags if d.severity == "error"]
    if fmt == "json":
        echo(render(shown, "json"))
    elif shown:
        echo(render(shown), err=True)  # diagnostics: stderr; the count: stdout
    if fmt == "text":
        echo(f"{len(errors)} error(s), {len(diags) - len(errors)} warning(s) in "
             f"{len(paths)} path(s)")
    sys.exit(1 if errors else 0)
