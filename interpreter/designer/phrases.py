"""The rule language's expressions in English, for `rulebook docs`: each
expression node becomes a noun phrase ("the number of items in p's hand").
The words for a ruleset's own names come from a `Vocab`; without one,
names read as written, with spaces for underscores. Statements, blocks and
whole programs are describe.py's, which builds on these phrases."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..language import ast as A
from ..model.logwords import and_list

if TYPE_CHECKING:
    from ..load.ruleset import Ruleset


@dataclass
class Line:
    """One sentence, and the sentences of the blocks nested under it."""
    text: str
    children: list = field(default_factory=list)


class Vocab:
    """What the names of one ruleset mean, for the sentences."""

    def __init__(self, rs: Ruleset | None = None):
        self.sides: dict[str, str | None] = {}
        self.zones: dict[tuple[str, str], str] = {}  # (scope, name) -> words
        self.pieces: dict[str, tuple[str, str]] = {}  # piece -> (one, many)
        self.side_vars: set[str] = set()
        self.game_vars: set[str] = set()
        self.funcs: set[str] = set()
        # the kind of the component whose rules are described
        self.owner_kind: str | None = None
        if rs is None:
            return
        from ..model.logwords import plural

        self.sides = {sid: name for sid, name in list(rs.seats) + list(rs.sides)}
        for (scope, name), z in rs.zones.items():
            self.zones[(scope, name)] = z.title or name.replace("_", " ")
        for name in rs.pieces:
            one, many = rs.piece_words.get(name, (name, name if name.endswith("s") else None))
            self.pieces[name] = (words(one), words(many or plural(one)))
        self.side_vars = set(rs.side_vars)
        self.game_vars = set(rs.game_vars)
        for m in rs.modules:
            for it in m.items:
                if isinstance(it, A.Func):
                    self.funcs.add(it.name)


_PLAIN = Vocab()


def words(name: str) -> str:
    return str(name).replace("_", " ")


def possessive(phrase: str) -> str:
    return phrase + ("'" if phrase.endswith("s") and " " not in phrase and len(phrase) > 2
                     else "'s")


def _of(obj: str, what: str) -> str:
    """'p's laps' for a short owner, 'the laps of the side that ...' for a long one."""
    if len(obj.split()) <= 3 and " of " not in obj and " for " not in obj:
        return f"{possessive(obj)} {what}"
    return f"the {what} of {obj}"


# ---- expressions --------------------------------------------------------------
def expr(e: A.Node | str | int | None, v: Vocab = _PLAIN) -> str:
    """A noun phrase for an expression (never Python, never an exception)."""
    if e is None:
        return "nothing"
    if isinstance(e, (str, int)) and not isinstance(e, bool):
        return str(e)
    f = EXPRESSIONS.get(type(e))
    if f is None:
        return f"(a {type(e).__name__} that cannot be described)"
    return f(e, v)


def _num(e, v):
    return str(e.value)


def _str(e, v):
    out = []
    for p in e.parts:
        out.append(p if isinstance(p, str) else "{" + expr(p, v) + "}")
    return "\u201c" + "".join(out) + "\u201d"


def _const(e, v):
    if e.value is True or e.value is False or e.value is None:
        return {True: "true", False: "false", None: "none"}[e.value]
    return expr(e.value, v) if isinstance(e.value, A.Node) else str(e.value)


_NAMES = {"players": "the players", "sides": "every side", "current": "the player whose turn it is",
          "round": "the round number", "winners": "the winners", "options": "the options",
          "tables": "the tables", "this": "this component"}


def _name(e, v):
    n = e.id
    if n == "this" and v.owner_kind:
        return f"this {words(v.owner_kind)}"
    if n in _NAMES:
        return _NAMES[n]
    if n in v.sides:
        return v.sides[n]
    if ("game", n) in v.zones:
        return "the " + v.zones[("game", n)]
    if n in v.game_vars:
        return "the " + words(n)
    return n


_BUILTIN_ATTRS = {"size": "the number of items in {o}", "top": "the top item of {o}",
                  "items": "the items in {o}", "total": "the total of {o}",
                  "owner": "{o}'s owner", "holder": "{o}'s holder", "zone": "the zone {o} lies in",
                  "is_player": "{o} is a player", "bot": "the rules play {o}",
                  "index": "{o}'s position"}


def _attr(e, v):
    if isinstance(e.obj, A.Name) and e.obj.id == "options":
        return f"the {words(e.name)} option"
    if isinstance(e.obj, A.Name) and e.obj.id == "tables":
        return f"the {words(e.name)} table"
    o = expr(e.obj, v)
    if ("side", e.name) in v.zones:
        return _of(o, v.zones[("side", e.name)])
    if ("space", e.name) in v.zones:
        return f"the {v.zones[('space', e.name)]} at {o}"
    if e.name in v.pieces:
        return _of(o, v.pieces[e.name][1])
    if e.name in _BUILTIN_ATTRS and e.name not in v.side_vars:
        return _BUILTIN_ATTRS[e.name].replace("{o}'s", possessive(o)).replace("{o}", o)
    return _of(o, words(e.name))


def _index(e, v):
    if isinstance(e.obj, A.Attr) and e.obj.name in v.pieces:
        return (f"the number of {possessive(expr(e.index, v))} {v.pieces[e.obj.name][1]} "
                f"at {expr(e.obj.obj, v)}")
    if isinstance(e.index, A.Num):
        n = e.index.value
        nth = _ORDINALS[n] if n < len(_ORDINALS) else f"item {n} (counting from 0)"
        return f"the {nth} of {expr(e.obj, v)}" if n < len(_ORDINALS) else f"{nth} of {expr(e.obj, v)}"
    if isinstance(e.index, A.Neg) and isinstance(e.index.operand, A.Num):
        n = e.index.operand.value
        return (f"the last of {expr(e.obj, v)}" if n == 1 else
                f"item {n} from the end of {expr(e.obj, v)}")
    if isinstance(e.index, A.Str):
        return f"the {_str(e.index, v)} entry of {expr(e.obj, v)}"
    if isinstance(e.obj, A.Attr) and isinstance(e.obj.obj, A.Name) and e.obj.obj.id == "tables":
        return f"the entry for {expr(e.index, v)} in {expr(e.obj, v)}"
    return f"the item at position {expr(e.index, v)} (counting from 0) of {expr(e.obj, v)}"


_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth"]


def _fn(arg, v, what="it"):
    """(variable, body phrase) of a lambda argument, or of any other function value."""
    if isinstance(arg, A.Lambda):
        return arg.param, expr(arg.body, v)
    return "x", f"{expr(arg, v)} of x"


def _call(e, v):
    name = e.func.id if isinstance(e.func, A.Name) else None
    args = [a for a in e.args if not isinstance(a, A.KeywordArg)]
    kws = {a.name: a.value for a in e.args if isinstance(a, A.KeywordArg)}
    x = [expr(a, v) for a in args]
    n = len(args)
    f = _CALLS.get(name)
    if f is not None:
        try:
            out = f(args, x, kws, v)
        except (IndexError, KeyError, TypeError):
            out = None
        if out:
            return out
    if name == "original":
        return "what the replaced rule gives" + (f" for {and_list(x)}" if x else "")
    if name is None:
        return f"the result of {expr(e.func, v)}" + (f" for {and_list(x)}" if n else "")
    if n == 0:
        return f"the result of {words(name)}"
    if n == 1 and len(x[0].split()) <= 3:
        joint = " " if name.endswith(("_of", "_for", "_to", "_at", "_by", "_from")) else " of "
        return f"{words(name)}{joint}{x[0]}"
    return f"{words(name)} ({', '.join(x)})"


def _by(kws, v):
    by = kws.get("by")
    if by is None:
        return ""
    if isinstance(by, A.ListLit):
        keys = [_fn(k, v)[1] for k in by.items]
        return " ordered by " + ", then by ".join(keys)
    return " ordered by " + _fn(by, v)[1]


def _lam(args, i, v):
    var, body = _fn(args[i], v)
    return var, body


def _c_count(a, x, k, v):
    if len(a) == 1 and x[0] in ("the players", "every side"):
        return "the number of players" if x[0] == "the players" else "the number of sides"
    if len(a) == 1:
        lists = isinstance(a[0], A.Call) and isinstance(a[0].func, A.Name) and a[0].func.id in (
            "track", "linked", "components", "spaces", "players_from", "others")
        return f"the number of {x[0][4:]}" if lists and x[0].startswith("the ") \
            else f"the number of {x[0][6:]}" if lists and x[0].startswith("every ") \
            else f"the number of items in {x[0]}"
    var, body = _lam(a, 1, v)
    return f"the number of {var} in {x[0]} for which {body}"


def _c_sum(a, x, k, v):
    if len(a) == 1:
        return f"the total of {x[0]}"
    var, body = _lam(a, 1, v)
    return f"the total of {body} for each {var} in {x[0]}"


def _extreme(word):
    def f(a, x, k, v):
        return f"the {word} of {and_list(x)}" if len(a) > 1 else f"the {word} of {x[0]}"
    return f


def _key(body: str, var: str) -> str:
    """'points' for 'p's points', so a key reads 'the largest points'."""
    if body.startswith(f"{var}'s "):
        return body[len(var) + 3:]
    return body[4:] if body.startswith("the ") else body


def _c_by(word, many=False):
    def f(a, x, k, v):
        var, body = _lam(a, 1, v)
        if isinstance(a[1], A.Lambda) and isinstance(a[1].body, A.ListLit) and a[1].body.items:
            body = ", then ".join(_key(expr(i, v), var) for i in a[1].body.items)
        else:
            body = _key(body, var)
        if x[0].startswith(f"every {var} in "):  # max_by(filter(...)): one phrase
            return (f"every {var} in {x[0][len(var) + 10:]} tied for the {word} {body}" if many
                    else f"the {var} in {x[0][len(var) + 10:]} with the {word} {body}")
        if many:
            if isinstance(a[0], A.Name) and a[0].id == "players":
                return f"every player {var} with the {word} {body}"
            return f"every {var} in {x[0]} with the {word} {body}"
        return f"the {var} in {x[0]} with the {word} {body}"
    return f


def _c_filter(a, x, k, v):
    var, body = _lam(a, 1, v)
    return f"every {var} in {x[0]} for which {body}"


def _c_map(a, x, k, v):
    var, body = _lam(a, 1, v)
    return f"{body} for each {var} in {x[0]}"


def _c_first(a, x, k, v):
    if len(a) == 1:
        return f"the first of {x[0]}"
    var, body = _lam(a, 1, v)
    return f"the first {var} in {x[0]} for which {body}"


def _c_any(a, x, k, v):
    if len(a) == 1:
        return f"any of {x[0]} is true"
    var, body = _lam(a, 1, v)
    return f"{body} for some {var} in {x[0]}"


def _c_every(a, x, k, v):
    if len(a) == 1:
        return f"all of {x[0]} are true"
    var, body = _lam(a, 1, v)
    return f"{body} for every {var} in {x[0]}"


def _lit_id(a, x):
    return a.parts[0] if isinstance(a, A.Str) and len(a.parts) == 1 and isinstance(
        a.parts[0], str) else x


def _below(e, v) -> str:
    """The last number of a range that stops before e."""
    if isinstance(e, A.BinOp) and e.op == "+" and isinstance(e.right, A.Num) and e.right.value == 1:
        return expr(e.left, v)
    if isinstance(e, A.Num):
        return str(e.value - 1)
    return f"{_sub(e, v)} minus 1"


def _c_range(a, x, k, v):
    if len(a) == 1:
        return f"the numbers from 0 to {_below(a[0], v)}"
    return f"the numbers from {x[0]} to {_below(a[1], v)}"


# a built-in's phrase, by the name called (None: a function worked out by an expression)
_CALLS: dict[str | None, Callable[..., str | None]] = {
    "len": lambda a, x, k, v: _c_count(a[:1], x, k, v),
    "count": _c_count,
    "sum": _c_sum,
    "max": _extreme("largest"),
    "min": _extreme("smallest"),
    "abs": lambda a, x, k, v: f"the absolute value of {x[0]}",
    "max_by": _c_by("largest"),
    "min_by": _c_by("smallest"),
    "most": _c_by("largest", many=True),
    "fewest": _c_by("smallest", many=True),
    "filter": _c_filter,
    "map": _c_map,
    "sort": lambda a, x, k, v: f"{x[0]} in ascending order",
    "sort_by": lambda a, x, k, v: f"{x[0]} ordered by {_lam(a, 1, v)[1]}, smallest first",
    "sorted": lambda a, x, k, v: f"{x[0]}{_by(k, v) or ' in ascending order'}",
    "ranked": lambda a, x, k, v: f"{x[0]} in groups of equal rank{_by(k, v)}",
    "reverse": lambda a, x, k, v: f"{x[0]} in reverse order",
    "first": _c_first,
    "last": lambda a, x, k, v: f"the last of {x[0]}",
    "any": _c_any,
    "every": _c_every,
    "unique": lambda a, x, k, v: f"{x[0]} without repeats",
    "distinct": lambda a, x, k, v: f"one of {x[0]} for each different {_lam(a, 1, v)[1]}",
    "group_by": lambda a, x, k, v: f"{x[0]} grouped by {_lam(a, 1, v)[1]}",
    "index_of": lambda a, x, k, v: f"the position of {x[1]} in {x[0]}",
    "rotate": lambda a, x, k, v: f"{x[0]} starting from {x[1]}",
    "next_of": lambda a, x, k, v: f"the one after {x[1]} in {x[0]}",
    "range": _c_range,
    "str": lambda a, x, k, v: f"{x[0]} as text",
    "record": lambda a, x, k, v: (f"{x[0]} with " if x else "a record of ") + and_list(
        [f"{name} {expr(value, v)}" for name, value in k.items()]),
    "joined": lambda a, x, k, v: f"{x[0]} in words, the last two joined by "
                                 f"{x[1] if len(x) > 1 else 'and'}",
    "plural": lambda a, x, k, v: f"the plural of {x[0]}" if len(x) < 2 else
                                 f"{x[0]}, made plural unless {x[1]} is 1",
    "space": lambda a, x, k, v: f"space {_lit_id(a[0], x[0])}",
    "spaces": lambda a, x, k, v: "every space of the board",
    "component": lambda a, x, k, v: f"component {_lit_id(a[0], x[0])}",
    "components": lambda a, x, k, v: f"every {words(_lit_id(a[0], x[0]))} component",
    "track": lambda a, x, k, v: f"the spaces of the {words(_lit_id(a[0], x[0]))} track",
    "step": lambda a, x, k, v: (f"the space {x[2]} steps along the "
                                f"{words(_lit_id(a[0], x[0]))} track from {x[1]}"),
    "distance": lambda a, x, k, v: (f"the number of steps along the {words(_lit_id(a[0], x[0]))} "
                                    f"track from {x[1]} to {x[2]}"),
    "linked": lambda a, x, k, v: (f"the spaces joined to {x[0]} by a "
                                  f"{words(_lit_id(a[1], x[1]))} link"),
    "players_from": lambda a, x, k, v: f"the players in seat order starting with {x[0]}",
    "others": lambda a, x, k, v: f"the players other than {x[0]}",
    "random": lambda a, x, k, v: f"one of {x[0]} at random",
    "shuffled": lambda a, x, k, v: f"{x[0]} in a random order",
    "cash": lambda a, x, k, v: f"the money {x[0]} holds",
}


def _collect(e, v):
    out = f"the answers of the {words(e.event)} handlers"
    if e.args:
        out += f" for {and_list(expr(a, v) for a in e.args)}"
    if e.targets is not None:
        out += f", asking only those on {expr(e.targets, v)}"
    return out


def _kwarg(e, v):
    return f"{words(e.name)} {expr(e.value, v)}"


def _listlit(e, v):
    if not e.items:
        return "an empty list"
    return "the list of " + and_list(expr(i, v) for i in e.items)


def _comprehension(e, v):
    src = expr(e.iter, v)
    cond = f" for which {expr(e.cond, v)}" if e.cond is not None else ""
    if isinstance(e.elt, A.Name) and e.elt.id == e.var:
        if not cond and src.startswith(("every ", "the ")):
            return src
        return f"every {e.var} in {src}{cond}"
    return f"{expr(e.elt, v)} for each {e.var} in {src}{cond}"


def _lambda(e, v):
    return f"(for any {e.param}: {expr(e.body, v)})"


_OPS = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}


def _binop(e, v):
    out = f"{_sub(e.left, v)} {_OPS.get(e.op, e.op)} {_sub(e.right, v)}"
    return out + (" (rounded down)" if e.op == "/" else "")


def _sub(e, v):
    """An operand, bracketed when it is itself an operation of two."""
    s = expr(e, v)
    long = len(s.split()) > 4 and not isinstance(e, (A.Attr, A.Name))
    return f"({s})" if isinstance(e, (A.BinOp, A.BoolOp, A.Ternary)) or long else s


_CMP = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
        ">": "is more than", ">=": "is at least", "in": "is in", "notin": "is not in"}


def _compare(e, v):
    left, right = expr(e.left, v), expr(e.right, v)
    if isinstance(e.right, A.Const) and e.right.value is None and e.op in ("==", "!="):
        return f"{left} is {'none' if e.op == '==' else 'not none'}"
    if e.op in ("in", "notin") and isinstance(e.right, A.Str):
        return f"{left} {'appears' if e.op == 'in' else 'does not appear'} in {right}"
    return f"{left} {_CMP.get(e.op, e.op)} {right}"


def _boolop(e, v):
    def side(x):
        s = expr(x, v)
        return f"({s})" if isinstance(x, A.BoolOp) and x.op != e.op else s
    return f"{side(e.left)} {e.op} {side(e.right)}"


def _not(e, v):
    o = e.operand
    if isinstance(o, A.Compare) and o.op in ("==", "in"):
        return expr(dataclasses.replace(o, op="!=" if o.op == "==" else "notin"), v)
    return f"not {_sub(o, v)}" if not isinstance(o, A.Compare) else f"not ({expr(o, v)})"


def _neg(e, v):
    return f"-{e.operand.value}" if isinstance(e.operand, A.Num) else f"minus {_sub(e.operand, v)}"


def _ternary(e, v):
    return f"{_sub(e.then, v)} if {expr(e.cond, v)}, otherwise {_sub(e.other, v)}"


EXPRESSIONS = {A.Num: _num, A.Str: _str, A.Const: _const, A.Name: _name, A.Attr: _attr,
               A.Index: _index, A.Call: _call, A.Collect: _collect, A.KeywordArg: _kwarg,
               A.ListLit: _listlit, A.Comprehension: _comprehension, A.Lambda: _lambda,
               A.BinOp: _binop, A.Compare: _compare, A.BoolOp: _boolop, A.Not: _not,
               A.Neg: _neg, A.Ternary: _ternary}
