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
from typing import TYPE_CHECKING, Any, Iterator, cast

from ..language import ast as A


from ..model.logwords import and_list
from .phrases import _PLAIN, EXPRESSIONS, Line, Vocab, expr, possessive, words  # noqa: F401

if TYPE_CHECKING:
    from ..load.ruleset import Ruleset
    from ..run.program import Program


# ---- statements ---------------------------------------------------------------
_COMPOUND = (A.If, A.For, A.While, A.Repeat, A.Around, A.Turn)  # what says "...: ..." on one line


def block(body: list[A.Node] | None, v: Vocab = _PLAIN) -> list[Line]:
    """The Lines of a block of statements."""
    out = []
    for s in body or []:
        out.extend(stmt(s, v))
    return out


def stmt(s: A.Node, v: Vocab = _PLAIN) -> list[Line]:
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
        return f"all {many}{whose}" if not owner else f"all {possessive(owner)} {many}"
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


def _around(s, v):
    who = "the players" if isinstance(s.iter, A.Name) and s.iter.id == "players" else \
        expr(s.iter, v)
    kept = f" (those still in are {s.left})" if s.left else ""
    end = f"until {expr(s.until, v)}" if s.until is not None else \
        "until fewer than two are left"
    return _headed(f"Going round {who} again and again, {s.var} taking each turn{kept}, "
                   f"{end}", s.body, v)


def _drop(s, v):
    return Line(f"{_cap(expr(s.value, v))} drops out of the turns.")


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


def _attach(s, v):
    return Line(f"Attach {expr(s.what, v)} to {expr(s.host, v)} (in its zone; it goes where "
                f"that goes).")


def _detach(s, v):
    return Line(f"Detach {expr(s.what, v)} from what it is attached to (it stays where it is).")


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


def _cycle(s, v):
    return Line(f"Each zone of {expr(s.zones, v)} passes what it holds, all at once, to the "
                "next one of the list (the last to the first).")


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
    if o.ordered:
        head = f"Pick some of the {o.var} in {expr(o.iter, v)}, one at a time in an order of one's own,"
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
    head += f"; call the picked ones {o.picked}" + (" (in the order picked)" if o.ordered else "")
    return _headed(head, o.body, v)


def _number(o, v):
    head = f"A number {o.var} from {expr(o.low, v)} to {expr(o.high, v)}"
    if o.step is not None:
        head += f", in steps of {expr(o.step, v)}"
    if o.prefer is not None:
        head += f" (a bot ranks each by {expr(o.prefer, v)}, lowest first)"
    return _headed(head, o.body, v)


def _choose(s, v):
    who = expr(s.player, v)
    prompt = f" ({expr(s.prompt, v)})" if s.prompt is not None else ""
    one = s.options[0] if len(s.options) == 1 else None
    if s.may and not s.each and s.prompt is None and isinstance(one, A.Option) and \
            not one.fors and one.cond is None:  # `may p "LABEL" { ... }`
        rank = f" (a bot does when it ranks it, by {expr(one.prefer, v)})" \
            if one.prefer is not None else ""
        return _headed(f"{_subject(s.player, v)} may {expr(one.label, v)}, or leave it"
                       f"{rank}", one.body, v)
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
    if len(s.options) == 1 and (isinstance(s.options[0], A.NumberOption) or
                                isinstance(s.options[0], A.Option) and s.options[0].fors):
        return Line(head + ":", opts)
    return Line(head + " one of:", opts)


def _trigger(s, v):
    args = f" for {and_list(expr(a, v) for a in s.args)}" if s.args else ""
    only = f", answered only by the rules on {expr(s.targets, v)}" if s.targets is not None else ""
    head = f"The {words(s.event)} event happens{args}{only}"
    if s.default is None:
        return Line(head + " (see the triggers).")
    lines = block(s.default, v)
    return Line(head + "; unless a rule replaces it, this is what it does:", lines)


def _reveal(s, v):
    return Line(f"Show {expr(s.what, v)} to {expr(s.to, v)}.")


def _window(s, v):
    args = f" (for {and_list(expr(a, v) for a in s.args)})" if s.args else ""
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
        args = and_list(expr(a, v) for a in e.args)
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


def rounds_sentence(g: A.Game, v: Vocab = _PLAIN) -> str:
    when = g.phase_when or [None] * len(g.phases)
    names = and_list(words(n) if c is None else f"{words(n)} (only when {expr(c, v)})"
                     for (n, _), c in zip(g.phases, when)) if g.phases else "no phases"
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


def on_heading(h: A.On, v: Vocab = _PLAIN) -> str:
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


def ability_heading(a: A.Ability, v: Vocab = _PLAIN) -> str:
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


STATEMENTS = {A.Let: _let, A.Assign: _assign, A.If: _if, A.For: _for, A.While: _while,
              A.Repeat: _repeat, A.Around: _around, A.Drop: _drop, A.Return: _return, A.Break: _break, A.Continue: _continue,
              A.Log: _log, A.Move: _move, A.Attach: _attach, A.Detach: _detach, A.Place: _place, A.Remove: _remove,
              A.Transfer: _transfer, A.Roll: _roll, A.Shuffle: _shuffle, A.Cycle: _cycle, A.Draw: _draw,
              A.Give: _give, A.Pay: _pay, A.Option: _option, A.SomeOption: _some, A.NumberOption: _number,
              A.Choose: _choose, A.Trigger: _trigger, A.Reveal: _reveal, A.Window: _window,
              A.Turn: _turn, A.Win: _win, A.EndGame: _endgame, A.ExprStmt: _exprstmt,
              A.Game: _game, A.Phase: _phase, A.Func: _func, A.GamePart: _gamepart,
              A.On: _on, A.Ability: _ability, A.Module: _module}

DESCRIBERS = {**EXPRESSIONS, **STATEMENTS}


def node_classes() -> list[type[A.Node]]:
    """Every node class of the rule language's syntax tree."""
    return [c for c in vars(A).values() if isinstance(c, type) and issubclass(c, A.Node)
            and c is not A.Node and dataclasses.is_dataclass(c)]


def undescribed() -> set[str]:
    """The names of the node classes no describer knows (normally none)."""
    return {c.__name__ for c in node_classes() if c not in DESCRIBERS}


def describe(node: A.Node, v: Vocab = _PLAIN) -> str | list[Line]:
    """A phrase (for an expression) or a list of Lines (for anything else)."""
    if type(node) in EXPRESSIONS:
        return expr(node, v)
    if type(node) not in DESCRIBERS:
        raise KeyError(f"no description for {type(node).__name__}")
    return stmt(node, v)


# ---- walking a program --------------------------------------------------------
def children(node: Any) -> Iterator[A.Node]:
    """The nodes directly inside a node, in source order."""
    if not isinstance(node, A.Node):
        return
    for f in dataclasses.fields(node):
        if f.name == "span":
            continue
        yield from _nodes_in(getattr(node, f.name))


def _nodes_in(value: Any) -> Iterator[A.Node]:
    if isinstance(value, A.Node):
        yield value
    elif isinstance(value, (list, tuple)):
        for x in value:
            yield from _nodes_in(x)


def walk(node: A.Node) -> Iterator[A.Node]:
    yield node
    for c in children(node):
        yield from walk(c)


def modules_of(rs: Ruleset) -> list[A.Module]:
    """Every module of a ruleset: its rule files, then the rules on its components."""
    return list(rs.modules) + [c.rules for c in rs.components if c.rules is not None]


def _full(program: Program | Ruleset) -> Ruleset:
    """The Ruleset with its syntax trees (a kept program drops them once compiled)."""
    rs = cast("Ruleset", getattr(program, "rs", program))
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


def indescribable(program: Program | Ruleset) -> list[A.Node]:
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
