"""The fast back end's analysis: which functions change or draw, the types
calls pass (infer_params), what may be inlined, and the typed passes that
recompile with them (compiler.Compiler with backend "fast")."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from ..language import ast as A
from ..language.types import BUILTINS
from .common import (
    _DRAWING_BUILTINS,
    _WALKS,
    Compiled,
    Scope,
    _changes,
    _holder_read,
    _merged_charges,
    _paid_for,
    _walk,
)
from .compilerstate import CompilerState, Definition, SiteKey, Source

if TYPE_CHECKING:
    from ..language.ast import Span
    from ..load.definitions import Ruleset
    from .compiler import Compiler


class FastPasses(CompilerState):
    """A part of compiler.Compiler."""

    def guarded_folds(self, lines: list[str],
                      spans: list[Span]) -> tuple[list[str], list[Span]]:
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

    def _fast_passes(self) -> None:
        """The fast back end's passes over the written code."""
        from .stepchecks import deferred_checks
        from .inline import inline_calls
        self.lines, self.spans = inline_calls(self.lines, self.spans, self.fresh)
        self.lines, self.spans = self.guarded_folds(self.lines, self.spans)
        self.lines, self.spans = _merged_charges(self.lines, self.spans)
        self.lines, self.spans = deferred_checks(self.lines, self.spans)
        # `c.holder` is only ever written for a component (e_Attr): of a
        # variable, read without the property's call
        self.lines = [_holder_read(line) if ".holder" in line else line
                      for line in self.lines]

    def fits(self, extra: A.Module, base: Compiled) -> bool:
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

    def places(self, modules: list[A.Module]) -> list[tuple[str, int, str]]:
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

    def versions(self, pyname: str, chain: Sequence[Definition]) -> None:
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

    def changers(self) -> set[str]:
        """The ruleset's functions that may change the game: one that moves,
        places, pays, chooses, triggers... or sets anything but its own
        names, or calls one that does (every version of an overridden one)."""
        if self._changers is None:
            self._changers = self.callers_of(lambda n: _changes(n.body, set(n.params)))
        return self._changers

    def drawers(self) -> set[str]:
        """The ruleset's functions that may draw from the game's generator
        (random(), shuffled()), themselves or through a function they call."""
        if self._drawers is None:
            self._drawers = self.callers_of(lambda n: any(self.draws(c) for c in _walk(n.body)))
        return self._drawers

    def draws(self, node: A.Node) -> bool:
        """A call of a built-in that draws from the game's generator."""
        return isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
            node.func.id in _DRAWING_BUILTINS and node.func.id not in self.funcs

    def callers_of(self, test: Callable[[A.Func], bool]) -> set[str]:
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

    _drawers: set[str] | None = None

    _changers: set[str] | None = None

    def passed(self, key: SiteKey, node: A.Node, t: str, scope: Scope) -> None:
        """Fast back end: note what a call, trigger or return passes to `key`."""
        if not self.fast:
            return
        src: Source = t
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

    def runs_no_rules(self, nodes: list, scope: Scope) -> bool:
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

    def walk_inline(self, name: str, n: A.Call, codes: list[str], kwargs: list[A.KeywordArg],
                    types: list[str]) -> str | None:
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

    def infer_params(self, lists: bool = True) -> dict[SiteKey, str]:
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

        types: dict[SiteKey, str | None] = {key: None for key in self.sites if eligible(key)}
        # (None: not known yet)

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
        return {k: t for k, t in types.items() if t is not None and t != "any"}


def _typed(rs: Ruleset, modules: list[A.Module], first: Compiler, compiled: Compiled,
           passes: int = 8) -> Compiled:
    """Fast back end: compile again with parameter types inferred from the
    calls, until the calls agree with the types assumed (each pass may type
    more). Code whose assumptions the last pass does not confirm is never
    used: then the untyped code stands. A typed pass that the checker
    rejects (a list that joins spaces and components, say, is legal only
    untyped) is tried again with lists untyped, then given up. The
    diagnostics are always the untyped pass's, the same as the reference
    back end's."""
    for lists in (True, False):
        assumed: dict[SiteKey, str] = {}
        c, result = first, compiled
        for _ in range(passes):
            inferred = c.infer_params(lists)
            if inferred == assumed:
                result.types = assumed
                return result
            c = type(first)(rs, "fast", inferred, first.untyped)  # (a Compiler)
            again = c.compile(modules)
            if again is None or any(d.severity == "error" for d in c.diags):
                break
            result, assumed = again, inferred
    return compiled
