"""`rulebook play`: play one game (or a scenario, or a saved game)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..designer.commands import (
    BACKEND,
    PLAYERS,
    agent_specs,
    agents_for,
    esc,
    fail,
    parse_options,
    program_or_exit,
    seat_options,
)
from ..load.yamlio import is_dir, shorten
from ..run.agents import ScriptError
from ..run.engine import Game, active_seats
from ..support import terminal
from ..support.confine import ruleset_reach
from ..support.diagnostics import Diagnostic, DiagnosticError
from ..support.terminal import SafeConsole, echo


@click.command("play")
@click.argument("path", required=False)
@click.option("--seed", type=click.IntRange(-10**15, 10**15), default=0, show_default=True)
@click.option("--agents", default="random",
              help="Comma-separated, one per player: random, first, mcts[:N|:Ts], human (you play that seat).")
@click.option("--option", "opts", multiple=True, help="KEY=VALUE game option.")
@click.option("--plain", is_flag=True, help="No colours or screen clearing (for pipes and logs).")
@click.option("--format", "log_format", type=click.Choice(["text", "jsonl", "html"]),
              default="text", show_default=True,
              help="How the log is printed: text, JSON lines, or one HTML page.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False), help="Write the log as JSON lines.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the result.")
@click.option("--quiet", is_flag=True, help="Print only the result.")
@click.option("--scenario", type=click.Path(exists=True, dir_okay=False), help="Run a scenario file.")
@click.option("--save", type=click.Path(dir_okay=False), help="Save ruleset+options+seed+choices.")
@click.option("--variant", help="A variant of the ruleset (a folder under variants/).")
@click.option("--replay", type=click.Path(exists=True, dir_okay=False),
              help="Replay a saved game, then let --agents play on from where it stopped.")
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="Step budget of the game (default: the ruleset's, else 10,000,000).")
@click.option("--view", "view", metavar="SEAT|public",
              help="Print the log as this seat (or an onlooker) may read it.")
@PLAYERS
@BACKEND
@click.pass_context
def command(ctx: click.Context, path: str | None, seed: int, agents: str, opts: tuple[str, ...],
            plain: bool, log_format: str, log_file: str | None, as_json: bool, quiet: bool,
            scenario: str | None, save: str | None, replay: str | None, variant: str | None,
            max_steps: int | None, view: str | None, players: int | None,
            backend: str) -> None:
    """Play one full game of the ruleset at PATH (with --replay, PATH may be left
    out: the saved game names its ruleset)."""
    fmt = "json" if as_json else "text"
    for flag, target in (("--log", log_file), ("--save", save)):
        _writable(flag, target)
    if scenario:
        _ignored(ctx, "--scenario", ("seed", "opts", "variant", "players", "agents", "save",
                                     "replay", "max_steps"), "the scenario file sets them")
        from ..designer.scenario import run_scenario_file

        ran = run_scenario_file(Path(scenario), ruleset=path)
        if log_file and ran.game is not None:
            _write_log(log_file, ran.game)
        if as_json:
            out = {"scenario": str(scenario), "ok": ran.ok, "checks": ran.checks,
                   "diagnostics": [d.to_json() for d in ran.diagnostics]}
            if ran.game is not None:
                out.update(_result(ran.game, view))
            echo(json.dumps(out))
            sys.exit(0 if ran.ok else 1)
        if log_format != "text" and ran.game is not None:
            _print_formatted(ran.game, ran.game.program,
                             {"seed": ran.game.seed, **_result(ran.game, view)},
                             view, log_format)
        if ran.ok:
            echo(f"{scenario}: passed ({ran.checks} expectation(s))")
            sys.exit(0)
        if ran.game is not None and not quiet and log_format == "text":
            echo("the log up to the failure:", err=True)  # what happened
            _print_log(ran.game, view, err=True)
        fail(ran.diagnostics)
    from ..run.savegame import (
        load_save,
        replay_agents,
        saved_ruleset,
        variant_problem,
        write_save,
    )

    options = parse_options(opts)
    saved = None
    if replay:
        _ignored(ctx, "--replay", ("seed", "opts", "variant", "players"),
                 "the saved game sets them")
        try:
            saved = load_save(Path(replay))
        except DiagnosticError as e:
            fail(e.diagnostics, fmt)
        seed = saved["seed"]
        given = {k: v for k, v in saved["options"].items() if k not in saved["drawn"]}
        options = dict(saved["options"])  # overlays are chosen by the values played
        variant = saved.get("variant")
        players = saved.get("players", players)
        if path is None:
            path = str(saved_ruleset(Path(replay), saved))
            if not ruleset_reach(replay, path):  # (guide, section 13)
                fail([Diagnostic(str(replay), 1, 1, "OPTION",
                                  f"the saved game's ruleset {shorten(saved['ruleset'], 200)} lies "
                                  "outside its reach: a save names its own folder, a folder "
                                  "inside it or the one just above it, unless the command line "
                                  "names the ruleset",
                                  hint=f"rulebook play RULESET --replay {shorten(replay, 200)}")],
                      fmt)
    if path is None:
        raise click.UsageError("play needs a ruleset PATH (or --scenario FILE, or --replay SAVE)")
    problem = variant_problem(variant)
    if problem:
        fail([Diagnostic(str(replay or path), 1, 1, "OPTION", problem)], fmt)
    program = program_or_exit(path, fmt, variant, options, backend)
    if saved is not None and saved.get("ruleset_id") not in (None, program.rs.id):
        fail([Diagnostic(str(replay), 1, 1, "OPTION",
                          f"the game was saved from ruleset {saved['ruleset_id']!r}, "
                          f"not {program.rs.id!r}")], fmt)
    seat_ids = [sid for sid, _ in program.rs.seats]
    if view is not None and view != "public" and view not in seat_ids:
        raise click.UsageError(f"--view {view!r}: no such seat (seats: {', '.join(seat_ids)}; "
                               "or public)")
    options = seat_options(program, options, players, fmt)
    if saved is not None:
        given = seat_options(program, given, players, fmt)
    if log_format != "text" and (as_json or quiet):
        raise click.UsageError(f"--format {log_format} prints the log: leave out "
                               f"{'--json' if as_json else '--quiet'}")
    specs = agent_specs(agents, program, options, players, say=True)
    people = [sid for (sid, _), spec in zip(active_seats(program.rs, options or {}, players),
                                            specs) if spec == "human"]
    table, game = None, None
    if "human" in specs:
        if as_json:
            raise click.UsageError("--json prints one result at the end: a human seat needs "
                                   "the screen (leave out --json)")
        table = _human_table(plain, lambda path: _save_now(path, program, game, variant, specs))
    person = None
    if table is not None:
        from .human import HumanAgent

        def person(seat, sid):
            return HumanAgent(table, seat, sid)
    agent_list = agents_for(agents, program, seed, options, players, person)
    if saved is not None:  # replay the saved choices exactly, then the agents play on
        agent_list = replay_agents(saved, agent_list, specs)
        options = given  # drawn options are drawn again, from the same seed
    failure = None
    try:
        game = Game(program, seed=seed, options=options, agents=agent_list,
                    logging=table is not None or log_format != "text" or
                    not (quiet and not log_file and view is None),
                    steps=max_steps, players=players)
        if saved is not None:
            _check_drawn(game, saved, replay)
        try:
            game.run()
        except KeyboardInterrupt:
            if table is None:
                raise
            table.left = "interrupt"  # between two questions: the game stops there
        if table is not None and not table.left:
            table.finish(game)
    except DiagnosticError as e:
        failure = e.diagnostics
    except ScriptError as e:  # a replayed choice the rules no longer allow
        assert saved is not None  # (only a replay's script)
        left = next((len(a.script) for a in agent_list if a is not None), 0)
        n = len(saved["choices"]) - left + 1
        failure = [Diagnostic(str(replay), 1, 1, "CHOICE-ILLEGAL", f"saved choice {n}: {e}",
                              hint="legal: " + ", ".join(e.legal[:30]))]
    if game is not None:  # what was played is kept, also when the game failed
        if save:
            write_save(Path(save), program, game, variant, specs,
                       error=failure[0].short() if failure else None)
        if log_file:
            _write_log(log_file, game)
    if game is not None:  # a log text that failed is a note in the log: say where, once
        seen = set()
        for d in game.log_failures:
            if (d.path, d.line) not in seen:
                seen.add((d.path, d.line))
                # the message may read a value the view may not see (a card's
                # name): a seat's or the table's view gets the place alone
                why = f" ({d.message})" if view is None and table is None else ""
                echo(f"{d.path}:{d.line}:{d.col}: LOG-TEXT warning: a log text "
                     f"failed{why}; the game went on", err=True)
    if failure:
        if game is not None and game.log and not quiet and not as_json:
            echo("the last lines of the log:", err=True)
            _print_log(game, view, last=8, err=True)
        fail(failure, fmt)
    if table is not None and table.left:
        _leave(table, program, game, variant, specs, save, seed)
    assert game is not None  # (made, or failed above)
    reader = _reader(view, table, people)
    result = {"ruleset": program.rs.id, "variant": variant, "seed": seed,
              "options": dict(game.options), **_result(game, reader)}
    if as_json:
        echo(json.dumps(result))
        return
    if log_format != "text":
        _print_formatted(game, program, result, reader, log_format)
        return
    if not quiet and (table is None or view is not None):  # people saw their own log
        _print_log(game, view)
    _print_result(program, result)


def _reader(view, table, people):
    """Whose view the result is told in: --view's, else, when people sit at
    the table, the one person's (several: an onlooker's), since the count of
    decisions made tells how many hidden plays were forced; else the
    designer's (None)."""
    if view is not None or table is None:
        return view
    return people[0] if len(people) == 1 else "public"


def _result(game, view=None) -> dict:
    """Who won, the scores and the choices made; with --view, only the
    choices that seat (or an onlooker) may read in its log."""
    if view is None:
        choices = [list(h) for h in game.history]
    else:
        from ..model.views import log_for
        side = None if view == "public" else game.side_by_id(view)
        choices = [[e["player"], e["decision"], e["choice"]] for e in log_for(game, side)
                   if "choice" in e and not e.get("forced") and not e.get("bot")]
    out = {"winner": game.winners[0].id if len(game.winners) == 1 else None,
           "winners": [w.id for w in game.winners], "scores": game.scores(),
           "decisions": len(choices), "choices": choices}
    if view is not None:
        out["view"] = view
    return out


def _ignored(ctx, flag, names, why):
    """A note on stderr for each flag given on the command line that `flag`
    makes pointless (it would otherwise be ignored silently)."""
    from click.core import ParameterSource

    shown = {p.name: p.opts[0] for p in ctx.command.params}
    given = [shown[n] for n in names
             if ctx.get_parameter_source(n) == ParameterSource.COMMANDLINE]
    if given:
        echo(f"note: {flag} ignores {', '.join(given)} ({why})", err=True)


def _print_formatted(game, program, result, view, log_format):
    """--format jsonl: the log (as --view reads it) as JSON lines; html: one page."""
    from ..model.views import log_for

    entries = game.log if view is None else \
        log_for(game, None if view == "public" else game.side_by_id(view))
    if log_format == "jsonl":
        for e in entries:
            echo(json.dumps(e))
        return
    from ..designer.htmllog import page
    from ..model.views import scores_seen

    track = game.score_track
    if view is not None:  # a score behind a screen stays there until the result
        side = None if view == "public" else game.side_by_id(view)
        track = [(when, scores if when == "end" else scores_seen(game, side, scores))
                 for when, scores in track]
    title = f"{program.rs.name} - seed {result['seed']}" + (f" ({view}'s view)" if view else "")
    echo(page(title, result, entries, track, designer=view is None), nl=False)


def _human_table(plain, save):
    """The screen and keyboard the human seats share."""
    from .human import Table

    interactive = sys.stdin.isatty() and not plain
    console = SafeConsole(no_color=plain, highlight=False, emoji=False, soft_wrap=not interactive,
                      force_terminal=False if plain else None)
    return Table(console, sys.stdin, save=save, interactive=interactive)


def _save_now(path, program, game, variant, specs) -> str:
    """Save the game so far (a human's `save FILE`): the message to show."""
    from ..run.savegame import write_save

    try:
        if not is_dir(Path(path).parent):
            return f"not saved: there is no folder {Path(path).parent}"
        write_save(Path(path), program, game, variant, specs)
    except (OSError, DiagnosticError) as e:
        return f"not saved: {getattr(e, 'strerror', None) or e}"
    later = f"--replay {path}" if ruleset_reach(path, program.rs.path) else \
        f"rulebook play {program.rs.path} --replay {path}"  # (guide, section 13)
    return f"saved {len(game.history)} choices to {path} (go on later with {later})"


def _leave(table, program, game, variant, specs, save, seed):
    """A person left before the end (quit, end of input, Ctrl-C): offer a
    save (at the end of input, or with --save, it is made without asking)
    so that nothing is lost, and exit 130."""
    console = table.console
    default = save or _free_name(f"{program.rs.id}-seed{seed}.save.json")
    answer = ""
    if not save and table.left != "eof":
        console.print()
        try:
            answer = table.read(esc(f"save the game before leaving? a file name, or no "
                                     f"[{default}]: "))
        except Exception:  # (the Leave of an end of input): save where offered
            answer = ""
    if answer.lower() in ("no", "n"):
        console.print("left without saving")
    else:
        console.print(esc(_save_now(answer or default, program, game, variant, specs)))
    sys.exit(130)


def _free_name(name: str) -> str:
    """name, or name with a number before its ending when that file exists."""
    if not Path(name).exists():
        return name
    stem, _, ext = name.partition(".")
    n = 2
    while Path(f"{stem}-{n}.{ext}").exists():
        n += 1
    return f"{stem}-{n}.{ext}"


def _writable(flag, target):
    """--log/--save must name a file in a folder that exists (checked before playing)."""
    if target is None:
        return
    folder = Path(target).parent
    if not is_dir(folder):
        raise click.UsageError(f"{flag} {target}: there is no folder {folder}")


def _write_log(log_file, game):
    try:
        with open(log_file, "w", encoding="utf-8") as fh:
            for entry in game.log:
                fh.write(json.dumps(entry) + "\n")
    except OSError as e:
        raise click.UsageError(f"--log {log_file}: {e.strerror or e}") from None


def _check_drawn(game, saved, replay):
    """Options drawn at random must come out as they did when the game was saved."""
    for name in saved["drawn"]:
        if name not in game.drawn or str(game.options.get(name)) != str(saved["options"][name]):
            raise DiagnosticError(Diagnostic(
                str(replay), 1, 1, "OPTION",
                f"option {name} was drawn as {saved['options'].get(name)!r} when the game was "
                f"saved but comes out {game.options.get(name)!r} now: the ruleset changed",
                hint=f"replay with the option given: --option {name}=..."))


def _print_log(game, view=None, last=None, err=False):
    """The designer's log (each secret once, marked with who may read it), or
    with --view the log one seat (or an onlooker) may read; its `last` lines
    only, if given."""
    from rich.text import Text

    from ..model.views import log_for

    if view is None:
        entries = game.log
    else:
        entries = log_for(game, None if view == "public" else game.side_by_id(view))
    console = terminal.console(stderr=err)
    for entry in entries[-last:] if last else entries:
        text = entry["text"]
        see = entry.get("see", "all")
        if text.startswith("=="):
            console.print(Text(text, style="bold"))
            continue
        line = Text("  " + text, style="cyan" if "decision" in entry else "")
        if see != "all":
            line.append(f"  [seen by {', '.join(see) or 'nobody'}]", style="dim")
        console.print(line)


def _print_result(program, result):
    from rich.table import Table

    table = Table()
    table.add_column("player")
    table.add_column("score", justify="right")
    for pid, score in result["scores"].items():
        mark = " (winner)" if pid in result["winners"] else ""
        table.add_row(esc(pid + mark), esc(score))
    console = terminal.console()
    console.print(f"[bold]{esc(program.rs.name)}[/bold] - seed {result['seed']}")
    console.print(table)
    winners = result["winners"]
    parts = [f"options: {', '.join(f'{k}={v}' for k, v in result['options'].items())}"
             if result["options"] else "", f"{result['decisions']} decisions",
             f"winner: {winners[0]}" if len(winners) == 1 else
             f"a shared win: {', '.join(winners)}" if winners else "no winner"]
    console.print("; ".join(p for p in parts if p), markup=False)
