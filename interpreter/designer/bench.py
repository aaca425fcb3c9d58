"""`rulebook bench`: how fast a ruleset plays, and how its random games end.

Quotes the best of R runs (default 3) so a busy machine disturbs it less,
in games and in decisions per second, on both back ends (interleaved run
by run) and their ratio. With `--yardstick FILE`, a hand-written Python
version of the same game (a module with `play(seed)`) is timed on the
same seeds and the ratio printed, a fixed yardstick for regressions
(tools/bench passes tools/reference/smile_and_gun.py for the default game).

--report plays the games once and summarises them instead: how they ended
(who won, or nobody), rounds played, seconds per game (mean and worst), the
final score of each seat (mean, when the game declares `score:`), and the
final value of every game variable that holds a number (mean) or
true/false (how often true). --ratio A/B adds the ratio of two of those
totals, e.g. `--ratio invader_wins/firefights`. --cards PROP tallies a
numeric component property over the games, by component name (a card
counting its own plays, say), most and least first.

--compare N plays seeds 0..N-1 on both back ends and reports every seed
whose log, decisions, winners, scores or steps differ (exit 1 if any).

--instructions counts machine instructions per game under valgrind
(deterministic, unlike timings on a shared machine) for both back ends
(and the yardstick), with their ratio. --startup times what a designer
waits for, each in a fresh process (best of R): `rulebook validate` of the
rulesets given, and the start of `play` (Python starting, the command
line imported, the program loaded, the game set up) for each of them.
"""
from __future__ import annotations

import collections
import statistics
import time
from typing import Any, Iterator


from ..run.agents import RandomAgent
from ..run.engine import Game, Program, active_seats, with_players
from ..support.terminal import echo


def seeded_games(program: Program, count: int, options: dict,
                 players: int | None) -> Iterator[Game]:
    """Seeded games with a random agent on every seat the rules do not play."""
    seated = with_players(program.rs, options, players)
    seats = active_seats(program.rs, seated, players)
    for seed in range(count):
        agents = [None if sid in program.rs.bots else RandomAgent(f"{seed}:{i}")
                  for i, (sid, _) in enumerate(seats)]
        yield Game(program, seed=seed, options=seated, agents=agents, players=players)


def measure(program: Program, args: Any, options: dict) -> None:
    """--report (args: the command's games, players, variant, ratio and cards)."""
    ends: collections.Counter[str] = collections.Counter()
    rounds: list[int] = []
    seconds: list[float] = []
    steps: list[int] = []
    totals: collections.defaultdict[str, int] = collections.defaultdict(int)
    flags: collections.Counter[str] = collections.Counter()
    scores: collections.defaultdict[str, list] = collections.defaultdict(list)
    cards: collections.Counter[str] = collections.Counter()
    numeric: list[str] | None = None
    score = program.rs.score_var or program.rs.score_fn
    for game in seeded_games(program, args.games, options, args.players):
        start = time.perf_counter()
        game.run()
        seconds.append(time.perf_counter() - start)
        rounds.append(game.round)
        steps.append(game.steps_used())
        ends[", ".join(w.id for w in game.winners) or "no winner"] += 1
        if score:
            for pid, v in game.scores().items():
                scores[pid].append(v)
        if args.cards:
            for c in game.comps:
                v = getattr(c, f"u_{args.cards}", None)
                if type(v) is int:
                    cards[getattr(c, "u_name", None) or c.id] += v
        if numeric is None:
            numeric = [k for k in program.rs.game_vars
                       if isinstance(getattr(game, f"v_{k}"), int)]
        for k in numeric:
            v = getattr(game, f"v_{k}")
            if isinstance(v, bool):
                flags[k] += v
            elif isinstance(v, int):
                totals[k] += v
    n = args.games
    echo(f"{program.rs.id} {options} players={args.players or program.rs.default_players or program.rs.max_players}"
          f"{' variant=' + args.variant if args.variant else ''}: {n} random games")
    echo("ended: " + ", ".join(f"{k} {v} ({100 * v / n:.1f}%)" for k, v in ends.most_common()))
    echo(f"rounds: mean {statistics.mean(rounds):.1f}, min {min(rounds)}, max {max(rounds)}")
    echo(f"seconds per game: mean {statistics.mean(seconds):.3f}, max {max(seconds):.3f}; "
          f"steps: mean {statistics.mean(steps):,.0f}, max {max(steps):,}")
    if scores:
        echo(f"final {score} by seat: " + ", ".join(
            f"{sid} {statistics.mean(v):.1f}" for sid, v in scores.items()))
    for k in numeric or []:
        if k in flags or isinstance(program.rs.game_vars[k], bool):
            echo(f"  {k}: true in {flags[k]} games ({100 * flags[k] / n:.1f}%)")
        else:
            echo(f"  {k}: mean {totals[k] / n:.2f}")
    for ratio in args.ratio or []:
        a, b = ratio.split("/")
        echo(f"  {a}/{b}: {totals[a] / totals[b]:.3f}" if totals[b] else f"  {ratio}: -")
    if args.cards:
        ranked = cards.most_common()
        echo(f"{args.cards} per game, by component name ({len(ranked)} names):")
        for name, v in ranked:
            echo(f"  {name}: {v / n:.2f}")
