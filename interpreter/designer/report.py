"""`rulebook report PATH`: a balance report from many simulated games.

Every game depends on its seed only, so the report is the same whether the
seeds are played in this process, by worker processes, or on a Dask cluster:
the per-game records are gathered in seed order and everything is counted and
sorted from them alone. Nothing measured by a clock goes into the report.

What the report counts, from simulate.play_record:
- wins of each seat (a game with no single winner is a tie), with 95% Wilson
  intervals; the first seat's wins against the 1/n an even game would give;
- rounds played, the margin between the two best final scores, and lead
  changes: how often the sole leader after a round differs from the last one;
- for each option, the wins of each seat under each value the option took
  (values drawn at random vary from game to game), and how far that moves the
  share of outcomes from the overall one;
- for each zone of the sides that holds exactly one component for every
  player when the first round begins (in every finished game), the win rate of
  whoever held each component there.
"""
from __future__ import annotations

import html
import json
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import click

if TYPE_CHECKING:
    from ..run.program import Program
    from .simulate import Job

Z95 = 1.959963984540054
FAILURES_SHOWN = 10


# ------------------------------------------------------------ statistics
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials ((0, 1) for none)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def sole_leader(scores: dict) -> str | None:
    """The one player with the highest score, or None on a shared lead."""
    if not scores:
        return None
    top = max(scores.values())
    leaders = [p for p, v in scores.items() if v == top]
    return leaders[0] if len(leaders) == 1 else None


def lead_changes(series: list) -> int:
    """How often the sole leader changes along a series of score tables (one
    after each round). A shared lead is no leader: A, tie, B is one change;
    A, tie, A is none."""
    changes = 0
    last = None
    for scores in series:
        leader = sole_leader(scores)
        if leader is None:
            continue
        if last is not None and leader != last:
            changes += 1
        last = leader
    return changes


def _r(x: float) -> float:
    return round(x, 4)


def _rate(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"wins": k, "games": n, "rate": _r(k / n) if n else 0.0, "ci95": [_r(lo), _r(hi)]}


def _quantile(xs: list, q: float):
    """Nearest-rank quantile of a sorted list."""
    i = max(0, min(len(xs) - 1, math.ceil(q * len(xs)) - 1))
    return xs[i]


def _stats(values: list) -> dict:
    xs = sorted(values)
    if not xs:
        return {"games": 0}
    return {"games": len(xs), "mean": _r(sum(xs) / len(xs)), "min": xs[0],
            "p10": _quantile(xs, 0.1), "p25": _quantile(xs, 0.25), "median": _quantile(xs, 0.5),
            "p75": _quantile(xs, 0.75), "p90": _quantile(xs, 0.9), "max": xs[-1]}


def _counts(values: list) -> list:
    out: dict = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return [[k, out[k]] for k in sorted(out)]


def _outcome(rec) -> str:
    return rec["winners"][0] if len(rec["winners"]) == 1 else "tie"


def _spread_of(games: list, everyone: dict, total: int) -> float:
    """Total variation distance between the outcomes of `games` and of all."""
    if not games:
        return 0.0
    mine: dict = {}
    for rec in games:
        o = _outcome(rec)
        mine[o] = mine.get(o, 0) + 1
    keys = set(mine) | set(everyone)
    return 0.5 * sum(abs(mine.get(k, 0) / len(games) - everyone.get(k, 0) / total) for k in keys)


def _value_order(value, choices):
    return (choices.index(value), "") if value in choices else (len(choices), str(value))


def summarize(records: list, meta: dict, choices: dict | None = None) -> dict:
    """The report (a JSON-ready dict) from every game's record, in seed order.
    choices: each option's values in the ruleset's order (for sorting)."""
    choices = choices or {}
    records = sorted(records, key=lambda r: r["seed"])
    done = [r for r in records if r["code"] is None]
    failed = [r for r in records if r["code"] is not None]
    n = len(done)
    seat_order: list = []
    for r in done:
        for s in r["seats"]:
            if s not in seat_order:
                seat_order.append(s)
    everyone: dict = {}
    for r in done:
        o = _outcome(r)
        everyone[o] = everyone.get(o, 0) + 1
    seats = []
    for s in seat_order:
        played = [r for r in done if s in r["seats"]]
        wins = sum(1 for r in played if r["winners"] == [s])
        shared = sum(1 for r in played if len(r["winners"]) > 1 and s in r["winners"])
        seats.append({"seat": s, **_rate(wins, len(played)), "shared_wins": shared})
    ties = sum(1 for r in done if len(r["winners"]) != 1)
    # the player whose turn came first once the rounds began (a shuffled turn
    # order makes it any seat), against the even share of its game
    moved = [r for r in done if r.get("first") and r["seats"]]
    m = len(moved)
    first_wins = sum(1 for r in moved if r["winners"] == [r["first"]])
    expected = sum(1 / len(r["seats"]) for r in moved) / m if m else 0.0
    firsts = sorted({r["first"] for r in moved},
                    key=lambda s: (seat_order.index(s) if s in seat_order else len(seat_order),
                                   str(s)))
    first = {"seats": firsts, **_rate(first_wins, m), "expected": _r(expected),
             "advantage": _r(first_wins / m - expected) if m else 0.0,
             "by_seat": [{"seat": s, **_rate(sum(1 for r in moved if r["first"] == s and
                                                  r["winners"] == [s]),
                                             sum(1 for r in moved if r["first"] == s))}
                         for s in firsts]}
    margins = []
    for r in done:
        sc = r["scores"]
        if sc and len(sc) >= 2:
            top = sorted(sc.values(), reverse=True)
            margins.append(top[0] - top[1])
    winner_not_top = sum(1 for r in done if r["scores"] and len(r["winners"]) == 1
                         and sole_leader(r["scores"]) != r["winners"][0])
    leads = [lead_changes(r["series"]) for r in done]
    scored = [r for r in done if r["series"]]
    options = {}
    names = sorted({k for r in done for k in r["options"]})
    for name in names:
        order = choices.get(name, [])
        values = sorted({json.dumps(r["options"].get(name)) for r in done},
                        key=lambda v: _value_order(json.loads(v), order))
        rows = []
        shift = 0.0
        for v in values:
            value = json.loads(v)
            games = [r for r in done if json.dumps(r["options"].get(name)) == v]
            spread = _spread_of(games, everyone, n)
            shift += len(games) / n * spread
            rows.append({"value": value, "games": len(games),
                         "ties": sum(1 for r in games if len(r["winners"]) != 1),
                         "shift": _r(spread),
                         "seats": {s: _rate(sum(1 for r in games if r["winners"] == [s]),
                                            sum(1 for r in games if s in r["seats"]))
                                   for s in seat_order}})
        options[name] = {"random": any(name in r["drawn"] for r in done), "shift": _r(shift),
                         "values": rows}
    held = {}
    zones = sorted({z for r in done for z in r["held"]})
    for z in zones:
        if not done or not all(set(r["held"].get(z, {})) == set(r["seats"]) for r in done):
            continue
        comps = sorted({c for r in done for c in r["held"][z].values()})
        rows = []
        for c in comps:
            holders = [(r, s) for r in done for s, x in sorted(r["held"][z].items()) if x == c]
            wins = sum(1 for r, s in holders if r["winners"] == [s])
            by_seat: dict = {}
            for r, s in holders:
                by_seat[s] = by_seat.get(s, 0) + 1
            rows.append({"component": c, **_rate(wins, len(holders)),
                         "seats": {s: by_seat[s] for s in seat_order if s in by_seat}})
        held[z] = rows
    codes: dict = {}
    for r in failed:
        codes[r["code"]] = codes.get(r["code"], 0) + 1
    return {
        **meta,
        "games": len(records), "finished": n, "failed": len(failed), "ties": ties,
        "outcomes": {k: everyone[k] for k in seat_order + ["tie"] if k in everyone},
        "seats": seats,
        "first_player": first,
        "length": {**_stats([r["rounds"] for r in done]),
                   "histogram": _counts([r["rounds"] for r in done])},
        "margins": {**_stats(margins), "winner_not_top_score": winner_not_top},
        "lead_changes": {**_stats([lead_changes(r["series"]) for r in scored]),
                         "games_with_a_change": sum(1 for x in leads if x),
                         "games_led_before_the_end": sum(
                             1 for r in scored if any(sole_leader(x) for x in r["series"][:-1])),
                         "histogram": _counts([lead_changes(r["series"]) for r in scored])},
        "options": options,
        "held": held,
        "failures": {"codes": dict(sorted(codes.items())),
                     "first": [{"seed": r["seed"], "code": r["code"], "error": r["error"]}
                               for r in failed[:FAILURES_SHOWN]]},
    }


# ------------------------------------------------------------ running the games
_PROGRAMS: dict = {}  # a Dask worker's compiled programs, by job


def _chunk(job, start: int, stop: int, given: str) -> list:
    """Seeds start..stop-1 on a Dask worker: the program is loaded there once
    (from job.path, an absolute path) and the records name the ruleset's files
    as the command line did (`given`), so they read as a local run's."""
    from ..run.engine import load_program
    from .simulate import play_record

    key = (job.path, job.variant, json.dumps(job.options, sort_keys=True, default=str),
           job.backend)
    program = _PROGRAMS.get(key)
    if program is None:
        program, diags = load_program(job.path, variant=job.variant, options=job.options,
                                      backend=job.backend)
        if program is None:
            d = diags[0] if diags else None
            text = (d.short() if d else "the ruleset did not load on a worker").replace(
                job.path, given)
            return [{"seed": s, "code": d.code if d else "LOAD", "error": text,
                     "seats": [], "winners": [], "rounds": 0, "scores": None, "series": [],
                     "options": {}, "drawn": [], "held": {}} for s in range(start, stop)]
        _PROGRAMS[key] = program
    out = [play_record(program, job, s) for s in range(start, stop)]
    for rec in out:
        if rec["error"]:
            rec["error"] = rec["error"].replace(job.path, given)
    return out


def _dask_records(job, seeds: range, scheduler: str, workers: int, timeout: float, given: str):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise click.UsageError("--scheduler needs Dask: pip install "
                               "'rulebook-interpreter[cluster]'") from None
    import dataclasses
    import logging

    job = dataclasses.replace(job, path=os.path.abspath(job.path))
    cluster = None
    try:
        if scheduler == "local":
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.ERROR)
            client = Client(cluster, timeout=timeout)
        else:
            client = Client(scheduler, timeout=timeout)
    except Exception as e:  # refused, timed out, or a peer that does not speak Dask
        if cluster is not None:
            cluster.close()
        why = (str(e).splitlines()[0] if str(e) else type(e).__name__) if isinstance(
            e, (OSError, TimeoutError, ValueError)) else "it does not answer as a Dask scheduler"
        raise click.ClickException(f"cannot reach the Dask scheduler at {scheduler}: {why}"
                                   ) from None
    try:
        n = len(client.scheduler_info().get("workers", {})) or workers
        size = max(1, min(50, len(seeds) // (n * 8)))
        starts = list(range(seeds.start, seeds.stop, size))
        futures = [client.submit(_chunk, job, a, min(a + size, seeds.stop), given, pure=False)
                   for a in starts]
        for f in futures:
            try:
                chunk = f.result()
            except Exception as e:  # a worker lost, a task that could not run there
                raise click.ClickException(f"the Dask cluster at {scheduler} failed: "
                                           f"{type(e).__name__}: {e}") from None
            yield from chunk
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# ------------------------------------------------------------ output
def _md(value) -> str:
    """Ruleset text in a Markdown table cell, shown literally."""
    text = html.escape(str(value), quote=False)
    for ch in "\\|`*_[]":
        text = text.replace(ch, "\\" + ch)
    return text.replace("\n", " ")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(row) -> str:
    lo, hi = row["ci95"]
    return f"{_pct(lo)}–{_pct(hi)}"


def _num(x) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _tables(rep: dict) -> list:
    """The report as (title, intro, header, rows) tables; cells are plain text."""
    out = []
    out.append(("Wins per seat", "A game with no single winner counts as a tie.",
                ["seat", "games", "wins", "win rate", "95% interval", "shared wins"],
                [[s["seat"], s["games"], s["wins"], _pct(s["rate"]), _ci(s), s["shared_wins"]]
                 for s in rep["seats"]]
                + [["tie", rep["finished"], rep["ties"],
                    _pct(rep["ties"] / rep["finished"]) if rep["finished"] else "-", "", ""]]))
    f = rep["first_player"]
    if f["games"]:
        out.append(("First player", "The player whose turn came first once the rounds began "
                    "(whichever seat that was), against an even share of the wins.",
                    ["moved first", "games", "wins", "win rate", "95% interval", "even share",
                     "advantage"],
                    [[b["seat"], b["games"], b["wins"], _pct(b["rate"]), _ci(b), "", ""]
                     for b in f.get("by_seat", [])]
                    + [["any seat", f["games"], f["wins"], _pct(f["rate"]), _ci(f),
                        _pct(f["expected"]), f"{100 * f['advantage']:+.1f} points"]]))
    else:
        out.append(("First player", "No game had turns: nobody moved first.", [], []))
    stat_cols = ["games", "mean", "min", "p10", "median", "p90", "max"]
    rows = []
    for label, key in (("rounds played", "length"), ("score margin (1st - 2nd)", "margins"),
                       ("lead changes", "lead_changes")):
        st = rep[key]
        rows.append([label] + [_num(st.get(c, "-")) for c in stat_cols])
    out.append(("Game length, margins and drama",
                "Lead changes: how often the sole leader after a round differs from the "
                f"last one; {rep['lead_changes'].get('games_with_a_change', 0)} game(s) had one"
                + ("" if rep["lead_changes"].get("games_led_before_the_end") else
                   " (no player led alone before the end of any game: scores that count only "
                   "at the end show no lead changes)") + ". "
                f"The winner did not have the top score in "
                f"{rep['margins'].get('winner_not_top_score', 0)} game(s).",
                ["measure"] + stat_cols, rows))
    seats = [s["seat"] for s in rep["seats"]]
    for name, opt in rep["options"].items():
        intro = (("drawn at random" if opt["random"] else "as set") +
                 f"; outcome shift {_pct(opt['shift'])} (the share of outcomes that would "
                 "move if every value gave the overall result)")
        out.append((f"Option {name}", intro,
                    ["value", "games", "shift"] + [f"{s} wins" for s in seats] + ["ties"],
                    [[json.dumps(v["value"]) if not isinstance(v["value"], str) else v["value"],
                      v["games"], _pct(v["shift"])]
                     + [f"{_pct(v['seats'][s]['rate'])} ({_ci(v['seats'][s])})"
                        if v["seats"][s]["games"] else "-" for s in seats] + [v["ties"]]
                     for v in opt["values"]]))
    for zone, rows in rep["held"].items():
        out.append((f"Held in {zone} at the start",
                    f"Each player held one component in its zone {zone} when the first round "
                    "began; the win rate of whoever held each one.",
                    ["component", "held", "wins", "win rate", "95% interval", "by seat"],
                    [[r["component"], r["games"], r["wins"], _pct(r["rate"]), _ci(r),
                      ", ".join(f"{s} {k}" for s, k in r["seats"].items())] for r in rows]))
    fl = rep["failures"]
    if rep["failed"]:
        out.append(("Failed games", f"{rep['failed']} game(s) failed: " +
                    ", ".join(f"{c} {k}" for c, k in fl["codes"].items()),
                    ["seed", "code", "error"],
                    [[e["seed"], e["code"], e["error"]] for e in fl["first"]]))
    return out


def _title(rep: dict) -> str:
    t = f"Balance report: {rep['name']} ({rep['ruleset']})"
    return t + (f", variant {rep['variant']}" if rep["variant"] else "")


def _setup_line(rep: dict) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in rep["options_given"].items())
    return (f"{rep['games']} games (seeds {rep['seed']}..{rep['seed'] + rep['games'] - 1}), "
            f"{rep['finished']} finished, {rep['failed']} failed; agents {rep['agents']}"
            + (f"; players {rep['players']}" if rep["players"] else "")
            + (f"; options {opts}" if opts else ""))


def to_markdown(rep: dict) -> str:
    lines = [f"# {_md(_title(rep))}", "", _md(_setup_line(rep)), ""]
    for title, intro, header, rows in _tables(rep):
        lines += [f"## {_md(title)}", "", _md(intro), ""]
        if header:
            lines += ["| " + " | ".join(_md(h) for h in header) + " |",
                      "|" + "---|" * len(header)]
            lines += ["| " + " | ".join(_md(c) for c in row) + " |" for row in rows]
            lines.append("")
    return "\n".join(lines)


def charts(rep: dict) -> list:
    """What each chart shows, as data (charts.draw lays them out): a title, the
    bars (x labels or numbers, heights, error bars), the axes' ranges and
    labels. Counts over whole numbers (rounds, lead changes) get an axis
    one step wider than the values on each side and whole-number ticks, so
    a single value reads as one bar among its neighbours, not as the whole
    axis; a count that is the same in every game is said in the report's
    table instead."""
    out: list[dict] = []
    seats = rep["seats"]
    if seats:
        even = rep["first_player"]["expected"] or (1 / len(seats))
        out.append({"title": "Win rate per seat", "kind": "bars",
                    "x": [str(s["seat"]) for s in seats], "y": [s["rate"] for s in seats],
                    "err": [[_r(s["rate"] - s["ci95"][0]) for s in seats],
                            [_r(s["ci95"][1] - s["rate"]) for s in seats]],
                    "line": {"y": _r(even), "label": "even share"},
                    "ylim": [0, 1], "xlabel": "seat", "ylabel": "win rate (95% interval)"})
    for title, key, xlabel in (("Game length", "length", "rounds"),
                               ("Lead changes per game", "lead_changes", "lead changes")):
        hist = rep[key].get("histogram") or []
        if not hist or (key == "lead_changes" and len(hist) == 1):
            continue  # no histogram, or every game alike: the table says it
        xs = [h[0] for h in hist]
        out.append({"title": title, "kind": "counts", "x": xs, "y": [h[1] for h in hist],
                    "xlim": [min(xs) - 1, max(xs) + 1], "xlabel": xlabel, "ylabel": "games"})
    names = [s["seat"] for s in seats]
    for name, opt in rep["options"].items():
        values = opt["values"]
        if not 2 <= len(values) <= 30 or not names:
            continue
        out.append({"title": f"Win rate by option {name}", "kind": "grouped",
                    "x": [str(v["value"]) for v in values],
                    "groups": {str(seat): [v["seats"][seat]["rate"] for v in values]
                               for seat in names},
                    "ylim": [0, 1], "xlabel": name, "ylabel": "win rate"})
    margins = rep.get("_margins") or []
    if margins:
        out.append({"title": "Score margins", "kind": "histogram", "values": list(margins),
                    "bins": min(30, max(5, len(set(margins)))),
                    "xlabel": "score margin, first minus second", "ylabel": "games"})
    return out


def to_html(rep: dict, margins: list | None = None) -> str:
    """The report as one page (templates/html/report.html): the charts of
    charts() drawn by charts.py, then the tables of the Markdown report."""
    from .charts import draw
    from .pages import render

    drawn = [(c["title"], draw(c)) for c in charts({**rep, "_margins": margins or []})]
    return render("report.html", title=_title(rep), setup=_setup_line(rep), charts=drawn,
                  tables=_tables(rep))


# ------------------------------------------------------------ the command
def build(program: Program, job: Job, path: str | Path, seeds: range, workers: int,
          scheduler: str | None = None, timeout: float = 10.0,
          advance: Callable[[], None] = lambda: None) -> tuple[dict, list, list]:
    """Play the seeds (locally, or on Dask) and return (report, margins,
    records). A game that rejects its options gives a record with code OPTION."""
    from .simulate import records as local_records

    if scheduler:
        source = _dask_records(job, seeds, scheduler, workers, timeout, str(path))
    else:
        source = local_records(program, job, seeds, workers)
    recs = []
    for rec in source:
        recs.append(rec)
        advance()
    rs = program.rs
    meta = {"ruleset": rs.id, "name": rs.name, "variant": job.variant, "seed": seeds.start,
            "agents": job.agents, "players": job.players,
            "options_given": {k: str(v) for k, v in sorted(job.options.items())}}
    choices = {k: list(o["choices"]) for k, o in rs.options.items()}
    rep = summarize(recs, meta, choices)
    margins = []
    for r in recs:
        sc = r["scores"]
        if r["code"] is None and sc and len(sc) >= 2:
            top = sorted(sc.values(), reverse=True)
            margins.append(top[0] - top[1])
    return rep, margins, recs
