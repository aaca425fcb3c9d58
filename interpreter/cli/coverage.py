"""`rulebook coverage`: what scenarios and random games reach of a ruleset."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..designer.commands import PLAYERS, parse_options
from ..designer.rulecoverage import cover, print_report, to_html
from ..support.terminal import echo


@click.command("coverage")
@click.argument("path")
@click.option("--games", type=click.IntRange(0, 100_000), default=20, show_default=True,
              help="Seeded random games to play besides the scenarios.")
@click.option("--seed", type=click.IntRange(-10**15, 10**15), default=0, show_default=True,
              help="First seed.")
@click.option("--agents", default="random", show_default=True)
@click.option("--option", "opts", multiple=True, help="KEY=VALUE game option.")
@click.option("--variant", help="A variant of the ruleset (a folder under variants/).")
@click.option("--scenarios/--no-scenarios", default=True, show_default=True,
              help="Also run every *.scenario.yaml under PATH.")
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="Step budget of each random game.")
@click.option("--format", "fmt", type=click.Choice(["text", "html", "json"]), default="text",
              show_default=True)
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the report to a file instead of the screen.")
@click.option("--fail-under", type=click.FloatRange(0, 100), default=None,
              help="Exit 1 when less than PCT percent of the rules ran.")
@PLAYERS
def command(path: str, games: int, seed: int, agents: str, opts: tuple[str, ...],
            variant: str | None, scenarios: bool, max_steps: int | None, fmt: str,
            as_json: bool, output: str | None, fail_under: float | None,
            players: int | None) -> None:
    """Run the scenarios and GAMES random games; report what ran and what never did."""
    fmt = "json" if as_json else fmt
    rep = cover(path, games, seed, agents, variant, parse_options(opts), players, scenarios,
                max_steps, fmt)
    if fmt == "json":
        text = json.dumps(rep, indent=1, ensure_ascii=False) + "\n"
    elif fmt == "html":
        text = to_html(rep)
    else:
        text = None
    if output:
        if text is None:
            from io import StringIO

            from rich.console import Console
            buf = StringIO()
            print_report(rep, Console(file=buf, width=120, highlight=False, color_system=None))
            text = buf.getvalue()
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as e:
            raise click.UsageError(f"cannot write {output}: {e.strerror}") from None
        echo(f"wrote {output}", err=True)
    elif text is not None:
        echo(text, nl=False)
    else:
        print_report(rep)
    pct = rep["summary"]["rule"]["percent"]
    if fail_under is not None and pct < fail_under:
        echo(f"rule coverage {pct}% is under {fail_under}%", err=True)
        sys.exit(1)
