"""`rulebook serve`: tables of a ruleset in the browser, for playtests with
people at their own machines (interpreter/serve/)."""
from __future__ import annotations

from pathlib import Path

import click

from ..designer.commands import PLAYERS, parse_options, program_or_exit, seat_options
from ..support.terminal import echo


@click.command("serve")
@click.argument("path")
@click.option("--variant", help="A variant of the ruleset (a folder under variants/).")
@click.option("--option", "opts", multiple=True, help="KEY=VALUE, for every table.")
@PLAYERS
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; another than this machine's own lets "
                   "others on the network in.")
@click.option("--state", "state", default=None,
              help="Where tables are kept (default: .rulebook-tables/ID beside the ruleset's "
                   "folder... here: in the current folder).")
def command(path: str, variant: str | None, opts: tuple[str, ...], players: int | None,
            port: int, host: str, state: str | None) -> None:
    """Host tables of the ruleset at PATH in the browser: the start page lists
    the tables and makes new ones, each seat plays through its own link, and
    every table is kept on disk and carries on after a restart."""
    import uvicorn

    from ..serve.app import Server, make_app

    options = parse_options(opts)
    program = program_or_exit(path, "text", variant, options)
    options = seat_options(program, options, players)
    folder = Path(state) if state else Path(".rulebook-tables") / program.rs.id
    server = Server(program, options, players, variant, folder)
    resumed = server.resume()
    if host not in ("127.0.0.1", "localhost", "::1"):
        echo(f"warning: listening on {host}: anyone who can reach this machine there can "
             "open the pages; only the links you hand out let them play", err=True)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    echo(f"serving {program.rs.name or program.rs.id}: open http://{shown}:{port}/?key={server.key}")
    if resumed:
        echo(f"({resumed} table(s) carried on from {folder})")
    uvicorn.run(make_app(server), host=host, port=port, log_level="warning", ws_max_size=65_536)
