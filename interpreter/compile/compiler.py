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

from ..language import ast as A
from ..language.ast import Span
from ..language.types import of_value
from ..load.ruleset import RESERVED_ATTRS, Ruleset
from ..support.diagnostics import Diagnostic, collapse
from .checker import Checker, undefined_names
from .common import _ID_CHARS, ANY_FIELDS, Compiled, Scope, Var
from .decisions import Decisions
from .events import Events
from .expressions import Expressions
from .fastpasses import FastPasses, _typed
from .statements import Statements
from .texts import Texts


class Compiler(Checker, Expressions, Statements, Decisions, Texts, FastPasses, Events):
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
        self.arounds: list[str] = []  # the `around` loops being compiled, innermost last
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
    def emit(self, indent: int, text: str, span: Span) -> None:
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


    def fresh(self, base: str) -> str:
        self.tmp += 1
        return f"_{base}{self.tmp}"

    def tick(self, indent: int, span: Span) -> None:
        """Pay one step from the game's budget (a loop turn or a call)."""
        self.emit(indent, "G.fuel -= 1", span)
        self.emit(indent, "if G.fuel < 0: G.out_of_steps()", span)

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
            self.clash(g, sid, ("side", sid))
            g.names[sid] = Var(f"G.n_{sid}", "side", False)
        for name in rs.zone_names("game"):
            self.clash(g, name, ("zone", "game", name))
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
                    self.builtin_clash(name, where)
            g.names[name] = Var(code, t, False)
        return g

    # ---------------------------------------------------------------- driver
    def _collect(self, modules: list[A.Module]) -> tuple[A.Game | None, list[A.GamePart]]:
        """Every definition in the modules (phases, functions, game parts,
        handlers and abilities, the components' too): (the game block, the
        overlays' game parts)."""
        game = None
        parts = []  # overlay overrides of setup / finish, in order
        for m in modules:
            for it in m.items:
                if isinstance(it, A.Game):
                    if self.check_game_block(it, game):
                        game = it
                elif isinstance(it, A.Phase):
                    self._define(self.phases, it, "phase")
                elif isinstance(it, A.Func):
                    self.check_function_name(it)
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

    def compile(self, modules: list[A.Module]) -> Compiled | None:
        game, parts = self._collect(modules)
        if game is None:
            self.no_game_block()
            return None
        self.emit(0, "# generated from rule files; see the line map for positions", A.NOWHERE)
        phases = [(name, f"p_{name}") for name in self.check_phases(game)]
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
        phase_when = self.phase_conditions(game)
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
                        dict(self.events_used), dict(self.windows_used), {},
                        phase_when=phase_when, score_fn=self.check_score_function())

    def phase_conditions(self, game: A.Game) -> list[str | None]:
        """A function for each listed phase's `when` (None: played every
        round), aligned with the phases compiled; [] when none has one."""
        out: list[str | None] = []
        for i, ((name, _), cond) in enumerate(zip(game.phases, game.phase_when)):
            if name not in self.phases:
                continue  # (reported as undefined)
            if cond is None:
                out.append(None)
                continue
            code, t = self.expr(cond, Scope({}, self.globals))
            self.expect(cond, t, "bool", f"the condition of phase {name!r}")
            out.append(f"g_when_{i}")
            self.emit(0, f"def g_when_{i}(G):", cond.span)
            self.emit(1, f"return {code}", cond.span)
        return out if any(out) else []

    def compile_extra(self, modules: list[A.Module], extra: A.Module,
                      base: Compiled) -> tuple[list[str], list[Span]]:
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
        self.check_extra_events(base)
        if self.fast:
            self._fast_passes()
        return self.lines, self.spans


    bound: dict[str, int] = {}  # name -> how often the function being compiled binds it (block)
    _reads: list[str] | None = None  # text_parts: the components whose fields a log text reads
    _reads_scope: Scope | None = None


def compile_ruleset(rs: Ruleset, extra: list | None = None,
                    backend: str = "fast") -> tuple[Compiled | None, list[Diagnostic]]:
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
    diags = undefined_names(diags, modules, rs)
    if c.fast and compiled is not None and not any(d.severity == "error" for d in diags):
        compiled = _typed(rs, modules, c, compiled)
    return compiled, diags


__all__ = ["compile_ruleset", "Compiled", "RESERVED_ATTRS"]
