"""Check the rule modules of a ruleset and compile them to Python source.

One pass over the AST resolves every name, infers what types it can, reports
problems as Diagnostics (REF-UNDEF, TYPE, ARITY, DUP-ID, UNREACHABLE) and emits
Python source for each phase, function, handler and ability. The source never
contains rule text as code: names are mangled and literals are repr()'d. A
line map turns a failing generated line back into its rule position.

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
import math
import re
from pathlib import Path
from dataclasses import dataclass, field

from ..language import ast as A
from ..support.diagnostics import Diagnostic, collapse
from ..language.texts import fixed_texts
from ..support.limits import MAX_NUMBER
from ..load.ruleset import RESERVED_ATTRS, Ruleset
from ..model.state import py_name, to_table
from ..language.types import BUILTINS, compatible, elem, is_list, list_of, of_value

# the characters of every id (schemas: ^[a-z0-9][a-z0-9_-]*$) and of every
# number a label shows
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")

ATTR_TYPES = {"int": "int", "str": "str", "bool": "bool", "space": "space",
              "spaces": "list:space", "enum": "str", "any": "any"}
# Fields the engine gives every side, space and component (never u_-prefixed).
# fields of a component that tell nothing of which one it is: what it is and
# where it lies are seen by all even when the component is hidden
PUBLIC_FIELDS = ("kind", "zone", "holder")
BUILTIN_FIELDS = {"side": {"id", "name", "index", "is_player", "bot"},
                  "space": {"id", "index"},
                  "comp": {"id", "kind", "index", "zone", "holder"}}
# Every name that is a built-in field of some kind of value (zones and piece
# counts included): reading one from a value of unknown type needs the game's
# allow-list (G.attr), any other name is a declared u_ attribute.
ANY_FIELDS = set().union(*BUILTIN_FIELDS.values(), {"size", "top", "items", "owner", "total"})


@dataclass
class Var:
    code: str
    type: str
    assignable: bool = True
    param: tuple | None = None  # its key in Compiler.sites, when its type is inferred
    origin: object = None  # fast: the value of a `let` the function never binds again
    is_param: bool = False  # a function's, handler's or ability's parameter
    # a `let` bound once, of a value read from the fields of components that
    # are never bound again either (`let r = c.rank`): their code and the
    # field, so that a text showing it is as secret as those fields (Game.sourced)
    reads: tuple = ()
    field: str | None = None


@dataclass
class Scope:
    names: dict = field(default_factory=dict)
    parent: "Scope | None" = None

    def lookup(self, name):
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def child(self):
        return Scope({}, self)


@dataclass
class Compiled:
    source: str
    linemap: list  # generated line (1-based index) -> Span
    phases: list  # [(name, function name)]
    setup: str | None
    finish: str | None
    rounds_kind: str
    rounds_fn: str | None
    handlers: list  # (event, priority, order, owner id|None, instead, function name)
    abilities: list  # (window, label, owner id|None, cond fn, body fn)
    decisions: dict  # decision name -> span of first use
    given: set = None  # piece kinds moved between sides by `give`
    # fast back end: piece kind -> where rules ever add it ("space", "comp" for
    # any component, "comp:K" for those of kind K); None (reference): anywhere.
    # Elsewhere its count stays 0 for the whole game.
    stocked: dict = None
    backend: str = "reference"
    # where each rule starts: (path, line, how messages name it), sorted
    places: list = None
    summary: str | None = None  # the game's `summary` block, run when logging
    # what a scenario's own functions are checked against when they are
    # linked onto this program (compile_extra): the events and windows the
    # rules use, (arity, span) each; the fast back end's types (infer_params)
    # the code was written for ({}: untyped)
    events: dict = None
    windows: dict = None
    types: dict = None
    # a linked program: where the scenario's part of `source` starts (in
    # characters; 0: not linked), compiled apart from the shared part
    linked_at: int = 0


def _paid_for(t: str) -> str:
    """paid(), under the name that tells unroll.py what it walks."""
    return "paidl" if t.startswith("list:") else "paidz" if t == "zone" else "paid"


def iter_code(code: str, t: str) -> str:
    """Loop over a value: lists directly (rule lists never change in place),
    zones over a snapshot (rules may move items while looping)."""
    if t.startswith("list:"):
        return code
    if t == "zone":
        return f"{code}.items[:]"
    return f"it({code})"


class Compiler:
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

    def guarded_folds(self, lines, spans):
        """fast: folds left in tests (`if all(...)`) and behind `and`/`or`
        (`_i3 = p.powered and any(...)`, from a function written in place)
        as loops (unroll._guarded)."""
        from .unroll import guarded, lean, unrolled
        out, where = [], []
        for line, span in zip(lines, spans):
            text = line.lstrip()
            lowered = None
            if text.startswith(("if ", "_i", "l_", "return ")) and " for " in text:
                lowered = unrolled(text, self.fresh) or guarded(text, self.fresh)
            if lowered is None and text.startswith(("_i", "l_", "return ")):
                lowered = lean(text, self.fresh)
            if lowered is None:
                out.append(line)
                where.append(span)
                continue
            indent = line[:len(line) - len(text)]
            for i, part in lowered:
                out.append(indent + "    " * i + part)
                where.append(span)
        return out, where

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

    def _fast_passes(self):
        """The fast back end's passes over the written code."""
        from .checks import deferred_checks
        from .inline import inline_calls
        self.lines, self.spans = inline_calls(self.lines, self.spans, self.fresh)
        self.lines, self.spans = self.guarded_folds(self.lines, self.spans)
        self.lines, self.spans = _merged_charges(self.lines, self.spans)
        self.lines, self.spans = deferred_checks(self.lines, self.spans)
        # `c.holder` is only ever written for a component (e_Attr): of a
        # variable, read without the property's call
        self.lines = [_holder_read(line) if ".holder" in line else line
                      for line in self.lines]

    def fits(self, extra, base: Compiled) -> bool:
        """Whether the extra code compiled by compile_extra can run on base's
        own code unchanged: everything it passes to a value the fast back end
        typed is of that type (a full compile would type base alike), and it
        puts pieces only where base's rules do and gives only pieces they give."""
        if not set(self.given) <= set(base.given or ()):
            return False
        if base.stocked is not None:
            for piece, where in self.stocked.items():
                if not where <= base.stocked.get(piece, set()):
                    return False
        types = base.types or {}
        own = {it.name for it in extra.items if isinstance(it, A.Func)}
        own |= {f"f_{n}" for n in own}

        def resolve(src, seen=()):
            if isinstance(src, tuple):
                if src in types:
                    return types[src]
                if len(src) > 1 and src[1] in own and src in self.sites and src not in seen:
                    got = {resolve(x, seen + (src,)) for x in self.sites[src]} - {None}
                    return got.pop() if len(got) == 1 else "any"
                return "any"
            return None if src == "none" else src

        for key, srcs in self.sites.items():
            want = types.get(key)
            if want is None:
                continue  # untyped in base's code: anything may come
            for src in srcs:
                got = resolve(src)
                if got is None:
                    if want.replace("list:", "") == "int":
                        return False  # a number that may be none is untyped
                elif got != want:
                    return False
        return True

    def places(self, modules) -> list:
        """Where each rule starts, and how a runtime failure names it (the
        rule a line is in is the last to start before it in its file)."""
        out = []
        items = [(None, it) for m in modules for it in m.items] + \
            [(c.id, it) for c in self.rs.components if c.rules is not None for it in c.rules.items]
        for owner, it in items:
            if isinstance(it, A.Phase):
                name = f"phase {it.name}"
            elif isinstance(it, A.Func):
                name = it.name
            elif isinstance(it, A.On):
                name = f"a handler of {it.event}" + (f" on {owner}" if owner else "")
            elif isinstance(it, A.Ability):
                name = f"the ability {it.label!r}" + (f" of {owner}" if owner else "")
            elif isinstance(it, A.GamePart):
                name = it.part  # an overlay's setup or finish
            elif isinstance(it, A.Game):
                name = "the game block"
            else:
                continue
            out.append((it.span.path, it.span.line, name))
        return sorted(out)

    def versions(self, pyname, chain):
        """Emit every version of an overridden definition: the last one under
        `pyname`, earlier ones as o0<pyname>, o1<pyname> ... for `original(...)`
        (no rule name can produce a name starting with 'o<digit>')."""
        self.arranging = pyname == "f__arrange"
        for i, node in enumerate(chain):
            name = pyname if i == len(chain) - 1 else f"o{i}{pyname}"
            self.original = (f"o{i - 1}{pyname}", chain[i - 1]) if i > 0 else None
            self.function(name, getattr(node, "params", []), node.body, node,
                          Scope({}, self.globals))
        self.original = None
        self.arranging = False

    def changers(self) -> set:
        """The ruleset's functions that may change the game: one that moves,
        places, pays, chooses, triggers... or sets anything but its own
        names, or calls one that does (every version of an overridden one)."""
        if self._changers is None:
            self._changers = self.callers_of(lambda n: _changes(n.body, set(n.params)))
        return self._changers

    def drawers(self) -> set:
        """The ruleset's functions that may draw from the game's generator
        (random(), shuffled()), themselves or through a function they call."""
        if self._drawers is None:
            self._drawers = self.callers_of(lambda n: any(self.draws(c) for c in _walk(n.body)))
        return self._drawers

    def draws(self, node) -> bool:
        """A call of a built-in that draws from the game's generator."""
        return isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
            node.func.id in _DRAWING_BUILTINS and node.func.id not in self.funcs

    def callers_of(self, test) -> set:
        """The functions for which `test` holds of some version, and those
        that call one of them, however indirectly."""
        own = {}
        for name in self.funcs:
            nodes = self.chains.get(("function", name)) or [self.funcs[name]]
            own[name] = (any(test(n) for n in nodes),
                         {c.func.id for n in nodes for c in _walk(n.body)
                          if isinstance(c, A.Call) and isinstance(c.func, A.Name) and
                          c.func.id in self.funcs})
        out = {f for f, (hit, _) in own.items() if hit}
        grew = True
        while grew:  # what calls such a function does it too
            more = {f for f, (_, calls) in own.items() if f not in out and calls & out}
            out |= more
            grew = bool(more)
        return out

    _drawers = None
    _changers = None

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

    def game_part(self, part, body, game, parts):
        overrides = [p for p in parts if p.part == part]
        if body is None:
            for p in overrides:
                self.err(p, "REF-UNDEF", f"'override {part}' overrides nothing: the game has "
                         f"no {part} block")
            return None
        self.versions(f"g_{part}", [A.GamePart(part, body, span=game.span)] + overrides)
        return f"g_{part}"

    def _define(self, table, node, what):
        key = (what, node.name)
        if getattr(node, "override", False):
            if node.name not in table:
                self.undef(node, f"{what} to override", node.name, table)
                return
            prev = table[node.name]
            if what == "function" and len(prev.params) != len(node.params):
                self.err(node, "ARITY", f"override of {node.name!r} takes {len(node.params)} "
                         f"parameter(s); the original takes {len(prev.params)}")
            table[node.name] = node
            self.chains[key].append(node)
            return
        if node.name not in table:
            self.chains[key] = [node]
        if node.name in table:
            first = table[node.name].span
            self.err(node, "DUP-ID", f"{what} {node.name!r} is defined twice "
                     f"(first at {first.path}:{first.line})")
            self.duplicates.append(node)  # still checked, under a throwaway name
        else:
            table[node.name] = node

    def function(self, pyname, params, body, node, scope, extra=()):
        self.check_params(node, params)
        args = ["G", *extra] + [f"l_{p}" for p in dict.fromkeys(params)]
        name = pyname[2:] if pyname.startswith("f_") and pyname[2:] in self.funcs else None
        self.typed_params(scope, params, body, "fn", name)
        self.emit(0, f"def {pyname}({', '.join(args)}):", node.span)
        self.tick(1, node.span)
        self.current_fn = name
        self.block(body, scope, 1)
        self.current_fn = None

    def typed_params(self, scope, params, body, what, name):
        """Parameters as variables: typed as inferred (fast back end) unless
        the body binds the name anew."""
        rebound = _rebound(body) if self.fast and name is not None else set()
        for i, p in enumerate(params):
            if self.fast and name is not None and p not in rebound and \
                    len(set(params)) == len(params):
                key = (what, name, i)
                scope.names[p] = Var(f"l_{p}", self.param_types.get(key, "any"), param=key,
                                     is_param=True)
            else:
                scope.names[p] = Var(f"l_{p}", "any", is_param=True)

    def passed(self, key, node, t, scope):
        """Fast back end: note what a call, trigger or return passes to `key`."""
        if not self.fast:
            return
        src = t
        if isinstance(node, A.Name):
            v = scope.lookup(node.id)
            if v is not None and v.param is not None:
                src = v.param
        elif isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
                node.func.id in self.funcs and scope.lookup(node.func.id) is None:
            src = ("ret", node.func.id)
        elif isinstance(node, A.Attr) and id(node) in self.attr_src:
            src = self.attr_src[id(node)]
        self.sites.setdefault(key, []).append(src)

    def card_scope(self, owner, params):
        """Scope of a handler or ability: its parameters, and `this` on a card."""
        scope = Scope({}, self.globals)
        if owner is not None:
            scope.names["this"] = Var("this", f"comp:{self.kind_of_comp[owner]}", False)
        for p in params:
            scope.names[p] = Var(f"l_{p}", "any", is_param=True)
        return scope

    def compile_handlers(self):
        out = []
        for order, entry in enumerate(self.handler_defs):
            owner, h = entry if isinstance(entry, tuple) else (None, entry)
            scope = self.card_scope(owner, h.params)
            self.typed_params(scope, h.params, [h.cond, h.body], "ev", h.event)
            self.check_params(h, h.params)
            fn = f"h_{order}_{h.event}"
            args = ["G", "this"] + [f"l_{p}" for p in dict.fromkeys(h.params)]
            self.emit(0, f"def {fn}({', '.join(args)}):", h.span)
            self.tick(1, h.span)
            if h.cond is not None:
                code, t = self.expr(h.cond, scope)
                self.expect(h.cond, t, "bool", "a 'when' condition")
                self.emit(1, f"if not ({code}):", h.cond.span)
                self.emit(2, "return NOMATCH", h.cond.span)
            self.block(h.body, scope.child(), 1)
            out.append((h.event, h.priority, order, owner, h.instead, fn))
        return out

    def compile_abilities(self):
        out = []
        for order, entry in enumerate(self.ability_defs):
            owner, ab = entry if isinstance(entry, tuple) else (None, entry)
            if not ab.params:
                self.err(ab, "ARITY", "an ability's first parameter is the player using it")
                continue
            scope = self.card_scope(owner, ab.params)
            if len(set(ab.params)) == len(ab.params):  # the window's arguments, as inferred
                self.typed_params(scope, ab.params[1:], [ab.cond, ab.body], "win", ab.window)
            scope.names[ab.params[0]] = Var(f"l_{ab.params[0]}", "side", is_param=True)
            self.check_params(ab, ab.params)
            args = ", ".join(["G", "this"] + [f"l_{p}" for p in dict.fromkeys(ab.params)])
            cond = f"a_{order}_cond"
            self.emit(0, f"def {cond}({args}):", ab.span)
            if ab.cond is not None:
                code, t = self.expr(ab.cond, scope)
                self.expect(ab.cond, t, "bool", "a 'when' condition")
                self.emit(1, f"return {code}", ab.cond.span)
            else:
                self.emit(1, "return True", ab.span)
            body = f"a_{order}_{ab.window}"
            self.emit(0, f"def {body}({args}):", ab.span)
            self.tick(1, ab.span)
            self.block(ab.body, scope.child(), 1)
            out.append((ab.window, ab.label, owner, cond, body, len(ab.params) - 1, ab))
        return out

    def check_events(self):
        for entry in self.handler_defs:
            h = entry[1] if isinstance(entry, tuple) else entry
            used = self.events_used.get(h.event)
            if used is None:
                self.err(h, "UNREACHABLE", f"no rule triggers event {h.event!r}",
                         hint="a 'trigger' or 'collect' of this name runs the handler",
                         severity="warning")
            elif h.instead and h.event not in self.replaceable:
                self.err(h, "UNREACHABLE", f"event {h.event!r} is never triggered with a "
                         "default block, so this 'instead' handler never runs",
                         hint="write: trigger NAME(...) { default rules }", severity="warning")
            elif used[0] != len(h.params):
                self.err(h, "ARITY", f"event {h.event!r} is triggered with {used[0]} "
                         f"argument(s) but this handler takes {len(h.params)}")
        for window, label, owner, cond, body, nargs, ab in self.abilities_checked():
            used = self.windows_used.get(window)
            if used is None:
                self.err(ab, "UNREACHABLE", f"no rule opens window {window!r}", severity="warning")
            elif used[0] != nargs:
                self.err(ab, "ARITY", f"window {window!r} passes {used[0]} argument(s) but this "
                         f"ability takes {nargs} after the player")

    def abilities_checked(self):
        return self._abilities

    # ---------------------------------------------------------------- types
    def expect(self, node, got, want, what):
        if not compatible(got, want):
            self.err(node, "TYPE", f"{what} must be {_tname(want)}, not {_tname(got)}")

    def attr_type(self, node, t, name) -> tuple[str, bool] | None:
        """(type, assignable) of attribute `name` on type t; None if unknown."""
        rs = self.rs
        if t == "any":
            if name not in self.any_fields():  # nothing this value could be has it
                return self.no_attr(node, "no value of this ruleset", name,
                                    sorted(self.any_fields()), what="field")
            return ("any", True)
        if t == "side":
            if name in ("id", "name"):
                return ("str", False)
            if name == "index":
                return ("int", False)
            if name in ("is_player", "bot"):
                return ("bool", False)
            if name in rs.side_vars:
                t0 = of_value(rs.side_vars[name])
                if t0 in ("any", "none"):  # declared without a value: typed by what it is given
                    return (self.param_types.get(("svar", name), "any"), True)
                return (t0, True)
            if name in rs.zone_names("side"):
                return ("zone", False)
            if name in rs.pieces:  # a supply: fixed, but a scenario may set it up
                return ("int", self.arranging)
            return self.no_attr(node, "side", name, ["id", "name", "index", "is_player", "bot",
                                                      *rs.side_vars, *rs.zone_names("side"),
                                                      *rs.pieces])
        if t == "space":
            if name == "id":
                return ("str", False)
            if name == "index":
                return ("int", False)
            if name in rs.space_attrs:
                return (ATTR_TYPES[rs.space_attrs[name].type], False)
            if name in rs.zone_names("space"):
                return ("zone", False)
            if name in rs.pieces:
                return ("row", False)
            return self.no_attr(node, "space", name, ["id", "index", *rs.space_attrs,
                                                       *rs.zone_names("space"), *rs.pieces])
        if t.startswith("comp"):
            if name in ("id", "kind"):
                return ("str", False)
            if name == "index":
                return ("int", False)
            if name == "zone":
                return ("zone", False)
            if name == "holder":
                return ("side", False)
            if name in rs.pieces:
                return ("row", False)
            kinds = [rs.kinds[t[5:]]] if t.startswith("comp:") and t[5:] in rs.kinds else \
                list(rs.kinds.values())
            found = set()
            for k in kinds:
                if name in k.attributes:
                    found.add((ATTR_TYPES[k.attributes[name].type], False))
                elif name in k.properties:
                    found.add((of_value(k.properties[name]), True))
            if found:  # one kind, or several: the type is known when they agree
                types = {f[0] for f in found}
                return (types.pop() if len(types) == 1 else "any", any(f[1] for f in found))
            known = ["id", "kind", "zone", "holder", *rs.pieces]
            for k in kinds:
                known += list(k.attributes) + list(k.properties)
            what = f"component of kind {kinds[0].name!r}" if len(kinds) == 1 else "component"
            return self.no_attr(node, what, name, known)
        if t == "zone":
            table = {"id": "str", "name": "str", "owner": "any", "size": "int", "top": "comp",
                     "items": "list:comp"}
            if name in table:
                return (table[name], False)
            return self.no_attr(node, "zone", name, list(table))
        if t == "row":
            if name == "total":
                return ("int", False)
            return self.no_attr(node, "piece count", name, ["total"])
        if t == "options":
            if name in rs.options:
                ch = rs.options[name]["choices"]
                return (of_value(ch[0]) if ch else "any", False)
            return self.no_attr(node, "option", name, list(rs.options), what="option")
        if t == "table":
            if name in rs.tables:
                value = rs.tables[name]
                return ("table:" + name if isinstance(value, dict) else of_value(value), False)
            return self.no_attr(node, "tables", name, list(rs.tables), what="table")
        if t.startswith("table"):
            return ("any", False)
        if t in ("int", "bool", "str", "none", "func") or t.startswith("list:"):
            self.err(node, "TYPE", f"{_tname(t)} has no attribute {name!r}")
            return None
        return ("any", True)

    def no_attr(self, node, owner, name, known, what="attribute"):
        near = difflib.get_close_matches(name, known, n=1)
        if what == "field":
            self.err(node, "REF-UNDEF", f"{owner} has a field {name!r}: not a side, space, "
                     "component, zone or table row", hint=f"did you mean {near[0]!r}?" if near
                     else "declare it (a side variable, an attribute or property of a kind)")
            return None
        self.err(node, "REF-UNDEF", f"{owner} has no {what} {name!r}" if what == "attribute"
                 else f"undefined {what} {name!r}",
                 hint=f"did you mean {near[0]!r}?" if near else "")
        return None

    _any_fields = None

    def any_fields(self) -> set:
        """Every field some value of this ruleset has: what `x.name` can read
        or write when the checker cannot tell what x is (the runtime's
        allow-lists, and the keys of the tables' rows)."""
        if self._any_fields is None:
            rs = self.rs
            out = set(ANY_FIELDS) | {"name", "kind"} | set(rs.side_vars) | set(rs.pieces)
            out |= set(rs.space_attrs) | {n for _, n in rs.zones}
            for k in rs.kinds.values():
                out |= set(k.attributes) | set(k.properties)

            def keys(v, depth=0):
                if isinstance(v, dict) and depth < 64:
                    for k, x in v.items():
                        out.add(str(k))
                        keys(x, depth + 1)
                elif isinstance(v, list) and depth < 64:
                    for x in v:
                        keys(x, depth + 1)
            keys(rs.tables)  # rows of tables, and records inside components and spaces
            keys([c.values for c in rs.components])
            keys([v for _, v in rs.spaces])
            keys(rs.side_vars)
            keys(rs.game_vars)
            self._any_fields = out
        return self._any_fields

    # ---------------------------------------------------------------- expressions
    def expr(self, n, scope) -> tuple[str, str]:
        meth = getattr(self, "e_" + type(n).__name__)
        return meth(n, scope)

    def e_Num(self, n, scope):
        return repr(n.value), "int"

    def e_Const(self, n, scope):
        return repr(n.value), {True: "bool", False: "bool", None: "none"}[n.value]

    def e_Str(self, n, scope):
        """A text built by interpolation. Its values may hide something from
        some seat (a component lying where not everyone sees it, a field of
        a card a secret decision picked, a secret text): then B_built makes
        it a secret text (views.Secret), which keeps what it shows from those
        who may not see it wherever the text goes. The plain joined code
        stays the fast way when checks made in place show nothing hides."""
        parts, raw, grows, tests, built = [], [], False, [], False
        for p in n.parts:
            if isinstance(p, str):
                parts.append(repr(p))
                if len(raw) % 2:
                    raw[-1] = raw[-1] + f" + {p!r}"
                else:
                    raw.append(repr(p))
                continue
            if len(raw) % 2 == 0:
                raw.append("''")
            code, t, shown = self.shown_code(p, scope)
            raw.append(shown)
            if "G.sourced(" in shown:
                tests.append("not G._picked")
            obj = self.id_of.get(id(p))
            if shown.startswith("G.ident(") or shown.startswith("G.sourced(G.ident("):
                if _pure(p):
                    o = obj[0]
                    tests.append(f"({o}.__class__ is not Comp or {o}.zone is None or "
                                 f"{o}.zone.visibility == 'public')")
                else:
                    built = True
            if t == "int":
                parts.append(f"str({code})")
            elif t in ("side", "space"):
                parts.append(f"{code}.id")
            elif t.startswith("comp"):
                parts.append(f"{code}.id")
                if _pure(p):
                    tests.append(f"({code}.zone is None or {code}.zone.visibility == 'public')")
                else:
                    built = True
            elif t == "str" and isinstance(p, A.Attr) and p.name == "id" and \
                    code.endswith(".id"):
                parts.append(code)  # a known side's, space's or component's id: fixed
            elif t == "str":
                parts.append(code)
                grows = True
                if id(p) in self.fixed_fields:
                    pass
                elif _pure(p):  # a text that may be a secret one
                    tests.append(f"{code}.__class__ is not Secret")
                else:
                    built = True
            else:
                parts.append(f"show(G, {code})")
                grows = True
                if id(p) in self.fixed_fields:
                    pass
                elif _pure(p):  # a value that may hide something: a text, a number ...?
                    tests.append(f"{code}.__class__ in PLAIN")
                else:
                    built = True
            raw.append("''")
        if built:
            return f"B_built(G, ({', '.join(raw)},))", "str"
        if not parts:
            return "''", "str"
        joined = parts[0] if len(parts) == 1 else " + ".join(parts)
        # text made of other text can double each turn of a loop: keep it bounded
        if grows and len(parts) > 1:
            joined = f"B_text(G, {joined})"
        self.joined[id(n)] = joined  # (lazy_label reads what the words are made of)
        if tests:
            return f"({joined} if {' and '.join(dict.fromkeys(tests))} else " \
                f"B_built(G, ({', '.join(raw)},)))", "str"
        return joined, "str"

    def reading(self, p, scope):
        """expr(p), and the components whose fields it reads (as code), in
        case one is a card a secret decision picked (Game.sourced)."""
        saved = self._reads, self._reads_scope
        self._reads, self._reads_scope = [], scope
        try:
            code, t = self.expr(p, scope)
            return code, t, self._reads
        finally:
            self._reads, self._reads_scope = saved

    def shown_code(self, p, scope):
        """reading(p) for a value a text shows: (code, type, the code of its
        value as the text's secrets need it). A component's id shows the
        component (`{c.id}` of a card lying hidden is 'a card' to those who may
        not see it, Game.ident); a field read goes with what it was read from
        (Game.sourced)."""
        code, t, reads = self.reading(p, scope)
        raw = code
        obj = self.id_of.get(id(p))
        if obj is not None and (obj[1] == "any" or obj[1].startswith("comp")):
            reads = [r for r in reads if r != obj[0]]
            raw = f"G.ident({obj[0]})"
        if reads:
            raw = f"G.sourced({raw}, ({', '.join(reads)},), {self.read_field(p, scope)!r})"
        return code, t, raw

    def e_Name(self, n, scope):
        v = scope.lookup(n.id)
        if v is not None:
            if v.reads and self._reads is not None and scope is self._reads_scope:
                self._reads.extend(v.reads)  # `let r = c.rank`: as secret as c.rank
            return v.code, v.type
        if n.id in self.funcs or n.id in BUILTINS:
            self.err(n, "TYPE", f"function {n.id!r} must be called: {n.id}(...)")
            return "None", "any"
        known = set()
        s = scope
        while s is not None:
            known |= set(s.names)
            s = s.parent
        self.undef(n, "name", n.id, known)
        return "None", "any"

    bound: dict = {}  # name -> how often the function being compiled binds it (block)
    _reads = None  # text_parts: the components whose fields a log text reads
    _reads_scope = None

    def e_Attr(self, n, scope):
        code, t = self.expr(n.obj, scope)
        at = self.attr_type(n, t, n.name)
        if at is None:
            return "None", "any"
        if n.name == "id" or not at[1] and at[0] == "str":
            self.fixed_fields.add(id(n))  # the ruleset's data: never a secret text (e_Str)
        if n.name == "id":
            self.id_of[id(n)] = (code, t)  # `{c.id}` is c, to a text (reading)
        if self._reads is not None and scope is self._reads_scope and \
                (t == "any" or t.startswith("comp")) and n.name not in PUBLIC_FIELDS:
            self._reads.append(code)  # a field of what may be a hidden component
        if self.fast and t == "side" and n.name in self.rs.side_vars:
            self.attr_src[id(n)] = ("svar", n.name)  # passed on: whatever that variable is
        if self.fast and t == "zone" and n.name == "top" and _pure(n.obj):
            return f"({code}.items[0] if {code}.items else None)", at[0]  # Zone.top, in place
        return self.attr_code(code, t, n.name), at[0]

    def attr_code(self, code, t, name):
        """Python for attribute `name` of a value of static type t. Declared
        attributes live under u_<name>; built-in fields by their own names;
        a value of unknown type goes through the game's allow-list."""
        if t == "zone":
            if name == "size":
                return f"len({code}.items)"
            if name == "items":
                return f"items(G, {code})"
            return f"{code}.{name}"
        if t == "row":
            return f"sum({code}.counts)"
        if t == "table" and self.fast and code == "G.tables" and name in self.rs.tables:
            value = to_table(self.rs.tables[name])  # as every game of the program reads it
            if value is None or type(value) in (int, str, bool):
                return repr(value)  # tables never change: the value itself
        if t in ("options", "table"):  # names checked against the ruleset
            return f"{code}[{name!r}]"
        if t.startswith("table:"):
            return f"G.key({code}, {name!r})"
        if t in BUILTIN_FIELDS and name in BUILTIN_FIELDS[t] or \
                t.startswith("comp") and name in BUILTIN_FIELDS["comp"]:
            return f"{code}.{name}"
        if t in ("side", "space") or t.startswith("comp") or name not in ANY_FIELDS:
            # a declared name: only sides, spaces, components and table rows
            # have u_ attributes, so nothing else can answer to it
            return f"{code}.{py_name(name)}"
        return f"G.attr({code}, {name!r})"  # a built-in field of whatever x turns out to be

    def e_Index(self, n, scope):
        code, t = self.expr(n.obj, scope)
        icode, it = self.expr(n.index, scope)
        if t == "row":
            self.expect(n.index, it, "side", "a piece count's index")
            return f"{code}.counts[{icode}.index]", "int"
        if is_list(t):
            self.expect(n.index, it, "int", "a list index")
            if self.fast and t == "zone":
                return f"{code}.items[{icode}]", elem(t)  # Zone.__getitem__, in place
            return f"{code}[{icode}]", elem(t)
        if t in ("int", "bool", "none", "side", "space") or t.startswith("comp"):
            self.err(n, "TYPE", f"{_tname(t)} cannot be indexed")
        return f"{code}[{icode}]", "any"

    def e_Call(self, n, scope):
        if not isinstance(n.func, A.Name):
            self.err(n, "TYPE", "only named functions can be called")
            return "None", "any"
        name = n.func.id
        kwargs = [a for a in n.args if isinstance(a, A.KeywordArg)]
        args = []
        walks = self.fast and self.typed_pass and name in _WALKERS and \
            scope.lookup(name) is None and name not in self.funcs
        for a in n.args:
            if isinstance(a, A.KeywordArg):
                continue
            if walks and len(args) == 1 and isinstance(a, A.Lambda):
                # a typed pass: the function is given the list's items
                args.append(self.e_Lambda(a, scope, elem(args[0][1])))
            else:
                args.append(self.expr(a, scope))
        if kwargs and not (name in BUILTINS and scope.lookup(name) is None and
                           name not in self.funcs):
            self.err(kwargs[0], "ARITY", f"{name}() takes no '{kwargs[0].name}:' argument",
                     hint="only built-in functions such as sorted(xs, by: ...) take named "
                     "arguments")
            kwargs = []
        if name == "original" and scope.lookup(name) is None:
            if self.original is None:
                self.err(n, "REF-UNDEF", "original(...) is only allowed in an 'override'")
                return "None", "any"
            target, node = self.original
            want = len(getattr(node, "params", []))
            if len(args) != want:
                self.err(n, "ARITY", f"original() takes {want} argument(s), got {len(args)}")
            return f"{target}({', '.join(['G'] + [c for c, _ in args])})", "any"
        codes = [c for c, _ in args]
        types = [t for _, t in args]
        local = scope.lookup(name)
        if local is not None and local.type == "func":
            # a `let` of a lambda (never reassigned): pay a step, then call it
            return f"(spend(G, 1) or fn({local.code})({', '.join(codes)}))", "any"
        if name in self.funcs:
            fn = self.funcs[name]
            if len(args) != len(fn.params):
                self.err(n, "ARITY", f"{name}() takes {len(fn.params)} argument(s), "
                         f"got {len(args)}")
            for i, (a, t) in enumerate(zip([a for a in n.args if not isinstance(a, A.KeywordArg)],
                                           types)):
                self.passed(("fn", name, i), a, t, scope)
            return f"f_{name}({', '.join(['G', *codes])})", self.param_types.get(("ret", name),
                                                                                "any")
        if name in BUILTINS:
            b = BUILTINS[name]
            if len(args) < b.min_args or (b.max_args >= 0 and len(args) > b.max_args):
                want = (f"{b.min_args}" if b.min_args == b.max_args else
                        f"{b.min_args} to {b.max_args}" if b.max_args >= 0 else
                        f"at least {b.min_args}")
                self.err(n, "ARITY", f"{name}() takes {want} argument(s), got {len(args)}")
                return "None", "any"
            self.check_builtin(n, name, types)
            for i in b.fn_args:
                if i < len(types) and types[i] != "func" and not compatible(types[i], "func"):
                    self.err(n.args[i], "TYPE", f"{name}()'s argument {i + 1} must be a "
                             f"function such as x => x.value, not {_tname(types[i])}")
            kw_codes, kw_trusted = self.keyword_args(name, b, kwargs, scope)
            if name == "cash" and not self.rs.money:
                self.err(n, "REF-UNDEF", "cash() needs money: declare `money:` in game.yaml")
            result = b.result(types)
            if name == "component" and isinstance(n.args[0], A.Str) and \
                    len(n.args[0].parts) == 1 and isinstance(n.args[0].parts[0], str):
                cid = n.args[0].parts[0]
                if cid in self.kind_of_comp:
                    result = f"comp:{self.kind_of_comp[cid]}"
            trusted = bool(b.fn_args) and all(i < len(types) and types[i] == "func"
                                              for i in b.fn_args)
            if b.keywords:
                trusted = kw_trusted
            indexed = self.indexed_first(n, scope) if self.fast and name == "first" else None
            if indexed is not None:
                return indexed, result
            if self.fast and name == "track" and len(n.args) == 1 and \
                    isinstance(n.args[0], A.Str) and len(n.args[0].parts) == 1 and \
                    n.args[0].parts[0] in self.rs.tracks:
                track = n.args[0].parts[0]
                size = len(self.rs.tracks[track][0])
                code = f"(spend(G, {size}) or list(G.tracks[{track!r}][0]))"
                self.track_loops[code] = (size, f"G.tracks[{track!r}][0]")
                return code, result
            if self.fast and name in ("space", "component") and isinstance(n.args[0], A.Str) \
                    and len(n.args[0].parts) == 1 and isinstance(n.args[0].parts[0], str):
                known = n.args[0].parts[0]
                table = "spaces_by_id" if name == "space" else "comps_by_id"
                if known in (self.space_ids if name == "space" else self.kind_of_comp):
                    return f"G.{table}[{known!r}]", result  # one of every game's own
            if self.fast and name == "range" and len(n.args) == 1 and \
                    isinstance(n.args[0], A.Num) and 0 <= n.args[0].value <= 64:
                k = n.args[0].value  # range(3): the list itself, the same steps paid
                return f"(spend(G, {k}) or {list(range(k))!r})", result
            if self.fast and name == "len" and len(codes) == 1:
                if types[0] == "zone":
                    return f"len({codes[0]}.items)", result
                # a list, text, table or (Zone.__len__) zone: what B_len
                # counts; anything else fails either way
                return f"len({codes[0]})", result
            if self.fast and name in ("min", "max") and len(codes) >= 2 and \
                    all(t == "int" for t in types):
                # numbers: as B_min/B_max compare them (lists would walk unpaid)
                return f"{name}({', '.join(codes)})", result
            if self.fast and name == "sum" and len(codes) == 1 and codes[0] in self.guarded:
                # nobody answers: the empty list's one step, and 0
                call, live = self.guarded[codes[0]]
                return f"(B_sum(G, {call}) if {live} else (spend(G, 1) or 0))", result
            if self.fast and name == "cash" and self.rs.money and len(n.args) == 1 and \
                    isinstance(n.args[0], A.Name):
                # a side's money: its notes times their values, summed in place
                # (as B_cash reads them, whatever the value: the same failure)
                return "(" + " + ".join(f"{codes[0]}.{py_name(piece)} * {value}"
                                        for piece, value in self.rs.money) + ")", result
            walked = self.walk_inline(name, n, codes, kwargs, types) if self.fast else None
            if walked is not None:
                return walked, result
            # a lambda, or a `let` of one: known to be rule code, no need to check it
            tail = kw_codes + (["trusted=True"] if trusted else [])
            return f"B_{name}({', '.join(['G'] + codes + tail)})", result
        self.undef(n.func, "function", name, list(self.funcs) + list(BUILTINS))
        return "None", "any"

    def runs_no_rules(self, nodes, scope) -> bool:
        """No rule function, handler (collect) or let-bound lambda runs in
        these expressions: only built-ins and lambdas written in them."""
        for n in _walk(nodes):
            if isinstance(n, A.Collect):
                return False
            if isinstance(n, A.Call) and not (isinstance(n.func, A.Name) and
                                              n.func.id in BUILTINS and
                                              n.func.id not in self.funcs and
                                              scope.lookup(n.func.id) is None):
                return False
        return True

    def walk_inline(self, name, n, codes, kwargs, types):
        """fast: sum, count, any, every, first, distinct or group_by over a list with a lambda
        written in place, as one Python loop over the paid-for items (no call
        of the lambda per item); the same steps, results and order of
        evaluation as the built-in (builtins.py), any and every stopping
        at the same item. None when the call is not of that form."""
        form = _WALKS.get(name)
        if form is None or kwargs or len(n.args) != 2 or not isinstance(n.args[1], A.Lambda):
            return None
        head = f"(lambda l_{n.args[1].param}: "
        if not (codes[1].startswith(head) and codes[1].endswith(")")):
            return None
        return form.format(body=codes[1][len(head):-1], var=f"l_{n.args[1].param}",
                           xs=f"{_paid_for(types[0])}(G, {codes[0]})")

    def infer_params(self, lists: bool = True) -> dict:
        """The type of each parameter, result, event argument and game or
        side variable declared without a value that is always a value of one kind
        (a side, a space, a component, a number, a list of one of those; a
        parameter may also be a zone; a number is never one that may be
        none), from what every call, trigger, `return` and
        assignment passes: what passes a parameter or a call on passes its
        type. Functions with overrides keep untyped parameters and results,
        and so does whatever something untyped reaches."""
        single = {f for f in self.funcs if len(self.chains.get(("function", f), ())) == 1}

        def eligible(key):
            return key[0] in ("ev", "win", "var", "svar", "local") or key[1] in single

        types = {key: None for key in self.sites if eligible(key)}  # None: not known yet

        def source(src):
            if isinstance(src, tuple):
                return types.get(src, "any")
            if src == "none":
                return None  # a missing value: fails alike however it is typed
            entity = src
            while lists and entity.startswith("list:"):  # lists of lists too (ranked)
                entity = entity[5:]
            if entity in ("side", "space", "int") or entity.startswith("comp") or src == "zone":
                return src
            return "any"

        changed = True
        while changed:
            changed = False
            for key in types:
                if types[key] == "any":
                    continue
                seen = {source(src) for src in self.sites[key]}
                seen.discard(None)
                t = seen.pop() if len(seen) == 1 else "any" if seen else None
                if t is not None and t.replace("list:", "") == "int" and \
                        "none" in self.sites[key]:
                    t = "any"  # none shows as "none" untyped: a number must never be none
                if t == "zone" and key[0] == "ret":
                    t = "any"  # a result may be none, where a zone loop would differ
                if t != types[key]:
                    types[key] = t
                    changed = True
        return {k: t for k, t in types.items() if t not in (None, "any")}

    def indexed_first(self, n, scope):
        """Fast back end: `first(components("K"), x => x.A == E)`, A a fixed
        attribute of kind K (or its id) and E a pure expression without x,
        is a lookup in an index of K by A, built once per game. It pays the
        steps the scan would (components() and first() walk every K)."""
        if len(n.args) != 2 or not isinstance(n.args[1], A.Lambda):
            return None
        src, lam = n.args
        if not (isinstance(src, A.Call) and isinstance(src.func, A.Name) and
                src.func.id == "components" and scope.lookup("components") is None and
                "components" not in self.funcs and len(src.args) == 1 and
                isinstance(src.args[0], A.Str) and len(src.args[0].parts) == 1 and
                isinstance(src.args[0].parts[0], str)):
            return None
        kind = src.args[0].parts[0]
        kd = self.rs.kinds.get(kind)
        body = lam.body
        if kd is None or not isinstance(body, A.Compare) or body.op != "==":
            return None
        for field_side, other in ((body.left, body.right), (body.right, body.left)):
            if not (isinstance(field_side, A.Attr) and isinstance(field_side.obj, A.Name) and
                    field_side.obj.id == lam.param):
                continue
            attr = field_side.name
            fixed = attr == "id" or (attr in kd.attributes and attr not in kd.properties and
                                     kd.attributes[attr].type in ("int", "str", "bool", "space",
                                                                  "enum"))
            uses_x = any(isinstance(m, A.Name) and m.id == lam.param for m in _walk(other))
            if not fixed or uses_x or not _pure(other):
                continue
            count = sum(1 for c in self.rs.components if c.kind == kind)
            if count == 0:
                return None
            seen = len(self.diags)
            code, t = self.expr(other, scope)  # compiled once already, in the lambda
            del self.diags[seen:]
            if t in ("side", "space", "int", "str", "bool") or t.startswith("comp"):
                # a value that hashes: the index read in place once it is built
                key = (kind, attr)
                return (f"(spend(G, {2 * count + 1}) or (G._firsts.get({key!r}) or "
                        f"G.first_index({kind!r}, {attr!r})).get({code}))")
            return f"(spend(G, {2 * count + 1}) or G.first_by({kind!r}, {attr!r}, {code}))"
        return None

    def keyword_args(self, name, b, kwargs, scope):
        """`by: KEY` for the built-ins that take one: KEY is a function or a
        list of functions. Returns (python keyword arguments, all known lambdas)."""
        out, trusted, seen = [], True, set()
        for kw in kwargs:
            if kw.name not in b.keywords:
                self.err(kw, "ARITY", f"{name}() takes no '{kw.name}:' argument" +
                         (f" (it takes {', '.join(k + ':' for k in b.keywords)})"
                          if b.keywords else ""))
                continue
            if kw.name in seen:
                self.err(kw, "ARITY", f"'{kw.name}:' is given twice")
                continue
            seen.add(kw.name)
            code, t = self.expr(kw.value, scope)
            if t == "func":
                pass
            elif isinstance(kw.value, A.ListLit) and kw.value.items:
                for item in kw.value.items:
                    if not isinstance(item, A.Lambda):
                        trusted = False
                        _, it = self.expr(item, scope)
                        if not compatible(it, "func"):
                            self.err(item, "TYPE", f"'{kw.name}:' lists functions such as "
                                     f"x => x.cost, not {_tname(it)}")
            elif compatible(t, "func") and not is_list(t):
                trusted = False
            elif t.startswith("list:"):
                trusted = False
            else:
                self.err(kw.value, "TYPE", f"'{kw.name}:' takes a function such as x => x.cost "
                         f"or a list of them, not {_tname(t)}")
            out.append(f"{kw.name}={code}")
        return out, trusted

    def check_builtin(self, n, name, types):
        """Literal arguments the checker can verify against the ruleset."""
        lit = None
        if n.args and isinstance(n.args[0], A.Str) and len(n.args[0].parts) == 1 \
                and isinstance(n.args[0].parts[0], str):
            lit = n.args[0].parts[0]
        if name == "space" and lit is not None and lit not in self.space_ids:
            self.undef(n.args[0], "space", lit, self.space_ids)
        elif name == "component" and lit is not None and lit not in self.kind_of_comp:
            self.undef(n.args[0], "component", lit, self.kind_of_comp)
        elif name == "components" and lit is not None and lit not in self.rs.kinds:
            self.undef(n.args[0], "component kind", lit, self.rs.kinds)
        elif name in ("track", "step", "distance") and lit is not None and lit not in self.rs.tracks:
            self.undef(n.args[0], "track", lit, self.rs.tracks)
        elif name == "linked" and len(n.args) == 2 and isinstance(n.args[1], A.Str) and \
                len(n.args[1].parts) == 1 and isinstance(n.args[1].parts[0], str) and \
                n.args[1].parts[0] not in self.rs.links:
            self.undef(n.args[1], "link kind", n.args[1].parts[0], self.rs.links)
        if name in ("step",) and len(types) == 3:
            self.expect(n.args[2], types[2], "int", "the number of steps")
        if name in ("abs",):
            self.expect(n.args[0], types[0], "int", "abs()'s argument")

    def e_Collect(self, n, scope):
        typed = [self.expr(a, scope) for a in n.args]
        codes = [c for c, _ in typed]
        for i, (a, (_, t)) in enumerate(zip(n.args, typed)):
            self.passed(("ev", n.event, i), a, t, scope)
        self.use_event(n, n.event, len(codes))
        args = f"({''.join(c + ', ' for c in codes)})"
        if n.targets is not None:
            return f"G.collect_on({n.event!r}, {args}, {self.targets(n.targets, scope)})", \
                "list:any"
        if self.fast and all(_pure(a) for a in n.args):
            if n.event not in self.heard:
                return "[]", "list:any"
            code = f"(G.collect({n.event!r}, {args}) if G.ev_{n.event} else [])"
            self.guarded[code] = (f"G.collect({n.event!r}, {args})", f"G.ev_{n.event}")
            return code, "list:any"
        return f"G.collect({n.event!r}, {args})", "list:any"

    def targets(self, node, scope):
        """`on X`: the components whose handlers run (a component, list or zone)."""
        code, t = self.expr(node, scope)
        if t in ("int", "bool", "str", "none", "side", "space", "row") or \
                t.startswith("table") or t == "options":
            self.err(node, "TYPE", f"'on' names components (a component, a list or a zone), "
                     f"not {_tname(t)}")
        return code

    def e_ListLit(self, n, scope):
        items = [self.expr(i, scope) for i in n.items]
        t = items[0][1] if items and all(t == items[0][1] for _, t in items) else "any"
        return f"[{', '.join(c for c, _ in items)}]", list_of(t)

    def e_Comprehension(self, n, scope):
        icode, it = self.expr(n.iter, scope)
        inner = scope.child()
        inner.names[n.var] = Var(f"l_{n.var}", elem(it))
        ecode, et = self.expr(n.elt, inner)
        cond = ""
        if n.cond is not None:
            ccode, ct = self.expr(n.cond, inner)
            self.expect(n.cond, ct, "bool", "a comprehension's test")
            cond = f" if {ccode}"
        # fast: the same function, one call fewer (and named by what it walks,
        # for unroll.py)
        walk = _paid_for(it) if self.fast else "B_each"
        return f"[{ecode} for l_{n.var} in {walk}(G, {icode}){cond}]", list_of(et)

    def e_Lambda(self, n, scope, param="any"):
        inner = scope.child()
        inner.names[n.param] = Var(f"l_{n.param}", param)
        code, _ = self.expr(n.body, inner)
        return f"(lambda l_{n.param}: {code})", "func"

    def e_BinOp(self, n, scope):
        lc, lt = self.expr(n.left, scope)
        rc, rt = self.expr(n.right, scope)
        if n.op == "+" and (is_list(lt) or is_list(rt)):
            if not (compatible(lt, rt) or "any" in (lt, rt)) and self.typed_pass and \
                    is_list(lt) and is_list(rt):
                # a typed pass (the untyped one accepted this): a mixed list
                return f"B_concat(G, {lc}, {rc})", "list:any"
            if not (compatible(lt, rt) or "any" in (lt, rt)):
                self.err(n, "TYPE", f"cannot add {_tname(lt)} and {_tname(rt)}")
            t = lt if is_list(lt) and lt != "zone" else rt if is_list(rt) and rt != "zone" \
                else "list:comp"
            return f"B_concat(G, {lc}, {rc})", t
        if n.op == "+" and (lt == "str" or rt == "str"):
            self.err(n, "TYPE", "text is joined with interpolation: \"{a}{b}\", not '+'")
            return "None", "str"
        for side, t in ((n.left, lt), (n.right, rt)):
            self.expect(side, t, "int", f"an operand of '{n.op}'")
        lit = isinstance(n.left, A.Num), isinstance(n.right, A.Num)
        if all(lit):
            return f"({lc} {'//' if n.op == '/' else n.op} {rc})", "int"
        # fast: operands that only compute may be read twice, so the common
        # case (numbers the checker knows are numbers, well inside the limit)
        # skips the helper's call
        inline = self.fast and _pure(n.left) and _pure(n.right)
        if n.op in ("+", "-"):
            if any(lit):  # grows by a constant a turn at most; lists and text fail on it
                return f"({lc} {n.op} {rc})", "int"
            if lt == rt == "int":
                if inline:
                    half = MAX_NUMBER // 2
                    return (f"({lc} {n.op} {rc} if -{half} <= {lc} <= {half} and "
                            f"-{half} <= {rc} <= {half} else num({lc} {n.op} {rc}))"), "int"
                return f"num({lc} {n.op} {rc})", "int"
            return f"B_{'add' if n.op == '+' else 'sub'}(G, {lc}, {rc})", "int"
        # * / % check their operands first: a list or a text must never be
        # repeated or formatted by Python
        helper = {"*": "B_mul", "/": "B_div", "%": "B_mod"}[n.op]
        if inline and n.op == "*" and lt == rt == "int":
            call = f"B_mul(G, {lc}, {rc})"
            for x, y, is_lit in ((lc, n.right, lit[1]), (rc, n.left, lit[0])):
                if is_lit and y.value != 0:  # x * c: in range while |x| <= limit // |c|
                    k = MAX_NUMBER // abs(y.value)
                    return f"({lc} * {rc} if -{k} <= {x} <= {k} else {call})", "int"
            root = math.isqrt(MAX_NUMBER)
            return (f"({lc} * {rc} if -{root} <= {lc} <= {root} and -{root} <= {rc} <= {root} "
                    f"else {call})"), "int"
        return f"{helper}(G, {lc}, {rc})", "int"

    def e_Compare(self, n, scope):
        lc, lt = self.expr(n.left, scope)
        rc, rt = self.expr(n.right, scope)
        if n.op in ("==", "!=", "in", "notin") and not self.typed_pass:
            self.check_text(n)
        if self.fast and not self.typed_pass:
            self.untyped[id(n)] = (lt, rt)
        # what the steps paid depend on: the types the untyped code knew
        plt, prt = self.untyped.get(id(n), (lt, rt)) if self.typed_pass else (lt, rt)
        if n.op in ("in", "notin"):
            if rt in ("int", "bool", "none", "side", "space") or rt.startswith("comp"):
                self.err(n.right, "TYPE", f"'in' needs a list, zone or text, not {_tname(rt)}")
            if not (prt.startswith("list:") or prt == "any"):  # zones, texts, tables: no walk
                op = "in" if n.op == "in" else "not in"
                return f"({lc} {op} {rc})", "bool"
            code = f"B_in(G, {lc}, {rc})"  # a list: paid for by its length
            if self.fast and rc.startswith("B_linked(G, ") and isinstance(n.right, A.Call) and \
                    len(n.right.args) == 2:
                # x in linked(s, kind): one call, the same steps (the list's length)
                code = f"B_in_linked(G, {lc}, {rc[len('B_linked(G, '):]}"
            return (code if n.op == "in" else f"(not {code})"), "bool"
        if n.op in ("<", ">", "<=", ">="):
            self.expect(n.left, lt, "int", f"an operand of '{n.op}'")
            self.expect(n.right, rt, "int", f"an operand of '{n.op}'")
        elif not compatible(lt, rt):
            self.err(n, "TYPE", f"comparing {_tname(lt)} with {_tname(rt)} is always "
                     f"{'false' if n.op == '==' else 'true'}")
        # no entity defines equality, and nothing else equals one: identity
        # (`!=` of an object whose class defines `<` costs a lookup chain)
        if n.op in ("==", "!=") and ("none" in (lt, rt) or lt in ("side", "space") or
                                     lt.startswith("comp") or rt in ("side", "space") or
                                     rt.startswith("comp")):
            op = "is" if n.op == "==" else "is not"
            return f"({lc} {op} {rc})", "bool"
        # lists (and values of unknown type, which may be lists) compare item
        # by item, nested lists too: B_eq pays for the walk (walkcost.py)
        if n.op in ("==", "!=") and (plt.startswith("list:") or prt.startswith("list:") or
                                     plt == prt == "any") and \
                (is_list(plt) or plt == "any") and (is_list(prt) or prt == "any"):
            if self.fast and any(isinstance(x, A.ListLit) and not x.items
                                 for x in (n.left, n.right)):
                # against [] the walk pays min(len, 0) = 0 steps: a plain test
                for code, empty in ((lc, n.right), (rc, n.left)):
                    if code in self.guarded and isinstance(empty, A.ListLit) and not empty.items:
                        # nobody answers the collect: its empty list, equal to []
                        call, live = self.guarded[code]
                        if n.op == "==":
                            return f"(not {live} or {call} == [])", "bool"
                        return f"({live} and {call} != [])", "bool"
                return f"({lc} {n.op} {rc})", "bool"
            code = f"B_eq(G, {lc}, {rc})"  # lists compare item by item: paid for
            return (code if n.op == "==" else f"(not {code})"), "bool"
        return f"({lc} {n.op} {rc})", "bool"

    def check_text(self, n):
        """`x.title == "contact"`, `x.id in ["a", "b"]`: a text that the field
        holds nowhere in the data (texts.py) makes the test constant; a
        warning, with the nearest text the field does hold."""
        pairs = [(n.left, n.right)] if n.op in ("in", "notin") else \
            [(n.left, n.right), (n.right, n.left)]
        for attr, lit in pairs:
            if not isinstance(attr, A.Attr):
                continue
            texts = [x for x in ([lit] if isinstance(lit, A.Str) else
                                 lit.items if isinstance(lit, A.ListLit) else [])
                     if isinstance(x, A.Str)]
            known = fixed_texts(self.rs).get(attr.name)
            if not texts or known is None:
                continue
            for x in texts:
                if len(x.parts) != 1 or not isinstance(x.parts[0], str):
                    continue  # a text with {...} in it: made in play
                text = x.parts[0]
                if text in known:
                    continue
                near = difflib.get_close_matches(text, sorted(known), n=1, cutoff=0.6)
                self.err(x, "REF-TEXT", f"no {attr.name} in this ruleset is {text!r}, so "
                         f"this test is always {'false' if n.op in ('==', 'in') else 'true'}",
                         hint=f"did you mean {near[0]!r}?" if near else
                         f"the {attr.name}s in the data: " + ", ".join(sorted(known)[:8])
                         + (" ..." if len(known) > 8 else ""), severity="warning")

    def e_BoolOp(self, n, scope):
        lc, lt = self.expr(n.left, scope)
        rc, rt = self.expr(n.right, scope)
        self.expect(n.left, lt, "bool", f"an operand of '{n.op}'")
        self.expect(n.right, rt, "bool", f"an operand of '{n.op}'")
        return f"({lc} {n.op} {rc})", "bool"

    def e_Not(self, n, scope):
        c, t = self.expr(n.operand, scope)
        self.expect(n.operand, t, "bool", "the operand of 'not'")
        return f"(not {c})", "bool"

    def e_Neg(self, n, scope):
        c, t = self.expr(n.operand, scope)
        self.expect(n.operand, t, "int", "the operand of '-'")
        return f"(-{c})", "int"

    def e_Ternary(self, n, scope):
        cc, ct = self.expr(n.cond, scope)
        self.expect(n.cond, ct, "bool", "the condition of 'if'")
        ac, at = self.expr(n.then, scope)
        bc, bt = self.expr(n.other, scope)
        return f"({ac} if {cc} else {bc})", at if at == bt else "any"

    # ---------------------------------------------------------------- statements
    def block(self, stmts, scope, ind):
        if ind == 1:  # a function's body: how often each name is bound in it
            self.bound = _bindings(stmts)
        for s in stmts:
            getattr(self, "s_" + type(s).__name__)(s, scope, ind)

    def cond(self, node, scope, what):
        code, t = self.expr(node, scope)
        self.expect(node, t, "bool", what)
        return code

    def s_Let(self, s, scope, ind):
        code, t, reads = self.reading(s.value, scope)
        # `let x = none` declares a variable for a value to come: any type
        # (fast: the type of every value the function gives that variable)
        if self.fast and t in ("none", "any") and self.py_fn is not None:
            key = ("local", self.py_fn, s.name)
            self.passed(key, s.value, t, scope)
            scope.names[s.name] = Var(f"l_{s.name}", self.param_types.get(key, "any"),
                                      param=key)
        else:
            once = self.fast and getattr(self, "bound", {}).get(s.name) == 1
            scope.names[s.name] = Var(f"l_{s.name}", "any" if t == "none" else t,
                                      origin=s.value if once else None)
        if reads and self.bound.get(s.name) == 1 and all(self.fixed(r, scope) for r in reads):
            v = scope.names[s.name]
            v.reads = tuple(dict.fromkeys(reads))
            v.field = s.value.name if isinstance(s.value, A.Attr) else None
        self.emit(ind, f"l_{s.name} = {code}", s.span)

    def fixed(self, code, scope) -> bool:
        """Is `code` a local name the function binds once only (a parameter:
        never), so that it holds the same value wherever its scope reaches?"""
        if not code.startswith("l_"):
            return False
        v = scope.lookup(code[2:])
        return v is not None and v.code == code and \
            self.bound.get(code[2:], 0) == (0 if v.is_param else 1)

    def s_Assign(self, s, scope, ind):
        vcode, vt = self.expr(s.value, scope)
        tgt = s.target
        checked = False  # `x += y`: the sum is range-checked (x += x must not grow for ever)
        if s.op != "=":
            self.expect(s.value, vt, "int", f"the value of '{s.op}'")
            checked = not isinstance(s.value, A.Num)
        if isinstance(tgt, A.Name):
            v = scope.lookup(tgt.id)
            if v is None:
                self.undef(tgt, "variable", tgt.id, [])
                self.err(tgt, "REF-UNDEF", f"declare local variables with 'let {tgt.id} = ...'",
                         severity="info")
                return
            if not v.assignable:
                self.err(tgt, "TYPE", f"{tgt.id!r} cannot be assigned")
                return
            if v.type == "func" and vt != "func":
                self.err(s.value, "TYPE", f"{tgt.id!r} holds a function: it can only be given "
                         f"another function (x => ...), not {_tname(vt)}")
                return
            self.check_assign(s, v.type, vt)
            if v.param is not None and v.param[0] in ("var", "local"):
                self.passed(v.param, s.value, vt if s.op == "=" else "int", scope)
            tcode = v.code
        elif isinstance(tgt, A.Attr):
            ocode, ot = self.expr(tgt.obj, scope)
            at = self.attr_type(tgt, ot, tgt.name)
            if at is None:
                return
            if not at[1]:
                self.err(tgt, "TYPE", f"{tgt.name!r} of {_tname(ot)} is fixed and cannot be "
                         "assigned", hint="only variables and component properties change")
                return
            self.check_assign(s, at[0], vt)
            if ot in ("side", "any") and tgt.name in self.rs.side_vars:
                self.passed(("svar", tgt.name), s.value, vt if s.op == "=" else "int", scope)
            if ot in ("side", "space") or ot.startswith("comp") or tgt.name in self.only_writable:
                # known, or a name the ruleset declares only as variables and
                # properties: nothing else has a u_ attribute by that name to spoil
                tcode = f"{ocode}.{py_name(tgt.name)}"
            else:  # unknown type: the game checks that the attribute may change
                if s.op == "=":
                    self.emit(ind, f"G.set_attr({ocode}, {tgt.name!r}, {vcode})", s.span)
                    return
                t = self.fresh("t")
                self.emit(ind, f"{t} = {ocode}", s.span)
                self.emit(ind, f"G.set_attr({t}, {tgt.name!r}, num(G.attr({t}, {tgt.name!r}) "
                          f"{s.op[0]} {vcode}))", s.span)
                return
        else:
            ocode, ot = self.expr(tgt.obj, scope)
            icode, _ = self.expr(tgt.index, scope)
            if ot in ("row", "table", "options", "zone", "str") or ot.startswith("table"):
                self.err(tgt, "TYPE", f"{_tname(ot)} cannot be changed by assignment",
                         hint="pieces move with place/remove/transfer, components with move")
                return
            tcode = f"{ocode}[{icode}]"
        if checked and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*",
                                        tcode):
            vcode = f"num({vcode})"  # the target has parts to evaluate: check the value
            checked = False
        self.emit(ind, f"{tcode} {s.op} {vcode}", s.span)
        if checked:  # a plain name or attribute: reading it again is free of effects
            self.emit(ind, f"if not -{MAX_NUMBER} <= {tcode} <= {MAX_NUMBER}: num({tcode})",
                      s.span)

    def check_assign(self, s, target_t, vt):
        if target_t in ("int", "bool", "str") and not compatible(vt, target_t) and vt != "none":
            self.err(s.value, "TYPE", f"assigning {_tname(vt)} to a variable of {_tname(target_t)}")

    def s_If(self, s, scope, ind):
        for i, (c, body) in enumerate(s.branches):
            code = self.cond(c, scope, "an 'if' condition")
            self.emit(ind, f"{'if' if i == 0 else 'elif'} {code}:", c.span)
            self.body(body, scope, ind + 1, c.span)
        if s.orelse is not None:
            self.emit(ind, "else:", s.span)
            self.body(s.orelse, scope, ind + 1, s.span)

    def body(self, stmts, scope, ind, span):
        n = len(self.lines)
        self.block(stmts, scope.child(), ind)
        if len(self.lines) == n:
            self.emit(ind, "pass", span)

    def s_For(self, s, scope, ind):
        inner = self.loop_head(s.var, s.iter, s.cond, s.span, scope, ind, "loop over")
        self.body(s.body, inner, ind + 1, s.span)

    def loop_head(self, var, iter_node, cond, span, scope, ind, what):
        """`for VAR in LIST [where COND]`: the loop line, its step and its
        filter; returns the scope of the loop's body."""
        icode, it = self.expr(iter_node, scope)
        if it in ("int", "bool", "none", "side", "space", "str") or it.startswith("comp"):
            self.err(iter_node, "TYPE", f"cannot {what} {_tname(it)}")
        inner = scope.child()
        inner.names[var] = Var(f"l_{var}", elem(it))
        if icode in self.track_loops:  # rules never change a track: walk it as it is
            size, direct = self.track_loops[icode]
            self.emit(ind, f"G.fuel -= {size}", span)
            self.emit(ind, "if G.fuel < 0: G.out_of_steps()", span)
            icode = direct
        self.emit(ind, f"for l_{var} in {iter_code(icode, it)}:", span)
        self.tick(ind + 1, span)
        if cond is not None:
            c = self.cond(cond, inner, "a 'where' condition")
            self.emit(ind + 1, f"if not ({c}): continue", cond.span)
        return inner

    def s_While(self, s, scope, ind):
        c = self.cond(s.cond, scope, "a 'while' condition")
        self.emit(ind, f"while {c}:", s.span)
        self.tick(ind + 1, s.span)
        self.body(s.body, scope, ind + 1, s.span)

    def s_Repeat(self, s, scope, ind):
        code, t = self.expr(s.count, scope)
        self.expect(s.count, t, "int", "the count of 'repeat'")
        self.emit(ind, f"for _ in range({code}):", s.span)
        self.tick(ind + 1, s.span)
        self.body(s.body, scope, ind + 1, s.span)

    def s_Return(self, s, scope, ind):
        if s.value is None:
            self.emit(ind, "return None", s.span)
        else:
            code, t = self.expr(s.value, scope)
            if self.current_fn is not None:
                self.passed(("ret", self.current_fn), s.value, t, scope)
            self.emit(ind, f"return {code}", s.span)

    def s_Break(self, s, scope, ind):
        self.emit(ind, "break", s.span)

    def s_Continue(self, s, scope, ind):
        self.emit(ind, "continue", s.span)

    def s_Log(self, s, scope, ind):
        to = ""
        if s.to is not None:
            code, t = self.expr(s.to, scope)
            if not (compatible(t, "side") or compatible(t, "list:side")):
                self.err(s.to, "TYPE", f"a log line is for a side or a list of sides, not "
                         f"{_tname(t)}")
            to = f", {code}"
        else:
            self.public_text(s.value, scope, "this log line is read by everyone")
        self.only_reads(s.value, "a log text", "a log line is made only when a log is kept")
        if isinstance(s.value, A.Str) and any(not isinstance(p, str) for p in s.value.parts):
            items = self.text_parts(s.value, scope)
            self.emit(ind, f"if G.logging: G.log_text(lambda: ({', '.join(items)},){to})",
                      s.span)
            return
        code, _ = self.expr(s.value, scope)
        # (made by Game.text_of: a log text spends no steps and never fails a game)
        self.emit(ind, f"if G.logging: G.log_text(lambda: (show(G, {code}),){to})", s.span)

    def text_parts(self, value, scope) -> list:
        """A text's parts as code, literal text and values alternating: the
        values go to the log as they are, so that a component some seat may
        not see is shown to it as "a card" (views.py)."""
        if not isinstance(value, A.Str):
            return [f"show(G, {self.expr(value, scope)[0]})"]
        parts = [""]
        for p in value.parts:
            if isinstance(p, str):
                parts[-1] += p
                continue
            parts += [self.shown_value(p, scope), ""]
        return [repr(p) if i % 2 == 0 else p for i, p in enumerate(parts)]

    def shown_value(self, p, scope) -> str:
        """A value inserted in a log text or a prompt, as code. One read from a
        component's fields ({c.rank}) is as secret as the component: it goes
        with it (views.Sourced), so that those who may not see the component
        read what it is, not what it says."""
        return self.shown_code(p, scope)[2]

    def read_field(self, p, scope):
        """The field a shown value reads (`{c.rank}`, or `{r}` kept by `let r = c.rank`)."""
        if isinstance(p, A.Attr):
            return p.name
        v = scope.lookup(p.id) if isinstance(p, A.Name) else None
        return v.field if v is not None else None

    def log_clause(self, node, scope, subject) -> str | None:
        """A statement's `log TEXT` (or `log x => TEXT`, x being what the
        event moved, drew, rolled, paid, placed or chose, of type `subject`) as
        code for a function giving the line's parts; None without one."""
        if node is None:
            return None
        var, inner, body = "l_", scope, node
        if isinstance(node, A.Lambda):
            inner = scope.child()
            inner.names[node.param] = Var(f"l_{node.param}", subject)
            var, body = f"l_{node.param}", node.body
        self.public_text(body, inner, "this log line is read by everyone who sees the event")
        self.only_reads(body, "a log text", "a log line is made only when a log is kept")
        return f"(lambda {var}: ({', '.join(self.text_parts(body, inner))},))"

    def public_text(self, node, scope, what):
        """A text everyone reads must not insert a variable only its owner (or
        nobody) may see: `log ... to p` is how to tell it to p alone."""
        hidden = self.rs.var_visibility
        if not hidden:
            return
        for sub in _walk(node):
            name = None
            if isinstance(sub, A.Attr) and ("side", sub.name) in hidden and \
                    sub.name not in self.shared_names:
                name = sub.name
            elif isinstance(sub, A.Name) and ("game", sub.id) in hidden:
                v = scope.lookup(sub.id)
                if v is not None and v.code == f"G.v_{sub.id}":
                    name = sub.id
            if name is not None:
                self.err(sub, "VISIBILITY", f"{what}, but {name!r} is "
                         f"{'seen by its owner only' if hidden.get(('side', name)) == 'owner' else 'hidden'}",
                         hint="write `log TEXT to SIDE` for a line only that side reads")
                return

    def s_ExprStmt(self, s, scope, ind):
        code, _ = self.expr(s.expr, scope)
        if not isinstance(s.expr, (A.Call, A.Collect)):
            self.err(s, "TYPE", "this expression does nothing on its own", severity="warning")
        self.emit(ind, code, s.span)

    def location(self, node, scope, what, adds=None):
        """A location's code; `adds`: the piece kind placed there (see stocked)."""
        code, t = self.expr(node, scope)
        if not (t in ("space", "any") or t.startswith("comp")):
            self.err(node, "TYPE", f"{what} must be a space or a component, not {_tname(t)}")
        if adds is not None:
            self.stocked.setdefault(adds, set()).update(
                ("space",) if t == "space" else (t,) if t.startswith("comp")
                else ("space", "comp"))
        return code

    def piece(self, s):
        if s.piece not in self.rs.pieces:
            self.undef(s, "piece kind", s.piece, self.rs.pieces)

    def count(self, node, scope):
        if node is None:
            self.known = True
            return "None"
        code, t = self.expr(node, scope)
        self.expect(node, t, "int", "a piece count")
        self.known = t == "int"  # (pieces counted in place need a number)
        return code

    def side(self, node, scope, what):
        code, t = self.expr(node, scope)
        self.expect(node, t, "side", what)
        self.known = t == "side"
        return code

    def s_Place(self, s, scope, ind):
        self.piece(s)
        n = self.count(s.count, scope)
        typed = self.known
        o = self.side(s.owner, scope, "the owner of placed pieces")
        typed = typed and self.known
        loc = self.location(s.loc, scope, "where pieces are placed", s.piece)
        say = self.log_clause(s.log, scope, "int")
        say = f", {say}" if say else ""
        if self.fast and typed:
            # from a supply that has them, in place as Game.place counts them;
            # a short supply, none, a count below one or a log takes its way
            a, ov, lv, nv = py_name(s.piece), self.fresh("o"), self.fresh("l"), self.fresh("n")
            for line in [f"{ov} = {o}", f"{lv} = {loc}", f"{nv} = {n}",
                         f"if {ov} is not None and {nv} is not None and not G.logging and "
                         f"0 < {nv} <= {ov}.{a}:",
                         f"    {ov}.{a} -= {nv}",
                         f"    {lv}.{a}.counts[{ov}.index] += {nv}",
                         "else:",
                         f"    G.place({s.piece!r}, {ov}, {lv}, {nv}{say})"]:
                self.emit(ind, line, s.span)
            return
        self.emit(ind, f"G.place({s.piece!r}, {o}, {loc}, {n}{say})", s.span)

    def s_Remove(self, s, scope, ind):
        self.piece(s)
        n = self.count(s.count, scope)
        typed = self.known
        o = "None" if s.owner is None else self.side(s.owner, scope, "the owner of removed pieces")
        typed = typed and s.owner is not None and self.known
        if s.owner is None and s.count is not None:
            self.err(s, "TYPE", "without 'of OWNER' only 'remove all' is allowed")
        loc = self.location(s.loc, scope, "where pieces are removed from")
        if self.fast and typed:
            # one owner's pieces back to its supply, in place as Game.remove
            # counts them; a log takes its way
            ov, lv, nv = self.fresh("o"), self.fresh("l"), self.fresh("n")
            for line in [f"{ov} = {o}", f"{lv} = {loc}", f"{nv} = {n}",
                         *self.taken(f"G.remove({s.piece!r}, {ov}, {lv}, {nv})", s.piece, ov,
                                     lv, nv, f"{ov}.{py_name(s.piece)} += ")]:
                self.emit(ind, line, s.span)
            return
        self.emit(ind, f"G.remove({s.piece!r}, {o}, {loc}, {n})", s.span)

    def taken(self, call, piece, owner, src, n, into):
        """fast: the lines that take at most n (all, if none) of owner's
        pieces from src as Game.remove and Game.transfer count them, and
        add what was taken with `into` (the engine's `call` keeps a log)."""
        row, k = self.fresh("r"), self.fresh("k")
        return ["if G.logging:", f"    {call}", "else:",
                f"    {row} = {src}.{py_name(piece)}.counts",
                f"    {k} = {row}[{owner}.index]",
                f"    if {n} is not None and {n} < {k}: {k} = {n}",
                f"    if {k} > 0:",
                f"        {row}[{owner}.index] -= {k}",
                f"        {into}{k}"]

    def s_Transfer(self, s, scope, ind):
        self.piece(s)
        n = self.count(s.count, scope)
        typed = self.known
        o = self.side(s.owner, scope, "the owner of moved pieces")
        typed = typed and self.known
        a = self.location(s.src, scope, "where pieces come from")
        b = self.location(s.dst, scope, "where pieces go", s.piece)
        say = self.log_clause(s.log, scope, "int")
        say = f", {say}" if say else ""
        if self.fast and typed:
            # in place as Game.transfer counts them; a log takes its way
            ov, av, bv, nv = self.fresh("o"), self.fresh("a"), self.fresh("b"), self.fresh("n")
            into = f"{bv}.{py_name(s.piece)}.counts[{ov}.index] += "
            for line in [f"{ov} = {o}", f"{av} = {a}", f"{bv} = {b}", f"{nv} = {n}",
                         *self.taken(f"G.transfer({s.piece!r}, {ov}, {av}, {bv}, {nv}{say})",
                                     s.piece, ov, av, nv, into)]:
                self.emit(ind, line, s.span)
            return
        self.emit(ind, f"G.transfer({s.piece!r}, {o}, {a}, {b}, {n}{say})", s.span)

    def s_Move(self, s, scope, ind):
        wc, wt = self.expr(s.what, scope)
        if wt in ("int", "bool", "str", "none", "side", "space"):
            self.err(s.what, "TYPE", f"only components move between zones, not {_tname(wt)}")
        dc, dt = self.expr(s.dest, scope)
        self.expect(s.dest, dt, "zone", "a move's destination")
        top = s.position == "top"
        say = self.log_clause(s.log, scope, "list:comp" if wt == "zone" else wt)
        say = f", {say}" if say else ""
        if self.fast and wt.startswith("comp") and dt == "zone" and _ZONE_PATH.match(dc):
            # one component (or none) into a zone, moved in place as Game.move
            # moves it; one with handlers or abilities, or a log, takes its way
            m, z = self.fresh("m"), self.fresh("z")
            for line in [f"{m} = {wc}",
                         f"if {m} is not None and not {m}._hooks and not G.logging:",
                         f"    {m}._seen = None",
                         f"    {z} = {m}.zone",
                         f"    if {z} is not None: {z}.items.remove({m})",
                         f"    {dc}.items.insert(0, {m})" if top else f"    {dc}.items.append({m})",
                         f"    {m}.zone = {dc}",
                         "else:",
                         f"    G.move({m}, {dc}, {top}{say})"]:
                self.emit(ind, line, s.span)
            return
        self.emit(ind, f"G.move({wc}, {dc}, {top}{say})", s.span)

    def s_Roll(self, s, scope, ind):
        code, t = self.expr(s.what, scope)
        kinds = [t[5:]] if t.startswith("comp:") else [
            elem(t)[5:]] if elem(t).startswith("comp:") else []
        for k in kinds:
            if k in self.rs.kinds and "value" not in self.rs.kinds[k].properties:
                self.err(s.what, "TYPE", f"components of kind {k!r} have no 'value' property "
                         "to roll", hint="declare properties: {value: 1} and attributes: "
                         "{sides: ...}")
        say = self.log_clause(s.log, scope, t)
        say = f", {say}" if say else ""
        if self.fast and t == "zone" and _ZONE_PATH.match(code):
            # the dice of a zone rolled in place, drawing what Game.roll draws
            # (engine.DRAWS_INLINE); a die without a whole number of sides,
            # a rig or a log takes the engine's way
            b, x, k, r = self.fresh("b"), self.fresh("x"), self.fresh("k"), self.fresh("r")
            for i, line in enumerate([
                    "if G.rig is None and not G.logging and G.draws_inline:",
                    f"    {b} = G.rng.getrandbits",
                    f"    for {x} in {code}.items:",
                    f"        {x}._seen = None",  # (as Game.roll: a reveal ends)
                    f"        {k} = {x}._bits",
                    f"        if {k}:",
                    f"            {r} = {b}({k})",
                    f"            while {r} >= {x}.u_sides: {r} = {b}({k})",
                    f"            {x}.u_value = 1 + {r}",
                    "        else:",
                    f"            G.roll({x})",
                    "else:",
                    f"    G.roll({code}{say})"]):
                self.emit(ind, line, s.span)
            return
        self.emit(ind, f"G.roll({code}{say})", s.span)

    def s_Shuffle(self, s, scope, ind):
        code, t = self.expr(s.zone, scope)
        self.expect(s.zone, t, "zone", "what is shuffled")
        self.emit(ind, f"G.shuffle({code})", s.span)

    def s_Draw(self, s, scope, ind):
        n = self.count(s.count, scope)
        a, at = self.expr(s.src, scope)
        b, bt = self.expr(s.dst, scope)
        self.expect(s.src, at, "zone", "where cards are drawn from")
        self.expect(s.dst, bt, "zone", "where drawn cards go")
        say = self.log_clause(s.log, scope, "list:comp")
        self.emit(ind, f"G.draw({n}, {a}, {b}{', ' + say if say else ''})", s.span)

    def s_Give(self, s, scope, ind):
        self.piece(s)
        n = self.count(s.count, scope)
        a = self.side(s.giver, scope, "who gives")
        b = self.side(s.taker, scope, "who receives")
        self.given.add(s.piece)
        say = self.log_clause(s.log, scope, "int")
        self.emit(ind, f"G.give({s.piece!r}, {n}, {a}, {b}{', ' + say if say else ''})", s.span)

    def s_Pay(self, s, scope, ind):
        if not self.rs.money:
            self.err(s, "REF-UNDEF", "'pay' needs money: declare `money:` in game.yaml")
        n = self.count(s.amount, scope)
        a = self.side(s.payer, scope, "who pays")
        b = self.side(s.payee, scope, "who is paid")
        say = self.log_clause(s.log, scope, "int")
        self.emit(ind, f"G.pay({n}, {a}, {b}{', ' + say if say else ''})", s.span)

    def s_Choose(self, s, scope, ind):
        name = s.name or f"choice@{s.span.line}"
        self.decisions.setdefault(name, s.span)
        if s.each is None:
            who = self.side(s.player, scope, "who chooses")
            self.ask(s, who, name, scope, ind)(ind)
            return
        # `choose each P in LIST`: every answer is taken (the log holds them)
        # before any option's rules run, so nobody answers knowing another's
        lcode, lt = self.expr(s.player, scope)
        self.expect(s.player, lt, "list:side", "the players of 'choose each'")
        inner = scope.child()
        inner.names[s.each] = Var(f"l_{s.each}", "side")
        answers, ch = self.fresh("an"), self.fresh("c")
        self.emit(ind, f"{answers} = []; G.hold_choices()", s.span)
        self.emit(ind, f"for l_{s.each} in {iter_code(lcode, lt)}:", s.span)
        self.tick(ind + 1, s.span)
        dispatch = self.ask(s, f"l_{s.each}", name, inner, ind + 1, ch)
        self.emit(ind + 1, f"{answers}.append((l_{s.each}, {ch}))", s.span)
        self.emit(ind, "G.release_choices()", s.span)
        self.emit(ind, f"for l_{s.each}, {ch} in {answers}:", s.span)
        dispatch(ind + 1)

    def ask(self, s, who, name, scope, ind, ch=None):
        """Emit the question of a `choose` (its options and the agent's answer
        in `ch`); returns what emits the answer's rules at a given indent."""
        if len(s.options) == 1 and isinstance(s.options[0], A.SomeOption):
            return self.choose_some(s, s.options[0], who, name, scope, ind, ch)
        opts, labs = self.fresh("o"), self.fresh("l")
        ch = ch or self.fresh("c")
        ranked = any(o.prefer is not None for o in s.options)
        prefs, wv = (self.fresh("p"), self.fresh("w")) if ranked else ("None", who)
        if ranked:  # bots rank options by `prefer`; players never pay for it
            self.emit(ind, f"{wv} = {who}; {prefs} = [] if {wv}.bot else None", s.span)
            who = wv
        start = len(self.lines)
        self.emit(ind, f"{opts} = []; {labs} = []", s.span)
        # fast: labels that can only differ (lazy_label) are made when asked for
        lazy = [] if self.fast and self.plain_ids else None
        for k, opt in enumerate(s.options):
            inner = scope.child()
            depth = ind
            vars_ = []
            # fast: an option loop that nothing can end early (no rule function
            # or handler runs inside it, which might `win`) pays its steps,
            # one a turn, before it starts: the same total
            upfront = self.fast and self.runs_no_rules(
                [it for _, it in opt.fors[1:]] + [opt.cond, opt.label, opt.prefer], scope)
            for var, it in opt.fors:
                icode, itype = self.expr(it, inner)
                inner = inner.child()
                inner.names[var] = Var(f"l_{var}", elem(itype))
                if upfront:
                    if icode in self.track_loops:
                        size, direct = self.track_loops[icode]
                        walk, cost = direct, str(2 * size)
                    else:
                        walk = self.fresh("ow")
                        self.emit(depth, f"{walk} = {iter_code(icode, itype)}", opt.span)
                        cost = f"len({walk})"
                    self.emit(depth, f"G.fuel -= {cost}", opt.span)
                    self.emit(depth, "if G.fuel < 0: G.out_of_steps()", opt.span)
                    self.emit(depth, f"for l_{var} in {walk}:", opt.span)
                    depth += 1
                else:
                    self.emit(depth, f"for l_{var} in {iter_code(icode, itype)}:", opt.span)
                    depth += 1
                    self.tick(depth, opt.span)
                vars_.append(var)
            if opt.cond is not None:
                c = self.cond(opt.cond, inner, "an option's 'when' condition")
                self.emit(depth, f"if {c}:", opt.cond.span)
                depth += 1
            lcode, lt = self.expr(opt.label, inner)
            self.expect(opt.label, lt, "str", "an option label")
            self.public_text(opt.label, inner, "the log shows every option taken")
            vals = "".join(f" l_{v}," for v in vars_)
            if lazy is not None:
                head = self.lazy_label(opt, lcode, inner)
                lazy = None if head is None else \
                    lazy + [(head, k, vars_, lcode, len(self.lines), depth)]
            self.emit(depth, f"{opts}.append(({k},{vals})); {labs}.append({lcode})", opt.span)
            if ranked:
                pcode = "None"
                if opt.prefer is not None:
                    pcode, pt = self.expr(opt.prefer, inner)
                    self.rank_type(opt.prefer, pt)
                self.emit(depth, f"if {prefs} is not None: {prefs}.append({pcode})",
                          opt.prefer.span if opt.prefer is not None else opt.span)
            opt._scope = inner
            opt._vars = vars_
        if s.may:
            if lazy is not None:
                lazy.append(("pass", -1, [], "'pass'", len(self.lines), ind))
            self.emit(ind, f"{opts}.append((-1,)); {labs}.append('pass')", s.span)
            if ranked:
                self.emit(ind, f"if {prefs} is not None: {prefs}.append(None)", s.span)
        if lazy and all(not a.startswith(b) for i, (a, *_) in enumerate(lazy)
                        for j, (b, *_) in enumerate(lazy) if i != j):
            self.label_function(lazy, opts, labs, start, ind, s.span)
        site = f"{s.span.path.rsplit('/', 1)[-1]}:{s.span.line}"
        say = self.log_clause(s.log, scope, "str")
        extra = f", {prefs if ranked else None}, {site!r}, {say}" if say else \
            f", {prefs}, {site!r}" if ranked else ""
        self.emit(ind, f"{ch} = G.choose({who}, {name!r}, {self.prompt(s, who, scope)}, {opts}, "
                  f"{labs}{extra})", s.span)

        def dispatch(ind):
            for k, opt in enumerate(s.options):
                self.emit(ind, f"{'if' if k == 0 else 'elif'} {ch} is not None and "
                          f"{ch}[0] == {k}:", opt.span)
                if opt._vars:
                    names = ", ".join(f"l_{v}" for v in opt._vars)
                    self.emit(ind + 1, f"{names}{',' if len(opt._vars) == 1 else ''} = {ch}[1:]",
                              opt.span)
                self.body(opt.body, opt._scope, ind + 1, opt.span)
            # the option's rules have run: a scenario may check here
            self.emit(ind, f"if {ch} is not None and G.hooks is not None: G.decided()", s.span)
        return dispatch

    def rank_type(self, node, t):
        """A `prefer` rank: a number, or a list of numbers compared item by
        item (the first decides, the next breaks a tie...)."""
        if t not in ("list:int", "list:any"):  # (a list's numbers are checked as it ranks)
            self.expect(node, t, "int", "a 'prefer' rank (a number or a list of numbers)")

    def prompt(self, s, who, scope) -> str:
        """A decision's prompt as code: a fixed text as itself; one that shows
        values (`"{p} offers {n}"`) made for the player choosing, who reads a
        component it may not see as 'a <kind>' (Game.prompt_for)."""
        if s.prompt is None:
            return "None"
        if all(isinstance(p, str) for p in s.prompt.parts):
            return repr("".join(s.prompt.parts))
        self.public_text(s.prompt, scope, "a prompt shows every value it names")
        out = []  # text, value, text, value ...
        for p in s.prompt.parts:
            if isinstance(p, str):
                out.append(repr(p))
            else:
                if len(out) % 2 == 0:
                    out.append("''")  # (a value with no text before it)
                out.append(self.shown_value(p, scope))
        return f"G.prompt_for({who}, [{', '.join(out)}])"

    def lazy_label(self, opt, lcode, scope):
        """fast: the fixed text an option's label starts with, when labels of
        this option can only differ from each other: every loop variable is
        shown by what its list holds once only (ids of sides, spaces and
        components; the key of `distinct`), consecutive parts are parted by
        a character no id or number has, and nothing in it can fail or cost
        a step. None when that cannot be shown."""
        lab = opt.label
        if not isinstance(lab, A.Str) or lab.parts == []:
            return None
        keys = {var: self.distinct_key(it, scope) for var, it in opt.fors}
        code, head, sep, shown = [], "", None, set()
        for p in lab.parts:
            if isinstance(p, str):
                code.append(repr(p))
                if sep is None:
                    head += p
                else:
                    sep += p
                continue
            if sep is not None and _ID_CHARS.issuperset(sep):
                return None  # "{a.id}{b.id}": where one ends is unknown
            var, field = (p.id, None) if isinstance(p, A.Name) else \
                (p.obj.id, p.name) if isinstance(p, A.Attr) and isinstance(p.obj, A.Name) \
                else (p.obj.obj.id, "[0]." + p.name) if isinstance(p, A.Attr) and \
                isinstance(p.obj, A.Index) and isinstance(p.obj.obj, A.Name) and \
                isinstance(p.obj.index, A.Num) and p.obj.index.value == 0 \
                else (None, None)
            if var not in keys or keys[var] != (field or "id"):
                return None
            code.append(f"l_{var}.id" if field in (None, "id") else
                        f"str(l_{var}[0].{py_name(field[4:])})" if field.startswith("[0].") else
                        f"str(l_{var}.{py_name(field)})")
            shown.add(var)
            sep = ""
        if shown != set(keys) or " + ".join(code) != self.joined.get(id(lab)):
            return None  # the code differs when a part is not an id or a number
        return head

    def distinct_key(self, it, scope):
        """What tells the items of a loop's list apart, when each is there once:
        "id" (sides, spaces, components), a field (distinct(xs, x => x.f)),
        or None when unknown."""
        if isinstance(it, A.Name):
            v = scope.lookup(it.id)
            if v is not None and v.origin is not None:
                return self.distinct_key(v.origin, scope)  # `let xs = ...`, never rebound
            return "id" if v is not None and v.code in ("G.players", "G.sides") else None
        if isinstance(it, A.Comprehension) and isinstance(it.elt, A.Name) and \
                it.elt.id == it.var:
            return self.distinct_key(it.iter, scope)  # a filter keeps them apart
        if not (isinstance(it, A.Call) and isinstance(it.func, A.Name)) or \
                it.func.id in self.funcs or scope.lookup(it.func.id) is not None:
            return None
        name, args = it.func.id, it.args
        lit = args[0].parts[0] if args and isinstance(args[0], A.Str) and \
            len(args[0].parts) == 1 and isinstance(args[0].parts[0], str) else None
        if name == "track" and lit in self.rs.tracks and \
                len(set(self.rs.tracks[lit][0])) == len(self.rs.tracks[lit][0]):
            return "id"
        if name == "components" and lit is not None and len(args) == 1:
            return "id"
        if name == "linked" and len(args) == 2 and isinstance(args[1], A.Str) and \
                len(args[1].parts) == 1 and args[1].parts[0] in self.rs.links:
            # a space's neighbours are each there once when no link is listed
            # twice (either way round) and none joins a space to itself
            pairs = [frozenset(map(str, p)) for p in self.rs.links[args[1].parts[0]]]
            if all(len(p) == 2 for p in pairs) and len(set(pairs)) == len(pairs):
                return "id"
        if name in ("distinct", "group_by") and len(args) == 2 and \
                isinstance(args[1], A.Lambda) and isinstance(args[1].body, A.Attr) and \
                isinstance(args[1].body.obj, A.Name) and args[1].body.obj.id == args[1].param:
            # distinct: each item's field; group_by: the field of each list's first
            return args[1].body.name if name == "distinct" else "[0]." + args[1].body.name
        return None

    def label_function(self, lazy, opts, labs, start, ind, span):
        """Rewrite an option loop to collect options only, and define `labs`
        as the function giving one option's label (engine: Decisions.choose)."""
        self.lines[start] = "    " * ind + f"{opts} = []"
        for head, k, vars_, lcode, at, depth in lazy:
            self.lines[at] = self.lines[at].split("; ", 1)[0]
        self.emit(ind, f"def {labs}(o):", span)
        for head, k, vars_, lcode, at, depth in lazy:
            if k < 0:
                continue
            self.emit(ind + 1, f"if o[0] == {k}:", span)
            if vars_:
                names = ", ".join(f"l_{v}" for v in vars_)
                self.emit(ind + 2, f"{names}{',' if len(vars_) == 1 else ''} = o[1:]", span)
            self.emit(ind + 2, f"return {lcode}", span)
        self.emit(ind + 1, "return 'pass'", span)

    def choose_some(self, s, opt, who, name, scope, ind, ch=None):
        """`choose P some PICKED from X in LIST [where C] label L [min A] [max B]
        [when TEST] [prefer RANK] { body }`: the engine offers the selections."""
        items, labs = self.fresh("si"), self.fresh("sl")
        ch = ch or self.fresh("c")
        self.emit(ind, f"{items} = []; {labs} = []", s.span)
        inner = self.loop_head(opt.var, opt.iter, opt.cond, opt.span, scope, ind,
                               "choose some of")
        lcode, lt = self.expr(opt.label, inner)
        self.expect(opt.label, lt, "str", "an item label")
        self.public_text(opt.label, inner, "the log shows every selection taken")
        self.emit(ind + 1, f"{items}.append(l_{opt.var}); {labs}.append({lcode})", opt.span)
        bounds = []
        for node, what in ((opt.low, "'min'"), (opt.high, "'max'")):
            if node is None:
                bounds.append("None")
                continue
            code, t = self.expr(node, scope)
            self.expect(node, t, "int", f"the {what} of a selection")
            bounds.append(code)
        picked = scope.child()
        picked.names[opt.picked] = Var(f"l_{opt.picked}", list_of(inner.names[opt.var].type))
        test = prefer = "None"
        if opt.test is not None:
            code = self.cond(opt.test, picked, "a selection's 'when' test")
            test = f"(lambda l_{opt.picked}: {code})"
        if opt.prefer is not None:
            code, t = self.expr(opt.prefer, picked)
            self.rank_type(opt.prefer, t)
            prefer = f"(lambda l_{opt.picked}: {code})"
        site = f"{s.span.path.rsplit('/', 1)[-1]}:{s.span.line}"
        say = self.log_clause(s.log, scope, "str")
        self.emit(ind, f"{ch} = G.choose_some({who}, {name!r}, {self.prompt(s, who, scope)}, "
                  f"{items}, {labs}, "
                  f"{bounds[0]}, {bounds[1]}, {test}, {prefer}, {s.may}, {site!r}"
                  f"{', ' + say if say else ''})", s.span)

        def dispatch(ind):
            self.emit(ind, f"if {ch} is not None:", opt.span)
            self.emit(ind + 1, f"l_{opt.picked} = {ch}", opt.span)
            self.body(opt.body, picked, ind + 1, opt.span)
            self.emit(ind, f"if {ch} is not None and G.hooks is not None: G.decided()", s.span)
        return dispatch

    def use_event(self, node, event, arity):
        prev = self.events_used.get(event)
        if prev is not None and prev[0] != arity:
            self.err(node, "ARITY", f"event {event!r} is triggered with {arity} argument(s) here "
                     f"but with {prev[0]} at {prev[1].path}:{prev[1].line}")
        elif prev is None:
            self.events_used[event] = (arity, node.span)

    def s_Trigger(self, s, scope, ind):
        typed = [self.expr(a, scope) for a in s.args]
        codes = [c for c, _ in typed]
        for i, (a, (_, t)) in enumerate(zip(s.args, typed)):
            self.passed(("ev", s.event, i), a, t, scope)
        self.use_event(s, s.event, len(codes))
        args = "(" + "".join(c + ", " for c in codes) + ")"
        on = ""
        if s.targets is not None:
            on = self.fresh("on")
            self.emit(ind, f"{on} = G.owners({self.targets(s.targets, scope)})", s.span)
        # fast: a trigger nobody could hear, with arguments that do nothing
        # but compute, is skipped (as the reference would find no live handler)
        quiet = self.fast and not on and all(_pure(a) for a in s.args)
        if self.fast and not on and not quiet:
            # arguments that may act or pay: evaluate them first, as the
            # reference does, then ask whether anyone hears the event
            held = self.fresh("ta")
            self.emit(ind, f"{held} = {args}", s.span)
            args, quiet = held, True
        if s.default is not None:
            self.replaceable.add(s.event)
            if quiet and s.event not in self.heard_instead:
                self.emit(ind, "if True:", s.span)
            elif quiet:
                self.emit(ind, f"if not (G.ev_{s.event} and G.replace({s.event!r}, {args})):",
                          s.span)
            else:
                self.emit(ind, f"if not G.replace({s.event!r}, {args}{', ' + on if on else ''}):",
                          s.span)
            self.body(s.default, scope, ind + 1, s.span)
        if quiet and s.event not in self.heard:
            if s.default is None:
                self.emit(ind, "pass", s.span)
            return
        guard = f"if G.ev_{s.event}: " if quiet else ""
        self.emit(ind, f"{guard}G.trigger({s.event!r}, {args}{', ' + on if on else ''})", s.span)

    def s_Reveal(self, s, scope, ind):
        wc, wt = self.expr(s.what, scope)
        if wt in ("int", "bool", "str", "none", "side", "space", "row"):
            self.err(s.what, "TYPE", f"only components are revealed, not {_tname(wt)}")
        tc, tt = self.expr(s.to, scope)
        if not (compatible(tt, "side") or compatible(tt, "list:side")):
            self.err(s.to, "TYPE", f"components are revealed to a side or a list of sides, "
                     f"not {_tname(tt)}")
        self.emit(ind, f"G.reveal({wc}, {tc})", s.span)

    def s_Window(self, s, scope, ind):
        typed = [self.expr(a, scope) for a in s.args]
        codes = [c for c, _ in typed]
        for i, (a, (_, t)) in enumerate(zip(s.args, typed)):
            self.passed(("win", s.name, i), a, t, scope)
        prev = self.windows_used.get(s.name)
        if prev is not None and prev[0] != len(codes):
            self.err(s, "ARITY", f"window {s.name!r} opens with {len(codes)} argument(s) here but "
                     f"with {prev[0]} at {prev[1].path}:{prev[1].line}")
        self.windows_used.setdefault(s.name, (len(codes), s.span))
        who, wt = self.expr(s.who, scope)
        if s.round_robin:
            self.expect(s.who, wt, "list:side", "the players of a window")
        else:
            self.expect(s.who, wt, "side", "the player of a window")
        self.decisions.setdefault(s.name, s.span)
        args = "(" + "".join(c + ", " for c in codes) + ")"
        if s.after is None:
            quiet = self.fast and all(_pure(a) for a in [*s.args, s.who])
            if self.fast and not quiet:
                # arguments or players that may act or pay: evaluated first,
                # in the reference's order, then the window asks for a live ability
                held, seats = self.fresh("wa"), self.fresh("ws")
                self.emit(ind, f"{held} = {args}; {seats} = {who}", s.span)
                args, who, quiet = held, seats, True
            if quiet and s.name not in self.opened:
                self.emit(ind, "pass", s.span)  # no ability is ever offered here
                return
            guard = f"if G.wn_{s.name}: " if quiet else ""
            self.emit(ind, f"{guard}G.window({s.name!r}, {args}, {who}, {s.round_robin})",
                      s.span)
            return
        run = self.fresh("wr")
        self.emit(ind, f"{run} = G.window_run({s.name!r}, {args}, {who}, {s.round_robin})", s.span)
        self.emit(ind, f"while {run}.step():", s.span)
        self.tick(ind + 1, s.span)
        self.body(s.after, scope, ind + 1, s.span)

    def s_Turn(self, s, scope, ind):
        who = self.side(s.player, scope, "whose turn it is")
        prev, mover = self.fresh("t"), self.fresh("w")
        if self.fast:  # Game.begin_turn and end_turn, written out
            self.emit(ind, f"{prev} = G.current; {mover} = G.current = {who}", s.span)
            self.emit(ind, f"if G.logging: G.say_turn({mover})", s.span)
        else:
            self.emit(ind, f"{prev} = G.begin_turn({who}); {mover} = G.current", s.span)
        self.emit(ind, "try:", s.span)
        self.body(s.body, scope, ind + 1, s.span)
        self.emit(ind, "except:", s.span)  # (bare: no built-in names here; free unless raised)
        self.emit(ind + 1, "G.note_where()", s.span)
        self.emit(ind + 1, "raise", s.span)
        self.emit(ind, "finally:", s.span)
        self.emit(ind + 1, f"G.current = {prev}" if self.fast else f"G.end_turn({prev})", s.span)
        # a scenario may check between turns (never while a `win` unwinds)
        self.emit(ind, f"if G.hooks is not None: G.hooks(G, 'turn', {mover}.id)", s.span)

    def s_Win(self, s, scope, ind):
        code, t = self.expr(s.who, scope)
        if not (compatible(t, "side") or compatible(t, "list:side")):
            self.err(s.who, "TYPE", f"the winner must be a side or a list of sides, not {_tname(t)}")
        self.emit(ind, f"G.win({code})", s.span)

    def s_EndGame(self, s, scope, ind):
        self.emit(ind, "G.end_game()", s.span)


# a zone reached by fields alone (the game's, or a variable's): reading it
# twice changes nothing
_ZONE_PATH = re.compile(r"^(?:G\.z_\w+|l_\w+\.u_\w+)$")


# built-ins that call their function (argument 2) on each item of their list
_WALKERS = {"count", "sum", "max_by", "min_by", "most", "fewest", "filter", "map", "sort_by",
            "first", "any", "every", "distinct", "group_by"}


# The built-ins walk_inline writes as one loop (the lambda's body in place).
_WALKS = {
    "sum": "num(sum({body} for {var} in {xs}))",
    "count": "len([0 for {var} in {xs} if {body}])",
    "any": "any({body} for {var} in {xs})",
    "every": "all({body} for {var} in {xs})",
    "first": "next(({var} for {var} in {xs} if {body}), None)",
    "distinct": "[{var} for seen_ in [set()] for {var} in {xs} for key_ in [{body}] "
                "if key_ not in seen_ and not seen_.add(key_)]",
    # each group's list is taken when it is made, and grows as its items come
    "group_by": "[g_ for groups_ in [{{}}] for {var} in {xs} for key_ in [{body}] "
                "for old_ in [groups_.get(key_)] if old_ is None or old_.append({var}) "
                "for g_ in [groups_.setdefault(key_, [{var}])]]",
}


# Expressions that only compute, and at no cost in steps: names, fields,
# literals and operators (a call may move, draw or ask, and every built-in
# that walks a list pays steps for it, which the reference would count).
_PURE_NODES = (A.Num, A.Str, A.Const, A.Name, A.Attr, A.Index, A.ListLit, A.BinOp, A.Compare,
               A.BoolOp, A.Not, A.Neg, A.Ternary)


def _pure(node) -> bool:
    return all(isinstance(n, _PURE_NODES) for n in _walk(node))


def _holder_read(line):
    """`x.holder` of a variable or temporary written as its zone's holder,
    outside texts (a rule's text is data, whatever it says)."""
    import io
    import tokenize
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(line + "\n").readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return line
    for i in range(len(toks) - 3, -1, -1):  # from the end: earlier columns stay put
        t = toks[i]
        if t.type == tokenize.NAME and _HOLDER.fullmatch(t.string) and \
                toks[i + 1].string == "." and toks[i + 2].string == "holder" and \
                (i == 0 or toks[i - 1].string != ".") and t.start[0] == toks[i + 2].end[0] == 1:
            v = t.string
            line = line[:t.start[1]] + f"({v}.zone.holder if {v}.zone is not None else None)" + \
                line[toks[i + 2].end[1]:]
    return line


_HOLDER = re.compile(r"(?:l|_i|_v|_a)\w*")
_CHARGE = re.compile(r"^( +)G\.fuel -= (.+)$")


def _merged_charges(lines, spans):
    """fast: steps paid twice in a row (a function's own step, then that of
    one written into it or of the list its first loop walks) paid at once:
    the same total before anything else happens."""
    out, where = [], []
    for line, span in zip(lines, spans):
        now = _CHARGE.match(line)
        last = _CHARGE.match(out[-2]) if now and len(out) >= 2 else None
        if last and last.group(1) == now.group(1) and out[-1] == now.group(1) + _CHECK:
            a, b = last.group(2), now.group(2)
            total = str(int(a) + int(b)) if a.isdigit() and b.isdigit() else f"{a} + ({b})"
            out[-2] = f"{now.group(1)}G.fuel -= {total}"
            out.pop()  # the first check goes; the second, next, checks both
            where.pop()
            continue
        out.append(line)
        where.append(span)
    return out, where


_CHECK = "if G.fuel < 0: G.out_of_steps()"


def _rebound(body) -> set:
    """Names a function body binds anew (let, assignment, loops, options,
    lambdas, comprehensions): a parameter among them keeps no inferred type."""
    return set(_bindings(body))


def _bindings(body) -> dict:
    """How many times a function body binds each name (see _rebound)."""
    out: dict = {}
    for n in _walk(body):
        if isinstance(n, A.Let):
            names = [n.name]
        elif isinstance(n, A.Assign) and isinstance(n.target, A.Name):
            names = [n.target.id]
        elif isinstance(n, (A.For, A.Comprehension)):
            names = [n.var]
        elif isinstance(n, A.Lambda):
            names = [n.param]
        elif isinstance(n, A.Option):
            names = [var for var, _ in n.fors]
        elif isinstance(n, A.SomeOption):
            names = [n.picked, n.var]
        elif isinstance(n, A.Choose) and n.each:
            names = [n.each]
        else:
            continue
        for name in names:
            out[name] = out.get(name, 0) + 1
    return out


def _changes(body, params) -> bool:
    """Whether a function's body changes the game itself: an effect, a
    collect (its handlers may), or setting a name that is neither its parameter nor its own `let`/`for`."""
    local = set(params) | {n.name for n in _walk(body) if isinstance(n, A.Let)} | \
        {n.var for n in _walk(body) if isinstance(n, A.For)}
    for n in _walk(body):
        if isinstance(n, (*_EFFECTS, A.Collect)) and not isinstance(n, A.Return):
            return True  # (a collect runs handlers, which may change it)
        if isinstance(n, A.Assign) and not (isinstance(n.target, A.Name) and
                                            n.target.id in local):
            return True
    return False


# built-ins that draw from the game's seeded generator (a log text may not call them)
_DRAWING_BUILTINS = frozenset({"random", "shuffled"})

# statements that change the game (a `summary` may not hold them)
_EFFECTS = (A.Move, A.Place, A.Remove, A.Transfer, A.Roll, A.Shuffle, A.Draw, A.Give, A.Pay,
            A.Choose, A.Trigger, A.Reveal, A.Window, A.Turn, A.Win, A.EndGame, A.Return)


def _walk(node):
    """Every AST node inside `node` (texts' inserted expressions included)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Node):
            yield n
            for name in getattr(n, "__dataclass_fields__", {}):
                if name != "span":
                    stack.append(getattr(n, name))
        elif isinstance(n, (list, tuple)):
            stack.extend(n)


def _tname(t: str) -> str:
    if t.startswith("list:"):
        return f"a list of {_tname(t[5:])}"
    if t.startswith("comp:"):
        return f"a component ({t[5:]})"
    if t.startswith("table"):
        return "a table"
    return {"int": "a number", "bool": "true/false", "str": "text", "none": "none",
            "side": "a side", "space": "a space", "zone": "a zone", "comp": "a component",
            "row": "a piece count", "options": "the options", "func": "a function",
            "any": "any value"}.get(t, t)


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


def _typed(rs, modules, first, compiled, passes=8):
    """Fast back end: compile again with parameter types inferred from the
    calls, until the calls agree with the types assumed (each pass may type
    more). Code whose assumptions the last pass does not confirm is never
    used: then the untyped code stands. A typed pass that the checker
    rejects (a list that joins spaces and components, say, is legal only
    untyped) is tried again with lists untyped, then given up. The
    diagnostics are always the untyped pass's, the same as the reference
    back end's."""
    for lists in (True, False):
        assumed, c, result = {}, first, compiled
        for _ in range(passes):
            inferred = c.infer_params(lists)
            if inferred == assumed:
                result.types = assumed
                return result
            c = Compiler(rs, "fast", inferred, first.untyped)
            result = c.compile(modules)
            if result is None or any(d.severity == "error" for d in c.diags):
                break
            assumed = inferred
    return compiled


__all__ = ["compile_ruleset", "Compiled", "RESERVED_ATTRS"]
