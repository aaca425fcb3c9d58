"""`rulebook simulate`: play many games and report speed and outcomes."""
from __future__ import annotations

import json
import sys
import time

import click

from ..designer.commands import (
    BACKEND,
    PLAYERS,
    agents_for,
    esc,
    fail,
    parse_options,
    program_or_exit,
    progress,
    seat_options,
)
from ..designer.simulate import Job, default_workers, outcomes
from ..run.engine import Program
from ..support import terminal
from ..support.diagnostics import Diagnostic
from ..support.terminal import echo


@click.command("simulate")
@click.argument("path")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=100, show_default=True)
@click.option("--seed", type=click.IntRange(-10**15, 10**15), default=0, show_default=True,
              help="First seed.")
@click.option("--agents", default="random")
@click.option("--option", "opts", multiple=True)
@click.option("--json", "as_json", is_flag=True)
@click.option("--variant", help="A variant of the ruleset (a folder under variants/).")
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="Step budget of each game (default: the ruleset's, else 10,000,000).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes playing seeds in parallel (default: every core).")
@PLAYERS
@BACKEND
def command(path: str, games: int, seed: int, agents: str, opts: tuple[str, ...], as_json: bool,
            variant: str | None, max_steps: int | None, players: int | None,
            workers: int | None, backend: str) -> None:
    """Play many games (seeds SEED..SEED+GAMES-1) and report speed and errors."""
    fmt = "json" if as_json else "text"
    options = parse_options(opts)
    program = program_or_exit(path, fmt, variant, options, backend)
    options = seat_options(program, options, players, fmt)
    agents_for(agents, program, seed, options, players)  # a bad --agents fails here, once
    job = Job(str(path), variant, options, players, max_steps, agents, agents_for, backend)
    wins: dict = {}
    errors: list[dict] = []
    start = time.perf_counter()
    seeds = range(seed, seed + games)
    with progress(games, enabled=not as_json) as advance:
        for out in outcomes(program, job, seeds, workers or default_workers()):
            if out.code == "OPTION":
                fail([Diagnostic(str(path), 1, 1, "OPTION", out.error or "")], fmt, 2)
            if out.code is not None:
                errors.append({"seed": out.seed, "error": out.error})
            else:
                wins[out.winner] = wins.get(out.winner, 0) + 1
            advance()
    elapsed = time.perf_counter() - start
    gps = games / elapsed if elapsed > 0 else 0.0
    result = {"ruleset": program.rs.id, "games": games, "finished": games - len(errors),
              "errors": len(errors), "games_per_second": round(gps, 1), "wins": wins,
              "first_errors": errors[:5]}
    if as_json:
        echo(json.dumps(result))
    else:
        _print_simulation(program, result)
    sys.exit(1 if errors else 0)


def _print_simulation(program: Program, result: dict) -> None:
    from rich.table import Table

    console = terminal.console()
    games = result["games"]
    console.print(f"[bold]{esc(program.rs.name)}[/bold]: {games} games, "
                  f"{result['finished']} finished, {result['errors']} with errors, "
                  f"{result['games_per_second']:.1f} games/s")
    if result["wins"]:
        t = Table()
        t.add_column("winner")
        t.add_column("games", justify="right")
        t.add_column("share", justify="right")
        for who, n in sorted(result["wins"].items(), key=lambda kv: (-kv[1], str(kv[0]))):
            t.add_row(esc("tie or no winner" if who in (None, "tie") else who), str(n),
                      f"{100 * n / games:.1f}%")
        console.print(t)
    for e in result["first_errors"]:
        console.print(f"  seed {e['seed']}: {esc(e['error'])}")
