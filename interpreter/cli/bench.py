"""`rulebook bench`: games and decisions per second."""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from ..designer.bench import measure, seeded_games
from ..run.engine import BACKENDS, Program, load_program, tune_gc
from ..support.terminal import echo


@click.command("bench")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--games", type=click.IntRange(1, 10_000_000), default=300, show_default=True,
              help="Games per run (seeds 0..N-1).")
@click.option("--repeat", type=click.IntRange(1, 100), default=3, show_default=True,
              help="Runs; the best is quoted.")
@click.option("--players", type=click.IntRange(1, 100), default=None, help="How many players.")
@click.option("--variant", default=None, help="A variant of the ruleset.")
@click.option("--option", "opts", multiple=True, help="KEY=VALUE game option.")
@click.option("--report", is_flag=True, help="Summarise how the games end instead of timing.")
@click.option("--ratio", multiple=True, metavar="A/B",
              help="With --report: the ratio of two game variables' totals.")
@click.option("--cards", default=None, metavar="PROP",
              help="With --report: a numeric component property, tallied by name.")
@click.option("--backend", type=click.Choice(BACKENDS + ("hand-written",)), default=None,
              help="Only this back end (default: both, and their ratio).")
@click.option("--compare", type=click.IntRange(min=1), default=None, metavar="N",
              help="Play seeds 0..N-1 on both back ends; show every difference.")
@click.option("--startup", is_flag=True, help="Time validate and the start of play.")
@click.option("--instructions", is_flag=True,
              help="Count machine instructions per game under valgrind.")
@click.option("--yardstick", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A hand-written Python version of the game (play(seed)), timed alike.")
@click.option("--play", "play_only", is_flag=True, hidden=True)  # --instructions' child
def command(paths: tuple[str, ...], games: int, repeat: int, players: int | None,
            variant: str | None, opts: tuple[str, ...], report: bool, ratio: tuple[str, ...],
            cards: str | None, backend: str | None, compare: int | None, startup: bool,
            instructions: bool, yardstick: str | None, play_only: bool) -> None:
    """Games and decisions per second for the ruleset at PATH on both back
    ends, or (--report) how its random games end, (--compare N) whether both
    back ends play the same, (--instructions) instructions per game,
    (--startup) how long validate and play take to start."""
    from ..designer.commands import parse_options
    args = _Args(paths[0], games, repeat, players, variant, list(ratio), cards, backend,
                 yardstick)
    if startup:
        sys.exit(_startup(list(paths), repeat))
    if len(paths) > 1:
        raise click.UsageError("give one ruleset (several only with --startup)")
    options = parse_options(opts)
    tune_gc()  # as the command line does, for every version measured
    if play_only:  # play quietly (under valgrind, for --instructions)
        if backend == "hand-written":
            assert yardstick is not None  # (given by the parent run)
            _yardstick_speed(yardstick, games, 1)
            return
        program, _ = load_program(args.ruleset, variant=variant, options=options,
                                  backend=backend or "fast")
        assert program is not None  # (checked by the parent run)
        for game in seeded_games(program, games, options, players):
            game.run()
        return
    if instructions:
        sys.exit(_instructions(args, options))
    if compare is not None:
        from ..designer.difftest import compare as differences
        found = differences(args.ruleset, range(compare), variant, options, players)
        for m in found:
            echo(m)
        echo(f"{compare - len(found)} of {compare} seeds play the same on both back ends")
        sys.exit(1 if found else 0)
    backends = [backend] if backend and backend != "hand-written" else list(BACKENDS)
    programs: dict[str, tuple[Program, float]] = {}
    for b in backends:
        t0 = time.perf_counter()
        program, diags = load_program(args.ruleset, variant=variant, options=options, backend=b)
        if program is None:
            from ..designer.commands import fail
            fail([d for d in diags if d.severity == "error"])
        programs[b] = (program, (time.perf_counter() - t0) * 1000)
    if report:
        measure(programs[backends[0]][0], args, options)
        return
    # back ends interleaved run by run, so a busy moment of the machine
    # disturbs both alike; each quotes its best run
    best = {b: (0.0, 0.0) for b in backends}
    for r in range(repeat):
        for b, (program, _) in programs.items():
            decisions = 0
            start = time.perf_counter()
            for game in seeded_games(program, games, options, players):
                game.run()
                decisions += len(game.history)
            elapsed = time.perf_counter() - start
            gps, dps = games / elapsed, decisions / elapsed
            best[b] = (max(best[b][0], gps), max(best[b][1], dps))
            echo(f"run {r + 1} {b}: {gps:.0f} games/s, {dps:.0f} decisions/s")
    assert program is not None  # (the last one measured)
    for b, (gps, dps) in best.items():
        echo(f"{program.rs.id} {options} [{b}]: best {gps:.0f} games/s, {dps:.0f} "
             f"decisions/s over {games} games (load+compile {programs[b][1]:.0f} ms)")
    if len(best) == 2:
        echo(f"fast/reference = {best['fast'][0] / best['reference'][0]:.2f}x")
    if yardstick:
        ref = _yardstick_speed(yardstick, games, repeat)
        engine = best[backends[0]][0]
        echo(f"hand-written yardstick: best {ref:.0f} games/s; "
             f"hand-written/engine [{backends[0]}] = {ref / engine:.1f}x")


class _Args:
    def __init__(self, ruleset: str, games: int, repeat: int, players: int | None,
                 variant: str | None, ratio: list[str], cards: str | None, backend: str | None,
                 yardstick: str | None):
        self.ruleset, self.games, self.repeat, self.players = ruleset, games, repeat, players
        self.variant, self.ratio, self.cards, self.backend = variant, ratio, cards, backend
        self.yardstick = yardstick


def _instructions(args: _Args, options: dict) -> int:
    """Machine instructions per game, counted by valgrind: the same count on
    every run whatever else the machine does, where timings on a shared
    machine swing by a third. Counts n + 1 games and one game, and quotes
    the difference over n: loading the program and what the first game of
    a process does once (a layout's code, caches) are left out, as they
    are over a long simulation."""
    import re
    import shutil
    import subprocess
    if shutil.which("valgrind") is None:
        raise click.UsageError("--instructions needs valgrind (apt install valgrind)")
    base = [sys.executable, "-m", "interpreter", "bench", args.ruleset, "--play"]
    if args.variant:
        base += ["--variant", args.variant]
    if args.players:
        base += ["--players", str(args.players)]
    for k, v in options.items():
        base += ["--option", f"{k}={v}"]
    import tempfile
    # dict layouts alike each run; a compiled-program cache of its own, which
    # the warm-up run fills, so another process clearing or refilling the
    # shared one cannot move a count
    env = dict(__import__("os").environ, PYTHONHASHSEED="0",
               XDG_CACHE_HOME=tempfile.mkdtemp(prefix="rulebook-bench-"))

    def count(backend: str, n: int) -> int:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
               "--cachegrind-out-file=/dev/null", *base, "--backend", backend, "--games", str(n)]
        out = subprocess.run(cmd, capture_output=True, text=True, env=env)
        m = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
        if out.returncode or m is None:
            raise SystemExit(out.stderr[-2000:])
        return int(m.group(1).replace(",", ""))

    n = args.games
    backends = [args.backend] if args.backend else ["fast", "reference"]
    if args.yardstick and args.backend is None:
        backends.append("hand-written")
        base += ["--yardstick", args.yardstick]
    per = {}
    for backend in backends:
        subprocess.run(base + ["--backend", backend, "--games", "1"], capture_output=True,
                       env=env)  # warm
        per[backend] = (count(backend, n + 1) - count(backend, 1)) / n
        echo(f"{backend}: {per[backend] / 1e6:.2f} million instructions per game ({n} games)")
    if "hand-written" in per and "fast" in per:
        echo(f"engine [fast] / hand-written = {per['fast'] / per['hand-written']:.1f}x "
              f"in instructions")
    return 0


def _startup(paths: list[str], repeat: int) -> int:
    import subprocess

    def wall(cmd: list[str]) -> float:
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        return time.perf_counter() - start

    validate = [sys.executable, "-m", "interpreter", "validate", *paths]
    first = wall(validate)
    best = min(wall(validate) for _ in range(repeat))
    echo(f"validate of {len(paths)} ruleset(s): {best:.2f} s warm "
         f"(first run this time: {first:.2f} s)")
    for path in paths:
        code = ("import interpreter.cli.main\n"
                "from interpreter.run.engine import Game, load_program\n"
                f"program, _ = load_program({str(path)!r})\n"
                "Game(program, seed=0)\n")
        wall([sys.executable, "-c", code])
        echo(f"play start, {Path(path).name}: "
             f"{min(wall([sys.executable, '-c', code]) for _ in range(repeat)):.2f} s")
    return 0


def _yardstick_speed(path: str, count: int, repeat: int) -> float:
    """Games per second of a hand-written version of the game: a Python
    file with play(seed) (a trusted file of the developer's own, never a
    rule file)."""
    import importlib.util
    spec: Any = importlib.util.spec_from_file_location("rulebook_yardstick", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        for seed in range(count):
            mod.play(seed)
        best = max(best, count / (time.perf_counter() - start))
    return best
