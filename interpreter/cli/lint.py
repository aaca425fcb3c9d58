"""`rulebook lint`: find what is probably a mistake in a ruleset."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..designer.lint import lint_ruleset, sarif
from ..designer.lintcheck import LINT_CODES
from ..support.diagnostics import Diagnostic
from ..support.terminal import echo


@click.command("lint")
@click.argument("path", required=False)
@click.option("--format", "fmt", type=click.Choice(["full", "concise", "json", "sarif"]),
              default="full", show_default=True,
              help="full: with the source line and a caret; concise: one line each; json; "
              "sarif (for editors and code scanning).")
@click.option("--show-allowed", is_flag=True,
              help="Also list the findings game.yaml's lint: allow: accepts, with the reason.")
@click.option("--codes", "list_codes", is_flag=True, help="List the lint codes and stop.")
def command(path: str | None, fmt: str, show_allowed: bool, list_codes: bool) -> None:
    """Find what is probably a mistake in the ruleset at PATH: unused
    definitions, rules that never run, constant conditions, one-option
    decisions, draws from zones nothing fills, near-miss names.

    Exit 0 when nothing (unaccepted) is found, 1 otherwise."""
    if list_codes:
        for code, meaning in LINT_CODES.items():
            echo(f"{code:26} {meaning}")
        return
    if not path:
        raise click.UsageError("lint needs a ruleset folder")
    from ..designer.commands import fail
    from ..load.yamlio import is_dir

    if not is_dir(Path(path)):
        fail([Diagnostic(str(path), 1, 1, "FILE-MISSING", "no ruleset folder here")],
              "json" if fmt in ("json", "sarif") else "text")
    found, errors = lint_ruleset(path)
    if errors:
        fail(errors, "json" if fmt in ("json", "sarif") else "text")
    shown = [f for f in found if show_allowed or not f.allowed]
    open_ = [f for f in found if not f.allowed]
    if fmt == "json":
        echo(json.dumps([f.to_json() for f in shown], indent=2))
    elif fmt == "sarif":
        echo(json.dumps(sarif(shown), indent=2))
    else:
        for f in shown:
            text = f.short() if fmt == "concise" else f.long()
            if f.allowed:
                text += f"\n    accepted: {f.allowed}" if fmt == "full" else \
                    f" [accepted: {f.allowed}]"
            echo(text, err=True)  # findings are diagnostics: stderr
        accepted = len(found) - len(open_)
        echo(f"{len(open_)} finding(s)" + (f", {accepted} accepted in game.yaml"
                                            if accepted else ""))
    sys.exit(1 if open_ else 0)
