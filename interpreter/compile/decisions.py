"""Decisions: `choose`, `choose some`, windows and offers — the options,
their labels (made lazily when they cannot be alike), prompts and ranks."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..language import ast as A
from ..language.types import elem, list_of
from ..model.state import py_name
from .common import _ID_CHARS, Var, _pure, iter_code
from .compilerstate import CompilerState, Dispatch

if TYPE_CHECKING:
    from ..language.ast import Span
    from .common import Scope


class Decisions(CompilerState):
    """The Compiler's decisions (a part of compiler.Compiler)."""

    def s_Choose(self, s: A.Choose, scope: Scope, ind: int) -> None:
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

    def ask(self, s: A.Choose, who: str, name: str, scope: Scope, ind: int,
            ch: str | None = None) -> Dispatch:
        """Emit the question of a `choose` (its options and the agent's answer
        in `ch`); returns what emits the answer's rules at a given indent."""
        if len(s.options) == 1 and isinstance(s.options[0], A.SomeOption):
            return self.choose_some(s, s.options[0], who, name, scope, ind, ch)
        opts, labs = self.fresh("o"), self.fresh("l")
        ch = ch or self.fresh("c")
        ranked = any(o.prefer is not None for o in s.options)
        prefs, wv = (self.fresh("p"), self.fresh("w")) if ranked else ("None", who)
        if ranked:  # bots rank options by `prefer`; players never pay for it
            self.emit(ind, f"{wv} = {who}; {prefs} = [] if {wv}.ranked else None", s.span)
            who = wv
        start = len(self.lines)
        self.emit(ind, f"{opts} = []; {labs} = []", s.span)
        # fast: labels that can only differ (lazy_label) are made when asked for
        entry, entry_scope = self.number_entry(s), scope
        lazy: list[tuple] | None = [] if self.fast and self.plain_ids and entry is None else None
        for k, opt in enumerate(s.options):
            if isinstance(opt, A.NumberOption):
                continue  # (a second is an error: check_number_entries)
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
        if entry is not None:  # the options are the numbers, then those above
            opts, entry_scope = self.numbers(entry, s.options.index(entry), opts, labs,
                                             prefs if ranked else None, scope, ind)
            labs = opts
            labs += ".labels"
        site = f"{s.span.path.rsplit('/', 1)[-1]}:{s.span.line}"
        say = self.log_clause(s.log, scope, "str")
        extra = f", {prefs if ranked else None}, {site!r}, {say}" if say else \
            f", {prefs}, {site!r}" if ranked else ""
        self.emit(ind, f"{ch} = G.choose({who}, {name!r}, {self.prompt(s, who, scope)}, {opts}, "
                  f"{labs}{extra})", s.span)

        def dispatch(ind: int) -> None:
            for k, opt in enumerate(s.options):
                if opt is entry:
                    self.emit(ind, f"{'if' if k == 0 else 'elif'} {ch} is not None and "
                              f"{ch}[0] == {k}:", entry.span)
                    self.emit(ind + 1, f"l_{entry.var} = {ch}[1]", entry.span)
                    self.body(entry.body, entry_scope, ind + 1, entry.span)
                    continue
                if isinstance(opt, A.NumberOption):
                    continue  # (a second is an error: check_number_entries)
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

    def rank_type(self, node: A.Node, t: str) -> None:
        """A `prefer` rank: a number, or a list of numbers compared item by
        item (the first decides, the next breaks a tie...)."""
        if t not in ("list:int", "list:any"):  # (a list's numbers are checked as it ranks)
            self.expect(node, t, "int", "a 'prefer' rank (a number or a list of numbers)")

    def prompt(self, s: A.Choose, who: str, scope: Scope) -> str:
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

    def lazy_label(self, opt: A.Option, lcode: str, scope: Scope) -> str | None:
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

    def distinct_key(self, it: A.Node, scope: Scope) -> str | None:
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

    def label_function(self, lazy: list[tuple], opts: str, labs: str, start: int, ind: int,
                       span: Span) -> None:
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

    def choose_some(self, s: A.Choose, opt: A.SomeOption, who: str, name: str, scope: Scope,
                    ind: int, ch: str | None = None) -> Dispatch:
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
        bounds = self.numbers_code([(opt.low, "the 'min' of a selection"),
                                    (opt.high, "the 'max' of a selection")], scope, "None")
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
        self.check_ordered_pick(opt)
        if opt.ordered:  # one pick at a time (engine: choose_ordered)
            self.emit(ind, f"{ch} = G.choose_ordered({who}, {name!r}, "
                      f"{self.prompt(s, who, scope)}, {items}, {labs}, {bounds[0]}, {bounds[1]}, "
                      f"{prefer}, {s.may}, {site!r}{', ' + say if say else ''})", s.span)
        else:
            self.emit(ind, f"{ch} = G.choose_some({who}, {name!r}, {self.prompt(s, who, scope)}, "
                      f"{items}, {labs}, "
                      f"{bounds[0]}, {bounds[1]}, {test}, {prefer}, {s.may}, {site!r}"
                      f"{', ' + say if say else ''})", s.span)

        def dispatch(ind: int) -> None:
            self.emit(ind, f"if {ch} is not None:", opt.span)
            self.emit(ind + 1, f"l_{opt.picked} = {ch}", opt.span)
            self.body(opt.body, picked, ind + 1, opt.span)
            self.emit(ind, f"if {ch} is not None and G.hooks is not None: G.decided()", s.span)
        return dispatch

    def numbers_code(self, nodes: list[tuple[A.Node | None, str]], scope: Scope,
                     absent: str) -> list[str]:
        """The code of each (number, what it is), checked a number; `absent`
        for one not written."""
        out = []
        for node, what in nodes:
            if node is None:
                out.append(absent)
                continue
            code, t = self.expr(node, scope)
            self.expect(node, t, "int", what)
            out.append(code)
        return out

    def number_entry(self, s: A.Choose) -> A.NumberOption | None:
        """A decision's number entry (`number N from LOW to HIGH`), if it has one."""
        entries = [o for o in s.options if isinstance(o, A.NumberOption)]
        self.check_number_entries(entries)
        return entries[0] if entries else None

    def numbers(self, opt: A.NumberOption, key: int, opts: str, labs: str, prefs: str | None,
                scope: Scope, ind: int) -> tuple[str, Scope]:
        """Emit a number entry's options (model/numbers.py): the whole numbers
        of its range, then the decision's other options `opts` (labelled
        `labs`); a player's agent is never shown them listed. A bot ranks
        each value (a step each). Returns the name holding them, and the
        scope of the entry's block."""
        bounds = self.numbers_code([(opt.low, "the lowest number of a number entry"),
                                    (opt.high, "the highest number of a number entry"),
                                    (opt.step, "the step of a number entry")], scope, "1")
        self.check_number_step(opt.step)
        nums = self.fresh("nr")
        self.emit(ind, f"{nums} = G.numbers({', '.join(bounds)}, {opts}, {labs}, {key})",
                  opt.span)
        inner = scope.child()
        inner.names[opt.var] = Var(f"l_{opt.var}", "int")
        if prefs is not None:  # a bot ranks every value: a step each
            pcode = "None"
            if opt.prefer is not None:
                pcode, pt = self.expr(opt.prefer, inner)
                self.rank_type(opt.prefer, pt)
            at = opt.prefer.span if opt.prefer is not None else opt.span
            self.emit(ind, f"if {prefs} is not None:", at)
            self.emit(ind + 1, f"G.fuel -= {nums}.size", at)
            self.emit(ind + 1, "if G.fuel < 0: G.out_of_steps()", at)
            self.emit(ind + 1, f"{prefs}[:0] = [{pcode} for l_{opt.var} in "
                      f"{nums}.values()]", at)
        return nums, inner

    def s_Window(self, s: A.Window, scope: Scope, ind: int) -> None:
        typed = [self.expr(a, scope) for a in s.args]
        codes = [c for c, _ in typed]
        for i, (a, (_, t)) in enumerate(zip(s.args, typed)):
            self.passed(("win", s.name, i), a, t, scope)
        self.use_window(s, len(codes))
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
