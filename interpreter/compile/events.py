"""Events: handlers (`on EVENT`), cards' abilities, triggers checked against
what each event passes, and the scopes of their parameters."""
from __future__ import annotations

from typing import Sequence

from ..language import ast as A
from .common import Scope, Var, _rebound
from .compilerstate import CompilerState


class Events(CompilerState):
    """A part of compiler.Compiler."""

    def game_part(self, part: str, body: list | None, game: A.Game,
                  parts: list[A.GamePart]) -> str | None:
        overrides = [p for p in parts if p.part == part]
        if body is None:
            self.check_overrides_of(part, overrides)
            return None
        self.versions(f"g_{part}", [A.GamePart(part, body, span=game.span)] + overrides)
        return f"g_{part}"

    def _define(self, table: dict, node: A.Func | A.Phase, what: str) -> None:
        key = (what, node.name)
        how = self.check_define(table, node, what)
        if how == "override":
            table[node.name] = node
            self.chains[key].append(node)
        elif how == "new":
            self.chains[key] = [node]
            table[node.name] = node
        elif how == "duplicate":
            self.duplicates.append(node)  # still checked, under a throwaway name

    def function(self, pyname: str, params: list[str], body: list, node: A.Node, scope: Scope,
                 extra: Sequence[str] = ()) -> None:
        self.check_params(node, params)
        args = ["G", *extra] + [f"l_{p}" for p in dict.fromkeys(params)]
        name = pyname[2:] if pyname.startswith("f_") and pyname[2:] in self.funcs else None
        self.typed_params(scope, params, body, "fn", name)
        self.emit(0, f"def {pyname}({', '.join(args)}):", node.span)
        self.tick(1, node.span)
        self.current_fn = name
        self.block(body, scope, 1)
        self.current_fn = None

    def typed_params(self, scope: Scope, params: list[str], body: list, what: str,
                     name: str | None) -> None:
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

    def card_scope(self, owner: str | None, params: list[str]) -> Scope:
        """Scope of a handler or ability: its parameters, and `this` on a card."""
        scope = Scope({}, self.globals)
        if owner is not None:
            scope.names["this"] = Var("this", f"comp:{self.kind_of_comp[owner]}", False)
        for p in params:
            scope.names[p] = Var(f"l_{p}", "any", is_param=True)
        return scope

    def compile_handlers(self) -> list[tuple]:
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

    def compile_abilities(self) -> list[tuple]:
        out = []
        for order, entry in enumerate(self.ability_defs):
            owner, ab = entry if isinstance(entry, tuple) else (None, entry)
            if not self.check_ability_params(ab):
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

    def abilities_checked(self) -> list[tuple]:
        return self._abilities

    def targets(self, node: A.Node, scope: Scope) -> str:
        """`on X`: the components whose handlers run (a component, list or zone)."""
        code, t = self.expr(node, scope)
        self.check_targets(node, t)
        return code
