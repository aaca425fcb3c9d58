"""`rulebook coverage PATH`: which rules, cards, branches, triggers and
decisions a ruleset's scenarios and some seeded random games ran, and which
never ran.

How it counts: every program is compiled by the reference back end (its
generated lines map one to one onto the rule files' statements), and while
the games play, a trace function sees each generated line run in the rule
code (frames of other files are not traced: they cost one call each). Only
a step *forward* to a line counts (a loop going round again steps back), so
a statement's count is how many times it was started, however often it
looped. The counts are kept per program (a scenario compiles its own, with
its functions added) and summed by place in the rule files.

Names (what the report prints and game.yaml `coverage: unreachable:` names):

  setup / finish / summary        the game block's parts
  phase NAME / function NAME      (an overridden version: "... at FILE:LINE")
  handler of EVENT [on CARD]      (two alike: "... at FILE:LINE")
  ability 'LABEL' [of CARD]
  card ID                         a component with rules: any of them ran
  if|elif|else FILE:LINE          an arm of an if (else: the if's line)
  when FILE:LINE / when-false FILE:LINE   a handler's condition held / failed
  option FILE:LINE                an option of a choose
  trigger EVENT FILE:LINE / window NAME FILE:LINE
  decision NAME                   asked (labels chosen are listed with it)

FILE is relative to the ruleset folder; two names alike get :COL added.
"""
from __future__ import annotations

import os
import re
import sys
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from ..language import ast as A
from ..run.builtins import RULES_FILE
from ..support import terminal
from .commands import agents_for, esc, program_or_exit, seat_options
from ..support.diagnostics import DiagnosticError
from ..run.engine import Game, load_program

if TYPE_CHECKING:
    from rich.console import Console

    from ..run.program import Program

KINDS = ("rule", "card", "branch", "trigger", "decision")


# ------------------------------------------------------------------ tracing
class _Counts:
    """One program's forward steps per generated line, and where its
    generated functions start."""

    def __init__(self, program):
        self.program = program
        self.source = program.compiled.source.splitlines()
        self.fwd = [0] * (len(self.source) + 2)
        self.histories: list = []
        self._lines: dict | None = None
        comp = program.compiled
        self.owner = {h[5]: h[3] for h in comp.handlers}
        self.owner.update({a[4]: a[2] for a in comp.abilities})

    def _index(self):
        self._lines, self.def_at = {}, []
        current = 0
        for i, (sp, text) in enumerate(zip(self.program.linemap, self.source), 1):
            if text.startswith("def "):
                current = i
            self.def_at.append(current)
            self._lines.setdefault(_key(sp), []).append(i)

    def firsts(self, key, test=None) -> list:
        """In each generated function, the first line of the span `key` that
        passes test(text)."""
        if self._lines is None:
            self._index()
        out, seen = [], set()
        for ln in (self._lines or {}).get(key, ()):
            d = self.def_at[ln - 1]
            if d not in seen and (test is None or test(self.source[ln - 1].strip())):
                seen.add(d)
                out.append(ln)
        return out

    def at(self, lineno) -> int:
        return self.fwd[lineno] if 0 < lineno < len(self.fwd) else 0

class Tracer:
    def __init__(self):
        self.progs: dict = {}  # id(program namespace) -> _Counts

    def add(self, program: Program) -> _Counts:
        got = self.progs.get(id(program.ns))
        if got is None or got.program is not program:
            got = self.progs[id(program.ns)] = _Counts(program)
        return got

    def _call(self, frame, event, arg):
        code = frame.f_code
        if code.co_filename != RULES_FILE or code.co_name[:1] == "<":
            return None
        counts = self.progs.get(id(frame.f_globals))
        if counts is None:
            return None
        fwd = counts.fwd
        prev = 0

        def local(frame, event, arg):
            nonlocal prev
            if event == "line":
                ln = frame.f_lineno
                if ln > prev:
                    fwd[ln] += 1
                prev = ln
            return local
        return local

    @contextmanager
    def on(self) -> Iterator[None]:
        old = sys.gettrace()
        sys.settrace(self._call)
        try:
            yield
        finally:
            sys.settrace(old)


_REAL: dict = {}


def _key(sp):
    p = _REAL.get(sp.path)
    if p is None:
        p = _REAL[sp.path] = os.path.realpath(sp.path) if sp.path[:1] != "<" else sp.path
    return (p, sp.line, sp.col)


# ------------------------------------------------------------------ items
@dataclass
class Item:
    kind: str
    name: str
    where: str
    count: int = 0
    status: str = "never ran"
    why: str = ""
    labels: dict = field(default_factory=dict)
    note: str = ""
    probe: list = field(default_factory=list)  # how to count it (see _measure)
    col: int = 0


def _walk(node):
    """Every node under node (itself included), in source order."""
    if isinstance(node, A.Node):
        yield node
        for f in fields(node):
            if f.name != "span":
                yield from _walk(getattr(node, f.name))
    elif isinstance(node, (list, tuple)):
        for x in node:
            yield from _walk(x)


_DEF = re.compile(r"def (\w+)\(")
_IF = re.compile(r"(el)?if ")


def _items(program, root: str) -> list:
    rs, comp = program.rs, program.compiled
    counts = _Counts(program)

    def where(sp, col=False):
        p = _key(sp)[0]
        rel = os.path.relpath(p, root) if os.path.isabs(p) else p
        if rel.startswith(".."):
            rel = p
        return f"{rel}:{sp.line}" + (f":{sp.col}" if col else "")

    handlers = {h[5]: h for h in comp.handlers}
    abilities = {a[4]: a for a in comp.abilities}
    phases = {fn: name for name, fn in comp.phases}
    # the copies of an item (`count:`) share one text of rules: one name for all
    shown = {c.id: c.id.rsplit("-", 1)[0] if c.copies else c.id for c in rs.components}
    out: list = []
    named: dict = {}
    owners: dict = {}
    for i, text in enumerate(counts.source, 1):
        m = _DEF.match(text)
        if not m:
            continue
        fn, sp = m.group(1), program.linemap[i - 1]
        ver = re.match(r"o\d+(.*)", fn)
        base = ver.group(1) if ver else fn
        owner = None
        if base in ("g_setup", "g_finish", "g_summary"):
            name = base[2:]
        elif base.startswith("p_"):
            name = f"phase {phases.get(base, base[2:])}"
        elif base.startswith("f_") and not base.startswith("f__"):
            name = f"function {base[2:]}"
        elif base in handlers:
            ev, _, _, owner, instead, _ = handlers[base]
            name = f"{'instead ' if instead else ''}handler of {ev}" + \
                (f" on {shown.get(owner, owner)}" if owner else "")
        elif base in abilities:
            label, owner = abilities[base][1:3]
            name = f"ability {label!r}" + (f" of {shown.get(owner, owner)}" if owner else "")
        else:
            continue  # the rounds limit, an ability's condition, scenario code
        if ver:
            name += f" at {where(sp)}"
        probe = ("def", _key(sp), _role(fn), owner)
        it = named.get((name, where(sp)))
        if it is None:
            it = named[(name, where(sp))] = Item("rule", name, where(sp), probe=[probe])
            out.append(it)
        else:  # another copy's
            it.probe.append(probe)
        if owner is not None:
            owners.setdefault(shown.get(owner, owner), []).append(it)
    _unique(out, lambda it: f"{it.name} at {it.where}")
    # cards: components with rules (the copies of one item as one card), ran
    # when any of their handlers or abilities did
    done = set()
    for c in rs.components:
        card = shown[c.id]
        if c.rules is not None and card not in done:
            done.add(card)
            mine = list({id(r): r for r in owners.get(card, [])}.values())
            out.append(Item("card", f"card {card}", mine[0].where if mine else "",
                            probe=[("card", mine)]))
    # branches, triggers and decisions, from the rules' syntax trees
    tops = [it for m in rs.modules for it in m.items] + \
        [it for c in rs.components if c.rules is not None for it in c.rules.items]
    branches = []
    for top in tops:
        if isinstance(top, A.On) and top.cond is not None:
            k = _key(top.cond.span)
            branches.append(Item("branch", "", where(top.cond.span), probe=[("when", k, _key(
                top.span), ...)], note="when", col=top.cond.span.col))
            branches.append(Item("branch", "", where(top.cond.span), probe=[("unless", k)],
                                 note="when-false", col=top.cond.span.col))
        for n in _walk(getattr(top, "body", None) if not isinstance(top, A.Game) else
                       [top.setup, top.finish, top.summary]):
            if isinstance(n, A.If):
                for j, (c, _) in enumerate(n.branches):
                    branches.append(Item("branch", "", where(c.span), probe=[("arm", _key(c.span))],
                                         note="if" if j == 0 else "elif", col=c.span.col))
                if n.orelse is not None:
                    branches.append(Item("branch", "", where(n.span),
                                         probe=[("else", _key(n.span))],
                                         note="else", col=n.span.col))
            elif isinstance(n, A.Choose):
                for j, o in enumerate(n.options):
                    if isinstance(o, (A.Option, A.NumberOption)):  # (a number entry is one)
                        branches.append(Item("branch", "", where(o.span),
                                             probe=[("option", _key(o.span), j)], note="option",
                                             col=o.span.col))
                dname = n.name or f"choice@{n.span.line}"
                out.append(Item("decision", f"decision {dname}", where(n.span),
                                probe=[("start", _key(n.span))], note=dname))
            elif isinstance(n, A.Trigger):
                out.append(Item("trigger", f"trigger {n.event} {where(n.span)}", where(n.span),
                                probe=[("start", _key(n.span))], col=n.span.col))
            elif isinstance(n, A.Window):
                out.append(Item("trigger", f"window {n.name} {where(n.span)}", where(n.span),
                                probe=[("start", _key(n.span))], col=n.span.col))
                # a window is asked as a decision of its name: the abilities used
                out.append(Item("decision", f"decision {n.name}", where(n.span),
                                probe=[("start", _key(n.span))], note=n.name))
    for b in branches:
        b.name = f"{b.note} {b.where}"
    out += branches
    # the rules of copies of a component are one text: count its branches once
    once, seen_probe = [], set()
    for it in out:
        if it.kind in ("branch", "trigger"):
            if (it.note, tuple(it.probe)) in seen_probe:
                continue
            seen_probe.add((it.note, tuple(it.probe)))
        once.append(it)
    out = once
    _unique([it for it in out if it.kind in ("branch", "trigger")],
            lambda it: f"{it.name}:{it.col}")
    # one decision item per name (a name may be asked at several places)
    merged: list = []
    seen: dict = {}
    for it in out:
        if it.kind == "decision":
            if it.name in seen:
                if it.probe[0] not in seen[it.name].probe:
                    seen[it.name].probe.append(it.probe[0])
                continue
            seen[it.name] = it
        merged.append(it)
    _unique(merged, lambda it: it.name)

    def order(pair):
        seq, it = pair
        file, _, line = it.where.rpartition(":")
        return (KINDS.index(it.kind), file, int(line) if line.isdigit() else 0,
                it.name.startswith("else "), it.col, seq)  # an else after its if's arms
    return [it for _, it in sorted(enumerate(merged), key=order)]


def _unique(items, longer):
    """Items whose names are alike get the longer form of their names."""
    n = Counter(it.name for it in items)
    for it in items:
        if n[it.name] > 1:
            it.name = longer(it)
    n = Counter(it.name for it in items)
    seen: Counter = Counter()
    for it in items:
        if n[it.name] > 1:
            seen[it.name] += 1
            it.name = f"{it.name} #{seen[it.name]}"


_TESTS = {
    "arm": lambda t: _IF.match(t) is not None and not t.startswith("if G.fuel"),
    "else": lambda t: t == "else:",
    "unless": lambda t: t.startswith("if not ("),
}


def _measure(probe: tuple, c: _Counts) -> int:
    """How many times the thing probe names ran in one program's games:
    ("def", span, role, owner) a generated function's body was entered;
    ("arm"|"else"|"unless", span) the line after that test's line ran;
    ("option", span, k) option k's rules ran; ("start", span) a statement
    began; ("when", cond span, handler span, owner) a handler's condition held."""
    kind, key = probe[0], probe[1]
    if kind == "def":
        total = 0
        for ln in c.firsts(key, lambda t: t.startswith("def ")):
            m = _DEF.match(c.source[ln - 1])
            assert m is not None  # a line that starts with "def "
            fn = m.group(1)
            if _role(fn) == probe[2] and probe[3] in (..., c.owner.get(fn)):
                total += c.at(ln + 1)
        return total
    if kind == "option":
        pat = re.compile(rf"(el)?if _c\d+ is not None and _c\d+\[0\] == {probe[2]}:")
        return sum(c.at(ln + 1) for ln in c.firsts(key, lambda t: pat.match(t) is not None))
    if kind in _TESTS:
        return sum(c.at(ln + 1) for ln in c.firsts(key, _TESTS[kind]))
    if kind == "start":
        return sum(c.at(ln) for ln in c.firsts(key))
    if kind == "when":
        return _measure(("def", probe[2], "h_", probe[3]), c) - _measure(("unless", key), c)
    return 0


def _role(fn: str) -> str:
    """What a generated function is, apart from its place in a list (which a
    variant or a scenario may change): its span tells the rest."""
    base = re.sub(r"^o\d+", "", fn)
    if base.startswith("g_"):
        return base
    if base.startswith("a_") and base.endswith("_cond"):
        return "cond"
    return base[:2]


# ------------------------------------------------------------------ running
def _scenario_files(root: Path) -> list:
    return sorted(p for p in root.rglob("*.scenario.yaml") if p.is_file())


@contextmanager
def _reference_scenarios(tracer):
    """Scenario programs compiled by the reference back end, and traced."""
    from . import scenario as S

    real = S.load_program

    def load(*a, **k):
        k["backend"] = "reference"
        program, diags = real(*a, **k)
        if program is not None:
            tracer.add(program)
        return program, diags
    S.load_program = load
    try:
        yield
    finally:
        S.load_program = real


def _tally(items, c: _Counts, labels: dict):
    """Add one program's counts to the items', its games' choices to labels."""
    for h in c.histories:
        for _, dname, label in h:
            labels.setdefault(dname, Counter())[str(label)] += 1
    for it in items:
        if it.kind != "card":
            it.count += sum(_measure(pr, c) for pr in it.probe)


def cover(path: str | Path, games: int = 20, seed: int = 0, agents: str = "random",
          variant: str | None = None, options: dict | None = None, players: int | None = None,
          scenarios: bool = True, max_steps: int | None = None, fmt: str = "text") -> dict:
    """The coverage report as plain data (see the module's docstring)."""
    return cover_all(path, [variant], games, seed, agents, options, players, scenarios,
                     max_steps, fmt)[0]


def cover_all(path: str | Path, variants: list, games: int = 20, seed: int = 0,
              agents: str = "random", options: dict | None = None, players: int | None = None,
              scenarios: bool = True, max_steps: int | None = None,
              fmt: str = "text") -> list:
    """One report per variant (None: the base game), from one run of the
    scenarios, which every report counts, and `games` random games of each."""
    from .scenario import run_scenario_file

    root = Path(path)
    plans = []
    for variant in variants:
        opts = dict(options or {})
        program = program_or_exit(path, "json" if fmt == "json" else "text", variant, opts,
                           backend="reference")
        seated = seat_options(program, opts, players)
        agents_for(agents, program, seed, seated, players)  # a bad --agents fails here
        # the full ruleset (syntax trees kept): a program not shared with the cache
        full, diags = load_program(path, [], variant=variant, options=opts,
                                   backend="reference")
        if full is None:
            program_errors = [d for d in diags if d.severity == "error"]
            from .commands import fail
            fail(program_errors)
        plans.append(_Plan(variant, program, full, seated, _items(full, os.path.realpath(root))))
    tracer = Tracer()
    warnings, ran_scenarios = [], []
    mine = {id(tracer.add(plan.full)) for plan in plans}
    if scenarios:
        with _reference_scenarios(tracer):
            for f in _scenario_files(root):
                with tracer.on():
                    try:
                        res = run_scenario_file(f, ruleset=root)  # (for it alone)
                    except DiagnosticError as e:  # (the runner reports, but be sure)
                        res = None
                        warnings.append(f"scenario {os.path.relpath(f, root)}: "
                                        f"{e.diagnostics[0].short() if e.diagnostics else e}")
                rel = os.path.relpath(f, root)
                if res is not None:
                    ran_scenarios.append({"file": rel, "ok": res.ok})
                    if not res.ok:
                        d = res.diagnostics[0] if res.diagnostics else None
                        warnings.append(f"scenario {rel} failed"
                                        + (f": {d.short()}" if d else ""))
                    if res.game is not None:
                        tracer.add(res.game.program).histories.append(res.game.history)
                for key, c in list(tracer.progs.items()):  # counted, then let go
                    if id(c) not in mine:
                        for plan in plans:
                            _tally(plan.items, c, plan.labels)
                        del tracer.progs[key]
    return [_report(plan, tracer, games, seed, agents, players, max_steps, ran_scenarios,
                    list(warnings)) for plan in plans]


@dataclass
class _Plan:
    variant: str | None
    program: Program
    full: Program
    seated: dict
    items: list
    labels: dict = field(default_factory=dict)


def _report(plan, tracer, games, seed, agents, players, max_steps, ran_scenarios,
            warnings) -> dict:
    """One variant's random games, then its report."""
    full, seated, items, labels, variant = (plan.full, plan.seated, plan.items, plan.labels,
                                            plan.variant)
    program = plan.program
    mine = tracer.add(full)
    failed = 0
    for s in range(seed, seed + games):
        game = None
        try:
            game = Game(full, seed=s, options=seated, players=players, steps=max_steps,
                        agents=agents_for(agents, full, s, seated, players))
            with tracer.on():
                game.run()
        except DiagnosticError as e:
            failed += 1
            warnings.append(f"seed {s}: " + (e.diagnostics[0].short() if e.diagnostics
                                             else str(e)))
        if game is not None:
            mine.histories.append(game.history)
    _tally(items, mine, labels)
    by_name = {it.name: it for it in items}
    for it in items:
        if it.kind == "card":
            it.count = sum(r.count for r in it.probe[0][1])
        if it.kind == "decision":
            got = labels.get(it.note, Counter())
            it.labels = dict(sorted(got.items(), key=lambda kv: (-kv[1], kv[0])))
            if it.count and not got:
                it.note = "never more than one option"
            else:
                it.note = ""
        else:
            it.note = ""
        it.status = "ran" if it.count > 0 else "never ran"
    # unreachable by design (game.yaml coverage: unreachable:)
    listed = (program.rs.coverage or {}).get("unreachable") or []
    for entry in listed:
        name = entry.get("name") if isinstance(entry, dict) else entry
        why = entry.get("why", "") if isinstance(entry, dict) else ""
        it = by_name.get(str(name))
        if it is None:
            warnings.append(f"coverage: unreachable names {name!r}, which is no item of the "
                            "report")
        elif it.count > 0:
            warnings.append(f"coverage: {name!r} is listed as unreachable but ran "
                            f"{it.count} time(s)")
        else:
            it.status, it.why = "unreachable by design", str(why or "")
    summary = {}
    for kind in KINDS:
        ks = [it for it in items if it.kind == kind and it.status != "unreachable by design"]
        ran = sum(1 for it in ks if it.count)
        summary[kind] = {"ran": ran, "total": len(ks),
                         "percent": round(100.0 * ran / len(ks), 1) if ks else 100.0}
    return {
        "ruleset": program.rs.id, "variant": variant, "games": games, "seed": seed,
        "failed_games": failed, "scenarios": ran_scenarios, "summary": summary,
        "items": [{"kind": it.kind, "name": it.name, "where": it.where, "count": it.count,
                   "status": it.status, **({"why": it.why} if it.why else {}),
                   **({"labels": it.labels} if it.kind == "decision" else {}),
                   **({"note": it.note} if it.note else {})} for it in items],
        "never_ran": [it.name for it in items if it.status == "never ran"],
        "by_design": [{"name": it.name, "why": it.why} for it in items
                      if it.status == "unreachable by design"],
        "warnings": warnings,
    }


# ------------------------------------------------------------------ output
def _labels_text(labels: dict, most=6) -> str:
    if not labels:
        return ""
    if len(labels) > most * 2:  # many labels: by what comes before ':'
        grouped: Counter = Counter()
        for k, v in labels.items():
            grouped[k.split(":", 1)[0] + (":*" if ":" in k else "")] += v
        labels = dict(sorted(grouped.items(), key=lambda kv: (-kv[1], kv[0])))
    shown = [f"{k} ×{v}" for k, v in list(labels.items())[:most]]
    more = len(labels) - most
    return ", ".join(shown) + (f", +{more} more" if more > 0 else "")


def _plural(kind: str) -> str:
    return "branches" if kind == "branch" else kind + "s"


def _status_text(it: dict) -> str:
    if it["status"] == "unreachable by design":
        return "unreachable by design" + (f" ({it['why']})" if it.get("why") else "")
    return it["status"]


def print_report(rep: dict, console: Console | None = None) -> None:
    from rich.table import Table

    console = console or terminal.console()
    head = f"coverage of {rep['ruleset']}" + (f", variant {rep['variant']}" if rep["variant"]
                                               else "")
    console.print(f"[bold]{esc(head)}[/bold]: {len(rep['scenarios'])} scenario(s), "
                  f"{rep['games']} random game(s) from seed {rep['seed']}")
    t = Table()
    for col in ("kind", "name", "where", "runs", "status"):
        t.add_column(col, justify="right" if col == "runs" else "left")
    for it in rep["items"]:
        extra = _labels_text(it.get("labels", {}))
        name = it["name"] + (f"\n  {extra}" if extra else "") + \
            (f"\n  ({it['note']})" if it.get("note") else "")
        st = _status_text(it)
        style = "red" if it["status"] == "never ran" else "yellow" if it["status"] != "ran" \
            else ""
        t.add_row(it["kind"], esc(name), esc(it["where"]), str(it["count"]),
                  f"[{style}]{esc(st)}[/{style}]" if style else esc(st))
    console.print(t)
    for kind, s in rep["summary"].items():
        console.print(f"{_plural(kind)}: {s['ran']}/{s['total']} ran ({s['percent']}%)",
                      markup=False)
    if rep["never_ran"]:
        console.print("[bold red]never ran:[/bold red]")
        for n in rep["never_ran"]:
            console.print(f"  {esc(n)}")
    else:
        console.print("everything ran (or is unreachable by design)")
    for d in rep["by_design"]:
        console.print(f"unreachable by design: {esc(d['name'])}"
                      + (f" ({esc(d['why'])})" if d["why"] else ""))
    for w in rep["warnings"]:
        console.print(f"[yellow]warning:[/yellow] {esc(w)}")


def to_html(rep: dict) -> str:
    """The report as one page (templates/html/coverage.html)."""
    from .pages import render

    title = f"Coverage of {rep['ruleset']}" + (f", variant {rep['variant']}"
                                               if rep["variant"] else "")
    items = [{"row": {"ran": "ran", "never ran": "never"}.get(it["status"], "design"),
              "kind": it["kind"], "name": it["name"],
              "labels": _labels_text(it.get("labels", {})), "note": it.get("note", ""),
              "where": it["where"], "count": it["count"], "status": _status_text(it)}
             for it in rep["items"]]
    summary = [(_plural(k), s["ran"], s["total"], s["percent"]) for k, s in rep["summary"].items()]
    return render("coverage.html", title=title, scenarios=len(rep["scenarios"]),
                  games=rep["games"], seed=rep["seed"], summary=summary,
                  never_ran=rep["never_ran"], warnings=rep["warnings"], items=items)
