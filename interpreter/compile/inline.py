"""fast back end: small rule functions written into their callers.

In this CPython a call of a Python function costs about as much as a few
dozen simple operations, and rules call their small helpers (`power(p,
"x")`, `draftable(p, d)`, `downtown()`) thousands of times a game. A rule
function whose whole body is `return EXPR` is written in place where a
statement calls it first thing (`if f(...):`, `x = f(...)`, `return
f(...)`, or the first operand of those) with names or constants as
arguments: the step it pays on entry is paid in place, then EXPR is worked
out with the arguments in place of the parameters, each line keeping the
rule position of the line it came from, so a failure or running out of
steps is reported where the function's own code would report it.

The function stays defined for every other caller. Works on the generated
lines (compiler.Compiler.lines and their spans), after every function is
written.
"""
from __future__ import annotations

import ast
import re
from typing import Any, Callable

from .unroll import substituted, unrolled

_DEF = re.compile(r"^def (f_\w+)\(G((?:, l_\w+)*)\):$")
_TICK = ("    G.fuel -= 1", "    if G.fuel < 0: G.out_of_steps()")
_PAY = re.compile(r"^    G\.fuel -= \d+$")
_SITE = re.compile(r"^(?P<ind> *)(?:if |l_\w+ = |return |f_)")
_SCOPED = (ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)


def inline_calls(lines: list, spans: list, fresh: Callable[[str], str]) -> tuple[list, list]:
    """The lines and spans with small functions written into their callers."""
    small = _small_functions(lines, spans)
    if not small:
        return lines, spans
    out_lines, out_spans = [], []
    for line, span in zip(lines, spans):
        new = _site(line, span, small, fresh) if _SITE.match(line) else None
        if new is None:
            out_lines.append(line)
            out_spans.append(span)
        else:
            for text, sp in new:
                out_lines.append(text)
                out_spans.append(sp)
    return out_lines, out_spans


def _small_functions(lines, spans) -> dict:
    """name -> (parameters, the returned expression, the tick's span, the
    return's span) for every function made of its tick and one return."""
    found: dict = {}
    seen: dict[str, int] = {}
    for i, line in enumerate(lines):
        m = _DEF.match(line)
        if m is None:
            continue
        name = m.group(1)
        seen[name] = seen.get(name, 0) + 1
        # the tick, then any steps paid in place (x = (spend(G, 9) or xs)), then the return
        j, pays = i + 1, []
        while j + 1 < len(lines) and _PAY.match(lines[j]) and lines[j + 1] == _TICK[1]:
            pays.append((lines[j].strip(), spans[j]))
            j += 2
        if not pays or pays[0][0] != _TICK[0].strip() or j >= len(lines) or \
                not lines[j].startswith("    return ") or \
                (j + 1 < len(lines) and lines[j + 1].startswith(" ")):
            continue
        try:
            expr = ast.parse(lines[j][len("    return "):], mode="eval").body
        except SyntaxError:
            continue
        params = [p.strip() for p in m.group(2).split(",") if p.strip()]
        if _fits(expr, params):
            found[name] = (params, expr, pays, spans[j])
    return {k: v for k, v in found.items() if seen[k] == 1}


def _fits(expr, params) -> bool:
    """Nothing keeps a scope or binds a name the caller could see, and every
    local name is a parameter or bound inside (a comprehension's)."""
    bound = set()
    for n in ast.walk(expr):
        if isinstance(n, _SCOPED):
            return False
        if isinstance(n, ast.comprehension):
            for t in ast.walk(n.target):
                if isinstance(t, ast.Name):
                    bound.add(t.id)
    for n in ast.walk(expr):
        if isinstance(n, ast.Name) and n.id.startswith("l_") and \
                n.id not in params and n.id not in bound:
            return False
    return not (bound & set(params))


def _head(node):
    """The call evaluated first in an expression, and a function that puts a
    replacement in its place."""
    parent: Any = None  # a node, or the list of a BoolOp's values
    field: Any = None
    while True:
        if isinstance(node, ast.Call):
            return node, parent, field
        if isinstance(node, ast.BoolOp):
            parent, field, node = node.values, 0, node.values[0]
        elif isinstance(node, (ast.Compare, ast.BinOp)):
            parent, field, node = node, "left", node.left
        elif isinstance(node, ast.UnaryOp):
            parent, field, node = node, "operand", node.operand
        elif isinstance(node, (ast.Attribute, ast.Subscript)):
            parent, field, node = node, "value", node.value
        else:
            return None, None, None


def _site(line, span, small, fresh):
    ind = line[:len(line) - len(line.lstrip())]
    text = line.strip()
    header = text.startswith("if ") and text.endswith(":")
    try:
        stmt = ast.parse(text + "\n    pass" if header else text).body[0]
    except SyntaxError:
        return None
    if isinstance(stmt, ast.If):
        if not header:
            return None
        expr = stmt.test
    elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], ast.Name):
        expr = stmt.value
    elif isinstance(stmt, (ast.Return, ast.Expr)) and stmt.value is not None:
        expr = stmt.value
    else:
        return None
    call, parent, field = _head(expr)
    if call is None or not isinstance(call.func, ast.Name) or call.func.id not in small or \
            call.keywords or not call.args or not (isinstance(call.args[0], ast.Name) and
                                                     call.args[0].id == "G"):
        return None
    params, body, pays, return_span = small[call.func.id]
    args = call.args[1:]
    if len(args) != len(params) or any(isinstance(a, ast.Starred) for a in args):
        return None
    out = []
    for k, a in enumerate(args):  # worked out first, in order, as the call would
        if not isinstance(a, (ast.Name, ast.Constant)):
            temp = fresh("a")
            out.append((f"{ind}{temp} = {ast.unparse(a)}", span))
            args[k] = ast.Name(temp, ast.Load())
    bound = {t.id for n in ast.walk(body) if isinstance(n, ast.comprehension)
             for t in ast.walk(n.target) if isinstance(t, ast.Name)}
    if bound & {a.id for a in args if isinstance(a, ast.Name)}:
        return None  # an argument would be read as the comprehension's own name
    value = substituted(body, dict(zip(params, args)))
    result = fresh("i")
    for pay, pay_span in pays:
        out += [(f"{ind}{pay}", pay_span), (f"{ind}if G.fuel < 0: G.out_of_steps()", pay_span)]
    work = f"{result} = {ast.unparse(value)}"
    loops = unrolled(work, fresh)  # a fold, now a statement of its own
    out += [(f"{ind}{'    ' * i}{text}", return_span) for i, text in loops or [(0, work)]]
    replacement = ast.Name(result, ast.Load())
    if parent is None:
        if isinstance(stmt, ast.If):
            stmt.test = replacement
        else:
            stmt.value = replacement
    elif isinstance(parent, list):
        parent[field] = replacement
    else:
        setattr(parent, field, replacement)
    if isinstance(stmt, ast.If):
        rest = f"if {ast.unparse(stmt.test)}:"
    else:
        rest = ast.unparse(stmt)
    out.append((ind + rest, span))
    return out
