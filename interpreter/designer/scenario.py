"""Scenario files: a ruleset, options, seed, rigged randomness, an arranged
state, a script of choices and expectations, checked as a test.

Arranging statements and expectations are rule-language text compiled with
the ruleset, so they can use its functions and names. Every failure is a
Diagnostic pointing into the scenario file.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

from ..language import ast as A
from ..run.agents import FirstAgent, RandomAgent, ScriptedAgent, ScriptError
from ..support.diagnostics import Diagnostic, DiagnosticError
from ..run.engine import Game, Rig, StopGame, active_seats, load_program, with_players
from ..language.parser import Source, parse_expr, parse_stmts
from ..run.savegame import variant_problem
from ..model.state import display
from ..model.views import log_for
from ..support.confine import ruleset_reach
from ..support.limits import MAX_PATH_CHARS
from ..load.yamlio import (is_dir, load_yaml, path_too_long, position, read_text, schema_diagnostics,
                     shorten)

OPS = {"==": lambda a, b: a == b if not _ent(a, b) else a is b,
       "!=": lambda a, b: a != b if not _ent(a, b) else a is not b,
       "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
       ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _ent(a, b):
    return not isinstance(a, (int, str, list, type(None))) or \
        not isinstance(b, (int, str, list, type(None)))


@dataclass
class Step:
    player: str
    choice: str
    decision: str | None
    line: int
    col: int


@dataclass(frozen=True)
class Point:
    """Where in a game something is checked or the game stops: before or after
    a phase, at the end, after the nth time a decision was carried out (by one
    player or anyone), or after the nth turn of a player."""
    when: str  # before / after / end / decided / turn / event
    phase: str | None = None
    decision: str | None = None
    player: str | None = None
    count: int = 1
    event: str | None = None

    def describe(self) -> str:
        if self.when in ("before", "after"):
            return f"{self.when} {self.phase}"
        if self.when == "decided":
            who = f"{self.player}'s " if self.player else ""
            return f"after {who}{self.decision} decision #{self.count}"
        if self.when == "turn":
            return f"after {self.player}'s turn #{self.count}"
        if self.when == "event":
            return f"after event {self.event} #{self.count}"
        return "at the end"


@dataclass
class Check:
    text: str
    line: int
    col: int
    point: Point
    round: int | None
    fn: str = ""
    left: str | None = None
    right: str | None = None
    op: str | None = None
    at: tuple = (1, 1)  # where the checkpoint is named (`after:` / `before:`)


@dataclass
class Probe:
    """What a decision offers or takes: `offered`, `not_offered`, `chosen`."""
    kind: str
    player: str | None
    decision: str
    labels: list
    exactly: bool
    count: int | None
    round: int | None
    line: int
    col: int
    seen: bool = False
    failed: bool = False


@dataclass
class ScenarioResult:
    path: Path
    ok: bool = True
    checks: int = 0
    diagnostics: list = field(default_factory=list)
    game: Game | None = None


# an expectation's kinds: one of these keys each
KINDS = ("that", "offered", "not_offered", "chosen", "asked", "logged", "not_logged")


def _log_lines(game: Game, reader: str | None) -> list[str]:
    """The log's lines as `reader` reads them: a seat, `public` (an onlooker)
    or None (the designer's complete record)."""
    if reader is None:
        return [e["text"] for e in game.log]
    side = None if reader == "public" else \
        next((p for p in game.players if p.id == reader), None)
    return [e["text"] for e in log_for(game, side)]


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


class _Scenario:
    def __init__(self, path: Path):
        self.path = path
        self.expected_ruleset: str | Path | None = None  # `play PATH --scenario FILE`: PATH
        self.diags: list[Diagnostic] = []
        self.extra: list = []
        self.checks: list[Check] = []
        self.probes: list[Probe] = []
        # (text, line, col, reader, wanted): a line that must (wanted) or must not
        # contain the text, in the log as `reader` reads it (None: the designer's)
        self.logged: list = []
        self.steps: list[Step] = []
        self.asked_log: list[tuple[int, str, str]] = []  # (round, player, decision) put
        self.doc: Any = None  # the file's mapping, once loaded

    def err(self, line, col, code, msg, hint=""):
        self.diags.append(Diagnostic(str(self.path), line, col, code, msg, hint=hint))

    def load(self) -> bool:
        doc = load_yaml(self.path, self.diags)
        if doc is None:
            if not self.diags:  # valid YAML, but no document at all
                self.err(1, 1, "SCHEMA-MISSING", "the scenario file is empty",
                         hint="it needs at least 'scenario' and 'ruleset'")
            return False
        if not isinstance(doc, dict):
            self.err(1, 1, "SCHEMA-TYPE", "a scenario file is a mapping")
            return False
        if "kind" in doc and "scenario" not in doc:
            self.err(*position(doc, "kind", at_key=True), "SCHEMA-VALUE",
                     f"this is a ruleset file (kind: {shorten(doc['kind'])}), not a scenario",
                     hint="validate the ruleset folder that holds it")
            return False
        self.diags.extend(schema_diagnostics(str(self.path), doc, "scenario"))
        if self.diags:
            return False
        self.doc = doc
        self.raw = (read_text(self.path, []) or "").splitlines()  # read and checked above
        folder = self.path.parent / doc["ruleset"]
        if path_too_long(doc["ruleset"]) or path_too_long(folder):
            self.err(*position(doc, "ruleset"), "LIMIT",
                     f"the ruleset path is {len(str(folder)):,} characters long; the limit is "
                     f"{MAX_PATH_CHARS:,}", hint="use a shorter folder name")
            return False
        try:
            self.ruleset = folder.resolve()
        except (OSError, ValueError, RuntimeError):  # a NUL, a symlink loop: not a folder
            self.ruleset = folder
        if self.expected_ruleset is None and not ruleset_reach(self.path, folder):
            self.err(*position(doc, "ruleset"), "OPTION",
                     f"the ruleset {shorten(doc['ruleset'], 200)} lies outside this file's "
                     "reach: a scenario names its own folder, a folder inside it or the one "
                     "just above it (`ruleset: ..`) unless the command line names the ruleset",
                     hint=f"rulebook play RULESET --scenario {shorten(self.path, 200)}")
            return False
        if not is_dir(self.ruleset):
            self.err(*position(doc, "ruleset"), "FILE-MISSING",
                     f"no ruleset folder at {shorten(doc['ruleset'], 200)} (relative to this file)")
            return False
        if self.expected_ruleset is not None:
            try:
                wanted = Path(self.expected_ruleset).resolve()
            except (OSError, ValueError, RuntimeError):
                wanted = Path(self.expected_ruleset)
            if wanted != self.ruleset:
                self.err(*position(doc, "ruleset"), "OPTION",
                         f"this scenario is for the ruleset at {shorten(str(self.ruleset), 200)}, "
                         f"not {shorten(str(self.expected_ruleset), 200)}",
                         hint="give the scenario's own ruleset, or leave PATH out")
                return False
        if "arrange" in doc:
            src = self.source(doc, "arrange")
            try:
                stmts = parse_stmts(src)
                self.extra.append(A.Func("_arrange", [], stmts,
                                         span=A.Span(str(self.path), src.line0 + 1, 1)))
            except DiagnosticError as e:
                self.diags.extend(e.diagnostics)
        for i, exp in enumerate(doc.get("expect") or []):
            kinds = [k for k in KINDS if k in exp]
            if len(kinds) != 1:
                self.err(*position(doc["expect"], i), "SCHEMA-MISSING" if not kinds else
                         "SCHEMA-VALUE", "an expectation has exactly one of "
                         + ", ".join(KINDS) + (f" (this one: {', '.join(kinds)})"
                                               if kinds else ""))
                continue
            if "reader" in exp and kinds[0] not in ("logged", "not_logged"):
                self.err(*position(exp, "reader"), "SCHEMA-VALUE",
                         "'reader' goes with logged or not_logged: whose log to read")
            if kinds[0] in ("logged", "not_logged"):
                kind = kinds[0]
                texts = exp[kind] if isinstance(exp[kind], list) else [exp[kind]]
                reader = exp.get("reader")
                for j, text in enumerate(texts):
                    node = exp[kind] if isinstance(exp[kind], list) else exp
                    line, col = position(node, j if node is not exp else kind)
                    self.logged.append((str(text), line, col, reader, kind == "logged"))
                continue
            if kinds[0] != "that":
                self.probe(exp, kinds[0])
                continue
            point = self.point(exp)
            key = "before" if "before" in exp else "after" if "after" in exp else "that"
            for j, text in enumerate(exp["that"]):
                before = len(self.checks)
                self.expectation(exp["that"], j, text, point, exp.get("round"))
                if len(self.checks) > before:
                    self.checks[-1].at = position(exp, key)
        for i, entry in enumerate(doc.get("script") or []):
            line, col = position(doc["script"], i)
            if "player" in entry:
                self.steps.append(Step(entry["player"], entry["choice"], entry.get("decision"),
                                       line, col))
            else:
                (who, label), = entry.items()
                self.steps.append(Step(str(who), str(label), None, line, col))
        return not self.diags

    def source(self, node, key) -> Source:
        text = node[key]
        line, col = position(node, key)
        if isinstance(text, (LiteralScalarString, FoldedScalarString)):
            indent = 0
            for ln in self.raw[line:]:
                if ln.strip():
                    indent = len(ln) - len(ln.lstrip())
                    break
            return Source(str(self.path), str(text), line0=line, col0=indent)
        quoted = line <= len(self.raw) and self.raw[line - 1][col - 1:col] in ("'", '"')
        return Source(str(self.path), str(text), line0=line - 1, col0=col - 1 + quoted,
                      first_only=True)

    def point(self, node) -> Point:
        """The checkpoint an `expect` entry or `stop` names."""
        if "before" in node:
            return Point("before", node["before"])
        after = node.get("after", "end")
        if isinstance(after, dict):
            if "turn" in after:
                return Point("turn", player=after["turn"], count=after.get("count", 1))
            if "event" in after:
                return Point("event", event=after["event"], count=after.get("count", 1))
            return Point("decided", decision=after["decision"], player=after.get("player"),
                         count=after.get("count", 1))
        return Point("end") if after == "end" else Point("after", after)

    def probe(self, exp, kind):
        spec = exp[kind]
        if kind == "asked":  # `asked: {decision, player, round, times}`
            line, col = position(exp, kind)
            self.probes.append(Probe(kind, spec.get("player"), spec["decision"], [], False,
                                     spec.get("times"), spec.get("round", exp.get("round")),
                                     line, col))
            return
        line, col = position(exp, kind)
        labels = spec.get("labels", [spec["label"]] if "label" in spec else [])
        self.probes.append(Probe(kind, spec.get("player"), spec["decision"],
                                 [str(x) for x in labels], bool(spec.get("exactly")),
                                 spec.get("count"), spec.get("round", exp.get("round")),
                                 line, col))

    def expectation(self, node, j, text, point, rnd):
        src = self.source(node, j)
        try:
            expr = parse_expr(src)
        except DiagnosticError as e:
            self.diags.extend(e.diagnostics)
            return
        k = len(self.checks)
        span = expr.span
        chk = Check(str(text), span.line, span.col, point, rnd)
        if isinstance(expr, A.Compare) and expr.op in OPS:
            chk.left, chk.right, chk.op = f"_l{k}", f"_r{k}", expr.op
            self.extra.append(A.Func(chk.left, [], [A.Return(expr.left, span=span)], span=span))
            self.extra.append(A.Func(chk.right, [], [A.Return(expr.right, span=span)], span=span))
        else:
            chk.fn = f"_e{k}"  # engine names start with _: no rule can clash
            self.extra.append(A.Func(chk.fn, [], [A.Return(expr, span=span)], span=span))
        self.checks.append(chk)

    # ------------------------------------------------------------------ run
    def run(self) -> ScenarioResult:
        res = ScenarioResult(self.path)
        if not self.load():
            res.ok, res.diagnostics = False, self.diags
            return res
        doc = self.doc
        program, diags = self.program()
        errors = [d for d in diags if d.severity == "error"]
        if program is None or errors:
            res.ok, res.diagnostics = False, errors
            return res
        self.check_names(program)
        start, stop = doc.get("start"), doc.get("stop")
        if self.diags:
            res.ok, res.diagnostics = False, self.diags
            return res
        then = doc.get("then", "fail")
        fallback = {"random": RandomAgent(doc.get("seed", 0)), "first": FirstAgent(),
                    "fail": None}[then]
        script = list(self.steps)
        agent: ScriptedAgent | _SetupBy
        agent = ScriptedAgent(script, fallback)
        setup = doc.get("setup", "script")
        if setup != "script":
            agent = _SetupBy(agent, RandomAgent(doc.get("seed", 0)) if setup == "random"
                             else FirstAgent())
        players = doc.get("players")
        rigged = doc.get("rig", {})
        rig = Rig(rigged.get("rolls"), rigged.get("draws"), rigged.get("after") == "setup")
        try:
            options = with_players(program.rs, dict(doc.get("options") or {}), players)
            agents = [None if sid in program.rs.bots else agent
                      for sid, _ in active_seats(program.rs, options, players)]
            game = Game(program, seed=doc.get("seed", 0), options=options,
                        agents=agents, logging=True, rig=rig, players=players)
        except DiagnosticError as e:
            key = "players" if "players" in doc else "options"
            line, col = position(doc, key) if key in doc else (1, 1)
            res.ok = False
            res.diagnostics = [Diagnostic(str(self.path), line, col, d.code, d.message,
                                          hint=d.hint) for d in e.diagnostics]
            return res
        res.game = game
        if isinstance(agent, _SetupBy):
            agent.game = game
        ns = program.ns
        stop_at = self.point(stop) if stop else None
        counts: dict = {}  # (kind, player, decision) -> times seen

        def reached(g, point):
            for chk in self.checks:
                if chk.point == point and (chk.round is None or chk.round == g.round):
                    self.check(g, ns, chk, res)
            if stop_at == point and (stop.get("round") is None or stop["round"] == g.round):
                raise StopGame()

        def hook(g, when, what):
            if when in ("before", "after"):
                reached(g, Point(when, what))
            elif when == "turn":
                n = counts[("turn", what)] = counts.get(("turn", what), 0) + 1
                reached(g, Point("turn", player=what, count=n))
            elif when == "decided":
                player, decision = what
                for who in (player, None):
                    key = ("decided", who, decision)
                    n = counts[key] = counts.get(key, 0) + 1
                    reached(g, Point("decided", decision=decision, player=who, count=n))
            elif when == "event":
                n = counts[("event", what)] = counts.get(("event", what), 0) + 1
                reached(g, Point("event", event=what, count=n))
            elif when == "asked":
                player, decision, labels, label, offer = what
                self.asked(g, counts, player, decision, labels, label, offer, res)

        game.hooks = hook
        arrange = ns.get("f__arrange")
        begin = (start.get("round", 1), start["phase"]) if start else None
        try:
            game.run(begin, arrange)
        except ScriptError as e:
            st = e.entry
            line, col = (st.line, st.col) if st is not None else self.script_end()
            legal = ", ".join(e.legal[:40]) + (" ..." if len(e.legal) > 40 else "")
            msg = str(e) + (" after this, its last entry" if st is None and self.steps else "")
            self.err(line, col, "CHOICE-ILLEGAL", msg, hint=f"legal: {legal}" if legal else "")
        except DiagnosticError as e:
            self.diags.extend(self.own_line(e))
        else:
            if script and then == "fail":
                st = script[0]
                self.err(st.line, st.col, "SCRIPT-LEFT",
                         f"the game {'stopped' if game.stopped else 'ended'} with "
                         f"{len(script)} scripted choice(s) unused")
            if rig.left():
                self.rig_left(rig, game)
            for chk in self.checks:
                if chk.point.when == "end":
                    self.check(game, ns, chk, res)
            for text, line, col, reader, wanted in self.logged:
                res.checks += 1
                lines = _log_lines(game, reader)
                whose = "" if reader is None else \
                    " of the log an onlooker reads" if reader == "public" else \
                    f" of the log {reader} reads"
                found = [x for x in lines if text in x]
                if wanted and not found:
                    near = difflib.get_close_matches(text, lines, n=1, cutoff=0.5)
                    self.err(line, col, "EXPECT-FAIL", f"no line{whose} contains {text!r}",
                             hint=f"closest: {near[0]!r}" if near else "")
                elif not wanted and found:
                    self.err(line, col, "EXPECT-FAIL", f"a line{whose} contains {text!r}: "
                             f"{found[0]!r}")
            for pr in self.probes:
                if pr.kind == "asked":
                    res.checks += 1
                    asked = sum(1 for r, who, decision in self.asked_log
                                if decision == pr.decision and pr.player in (None, who)
                                and pr.round in (None, r))
                    where = "" if pr.round is None else f" in round {pr.round}"
                    if pr.count is None and asked == 0:
                        self.err(pr.line, pr.col, "EXPECT-FAIL",
                                 f"{self.asking(pr, False)} was never asked{where}")
                    elif pr.count is not None and asked != pr.count:
                        self.err(pr.line, pr.col, "EXPECT-FAIL",
                                 f"{self.asking(pr, False)} was asked {_times(asked)}{where}"
                                 f"; expected {_times(pr.count)}")
                    continue
                if not pr.seen and not pr.failed and pr.kind != "not_offered":
                    res.checks += 1
                    self.err(pr.line, pr.col, "EXPECT-FAIL", f"{self.asking(pr)} was never "
                             "asked" + (f" (the game {'stopped' if game.stopped else 'ended'})"))
        res.diagnostics = self.diags
        res.ok = not self.diags
        return res

    def own_line(self, e: DiagnosticError) -> list:
        """A run-time error inside rules that this file's `arrange` called is
        reported at the arrange line, the rule's own line in the hint."""
        trace = getattr(e, "trace", [])
        mine = [sp for sp in trace if sp.path == str(self.path)]
        out = []
        for d in e.diagnostics:
            if mine and d.path != str(self.path):
                sp = mine[-1]
                hint = f"in the rules at {d.path}:{d.line}:{d.col}" + \
                    (f"; {d.hint}" if d.hint else "")
                d = Diagnostic(str(self.path), sp.line, sp.col, d.code, d.message, hint=hint)
            out.append(d)
        return out

    def program(self):
        doc = self.doc
        variant = doc.get("variant")
        problem = variant_problem(variant)
        if problem:
            return None, [Diagnostic(str(self.path), *position(doc, "variant"), "OPTION",
                                     problem)]
        program, diags = load_program(self.ruleset, self.extra, variant=variant,
                                      options={k: str(v) for k, v in
                                               (doc.get("options") or {}).items()})
        # a variant the ruleset lacks is this file's mistake: point at its key
        out = [Diagnostic(str(self.path), *position(doc, "variant"), d.code, d.message,
                          hint=d.hint) if d.code == "OPTION" and "variant" in doc and
               d.message.startswith("no variant") else d for d in diags]
        return program, out

    def asking(self, pr, nth_too: bool = True) -> str:
        who = pr.player or "anyone"
        nth = f" (time #{pr.count})" if pr.count and nth_too else ""
        return f"{who}'s decision {pr.decision!r}{nth}"

    def asked(self, g, counts, player, decision, labels, label, offer, res):
        """A decision was put to a player: check `offered`, `not_offered`,
        `chosen` (a "choose some" selection's parts in any order, as scripts)."""
        self.asked_log.append((g.round, player, decision))
        seen = {}
        for who in (player, None):
            key = ("asked", who, decision)
            seen[who] = counts[key] = counts.get(key, 0) + 1
        for pr in self.probes:
            if pr.kind == "asked" or pr.failed or pr.decision != decision or \
                    pr.player not in (None, player):
                continue
            if (pr.count is not None and pr.count != seen[pr.player]) or \
                    (pr.round is not None and pr.round != g.round):
                continue
            pr.seen = True
            res.checks += 1
            shown = ", ".join(labels[:40]) or "nothing"
            problem = None
            wanted = pr.labels if offer is None else \
                [x if x == "pass" else offer.canonical(x) or x for x in pr.labels]
            if pr.kind == "offered":
                missing = [x for x, w in zip(pr.labels, wanted) if w not in labels]
                extra = [x for x in labels if x not in wanted] if pr.exactly else []
                if missing or extra:
                    problem = (f"{self.asking(pr)} offers {shown}" +
                               (f"; missing {', '.join(missing)}" if missing else "") +
                               (f"; also {', '.join(extra)}" if extra else ""))
            elif pr.kind == "not_offered":
                present = [x for x, w in zip(pr.labels, wanted) if w in labels]
                if present:
                    problem = f"{self.asking(pr)} offers {', '.join(present)}, which it must not"
            elif label not in wanted:
                problem = f"{self.asking(pr)} took {label if label is not None else 'nothing'}" \
                          f", not {' or '.join(pr.labels)} (offered: {shown})"
            if problem:
                pr.failed = True
                self.err(pr.line, pr.col, "EXPECT-FAIL", problem, hint=self.when(g))

    def rig_left(self, rig, game):
        """Rigged randomness the game never used: the scenario is not what it says."""
        rigged = self.doc["rig"]
        how = "stopped" if game.stopped else "ended"
        if rig.rolls:
            self.err(*position(rigged, "rolls"), "RIG-LEFT",
                     f"the game {how} with {len(rig.rolls)} rigged roll(s) unused: "
                     f"{' '.join(map(str, rig.rolls[:20]))}")
        for zone, ids in rig.draws.items():
            if ids:
                self.err(*position(rigged["draws"], zone), "RIG-LEFT",
                         f"the game {how} with {len(ids)} rigged draw(s) from {zone} unused: "
                         f"{', '.join(ids[:20])}")

    def check_names(self, program):
        """Phases and players the scenario names must exist in the ruleset."""
        doc = self.doc
        phases = {name for name, _ in program.phases}
        allowed = phases | {"finish"}
        for chk in self.checks:
            ph = chk.point.phase
            if ph is not None and ph not in allowed:
                self.err(chk.line, chk.col, "REF-UNDEF", f"no phase {ph!r} to check at",
                         hint="phases: " + ", ".join(sorted(allowed)))
        decisions = set(program.compiled.decisions)
        seats = {sid for sid, _ in program.rs.seats}
        points = [(c.point, *c.at) for c in self.checks]
        points += [(Point("decided", decision=p.decision, player=p.player), p.line, p.col)
                   for p in self.probes]
        if doc.get("stop") and isinstance(doc["stop"]["after"], dict):
            points.append((self.point(doc["stop"]), *position(doc["stop"], "after")))
        events = set(program.compiled.events or {})
        for pt, line, col in dict.fromkeys(points):  # (a point's several checks: once)
            if pt.event is not None and pt.event not in events:
                self.undef(line, col, "event", pt.event, events)
            if pt.decision is not None and pt.decision not in decisions:
                self.undef(line, col, "decision", pt.decision, decisions)
            if pt.player is not None and pt.player not in seats:
                self.undef(line, col, "player", pt.player, seats)
        readers = seats | {"public"}
        for i, exp in enumerate(doc.get("expect") or []):
            reader = exp.get("reader")
            if reader is not None and reader not in readers:
                self.undef(*position(exp, "reader"), "reader", str(reader), readers)
        start = doc.get("start")
        if start and start["phase"] not in phases:
            self.err(*position(start, "phase"), "REF-UNDEF", f"no phase {start['phase']!r}",
                     hint="phases: " + ", ".join(sorted(phases)))
        stop = doc.get("stop")
        if stop and isinstance(stop["after"], str) and stop["after"] not in phases:
            self.err(*position(stop, "after"), "REF-UNDEF", f"no phase {stop['after']!r}",
                     hint="phases: " + ", ".join(sorted(phases)))
        seats = {sid for sid, _ in program.rs.seats}
        for st in self.steps:
            if st.player not in seats:
                self.err(st.line, st.col, "REF-UNDEF", f"no player {st.player!r}",
                         hint="players: " + ", ".join(sorted(seats)))

    def undef(self, line, col, what, name, known):
        near = difflib.get_close_matches(str(name), sorted(known), n=1)
        self.err(line, col, "REF-UNDEF", f"no {what} {name!r}",
                 hint=f"did you mean {near[0]!r}?" if near else
                 f"{what}s: " + ", ".join(sorted(known)[:30]))

    def script_end(self):
        """Where the script ran out: its last entry (or its key, when empty)."""
        script = self.doc.get("script") if "script" in self.doc else None
        if script:
            return position(script, len(script) - 1)
        return position(self.doc, "script", at_key=True) if "script" in self.doc else (1, 1)

    def check(self, game, ns, chk, res):
        res.checks += 1
        try:
            if chk.fn:
                value = ns[f"f_{chk.fn}"](game)
                if value is not True:
                    self.err(chk.line, chk.col, "EXPECT-FAIL",
                             f"expected {chk.text}; it is {display(value)}", hint=self.when(game))
                return
            left = ns[f"f_{chk.left}"](game)
            right = ns[f"f_{chk.right}"](game)
        except Exception as e:  # a failing expression is a failed expectation, with its cause
            from ..run.builtins import RuleError
            from ..run.failures import friendly, with_subject
            why = str(e) if isinstance(e, RuleError) else friendly(e)
            why = with_subject(why, str(self.path), chk.line)
            self.err(chk.line, chk.col, "EXPECT-FAIL", f"could not evaluate {chk.text}: {why}",
                     hint=self.when(game))
            return
        if not OPS[chk.op](left, right):
            self.err(chk.line, chk.col, "EXPECT-FAIL",
                     f"expected {chk.text}: left side is {_shown(left)}, "
                     f"right side is {_shown(right)}", hint=self.when(game))

    def when(self, game):
        return f"round {game.round}, {game.phase}"


def _shown(v) -> str:
    """A value in a failure message: lists keep their brackets ([false], [])."""
    if isinstance(v, list):
        return "[" + ", ".join(_shown(x) for x in v) + "]"
    return display(v)


def run_scenario_file(path: str | Path, ruleset: str | Path | None = None) -> ScenarioResult:
    """Run one scenario; with `ruleset`, the scenario must be for that ruleset."""
    sc = _Scenario(Path(path))
    sc.expected_ruleset = ruleset
    return sc.run()


def log_tail(game: Game | None, n: int = 40) -> str:
    """The last lines of a game's log, as the designer reads them."""
    if game is None or not game.log:
        return ""
    lines = []
    for e in game.log[-n:]:
        see = e.get("see", "all")
        lines.append(f"  {e['text']}" + ("" if see == "all" else
                                         f"  [seen by {', '.join(see) or 'nobody'}]"))
    more = len(game.log) - n
    return (f"  ... ({more} earlier lines)\n" if more > 0 else "") + "\n".join(lines)


def validate_scenario(path: str | Path) -> list[Diagnostic]:
    sc = _Scenario(Path(path))
    if not sc.load():
        return sc.diags
    program, diags = sc.program()
    errors = [d for d in diags if d.severity == "error"]
    if program is None or errors:
        return [d for d in errors if d.path == str(sc.path)] or errors
    sc.check_names(program)
    return sc.diags


class _SetupBy:
    """`setup: first|random`: the decisions of setup (and `arrange`) go to
    another agent, so that a scenario which arranges its own position need
    not script a long setup; the script starts with the game proper."""

    def __init__(self, agent: ScriptedAgent, setup_agent: RandomAgent | FirstAgent):
        self.agent, self.setup_agent = agent, setup_agent
        self.game: Game | None = None  # set before the game runs

    @property
    def wants_view(self):
        return self.agent.wants_view

    def _who(self) -> Any:
        assert self.game is not None
        return self.setup_agent if self.game.phase == "setup" else self.agent

    def pick(self, d):
        return self._who().pick(d)

    def pick_some(self, d):
        return self._who().pick_some(d)
