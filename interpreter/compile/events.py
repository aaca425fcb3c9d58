"""Events: handlers (`on EVENT`), cards' abilities, triggers checked against
what each event passes, and the scopes of their parameters."""
from __future__ import annotations

from ..language import ast as A
from .common import Scope, Var, _rebound, _tname


class Events:
    """A part of compiler.Compiler."""

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

    def targets(self, node, scope):
        """`on X`: the components whose handlers run (a component, list or zone)."""
        code, t = self.expr(node, scope)
        if t in ("int", "bool", "str", "none", "side", "space", "row") or \
                t.startswith("table") or t == "options":
            self.err(node, "TYPE", f"'on' names components (a component, a list or a zone), "
                     f"not {_tname(t)}")
        return code

    def use_event(self, node, event, arity):
        prev = self.events_used.get(event)
        if prev is not None and prev[0] != arity:
            self.err(node, "ARITY", f"event {event!r} is triggered with {arity} argument(s) here "
                     f"but with {prev[0]} at {prev[1].path}:{prev[1].line}")
        elif prev is None:
            self.events_used[event] = (arity, node.span)
