"""A played game as one self-contained HTML page (`rulebook play --format html`).

The page holds the result, the score of each player after every round as a
small SVG chart, and the log grouped by round (each a collapsible block),
phase and turn. It is made from the log entries alone (or, with a seat, the
log that seat may read), so it shows exactly what the text log shows; every
text from the game is escaped, and the page loads nothing from anywhere.
"""
from __future__ import annotations

from html import escape

COLOURS = ["#2e7d32", "#c2185b", "#1565c0", "#ef6c00", "#6a1b9a", "#00838f", "#9e9d24",
           "#5d4037"]
STYLE = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
color:#222}h1{font-size:1.4rem}table{border-collapse:collapse}td,th{padding:.2rem .8rem;
border-bottom:1px solid #ddd;text-align:left}details{margin:.3rem 0;border-left:3px solid #ccc;
padding-left:.6rem}summary{cursor:pointer;font-weight:600}h3{font-size:1rem;margin:.6rem 0 .2rem}
.turn{margin:.3rem 0 0 .4rem;font-style:italic;color:#555}ul{margin:.1rem 0 .3rem;
padding-left:1.2rem}li.decision{color:#0b5394}.secret{color:#888;font-size:.85em}
svg text{font-size:11px}"""


def page(title: str, result: dict, entries: list, track: list, designer: bool) -> str:
    """The page: `entries` are log entries (the designer's, or one seat's),
    `track` the (label, scores) after each round and at the end."""
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
           f"<h1>{escape(title)}</h1>", _result(result)]
    chart = _chart(track, result)
    if chart:
        out += ["<h2>Score after each round</h2>", chart]
    out += ["<h2>Log</h2>", _log(entries, designer), "</body></html>"]
    return "\n".join(out) + "\n"


def _result(result: dict) -> str:
    rows = []
    for pid, score in result["scores"].items():
        mark = " (winner)" if pid in result["winners"] else ""
        rows.append(f"<tr><td>{escape(pid + mark)}</td><td>{escape(str(score))}</td></tr>")
    opts = ", ".join(f"{k}={v}" for k, v in result["options"].items())
    return ("<table><tr><th>player</th><th>score</th></tr>" + "".join(rows) + "</table>"
            + f"<p>seed {result['seed']}" + (f"; options: {escape(opts)}" if opts else "")
            + f"; {result['decisions']} decisions</p>")


def _chart(track: list, result: dict) -> str:
    """Lines of each player's score by round (numbers only), as inline SVG."""
    points = [(label, s) for label, s in track
              if s and all(type(v) is int for v in s.values())]
    if len(points) < 2:
        return ""
    players = list(points[0][1])
    low = min(0, *(v for _, s in points for v in s.values()))
    high = max(1, *(v for _, s in points for v in s.values()))
    w, h, pad = 560, 220, 36
    first, last = 0, len(points) - 1

    def x(i):
        return pad + (w - 2 * pad) * i / last

    def y(v):
        return h - pad - (h - 2 * pad) * (v - low) / (high - low)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'role="img" aria-label="score after each round">',
             f'<line x1="{pad}" y1="{y(low):.1f}" x2="{w - pad}" y2="{y(low):.1f}" stroke="#999"/>',
             f'<text x="{pad - 4}" y="{y(high) + 4:.1f}" text-anchor="end">{high}</text>',
             f'<text x="{pad - 4}" y="{y(low) + 4:.1f}" text-anchor="end">{low}</text>',
             f'<text x="{x(first):.1f}" y="{h - pad + 16}">{escape(points[0][0])}</text>',
             f'<text x="{x(last):.1f}" y="{h - pad + 16}" text-anchor="end">'
             f'{escape(points[-1][0])}</text>']
    for i, pid in enumerate(players):
        colour = COLOURS[i % len(COLOURS)]
        line = " ".join(f"{x(k):.1f},{y(s[pid]):.1f}" for k, (_, s) in enumerate(points)
                        if pid in s)
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{line}"/>')
        parts.append(f'<text x="{w - pad + 4}" y="{y(points[-1][1].get(pid, low)) + 4:.1f}" '
                     f'fill="{colour}">{escape(pid)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _log(entries: list, designer: bool) -> str:
    """Rounds as collapsible blocks; within them phase headings, turns and
    one list item per line."""
    out, open_round, open_list = [], None, False

    def close_list():
        nonlocal open_list
        if open_list:
            out.append("</ul>")
            open_list = False
    for e in entries:
        text = e.get("text", "")
        r = e.get("round") or 0
        if r != open_round:
            close_list()
            if open_round is not None:
                out.append("</details>")
            out.append(f"<details open><summary>{'round ' + str(r) if r else 'setup'}"
                       "</summary>")
            open_round = r
        if text.startswith("== ") and text.endswith(" =="):
            close_list()
            out.append(f"<h3>{escape(text[3:-3].split(': ', 1)[-1])}</h3>")
            continue
        if text.startswith("-- ") and text.endswith(" --"):
            close_list()
            out.append(f'<div class="turn">{escape(text[3:-3])}</div>')
            continue
        if not open_list:
            out.append("<ul>")
            open_list = True
        see = e.get("see", "all")
        mark = "" if not designer or see == "all" else \
            f' <span class="secret">[seen by {escape(", ".join(see) or "nobody")}]</span>'
        cls = ' class="decision"' if "decision" in e else ""
        out.append(f"<li{cls}>{escape(text)}{mark}</li>")
    close_list()
    if open_round is not None:
        out.append("</details>")
    return "\n".join(out)
