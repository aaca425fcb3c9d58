"""A board as a picture: one SVG drawn from its spaces, tracks and links.

Where the spaces go:
- a space with two number attributes `x` and `y` (or `col` and `row`) that
  no other space shares goes there, on a grid;
- the longest loop track of the spaces left goes on a circle: round the
  placed spaces, or alone when it holds at least half the board;
- the others are placed by a small spring layout along the links and
  tracks, the placed ones held still, and spaces joined to nothing in rows
  below (a board of more than 120 spaces, or one with neither links nor
  tracks nor positions, is laid out on a grid).

Everything is computed without randomness and rounded to whole pixels, so
the same board always gives the same bytes. Every text from the ruleset is
escaped: the picture is safe to put inline in a page.

Why the picture is written here and not by a template or by charts.py: it
is a drawing, not a chart (no axes, scales or values to read off: spaces
where the layout puts them, links and tracks between them, a key), and
nearly all of this module is that layout; the markup is a dozen lines
whose every attribute is a number it computed or a text it escapes, and
the docs page is its only reader, which puts it inline through
pages.built() as the one piece of HTML no template escapes.
"""
from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..load.ruleset import Ruleset

SIZE = 640  # the drawing's width and height, in pixels
MARGIN = 60
_COLOURS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
            "#8c8c8c"]


def _number(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _given(rs):
    """Positions the board's own attributes give (x/y or col/row), for the
    spaces whose position no other space shares; {} when there are none."""
    for xa, ya in (("x", "y"), ("col", "row")):
        if xa not in rs.space_attrs or ya not in rs.space_attrs:
            continue
        pos = {}
        for sid, values in rs.spaces:
            x, y = values.get(xa), values.get(ya)
            if _number(x) and _number(y):
                pos[sid] = (float(x), float(y))
        taken: dict[tuple[float, float], int] = {}
        for sid, p in pos.items():
            taken[p] = taken.get(p, 0) + 1
        pos = {sid: p for sid, p in pos.items() if taken[p] == 1}
        if len(pos) >= 2:
            return pos
    return {}


def _edges(rs):
    ids = {sid for sid, _ in rs.spaces}
    out = []
    for kind, pairs in rs.links.items():
        for a, b in pairs:
            if a in ids and b in ids and a != b:
                out.append((a, b))
    for spaces, loop in rs.tracks.values():
        seq = [s for s in spaces if s in ids]
        for a, b in zip(seq, seq[1:] + (seq[:1] if loop and len(seq) > 2 else [])):
            if a != b:
                out.append((a, b))
    return out


def _spring(ids, edges, pos, fixed, rounds=300):
    """Fruchterman-Reingold in the unit square, deterministic."""
    n = len(ids)
    k = 1.2 / math.sqrt(max(n, 1))
    temp = 0.1
    index = {s: i for i, s in enumerate(ids)}
    pairs = [(index[a], index[b]) for a, b in edges]
    p = [list(pos[s]) for s in ids]
    for _ in range(rounds):
        d = [[0.0, 0.0] for _ in ids]
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = p[i][0] - p[j][0], p[i][1] - p[j][1]
                dist = math.hypot(dx, dy) or 1e-3
                f = k * k / dist
                d[i][0] += dx / dist * f
                d[i][1] += dy / dist * f
                d[j][0] -= dx / dist * f
                d[j][1] -= dy / dist * f
        for i, j in pairs:
            dx, dy = p[i][0] - p[j][0], p[i][1] - p[j][1]
            dist = math.hypot(dx, dy) or 1e-3
            f = dist * dist / k
            d[i][0] -= dx / dist * f
            d[i][1] -= dy / dist * f
            d[j][0] += dx / dist * f
            d[j][1] += dy / dist * f
        for i, s in enumerate(ids):
            if s in fixed:
                continue
            length = math.hypot(*d[i]) or 1e-3
            step = min(length, temp)
            p[i][0] = min(1.0, max(-1.0, p[i][0] + d[i][0] / length * step))
            p[i][1] = min(1.0, max(-1.0, p[i][1] + d[i][1] / length * step))
        temp *= 0.985
    return {s: tuple(p[index[s]]) for s in ids}


def _circle(ids, r):
    out = {}
    for i, s in enumerate(ids):  # clockwise from the top
        a = 2 * math.pi * i / len(ids) - math.pi / 2
        out[s] = (r * math.cos(a), r * math.sin(a))
    return out


def layout(rs: Ruleset) -> dict:
    """space id -> (x, y) in pixels, within SIZE x SIZE."""
    ids = [sid for sid, _ in rs.spaces]
    if not ids:
        return {}
    edges = _edges(rs)
    given = _given(rs)
    fixed = {}
    if given:  # centred on 0, the larger side 1 long
        xs, ys = [p[0] for p in given.values()], [p[1] for p in given.values()]
        span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
        cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
        fixed = {s: ((x - cx) / span, (y - cy) / span) for s, (x, y) in given.items()}
    free = [s for s in ids if s not in fixed]
    loops = sorted(((len(sp), name) for name, (sp, loop) in rs.tracks.items() if loop),
                   key=lambda t: (-t[0], t[1]))
    for _n, name in loops:  # the longest loop of unplaced spaces goes round the rest
        ring = [s for s in dict.fromkeys(rs.tracks[name][0]) if s in set(free)]
        if len(ring) >= 3 and len(ring) == len(set(rs.tracks[name][0])) and (
                fixed or len(ring) * 2 >= len(ids)):
            fixed.update(_circle(ring, 0.85 if fixed else 1.0))
            break
    joined = {s for e in edges for s in e}
    alone = [s for s in ids if s not in fixed and s not in joined] if edges or fixed else []
    ids = [s for s in ids if s not in alone] or ids
    alone = [s for s in alone if s not in ids]
    free = [s for s in ids if s not in fixed]
    if len(ids) > 120 or (not fixed and not edges):
        cols = math.ceil(math.sqrt(len(ids)))
        pos = {s: (float(i % cols), float(i // cols)) for i, s in enumerate(ids)}
    elif free:
        start = dict(fixed)
        start.update(_circle(free, 0.3 if fixed else 1.0))
        pos = _spring(ids, edges, start, set(fixed)) if edges else start
    else:
        pos = fixed
    if alone:  # spaces nothing joins: in rows under the rest
        xs = [p[0] for p in pos.values()]
        ys = [p[1] for p in pos.values()]
        left, width = min(xs), (max(xs) - min(xs)) or 1.0
        per_row = max(1, min(len(alone), 6))
        gap = width / max(per_row - 1, 1)
        for i, sid in enumerate(alone):
            pos[sid] = (left + (i % per_row) * gap, max(ys) + gap * (1 + i // per_row))
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    w = (max(xs) - min(xs)) or 1.0
    h = (max(ys) - min(ys)) or 1.0
    scale = (SIZE - 2 * MARGIN) / max(w, h)
    return {s: (round(MARGIN + (x - min(xs)) * scale), round(MARGIN + (y - min(ys)) * scale))
            for s, (x, y) in pos.items()}


def _label(rs, sid, values) -> str:
    name = values.get("name")
    return str(name) if isinstance(name, str) and name else sid


def svg(rs: Ruleset, title: str = "the board", marks: dict[str, str] | None = None) -> str:
    """The board as an SVG element (text), or "" when it has no spaces;
    `marks`: a line of words to write under some spaces (what lies there)."""
    pos = layout(rs)
    if not pos:
        return ""
    width = max(x for x, _ in pos.values()) + MARGIN
    top = max(y for _, y in pos.values()) + MARGIN
    keys = len(rs.links) + sum(1 for sp, _ in rs.tracks.values() if len(sp) > 1)
    height = top + 16 * keys + 8
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}" '
           'font-family="sans-serif" font-size="11">',
           f"<title>{escape(title)}</title>"]
    legend = []
    for i, (kind, pairs) in enumerate(sorted(rs.links.items())):
        colour = _COLOURS[i % len(_COLOURS)]
        legend.append((f"{kind} link", colour, ""))
        for a, b in pairs:
            if a in pos and b in pos:
                (x1, y1), (x2, y2) = pos[a], pos[b]
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
                           f'stroke-width="2"><title>{escape(f"{kind}: {a} - {b}")}</title></line>')
    for i, (name, (spaces, loop)) in enumerate(rs.tracks.items()):
        colour = _COLOURS[(i + len(rs.links)) % len(_COLOURS)]
        seq = [s for s in spaces if s in pos]
        if len(seq) < 2:
            continue
        legend.append((f"{name} track" + (" (loop)" if loop else ""), colour, "6 3"))
        points = " ".join(f"{pos[s][0]},{pos[s][1]}" for s in seq)
        tag = "polygon" if loop else "polyline"
        out.append(f'<{tag} points="{points}" fill="none" stroke="{colour}" stroke-width="3" '
                   f'stroke-dasharray="6 3" opacity="0.7"><title>{escape(name)}</title></{tag}>')
    for sid, values in rs.spaces:
        if sid not in pos:
            continue
        x, y = pos[sid]
        label = _label(rs, sid, values)
        facts = ", ".join(f"{k}: {v}" for k, v in values.items() if k != "name")
        mark = (marks or {}).get(sid, "")
        tip = sid + (f" ({facts})" if facts else "") + (f": {mark}" if mark else "")
        under = f'<text x="{x}" y="{y + 41}" text-anchor="middle" font-size="10" ' \
            f'fill="#8a2a00">{escape(mark[:48])}</text>' if mark else ""
        out.append(f'<g><title>{escape(tip)}</title>'
                   f'<circle cx="{x}" cy="{y}" r="14" fill="{"#ffe9b3" if mark else "#ffffff"}" '
                   'stroke="#333333" stroke-width="1.5"/>'
                   f'<text x="{x}" y="{y + 28}" text-anchor="middle">{escape(label[:40])}</text>'
                   f'{under}</g>')
    for i, (text, colour, dash) in enumerate(legend):
        y = top + 16 * i
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<line x1="8" y1="{y}" x2="32" y2="{y}" stroke="{colour}" stroke-width="3"'
                   f'{extra}/><text x="38" y="{y + 4}">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out)
