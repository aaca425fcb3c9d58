"""What `rulebook lint` finds in one loaded ruleset: static checks on the
rule texts' syntax trees and the YAML, beyond what validation refuses.

Each finding is a Finding: a located diagnostic with a stable LINT- code and
the name it is about (what `lint: allow:` in game.yaml matches). Nothing here
runs a game; every check reads the Ruleset only.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ..language import ast as A
from ..support.diagnostics import Diagnostic

if TYPE_CHECKING:
    from ..load.ruleset import Ruleset

# Stable codes and what they mean; rules/README.md lists the same table.
LINT_CODES = {
    "LINT-UNUSED-COMPONENT": "components that can never come into play",
    "LINT-UNUSED-TABLE": "a table no rule reads",
    "LINT-UNUSED-VARIABLE": "a variable no rule reads (never used, or only set)",
    "LINT-UNUSED-OPTION": "an option nothing reads: no rule, overlay or seat list",
    "LINT-UNUSED-PHASE": "a phase the rounds never play",
    "LINT-UNUSED-FUNCTION": "a function no rule calls",
    "LINT-UNUSED-ZONE": "a zone no rule names and no component starts in",
    "LINT-UNUSED-PIECE": "a piece kind no rule places, moves or counts",
    "LINT-NEVER-FIRES": "a handler or ability whose event or window nothing starts",
    "LINT-DEAD-CODE": "statements after return, break, continue, win or end game",
    "LINT-CONSTANT-CONDITION": "a condition that is always true or always false",
    "LINT-ONE-OPTION": "a decision that always has exactly one option",
    "LINT-NO-SOURCE": "a draw, roll or shuffle of a zone that nothing ever fills",
    "LINT-SHADOWS-NOTHING": "a layer's table or override that changes nothing",
    "LINT-DID-YOU-MEAN": "a name that matches nothing but is close to a known one",
    "LINT-NO-EFFECT": "an expression written as a statement, which does nothing",
    "LINT-NO-DESCRIPTION": "a construct the generated rules reference cannot describe",
    "LINT-ALLOW-STALE": "a `lint: allow:` entry that matches no finding",
}

# codes about something defined but never used: reported only when no layer
# (variant, overlay) of the ruleset uses it
UNUSED = {c for c in LINT_CODES if c.startswith("LINT-UNUSED")} | {"LINT-NEVER-FIRES",
                                                                    "LINT-NO-SOURCE"}


@dataclass
class Finding(Diagnostic):
    name: str = ""  # what the finding is about (`lint: allow:` matches it)
    allowed: str = ""  # the reason given in game.yaml, when it is accepted


def finding(path: str | Path, line: int, col: int, code: str, name: str, message: str,
            hint: str = "") -> Finding:
    return Finding(str(path), line, col, code, message, severity="warning", hint=hint,
                   name=name)


def at(node: A.Node) -> tuple[str, int, int]:
    s = node.span
    return s.path, s.line, s.col


# ------------------------------------------------------------------ walking
def children(node: A.Node) -> Iterator[A.Node]:
    """Every node directly inside `node` (lists, (cond, body) pairs, fors)."""
    for f in fields(node):
        if f.name == "span":
            continue
        yield from _nodes(getattr(node, f.name))


def _nodes(v: Any) -> Iterator[A.Node]:
    if isinstance(v, A.Node):
        yield v
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from _nodes(x)


def walk(node: A.Node) -> Iterator[A.Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(children(n))))


def blocks(node: A.Node) -> Iterator[list]:
    """Every statement list (block) inside `node`."""
    for n in walk(node):
        for f in fields(n):
            v = getattr(n, f.name)
            if f.name == "branches":
                for _, body in v:
                    yield body
            elif isinstance(v, list) and v and all(isinstance(x, A.Node) for x in v) and \
                    f.name in ("body", "orelse", "setup", "finish", "summary", "default",
                               "after", "items"):
                yield v


def rule_items(rs: Ruleset) -> Iterator[tuple[str | None, A.Node]]:
    """(owner component id or None, top-level item) of every rule text."""
    for m in rs.modules:
        for it in m.items:
            yield None, it
    for c in rs.components:
        if c.rules is not None:
            for it in c.rules.items:
                yield c.id, it


# ------------------------------------------------------------------ usage
class Usage:
    """Who names what, across every rule text of one loaded ruleset."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.names: set = set()  # bare names read
        self.attrs: set = set()  # attribute names read (any object)
        self.set_attrs: set = set()  # attribute names only written
        self.set_names: set = set()
        self.options: set = set()
        self.tables: set = set()
        self.calls: set = set()
        self.literal_args: set = set()  # (builtin, literal text)
        self.dynamic: set = set()  # builtins called with a computed argument
        self.triggered: dict = {}  # event -> first node
        self.handled: dict = {}
        self.opened: set = set()
        self.silent: set = set()  # events some trigger gives a default block
        self.pieces: set = set()
        self.filled: set = set()  # zone keys something moves into (or may)
        self.taken: list = []  # (node, zone keys, what) drawn, rolled or shuffled
        for owner, it in rule_items(rs):
            if isinstance(it, A.On):
                self.handled.setdefault(it.event, it)
            for n in walk(it):
                self.note(n)

    def zone_keys(self, e: A.Node) -> set:
        """The zones an expression names directly: a game zone, or a side or
        space zone by its attribute name."""
        zones = self.rs.zones
        if isinstance(e, A.Name) and ("game", e.id) in zones:
            return {("game", e.id)}
        if isinstance(e, A.Attr):
            return {(s, e.name) for s in ("side", "space") if (s, e.name) in zones}
        return set()

    def note(self, n: A.Node) -> None:
        if isinstance(n, A.Name):
            self.names.add(n.id)
        elif isinstance(n, A.Attr):
            if isinstance(n.obj, A.Name) and n.obj.id == "options":
                self.options.add(n.name)
            elif isinstance(n.obj, A.Name) and n.obj.id == "tables":
                self.tables.add(n.name)
            self.attrs.add(n.name)
        elif isinstance(n, A.Call) and isinstance(n.func, A.Name):
            self.calls.add(n.func.id)
            if n.args and isinstance(n.args[0], A.Str):
                text = _literal(n.args[0])
                if text is not None:
                    self.literal_args.add((n.func.id, text))
                else:
                    self.dynamic.add(n.func.id)
            elif n.args:
                self.dynamic.add(n.func.id)
            # a zone handed to a function, or kept in a name, may be filled there
            for a in n.args:
                self.filled |= self.zone_keys(a)
        elif isinstance(n, (A.Let, A.Assign)):
            self.filled |= self.zone_keys(n.value)
            if isinstance(n, A.Assign) and n.op == "=":
                t = n.target
                if isinstance(t, A.Attr):
                    self.set_attrs.add(t.name)
                elif isinstance(t, A.Name):
                    self.set_names.add(t.id)
        elif isinstance(n, (A.ListLit, A.Ternary, A.Return)):
            for x in children(n):
                self.filled |= self.zone_keys(x)
        elif isinstance(n, A.Trigger):
            if n.default:  # a trigger with a default block always does something
                self.silent.add(n.event)
            self.triggered.setdefault(n.event, n)
        elif isinstance(n, A.Collect):
            self.triggered.setdefault(n.event, n)
        elif isinstance(n, A.Window):
            self.opened.add(n.name)
        if isinstance(n, (A.Place, A.Remove, A.Transfer, A.Give)):
            self.pieces.add(n.piece)
        if isinstance(n, A.Move):
            self.filled |= self.zone_keys(n.dest)
        elif isinstance(n, A.Draw):
            self.filled |= self.zone_keys(n.dst)
            self.taken.append((n, self.zone_keys(n.src), "draws from"))
        elif isinstance(n, A.Roll):
            self.taken.append((n, self.zone_keys(n.what), "rolls"))
        elif isinstance(n, A.Shuffle):
            self.taken.append((n, self.zone_keys(n.zone), "shuffles"))
        elif isinstance(n, A.Cycle):  # every zone of the list both gives and takes
            self.filled |= self.zone_keys(n.zones)


def _literal(s) -> str | None:
    if isinstance(s, A.Str) and all(isinstance(p, str) for p in s.parts):
        return "".join(s.parts)
    return None


def _reads(rs) -> tuple[set, set]:
    """(attribute names, bare names) read somewhere: everywhere they appear
    but as the target of a plain `=`."""
    attrs, names = set(), set()
    for _, it in rule_items(rs):
        targets = set()
        for n in walk(it):
            if isinstance(n, A.Assign) and n.op == "=":
                targets.add(id(n.target))
        for n in walk(it):
            if id(n) in targets:
                continue
            if isinstance(n, A.Attr):
                attrs.add(n.name)
            elif isinstance(n, A.Name):
                names.add(n.id)
    return attrs, names


# ------------------------------------------------------------------ folding
class _Unknown(Exception):
    pass


def fold(e: A.Node, rs: Ruleset) -> Any:
    """The value of an expression that is the same in every game, or raise
    _Unknown: literals, options with one choice, tables and operators on
    them."""
    if isinstance(e, A.Num):
        return e.value
    if isinstance(e, A.Const):
        return e.value
    if isinstance(e, A.Str):
        text = _literal(e)
        if text is None:
            raise _Unknown
        return text
    if isinstance(e, A.ListLit):
        return [fold(x, rs) for x in e.items]
    if isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.id == "options":
        opt = rs.options.get(e.name)
        if opt and len(opt["choices"]) == 1:
            return opt["choices"][0]
        raise _Unknown
    if isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.id == "tables":
        if e.name in rs.tables:
            return rs.tables[e.name]
        raise _Unknown
    if isinstance(e, (A.Attr, A.Index)) and _table_path(e):
        base = fold(e.obj, rs)
        key = e.name if isinstance(e, A.Attr) else fold(e.index, rs)
        try:
            if isinstance(base, dict) and key in base:
                return base[key]
            if isinstance(base, list) and isinstance(key, int) and not isinstance(key, bool) \
                    and -len(base) <= key < len(base):
                return base[key]
        except TypeError:
            pass
        raise _Unknown
    if isinstance(e, A.Not):
        return not _truth(fold(e.operand, rs))
    if isinstance(e, A.Neg):
        v = fold(e.operand, rs)
        if isinstance(v, int) and not isinstance(v, bool):
            return -v
        raise _Unknown
    if isinstance(e, A.BoolOp):
        try:
            left = _truth(fold(e.left, rs))
        except _Unknown:
            right = _truth(fold(e.right, rs))  # `x and false` is still false
            if (e.op == "and" and not right) or (e.op == "or" and right):
                return right
            raise
        if e.op == "and":
            return _truth(fold(e.right, rs)) if left else False
        return True if left else _truth(fold(e.right, rs))
    if isinstance(e, A.Compare):
        if e.op in ("==", "!=") and _same(e.left, e.right):
            return e.op == "=="
        a, b = fold(e.left, rs), fold(e.right, rs)
        try:
            return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b,
                    "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b,
                    "in": lambda: a in b, "notin": lambda: a not in b}[e.op]()
        except (TypeError, KeyError):
            raise _Unknown from None
    if isinstance(e, A.BinOp):
        a, b = fold(e.left, rs), fold(e.right, rs)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b)):
            raise _Unknown
        if e.op == "+":
            return a + b
        if e.op == "-":
            return a - b
        if e.op == "*":
            return a * b
        raise _Unknown
    raise _Unknown


def _table_path(e) -> bool:
    while isinstance(e, (A.Attr, A.Index)):
        e = e.obj
    return isinstance(e, A.Name) and e.id == "tables"


def _truth(v) -> bool:
    if isinstance(v, bool):
        return v
    if v is None:
        return False
    raise _Unknown


def _pure(e) -> bool:
    """Does evaluating e twice surely give the same value (no call, no roll)?"""
    return all(not isinstance(n, (A.Call, A.Collect)) for n in walk(e))


def _same(a, b) -> bool:
    return _pure(a) and a == b


def constant(e: A.Node, rs: Ruleset) -> tuple[bool, Any]:
    """(True, value) when e is the same in every game, else (False, None)."""
    try:
        return True, fold(e, rs)
    except (_Unknown, RecursionError):
        return False, None


# ------------------------------------------------------------------ checks
def scenario_words(rs: Ruleset) -> set[str]:
    """Every name written in the code of the ruleset's scenarios (arrange,
    expect, then ...): a function or variable only a scenario uses is used."""
    import re

    from ..load.yamlio import load_yaml

    words: set = set()
    root = rs.path
    files = sorted(root.glob("scenarios/*.yaml")) + sorted(root.glob("variants/*/scenarios/*.yaml"))
    for f in files[:500]:
        doc = load_yaml(f, [])
        if not isinstance(doc, dict):
            continue
        for key in ("arrange", "expect", "then", "setup", "stop"):
            words |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", _text(doc.get(key))))
    return words


def _text(v) -> str:
    if isinstance(v, dict):
        return " ".join(f"{k} {_text(x)}" for k, x in v.items())
    if isinstance(v, list):
        return " ".join(_text(x) for x in v)
    return "" if v is None else str(v)


def check(rs: Ruleset) -> list[Finding]:
    out: list[Finding] = []
    use = Usage(rs)
    words = scenario_words(rs)
    use.names |= words
    use.attrs |= words
    use.calls |= words
    use.tables |= words
    out += _unused(rs, use)
    out += _dead_code(rs)
    out += _conditions(rs)
    out += _one_option(rs)
    out += _no_source(rs, use)
    out += _shadows(rs)
    out += _near_names(rs, use)
    return out


def _where(rs: Ruleset, key: Any) -> tuple[str, int, int]:
    w = rs.where.get(key)
    return w if isinstance(w, tuple) and len(w) == 3 else (str(rs.path), 1, 1)


def _unused(rs, use) -> list[Finding]:
    out = []
    read_attrs, read_names = _reads(rs)
    read_attrs |= use.calls  # (scenario words, see check)
    read_names |= use.calls
    for name in rs.tables:
        if name not in use.tables:
            out.append(finding(*_where(rs, ("table", name)), "LINT-UNUSED-TABLE", name,
                               f"no rule reads table {name!r}",
                               hint=f"read it as tables.{name}, or delete it"))
    for name, opt in rs.options.items():
        if name in use.options or name in rs.overlay_map or opt.get("seats"):
            continue
        where: tuple[str, int, int] = opt["at"]
        out.append(finding(*where, "LINT-UNUSED-OPTION", name,
                           f"option {name!r} changes nothing: no rule reads options.{name}",
                           hint="an option takes effect through rules, overlays or seats"))
    for scope, table in (("game", rs.game_vars), ("side", rs.side_vars)):
        reads = read_names if scope == "game" else read_attrs
        for name in table:
            if name == rs.score_var:
                continue
            seen = name in (use.names if scope == "game" else use.attrs)
            if name in reads:
                continue
            msg = (f"{scope} variable {name!r} is set but never read" if seen else
                   f"{scope} variable {name!r} is never used")
            out.append(finding(*_where(rs, ("var", scope, name)), "LINT-UNUSED-VARIABLE",
                               name, msg, hint="a value nobody reads changes nothing"))
    starts = {("game", k.zone) for k in rs.kinds.values() if k.zone}
    for (scope, name), z in rs.zones.items():
        named = name in (use.names if scope == "game" else use.attrs)
        if not named and (scope, name) not in starts:
            out.append(finding(*_where(rs, ("zone", scope, name)), "LINT-UNUSED-ZONE", name,
                               f"{scope} zone {name!r} is never used: no rule names it and "
                               "no component starts there"))
    for name in rs.pieces:
        if name not in use.pieces and name not in use.attrs and \
                name not in {n for n, _ in rs.money}:
            out.append(finding(*_where(rs, ("piece", name)), "LINT-UNUSED-PIECE", name,
                               f"no rule places, moves or counts piece {name!r}"))
    called = use.calls | ({rs.score_fn} if rs.score_fn else set())  # (game.yaml's score)
    for _, it in rule_items(rs):
        if isinstance(it, A.Func) and not it.override and it.name not in called:
            out.append(finding(*at(it), "LINT-UNUSED-FUNCTION", it.name,
                               f"no rule calls function {it.name!r}"))
    # components that start nowhere and that no rule can reach by id or kind
    option_kinds = {o["from"] for o in rs.options.values() if o.get("from")}
    reach_any = "component" in use.dynamic
    kinds_named = {t for f, t in use.literal_args if f == "components"} | option_kinds
    ids_named = {t for f, t in use.literal_args if f == "component"}
    by_kind: dict = {}
    for c in rs.components:
        by_kind.setdefault(c.kind, []).append(c)
    for kind, comps in by_kind.items():
        k = rs.kinds.get(kind)
        if k is None or k.zone or kind in kinds_named or reach_any or "components" in use.dynamic:
            continue
        lost = [c for c in comps if c.id not in ids_named]
        if lost:
            out.append(finding(k.path, k.line, 1, "LINT-UNUSED-COMPONENT", kind,
                               f"{len(lost)} {kind} component(s) start nowhere and no rule "
                               f"reaches them (first: {lost[0].id})",
                               hint="give the kind a starting zone, or reach them with "
                               f"components(\"{kind}\") or component(id)"))
    return out


_ENDS = (A.Return, A.Break, A.Continue, A.Win, A.EndGame)


def _ends(stmt) -> bool:
    if isinstance(stmt, _ENDS):
        return True
    if isinstance(stmt, A.If) and stmt.orelse:
        return all(body and _ends(body[-1]) for _, body in stmt.branches) and _ends(
            stmt.orelse[-1])
    return False


def _dead_code(rs) -> list[Finding]:
    out = []
    for _, it in rule_items(rs):
        for body in blocks(it):
            for i, stmt in enumerate(body[:-1]):
                if _ends(stmt):
                    nxt = body[i + 1]
                    out.append(finding(*at(nxt), "LINT-DEAD-CODE", f"line {nxt.span.line}",
                                       "this can never run: the statement before it always "
                                       "leaves the block",
                                       hint="delete it, or move it before that statement"))
                    break
    return out


def _conds(it):
    """(condition node, what it is) of every condition in a rule item."""
    for n in walk(it):
        if isinstance(n, A.If):
            for cond, _ in n.branches:
                yield cond, "this condition"
        elif isinstance(n, A.While):
            if not (isinstance(n.cond, A.Const) and n.cond.value is True):  # `while true`
                yield n.cond, "this loop's condition"
        elif isinstance(n, (A.For, A.Comprehension, A.SomeOption)) and n.cond is not None:
            yield n.cond, "this 'where' filter"
        elif isinstance(n, A.Option) and n.cond is not None:
            yield n.cond, "this option's condition"
        elif isinstance(n, (A.On, A.Ability)) and n.cond is not None:
            yield n.cond, "this 'when' condition"
        elif isinstance(n, A.Ternary):
            yield n.cond, "this condition"
        elif isinstance(n, A.Game) and n.rounds_kind == "until" and n.rounds_expr is not None:
            yield n.rounds_expr, "the rounds' 'until' condition"


def _conditions(rs) -> list[Finding]:
    out = []
    for _, it in rule_items(rs):
        for cond, what in _conds(it):
            ok, v = constant(cond, rs)
            if ok and isinstance(v, bool):
                out.append(finding(*at(cond), "LINT-CONSTANT-CONDITION",
                                   f"line {cond.span.line}",
                                   f"{what} is always {'true' if v else 'false'}",
                                   hint="it reads only fixed values (literals, tables, "
                                   "options with one choice)"))
    return out


def _count(opt, rs):
    """How many options an `option` line makes, when the same in every game."""
    if opt.cond is not None:
        ok, v = constant(opt.cond, rs)
        if not ok:
            return None
        if not v:
            return 0
    n = 1
    for _, expr in opt.fors:
        ok, v = constant(expr, rs)
        if not ok or not isinstance(v, list):
            return None
        n *= len(v)
    return n


def _one_option(rs) -> list[Finding]:
    out = []
    for _, it in rule_items(rs):
        for n in walk(it):
            if not isinstance(n, A.Choose) or n.may:
                continue
            if any(isinstance(o, (A.SomeOption, A.NumberOption)) for o in n.options):
                continue
            counts = [_count(o, rs) for o in n.options if isinstance(o, A.Option)]
            if counts and None not in counts and sum(counts) == 1:
                name = n.name or f"line {n.span.line}"
                out.append(finding(*at(n), "LINT-ONE-OPTION", name,
                                   "this decision always has exactly one option, so nobody "
                                   "ever chooses", hint="do it without a 'choose', or add "
                                   "the other options"))
    return out


def _no_source(rs, use) -> list[Finding]:
    out = []
    starts = {("game", k.zone) for k in rs.kinds.values() if k.zone}
    for node, keys, verb in use.taken:
        if keys and not (keys & (use.filled | starts)):
            scope, name = sorted(keys)[0]
            what = "dice" if verb == "rolls" else "components"
            out.append(finding(*at(node), "LINT-NO-SOURCE", name,
                               f"this {verb} {scope} zone {name!r}, but no {what} start "
                               "there and no rule moves or draws any into it",
                               hint="give a kind `zone: " + name + "`, or move components "
                               "there first" if scope == "game" else
                               "move or draw components into it first"))
    return out


def _shadows(rs) -> list[Finding]:
    out = []
    for path, line, col, name in rs.where.get(("same-table",), []):
        out.append(finding(path, line, col, "LINT-SHADOWS-NOTHING", name,
                           f"this layer's table {name!r} is the same as the one it replaces",
                           hint="delete it from the layer"))
    chains: dict = {}
    for _, it in rule_items(rs):
        if isinstance(it, (A.Func, A.Phase)):
            chains.setdefault((type(it).__name__, it.name), []).append(it)
        elif isinstance(it, A.GamePart):
            chains.setdefault(("part", it.part), []).append(it)
    for versions in chains.values():
        for before, after in zip(versions, versions[1:]):
            if not getattr(after, "override", True):
                continue
            passthrough = len(after.body) == 1 and isinstance(after.body[0], A.ExprStmt) and \
                isinstance(after.body[0].expr, A.Call) and \
                isinstance(after.body[0].expr.func, A.Name) and \
                after.body[0].expr.func.id == "original"
            if passthrough or after.body == before.body:
                label: str = getattr(after, "name", "") or getattr(after, "part", "")
                out.append(finding(*at(after), "LINT-SHADOWS-NOTHING", label,
                                   f"this override of {label!r} does what it replaces",
                                   hint="delete it from the layer"))
    return out


def _known_texts(rs) -> set:
    """Every text the ruleset itself defines or the rules write outside a
    comparison (a state set by a rule, `p.mood = "calm"`, is known)."""
    compared = set()
    known = set()
    for _, it in rule_items(rs):
        for n in walk(it):
            if isinstance(n, A.Compare):
                compared |= {id(x) for x in _literals(n.left) + _literals(n.right)}
        for n in walk(it):
            if isinstance(n, A.Str) and id(n) not in compared:
                text = _literal(n)
                if text is not None:
                    known.add(text)
    known |= {sid for sid, _ in rs.seats + rs.sides} | {sid for sid, _ in rs.spaces}
    known |= {c.id for c in rs.components} | set(rs.kinds) | {n for _, n in rs.zones}
    known |= {c.id.rsplit("-", 1)[0] for c in rs.components if c.copies}
    for c in rs.components:
        known |= _strings(c.values)
    known |= _strings(rs.tables) | _strings([v for _, v in rs.spaces])
    for k in rs.kinds.values():
        for a in k.attributes.values():
            known |= {str(v) for v in (a.values or [])}
    for o in rs.options.values():
        known |= {str(v) for v in o["choices"]}
    known |= set(rs.tracks) | set(rs.links)
    return known


def _near_names(rs, use) -> list[Finding]:
    from ..language.texts import fixed_texts

    out = []
    known = _known_texts(rs)
    fixed = fixed_texts(rs)
    for _, it in rule_items(rs):
        for n in walk(it):
            if not isinstance(n, A.Compare) or n.op not in ("==", "!=", "in", "notin"):
                continue
            # a fixed field compared with a text: validate judges it (REF-TEXT)
            if any(isinstance(x, A.Attr) and x.name in fixed for x in (n.left, n.right)):
                continue
            # `"x:" in label` tests a piece of text: only lists are looked into
            sides = [n.right, n.left] if n.op in ("==", "!=") else [n.right]
            for lit in [x for s in sides for x in _literals(s)
                        if n.op in ("==", "!=") or isinstance(s, A.ListLit)]:
                text = _literal(lit)
                if text is None or text in known or not text:
                    continue
                near = difflib.get_close_matches(text, sorted(known), n=1, cutoff=0.8)
                if near:
                    out.append(finding(*at(lit), "LINT-DID-YOU-MEAN", text,
                                       f"{text!r} is no id, kind or value of this ruleset",
                                       hint=f"did you mean {near[0]!r}?"))
    handled = set(use.handled)
    for event, node in use.triggered.items():
        if event in handled:
            continue
        near = difflib.get_close_matches(event, sorted(handled), n=1, cutoff=0.8)
        if near:
            out.append(finding(*at(node), "LINT-DID-YOU-MEAN", event,
                               f"no handler listens to {event!r}",
                               hint=f"did you mean {near[0]!r}, which has handlers?"))
        elif isinstance(node, A.Trigger) and not node.default and event not in use.silent:
            out.append(finding(*at(node), "LINT-NEVER-FIRES", event,
                               f"no handler listens to {event!r} and the trigger has no "
                               "default block, so it does nothing",
                               hint="write the handler, or delete the trigger"))
    return out


def _strings(v) -> set:
    """Every text inside a value: mapping keys, list items, nested."""
    if isinstance(v, str):
        return {v}
    if isinstance(v, dict):
        return {str(k) for k in v} | set().union(*(_strings(x) for x in v.values()))
    if isinstance(v, (list, tuple)):
        return set().union(*(_strings(x) for x in v)) if v else set()
    return set()


def _literals(e) -> list:
    if isinstance(e, A.Str):
        return [e]
    if isinstance(e, A.ListLit):
        return [x for x in e.items if isinstance(x, A.Str)]
    return []
