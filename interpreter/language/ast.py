"""Dataclass AST of the rule language. Every node carries the span it came from."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    path: str
    line: int
    col: int


NOWHERE = Span("<builtin>", 0, 0)


@dataclass(eq=False, repr=False)
class Node:
    span: Span = field(default=NOWHERE, kw_only=True, compare=False, repr=False)

    # One __eq__ and __repr__ for every node (the span left out of both):
    # dataclass would write them afresh for each of the classes below, and
    # that was most of the time importing this module took.
    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f)
                   for f in self.__dataclass_fields__ if f != "span")

    __hash__ = None  # type: ignore[assignment]  # (unhashable, as mypy cannot say)

    def __repr__(self):
        return f"{type(self).__name__}(" + ", ".join(
            f"{f}={getattr(self, f)!r}" for f in self.__dataclass_fields__ if f != "span") + ")"


# ---- expressions -------------------------------------------------------------
@dataclass(eq=False, repr=False)
class Num(Node):
    value: int


@dataclass(eq=False, repr=False)
class Str(Node):
    parts: list  # str pieces and interpolated expressions


@dataclass(eq=False, repr=False)
class Const(Node):
    value: object  # True, False or None


@dataclass(eq=False, repr=False)
class Name(Node):
    id: str


@dataclass(eq=False, repr=False)
class Attr(Node):
    obj: Node
    name: str


@dataclass(eq=False, repr=False)
class Index(Node):
    obj: Node
    index: Node


@dataclass(eq=False, repr=False)
class Call(Node):
    func: Node
    args: list


@dataclass(eq=False, repr=False)
class Collect(Node):
    event: str
    args: list
    targets: Node | None = None  # `collect e(...) on X`: only X's handlers


@dataclass(eq=False, repr=False)
class KeywordArg(Node):
    """`by: x => x.cost` in a call to a built-in that takes it."""
    name: str
    value: Node


@dataclass(eq=False, repr=False)
class ListLit(Node):
    items: list


@dataclass(eq=False, repr=False)
class Comprehension(Node):
    elt: Node
    var: str
    iter: Node
    cond: Node | None


@dataclass(eq=False, repr=False)
class Lambda(Node):
    param: str
    body: Node


@dataclass(eq=False, repr=False)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(eq=False, repr=False)
class Compare(Node):
    op: str  # == != < <= > >= in notin
    left: Node
    right: Node


@dataclass(eq=False, repr=False)
class BoolOp(Node):
    op: str  # and / or
    left: Node
    right: Node


@dataclass(eq=False, repr=False)
class Not(Node):
    operand: Node


@dataclass(eq=False, repr=False)
class Neg(Node):
    operand: Node


@dataclass(eq=False, repr=False)
class Ternary(Node):
    cond: Node
    then: Node
    other: Node


# ---- statements --------------------------------------------------------------
@dataclass(eq=False, repr=False)
class Let(Node):
    name: str
    value: Node


@dataclass(eq=False, repr=False)
class Assign(Node):
    target: Node  # Name, Attr or Index
    value: Node
    op: str = "="  # = += -=


@dataclass(eq=False, repr=False)
class If(Node):
    branches: list  # [(cond, body)]
    orelse: list | None


@dataclass(eq=False, repr=False)
class For(Node):
    var: str
    iter: Node
    cond: Node | None
    body: list


@dataclass(eq=False, repr=False)
class While(Node):
    cond: Node
    body: list


@dataclass(eq=False, repr=False)
class Repeat(Node):
    count: Node
    body: list


@dataclass(eq=False, repr=False)
class Around(Node):
    """`around VAR in LIST [as LEFT] [until COND] { ... }`: turns round LIST,
    again and again, until fewer than two are left (or COND holds)."""
    var: str
    iter: Node
    left: str | None
    until: Node | None
    body: list


@dataclass(eq=False, repr=False)
class Cycle(Node):
    """`cycle ZONES`: each zone's components to the next zone of the list."""
    zones: Node
    log: Node | None = None


@dataclass(eq=False, repr=False)
class Drop(Node):
    """`drop X`: X goes round no more (the innermost `around`)."""
    value: Node


@dataclass(eq=False, repr=False)
class Return(Node):
    value: Node | None


@dataclass(eq=False, repr=False)
class Break(Node):
    pass


@dataclass(eq=False, repr=False)
class Continue(Node):
    pass


@dataclass(eq=False, repr=False)
class Log(Node):
    value: Node
    to: Node | None = None  # `log TEXT to SIDES`: only they may read it


@dataclass(eq=False, repr=False)
class Move(Node):
    what: Node
    dest: Node
    position: str  # top / bottom
    log: Node | None = None  # the event's own log line: a text, or x => text


@dataclass(eq=False, repr=False)
class Attach(Node):
    """`attach X to HOST`: X (a component or a list) lies with HOST."""
    what: Node
    host: Node


@dataclass(eq=False, repr=False)
class Detach(Node):
    """`detach X`: X no longer lies with its host (it stays where it is)."""
    what: Node


@dataclass(eq=False, repr=False)
class Place(Node):
    count: Node | None  # None means all
    piece: str
    owner: Node
    loc: Node
    log: Node | None = None


@dataclass(eq=False, repr=False)
class Remove(Node):
    count: Node | None
    piece: str
    owner: Node | None
    loc: Node


@dataclass(eq=False, repr=False)
class Transfer(Node):
    count: Node | None
    piece: str
    owner: Node
    src: Node
    dst: Node
    log: Node | None = None


@dataclass(eq=False, repr=False)
class Roll(Node):
    what: Node
    log: Node | None = None


@dataclass(eq=False, repr=False)
class Shuffle(Node):
    zone: Node


@dataclass(eq=False, repr=False)
class Draw(Node):
    count: Node
    src: Node
    dst: Node
    log: Node | None = None


@dataclass(eq=False, repr=False)
class Give(Node):
    count: Node | None
    piece: str
    giver: Node
    taker: Node
    log: Node | None = None


@dataclass(eq=False, repr=False)
class Pay(Node):
    amount: Node
    payer: Node
    payee: Node
    log: Node | None = None


@dataclass(eq=False, repr=False)
class Option(Node):
    label: Node
    fors: list  # [(var, expr)]
    cond: Node | None
    body: list
    prefer: Node | None = None


@dataclass(eq=False, repr=False)
class SomeOption(Node):
    """`some PICKED from X in LIST [where C] label L [min A] [max B] [when T]
    [prefer R] { body }`: one decision that picks several items."""
    picked: str
    var: str
    iter: Node
    cond: Node | None
    label: Node
    low: Node | None
    high: Node | None
    test: Node | None
    prefer: Node | None
    body: list
    ordered: bool = False  # `some PICKED in order`: one pick at a time, a list in that order


@dataclass(eq=False, repr=False)
class NumberOption(Node):
    """`number N from LOW to HIGH [by STEP] [prefer R] { body }`: the player
    enters a whole number (model/numbers.py)."""
    var: str
    low: Node
    high: Node
    step: Node | None
    prefer: Node | None
    body: list


@dataclass(eq=False, repr=False)
class Choose(Node):
    player: Node             # who chooses; with `each`, the list of those who do
    name: str | None
    may: bool
    prompt: "Str | None"  # may show values: `{p} offers {n}`
    options: list
    each: str | None = None  # `choose each P in LIST`: the name each chooser is bound to
    log: Node | None = None  # the decision's own log line: a text, or label => text


@dataclass(eq=False, repr=False)
class Trigger(Node):
    event: str
    args: list
    default: list | None
    targets: Node | None = None  # `trigger e(...) on X`: only X's handlers


@dataclass(eq=False, repr=False)
class Reveal(Node):
    what: Node
    to: Node


@dataclass(eq=False, repr=False)
class Window(Node):
    name: str
    args: list
    who: Node
    round_robin: bool
    after: list | None = None  # runs after each ability used


@dataclass(eq=False, repr=False)
class Turn(Node):
    player: Node
    body: list


@dataclass(eq=False, repr=False)
class Win(Node):
    who: Node


@dataclass(eq=False, repr=False)
class EndGame(Node):
    pass


@dataclass(eq=False, repr=False)
class ExprStmt(Node):
    expr: Node


# ---- top level ---------------------------------------------------------------
@dataclass(eq=False, repr=False)
class Game(Node):
    setup: list | None
    rounds_kind: str  # count / until / forever
    rounds_expr: Node | None
    phases: list  # [(name, span)]
    finish: list | None
    summary: list | None = None  # lines for the log at the end of each round
    # each listed phase's `when` condition (None: every round); [] when none has one
    phase_when: list = field(default_factory=list)


@dataclass(eq=False, repr=False)
class Phase(Node):
    name: str
    body: list
    override: bool = False


@dataclass(eq=False, repr=False)
class Func(Node):
    name: str
    params: list
    body: list
    override: bool = False


@dataclass(eq=False, repr=False)
class GamePart(Node):
    """`override setup { }` / `override finish { }` in an overlay."""
    part: str
    body: list


@dataclass(eq=False, repr=False)
class On(Node):
    event: str
    params: list
    instead: bool
    cond: Node | None
    priority: int
    body: list
    owner: str | None = None  # component id when written on a card


@dataclass(eq=False, repr=False)
class Ability(Node):
    label: str
    window: str
    params: list
    cond: Node | None
    body: list
    owner: str | None = None


@dataclass(eq=False, repr=False)
class Module(Node):
    items: list
