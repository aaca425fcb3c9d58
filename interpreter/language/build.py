"""The parse tree becomes the AST: one method per grammar rule (rules.lark),
each building the node (ast.py) with its place in the file."""
from __future__ import annotations

from typing import Any

from lark import Token, Transformer, v_args

from . import ast as A
from ..support.diagnostics import Diagnostic, DiagnosticError
from ..support.limits import MAX_NUMBER
from .source import Source


def _unescape(body: str) -> str:
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


@v_args(meta=True)
class _Build(Transformer):
    """Tree -> AST for one Source; `parse_expr` parses the expressions
    written inside a string's braces (given by grammar.py, which this
    module does not import)."""

    def __init__(self, src: Source, parse_expr):
        super().__init__()
        self.src = src
        self.parse_expr = parse_expr

    def _span(self, meta) -> A.Span:
        if getattr(meta, "empty", True):
            return A.Span(self.src.path, self.src.line0 + 1, self.src.col0 + 1)
        line, col = self.src.pos(meta.line, meta.column)
        return A.Span(self.src.path, line, col)

    def _tspan(self, tok: Any) -> A.Span:  # a Token (its line and column are set)
        line, col = self.src.pos(tok.line, tok.column)
        return A.Span(self.src.path, line, col)

    # -- top level
    def start(self, meta, items):
        flat = []
        for i in items:  # an ability at several windows is one ability per window
            if isinstance(i, list):
                flat.extend(i)
            elif i is not None:
                flat.append(i)
        return A.Module(flat, span=self._span(meta))

    def game_def(self, meta, parts):
        setup = finish = summary = None
        kind, expr, phases, when = "forever", None, [], []
        for p in parts:
            if p is None:
                continue
            if p[0] == "setup":
                setup = p[1]
            elif p[0] == "finish":
                finish = p[1]
            elif p[0] == "summary":
                summary = p[1]
            else:
                _, kind, expr, listed = p
                phases = [(name, span) for name, span, _ in listed]
                when = [cond for _, _, cond in listed]
        return A.Game(setup, kind, expr, phases, finish, summary,
                      phase_when=when if any(c is not None for c in when) else [],
                      span=self._span(meta))

    def setup_part(self, meta, items):
        return ("setup", items[0])

    def finish_part(self, meta, items):
        return ("finish", items[0])

    def summary_part(self, meta, items):
        return ("summary", items[0])

    def rounds_part(self, meta, items):
        kind, expr = items[0]
        return ("rounds", kind, expr, [t for t in items[1:] if t is not None])

    def round_phase(self, meta, items):
        return (str(items[0]), self._tspan(items[0]), items[1])

    def rounds_count(self, meta, items):
        return ("count", items[0])

    def rounds_until(self, meta, items):
        return ("until", items[0])

    def rounds_forever(self, meta, items):
        return ("forever", None)

    def phase_def(self, meta, items):
        return A.Phase(str(items[0]), items[1], span=self._span(meta))

    def func_def(self, meta, items):
        name, params, body = items
        return A.Func(str(name), params or [], body, span=self._span(meta))

    def params(self, meta, items):
        return [str(t) for t in items]

    def on_def(self, meta, items):
        name, params, instead, cond, prio, body = items
        return A.On(str(name), params or [], instead is not None, cond, prio or 0, body,
                    span=self._span(meta))

    def ability_def(self, meta, items):
        label, *refs, cond, body = items
        out = [A.Ability(self._string(label), window, params, cond, body, span=self._span(meta))
               for window, params in refs]
        return out[0] if len(out) == 1 else out

    def window_ref(self, meta, items):
        return (str(items[0]), items[1] or [])

    def when(self, meta, items):
        return items[0]

    def where(self, meta, items):
        return items[0]

    def priority(self, meta, items):
        return items[0]

    def pos_int(self, meta, items):
        return int(items[0])

    def neg_int(self, meta, items):
        return -int(items[0])

    def block(self, meta, items):
        return [i for i in items if i is not None]

    def stmts(self, meta, items):
        return [i for i in items if i is not None]

    # -- statements
    def let_stmt(self, meta, items):
        return A.Let(str(items[0]), items[1], span=self._span(meta))

    def assign_stmt(self, meta, items):
        return A.Assign(items[0], items[1], "=", span=self._span(meta))

    def augassign_stmt(self, meta, items):
        return A.Assign(items[0], items[2], str(items[1]), span=self._span(meta))

    def target_name(self, meta, items):
        return A.Name(str(items[0]), span=self._span(meta))

    def target_attr(self, meta, items):
        return A.Attr(items[0], str(items[1]), span=self._span(meta))

    def target_index(self, meta, items):
        return A.Index(items[0], items[1], span=self._span(meta))

    def if_stmt(self, meta, items):
        cond, body, *rest = items
        orelse = rest.pop() if rest and (rest[-1] is None or rest[-1][0] == "else") else None
        branches = [(cond, body)] + [(c, b) for _, c, b in rest]
        return A.If(branches, orelse[1] if orelse else None, span=self._span(meta))

    def elif_part(self, meta, items):
        return ("elif", items[0], items[1])

    def else_part(self, meta, items):
        return ("else", items[0])

    def for_stmt(self, meta, items):
        var, it, cond, body = items
        return A.For(str(var), it, cond, body, span=self._span(meta))

    def while_stmt(self, meta, items):
        return A.While(items[0], items[1], span=self._span(meta))

    def repeat_stmt(self, meta, items):
        return A.Repeat(items[0], items[1], span=self._span(meta))

    def around_stmt(self, meta, items):
        var, it, left, until, body = items
        return A.Around(str(var), it, None if left is None else str(left), until, body,
                        span=self._span(meta))

    def cycle_stmt(self, meta, items):
        return A.Cycle(items[0], items[1], span=self._span(meta))

    def drop_stmt(self, meta, items):
        return A.Drop(items[0], span=self._span(meta))

    def return_stmt(self, meta, items):
        return A.Return(items[0], span=self._span(meta))

    def break_stmt(self, meta, items):
        return A.Break(span=self._span(meta))

    def continue_stmt(self, meta, items):
        return A.Continue(span=self._span(meta))

    def log_stmt(self, meta, items):
        return A.Log(items[0], items[1], span=self._span(meta))

    def move_stmt(self, meta, items):
        what, dest, pos, log = items
        return A.Move(what, dest, str(pos) if pos else "top", log, span=self._span(meta))

    def attach_stmt(self, meta, items):
        return A.Attach(items[0], items[1], span=self._span(meta))

    def detach_stmt(self, meta, items):
        return A.Detach(items[0], span=self._span(meta))

    def log_clause(self, meta, items):
        return items[0]

    def count(self, meta, items):
        item = items[0]
        return None if isinstance(item, Token) and item.type == "ALL" else item

    def place_stmt(self, meta, items):
        n, piece, owner, loc, log = items
        return A.Place(n, str(piece), owner, loc, log, span=self._span(meta))

    def remove_stmt(self, meta, items):
        n, piece, owner, loc = items
        return A.Remove(n, str(piece), owner, loc, span=self._span(meta))

    def transfer_stmt(self, meta, items):
        n, piece, owner, src, dst, log = items
        return A.Transfer(n, str(piece), owner, src, dst, log, span=self._span(meta))

    def roll_stmt(self, meta, items):
        return A.Roll(items[0], items[1], span=self._span(meta))

    def shuffle_stmt(self, meta, items):
        return A.Shuffle(items[0], span=self._span(meta))

    def draw_stmt(self, meta, items):
        return A.Draw(*items, span=self._span(meta))

    def give_stmt(self, meta, items):
        n, piece, a, b, log = items
        return A.Give(n, str(piece), a, b, log, span=self._span(meta))

    def pay_stmt(self, meta, items):
        return A.Pay(*items, span=self._span(meta))

    def choose_stmt(self, meta, items):
        (each, player), head, options = items
        name, may, prompt, log = head
        return A.Choose(player, name, may, prompt, options, each, log, span=self._span(meta))

    def may_stmt(self, meta, items):
        _, player, name, label, prefer, body = items
        span = self._span(meta)
        return A.Choose(player, str(name) if name else None, True, None,
                        [A.Option(self._interpolated(label), [], None, body, prefer, span=span)],
                        span=span)

    def chooser_one(self, meta, items):
        return None, items[0]

    def chooser_each(self, meta, items):
        return str(items[0]), items[1]

    def choose_head(self, meta, items):
        name, may, prompt, log = items
        return (str(name) if name else None, may is not None,
                self._interpolated(prompt) if prompt else None, log)

    def choose_menu(self, meta, items):
        return [i for i in items if i is not None]

    def choose_from(self, meta, items):
        var, it, cond, label, prefer, body = items
        return [A.Option(label, [(str(var), it)], cond, body, prefer, span=self._span(meta))]

    def choose_some(self, meta, items):
        picked, order, var, it, cond, label, low, high, test, prefer, body = items
        return [A.SomeOption(str(picked), str(var), it, cond, label, low, high, test, prefer,
                             body, order is not None, span=self._span(meta))]

    def in_order(self, meta, items):
        return True

    def choose_number(self, meta, items):
        return [items[0]]

    def number_entry(self, meta, items):
        var, low, high, step, prefer, body = items
        return A.NumberOption(str(var), low, high, step, prefer, body, span=self._span(meta))

    def number_by(self, meta, items):
        return items[0]

    def some_min(self, meta, items):
        return items[0]

    def some_max(self, meta, items):
        return items[0]

    def option(self, meta, items):
        label, fors, cond, prefer, body = items
        return A.Option(label, fors or [], cond, body, prefer, span=self._span(meta))

    def prefer(self, meta, items):
        return items[0]

    def override_def(self, meta, items):
        item = items[0]
        if isinstance(item, tuple):  # setup_part / finish_part
            return A.GamePart(item[0], item[1], span=self._span(meta))
        item.override = True
        item.span = self._span(meta)
        return item

    def option_for(self, meta, items):
        return [(str(items[i]), items[i + 1]) for i in range(0, len(items), 2)]

    def trigger_stmt(self, meta, items):
        name, args, targets, default = items
        return A.Trigger(str(name), self._positional(args), default, targets,
                         span=self._span(meta))

    def on_targets(self, meta, items):
        return items[0]

    def reveal_stmt(self, meta, items):
        return A.Reveal(items[0], items[1], span=self._span(meta))

    def window_stmt(self, meta, items):
        name, args, (who, rr), after = items
        return A.Window(str(name), self._positional(args), who, rr, after, span=self._span(meta))

    def window_after(self, meta, items):
        return items[0]

    def window_one(self, meta, items):
        return (items[0], False)

    def window_round(self, meta, items):
        return (items[0], True)

    def turn_stmt(self, meta, items):
        return A.Turn(items[0], items[1], span=self._span(meta))

    def win_stmt(self, meta, items):
        return A.Win(items[0], span=self._span(meta))

    def end_stmt(self, meta, items):
        return A.EndGame(span=self._span(meta))

    def expr_stmt(self, meta, items):
        return A.ExprStmt(items[0], span=self._span(meta))

    # -- expressions
    def lambda_(self, meta, items):  # pragma: no cover - name clash guard
        return self.__default__("lambda", items, meta)

    def ternary(self, meta, items):
        then, cond, other = items
        return A.Ternary(cond, then, other, span=self._span(meta))

    def or_op(self, meta, items):
        return A.BoolOp("or", items[0], items[1], span=self._span(meta))

    def and_op(self, meta, items):
        return A.BoolOp("and", items[0], items[1], span=self._span(meta))

    def not_op(self, meta, items):
        return A.Not(items[0], span=self._span(meta))

    def compare(self, meta, items):
        return A.Compare(str(items[1]), items[0], items[2], span=self._span(meta))

    def in_op(self, meta, items):
        return A.Compare("in", items[0], items[1], span=self._span(meta))

    def not_in_op(self, meta, items):
        return A.Compare("notin", items[0], items[1], span=self._span(meta))

    def binop(self, meta, items):
        return A.BinOp(str(items[1]), items[0], items[2], span=self._span(meta))

    def neg(self, meta, items):
        return A.Neg(items[0], span=self._span(meta))

    def attr(self, meta, items):
        return A.Attr(items[0], str(items[1]), span=self._span(meta))

    def index(self, meta, items):
        return A.Index(items[0], items[1], span=self._span(meta))

    def call(self, meta, items):
        return A.Call(items[0], items[1] or [], span=self._span(meta))

    def collect(self, meta, items):
        return A.Collect(str(items[0]), self._positional(items[1]),
                         items[2] if len(items) > 2 else None, span=self._span(meta))

    def args(self, meta, items):
        return list(items)

    def keyword_arg(self, meta, items):
        return A.KeywordArg(str(items[0]), items[1], span=self._span(meta))

    def _positional(self, args):
        """Arguments where `name: value` has no place (lists, events, windows)."""
        for a in args or []:
            if isinstance(a, A.KeywordArg):
                raise DiagnosticError(Diagnostic(
                    a.span.path, a.span.line, a.span.col, "SYNTAX",
                    f"'{a.name}: ...' names an argument of a built-in function; it has no "
                    "place here", hint="write the value alone"))
        return list(args or [])

    def number(self, meta, items):
        digits = str(items[0]).lstrip("0") or "0"
        if len(digits) > len(str(MAX_NUMBER)) or int(digits) > MAX_NUMBER:
            line, col = self.src.pos(items[0].line, items[0].column)
            raise DiagnosticError(Diagnostic(
                self.src.path, line, col, "LIMIT",
                f"number too large: rules count up to {MAX_NUMBER:,}"))
        return A.Num(int(digits), span=self._span(meta))

    def string(self, meta, items):
        return self._interpolated(items[0])

    def true(self, meta, items):
        return A.Const(True, span=self._span(meta))

    def false(self, meta, items):
        return A.Const(False, span=self._span(meta))

    def none(self, meta, items):
        return A.Const(None, span=self._span(meta))

    def name(self, meta, items):
        return A.Name(str(items[0]), span=self._span(meta))

    def list(self, meta, items):
        return A.ListLit(self._positional(items[0]), span=self._span(meta))

    def comprehension(self, meta, items):
        elt, var, it, cond = items
        return A.Comprehension(elt, str(var), it, cond, span=self._span(meta))

    def __default__(self, data, children, meta):
        if data == "lambda":
            return A.Lambda(str(children[0]), children[1], span=self._span(meta))
        raise NotImplementedError(data)  # pragma: no cover - grammar/AST mismatch

    # -- strings
    def _string(self, tok) -> str:
        return _unescape(str(tok)[1:-1])

    def _interpolated(self, tok: Token) -> A.Str:
        raw = str(tok)[1:-1]
        span = self._tspan(tok)
        parts: list = []
        buf, i = [], 0
        while i < len(raw):
            c = raw[i]
            if c == "\\" and i + 1 < len(raw):
                buf.append(raw[i:i + 2])
                i += 2
            elif c == "{" and raw.startswith("{{", i):
                buf.append("{")
                i += 2
            elif c == "}" and raw.startswith("}}", i):
                buf.append("}")
                i += 2
            elif c == "{":
                end = _closing(raw, i)
                if end < 0:
                    line, col = span.line, span.col + 1 + i
                    raise DiagnosticError(Diagnostic(
                        self.src.path, line, col, "SYNTAX",
                        "unclosed '{' in string; write '{{' for a literal brace"))
                if buf:
                    parts.append(_unescape("".join(buf)))
                    buf = []
                inner = Source(self.src.path, raw[i + 1:end], span.line - 1,
                               span.col + i + 1, first_only=True)
                parts.append(self.parse_expr(inner))
                i = end + 1
            else:
                buf.append(c)
                i += 1
        if buf:
            parts.append(_unescape("".join(buf)))
        return A.Str(parts, span=span)


def _closing(raw: str, i: int) -> int:
    """Where the `{` at raw[i] of a text closes (-1: never), stepping over the
    texts the inserted expression holds ("{plural("card", n)}")."""
    j, quoted = i + 1, False
    while j < len(raw):
        c = raw[j]
        if quoted and c == "\\":
            j += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c == "}" and not quoted:
            return j
        j += 1
    return -1
