"""fast back end: a list built by a comprehension, as a statement, written
out as plain loops.

In this CPython a list comprehension or a generator runs as a function of
its own (one call each time it is built), and `paid(G, xs)`, which pays a
list's steps, is one more. A statement that builds a list by comprehension
(`x = [e for v in xs if c]`, `return [...]`, a move of such a list), or
folds one (`all`, `any`, `next`, `num(sum(...))`, `len([...])` of one, as
the compiler writes sum, count, every, any and first in place) becomes
loops in the function itself; where the compiler knew the list to be a
list or a zone (`paidl`, `paidz`: the same function as `paid`) its steps
are paid in place. Everything is evaluated in the same order, stops at the
same item and pays the same steps; each loop variable gets a fresh name,
so none of the function's own variables changes.

Only comprehensions with nothing that keeps a scope of its own are written
out: no lambda, generator or other comprehension, except a comprehension
that is itself the list a loop walks (written out first, the same way).
"""
from __future__ import annotations

import ast
import copy
import re
from typing import Any, Callable

from ..support.limits import MAX_NUMBER

_HEAD = re.compile(r"^(?:(?P<target>l_\w+|_ow\d+|_i\d+) = |return |G\.move\()"
                   r"(?:\[|all\(|any\(|next\(|num\(sum\(|len\(\[)")
_SCOPED = (ast.Lambda, ast.GeneratorExp, ast.SetComp, ast.DictComp, ast.NamedExpr,
           ast.Yield, ast.YieldFrom, ast.Await, ast.FunctionDef)
_PAID = {"paid": None, "paidl": "list", "paidz": "zone"}


_PAYS = re.compile(r"^(?P<head>(?:l_\w+|_ow\d+) = |return |for l_\w+ in )"
                   r"\(spend\(G, (?P<k>\d+)\) or (?P<rest>.*)\)(?P<colon>:?)$")


def unrolled(text: str, fresh: Callable[[str], str]) -> list[tuple[int, str]] | None:
    """One statement `text` (no indent) as (indent, line) pairs, or None to
    keep it as it is. fresh(base) gives a name no other code uses."""
    paying = _PAYS.match(text)
    if paying is not None and _one_expression(paying.group("rest")):
        # `x = (spend(G, 9) or xs)`, as range(3) and track("...") are written
        # in place: the steps paid first, then the value (spend gives None)
        return [(0, f"G.fuel -= {paying.group('k')}"), (0, "if G.fuel < 0: G.out_of_steps()"),
                (0, f"{paying.group('head')}{paying.group('rest')}{paying.group('colon')}")]
    m = _HEAD.match(text)
    if m is None:
        return None
    try:
        stmt: Any = ast.parse(text).body[0]  # (of the forms _HEAD matches)
    except SyntaxError:
        return None
    value, call = stmt.value, None
    if text.startswith("G.move("):  # the list is the first thing evaluated
        call = value
        if call.keywords or not call.args:
            return None
        value = call.args[0]
    fold = _fold(value)
    if fold is None:
        return None
    form, comp = fold
    if not _plain(comp, form) or form == "len" and not isinstance(comp.elt, ast.Constant):
        return None
    out: list[tuple[int, str]] = []
    result = fresh("r")  # the target may be read while the list is built
    start, action, end = _FORMS[form]
    if start is not None:
        out.append((0, f"{result} = {start}"))
    _build(comp, 0, {}, out, fresh, lambda ind, elt: [(ind + d, line.format(r=result, e=elt))
                                                      for d, line in action],
           fuse=form not in ("all", "any", "next") and _calm(comp))
    done = end.format(r=result)
    if call is not None:
        call.args[0] = ast.Name(done, ast.Load())
        out.append((0, ast.unparse(call)))
    elif isinstance(stmt, ast.Return):
        out.append((0, f"return {done}"))
    else:
        out.append((0, f"{m.group('target')} = {done}"))
    return out


_GUARDED = re.compile(r"^(?:(?P<if>if )(?P<test>.*):|"
                      r"(?P<head>(?:l_\w+|_i\d+) = |return )(?P<value>.*))$")


def guarded(text: str, fresh: Callable[[str], str]) -> list[tuple[int, str]] | None:
    """As unrolled, once small functions are written in place: `if FOLD:`,
    and `x = A and FOLD` / `return A or FOLD` (a function that tests
    something and then looks through a list, written in place): the fold
    as loops, run only when the test before it leaves it to decide, as
    `and` and `or` would."""
    m = _GUARDED.match(text)
    if m is None or not (" for " in text and ("all(" in text or "any(" in text or
                                             "next(" in text or "sum(" in text)):
        return None
    code = m.group("test") if m.group("if") else m.group("value")
    try:
        node = ast.parse(code, mode="eval").body
    except SyntaxError:
        return None
    op: Any  # (set with `before`)
    before, op = [], None
    if isinstance(node, ast.BoolOp) and not m.group("if"):
        before, op, node = node.values[:-1], node.op, node.values[-1]
        if any(_fold(v) is not None or _has_scope(v) for v in before):
            return None
    fold = _fold(node)
    if fold is None or not _plain(fold[1], fold[0]) or \
            fold[0] == "len" and not isinstance(fold[1].elt, ast.Constant):
        return None
    form, comp = fold
    out: list[tuple[int, str]] = []
    ind = 0
    if before:
        test = fresh("b")
        first = before[0] if len(before) == 1 else ast.BoolOp(op, before)
        out.append((0, f"{test} = {ast.unparse(first)}"))
        out.append((0, f"if {test}:" if isinstance(op, ast.And) else f"if not {test}:"))
        ind = 1
    result = fresh("r")
    start, action, end = _FORMS[form]
    if start is not None:
        out.append((ind, f"{result} = {start}"))
    _build(comp, ind, {}, out, fresh,
           lambda i, elt: [(i + d, line.format(r=result, e=elt)) for d, line in action],
           fuse=form not in ("all", "any", "next") and _calm(comp))
    done = end.format(r=result)
    if before:
        out.append((1, f"{test} = {done}"))
        done = test
    out.append((0, f"if {done}:" if m.group("if") else f"{m.group('head')}{done}"))
    return out


_LEAN = re.compile(r"^(?P<head>return |(?:l_\w+|_i\d+) = )(?P<value>.*)$")
_ARITH = (ast.Add, ast.Sub, ast.Mult)
_PURE_CALLS = {"B_mul", "B_add", "B_sub", "num"}  # arithmetic: reads and changes nothing


def lean(text: str, fresh: Callable[[str], str]) -> list[tuple[int, str]] | None:
    """`x = num(a + b)` and `return num(...)`: the range check written in
    place (num is called only near the limit); and the step an unanswered
    `collect` pays (`(... if G.ev_e else (spend(G, 1) or 0))`) paid before
    the statement, when nothing evaluated ahead of it could change whether
    the event is answered."""
    m = _LEAN.match(text)
    if m is None or not ("num(" in text or "spend(G" in text):
        return None
    try:
        value = ast.parse(m.group("value"), mode="eval").body
    except SyntaxError:
        return None
    pays: list = []
    value = _hoisted_pays(value, pays)
    checked = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
        value.func.id == "num" and len(value.args) == 1 and not value.keywords and \
        isinstance(value.args[0], ast.BinOp) and isinstance(value.args[0].op, _ARITH)
    if not pays and not checked:
        return None
    out: list[tuple[int, str]] = []
    for test, k in pays:
        out += [(0, f"if not {test}:"), (1, f"G.fuel -= {k}"),
                (1, "if G.fuel < 0: G.out_of_steps()")]
    if checked:  # a + b of two numbers is a number: only its size is checked
        n = fresh("n")
        out.append((0, f"{n} = {ast.unparse(value.args[0])}"))
        code = f"{n} if {-MAX_NUMBER} <= {n} <= {MAX_NUMBER} else num({n})"
    else:
        code = ast.unparse(value)
    out.append((0, f"{m.group('head')}{code}"))
    return out


def _hoisted_pays(node, pays):
    """node with each unanswered collect's payment taken out (into pays),
    walking what is evaluated first while it is pure arithmetic."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "num" and len(node.args) == 1 and not node.keywords:
        node.args[0] = _hoisted_pays(node.args[0], pays)
        return node
    if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITH):
        node.left = _hoisted_pays(node.left, pays)
        if _pure(node.left):
            node.right = _hoisted_pays(node.right, pays)
        return node
    if isinstance(node, ast.IfExp) and isinstance(node.test, ast.Attribute) and \
            isinstance(node.test.value, ast.Name) and node.test.value.id == "G" and \
            node.test.attr.startswith("ev_") and isinstance(node.orelse, ast.BoolOp) and \
            isinstance(node.orelse.op, ast.Or) and len(node.orelse.values) == 2:
        k, rest = _paying(node.orelse)
        if k is not None and isinstance(rest, ast.Constant):
            pays.append((ast.unparse(node.test), k))
            node.orelse = rest
    return node


def _pure(node) -> bool:
    """Reads only (no call but arithmetic): cannot change what follows it."""
    return all(not isinstance(n, ast.Call) or isinstance(n.func, ast.Name) and
               n.func.id in _PURE_CALLS for n in ast.walk(node)) and \
        not any(isinstance(n, _SCOPED) for n in ast.walk(node))


def _has_scope(node) -> bool:
    return any(isinstance(n, _SCOPED + (ast.ListComp,)) for n in ast.walk(node))


def _one_expression(code: str) -> bool:
    """Whether code is one whole expression (not `a) or (b`)."""
    try:
        ast.parse(f"({code})", mode="eval")
        ast.parse(code, mode="eval")
    except SyntaxError:
        return False
    return True


# form: (the result's start, what each item does, the result)
_FORMS = {
    "list": ("[]", [(0, "{r}.append({e})")], "{r}"),
    "all": ("True", [(0, "if not ({e}):"), (1, "{r} = False"), (1, "break")], "{r}"),
    "any": ("False", [(0, "if {e}:"), (1, "{r} = True"), (1, "break")], "{r}"),
    "next": ("None", [(0, "{r} = {e}"), (0, "break")], "{r}"),
    "sum": ("0", [(0, "{r} = {r} + ({e})")], "num({r})"),
    "len": ("0", [(0, "{r} += 1")], "{r}"),
}


def _fold(node):
    """(form, comprehension) for the forms written out, else None."""
    if isinstance(node, ast.ListComp):
        return "list", node
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.keywords:
        return None
    name, args = node.func.id, node.args
    if name in ("all", "any") and len(args) == 1 and isinstance(args[0], ast.GeneratorExp):
        return name, args[0]
    if name == "next" and len(args) == 2 and isinstance(args[0], ast.GeneratorExp) and \
            isinstance(args[1], ast.Constant) and args[1].value is None:
        return "next", args[0]
    if name == "num" and len(args) == 1 and isinstance(args[0], ast.Call) and \
            isinstance(args[0].func, ast.Name) and args[0].func.id == "sum" and \
            len(args[0].args) == 1 and not args[0].keywords and \
            isinstance(args[0].args[0], ast.GeneratorExp):
        return "sum", args[0].args[0]
    if name == "len" and len(args) == 1 and isinstance(args[0], ast.ListComp):
        return "len", args[0]
    return None


def _plain(comp, form) -> bool:
    """Nothing with a scope of its own, but comprehensions that a paid
    loop walks (written out too); a fold that stops early (`break`) walks
    one loop only."""
    allowed = {id(comp)}
    todo = [comp]
    while todo:
        c = todo.pop()
        for g in c.generators:
            if g.is_async or not isinstance(g.target, ast.Name):
                return False
            inner = _paid_arg(g.iter)
            if isinstance(inner, ast.ListComp):
                allowed.add(id(inner))
                todo.append(inner)
    if form in ("all", "any", "next") and \
            sum(not _single(g.iter) for g in comp.generators) != 1:
        return False
    for n in ast.walk(comp):
        if isinstance(n, ast.ListComp) or isinstance(n, ast.GeneratorExp):
            if id(n) not in allowed:
                return False
        elif isinstance(n, _SCOPED):
            return False
    return True


def _paying(node):
    """(k, X) for `spend(G, k) or X` (spend gives None), else (None, node)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and \
            len(node.values) == 2:
        pay, rest = node.values
        if isinstance(pay, ast.Call) and isinstance(pay.func, ast.Name) and \
                pay.func.id == "spend" and len(pay.args) == 2 and not pay.keywords and \
                isinstance(pay.args[0], ast.Name) and pay.args[0].id == "G" and \
                isinstance(pay.args[1], ast.Constant) and type(pay.args[1].value) is int:
            return pay.args[1].value, rest
    return None, node


def _single(it) -> bool:
    """`for k in [e]`: a name for one value, no loop."""
    return isinstance(it, (ast.List, ast.Tuple)) and len(it.elts) == 1 and \
        not isinstance(it.elts[0], ast.Starred)


def _paid_arg(node):
    """X of paid(G, X) (or paidl/paidz), else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in _PAID and len(node.args) == 2 and not node.keywords and \
            isinstance(node.args[0], ast.Name) and node.args[0].id == "G":
        return node.args[1]
    return None


class _Rename(ast.NodeTransformer):
    """Names replaced: by another name (a str) or by a copy of a node."""

    def __init__(self, names: dict[str, str | ast.AST]):
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.AST:
        new = self.names.get(node.id)
        if new is None:
            return node
        if isinstance(new, str):
            return ast.copy_location(ast.Name(new, node.ctx), node)
        return copy.deepcopy(new)


def substituted(node: Any, names: dict[str, str | ast.AST]) -> Any:
    """A copy of node with names replaced (see _Rename)."""
    return _Rename(names).visit(copy.deepcopy(node))


def _code(node, names) -> str:
    return ast.unparse(substituted(node, names))


def _build(comp, ind, names, out, fresh, action, fuse=False):
    """The loops of a comprehension; action(indent, element code) gives the
    lines that take each item. fuse: a loop over a filter of a list
    (`for x in paid(G, [y for y in ys if c])`) may walk ys itself, paying
    for the items kept once the walk is done (no loop stops early)."""
    names = dict(names)  # this comprehension's variables are its own
    after: list[tuple[int, str]] = []  # (indent, line) once a fused loop is done, innermost first
    for g in comp.generators:
        it = g.iter
        var = fresh("v")
        inner = _filter_of(it) if fuse else None
        if _single(it):
            out.append((ind, f"{var} = {_code(it.elts[0], names)}"))  # `for k in [e]`
        elif inner is not None:
            kept = fresh("k")
            out.append((ind, f"{kept} = 0"))
            gen = inner.generators[0]
            out.append((ind, f"for {var} in {_walked(gen.iter, ind, names, out, fresh)}:"))
            after[:0] = [(ind, f"G.fuel -= {kept} + 1"), (ind, "if G.fuel < 0: G.out_of_steps()")]
            ind += 1
            own = dict(names)
            own[gen.target.id] = var
            for cond in gen.ifs:
                out.append((ind, f"if {_code(cond, own)}:"))
                ind += 1
            out.append((ind, f"{kept} += 1"))
        else:
            out.append((ind, f"for {var} in {_walked(it, ind, names, out, fresh)}:"))
            ind += 1
        names[g.target.id] = var
        for cond in g.ifs:
            out.append((ind, f"if {_code(cond, names)}:"))
            ind += 1
    out.extend(action(ind, _code(comp.elt, names)))
    out.extend(after)


def _filter_of(it):
    """The comprehension of `paidl(G, [y for y in ys if c])` (a list that
    only filters another, walked once more as it is), else None."""
    xs = _paid_arg(it)
    if not isinstance(xs, ast.ListComp) or len(xs.generators) != 1:
        return None
    gen = xs.generators[0]
    if not isinstance(xs.elt, ast.Name) or not isinstance(gen.target, ast.Name) or \
            xs.elt.id != gen.target.id or _single(gen.iter) or \
            any(isinstance(n, ast.Call) for c in gen.ifs for n in ast.walk(c)):
        return None
    return xs


def _calm(comp) -> bool:
    """Whether taking an item calls nothing that could log, pay or fail
    apart from its own test (so walking two lists as one changes no order):
    only the `seen.add(key)` of distinct, num and len."""
    parts = [comp.elt] + [c for g in comp.generators for c in g.ifs]
    for n in (n for p in parts for n in ast.walk(p)):
        if isinstance(n, ast.Call) and not (
                isinstance(n.func, ast.Attribute) and n.func.attr == "add" and
                isinstance(n.func.value, ast.Name) or
                isinstance(n.func, ast.Name) and n.func.id in ("num", "len")):
            return False
    return True


def _walked(it, ind, names, out, fresh) -> str:
    """The code a loop walks: a list or zone known to the compiler is paid
    for in place; a comprehension is built first."""
    xs = _paid_arg(it)
    if xs is None:
        return _code(it, names)
    kind = _PAID[it.func.id]
    if isinstance(xs, ast.ListComp):
        walk = fresh("t")
        out.append((ind, f"{walk} = []"))
        _build(xs, ind, names, out, fresh,
               lambda i, elt: [(i, f"{walk}.append({elt})")])
    elif kind is None:
        return _code(it, names)  # paid() finds out what it is
    else:
        walk = fresh("w")
        k, rest = _paying(xs)
        if k is not None:  # track("...") written in place: its steps, then the list
            out.append((ind, f"G.fuel -= {k}"))
            out.append((ind, "if G.fuel < 0: G.out_of_steps()"))
            xs = rest
        xs_code = _code(xs, names)
        out.append((ind, f"{walk} = {xs_code}.items[:]" if kind == "zone" else
                    f"{walk} = {xs_code}"))
    out.append((ind, f"G.fuel -= len({walk}) + 1"))
    out.append((ind, "if G.fuel < 0: G.out_of_steps()"))
    return walk
