"""A played game as one self-contained HTML page (`rulebook play --format html`).

The page holds the result, the score of each player after every round as a
chart (charts.py), and the log grouped by round (each a collapsible block),
phase and turn. It is made from the log entries alone (or, with a seat, the
log that seat may read, and the scores it may see: the command chooses
them), so it shows exactly what the text log shows. The page is
templates/html/log.html: every text from the game is escaped, and the page
loads nothing from anywhere.
"""
from __future__ import annotations

from .pages import render


def page(title: str, result: dict, entries: list, track: list, designer: bool) -> str:
    """The page: `entries` are log entries (the designer's, or one seat's),
    `track` the (label, scores) after each round and at the end."""
    players = [(pid + (" (winner)" if pid in result["winners"] else ""), str(score))
               for pid, score in result["scores"].items()]
    options = ", ".join(f"{k}={v}" for k, v in result["options"].items())
    return render("log.html", title=title, players=players, seed=result["seed"],
                  options=options, decisions=result["decisions"], chart=_chart(track),
                  rounds=_rounds(entries, designer))


def _chart(track: list):
    """Lines of each player's score by round (numbers only), or None."""
    from .charts import draw

    points = [(label, s) for label, s in track
              if s and all(type(v) is int for v in s.values())]
    if len(points) < 2:
        return None
    return draw({"kind": "lines", "title": "score after each round",
                 "x": [label for label, _ in points],
                 "series": {pid: [s.get(pid) for _, s in points] for pid in points[0][1]}})


def _rounds(entries: list, designer: bool) -> list:
    """The log as rounds (a run of entries of one round; round 0 is the
    setup), each a list of parts: ("phase", its heading), ("turn", its
    heading) or ("lines", [(text, is a decision, seen by or None)])."""
    rounds: list = []
    for e in entries:
        text = e.get("text", "")
        r = e.get("round") or 0
        if not rounds or rounds[-1]["number"] != r:
            rounds.append({"number": r, "name": f"round {r}" if r else "setup", "parts": []})
        parts = rounds[-1]["parts"]
        if text.startswith("== ") and text.endswith(" =="):
            parts.append(("phase", text[3:-3].split(": ", 1)[-1]))
        elif text.startswith("-- ") and text.endswith(" --"):
            parts.append(("turn", text[3:-3]))
        else:
            if not parts or parts[-1][0] != "lines":
                parts.append(("lines", []))
            see = e.get("see", "all")
            seen = None if not designer or see == "all" else ", ".join(see) or "nobody"
            parts[-1][1].append((text, "decision" in e, seen))
    return rounds
