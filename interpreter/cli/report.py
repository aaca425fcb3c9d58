"""`rulebook report`: a balance report from simulated games."""
from __future__ import annotations

import json
import sys
import time

import click

from ..designer.commands import BACKEND, PLAYERS
from ..designer.report import build, to_html, to_markdown
from ..support.terminal import echo


@click.command("report")
@click.argument("path")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=200, show_default=True)
@click.option("--seed", type=click.IntRange(-10**15, 10**15), default=0, show_default=True,
              help="First seed.")
@click.option("--agents", default="random", show_default=True)
@click.option("--option", "opts", multiple=True, help="KEY=VALUE game option.")
@click.option("--variant", help="A variant of the ruleset (a folder under variants/).")
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="Step budget of each game (default: the ruleset's, else 10,000,000).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes (or local Dask workers) playing seeds in parallel "
              "(default: every core).")
@click.option("--scheduler", metavar="ADDRESS|local", default=None,
              help="Play on a Dask cluster: a scheduler's address (tcp://host:8786), "
              "or `local` for a cluster on this machine.")
@click.option("--connect-timeout", type=click.FloatRange(min=0.1), default=10.0,
              show_default=True, help="Seconds to wait for the Dask scheduler.")
@click.option("--format", "fmt", type=click.Choice(["md", "html", "json"]), default="md",
              show_default=True)
@click.option("--json", "as_json", is_flag=True, help="The same as --format json.")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write the report to this file instead of standard output.")
@PLAYERS
@BACKEND
def command(path: str, games: int, seed: int, agents: str, opts: tuple[str, ...],
            variant: str | None, max_steps: int | None, workers: int | None,
            scheduler: str | None, connect_timeout: float, fmt: str, as_json: bool,
            output: str | None, players: int | None, backend: str) -> None:
    """A balance report from simulated games (seeds SEED..SEED+GAMES-1): wins per
    seat with 95% intervals, first-player advantage, game length, score
    margins, lead changes, each option's effect on outcomes; as Markdown,
    HTML (with charts) or JSON."""
    from ..designer.commands import (
        agents_for,
        fail,
        parse_options,
        program_or_exit,
        progress,
        seat_options,
    )
    from ..designer.simulate import Job, default_workers
    from ..support.diagnostics import Diagnostic

    fmt = "json" if as_json else fmt
    diag_fmt = "json" if fmt == "json" else "text"
    options = parse_options(opts)
    program = program_or_exit(path, diag_fmt, variant, options, backend)
    options = seat_options(program, options, players, diag_fmt)
    agents_for(agents, program, seed, options, players)  # a bad --agents fails here, once
    job = Job(str(path), variant, options, players, max_steps, agents, agents_for, backend)
    start = time.perf_counter()
    with progress(games) as advance:
        rep, margins, recs = build(program, job, path, range(seed, seed + games),
                                   workers or default_workers(), scheduler, connect_timeout,
                                   advance)
    bad = next((r for r in recs if r["code"] == "OPTION"), None)
    if bad is not None:
        fail([Diagnostic(str(path), 1, 1, "OPTION", bad["error"] or "")], diag_fmt, 2)
    elapsed = time.perf_counter() - start
    if fmt == "json":
        text = json.dumps(rep, indent=1) + "\n"
    elif fmt == "html":
        text = to_html(rep, margins)
    else:
        text = to_markdown(rep)
    if output:
        try:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as e:
            raise click.ClickException(f"cannot write {output}: {e.strerror or e}") from None
        echo(f"wrote {output}: {rep['games']} games, {rep['failed']} failed, "
             f"{elapsed:.1f}s", err=True)
    else:
        echo(text, nl=False)
    sys.exit(1 if rep["failed"] else 0)
