"""The rule language in English, for `rulebook docs`.

Every node class of `ast.py` has a describer here, kept in one table keyed
by class: an expression becomes a noun phrase ("the number of items in p's
hand"), a statement an instruction ("move the top of the deck to p's hand"),
a block a list of `Line`s (a sentence with the lines of its nested blocks).
A class without a describer is reported by `undescribed()`, and a node of
one in a ruleset by `indescribable(program)`, which `rulebook lint` reports.

The words for the ruleset's own names (seat names, zone titles, piece
words) come from a `Vocab` made from the Ruleset; without one, names read
as written, with spaces for underscores.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..language import ast as A


@dataclass
class Line:
    """One sentence, and the sentences of the blocks nested under it."""
    text: str
    children: list = field(default_factory=list)


class Vocab:
    """What the names of one ruleset mean, for the sentences."""

    def __init__(self, rs=None):
        self.sides = {}
        self.zones = {}  # (scope, name) -> words
        self.pieces = {}  # piece -> (one, many)
        self.side_vars = set()
        self.game_vars = set()
        self.funcs = set()
        self.owner_kind = None  # the kind of the component whose rules are described
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


def _possessive(phrase: str) -> str:
    return phrase + ("'" if phrase.endswith("s") and " " not in phrase and len(phrase) > 2
                     else "'s")


def _of(obj: str, what: str) -> str:
    """'p's laps' for a short owner, 'the laps of the side that ...' for a long one."""
    if len(obj.split()) <= 3 and " of " not in obj and " for " not in obj:
        return f"{_possessive(obj)} {what}"
    return f"the {what} of {obj}"


# ---- expressions --------------------------------------------------------------
def expr(e, v: Vocab = _PLAIN) -> str:
    """A noun phrase for an expression (never Python, never an exception)."""
    if e is None:
        return "nothing"
    if isinstance(e, (str, int)) and not isinstance(e, bool):
        return str(e)
    f = DESCRIBERS.get(type(e))
    if f is None or type(e) not in EXPRESSIONS:
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
        return _BUILTIN_ATTRS[e.name].replace("{o}'s", _possessive(o)).replace("{o}", o)
    return _of(o, words(e.name))


def _index(e, v):
    if isinstance(e.obj, A.Attr) and e.obj.name in v.pieces:
        return (f"the number of {_possessive(expr(e.index, v))} {v.pieces[e.obj.name][1]} "
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
        return "what the replaced rule gives" + (f" for {_and(x)}" if x else "")
    if name is None:
        return f"the result of {expr(e.func, v)}" + (f" for {_and(x)}" if n else "")
    if n == 0:
        return f"the result of {words(name)}"
    if n == 1 and len(x[0].split()) <= 3:
        joint = " " if name.endswith(("_of", "_for", "_to", "_at", "_by", "_from")) else " of "
        return f"{words(name)}{joint}{x[0]}"
    return f"{words(name)} ({', '.join(x)})"


def _and(items) -> str:
    items = list(items)
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


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
        return f"the {word} of {_and(x)}" if len(a) > 1 else f"the {word} of {x[0]}"
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


_CALLS = {
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
        out += f" for {_and(expr(a, v) for a in e.args)}"
    if e.targets is not None:
        out += f", asking only those on {expr(e.targets, v)}"
    return out


def _kwarg(e, v):
    return f"{words(e.name)} {expr(e.value, v)}"


def _listlit(e, v):
    if not e.items:
        return "an empty list"
    return "the list of " + _and(expr(i, v) for i in e.items)


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


# ---- statements ---------------------------------------------------------------
_COMPOUND = (A.If, A.For, A.While, A.Repeat, A.Turn)  # what says "...: ..." on one line


def block(body, v: Vocab = _PLAIN) -> list:
    """The Lines of a block of statements."""
    out = []
    for s in body or []:
        out.extend(stmt(s, v))
    return out


def stmt(s, v: Vocab = _PLAIN) -> list:
    """The Lines of one statement (a list, since some say two things)."""
    f = DESCRIBERS.get(type(s))
    if f is None or type(s) in EXPRESSIONS:
        return [Line(f"(a {type(s).__name__} that cannot be described)")]
    out = f(s, v)
    return out if isinstance(out, list) else [out]


def _count(n, piece, v, owner=None) -> str:
    one, many = v.pieces.get(piece, (words(piece), words(piece)))
    whose = f" of {owner}" if owner else ""
    if n is None:
        return f"all {many}{whose}" if not owner else f"all {_possessive(owner)} {many}"
    if isinstance(n, A.Num):
        if n.value == 1:
            from ..model.logwords import article
            return article(one) + whose
        return f"{n.value} {many}{whose}"
    return f"{expr(n, v)} {many}{whose}"


def _logged(s, v) -> str:
    if getattr(s, "log", None) is None:
        return ""
    if isinstance(s.log, A.Str) and s.log.parts == []:
        return " (without a line in the log)"
    return ""


def _value(e, v) -> str:
    """A value to keep: 'whether ...' for a true/false that reads as a claim."""
    s = expr(e, v)
    if isinstance(e, (A.Compare, A.BoolOp, A.Not)) or (
            isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.func.id in ("any", "every")):
        return f"whether {s}"
    return s


def _let(s, v):
    return Line(f"Let {s.name} be {_value(s.value, v)}.")


def _assign(s, v):
    t, val = expr(s.target, v), _value(s.value, v)
    if s.op == "+=":
        return Line(f"Add {val} to {t}.")
    if s.op == "-=":
        return Line(f"Subtract {val} from {t}.")
    return Line(f"Set {t} to {val}.")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _subject(e, v) -> str:
    """An expression opening a sentence: capitalised, unless it is a local
    name ('p takes a turn'), which keeps its letters."""
    s = expr(e, v)
    return s if isinstance(e, A.Name) and s == e.id else _cap(s)


def _if(s, v):
    out = []
    for i, (cond, body) in enumerate(s.branches):
        head = f"If {expr(cond, v)}" if i == 0 else f"Otherwise, if {expr(cond, v)}"
        out.append(_headed(head, body, v))
    if s.orelse:
        out.append(_headed("Otherwise", s.orelse, v))
    return out


def _uncap(t: str) -> str:
    """A sentence going on after a colon: 'If c: roll the cup.' (names keep
    their capitals: 'If c: Red wins')."""
    first = t.split(" ", 1)[0]
    if first in ("If", "For", "Set", "Add", "Subtract", "Let", "Move", "Place", "Remove", "Roll",
                 "Shuffle", "Draw", "Show", "Write", "Carry", "Work", "Stop", "Skip", "The",
                 "Option", "Pick", "Each", "Going", "Do", "Every", "Twice", "Once", "As",
                 "Otherwise"):
        return t[:1].lower() + t[1:]
    return t


def _headed(head, body, v) -> Line:
    """'If c: roll the cup.' on one line for one simple sentence, else nested."""
    lines = block(body, v)
    if not lines:
        return Line(f"{head}: nothing happens.")
    if len(lines) == 1 and not lines[0].children and not isinstance(body[0], _COMPOUND):
        t = lines[0].text
        return Line(f"{head}: {_uncap(t)}")
    return Line(f"{head}:", lines)


def _for(s, v):
    src = expr(s.iter, v)
    cond = f" for which {expr(s.cond, v)}" if s.cond is not None else ""
    if isinstance(s.iter, A.Name) and s.iter.id == "players":
        head = f"For each player {s.var}, in seat order{cond}"
    else:
        head = f"For each {s.var} in {src}{cond}"
    return _headed(head, s.body, v)


def _while(s, v):
    return _headed(f"As long as {expr(s.cond, v)}, again and again", s.body, v)


def _repeat(s, v):
    n = expr(s.count, v)
    return _headed("Twice" if n == "2" else "Once" if n == "1" else f"{_cap(n)} times", s.body, v)


def _return(s, v):
    if s.value is None:
        return Line("Stop here.")
    return Line(f"The answer is {expr(s.value, v)}.")


def _break(s, v):
    return Line("Stop the loop.")


def _continue(s, v):
    return Line("Skip to the next one.")


def _log(s, v):
    to = f", for {expr(s.to, v)} only" if s.to is not None else ""
    return Line(f"Write in the log{to}: {_logtext(s.value, v)}.")


def _logtext(e, v):
    if isinstance(e, A.Lambda):
        return f"{expr(e.body, v)} (where {e.param} is what it concerns)"
    return expr(e, v)


def _move(s, v):
    where = " at the bottom" if s.position == "bottom" else ""
    return Line(f"Move {expr(s.what, v)} to {expr(s.dest, v)}{where}{_logged(s, v)}.")


def _place(s, v):
    return Line(f"Place {_count(s.count, s.piece, v, expr(s.owner, v))} at {expr(s.loc, v)}"
                f"{_logged(s, v)}.")


def _remove(s, v):
    owner = expr(s.owner, v) if s.owner is not None else None
    back = " back to their supply" if owner else " back to their owners' supplies"
    return Line(f"Remove {_count(s.count, s.piece, v, owner)} from {expr(s.loc, v)}{back}.")


def _transfer(s, v):
    return Line(f"Move {_count(s.count, s.piece, v, expr(s.owner, v))} from {expr(s.src, v)} "
                f"to {expr(s.dst, v)}{_logged(s, v)}.")


def _roll(s, v):
    return Line(f"Roll {expr(s.what, v)}{_logged(s, v)}.")


def _shuffle(s, v):
    return Line(f"Shuffle {expr(s.zone, v)}.")


def _draw(s, v):
    n = expr(s.count, v)
    what = ("one item" if n == "1" else f"{n} items" if isinstance(s.count, A.Num)
            else f"as many items as {n}")
    return Line(f"Draw {what} from {expr(s.src, v)} into {expr(s.dst, v)}{_logged(s, v)}.")


def _give(s, v):
    return Line(f"{_subject(s.giver, v)} gives {_count(s.count, s.piece, v)} to "
                f"{expr(s.taker, v)}{_logged(s, v)}.")


def _pay(s, v):
    return Line(f"{_subject(s.payer, v)} pays {expr(s.amount, v)} to {expr(s.payee, v)}"
                f"{_logged(s, v)}.")


def _option(o, v):
    fors = ", ".join(f"{var} in {expr(it, v)}" for var, it in o.fors)
    head = f"Option {expr(o.label, v)}"
    if fors:
        head += f", one for each {fors}"
    if o.cond is not None:
        head += f", if {expr(o.cond, v)}"
    if o.prefer is not None:
        head += f" (a bot ranks it by {expr(o.prefer, v)}, lowest first)"
    return _headed(head, o.body, v)


def _some(o, v):
    head = f"Pick some of the {o.var} in {expr(o.iter, v)}"
    if o.cond is not None:
        head += f" for which {expr(o.cond, v)}"
    head += f", each labelled {expr(o.label, v)}"
    if o.low is not None:
        head += f", at least {expr(o.low, v)}"
    if o.high is not None:
        head += f", at most {expr(o.high, v)}"
    if o.test is not None:
        head += f", so that {expr(o.test, v)}"
    if o.prefer is not None:
        head += f" (a bot ranks a pick by {expr(o.prefer, v)}, lowest first)"
    head += f"; call the picked ones {o.picked}"
    return _headed(head, o.body, v)


def _choose(s, v):
    who = expr(s.player, v)
    prompt = f" ({expr(s.prompt, v)})" if s.prompt is not None else ""
    if s.each:
        head = (f"Each {s.each} in {who} chooses in secret{prompt}; the answers are revealed "
                f"together, then carried out in that order")
    else:
        head = f"{_subject(s.player, v)} chooses{prompt}"
    if s.may:
        head += ", and may pass instead"
    opts = []
    for o in s.options:
        opts.extend(stmt(o, v))
    if not opts:
        return Line(head + ": there is nothing to choose from.")
    if len(s.options) == 1 and isinstance(s.options[0], A.Option) and s.options[0].fors:
        return Line(head + ":", opts)
    return Line(head + " one of:", opts)


def _trigger(s, v):
    args = f" for {_and(expr(a, v) for a in s.args)}" if s.args else ""
    only = f", answered only by the rules on {expr(s.targets, v)}" if s.targets is not None else ""
    head = f"The {words(s.event)} event happens{args}{only}"
    if s.default is None:
        return Line(head + " (see the triggers).")
    lines = block(s.default, v)
    return Line(head + "; unless a rule replaces it, this is what it does:", lines)


def _reveal(s, v):
    return Line(f"Show {expr(s.what, v)} to {expr(s.to, v)}.")


def _window(s, v):
    args = f" (for {_and(expr(a, v) for a in s.args)})" if s.args else ""
    who = expr(s.who, v)
    if s.round_robin:
        head = (f"Going round {who}, each may use an ability of the {words(s.name)} window{args}, "
                f"one at a time, until all of them pass in succession")
    else:
        head = (f"{_subject(s.who, v)} may use abilities of the {words(s.name)} window{args}, "
                f"one at a time, until passing")
    if s.after:
        return Line(head + "; after each ability used:", block(s.after, v))
    return Line(head + ".")


def _turn(s, v):
    return _headed(f"{_subject(s.player, v)} takes a turn", s.body, v)


def _win(s, v):
    w = s.who
    if isinstance(w, A.Call) and isinstance(w.func, A.Name) and w.func.id in ("most", "fewest"):
        return Line(f"{_subject(w, v)} wins the game (a tie shares the win).")
    if isinstance(w, A.ListLit) and not w.items:
        return Line("The game ends with no winner.")
    return Line(f"{_subject(w, v)} wins the game.")


def _endgame(s, v):
    return Line("The rounds end here; the game goes on to its finish.")


def _exprstmt(s, v):
    e = s.expr
    if isinstance(e, A.Call) and isinstance(e.func, A.Name):
        args = _and(expr(a, v) for a in e.args)
        if e.func.id == "original":
            return Line("Do what the replaced rule does" + (f", for {args}." if e.args else "."))
        how = f"{words(e.func.id)}" + (f" for {args}" if e.args else "")
        return Line(f"Carry out {how}.")
    return Line(f"Work out {expr(e, v)}.")


# ---- top-level forms ----------------------------------------------------------
def _params(params) -> str:
    return f"({', '.join(params)})" if params else ""


def _game(g, v):
    out = []
    if g.setup:
        out.append(Line("Setup:", block(g.setup, v)))
    out.append(Line(rounds_sentence(g, v)))
    if g.finish:
        out.append(Line("At the end:", block(g.finish, v)))
    if g.summary:
        out.append(Line("After each round, the log sums up:", block(g.summary, v)))
    return out


def rounds_sentence(g, v=_PLAIN) -> str:
    names = _and(words(n) for n, _ in g.phases) if g.phases else "no phases"
    if g.rounds_kind == "count":
        n = expr(g.rounds_expr, v)
        lead = ("The game lasts 1 round" if n == "1" else f"The game lasts {n} rounds"
                if isinstance(g.rounds_expr, A.Num) else f"The game lasts as many rounds as {n}")
    elif g.rounds_kind == "until":
        lead = f"Rounds are played until {expr(g.rounds_expr, v)}"
    else:
        lead = "Rounds are played until the game is won or ended"
    return f"{lead}; each round plays {'its phase' if len(g.phases) == 1 else 'these phases in order'}: {names}."


def _phase(p, v):
    return Line(f"Phase {words(p.name)}" + (" (replacing the earlier one)" if p.override else "")
                + ":", block(p.body, v))


def _func(f, v):
    return Line(f"{words(f.name)}{_params(f.params)}" + (" (replacing the earlier one)" if f.override
                                                         else "") + ":", block(f.body, v))


def _gamepart(g, v):
    return Line(f"Replaces the game's {g.part}:", block(g.body, v))


def on_heading(h, v=_PLAIN) -> str:
    out = f"When the {words(h.event)} event happens" + (f" (to {', '.join(h.params)})"
                                                          if h.params else "")
    if h.cond is not None:
        out += f", if {expr(h.cond, v)}"
    if h.instead:
        out += ", instead of its usual effect"
    if h.priority:
        out += f" (priority {h.priority})"
    return out


def _on(h, v):
    return Line(on_heading(h, v) + ":", block(h.body, v))


def ability_heading(a, v=_PLAIN) -> str:
    who = a.params[0] if a.params else "the player"
    rest = f" (with {', '.join(a.params[1:])})" if len(a.params) > 1 else ""
    out = f"Ability \u201c{a.label}\u201d: while the {words(a.window)} window is open{rest}"
    if a.cond is not None:
        out += f", if {expr(a.cond, v)}"
    return out + f", {who} may do this"


def _ability(a, v):
    return Line(ability_heading(a, v) + ":", block(a.body, v))


def _module(m, v):
    out = []
    for it in m.items:
        out.extend(stmt(it, v))
    return out


EXPRESSIONS = {A.Num: _num, A.Str: _str, A.Const: _const, A.Name: _name, A.Attr: _attr,
               A.Index: _index, A.Call: _call, A.Collect: _collect, A.KeywordArg: _kwarg,
               A.ListLit: _listlit, A.Comprehension: _comprehension, A.Lambda: _lambda,
               A.BinOp: _binop, A.Compare: _compare, A.BoolOp: _boolop, A.Not: _not,
               A.Neg: _neg, A.Ternary: _ternary}

STATEMENTS = {A.Let: _let, A.Assign: _assign, A.If: _if, A.For: _for, A.While: _while,
              A.Repeat: _repeat, A.Return: _return, A.Break: _break, A.Continue: _continue,
              A.Log: _log, A.Move: _move, A.Place: _place, A.Remove: _remove,
              A.Transfer: _transfer, A.Roll: _roll, A.Shuffle: _shuffle, A.Draw: _draw,
              A.Give: _give, A.Pay: _pay, A.Option: _option, A.SomeOption: _some,
              A.Choose: _choose, A.Trigger: _trigger, A.Reveal: _reveal, A.Window: _window,
              A.Turn: _turn, A.Win: _win, A.EndGame: _endgame, A.ExprStmt: _exprstmt,
              A.Game: _game, A.Phase: _phase, A.Func: _func, A.GamePart: _gamepart,
              A.On: _on, A.Ability: _ability, A.Module: _module}

DESCRIBERS = {**EXPRESSIONS, **STATEMENTS}


def node_classes() -> list:
    """Every node class of the rule language's syntax tree."""
    return [c for c in vars(A).values() if isinstance(c, type) and issubclass(c, A.Node)
            and c is not A.Node and dataclasses.is_dataclass(c)]


def undescribed() -> set:
    """The names of the node classes no describer knows (normally none)."""
    return {c.__name__ for c in node_classes() if c not in DESCRIBERS}


def describe(node, v: Vocab = _PLAIN):
    """A phrase (for an expression) or a list of Lines (for anything else)."""
    if type(node) in EXPRESSIONS:
        return expr(node, v)
    if type(node) not in DESCRIBERS:
        raise KeyError(f"no description for {type(node).__name__}")
    return stmt(node, v)


# ---- walking a program --------------------------------------------------------
def children(node):
    """The nodes directly inside a node, in source order."""
    if not isinstance(node, A.Node):
        return
    for f in dataclasses.fields(node):
        if f.name == "span":
            continue
        yield from _nodes_in(getattr(node, f.name))


def _nodes_in(value):
    if isinstance(value, A.Node):
        yield value
    elif isinstance(value, (list, tuple)):
        for x in value:
            yield from _nodes_in(x)


def walk(node):
    yield node
    for c in children(node):
        yield from walk(c)


def modules_of(rs) -> list:
    """Every module of a ruleset: its rule files, then the rules on its components."""
    return list(rs.modules) + [c.rules for c in rs.components if c.rules is not None]


def _full(program):
    """The Ruleset with its syntax trees (a kept program drops them once compiled)."""
    rs = getattr(program, "rs", program)
    if rs.modules:
        return rs
    from pathlib import Path

    from ..load.ruleset import load_ruleset

    variant = None
    for _id, _name, f in rs.overlays:
        parts = Path(f).parts
        if "variants" in parts and Path(f).name == "variant.yaml":
            variant = parts[parts.index("variants") + 1]
    full, _ = load_ruleset(rs.path, variant)
    return full


def indescribable(program) -> list:
    """Each construct of the rules (a Program or a Ruleset) that has no
    English sentence, normally none; each node carries its `span`, where
    `rulebook lint` reports it (LINT-NO-DESCRIPTION)."""
    rs = _full(program)
    v = Vocab(rs)
    out = []
    for m in modules_of(rs):
        for node in walk(m):
            if type(node) not in DESCRIBERS:
                out.append(node)
                continue
            try:
                describe(node, v)
            except Exception:  # a describer that fails is as good as none
                out.append(node)
    return out
