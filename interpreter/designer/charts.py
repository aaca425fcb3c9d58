"""The charts of every page: the log page's scores after each round and the
balance report's bars, counts and histograms, as one small vocabulary of
marks (lines, bars, dots, texts) that `templates/html/charts.html` draws as
inline SVG. A page's template calls `chart(c)` with a Chart from draw().

A chart is described as data first (the report's charts() and the log
page give a dict: its kind, its values, its axes' ranges and labels), and
draw() only lays it out: the same spec always gives the same bytes, with
no clock, no font metrics and no randomness in them.

Why one hand-made SVG stack and not matplotlib (which drew the report's
charts while the log page drew its own SVG by hand). Measured on this
machine (Python 3.11, matplotlib 3.11.2, two busy cores), each in a
fresh process: importing matplotlib.pyplot took 0.40 s, and the HTML
report of 30 games of a shipped ruleset with two options (five charts)
took 1.1 s to make (0.47 s a second time in the same process), 146 kB of
which nearly all was matplotlib's SVG (a path for every glyph). Drawn
here, the same page takes 75 to 100 ms the first time (Jinja2's import
and the templates' compiling included) and 3 to 4 ms after, for 24 kB;
the log page's chart stays a few kB. The charts are bars with intervals,
bars of counts, a histogram and score lines: a few dozen marks each,
which need no plotting library. They also gain the page's own font, text
a reader can select and a screen reader can read, and a tooltip on every
bar and point; and the package loses matplotlib, numpy, pillow and the
rest of their dependencies. What matplotlib did and this module has to
do itself: nice tick steps (1, 2, 2.5 or 5 times a power of ten; whole
numbers for counts), histogram bins (numpy's: equal widths from the least
value to the greatest, the last bin closed), and turning category labels
that would overlap.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

PALETTE = ["#4c78a8", "#e45756", "#54a24b", "#f58518", "#b279a2", "#72b7b2", "#9d755d",
           "#eeca3b"]
REFERENCE = "#d62728"  # a reference line (an even share)
CHAR = 6.2  # about the width of one character of the charts' 11 px sans-serif text
LONGEST = 24  # a label is cut there on the chart (its tooltip holds all of it)
PLOT_HEIGHT = 170


@dataclass(frozen=True)
class Shape:
    """One mark, as charts.html draws it. kind: `line` from (x, y) to
    (x2, y2); `rect` at (x, y), w wide and h high; `dot` centred on (x, y);
    `path` through `points`; `text` at (x, y), `anchor`ed, turned by `turn`
    degrees. `tip` is shown when the mark is pointed at."""
    kind: str
    x: float = 0.0
    y: float = 0.0
    x2: float = 0.0
    y2: float = 0.0
    w: float = 0.0
    h: float = 0.0
    points: str = ""
    colour: str = "#333333"
    stroke: float = 1
    dash: str = ""
    text: str = ""
    anchor: str = "start"
    turn: int = 0
    tip: str = ""


@dataclass
class Chart:
    label: str  # what the chart shows, for a screen reader
    width: int
    height: int
    shapes: list = field(default_factory=list)


# ------------------------------------------------------------ numbers on axes
def ticks(lo: float, hi: float, whole: bool = False, most: int = 6) -> list:
    """At most `most` round values from the first at or below lo to the
    first at or above hi, a step of 1, 2, 2.5 or 5 times a power of ten
    apart (whole numbers only when `whole`)."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / (most - 1)
    mag = 10.0 ** math.floor(math.log10(raw))
    step = 10 * mag
    for m in (1, 2, 2.5, 5, 10):
        s = m * mag
        if whole and (s < 1 or s != int(s)):
            continue
        if math.ceil(hi / s - 1e-9) - math.floor(lo / s + 1e-9) <= most - 1:
            step = s
            break
    if whole:
        step = max(1, int(step))
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
    return [_tidy(k * step) for k in range(first, last + 1)]


def _tidy(v: float):
    v = round(v, 10)
    return int(v) if v == int(v) else v


def number(v: float) -> str:
    """A number as an axis or a tooltip writes it."""
    if isinstance(v, float):
        v = round(v, 4)
        return str(int(v)) if v == int(v) else f"{v:g}"
    return str(v)


def _cut(text: str, longest: int = LONGEST) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= longest else text[:longest - 1] + "\u2026"


def _scale(lo, hi, a, b):
    span = (hi - lo) or 1

    def at(v):
        return _px(a + (b - a) * (v - lo) / span)
    return at


def _px(v: float):
    """A coordinate to a tenth of a pixel, written without a needless '.0'."""
    v = round(v, 1)
    return int(v) if v == int(v) else v


def histogram_bins(values: list, bins: int) -> tuple[list, list]:
    """(edges, counts) as numpy.histogram makes them: `bins` equal widths
    from the least value to the greatest (half a unit round a single
    value), each bin holding its left edge, the last one its right edge too."""
    lo, hi = min(values), max(values)
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    width = (hi - lo) / bins
    edges = [_tidy(lo + i * width) for i in range(bins)] + [_tidy(hi)]
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - lo) / width))] += 1
    return edges, counts


# ------------------------------------------------------------ the frame
class _Frame:
    """A chart's axes: the plot area, the y axis with its ticks, grid and
    label, the x axis's label, a legend above; the marks go in `shapes`.
    `names`: the categories along the x axis, if it has categories."""

    def __init__(self, spec, ylo, yhi, *, whole_y, legend=(), names=None, width=480,
                 right=16):
        self.shapes: list = []
        yt = ticks(ylo, yhi, whole_y)
        yt = [v for v in yt if ylo - 1e-9 <= v <= yhi + 1e-9] if "ylim" in spec else yt
        ylo, yhi = min([ylo] + yt), max([yhi] + yt)
        labels = [number(v) for v in yt]
        self.left = round(26 + CHAR * max(len(t) for t in labels))
        self.top = 10 + (18 if legend else 0)
        self.bottom = self.top + PLOT_HEIGHT
        self.right = width - right
        self.names = [_cut(n) for n in names or []]
        self.slot = (self.right - self.left) / max(len(self.names), 1)
        self.turn = any(CHAR * len(n) > self.slot - 4 for n in self.names)
        if self.turn:  # the first label, turned, must not run off the left edge
            self.left = max(self.left, round(CHAR * len(self.names[0]) * 0.77 + 4 - self.slot / 2))
            self.slot = (self.right - self.left) / len(self.names)
        x_room = round(18 + CHAR * max(len(n) for n in self.names) * 0.65) if self.turn else 22
        self.width, self.height = width, self.bottom + x_room + (18 if spec.get("xlabel") else 2)
        self.y = _scale(ylo, yhi, self.bottom, self.top)
        add = self.shapes.append
        for v, t in zip(yt, labels):
            add(Shape("line", self.left, self.y(v), self.right, self.y(v), colour="#e3e3e3"))
            add(Shape("text", self.left - 5, _px(self.y(v) + 4), text=t, anchor="end"))
        add(Shape("line", self.left, self.bottom, self.right, self.bottom, colour="#888888"))
        add(Shape("line", self.left, self.top, self.left, self.bottom, colour="#888888"))
        if spec.get("xlabel"):
            room = int((self.right - self.left) / CHAR)
            add(Shape("text", round((self.left + self.right) / 2), self.height - 5,
                      text=_cut(spec["xlabel"], room), anchor="middle", tip=spec["xlabel"]))
        if spec.get("ylabel"):
            mid = round((self.top + self.bottom) / 2)
            add(Shape("text", 12, mid, text=spec["ylabel"], anchor="middle", turn=-90))
        x = self.left
        for text, colour, dash in legend:
            add(Shape("line", x, 14, x + 18, 14, colour=colour, stroke=6 if not dash else 2,
                      dash=dash))
            add(Shape("text", x + 22, 18, text=_cut(text), tip=str(text)))
            x += round(30 + CHAR * len(_cut(text)))
        self.width = max(self.width, x)

    def chart(self, title: str) -> Chart:
        return Chart(title, self.width, self.height, self.shapes)

    def categories(self, names: list):
        """A slot for each of `names` (as given to the frame) along the x
        axis, labelled (turned when they would overlap): their (left, width)."""
        slot = self.slot
        out = []
        for i, (name, text) in enumerate(zip(names, self.names)):
            x0 = self.left + i * slot
            mid = _px(x0 + slot / 2)
            if self.turn:
                self.shapes.append(Shape("text", _px(mid + 3), self.bottom + 10, text=text,
                                         anchor="end", turn=-40, tip=str(name)))
            else:
                self.shapes.append(Shape("text", mid, self.bottom + 15, text=text,
                                         anchor="middle", tip=str(name)))
            out.append((x0, slot))
        return out

    def numbers(self, lo, hi, whole):
        """A numeric x axis from lo to hi, with its ticks: the scale."""
        x = _scale(lo, hi, self.left, self.right)
        for v in ticks(lo, hi, whole):
            if lo - 1e-9 <= v <= hi + 1e-9:
                self.shapes.append(Shape("line", x(v), self.bottom, x(v), self.bottom + 4,
                                         colour="#888888"))
                self.shapes.append(Shape("text", x(v), self.bottom + 15, text=number(v),
                                         anchor="middle"))
        return x

    def bar(self, x0, x1, value, colour, tip):
        top, base = self.y(value), self.y(0) if self.y(0) <= self.bottom else self.bottom
        self.shapes.append(Shape("rect", _px(x0), min(top, base), w=_px(x1 - x0),
                                 h=_px(abs(base - top)), colour=colour, tip=tip))


# ------------------------------------------------------------ the kinds
def _bars(spec) -> Chart:
    """Bars per category, with error bars and a dashed reference line."""
    xs, ys = spec["x"], spec["y"]
    lo_err, hi_err = spec.get("err") or ([0] * len(ys), [0] * len(ys))
    line = spec.get("line")
    legend = [(line["label"], REFERENCE, "5 3")] if line else []
    ylo, yhi = spec.get("ylim") or (0, max([1] + [y + e for y, e in zip(ys, hi_err)]))
    f = _Frame(spec, ylo, yhi, whole_y=False, legend=legend, names=xs)
    for (x0, slot), name, y, lo, hi in zip(f.categories(xs), xs, ys, lo_err, hi_err):
        tip = f"{name}: {number(y)}" + (f" ({number(y - lo)} to {number(y + hi)})"
                                        if lo or hi else "")
        f.bar(x0 + slot * 0.1, x0 + slot * 0.9, y, PALETTE[0], tip)
        if lo or hi:
            mid = _px(x0 + slot / 2)
            f.shapes.append(Shape("line", mid, f.y(y - lo), mid, f.y(y + hi), stroke=1.5))
            for v in (y - lo, y + hi):
                f.shapes.append(Shape("line", _px(mid - 5), f.y(v), _px(mid + 5), f.y(v),
                                      stroke=1.5))
    if line:
        f.shapes.append(Shape("line", f.left, f.y(line["y"]), f.right, f.y(line["y"]),
                              colour=REFERENCE, stroke=1.5, dash="5 3",
                              tip=f"{line['label']}: {number(line['y'])}"))
    return f.chart(spec["title"])


def _counts(spec) -> Chart:
    """Bars over whole numbers (how many games had each count)."""
    xs, ys = spec["x"], spec["y"]
    lo, hi = spec.get("xlim") or (min(xs) - 1, max(xs) + 1)
    f = _Frame(spec, 0, max(ys), whole_y=True)
    x = f.numbers(lo, hi, whole=True)
    for v, n in zip(xs, ys):
        f.bar(x(v - 0.4), x(v + 0.4), n, PALETTE[5],
              f"{spec.get('xlabel', '')} {number(v)}: {n} {spec.get('ylabel', '')}".strip())
    return f.chart(spec["title"])


def _histogram(spec) -> Chart:
    """A histogram of numbers, in spec["bins"] bins."""
    edges, counts = histogram_bins(spec["values"], spec["bins"])
    f = _Frame(spec, 0, max(counts), whole_y=True)
    x = f.numbers(edges[0], edges[-1], whole=False)
    for a, b, n in zip(edges, edges[1:], counts):
        if n:
            f.bar(x(a), x(b), n, PALETTE[3],
                  f"{number(a)} to {number(b)}: {n} {spec.get('ylabel', '')}".strip())
    return f.chart(spec["title"])


def _grouped(spec) -> Chart:
    """Bars per category, one per group side by side, with a legend."""
    xs, groups = spec["x"], spec["groups"]
    k = max(len(groups), 1)
    colours = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(groups)}
    width = max(480, round(60 + 14 * len(xs) * k))
    ylo, yhi = spec.get("ylim") or (0, max([1] + [v for ys in groups.values() for v in ys]))
    f = _Frame(spec, ylo, yhi, whole_y=False, legend=[(g, colours[g], "") for g in groups],
               names=xs, width=width)
    for i, ((x0, slot), name) in enumerate(zip(f.categories(xs), xs)):
        bar = slot * 0.8 / k
        for j, (group, ys) in enumerate(groups.items()):
            left = x0 + slot * 0.1 + j * bar
            f.bar(left, left + bar, ys[i], colours[group], f"{group}, {name}: {number(ys[i])}")
    return f.chart(spec["title"])


def _lines(spec) -> Chart:
    """One line per series over labelled points (None: no value there),
    each named at its end; the y axis holds 0 and at least 1."""
    xs, series = spec["x"], spec["series"]
    values = [v for ys in series.values() for v in ys if v is not None]
    names = {name: _cut(name) for name in series}
    right = round(14 + CHAR * max((len(t) for t in names.values()), default=1))
    lo, hi = min([0] + values), max([1] + values)  # from 0 (or below) up
    f = _Frame(spec, lo, hi, whole_y=True, width=560, right=right)
    x = _scale(0, max(len(xs) - 1, 1), f.left + 6, f.right - 6)
    room = (f.right - f.left) / max(len(xs), 1)
    every = max(1, math.ceil(CHAR * max(len(str(t)) for t in xs) / max(room - 6, 1)))
    last = len(xs) - 1
    for i, text in enumerate(xs):
        if i == last or (i % every == 0 and last - i >= every):  # the last label always
            anchor = "start" if i == 0 else "end" if i == last else "middle"
            f.shapes.append(Shape("text", x(i), f.bottom + 15, text=_cut(text), anchor=anchor))
    ends = []
    for n, (name, ys) in enumerate(series.items()):
        colour = PALETTE[n % len(PALETTE)]
        known = [(i, v) for i, v in enumerate(ys) if v is not None]
        f.shapes.append(Shape("path", points=" ".join(f"{x(i)},{f.y(v)}" for i, v in known),
                              colour=colour, stroke=2))
        for i, v in known:
            f.shapes.append(Shape("dot", x(i), f.y(v), colour=colour,
                                  tip=f"{name}, {xs[i]}: {number(v)}"))
        end = ys[-1] if ys and ys[-1] is not None else lo
        ends.append([f.y(end), name, colour])
    ends.sort(key=lambda e: e[0])
    for a, b in zip(ends, ends[1:]):  # names of lines ending together, one under another
        b[0] = max(b[0], a[0] + 12)
    for y, name, colour in ends:
        f.shapes.append(Shape("text", f.right + 4, _px(y + 4), text=names[name],
                              colour=colour, tip=str(name)))
    f.height = max(f.height, round(ends[-1][0] + 10) if ends else 0)
    return f.chart(spec["title"])


KINDS = {"bars": _bars, "counts": _counts, "histogram": _histogram, "grouped": _grouped,
         "lines": _lines}


def draw(spec: dict) -> Chart:
    """The chart a spec describes (its "kind" is one of KINDS; report.py's
    charts() says what each kind's spec holds, and "lines" takes "x", the
    points' labels, and "series", each line's values by name)."""
    return KINDS[spec["kind"]](spec)
