"""The checker's part for expressions: the type of every field, call and
operator, and what is wrong with one (a part of checker.Checker)."""
from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from ..language import ast as A
from ..language.texts import fixed_texts
from ..language.types import BUILTINS, compatible, is_list, of_value, record_fields
from .common import ANY_FIELDS, ATTR_TYPES, _tname, _walk
from .compilerstate import CompilerState, Definition

if TYPE_CHECKING:
    from ..language.types import Builtin
    from .common import Scope

# values that are never a list of components, a zone or a text
SCALARS = ("int", "bool", "none", "side", "space")


class TypeCheck(CompilerState):
    """Fields, calls and operators (a part of checker.Checker)."""

    _any_fields: set[str] | None = None

    def attr_type(self, node: A.Node, t: str, name: str) -> tuple[str, bool] | None:
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
            return self.comp_attr_type(node, t, name)
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
        fields = record_fields(t)
        if fields is not None:
            if name in fields:
                return ("any", False)
            near = difflib.get_close_matches(name, fields, n=1)
            self.err(node, "REF-UNDEF", f"this record has no field {name!r} (its fields: "
                     f"{', '.join(fields)})", hint=f"did you mean {near[0]!r}?" if near else "")
            return None
        if t.startswith("table"):
            return ("any", False)
        if t in ("int", "bool", "str", "none", "func") or t.startswith("list:"):
            self.err(node, "TYPE", f"{_tname(t)} has no attribute {name!r}")
            return None
        return ("any", True)

    def comp_attr_type(self, node: A.Node, t: str, name: str) -> tuple[str, bool] | None:
        rs = self.rs
        if name in ("id", "kind"):
            return ("str", False)
        if name == "index":
            return ("int", False)
        if name == "zone":
            return ("zone", False)
        if name == "holder":
            return ("side", False)
        if name == "host":
            return ("comp", False)
        if name == "attached":
            return ("list:comp", False)
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
        known = ["id", "kind", "zone", "holder", "host", "attached", *rs.pieces]
        for k in kinds:
            known += list(k.attributes) + list(k.properties)
        what = f"component of kind {kinds[0].name!r}" if len(kinds) == 1 else "component"
        return self.no_attr(node, what, name, known)

    def no_attr(self, node: A.Node, owner: str, name: str, known: list[str],
                what: str = "attribute") -> tuple[str, bool] | None:
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

    def any_fields(self) -> set[str]:
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
            for n in _walk([m.items for m in rs.modules] +  # fields of records the rules make
                           [c.rules.items for c in rs.components if c.rules is not None]):
                if isinstance(n, A.Call) and isinstance(n.func, A.Name) and \
                        n.func.id == "record":
                    out |= {a.name for a in n.args if isinstance(a, A.KeywordArg)}
            self._any_fields = out
        return self._any_fields

    def unknown_name(self, n: A.Name, scope: Scope) -> None:
        """A name that is no variable here."""
        if n.id in self.funcs or n.id in BUILTINS:
            self.err(n, "TYPE", f"function {n.id!r} must be called: {n.id}(...)")
            return
        known = set()
        s: Scope | None = scope
        while s is not None:
            known |= set(s.names)
            s = s.parent
        self.undef(n, "name", n.id, known)

    def index_type(self, n: A.Index, t: str, it: str) -> str:
        """The type of `x[i]`, x of type t and i of type it."""
        if t == "row":
            self.expect(n.index, it, "side", "a piece count's index")
            return "int"
        if is_list(t):
            self.expect(n.index, it, "int", "a list index")
            return "elem"
        if t in SCALARS or t.startswith("comp"):
            self.err(n, "TYPE", f"{_tname(t)} cannot be indexed")
        return "any"

    def check_callee(self, n: A.Call) -> bool:
        if not isinstance(n.func, A.Name):
            self.err(n, "TYPE", "only named functions can be called")
            return False
        return True

    def check_keywords_allowed(self, name: str, kwargs: list[A.KeywordArg],
                               scope: Scope) -> list[A.KeywordArg]:
        """The named arguments of a call, [] when the function takes none."""
        if kwargs and not (name in BUILTINS and scope.lookup(name) is None and
                           name not in self.funcs):
            self.err(kwargs[0], "ARITY", f"{name}() takes no '{kwargs[0].name}:' argument",
                     hint="only built-in functions such as sorted(xs, by: ...) take named "
                     "arguments")
            return []
        return kwargs

    def check_record(self, n: A.Call, base: list[A.Node], fields: list[A.KeywordArg]) -> None:
        """record([RECORD,] NAME: VALUE ...): one record to copy at most, each
        field named once, and something to make."""
        if len(base) > 1:
            self.err(base[1], "ARITY", "record() copies one record at most; name the "
                     "other values (NAME: VALUE)")
        if not fields and not base:
            self.err(n, "ARITY", "record() needs named fields: record(count: 3, face: 5)")
        seen: set[str] = set()
        for kw in fields:
            if kw.name in seen:
                self.err(kw, "ARITY", f"'{kw.name}:' is given twice")
            seen.add(kw.name)

    def check_original(self, n: A.Call, nargs: int) -> tuple[str, Definition] | None:
        """`original(...)`: (its target, its node), None outside an override."""
        if self.original is None:
            self.err(n, "REF-UNDEF", "original(...) is only allowed in an 'override'")
            return None
        target, node = self.original
        want = len(getattr(node, "params", []))
        if nargs != want:
            self.err(n, "ARITY", f"original() takes {want} argument(s), got {nargs}")
        return target, node

    def check_arity(self, n: A.Call, name: str, want: int, got: int) -> None:
        if got != want:
            self.err(n, "ARITY", f"{name}() takes {want} argument(s), got {got}")

    def check_builtin_call(self, n: A.Call, name: str, b: Builtin, types: list[str]) -> bool:
        """A call of built-in `name` (BUILTINS[name] is b) with arguments of
        these types; False when it cannot be compiled."""
        nargs = len(types)
        if nargs < b.min_args or (b.max_args >= 0 and nargs > b.max_args):
            want = (f"{b.min_args}" if b.min_args == b.max_args else
                    f"{b.min_args} to {b.max_args}" if b.max_args >= 0 else
                    f"at least {b.min_args}")
            self.err(n, "ARITY", f"{name}() takes {want} argument(s), got {nargs}")
            return False
        self.check_builtin(n, name, types)
        for i in b.fn_args:
            if i < len(types) and types[i] != "func" and not compatible(types[i], "func"):
                self.err(n.args[i], "TYPE", f"{name}()'s argument {i + 1} must be a "
                         f"function such as x => x.value, not {_tname(types[i])}")
        return True

    def check_money(self, node: A.Node, what: str) -> None:
        if not self.rs.money:
            self.err(node, "REF-UNDEF", f"{what} needs money: declare `money:` in game.yaml")

    def check_builtin(self, n: A.Call, name: str, types: list[str]) -> None:
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

    def check_keyword(self, kw: A.KeywordArg, name: str, b: Builtin, seen: set[str]) -> bool:
        """`by: KEY` given to built-in `name`: a name it takes, once."""
        if kw.name not in b.keywords:
            self.err(kw, "ARITY", f"{name}() takes no '{kw.name}:' argument" +
                     (f" (it takes {', '.join(k + ':' for k in b.keywords)})"
                      if b.keywords else ""))
            return False
        if kw.name in seen:
            self.err(kw, "ARITY", f"'{kw.name}:' is given twice")
            return False
        seen.add(kw.name)
        return True

    def check_key_item(self, kw: A.KeywordArg, item: A.Node, it: str) -> None:
        """One item of `by: [...]` that is not written as a lambda."""
        if not compatible(it, "func"):
            self.err(item, "TYPE", f"'{kw.name}:' lists functions such as "
                     f"x => x.cost, not {_tname(it)}")

    def check_key(self, kw: A.KeywordArg, t: str) -> None:
        """`by: KEY` of type t (a function or a list of functions)."""
        if not (t == "func" or compatible(t, "func") and not is_list(t) or
                t.startswith("list:")):
            self.err(kw.value, "TYPE", f"'{kw.name}:' takes a function such as x => x.cost "
                     f"or a list of them, not {_tname(t)}")

    def unknown_function(self, n: A.Call, name: str) -> None:
        self.undef(n.func, "function", name, list(self.funcs) + list(BUILTINS))

    def binop_type(self, n: A.BinOp, lt: str, rt: str) -> str:
        """The type of `a OP b`: a list for lists joined with '+', "str" for
        a text joined with '+' (an error: it has no code), else "int"."""
        if n.op == "+" and (is_list(lt) or is_list(rt)):
            if not (compatible(lt, rt) or "any" in (lt, rt)) and self.typed_pass and \
                    is_list(lt) and is_list(rt):
                return "list:any"  # a typed pass (the untyped one accepted this): a mixed list
            if not (compatible(lt, rt) or "any" in (lt, rt)):
                self.err(n, "TYPE", f"cannot add {_tname(lt)} and {_tname(rt)}")
            return lt if is_list(lt) and lt != "zone" else rt if is_list(rt) and rt != "zone" \
                else "list:comp"
        if n.op == "+" and (lt == "str" or rt == "str"):
            self.err(n, "TYPE", "text is joined with interpolation: \"{a}{b}\", not '+'")
            return "str"
        for side, t in ((n.left, lt), (n.right, rt)):
            self.expect(side, t, "int", f"an operand of '{n.op}'")
        return "int"

    def check_compare(self, n: A.Compare, lt: str, rt: str) -> None:
        if n.op in ("in", "notin"):
            if rt in SCALARS or rt.startswith("comp"):
                self.err(n.right, "TYPE", f"'in' needs a list, zone or text, not {_tname(rt)}")
        elif n.op in ("<", ">", "<=", ">="):
            self.expect(n.left, lt, "int", f"an operand of '{n.op}'")
            self.expect(n.right, rt, "int", f"an operand of '{n.op}'")
        elif not compatible(lt, rt):
            self.err(n, "TYPE", f"comparing {_tname(lt)} with {_tname(rt)} is always "
                     f"{'false' if n.op == '==' else 'true'}")

    def check_text(self, n: A.Compare) -> None:
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
