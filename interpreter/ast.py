"""Dataclass AST of the rule language. Every node carries the span it came from."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    path: str
    line: int
    col: int


NOWHERE = Span("<builtin>", 0, 0)


@dataclass
class Node:
    span: Span = field(default=NOWHERE, kw_only=True, compare=False, repr=False)


# ---- expressions -------------------------------------------------------------
@dataclass
class Num(Node):
    value: int


@dataclass
class Str(Node):
    parts: list  # str pieces and interpolated expressions


@dataclass
class Const(Node):
    value: object  # True, False or None


@dataclass
class Name(Node):
    id: str


@dataclass
class Attr(Node):
    obj: Node
    name: str


@dataclass
class Index(Node):
    obj: Node
    index: Node


@dataclass
class Call(Node):
    func: Node
    args: list


@dataclass
class Collect(Node):
    event: str
    args: list
    targets: Node | None = None  # `collect e(...) on X`: only X's handlers


@dataclass
class KeywordArg(Node):
    """`by: x => x.cost` in a call to a built-in that takes it."""
    name: str
    value: Node


@dataclass
class ListLit(Node):
    items: list


@dataclass
class Comprehension(Node):
    elt: Node
    var: str
    iter: Node
    cond: Node | None


@dataclass
class Lambda(Node):
    param: str
    body: Node


@dataclass
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass
class Compare(Node):
    op: str  # == != < <= > >= in notin
    left: Node
    right: Node


@dataclass
class BoolOp(Node):
    op: str  # and / or
    left: Node
    right: Node


@dataclass
class Not(Node):
    operand: Node


@dataclass
class Neg(Node):
    operand: Node


@dataclass
class Ternary(Node):
    cond: Node
    then: Node
    other: Node


# ---- statements --------------------------------------------------------------
@dataclass
class Let(Node):
    name: str
    value: Node


@dataclass
class Assign(Node):
    target: Node  # Name, Attr or Index
    value: Node
    op: str = "="  # = += -=


@dataclass
class If(Node):
    branches: list  # [(cond, body)]
    orelse: list | None


@dataclass
class For(Node):
    var: str
    iter: Node
    cond: Node | None
    body: list


@dataclass
class While(Node):
    cond: Node
    body: list


@dataclass
class Repeat(Node):
    count: Node
    body: list


@dataclass
class Return(Node):
    value: Node | None


@dataclass
class Break(Node):
    pass


@dataclass
class Continue(Node):
    pass


@dataclass
class Log(Node):
    value: Node
    to: Node | None = None  # `log TEXT to SIDES`: only they may read it


@dataclass
class Move(Node):
    what: Node
    dest: Node
    position: str  # top / bottom


@dataclass
class Place(Node):
    count: Node | None  # None means all
    piece: str
    owner: Node
    loc: Node


@dataclass
class Remove(Node):
    count: Node | None
    piece: str
    owner: Node | None
    loc: Node


@dataclass
class Transfer(Node):
    count: Node | None
    piece: str
    owner: Node
    src: Node
    dst: Node


@dataclass
class Roll(Node):
    what: Node


@dataclass
class Shuffle(Node):
    zone: Node


@dataclass
class Draw(Node):
    count: Node
    src: Node
    dst: Node


@dataclass
class Give(Node):
    count: Node | None
    piece: str
    giver: Node
    taker: Node


@dataclass
class Pay(Node):
    amount: Node
    payer: Node
    payee: Node


@dataclass
class Option(Node):
    label: Node
    fors: list  # [(var, expr)]
    cond: Node | None
    body: list
    prefer: Node | None = None


@dataclass
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


@dataclass
class Choose(Node):
    player: Node             # who chooses; with `each`, the list of those who do
    name: str | None
    may: bool
    prompt: str | None
    options: list
    each: str | None = None  # `choose each P in LIST`: the name each chooser is bound to


@dataclass
class Trigger(Node):
    event: str
    args: list
    default: list | None
    targets: Node | None = None  # `trigger e(...) on X`: only X's handlers


@dataclass
class Reveal(Node):
    what: Node
    to: Node


@dataclass
class Window(Node):
    name: str
    args: list
    who: Node
    round_robin: bool
    after: list | None = None  # runs after each ability used


@dataclass
class Turn(Node):
    player: Node
    body: list


@dataclass
class Win(Node):
    who: Node


@dataclass
class EndGame(Node):
    pass


@dataclass
class ExprStmt(Node):
    expr: Node


# ---- top level ---------------------------------------------------------------
@dataclass
class Game(Node):
    setup: list | None
    rounds_kind: str  # count / until / forever
    rounds_expr: Node | None
    phases: list  # [(name, span)]
    finish: list | None


@dataclass
class Phase(Node):
    name: str
    body: list
    override: bool = False


@dataclass
class Func(Node):
    name: str
    params: list
    body: list
    override: bool = False


@dataclass
class GamePart(Node):
    """`override setup { }` / `override finish { }` in an overlay."""
    part: str
    body: list


@dataclass
class On(Node):
    event: str
    params: list
    instead: bool
    cond: Node | None
    priority: int
    body: list
    owner: str | None = None  # component id when written on a card


@dataclass
class Ability(Node):
    label: str
    window: str
    params: list
    cond: Node | None
    body: list
    owner: str | None = None


@dataclass
class Module(Node):
    items: list
