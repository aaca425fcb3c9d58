"""Statements: each s_<Node> method writes one kind of statement as lines of
Python, asking the checker (checker.py) whether it is right (effects, loops, assignments, flow)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

from ..language import ast as A
from ..language.types import elem, list_of
from ..model.state import py_name
from ..support.limits import MAX_NUMBER
from .common import _ZONE_PATH, Var, _bindings, _pure, iter_code
from .compilerstate import CompilerState

if TYPE_CHECKING:
    from ..language.ast import Span
    from .common import Scope


class Statements(CompilerState):
    """The Compiler's statements (a part of compiler.Compiler)."""

    # ---------------------------------------------------------------- statements
    def block(self, stmts: list, scope: Scope, ind: int) -> None:
        if ind == 1:  # a function's body: how often each name is bound in it
            self.bound = _bindings(stmts)
        for s in stmts:
            getattr(self, "s_" + type(s).__name__)(s, scope, ind)

    def cond(self, node: A.Node, scope: Scope, what: str) -> str:
        code, t = self.expr(node, scope)
        self.expect(node, t, "bool", what)
        return code

    def s_Let(self, s: A.Let, scope: Scope, ind: int) -> None:
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

    def fixed(self, code: str, scope: Scope) -> bool:
        """Is `code` a local name the function binds once only (a parameter:
        never), so that it holds the same value wherever its scope reaches?"""
        if not code.startswith("l_"):
            return False
        v = scope.lookup(code[2:])
        return v is not None and v.code == code and \
            self.bound.get(code[2:], 0) == (0 if v.is_param else 1)

    def s_Assign(self, s: A.Assign, scope: Scope, ind: int) -> None:
        vcode, vt = self.expr(s.value, scope)
        tgt = s.target
        checked = False  # `x += y`: the sum is range-checked (x += x must not grow for ever)
        if s.op != "=":
            self.expect(s.value, vt, "int", f"the value of '{s.op}'")
            checked = not isinstance(s.value, A.Num)
        if isinstance(tgt, A.Name):
            v = scope.lookup(tgt.id)
            if not self.check_name_target(s, tgt, v, vt) or v is None:
                return
            if v.param is not None and v.param[0] in ("var", "local"):
                self.passed(v.param, s.value, vt if s.op == "=" else "int", scope)
            tcode = v.code
        elif isinstance(tgt, A.Attr):
            ocode, ot = self.expr(tgt.obj, scope)
            if not self.check_attr_target(s, tgt, ot, self.attr_type(tgt, ot, tgt.name), vt):
                return
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
            tgt = cast(A.Index, tgt)  # (the grammar's third target)
            ocode, ot = self.expr(tgt.obj, scope)
            icode, _ = self.expr(tgt.index, scope)
            if not self.check_index_target(tgt, ot):
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

    def s_If(self, s: A.If, scope: Scope, ind: int) -> None:
        for i, (c, body) in enumerate(s.branches):
            code = self.cond(c, scope, "an 'if' condition")
            self.emit(ind, f"{'if' if i == 0 else 'elif'} {code}:", c.span)
            self.body(body, scope, ind + 1, c.span)
        if s.orelse is not None:
            self.emit(ind, "else:", s.span)
            self.body(s.orelse, scope, ind + 1, s.span)

    def body(self, stmts: list, scope: Scope, ind: int, span: Span) -> None:
        n = len(self.lines)
        self.block(stmts, scope.child(), ind)
        if len(self.lines) == n:
            self.emit(ind, "pass", span)

    def s_For(self, s: A.For, scope: Scope, ind: int) -> None:
        inner = self.loop_head(s.var, s.iter, s.cond, s.span, scope, ind, "loop over")
        self.body(s.body, inner, ind + 1, s.span)

    def loop_head(self, var: str, iter_node: A.Node, cond: A.Node | None, span: Span,
                  scope: Scope, ind: int, what: str) -> Scope:
        """`for VAR in LIST [where COND]`: the loop line, its step and its
        filter; returns the scope of the loop's body."""
        icode, it = self.expr(iter_node, scope)
        self.check_iterable(iter_node, it, what)
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

    def s_While(self, s: A.While, scope: Scope, ind: int) -> None:
        c = self.cond(s.cond, scope, "a 'while' condition")
        self.emit(ind, f"while {c}:", s.span)
        self.tick(ind + 1, s.span)
        self.body(s.body, scope, ind + 1, s.span)

    def s_Repeat(self, s: A.Repeat, scope: Scope, ind: int) -> None:
        code, t = self.expr(s.count, scope)
        self.expect(s.count, t, "int", "the count of 'repeat'")
        self.emit(ind, f"for _ in range({code}):", s.span)
        self.tick(ind + 1, s.span)
        self.body(s.body, scope, ind + 1, s.span)

    def s_Around(self, s: A.Around, scope: Scope, ind: int) -> None:
        """Turns round a list until fewer than two are left (or `until`):
        the list's items in a builtins.Around, one turn a step."""
        icode, it = self.expr(s.iter, scope)
        self.check_iterable(s.iter, it, "go round")
        r = self.fresh("around")
        left = Var(f"{r}.items", list_of(elem(it)), assignable=False)
        if s.left is not None:
            scope.names[s.left] = left  # read in the loop, its `until` and after it
        inner = scope.child()
        inner.names[s.var] = Var(f"l_{s.var}", elem(it))
        self.emit(ind, f"{r} = Around(B_each(G, {icode}))", s.span)  # (never changed in place)
        self.emit(ind, f"while {r}.items:", s.span)
        self.tick(ind + 1, s.span)
        if s.until is None:
            self.emit(ind + 1, f"if len({r}.items) < 2: break", s.span)
        else:
            # (checked before each turn: the loop variable is not yet set)
            c = self.cond(s.until, scope, "an 'around' loop's 'until' condition")
            self.emit(ind + 1, f"if {c}: break", s.until.span)
        self.emit(ind + 1, f"l_{s.var} = {r}.turn()", s.span)
        self.arounds.append(r)
        try:
            self.body(s.body, inner, ind + 1, s.span)
        finally:
            self.arounds.pop()

    def s_Drop(self, s: A.Drop, scope: Scope, ind: int) -> None:
        code, _ = self.expr(s.value, scope)
        if self.arounds:  # (outside one, the parser has refused it)
            self.emit(ind, f"{self.arounds[-1]}.drop({code})", s.span)

    def s_Return(self, s: A.Return, scope: Scope, ind: int) -> None:
        if s.value is None:
            self.emit(ind, "return None", s.span)
        else:
            code, t = self.expr(s.value, scope)
            if self.current_fn is not None:
                self.passed(("ret", self.current_fn), s.value, t, scope)
            self.emit(ind, f"return {code}", s.span)

    def s_Break(self, s: A.Break, scope: Scope, ind: int) -> None:
        self.emit(ind, "break", s.span)

    def s_Continue(self, s: A.Continue, scope: Scope, ind: int) -> None:
        self.emit(ind, "continue", s.span)

    def s_ExprStmt(self, s: A.ExprStmt, scope: Scope, ind: int) -> None:
        code, _ = self.expr(s.expr, scope)
        self.check_effect(s)
        self.emit(ind, code, s.span)

    def location(self, node: A.Node, scope: Scope, what: str, adds: str | None = None) -> str:
        """A location's code; `adds`: the piece kind placed there (see stocked)."""
        code, t = self.expr(node, scope)
        self.check_location(node, t, what)
        if adds is not None:
            self.stocked.setdefault(adds, set()).update(
                ("space",) if t == "space" else (t,) if t.startswith("comp")
                else ("space", "comp"))
        return code

    def piece(self, s: A.Place | A.Remove | A.Transfer | A.Give, scope: Scope) -> str:
        """The piece kind's code: the kind as written (`place 2 cubes ...`), or a
        name holding a text that names one (`for k in ["cubes", "discs"] {
        place 1 k ... }`), checked as the game runs (Effects.piece_kind).
        `self.known` says whether the kind is known here."""
        v = None if s.piece in self.rs.pieces else scope.lookup(s.piece)
        self.check_piece(s, v.type if v is not None else None)
        self.known = v is None
        if v is None:
            return repr(s.piece)
        for kind in self.rs.pieces:  # (any kind may be the one named)
            self.stocked.setdefault(kind, set()).update(("space", "comp"))
        return f"G.piece_kind({v.code})"

    def count(self, node: A.Node | None, scope: Scope) -> str:
        if node is None:
            self.known = True
            return "None"
        code, t = self.expr(node, scope)
        self.expect(node, t, "int", "a piece count")
        self.known = t == "int"  # (pieces counted in place need a number)
        return code

    def side(self, node: A.Node, scope: Scope, what: str) -> str:
        code, t = self.expr(node, scope)
        self.expect(node, t, "side", what)
        self.known = t == "side"
        return code

    def s_Place(self, s: A.Place, scope: Scope, ind: int) -> None:
        kind = self.piece(s, scope)
        typed = self.known
        n = self.count(s.count, scope)
        typed = typed and self.known
        o = self.side(s.owner, scope, "the owner of placed pieces")
        typed = typed and self.known
        loc = self.location(s.loc, scope, "where pieces are placed", _kind(s, self.rs.pieces))
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
        self.emit(ind, f"G.place({kind}, {o}, {loc}, {n}{say})", s.span)

    def s_Remove(self, s: A.Remove, scope: Scope, ind: int) -> None:
        kind = self.piece(s, scope)
        typed = self.known
        n = self.count(s.count, scope)
        typed = typed and self.known
        o = "None" if s.owner is None else self.side(s.owner, scope, "the owner of removed pieces")
        typed = typed and s.owner is not None and self.known
        self.check_remove(s)
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
        self.emit(ind, f"G.remove({kind}, {o}, {loc}, {n})", s.span)

    def taken(self, call: str, piece: str, owner: str, src: str, n: str,
              into: str) -> list[str]:
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

    def s_Transfer(self, s: A.Transfer, scope: Scope, ind: int) -> None:
        kind = self.piece(s, scope)
        typed = self.known
        n = self.count(s.count, scope)
        typed = typed and self.known
        o = self.side(s.owner, scope, "the owner of moved pieces")
        typed = typed and self.known
        a = self.location(s.src, scope, "where pieces come from")
        b = self.location(s.dst, scope, "where pieces go", _kind(s, self.rs.pieces))
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
        self.emit(ind, f"G.transfer({kind}, {o}, {a}, {b}, {n}{say})", s.span)

    def s_Move(self, s: A.Move, scope: Scope, ind: int) -> None:
        wc, wt = self.expr(s.what, scope)
        self.check_moved(s.what, wt)
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
                         f"if {m} is not None and not {m}._hooks and {m}._att is None and "
                         "not G.logging:",
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

    def s_Attach(self, s: A.Attach, scope: Scope, ind: int) -> None:
        wc, wt = self.expr(s.what, scope)
        self.check_moved(s.what, wt)
        hc, ht = self.expr(s.host, scope)
        self.check_host(s.host, ht)
        self.emit(ind, f"G.attach({wc}, {hc})", s.span)

    def s_Detach(self, s: A.Detach, scope: Scope, ind: int) -> None:
        wc, wt = self.expr(s.what, scope)
        self.check_moved(s.what, wt)
        self.emit(ind, f"G.detach({wc})", s.span)

    def s_Roll(self, s: A.Roll, scope: Scope, ind: int) -> None:
        code, t = self.expr(s.what, scope)
        kinds = [t[5:]] if t.startswith("comp:") else [
            elem(t)[5:]] if elem(t).startswith("comp:") else []
        self.check_rolled(s.what, t, kinds)
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

    def s_Shuffle(self, s: A.Shuffle, scope: Scope, ind: int) -> None:
        code, t = self.expr(s.zone, scope)
        self.expect(s.zone, t, "zone", "what is shuffled")
        self.emit(ind, f"G.shuffle({code})", s.span)

    def s_Cycle(self, s: A.Cycle, scope: Scope, ind: int) -> None:
        code, t = self.expr(s.zones, scope)
        self.check_cycle(s.zones, t)
        say = self.log_clause(s.log, scope, "list:comp")
        self.emit(ind, f"G.cycle({code}{', ' + say if say else ''})", s.span)

    def s_Draw(self, s: A.Draw, scope: Scope, ind: int) -> None:
        n = self.count(s.count, scope)
        a, at = self.expr(s.src, scope)
        b, bt = self.expr(s.dst, scope)
        self.expect(s.src, at, "zone", "where cards are drawn from")
        self.expect(s.dst, bt, "zone", "where drawn cards go")
        say = self.log_clause(s.log, scope, "list:comp")
        self.emit(ind, f"G.draw({n}, {a}, {b}{', ' + say if say else ''})", s.span)

    def s_Give(self, s: A.Give, scope: Scope, ind: int) -> None:
        kind = self.piece(s, scope)
        self.given.update([s.piece] if self.known else self.rs.pieces)
        n = self.count(s.count, scope)
        a = self.side(s.giver, scope, "who gives")
        b = self.side(s.taker, scope, "who receives")
        say = self.log_clause(s.log, scope, "int")
        self.emit(ind, f"G.give({kind}, {n}, {a}, {b}{', ' + say if say else ''})", s.span)

    def s_Pay(self, s: A.Pay, scope: Scope, ind: int) -> None:
        self.check_money(s, "'pay'")
        n = self.count(s.amount, scope)
        a = self.side(s.payer, scope, "who pays")
        b = self.side(s.payee, scope, "who is paid")
        say = self.log_clause(s.log, scope, "int")
        self.emit(ind, f"G.pay({n}, {a}, {b}{', ' + say if say else ''})", s.span)

    def s_Trigger(self, s: A.Trigger, scope: Scope, ind: int) -> None:
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
        if not (quiet and s.event not in self.heard):
            guard = f"if G.ev_{s.event}: " if quiet else ""
            self.emit(ind, f"{guard}G.trigger({s.event!r}, {args}{', ' + on if on else ''})",
                      s.span)
        # the event is over: a scenario may check the game here (after: {event: NAME})
        self.emit(ind, f"if G.hooks is not None: G.hooks(G, 'event', {s.event!r})", s.span)

    def s_Reveal(self, s: A.Reveal, scope: Scope, ind: int) -> None:
        wc, wt = self.expr(s.what, scope)
        self.check_revealed(s.what, wt)
        tc, tt = self.expr(s.to, scope)
        self.check_sides(s.to, tt, "components are revealed to a side or a list of sides")
        self.emit(ind, f"G.reveal({wc}, {tc})", s.span)

    def s_Turn(self, s: A.Turn, scope: Scope, ind: int) -> None:
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

    def s_Win(self, s: A.Win, scope: Scope, ind: int) -> None:
        code, t = self.expr(s.who, scope)
        self.check_sides(s.who, t, "the winner must be a side or a list of sides")
        self.emit(ind, f"G.win({code})", s.span)

    def s_EndGame(self, s: A.EndGame, scope: Scope, ind: int) -> None:
        self.emit(ind, "G.end_game()", s.span)


def _kind(s: A.Place | A.Transfer, pieces: dict) -> str | None:
    """The piece kind a statement names as written (None: a value names it)."""
    return s.piece if s.piece in pieces else None
