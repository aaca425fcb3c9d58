"""What every command shares: KEY=VALUE options, a compiled program or a
stop with its diagnostics (exit 1, or 2 for a usage mistake), the seats
`--players` gives, and the agent for each seat. The command line (cli/) and
the designer's tools use these; they import nothing above this package."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Iterable, NoReturn

import click

from ..search.agents import make_agent
from ..run.engine import (
    BACKENDS,
    Program,
    active_seats,
    load_program,
    option_problems,
    with_players,
)
from ..support.diagnostics import Diagnostic, DiagnosticError, render
from ..support.terminal import SafeConsole, echo


def parse_options(pairs: Iterable[str]) -> dict[str, str]:
    out = {}
    for p in pairs:
        if "=" not in p:
            raise click.UsageError(f"--option takes KEY=VALUE, got {p!r}")
        k, v = p.split("=", 1)
        # names are snake_case; the shell habit `job-draft` means `job_draft`
        out[k.strip().replace("-", "_")] = v.strip()
    return out


def fail(diags: list[Diagnostic], fmt: str = "text", code: int | None = None) -> NoReturn:
    """Report and exit: 2 for a wrong option or usage (like any usage error), else 1."""
    echo(render(diags, fmt), err=fmt != "json")
    if code is None:
        code = 2 if diags and all(d.code in ("OPTION", "USAGE") for d in diags) else 1
    sys.exit(code)


def esc(value: Any) -> str:
    """Any text from a ruleset, shown literally by rich ('[bold]' is not markup)."""
    from rich.markup import escape

    return escape(str(value))


def usage_error(flag: str, diags: list[Diagnostic], fmt: str = "text") -> NoReturn:
    """A command-line mistake: a usage error (exit 2) naming the flag, with
    the code and where the ruleset declares what the flag may be (asked for
    JSON: the diagnostics as JSON, their messages naming the flag)."""
    if fmt == "json":
        import dataclasses
        fail([dataclasses.replace(d, message=f"{flag}: {d.message}") for d in diags], fmt, 2)
    parts = []
    for d in diags:
        where = f", see {d.path}:{d.line}:{d.col}" if (d.line, d.col) != (1, 1) else ""
        parts.append(f"{d.message} [{d.code}{where}]" + (f" ({d.hint})" if d.hint else ""))
    raise click.UsageError(f"{flag}: " + "; ".join(parts))


def seat_options(program: Program, options: dict, players: int | None,
                 fmt: str = "text") -> dict:
    """The options with `--players N` applied (a usage error, exit 2, if the
    game cannot seat N)."""
    try:
        return with_players(program.rs, options, players)
    except DiagnosticError as e:
        flag = f"--players {players}"
        named = [k for k in options if any(f"option {k}=" in d.message for d in e.diagnostics)]
        if named:
            flag += " with --option " + ", ".join(f"{k}={options[k]}" for k in named)
        usage_error(flag, e.diagnostics, fmt)


PLAYERS = click.option("--players", type=click.IntRange(1, 100), default=None,
                       help="How many players (any count the game allows; default: the most).")


BACKEND = click.option("--backend", type=click.Choice(BACKENDS), default="fast", show_default=True,
                       help="How the rules run: fast, or the plain reference compilation "
                       "the fast one is tested against (the same games either way).")


def program_or_exit(path: str | Path, fmt: str = "text", variant: str | None = None,
                    options: dict | None = None, backend: str = "fast") -> Program:
    """The compiled ruleset, or exit: 1 with its problems, 2 for a variant or an
    option it does not have (checked here for every command)."""
    from ..run.savegame import variant_problem

    problem = variant_problem(variant)
    if problem:
        usage_error(f"--variant {variant}", [Diagnostic(str(path), 1, 1, "OPTION", problem)], fmt)
    program, diags = load_program(path, variant=variant, options=options, backend=backend)
    if program is None:
        errors = [d for d in diags if d.severity == "error"]
        missing = [d for d in errors if d.code == "OPTION" and d.message.startswith("no variant")]
        if missing:
            usage_error(f"--variant {variant}", missing, fmt)
        fail(errors, fmt, 2 if any(d.code == "OPTION" for d in errors) else None)
    for name, value in (options or {}).items():
        bad = option_problems(program.rs, {name: value})
        if bad:
            usage_error(f"--option {name}={value}", bad, fmt)
    return program


def agent_specs(spec: str | None, program: Program, options: dict | None = None,
                players: int | None = None, say: bool = False) -> list[str | None]:
    """The agent named for each seat that plays (None: a seat the rules play)."""
    seats = [sid for sid, _ in active_seats(program.rs, options or {}, players)]
    humans = [sid for sid in seats if sid not in program.rs.bots]
    n = len(humans)
    names = [s.strip() for s in spec.split(",")] if spec else ["random"] * n
    if len(names) == 1 and names != ["human"]:
        names = names * n
    if "human" in names and len(names) < n:
        # a person names their own seat(s); the other seats get random agents
        filled = humans[len(names):]
        if say:
            echo(f"(--agents {spec}: {', '.join(filled)} played by random agent"
                 f"{'s' if len(filled) > 1 else ''})", err=True)
        names = names + ["random"] * (n - len(names))
    if len(names) != n:
        raise click.UsageError(f"--agents needs {n} agent(s), one per player "
                               f"({', '.join(humans)})")
    made = iter(names)
    return [None if sid in program.rs.bots else next(made) for sid in seats]


def agents_for(spec: str | None, program: Program, seed: int, options: dict | None = None,
               players: int | None = None,
               person: Callable[[int, str], Any] | None = None) -> list[Any]:
    """One agent per seat the rules do not play themselves (bots get None);
    `human` seats are made by `person(seat index, seat id)` (play only)."""
    specs = agent_specs(spec, program, options, players)
    seats = [sid for sid, _ in active_seats(program.rs, options or {}, players)]
    try:
        made = iter([person(seat, seats[seat]) if a == "human" and person is not None
                     else make_agent(a, seed, i)
                     for i, (seat, a) in enumerate((k, x) for k, x in enumerate(specs) if x)])
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    return [None if x is None else next(made) for x in specs]


class progress:
    """A progress bar on stderr for runs long enough to want one, when stderr
    is a terminal; otherwise nothing."""

    def __init__(self, total: int, enabled: bool = True):
        self.bar = None
        if enabled and total >= 200 and sys.stderr.isatty():
            from rich.progress import Progress
            self.bar = Progress(console=SafeConsole(stderr=True), transient=True)
            self.task = self.bar.add_task("games", total=total)

    def __enter__(self) -> Callable[[], None]:
        bar = self.bar
        if bar is None:
            return lambda: None
        bar.start()
        return lambda: bar.advance(self.task)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
