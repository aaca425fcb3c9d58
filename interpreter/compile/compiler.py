"""Check the rule modules of a ruleset and compile them to Python source.

One pass over the AST resolves every name, infers what types it can, reports
problems as Diagnostics (REF-UNDEF, TYPE, ARITY, DUP-ID, UNREACHABLE) and emits
Python source for each phase, function, handler and ability. The source never
contains rule text as code: names are mangled and literals are repr()'d. A
line map turns a failing generated line back into its rule position.

The Compiler is assembled from parts, a file each: expressions.py (e_<Node>
methods: an expression's code and type), statements.py (s_<Node>: a
statement's lines), decisions.py (choose, choose some, windows, offers),
texts.py (log lines, prompts, interpolated texts and their secrets),
events.py (handlers, abilities, triggers) and fastpasses.py (the fast back
end's analysis and typed recompilation); common.py holds what they share.
This file keeps the pass itself: collecting definitions, compiling each
module part, emitting lines with their rule positions.

Generated code is a sandbox by construction (see rules/README.md, "Sharing
rule files safely"): rule names are prefixed (l_, f_, u_ ...) so they can only
name what the ruleset declares; an attribute of a value whose type the checker
does not know goes through the game's allow-list (G.attr); only lambdas
written in the rules are ever called; every loop and call pays from the
game's step budget; arithmetic that could grow without end is range-checked.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
from pathlib import Path

from ..language import ast as A
from ..language.types import BUILTINS, of_value
from ..load.ruleset import RESERVED_ATTRS, Ruleset
from ..support.diagnostics import Diagnostic, collapse
from .common import _EFFECTS, _ID_CHARS, ANY_FIELDS, Compiled, Scope, Var, _walk
from .decisions import Decisions
from .events import Events
from .expressions import Expressions
from .fastpasses import FastPasses, _typed
from .statements import Statements
from .texts import Texts


class Compiler(Expressions, Statements, Decisions, Texts, FastPasses, Events):
    def __init__(self, rs: Ruleset, backend: str = "fast", param_types: dict | None = None,
                 untyped: dict | None = None):
        self.rs = rs
        # id(Compare node) -> its operands' types in the untyped pass: typed
        # code pays steps for `in` and `==` exactly where untyped code does
        self.untyped = {} if untyped is None else untyped
        self.typed_pass = untyped is not None
        # fast: the types inferred from every call, trigger, return and
        # assignment (infer_params), keyed ("fn", function, i), ("ret",
        # function), ("ev", event, i), ("win", window, i), ("var", name),
        # ("svar", name) and ("local", generated function, name)
        self.param_types = param_types or {}
        self.sites: dict = {}  # key -> [a type, or the key of what is passed on]
        self.current_fn = None  # the function being compiled (for its returns)
        self.joined: dict = {}  # id(Str node) -> its words' code, secrets aside (e_Str)
        self.fixed_fields: set = set()  # id(Attr node) of fields no rule can change
        self.id_of: dict = {}  # id(Attr node) of `x.id` -> (code, type) of x
        self.attr_src: dict = {}  # id(Attr node) -> the side variable it reads
        self.py_fn = None  # the generated function being emitted
        # "reference": every trigger, collect and window goes through the engine;
        # "fast": those no handler or ability could hear are compiled away, and
        # the rest ask first whether one is live (G.ev_<event>, G.wn_<window>:
        # counts the engine keeps as components move in and out of live zones)
        self.fast = backend == "fast"
        self.diags: list[Diagnostic] = []
        self.lines: list[str] = []
        self.spans: list = []
        self.tmp = 0
        self.known = False  # was the last count or side checked of the type wanted?
        self.funcs: dict[str, A.Func] = {}
        self.phases: dict[str, A.Phase] = {}
        self.events_used: dict[str, tuple] = {}  # event -> (arity, span)
        self.windows_used: dict[str, tuple] = {}
        self.handler_defs: list = []
        self.ability_defs: list = []
        self.decisions: dict = {}
        self.duplicates: list = []
        self.given: set = set()
        self.stocked: dict = {}
        self.chains: dict = {}  # (what, name) -> definitions, overridden ones first
        self.original = None  # (python name, node) that `original(...)` calls
        self.arranging = False  # compiling a scenario's `arrange`: supplies may be set
        self.replaceable: set = set()  # events triggered with a default block
        self.kind_of_comp = {c.id: c.kind for c in rs.components}
        # fast: the code of an inlined track("...") -> (its size, the game's own
        # list): a loop over it pays the size and walks that list, uncopied
        self.track_loops = {}
        # fast: the code of a collect asked only while live -> (the collect,
        # the live count), so sum(collect ...) skips its walk when nobody answers
        self.guarded = {}
        fixed = set(rs.pieces) | set(rs.space_attrs) | {n for _, n in rs.zones}
        for k in rs.kinds.values():
            fixed |= set(k.attributes)
        writable = set(rs.side_vars).union(*(k.properties for k in rs.kinds.values()))
        self.only_writable = writable - fixed - ANY_FIELDS
        self.space_ids = {sid for sid, _ in rs.spaces}
        # fast: every id is made of _ID_CHARS (the schemas' pattern), so a
        # label's parts can be told apart by any other character (lazy labels)
        self.plain_ids = all(_ID_CHARS.issuperset(i) for i in
                             [*self.space_ids, *self.kind_of_comp, *(s for s, _ in rs.seats),
                              *(s for s, _ in rs.sides)])
        # names that are also something other than a side variable: reading
        # one says nothing sure about a hidden variable
        self.shared_names = fixed | set().union(*(k.properties for k in rs.kinds.values()))
        self.globals = self._globals()

    # ---------------------------------------------------------------- helpers
    def err(self, node, code, msg, hint="", severity="error"):
        sp = node.span if isinstance(node, A.Node) else node
        self.diags.append(Diagnostic(sp.path, sp.line, sp.col, code, msg, severity, hint))

    def undef(self, node, what, name, known):
        near = difflib.get_close_matches(name, sorted(known), n=1)
        self.err(node, "REF-UNDEF", f"undefined {what} {name!r}",
                 hint=f"did you mean {near[0]!r}?" if near else "")

    def emit(self, indent, text, span):
        if indent == 0 and text.startswith("def "):
            self.py_fn = text[4:text.index("(")]  # whose locals `let` declares now
        if self.fast and text.startswith(("l_", "_ow", "return ", "G.move(", "for ")):
            from .unroll import unrolled  # (ast: imported only when compiling)
            lines = unrolled(text, self.fresh)
            if lines is not None:  # a comprehension as loops
                for i, line in lines:
                    self.lines.append("    " * (indent + i) + line)
                    self.spans.append(span)
                return
        self.lines.append("    " * indent + text)
        self.spans.append(span)


    def fresh(self, base):
        self.tmp += 1
        return f"_{base}{self.tmp}"

    def tick(self, indent, span):
        """Pay one step from the game's budget (a loop turn or a call)."""
        self.emit(indent, "G.fuel -= 1", span)
        self.emit(indent, "if G.fuel < 0: G.out_of_steps()", span)

    def check_params(self, node, params):
        seen = set()
        for p in params:
            if p in seen:
                self.err(node, "DUP-ID", f"parameter {p!r} is named twice")
            seen.add(p)

    def _globals(self) -> Scope:
        rs = self.rs
        g = Scope()
        for name, init in rs.game_vars.items():
            t = of_value(init)
            if t in ("any", "none"):  # declared without a value: typed by what it is given
                key = ("var", name)
                g.names[name] = Var(f"G.v_{name}", self.param_types.get(key, "any"), param=key)
            else:
                g.names[name] = Var(f"G.v_{name}", t)
        for sid, _ in rs.seats + rs.sides:
            self._clash(g, sid, ("side", sid))
            g.names[sid] = Var(f"G.n_{sid}", "side", False)
        for name in rs.zone_names("game"):
            self._clash(g, name, ("zone", "game", name))
            g.names[name] = Var(f"G.z_{name}", "zone", False)
        fixed = {"players": ("G.players", "list:side"), "sides": ("G.sides", "list:side"),
                 "current": ("G.current", "side"), "round": ("G.round", "int"),
                 "options": ("G.options", "options"), "tables": ("G.tables", "table"),
                 "winners": ("G.winners", "list:side")}
        for name, (code, t) in fixed.items():
            if name in g.names:
                where = rs.where.get(("var", "game", name)) or rs.where.get(("side", name)) or \
                    rs.where.get(("zone", "game", name))
                if where:
                    self.diags.append(Diagnostic(*where, "DUP-ID",
                                                 f"{name!r} is a built-in name of the language"))
            g.names[name] = Var(code, t, False)
        return g

    def _clash(self, g, name, key):
        """Seats, sides, game variables and game zones share one namespace."""
        if name in g.names:
            where = self.rs.where.get(key)
            if where:
                self.diags.append(Diagnostic(*where, "DUP-ID",
                                             f"{name!r} already names another thing "
                                             "(a variable, side or zone)"))

    # ---------------------------------------------------------------- driver
    def _collect(self, modules):
        """Every definition in the modules (phases, functions, game parts,
        handlers and abilities, the components' too): (the game block, the
        overlays' game parts)."""
        game = None
        parts = []  # overlay overrides of setup / finish, in order
        for m in modules:
            for it in m.items:
                if isinstance(it, A.Game):
                    if game is not None:
                        self.err(it, "DUP-ID", "a ruleset has one 'game' block; another is at "
                                 f"{game.span.path}:{game.span.line}")
                    else:
                        game = it
                elif isinstance(it, A.Phase):
                    self._define(self.phases, it, "phase")
                elif isinstance(it, A.Func):
                    if it.name in BUILTINS or it.name in ("original", "collect"):
                        self.err(it, "DUP-ID", f"{it.name!r} is a built-in function")
                    self._define(self.funcs, it, "function")
                elif isinstance(it, A.GamePart):
                    parts.append(it)
                elif isinstance(it, A.On):
                    self.handler_defs.append(it)
                elif isinstance(it, A.Ability):
                    self.ability_defs.append(it)
        for c in self.rs.components:
            if c.rules is not None:
                for it in c.rules.items:
                    if isinstance(it, A.On):
                        self.handler_defs.append((c.id, it))
                    elif isinstance(it, A.Ability):
                        self.ability_defs.append((c.id, it))
        handlers = [e[1] if isinstance(e, tuple) else e for e in self.handler_defs]
        self.heard = {h.event for h in handlers}
        self.heard_instead = {h.event for h in handlers if h.instead}
        self.opened = {(e[1] if isinstance(e, tuple) else e).window for e in self.ability_defs}
        return game, parts

    def compile(self, modules) -> Compiled | None:
        game, parts = self._collect(modules)
        if game is None:
            path = self.rs.where.get("game", (str(self.rs.path), 1, 1))[0]
            self.diags.append(Diagnostic(path, 1, 1, "REF-UNDEF",
                                         "no 'game { ... }' block in any .rules file",
                                         hint="the game block lists setup, rounds and finish"))
            return None
        self.emit(0, "# generated from rule files; see the line map for positions", A.NOWHERE)
        phases = []
        for name, span in game.phases:
            if name not in self.phases:
                self.undef(span, "phase", name, self.phases)
            else:
                phases.append((name, f"p_{name}"))
        listed = {n for n, _ in game.phases}
        for name, ph in self.phases.items():
            if name not in listed:
                self.err(ph, "UNREACHABLE", f"phase {name!r} is never played",
                         hint="list it in the game's rounds", severity="warning")
        rounds_fn = None
        setup = self.game_part("setup", game.setup, game, parts)
        finish = self.game_part("finish", game.finish, game, parts)
        for block in [game.summary] + [p.body for p in parts if p.part == "summary"]:
            self.only_reads(block or [])
        summary = self.game_part("summary", game.summary, game, parts)
        if game.rounds_expr is not None:
            rounds_fn = "g_rounds"
            code, t = self.expr(game.rounds_expr, Scope({}, self.globals))
            want = "int" if game.rounds_kind == "count" else "bool"
            self.expect(game.rounds_expr, t, want, "the rounds limit")
            self.emit(0, f"def {rounds_fn}(G):", game.rounds_expr.span)
            self.emit(1, f"return {code}", game.rounds_expr.span)
        for name in self.phases:
            self.versions(f"p_{name}", self.chains[("phase", name)])
        for name in self.funcs:
            self.versions(f"f_{name}", self.chains[("function", name)])
        for i, node in enumerate(self.duplicates):
            self.function(f"dup_{i}", getattr(node, "params", []), node.body, node,
                          Scope({}, self.globals))
        handlers = self.compile_handlers()
        self._abilities = self.compile_abilities()
        abilities = [a[:6] for a in self._abilities]
        self.check_events()
        if self.fast:
            self._fast_passes()
        return Compiled("\n".join(self.lines) + "\n", self.spans, phases, setup, finish,
                        game.rounds_kind, rounds_fn, handlers, abilities, self.decisions,
                        self.given, self.stocked if self.fast else None,
                        "fast" if self.fast else "reference", self.places(modules), summary,
                        dict(self.events_used), dict(self.windows_used), {})

    def compile_extra(self, modules, extra, base: Compiled):
        """A scenario's own functions (the module `extra`) against `base`,
        the compiled `modules`: every definition is known as in a full
        compile, but only the extra functions are checked and written, the
        events and windows the base uses counting as used. (lines, spans)
        of their code; the diagnostics are in self.diags, what they pass to
        typed code in self.sites (see fits)."""
        self._collect([*modules, extra])
        self.events_used.update(base.events or {})
        self.windows_used.update(base.windows or {})
        done = set()
        for it in extra.items:
            if isinstance(it, A.Func) and it.name not in done:
                done.add(it.name)
                self.versions(f"f_{it.name}", self.chains[("function", it.name)])
        # a handler or ability whose event or window only the extra code starts
        for entry in self.handler_defs:
            h = entry[1] if isinstance(entry, tuple) else entry
            used = self.events_used.get(h.event)
            if h.event not in (base.events or {}) and used is not None and \
                    used[0] != len(h.params):
                self.err(h, "ARITY", f"event {h.event!r} is triggered with {used[0]} "
                         f"argument(s) but this handler takes {len(h.params)}")
        for entry in self.ability_defs:
            ab = entry[1] if isinstance(entry, tuple) else entry
            used = self.windows_used.get(ab.window)
            if ab.window not in (base.windows or {}) and used is not None and ab.params and \
                    used[0] != len(ab.params) - 1:
                self.err(ab, "ARITY", f"window {ab.window!r} passes {used[0]} argument(s) but "
                         f"this ability takes {len(ab.params) - 1} after the player")
        if self.fast:
            self._fast_passes()
        return self.lines, self.spans


    def only_reads(self, body, what="a summary", hint="a summary holds let, if, for and log"):
        """A text made only when the game is logged (a `summary`, a log line):
        it may not change the game, or a logged game would play differently."""
        lets = {sub.name for sub in _walk(body) if isinstance(sub, A.Let)}
        for sub in _walk(body):
            bad = None
            if isinstance(sub, A.Collect):
                bad = "collects from handlers, which may change it"
            elif isinstance(sub, A.Call) and isinstance(sub.func, A.Name) and \
                    sub.func.id in self.changers():
                bad = f"calls {sub.func.id}(), which changes the game"
            elif self.draws(sub) or (isinstance(sub, A.Call) and isinstance(sub.func, A.Name)
                                     and sub.func.id in self.drawers()):
                # a logged and a quiet game would draw differently
                bad = f"calls {sub.func.id}(), which draws from the game's random generator"
            elif isinstance(sub, A.Assign):
                if not (isinstance(sub.target, A.Name) and sub.target.id in lets):
                    bad = "changes the game (only its own `let` names may change)"
            elif isinstance(sub, _EFFECTS):
                bad = "changes the game"
            if bad:
                self.err(sub, "TYPE", f"{what} only reads the game, but this {bad}", hint=hint)
                return


    _any_fields = None


    bound: dict = {}  # name -> how often the function being compiled binds it (block)
    _reads = None  # text_parts: the components whose fields a log text reads
    _reads_scope = None


def compile_ruleset(rs: Ruleset, extra: list | None = None, backend: str = "fast"):
    """Compile the ruleset's modules, plus `extra` top-level items (scenario
    code), for a back end: "fast" or "reference" (see Compiler)."""
    c = Compiler(rs, backend)
    modules = list(rs.modules)
    if extra:
        modules.append(A.Module(extra))
    compiled = c.compile(modules)
    # a component's rules are checked for each of its copies (`count:`): a
    # mistake in them is one mistake
    diags = collapse(c.diags, "found {n} times: once for each component that shares this text")
    diags = _undefined_names(diags, modules, rs)
    if c.fast and compiled is not None and not any(d.severity == "error" for d in diags):
        compiled = _typed(rs, modules, c, compiled)
    return compiled, diags


_UNDEFINED = re.compile(r"^undefined name '([a-z_][a-z0-9_]*)'$")
_ZONE_FIELDS = {"size", "top", "items"}


def _undefined_names(diags, modules, rs) -> list:
    """Each undefined name once: at its first use, the other uses listed,
    with where to declare it, judged by how the rules use it (a zone moved
    to, drawn from or shuffled; a variable assigned)."""
    uses: dict = {}
    for d in diags:
        m = _UNDEFINED.match(d.message) if d.code == "REF-UNDEF" else None
        if m:
            uses.setdefault(m.group(1), []).append(d)
    if not uses:
        return diags
    how: dict = {}
    items = [it for m in modules for it in m.items] + \
        [it for c in rs.components if c.rules is not None for it in c.rules.items]
    for n in _walk(items):
        spots = []
        if isinstance(n, A.Move):
            spots = [(n.dest, "zone")]
        elif isinstance(n, A.Draw):
            spots = [(n.src, "zone"), (n.dst, "zone")]
        elif isinstance(n, (A.Shuffle, A.Roll)):
            spots = [(getattr(n, "zone", None) or getattr(n, "what", None), "zone")]
        elif isinstance(n, A.Attr) and n.name in _ZONE_FIELDS:
            spots = [(n.obj, "zone")]
        elif isinstance(n, A.Assign):
            spots = [(n.target, "variable")]
        for node, kind in spots:
            if isinstance(node, A.Name) and node.id in uses:
                how.setdefault(node.id, set()).add(kind)
    out, done = [], set()
    for d in diags:
        m = _UNDEFINED.match(d.message) if d.code == "REF-UNDEF" else None
        if not m:
            out.append(d)
            continue
        name = m.group(1)
        if name in done:
            continue
        done.add(name)
        kinds = how.get(name, set())
        if kinds == {"zone"}:
            where = f"a zone: declare it in game.yaml under `zones: game:` ({name}: {{}})"
        elif kinds == {"variable"}:
            where = (f"a variable: declare it in game.yaml under `variables: game:`, or "
                     f"write `let {name} = ...` for a name of this rule alone")
        elif d.hint:  # a near name is the likelier fix
            where = ""
        else:
            where = ("declare it in game.yaml (`zones:` for a zone, `variables:` for a "
                     "variable), or with `let` in the rule")
        others = uses[name][1:]
        also = ""
        if others:
            shown = ", ".join(f"{Path(o.path).name}:{o.line}" for o in others[:6])
            also = f"; also used at {shown}" + (f" and {len(others) - 6} more"
                                                  if len(others) > 6 else "")
        hint = "; ".join(x for x in (d.hint, where, also[2:]) if x)
        out.append(dataclasses.replace(d, hint=hint))
    return out


__all__ = ["compile_ruleset", "Compiled", "RESERVED_ATTRS"]
