"""Expressions: each e_<Node> method writes one kind of expression as
Python and returns the code with its type, asking the checker (checker.py)
what the expression means."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from ..language import ast as A
from ..language.types import BUILTINS, elem, is_list, list_of, record_fields
from ..model.state import py_name, to_table
from ..support.limits import MAX_NUMBER
from .common import (
    _WALKERS,
    ANY_FIELDS,
    BUILTIN_FIELDS,
    PUBLIC_FIELDS,
    Var,
    _paid_for,
    _pure,
    _walk,
)
from .compilerstate import CompilerState

if TYPE_CHECKING:
    from ..language.types import Builtin
    from .common import Scope


class Expressions(CompilerState):
    """The Compiler's expressions (a part of compiler.Compiler)."""

    # ---------------------------------------------------------------- expressions
    def expr(self, n: A.Node, scope: Scope) -> tuple[str, str]:
        meth = getattr(self, "e_" + type(n).__name__)
        return meth(n, scope)

    def e_Num(self, n: A.Num, scope: Scope) -> tuple[str, str]:
        return repr(n.value), "int"

    def e_Const(self, n: A.Const, scope: Scope) -> tuple[str, str]:
        types: dict[object, str] = {True: "bool", False: "bool", None: "none"}
        return repr(n.value), types[n.value]

    def e_Name(self, n: A.Name, scope: Scope) -> tuple[str, str]:
        v = scope.lookup(n.id)
        if v is not None:
            if v.reads and self._reads is not None and scope is self._reads_scope:
                self._reads.extend(v.reads)  # `let r = c.rank`: as secret as c.rank
            return v.code, v.type
        self.unknown_name(n, scope)
        return "None", "any"

    def e_Attr(self, n: A.Attr, scope: Scope) -> tuple[str, str]:
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

    def attr_code(self, code: str, t: str, name: str) -> str:
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

    def record(self, n: A.Call, scope: Scope) -> tuple[str, str]:
        """`record(count: 3, face: 5)`: a value of named fields, read as
        `r.count`; `record(r, face: 6)` is r with those fields given anew. Its
        type names its fields (`table:{count,face}`), so a field it lacks is
        an error where it is read."""
        base = [a for a in n.args if not isinstance(a, A.KeywordArg)]
        fields = [a for a in n.args if isinstance(a, A.KeywordArg)]
        self.check_record(n, base, fields)
        bcode = "None"
        names: list[str] | None = []
        if base:
            bcode, bt = self.expr(base[0], scope)
            self.expect(base[0], bt, "table", "the record record() copies")
            names = record_fields(bt)  # (None: a table whose fields are not known here)
        codes = []
        for kw in fields:
            code, _ = self.expr(kw.value, scope)
            codes.append(f"{kw.name!r}: {code}")
            if names is not None and kw.name not in names:
                names.append(kw.name)
        t = "table" if names is None else "table:{" + ",".join(names) + "}"
        return f"G.record({bcode}, {{{', '.join(codes)}}})", t

    def e_Index(self, n: A.Index, scope: Scope) -> tuple[str, str]:
        code, t = self.expr(n.obj, scope)
        icode, it = self.expr(n.index, scope)
        rt = self.index_type(n, t, it)
        if t == "row":
            return f"{code}.counts[{icode}.index]", "int"
        if rt == "elem":
            if self.fast and t == "zone":
                return f"{code}.items[{icode}]", elem(t)  # Zone.__getitem__, in place
            return f"{code}[{icode}]", elem(t)
        return f"{code}[{icode}]", "any"

    def e_Call(self, n: A.Call, scope: Scope) -> tuple[str, str]:
        if not self.check_callee(n):
            return "None", "any"
        name = cast(A.Name, n.func).id  # (check_callee)
        if name == "record" and scope.lookup(name) is None and name not in self.funcs:
            return self.record(n, scope)
        kwargs = [a for a in n.args if isinstance(a, A.KeywordArg)]
        args: list[tuple[str, str]] = []
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
        kwargs = self.check_keywords_allowed(name, kwargs, scope)
        if name == "original" and scope.lookup(name) is None:
            original = self.check_original(n, len(args))
            if original is None:
                return "None", "any"
            return f"{original[0]}({', '.join(['G'] + [c for c, _ in args])})", "any"
        codes = [c for c, _ in args]
        types = [t for _, t in args]
        local = scope.lookup(name)
        if local is not None and local.type == "func":
            # a `let` of a lambda (never reassigned): pay a step, then call it
            return f"(spend(G, 1) or fn({local.code})({', '.join(codes)}))", "any"
        if name in self.funcs:
            fn = self.funcs[name]
            self.check_arity(n, name, len(fn.params), len(args))
            for i, (a, t) in enumerate(zip([a for a in n.args if not isinstance(a, A.KeywordArg)],
                                           types)):
                self.passed(("fn", name, i), a, t, scope)
            return f"f_{name}({', '.join(['G', *codes])})", self.param_types.get(("ret", name),
                                                                                "any")
        if name in BUILTINS:
            b = BUILTINS[name]
            if not self.check_builtin_call(n, name, b, types):
                return "None", "any"
            kw_codes, kw_trusted = self.keyword_args(name, b, kwargs, scope)
            if name == "cash":
                self.check_money(n, "cash()")
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
        self.unknown_function(n, name)
        return "None", "any"

    def indexed_first(self, n: A.Call, scope: Scope) -> str | None:
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

    def keyword_args(self, name: str, b: Builtin, kwargs: list[A.KeywordArg],
                     scope: Scope) -> tuple[list[str], bool]:
        """`by: KEY` for the built-ins that take one: KEY is a function or a
        list of functions. Returns (python keyword arguments, all known lambdas)."""
        seen: set[str]
        out, trusted, seen = [], True, set()
        for kw in kwargs:
            if not self.check_keyword(kw, name, b, seen):
                continue
            code, t = self.expr(kw.value, scope)
            if t == "func":
                pass
            elif isinstance(kw.value, A.ListLit) and kw.value.items:
                for item in kw.value.items:
                    if not isinstance(item, A.Lambda):
                        trusted = False
                        self.check_key_item(kw, item, self.expr(item, scope)[1])
            else:
                trusted = False
                self.check_key(kw, t)
            out.append(f"{kw.name}={code}")
        return out, trusted

    def e_Collect(self, n: A.Collect, scope: Scope) -> tuple[str, str]:
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

    def e_ListLit(self, n: A.ListLit, scope: Scope) -> tuple[str, str]:
        items = [self.expr(i, scope) for i in n.items]
        t = items[0][1] if items and all(t == items[0][1] for _, t in items) else "any"
        return f"[{', '.join(c for c, _ in items)}]", list_of(t)

    def e_Comprehension(self, n: A.Comprehension, scope: Scope) -> tuple[str, str]:
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

    def e_Lambda(self, n: A.Lambda, scope: Scope, param: str = "any") -> tuple[str, str]:
        inner = scope.child()
        inner.names[n.param] = Var(f"l_{n.param}", param)
        code, _ = self.expr(n.body, inner)
        return f"(lambda l_{n.param}: {code})", "func"

    def e_BinOp(self, n: A.BinOp, scope: Scope) -> tuple[str, str]:
        lc, lt = self.expr(n.left, scope)
        rc, rt = self.expr(n.right, scope)
        t = self.binop_type(n, lt, rt)
        if is_list(t):
            return f"B_concat(G, {lc}, {rc})", t
        if t == "str":  # text joined with '+': reported, no code
            return "None", "str"
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
            for x, y in ((lc, n.right), (rc, n.left)):
                # x * c: in range while |x| <= limit // |c|
                if isinstance(y, A.Num) and y.value != 0:
                    k = MAX_NUMBER // abs(y.value)
                    return f"({lc} * {rc} if -{k} <= {x} <= {k} else {call})", "int"
            root = math.isqrt(MAX_NUMBER)
            return (f"({lc} * {rc} if -{root} <= {lc} <= {root} and -{root} <= {rc} <= {root} "
                    f"else {call})"), "int"
        return f"{helper}(G, {lc}, {rc})", "int"

    def e_Compare(self, n: A.Compare, scope: Scope) -> tuple[str, str]:
        lc, lt = self.expr(n.left, scope)
        rc, rt = self.expr(n.right, scope)
        if n.op in ("==", "!=", "in", "notin") and not self.typed_pass:
            self.check_text(n)
        if self.fast and not self.typed_pass:
            self.untyped[id(n)] = (lt, rt)
        # what the steps paid depend on: the types the untyped code knew
        plt, prt = self.untyped.get(id(n), (lt, rt)) if self.typed_pass else (lt, rt)
        self.check_compare(n, lt, rt)
        if n.op in ("in", "notin"):
            if not (prt.startswith("list:") or prt == "any"):  # zones, texts, tables: no walk
                op = "in" if n.op == "in" else "not in"
                return f"({lc} {op} {rc})", "bool"
            code = f"B_in(G, {lc}, {rc})"  # a list: paid for by its length
            if self.fast and rc.startswith("B_linked(G, ") and isinstance(n.right, A.Call) and \
                    len(n.right.args) == 2:
                # x in linked(s, kind): one call, the same steps (the list's length)
                code = f"B_in_linked(G, {lc}, {rc[len('B_linked(G, '):]}"
            return (code if n.op == "in" else f"(not {code})"), "bool"
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

    def e_BoolOp(self, n: A.BoolOp, scope: Scope) -> tuple[str, str]:
        lc, lt = self.expr(n.left, scope)
        rc, rt = self.expr(n.right, scope)
        self.expect(n.left, lt, "bool", f"an operand of '{n.op}'")
        self.expect(n.right, rt, "bool", f"an operand of '{n.op}'")
        return f"({lc} {n.op} {rc})", "bool"

    def e_Not(self, n: A.Not, scope: Scope) -> tuple[str, str]:
        c, t = self.expr(n.operand, scope)
        self.expect(n.operand, t, "bool", "the operand of 'not'")
        return f"(not {c})", "bool"

    def e_Neg(self, n: A.Neg, scope: Scope) -> tuple[str, str]:
        c, t = self.expr(n.operand, scope)
        self.expect(n.operand, t, "int", "the operand of '-'")
        return f"(-{c})", "int"

    def e_Ternary(self, n: A.Ternary, scope: Scope) -> tuple[str, str]:
        cc, ct = self.expr(n.cond, scope)
        self.expect(n.cond, ct, "bool", "the condition of 'if'")
        ac, at = self.expr(n.then, scope)
        bc, bt = self.expr(n.other, scope)
        return f"({ac} if {cc} else {bc})", at if at == bt else "any"
