"""fast back end: step checks put off past code that does nothing observable.

Generated code pays each step as `G.fuel -= n` and checks at once whether
the budget's chunk ran out (`if G.fuel < 0: G.out_of_steps()`). A check can
wait while what follows only computes: reads, local names, fresh local
lists, steps paid, other checks. This pass drops

- a check followed, at its own depth and before anything observable, by
  another check, which then checks both (the same total is paid);
- the checks inside a loop with no loop inside it whose body only
  computes, with one check written after the loop instead, at the loop's
  rule position; the loop walks a list already made and its body adds at
  most a few items per turn, so memory stays bounded between checks.

Steps paid stay the same to the step, and nothing a game shows (its log,
decisions, state) happens between a payment and its check. Running out of
steps is then found a few plain lines later, at most the length of one
loop: a failure in those lines reports that it ran out of steps
(Game._failure), and the reported line may be a neighbour of the exact one.
Works on the generated lines, after every other pass that makes them.
"""
from __future__ import annotations

import ast
import re

CHECK = "if G.fuel < 0: G.out_of_steps()"
_FRESH = re.compile(r"^\s*(_\w+) = (?:\[\]|\{\})$")
_GROUP = re.compile(r"^\s*(_\w+) = (_\w+)\.(?:setdefault\(.*, \[.*\]|get\(.*)\)$")
_HEADER = re.compile(r"^\s*(if|elif|for) (.*):$")
_CALLS = {"len", "str", "num", "spend", "items", "_paid", "paidz", "list", "isinstance",
          "type", "abs"}  # pure built-ins and payments (those check themselves)
_METHODS = {"append", "setdefault", "get"}  # on the function's own fresh lists and dicts


def deferred_checks(lines: list, spans: list) -> tuple[list, list]:
    out, where = [], []
    start = 0
    for i in range(1, len(lines) + 1):
        if i == len(lines) or lines[i].startswith("def "):
            a, b = _function(lines[start:i], spans[start:i])
            out += a
            where += b
            start = i
    return out, where


def _function(lines, spans):
    fresh: set = set()
    pure = []
    for line in lines:
        m = _FRESH.match(line) or _GROUP.match(line)
        if m and (m.re is _FRESH or m.group(2) in fresh):
            fresh.add(m.group(1))
        pure.append(_pure(line, fresh))
    lines, spans, pure = _loops(lines, spans, pure)
    drop = set()
    for i, line in enumerate(lines):
        if line.strip() == CHECK and _checked_later(lines, pure, i):
            drop.add(i)
    keep = [i for i in range(len(lines)) if i not in drop]
    return [lines[i] for i in keep], [spans[i] for i in keep]


def _indent(line):
    return len(line) - len(line.lstrip(" "))


def _checked_later(lines, pure, i):
    """Is the check at i followed, at its depth, by another check before
    anything observable and before its block ends?"""
    depth = _indent(lines[i])
    for j in range(i + 1, len(lines)):
        d = _indent(lines[j])
        if d < depth or not pure[j]:
            return False
        if d == depth and lines[j].strip() == CHECK:
            return True
    return False


def _loops(lines, spans, pure):
    """Innermost loops whose bodies are pure lose their checks; one check
    follows each such loop."""
    out, where, flags = [], [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        end = i + 1
        if line.lstrip().startswith("for ") and pure[i]:
            depth = _indent(line)
            while end < len(lines) and _indent(lines[end]) > depth:
                end += 1
            body = range(i + 1, end)
            after = lines[end].strip() if end < len(lines) else ""
            if body and not after.startswith("else") and all(pure[j] for j in body) and not any(
                    lines[j].lstrip().startswith(("for ", "while ")) for j in body) and any(
                    lines[j].strip() == CHECK for j in body):
                for j in range(i, end):
                    if lines[j].strip() != CHECK:
                        out.append(lines[j])
                        where.append(spans[j])
                        flags.append(True)
                out.append(" " * depth + CHECK)
                where.append(spans[i])
                flags.append(True)
                i = end
                continue
        out.append(line)
        where.append(spans[i])
        flags.append(pure[i])
        i += 1
    return out, where, flags


def _pure(line, fresh) -> bool:
    """Does this line only compute (no call, store or jump beyond locals)?"""
    text = line.strip()
    if text == CHECK or text in ("pass", "else:"):
        return True
    m = _HEADER.match(line)
    try:
        if m:
            kind, rest = m.groups()
            if kind == "for":
                target, sep, it = rest.partition(" in ")
                return bool(sep) and _locals(ast.parse(target, mode="eval").body) and \
                    _expr(ast.parse(it, mode="eval").body, fresh)
            return _expr(ast.parse(rest, mode="eval").body, fresh)
        tree = ast.parse(text)
    except SyntaxError:
        return False
    return all(_stmt(s, fresh) for s in tree.body)


def _stmt(s, fresh) -> bool:
    if isinstance(s, ast.Pass):
        return True
    if isinstance(s, ast.Assign):
        return all(_target(t, fresh) for t in s.targets) and _expr(s.value, fresh)
    if isinstance(s, ast.AugAssign):
        fuel = isinstance(s.target, ast.Attribute) and s.target.attr == "fuel" and \
            isinstance(s.target.value, ast.Name) and s.target.value.id == "G"
        return (fuel or _locals(s.target)) and _expr(s.value, fresh)
    if isinstance(s, ast.Expr):
        return isinstance(s.value, ast.Call) and _expr(s.value, fresh)
    return False


def _locals(t) -> bool:
    if isinstance(t, ast.Name):
        return t.id.startswith(("l_", "_"))
    if isinstance(t, (ast.Tuple, ast.List)):
        return all(_locals(e) for e in t.elts)
    return False


def _target(t, fresh) -> bool:
    if isinstance(t, ast.Subscript):
        return isinstance(t.value, ast.Name) and t.value.id in fresh and _expr(t.slice, fresh)
    return _locals(t)


def _expr(e, fresh) -> bool:
    for n in ast.walk(e):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Name) and f.id in _CALLS:
                continue
            if isinstance(f, ast.Attribute) and f.attr in _METHODS and \
                    isinstance(f.value, ast.Name) and f.value.id in fresh:
                continue
            return False
        if isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await,
                          ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
            return False
        if isinstance(n, ast.Name) and n.id.startswith("__"):
            return False
    return True
