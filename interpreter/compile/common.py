"""What the compiler's parts share: names and scopes (Var, Scope), the
compiled program (Compiled), the fields every value has, and helpers
that walk the syntax tree or the generated lines."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..language import ast as A

# the characters of every id (schemas: ^[a-z0-9][a-z0-9_-]*$) and of every
# number a label shows
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")


ATTR_TYPES = {"int": "int", "str": "str", "bool": "bool", "space": "space",
              "spaces": "list:space", "enum": "str", "any": "any"}


# Fields the engine gives every side, space and component (never u_-prefixed).
# fields of a component that tell nothing of which one it is: what it is and
# where it lies are seen by all even when the component is hidden
PUBLIC_FIELDS = ("kind", "zone", "holder")


BUILTIN_FIELDS = {"side": {"id", "name", "index", "is_player", "bot"},
                  "space": {"id", "index"},
                  "comp": {"id", "kind", "index", "zone", "holder", "host", "attached"}}


# Every name that is a built-in field of some kind of value (zones and piece
# counts included): reading one from a value of unknown type needs the game's
# allow-list (G.attr), any other name is a declared u_ attribute.
ANY_FIELDS = set().union(*BUILTIN_FIELDS.values(), {"size", "top", "items", "owner", "total"})


@dataclass
class Var:
    code: str
    type: str
    assignable: bool = True
    param: tuple | None = None  # its key in Compiler.sites, when its type is inferred
    origin: A.Node | None = None  # fast: the value of a `let` the function never binds again
    is_param: bool = False  # a function's, handler's or ability's parameter
    # a `let` bound once, of a value read from the fields of components that
    # are never bound again either (`let r = c.rank`): their code and the
    # field, so that a text showing it is as secret as those fields (Game.sourced)
    reads: tuple = ()
    field: str | None = None


@dataclass
class Scope:
    names: dict = field(default_factory=dict)
    parent: "Scope | None" = None

    def lookup(self, name: str) -> Var | None:
        s: Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def child(self) -> Scope:
        return Scope({}, self)


@dataclass
class Compiled:
    source: str
    linemap: list  # generated line (1-based index) -> Span
    phases: list  # [(name, function name)]
    setup: str | None
    finish: str | None
    rounds_kind: str
    rounds_fn: str | None
    handlers: list  # (event, priority, order, owner id|None, instead, function name)
    abilities: list  # (window, label, owner id|None, cond fn, body fn)
    decisions: dict  # decision name -> span of first use
    given: set = field(default_factory=set)  # piece kinds moved between sides by `give`
    # fast back end: piece kind -> where rules ever add it ("space", "comp" for
    # any component, "comp:K" for those of kind K); None (reference): anywhere.
    # Elsewhere its count stays 0 for the whole game.
    stocked: dict | None = None
    backend: str = "reference"
    # where each rule starts: (path, line, how messages name it), sorted
    places: list | None = None
    summary: str | None = None  # the game's `summary` block, run when logging
    # what a scenario's own functions are checked against when they are
    # linked onto this program (compile_extra): the events and windows the
    # rules use, (arity, span) each; the fast back end's types (infer_params)
    # the code was written for ({}: untyped)
    events: dict | None = None
    windows: dict | None = None
    types: dict | None = None
    # a linked program: where the scenario's part of `source` starts (in
    # characters; 0: not linked), compiled apart from the shared part
    linked_at: int = 0
    # each phase's `when` function (None: every round), aligned with phases;
    # []: every phase plays every round
    phase_when: list = field(default_factory=list)
    score_fn: str | None = None  # `score:` naming a function: its compiled name


def _paid_for(t: str) -> str:
    """paid(), under the name that tells unroll.py what it walks."""
    return "paidl" if t.startswith("list:") else "paidz" if t == "zone" else "paid"


def iter_code(code: str, t: str) -> str:
    """Loop over a value: lists directly (rule lists never change in place),
    zones over a snapshot (rules may move items while looping)."""
    if t.startswith("list:"):
        return code
    if t == "zone":
        return f"{code}.items[:]"
    return f"it({code})"


# a zone reached by fields alone (the game's, or a variable's): reading it
# twice changes nothing
_ZONE_PATH = re.compile(r"^(?:G\.z_\w+|l_\w+\.u_\w+)$")


# built-ins that call their function (argument 2) on each item of their list
_WALKERS = {"count", "sum", "max_by", "min_by", "most", "fewest", "filter", "map", "sort_by",
            "first", "any", "every", "distinct", "group_by"}


# The built-ins walk_inline writes as one loop (the lambda's body in place).
_WALKS = {
    "sum": "num(sum({body} for {var} in {xs}))",
    "count": "len([0 for {var} in {xs} if {body}])",
    "any": "any({body} for {var} in {xs})",
    "every": "all({body} for {var} in {xs})",
    "first": "next(({var} for {var} in {xs} if {body}), None)",
    "distinct": "[{var} for seen_ in [set()] for {var} in {xs} for key_ in [{body}] "
                "if key_ not in seen_ and not seen_.add(key_)]",
    # each group's list is taken when it is made, and grows as its items come
    "group_by": "[g_ for groups_ in [{{}}] for {var} in {xs} for key_ in [{body}] "
                "for old_ in [groups_.get(key_)] if old_ is None or old_.append({var}) "
                "for g_ in [groups_.setdefault(key_, [{var}])]]",
}


# Expressions that only compute, and at no cost in steps: names, fields,
# literals and operators (a call may move, draw or ask, and every built-in
# that walks a list pays steps for it, which the reference would count).
_PURE_NODES = (A.Num, A.Str, A.Const, A.Name, A.Attr, A.Index, A.ListLit, A.BinOp, A.Compare,
               A.BoolOp, A.Not, A.Neg, A.Ternary)


def _pure(node) -> bool:
    return all(isinstance(n, _PURE_NODES) for n in _walk(node))


def _holder_read(line):
    """`x.holder` of a variable or temporary written as its zone's holder,
    outside texts (a rule's text is data, whatever it says)."""
    import io
    import tokenize
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(line + "\n").readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return line
    for i in range(len(toks) - 3, -1, -1):  # from the end: earlier columns stay put
        t = toks[i]
        if t.type == tokenize.NAME and _HOLDER.fullmatch(t.string) and \
                toks[i + 1].string == "." and toks[i + 2].string == "holder" and \
                (i == 0 or toks[i - 1].string != ".") and t.start[0] == toks[i + 2].end[0] == 1:
            v = t.string
            line = line[:t.start[1]] + f"({v}.zone.holder if {v}.zone is not None else None)" + \
                line[toks[i + 2].end[1]:]
    return line


_HOLDER = re.compile(r"(?:l|_i|_v|_a)\w*")


_CHARGE = re.compile(r"^( +)G\.fuel -= (.+)$")


def _merged_charges(lines, spans):
    """fast: steps paid twice in a row (a function's own step, then that of
    one written into it or of the list its first loop walks) paid at once:
    the same total before anything else happens."""
    out: list[str] = []
    where: list = []
    for line, span in zip(lines, spans):
        now = _CHARGE.match(line)
        last = _CHARGE.match(out[-2]) if now and len(out) >= 2 else None
        if now and last and last.group(1) == now.group(1) and out[-1] == now.group(1) + _CHECK:
            a, b = last.group(2), now.group(2)
            total = str(int(a) + int(b)) if a.isdigit() and b.isdigit() else f"{a} + ({b})"
            out[-2] = f"{now.group(1)}G.fuel -= {total}"
            out.pop()  # the first check goes; the second, next, checks both
            where.pop()
            continue
        out.append(line)
        where.append(span)
    return out, where


_CHECK = "if G.fuel < 0: G.out_of_steps()"


def _rebound(body) -> set:
    """Names a function body binds anew (let, assignment, loops, options,
    lambdas, comprehensions): a parameter among them keeps no inferred type."""
    return set(_bindings(body))


def _bindings(body) -> dict:
    """How many times a function body binds each name (see _rebound)."""
    out: dict = {}
    for n in _walk(body):
        if isinstance(n, A.Let):
            names = [n.name]
        elif isinstance(n, A.Assign) and isinstance(n.target, A.Name):
            names = [n.target.id]
        elif isinstance(n, (A.For, A.Comprehension)):
            names = [n.var]
        elif isinstance(n, A.Lambda):
            names = [n.param]
        elif isinstance(n, A.Option):
            names = [var for var, _ in n.fors]
        elif isinstance(n, A.SomeOption):
            names = [n.picked, n.var]
        elif isinstance(n, A.NumberOption):
            names = [n.var]
        elif isinstance(n, A.Choose) and n.each:
            names = [n.each]
        else:
            continue
        for name in names:
            out[name] = out.get(name, 0) + 1
    return out


def _changes(body, params) -> bool:
    """Whether a function's body changes the game itself: an effect, a
    collect (its handlers may), or setting a name that is neither its parameter nor its own `let`/`for`."""
    local = set(params) | {n.name for n in _walk(body) if isinstance(n, A.Let)} | \
        {n.var for n in _walk(body) if isinstance(n, A.For)}
    for n in _walk(body):
        if isinstance(n, (*_EFFECTS, A.Collect)) and not isinstance(n, A.Return):
            return True  # (a collect runs handlers, which may change it)
        if isinstance(n, A.Assign) and not (isinstance(n.target, A.Name) and
                                            n.target.id in local):
            return True
    return False


# built-ins that draw from the game's seeded generator (a log text may not call them)
_DRAWING_BUILTINS = frozenset({"random", "shuffled"})


# statements that change the game (a `summary` may not hold them)
_EFFECTS = (A.Move, A.Attach, A.Detach, A.Place, A.Remove, A.Transfer, A.Roll, A.Shuffle, A.Cycle, A.Draw, A.Give,
            A.Pay, A.Choose, A.Trigger, A.Reveal, A.Window, A.Turn, A.Win, A.EndGame, A.Return)


def _walk(node):
    """Every AST node inside `node` (texts' inserted expressions included)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Node):
            yield n
            for name in getattr(n, "__dataclass_fields__", {}):
                if name != "span":
                    stack.append(getattr(n, name))
        elif isinstance(n, (list, tuple)):
            stack.extend(n)


def _tname(t: str) -> str:
    if t.startswith("list:"):
        return f"a list of {_tname(t[5:])}"
    if t.startswith("comp:"):
        return f"a component ({t[5:]})"
    if t.startswith("table"):
        return "a table"
    return {"int": "a number", "bool": "true/false", "str": "text", "none": "none",
            "side": "a side", "space": "a space", "zone": "a zone", "comp": "a component",
            "row": "a piece count", "options": "the options", "func": "a function",
            "any": "any value"}.get(t, t)
