"""Scenario files: a ruleset, options, seed, rigged randomness, an arranged
state, a script of choices and expectations, checked as a test.

Arranging statements and expectations are rule-language text compiled with
the ruleset, so they can use its functions and names. Every failure is a
Diagnostic pointing into the scenario file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

from . import ast as A
from .agents import FirstAgent, RandomAgent, ScriptedAgent, ScriptError
from .diagnostics import Diagnostic, DiagnosticError
from .engine import Game, Rig, StopGame, active_seats, load_program
from .parser import Source, parse_expr, parse_stmts
from .savegame import variant_problem
from .state import display
from .limits import MAX_PATH_CHARS
from .yamlio import (is_dir, load_yaml, path_too_long, position, read_text, schema_diagnostics,
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


@dataclass
class Check:
    text: str
    line: int
    col: int
    when: str  # before / after / end
    phase: str | None
    round: int | None
    fn: str = ""
    left: str | None = None
    right: str | None = None
    op: str | None = None


@dataclass
class ScenarioResult:
    path: Path
    ok: bool = True
    checks: int = 0
    diagnostics: list = field(default_factory=list)
    game: Game | None = None


class _Scenario:
    def __init__(self, path: Path):
        self.path = path
        self.diags: list[Diagnostic] = []
        self.extra: list = []
        self.checks: list[Check] = []
        self.steps: list[Step] = []
        self.doc = None

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
        if not is_dir(self.ruleset):
            self.err(*position(doc, "ruleset"), "FILE-MISSING",
                     f"no ruleset folder at {shorten(doc['ruleset'], 200)} (relative to this file)")
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
            when, phase = "end", None
            if "before" in exp:
                when, phase = "before", exp["before"]
            elif exp.get("after", "end") != "end":
                when, phase = "after", exp["after"]
            for j, text in enumerate(exp["that"]):
                self.expectation(exp["that"], j, text, when, phase, exp.get("round"))
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

    def expectation(self, node, j, text, when, phase, rnd):
        src = self.source(node, j)
        try:
            expr = parse_expr(src)
        except DiagnosticError as e:
            self.diags.extend(e.diagnostics)
            return
        k = len(self.checks)
        span = expr.span
        chk = Check(str(text), span.line, span.col, when, phase, rnd)
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
        agent = ScriptedAgent(script, fallback)
        agents = [None if sid in program.rs.bots else agent
                  for sid, _ in active_seats(program.rs, dict(doc.get("options") or {}))]
        rig = Rig(doc.get("rig", {}).get("rolls"), doc.get("rig", {}).get("draws"))
        try:
            game = Game(program, seed=doc.get("seed", 0), options=dict(doc.get("options") or {}),
                        agents=agents, logging=True, rig=rig)
        except DiagnosticError as e:
            line, col = position(doc, "options") if "options" in doc else (1, 1)
            res.ok = False
            res.diagnostics = [Diagnostic(str(self.path), line, col, d.code, d.message,
                                          hint=d.hint) for d in e.diagnostics]
            return res
        res.game = game
        ns = program.ns

        def hook(g, when, phase):
            for chk in self.checks:
                if chk.when == when and chk.phase == phase and \
                        (chk.round is None or chk.round == g.round):
                    self.check(g, ns, chk, res)
            if stop and when == "after" and phase == stop["after"] and \
                    (stop.get("round") is None or stop["round"] == g.round):
                raise StopGame()

        game.hooks = hook
        arrange = ns.get("f__arrange")
        begin = (start.get("round", 1), start["phase"]) if start else None
        try:
            game.run(begin, arrange)
        except ScriptError as e:
            st = e.entry
            line, col = (st.line, st.col) if st is not None else self.script_end()
            legal = ", ".join(e.legal[:40]) + (" ..." if len(e.legal) > 40 else "")
            self.err(line, col, "CHOICE-ILLEGAL", str(e), hint=f"legal: {legal}" if legal else "")
        except DiagnosticError as e:
            self.diags.extend(e.diagnostics)
        else:
            if script and then == "fail":
                st = script[0]
                self.err(st.line, st.col, "SCRIPT-LEFT",
                         f"the game {'stopped' if game.stopped else 'ended'} with "
                         f"{len(script)} scripted choice(s) unused")
            for chk in self.checks:
                if chk.when == "end":
                    self.check(game, ns, chk, res)
        res.diagnostics = self.diags
        res.ok = not self.diags
        return res

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

    def check_names(self, program):
        """Phases and players the scenario names must exist in the ruleset."""
        doc = self.doc
        phases = {name for name, _ in program.phases}
        allowed = phases | {"finish"}
        for chk in self.checks:
            if chk.phase is not None and chk.phase not in allowed:
                self.err(chk.line, chk.col, "REF-UNDEF", f"no phase {chk.phase!r} to check at",
                         hint="phases: " + ", ".join(sorted(allowed)))
        start = doc.get("start")
        if start and start["phase"] not in phases:
            self.err(*position(start, "phase"), "REF-UNDEF", f"no phase {start['phase']!r}",
                     hint="phases: " + ", ".join(sorted(phases)))
        stop = doc.get("stop")
        if stop and stop["after"] not in phases:
            self.err(*position(stop, "after"), "REF-UNDEF", f"no phase {stop['after']!r}",
                     hint="phases: " + ", ".join(sorted(phases)))
        seats = {sid for sid, _ in program.rs.seats}
        for st in self.steps:
            if st.player not in seats:
                self.err(st.line, st.col, "REF-UNDEF", f"no player {st.player!r}",
                         hint="players: " + ", ".join(sorted(seats)))

    def script_end(self):
        return position(self.doc, "script") if "script" in self.doc else (1, 1)

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
            self.err(chk.line, chk.col, "EXPECT-FAIL", f"could not evaluate {chk.text}: {e}")
            return
        if not OPS[chk.op](left, right):
            self.err(chk.line, chk.col, "EXPECT-FAIL",
                     f"expected {chk.text}: left side is {display(left)}, "
                     f"right side is {display(right)}", hint=self.when(game))

    def when(self, game):
        return f"round {game.round}, {game.phase}"


def run_scenario_file(path: Path) -> ScenarioResult:
    return _Scenario(Path(path)).run()


def validate_scenario(path: Path) -> list[Diagnostic]:
    sc = _Scenario(Path(path))
    if not sc.load():
        return sc.diags
    program, diags = sc.program()
    errors = [d for d in diags if d.severity == "error"]
    if program is None or errors:
        return [d for d in errors if d.path == str(sc.path)] or errors
    sc.check_names(program)
    return sc.diags
