"""`rulebook info`: describe a ruleset."""
from __future__ import annotations

import json
from typing import Any

import click

from ..designer.commands import (
    PLAYERS,
    esc,
    parse_options,
    program_or_exit,
    seat_options,
)
from ..run.engine import active_seats
from ..support import terminal
from ..support.terminal import echo


@click.command("info")
@click.argument("path")
@click.option("--variant", help="A variant of the ruleset (a folder under variants/).")
@click.option("--option", "opts", multiple=True, help="KEY=VALUE (selects overlays).")
@click.option("--json", "as_json", is_flag=True)
@PLAYERS
def command(path: str, variant: str | None, opts: tuple[str, ...], as_json: bool,
            players: int | None) -> None:
    """Describe a ruleset: seats, options, variants, overlays and tables."""
    fmt = "json" if as_json else "text"
    program = program_or_exit(path, fmt, variant, parse_options(opts))
    rs = program.rs
    options = seat_options(program, parse_options(opts), players, fmt)
    playing = [sid for sid, _ in active_seats(rs, options, players)]
    data: dict[str, Any] = {
        "ruleset": rs.id, "name": rs.name, "variant": variant,
        "seats": [{"id": sid, "name": name, "bot": sid in rs.bots} for sid, name in rs.seats],
        "players": {"min": rs.min_players, "max": rs.max_players,
                    "default": rs.default_players or rs.max_players, "seats": playing},
        "sides": [sid for sid, _ in rs.sides],
        "options": {k: {"choices": o["choices"], "default": o["default"]}
                    for k, o in rs.options.items()},
        "variants": rs.variants,
        "overlays": [{"id": i, "name": n} for i, n, _ in rs.overlays],
        "tables": rs.tables,
    }
    if as_json:
        echo(json.dumps(data, indent=1))
        return
    from rich.table import Table

    console = terminal.console()
    console.print(f"[bold]{esc(rs.name)}[/bold] ({esc(rs.id)})"
                  + (f", variant {esc(variant)}" if variant else ""))
    seats = ", ".join(f"{s['id']}{' (played by the rules)' if s['bot'] else ''}"
                      for s in data["seats"])
    console.print(f"seats: {seats}; other sides: {', '.join(data['sides']) or 'none'}",
                  markup=False)
    pl = data["players"]
    count = f"{pl['min']}" if pl["min"] == pl["max"] else f"{pl['min']} to {pl['max']}"
    console.print(f"players: {count} (--players N); in play: {', '.join(pl['seats'])}",
                  markup=False)
    if rs.variants:
        console.print(f"variants: {', '.join(rs.variants)}", markup=False)
    for o in data["overlays"]:
        console.print(f"overlay: {o['name'] or o['id']}", markup=False)
    t = Table(title="options")
    t.add_column("option")
    t.add_column("default")
    t.add_column("choices")
    for k, o in data["options"].items():
        t.add_row(esc(k), esc(o["default"]), esc(", ".join(map(str, o["choices"]))))
    console.print(t)
    for name, value in rs.tables.items():
        t = Table(title=f"table {esc(name)}")
        if isinstance(value, dict):
            t.add_column("key")
            t.add_column("value")
            for k, v in value.items():
                t.add_row(esc(k), esc(", ".join(map(str, v)) if isinstance(v, list) else v))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            cols = list(value[0])
            for c in cols:
                t.add_column(esc(c))
            for row in value:
                t.add_row(*[esc(row.get(c, "")) for c in cols])
        else:
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            console.print(f"table {name}: {shown}", markup=False)
            continue
        console.print(t)
