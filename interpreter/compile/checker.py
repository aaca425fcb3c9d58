"""The checker: what names, fields, calls, operators and statements mean,
which types they have, and every diagnostic the compiler reports (fields,
calls and operators in its part typecheck.py).

The code writers (expressions.py, statements.py, decisions.py, texts.py,
events.py, compiler.py) walk the syntax tree once; at each node they ask
this part whether it is right and what type it has, then write its code.
None of them makes a diagnostic of its own (tests/test_layers.py checks),
so what a rule may say lives here and how it runs lives there.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from ..language import ast as A
from ..language.types import BUILTINS, compatible
from ..support.diagnostics import Diagnostic
from .common import _EFFECTS, _tname, _walk
from .typecheck import SCALARS, TypeCheck

if TYPE_CHECKING:
    from ..language.ast import Span
    from ..load.definitions import Ruleset
    from .common import Compiled, Scope, Var


class Checker(TypeCheck):
    """The Compiler's checker (a part of compiler.Compiler): definitions,
    events, statements and texts here; fields, calls and operators in
    TypeCheck (typecheck.py)."""

    # ---------------------------------------------------------------- reporting
    def err(self, node: A.Node | Span, code: str, msg: str, hint: str = "",
            severity: str = "error") -> None:
        sp = node.span if isinstance(node, A.Node) else node
        self.diags.append(Diagnostic(sp.path, sp.line, sp.col, code, msg, severity, hint))

    def undef(self, node: A.Node | Span, what: str, name: str, known: Iterable[str]) -> None:
        near = difflib.get_close_matches(name, sorted(known), n=1)
        self.err(node, "REF-UNDEF", f"undefined {what} {name!r}",
                 hint=f"did you mean {near[0]!r}?" if near else "")

    def expect(self, node: A.Node, got: str, want: str, what: str) -> None:
        if not compatible(got, want):
            self.err(node, "TYPE", f"{what} must be {_tname(want)}, not {_tname(got)}")

    # ---------------------------------------------------------------- definitions
    def check_params(self, node: A.Node, params: list[str]) -> None:
        seen = set()
        for p in params:
            if p in seen:
                self.err(node, "DUP-ID", f"parameter {p!r} is named twice")
            seen.add(p)

    def clash(self, g: Scope, name: str, key: tuple) -> None:
        """Seats, sides, game variables and game zones share one namespace."""
        if name in g.names:
            where: tuple[str, int, int] | None = self.rs.where.get(key)
            if where:
                self.diags.append(Diagnostic(*where, "DUP-ID",
                                             f"{name!r} already names another thing "
                                             "(a variable, side or zone)"))

    def builtin_clash(self, name: str, where: tuple[str, int, int]) -> None:
        self.diags.append(Diagnostic(*where, "DUP-ID",
                                     f"{name!r} is a built-in name of the language"))

    def check_game_block(self, it: A.Game, game: A.Game | None) -> bool:
        """Is `it` the ruleset's first game block?"""
        if game is not None:
            self.err(it, "DUP-ID", "a ruleset has one 'game' block; another is at "
                     f"{game.span.path}:{game.span.line}")
            return False
        return True

    def check_function_name(self, it: A.Func) -> None:
        if it.name in BUILTINS or it.name in ("original", "collect"):
            self.err(it, "DUP-ID", f"{it.name!r} is a built-in function")

    def no_game_block(self) -> None:
        path = self.rs.where.get("game", (str(self.rs.path), 1, 1))[0]
        self.diags.append(Diagnostic(path, 1, 1, "REF-UNDEF",
                                     "no 'game { ... }' block in any .rules file",
                                     hint="the game block lists setup, rounds and finish"))

    def check_cycle(self, node: A.Node, t: str) -> None:
        if t not in ("any", "list:any", "list:zone"):
            self.err(node, "TYPE", f"cycle passes round a list of zones, not {_tname(t)}",
                     hint="cycle [p.hand for p in players]")

    def check_number_step(self, step: A.Node | None) -> None:
        """A number entry's step, when written as a number, is 1 or more."""
        if isinstance(step, A.Num) and step.value <= 0:
            self.err(step, "TYPE", f"a number entry's step must be 1 or more, not {step.value}")

    def check_number_entries(self, entries: list[A.NumberOption]) -> None:
        """A decision has one number entry at most (its values are one range)."""
        for extra in entries[1:]:
            self.err(extra, "TYPE", "a decision takes one number entry; this is another",
                     hint="join the ranges, or ask two decisions")

    def check_ordered_pick(self, opt: A.SomeOption) -> None:
        """Picks made one at a time cannot be tested as a whole."""
        if opt.ordered and opt.test is not None:
            self.err(opt.test, "TYPE", "picks made in order take no 'when' test (each pick "
                     "is its own decision)", hint="narrow the items with 'where', "
                     "or check the picks in the block")

    def check_score_function(self) -> str | None:
        """`score: NAME` in game.yaml naming no side variable names a function
        of one side that only reads the game: its compiled name, or None."""
        name = self.rs.score_fn
        if name is None:
            return None
        path, line, col = self.rs.where.get("score", (str(self.rs.path), 1, 1))
        fn = self.funcs.get(name)
        if fn is None:
            known = sorted(self.rs.side_vars) + sorted(self.funcs)
            close = difflib.get_close_matches(name, known, 1)
            self.diags.append(Diagnostic(
                path, line, col, "REF-UNDEF", f"score names {name!r}, which is neither a side variable "
                "nor a function of the rules",
                hint=f"did you mean {close[0]!r}?" if close else
                "name a side variable, or a function `def NAME(p)` that gives a side's score"))
            return None
        if len(fn.params) != 1:
            self.diags.append(Diagnostic(
                path, line, col, "TYPE", f"score names function {name!r}, which takes "
                f"{len(fn.params)} parameters: a score function takes one, the side"))
            return None
        self.only_reads(fn.body, "a score function",
                        "a score function reads the game and returns a number", returns=True)
        return f"f_{name}"

    def check_phases(self, game: A.Game) -> list[str]:
        """The game's phases that are defined; the others reported, and the
        phases defined but never played."""
        known = []
        for name, span in game.phases:
            if name not in self.phases:
                self.undef(span, "phase", name, self.phases)
            else:
                known.append(name)
        listed = {n for n, _ in game.phases}
        for name, ph in self.phases.items():
            if name not in listed:
                self.err(ph, "UNREACHABLE", f"phase {name!r} is never played",
                         hint="list it in the game's rounds", severity="warning")
        return known

    def check_overrides_of(self, part: str, overrides: list[A.GamePart]) -> None:
        """`override setup` (finish, summary) when the game has no such block."""
        for p in overrides:
            self.err(p, "REF-UNDEF", f"'override {part}' overrides nothing: the game has "
                     f"no {part} block")

    def check_define(self, table: dict, node: A.Func | A.Phase, what: str) -> str:
        """How `node` joins `table`: "override", "new", "duplicate" or ""
        (an override of nothing)."""
        if getattr(node, "override", False):
            if node.name not in table:
                self.undef(node, f"{what} to override", node.name, table)
                return ""
            prev = table[node.name]
            if isinstance(prev, A.Func) and isinstance(node, A.Func) and \
                    len(prev.params) != len(node.params):  # (functions: what == "function")
                self.err(node, "ARITY", f"override of {node.name!r} takes {len(node.params)} "
                         f"parameter(s); the original takes {len(prev.params)}")
            return "override"
        if node.name in table:
            first = table[node.name].span
            self.err(node, "DUP-ID", f"{what} {node.name!r} is defined twice "
                     f"(first at {first.path}:{first.line})")
            return "duplicate"
        return "new"

    # ---------------------------------------------------------------- events and windows
    def check_ability_params(self, ab: A.Ability) -> bool:
        if not ab.params:
            self.err(ab, "ARITY", "an ability's first parameter is the player using it")
            return False
        return True

    def check_handler_arity(self, h: A.On, used: tuple[int, Span]) -> None:
        if used[0] != len(h.params):
            self.err(h, "ARITY", f"event {h.event!r} is triggered with {used[0]} "
                     f"argument(s) but this handler takes {len(h.params)}")

    def check_ability_arity(self, ab: A.Ability, window: str, used: tuple[int, Span],
                            nargs: int) -> None:
        if used[0] != nargs:
            self.err(ab, "ARITY", f"window {window!r} passes {used[0]} argument(s) but this "
                     f"ability takes {nargs} after the player")

    def check_events(self) -> None:
        """Every handler heard and every ability's window opened, with the
        arguments they take."""
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
            else:
                self.check_handler_arity(h, used)
        for window, label, owner, cond, body, nargs, ab in self.abilities_checked():
            used = self.windows_used.get(window)
            if used is None:
                self.err(ab, "UNREACHABLE", f"no rule opens window {window!r}", severity="warning")
            else:
                self.check_ability_arity(ab, window, used, nargs)

    def check_extra_events(self, base: Compiled) -> None:
        """A scenario's own code: a handler or ability whose event or window
        only that code starts."""
        for entry in self.handler_defs:
            h = entry[1] if isinstance(entry, tuple) else entry
            used = self.events_used.get(h.event)
            if h.event not in (base.events or {}) and used is not None:
                self.check_handler_arity(h, used)
        for ab_entry in self.ability_defs:
            ab = ab_entry[1] if isinstance(ab_entry, tuple) else ab_entry
            used = self.windows_used.get(ab.window)
            if ab.window not in (base.windows or {}) and used is not None and ab.params:
                self.check_ability_arity(ab, ab.window, used, len(ab.params) - 1)

    def use_event(self, node: A.Node, event: str, arity: int) -> None:
        """An event triggered or collected here with `arity` arguments."""
        prev = self.events_used.get(event)
        if prev is not None and prev[0] != arity:
            self.err(node, "ARITY", f"event {event!r} is triggered with {arity} argument(s) here "
                     f"but with {prev[0]} at {prev[1].path}:{prev[1].line}")
        elif prev is None:
            self.events_used[event] = (arity, node.span)

    def use_window(self, s: A.Window, nargs: int) -> None:
        """A window opened here with `nargs` arguments."""
        prev = self.windows_used.get(s.name)
        if prev is not None and prev[0] != nargs:
            self.err(s, "ARITY", f"window {s.name!r} opens with {nargs} argument(s) here but "
                     f"with {prev[0]} at {prev[1].path}:{prev[1].line}")
        self.windows_used.setdefault(s.name, (nargs, s.span))

    def check_targets(self, node: A.Node, t: str) -> None:
        """`on X`: components (a component, a list or a zone)."""
        if t in ("int", "bool", "str", "none", "side", "space", "row") or \
                t.startswith("table") or t == "options":
            self.err(node, "TYPE", f"'on' names components (a component, a list or a zone), "
                     f"not {_tname(t)}")

    # ---------------------------------------------------------------- statements
    def check_name_target(self, s: A.Assign, tgt: A.Name, v: Var | None, vt: str) -> bool:
        """`x = value`: may this be written?"""
        if v is None:
            self.undef(tgt, "variable", tgt.id, [])
            self.err(tgt, "REF-UNDEF", f"declare local variables with 'let {tgt.id} = ...'",
                     severity="info")
            return False
        if not v.assignable:
            self.err(tgt, "TYPE", f"{tgt.id!r} cannot be assigned")
            return False
        if v.type == "func" and vt != "func":
            self.err(s.value, "TYPE", f"{tgt.id!r} holds a function: it can only be given "
                     f"another function (x => ...), not {_tname(vt)}")
            return False
        self.check_assign(s, v.type, vt)
        return True

    def check_attr_target(self, s: A.Assign, tgt: A.Attr, ot: str, at: tuple[str, bool] | None,
                          vt: str) -> bool:
        """`x.name = value`, `at` the field's (type, assignable)."""
        if at is None:
            return False
        if not at[1]:
            self.err(tgt, "TYPE", f"{tgt.name!r} of {_tname(ot)} is fixed and cannot be "
                     "assigned", hint="only variables and component properties change")
            return False
        self.check_assign(s, at[0], vt)
        return True

    def check_index_target(self, tgt: A.Index, ot: str) -> bool:
        if ot in ("row", "table", "options", "zone", "str") or ot.startswith("table"):
            self.err(tgt, "TYPE", f"{_tname(ot)} cannot be changed by assignment",
                     hint="pieces move with place/remove/transfer, components with move")
            return False
        return True

    def check_assign(self, s: A.Assign, target_t: str, vt: str) -> None:
        if target_t in ("int", "bool", "str") and not compatible(vt, target_t) and vt != "none":
            self.err(s.value, "TYPE", f"assigning {_tname(vt)} to a variable of {_tname(target_t)}")

    def check_iterable(self, node: A.Node, t: str, what: str) -> None:
        if t in SCALARS + ("str",) or t.startswith("comp"):
            self.err(node, "TYPE", f"cannot {what} {_tname(t)}")

    def check_effect(self, s: A.ExprStmt) -> None:
        """An expression written as a statement."""
        if not isinstance(s.expr, (A.Call, A.Collect)):
            self.err(s, "TYPE", "this expression does nothing on its own", severity="warning")

    def check_location(self, node: A.Node, t: str, what: str) -> None:
        if not (t in ("space", "any") or t.startswith("comp")):
            self.err(node, "TYPE", f"{what} must be a space or a component, not {_tname(t)}")

    def check_piece(self, s: A.Place | A.Remove | A.Transfer | A.Give,
                    held: str | None = None) -> None:
        """A piece kind as written, or a name holding a text (of type `held`)."""
        if held is not None:
            if not compatible(held, "str"):
                self.err(s, "TYPE", f"{s.piece!r} names a piece kind here: it must hold a "
                         f"text, not {_tname(held)}")
        elif s.piece not in self.rs.pieces:
            self.undef(s, "piece kind", s.piece, self.rs.pieces)

    def check_remove(self, s: A.Remove) -> None:
        if s.owner is None and s.count is not None:
            self.err(s, "TYPE", "without 'of OWNER' only 'remove all' is allowed")

    def check_moved(self, node: A.Node, t: str) -> None:
        if t in ("int", "bool", "str", "none", "side", "space"):
            self.err(node, "TYPE", f"only components move between zones, not {_tname(t)}")

    def check_host(self, node: A.Node, t: str) -> None:
        """What something is attached to: one component."""
        if not (t == "any" or t.startswith("comp")):
            self.err(node, "TYPE", f"components are attached to a component, not {_tname(t)}")

    def check_revealed(self, node: A.Node, t: str) -> None:
        if t in ("int", "bool", "str", "none", "side", "space", "row"):
            self.err(node, "TYPE", f"only components are revealed, not {_tname(t)}")

    def check_rolled(self, node: A.Node, t: str, kinds: list[str]) -> None:
        for k in kinds:
            if k in self.rs.kinds and "value" not in self.rs.kinds[k].properties:
                self.err(node, "TYPE", f"components of kind {k!r} have no 'value' property "
                         "to roll", hint="declare properties: {value: 1} and attributes: "
                         "{sides: ...}")

    def check_sides(self, node: A.Node, t: str, what: str) -> None:
        """A side or a list of sides (`reveal ... to`, `win`, `log ... to`)."""
        if not (compatible(t, "side") or compatible(t, "list:side")):
            self.err(node, "TYPE", f"{what}, not {_tname(t)}")

    # ---------------------------------------------------------------- texts made for the log
    def public_text(self, node: A.Node, scope: Scope, what: str) -> None:
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

    def only_reads(self, body: A.Node | list, what: str = "a summary",
                   hint: str = "a summary holds let, if, for and log",
                   returns: bool = False) -> None:
        """A text made only when the game is logged (a `summary`, a log line),
        or a function read to show the game (`returns`: a score function): it
        may not change the game, or a logged game would play differently."""
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
            elif isinstance(sub, _EFFECTS) and not (returns and isinstance(sub, A.Return)):
                bad = "changes the game"
            if bad:
                self.err(sub, "TYPE", f"{what} only reads the game, but this {bad}", hint=hint)
                return


_UNDEFINED = re.compile(r"^undefined name '([a-z_][a-z0-9_]*)'$")
_ZONE_FIELDS = {"size", "top", "items"}


def undefined_names(diags: list[Diagnostic], modules: list[A.Module],
                    rs: Ruleset) -> list[Diagnostic]:
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
        spots: list[tuple[Any, str]] = []
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
