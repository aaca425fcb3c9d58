"""The rule language's grammar at work: Lark LALR over rules.lark, with
positions; syntax errors become Diagnostics and the parse tree becomes the
AST (ast.py). parser.py is the way in; this module is loaded on demand.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from typing import Any, cast

from lark import Lark, Token, Transformer, Tree, v_args
from lark import __version__ as lark_version
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from . import ast as A
from ..support.diagnostics import Diagnostic, DiagnosticError
from ..support.diskcache import folder as cache_folder
from ..support.limits import MAX_NESTING, MAX_NUMBER
from .source import Source
from ..support.resources import grammar_text



class _Newlines:
    """Postlexer: newlines inside ( ) and [ ] are not statement ends, runs of
    newlines count once, and a newline before `elif` / `else` does not end the
    `if`; nor does one that plainly continues the line before (see below). It
    never buffers a token: the contextual lexer must see each token in
    the parser state it belongs to."""

    always_accept = ("_NL",)
    text = ""

    def process(self, stream):
        depth = 0
        last_nl = True
        last = None
        for tok in stream:
            if tok.type == "NAME" and tok.startswith("_"):
                raise _ReservedName(tok)
            if tok.type == "_NL":
                if depth or last_nl or last in _CONTINUES or \
                        _CONTINUE_AHEAD.match(self.text, tok.end_pos):
                    continue
                last_nl = True
            else:
                last_nl = False
                last = tok.type
                if tok.type in ("LPAR", "LSQB"):
                    depth += 1
                elif tok.type in ("RPAR", "RSQB"):
                    depth = max(depth - 1, 0)
            yield tok


# A line continues the previous one when that ended with an operator or comma,
# or when this one starts with a word or brace that cannot begin a statement.
_CONTINUE_AHEAD = re.compile(
    r"(?:[ \t\r\n;]|#[^\n]*)*(?:(?:elif|else|when|where|and|or|label|priority|prefer|after)\b|"
    r"(?:min|max)\b(?!\s*\()|\{|=>)")
_CONTINUES = {"COMMA", "AND", "OR", "ADDOP", "MULOP", "COMPOP", "EQUAL", "AUGOP", "NOT",
              "IN", "IF", "ELSE", "WHEN", "WHERE", "LABEL", "FOR", "FROM", "TO", "AT", "OF",
              "AS", "_ARROW", "MAY", "SOME", "MIN", "MAX", "ON", "REVEAL", "COLON", "AFTER"}

class _ReservedName(Exception):
    """A name starting with '_': those belong to the engine, never to rules."""

    def __init__(self, tok):
        super().__init__(str(tok))
        self.tok = tok


def _reserved(src: Source, e: _ReservedName) -> Diagnostic:
    line, col = src.pos(e.tok.line, e.tok.column)
    return Diagnostic(src.path, line, col, "SYNTAX",
                      f"names may not begin with '_' ({str(e.tok)!r})",
                      hint="names starting with '_' belong to the engine; rename it")


def _too_deep(src: Source, tree) -> Diagnostic | None:
    """The first node nested deeper than MAX_NESTING, walked without recursion
    (deep input must not exhaust Python's stack before it is reported)."""
    stack = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        if not isinstance(node, Tree):
            continue
        if d > MAX_NESTING:
            meta = node.meta
            line, col = (meta.line, meta.column) if not getattr(meta, "empty", True) else (1, 1)
            fl, fc = src.pos(line, col)
            return Diagnostic(src.path, fl, fc, "LIMIT",
                              f"rules nested more than {MAX_NESTING} levels deep",
                              hint="split the rule into functions")
        stack.extend((c, d + 1) for c in node.children)
    return None


def _parse(src: Source, text: str, start: str):
    """Parse, reporting a syntax error, a reserved name or too deep nesting."""
    parser = _lark()
    cast(_Newlines, parser.options.postlex).text = text
    try:
        tree = parser.parse(text, start=start)
    except _ReservedName as e:
        raise DiagnosticError(_reserved(src, e)) from None
    deep = _too_deep(src, tree)
    if deep is not None:
        raise DiagnosticError(deep)
    return tree


_parser = None


def _cache_file() -> str | bool:
    """Where Lark keeps the parser tables it computes from the grammar: a
    folder of the user's own (never a shared temporary folder: the file is
    a pickle), named after the grammar's content by Lark itself. False (no
    cache) when no such folder can be made."""
    where = cache_folder()
    if where is None:
        return False
    # the grammar, the Lark version and how this module builds the parser
    key = grammar_text().encode("utf-8") + lark_version.encode() + _lark.__code__.co_code
    return os.path.join(where, f"grammar-{hashlib.sha256(key).hexdigest()[:16]}.lark")


def _lark() -> Lark:
    global _parser
    if _parser is None:
        _parser = Lark(
            grammar_text(),
            parser="lalr",
            start=["start", "expr", "stmts"],
            propagate_positions=True,
            maybe_placeholders=True,
            postlex=_Newlines(),
            cache=_cache_file(),
        )
    return _parser


_FRIENDLY = {
    "RBRACE": "'}'", "LBRACE": "'{'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['",
    "RSQB": "']'", "NAME": "a name", "NUMBER": "a number", "STRING": "a string",
    "_NL": "end of line", "COMMA": "','", "EQUAL": "'='", "DOT": "'.'",
    "$END": "end of text", "COMPOP": "a comparison", "ADDOP": "'+' or '-'",
    "MULOP": "'*', '/' or '%'", "AUGOP": "'+=' or '-='",
    "MINUS": "'-'", "_ARROW": "'=>'", "POSITION": "'top' or 'bottom'",
}


def _describe(names) -> str:
    nice = []
    for n in sorted(names):
        if n in _FRIENDLY:
            nice.append(_FRIENDLY[n])
        elif n.isupper() and n.isalpha():
            nice.append(f"'{n.lower()}'")
        else:
            nice.append(n)
    nice = sorted(set(nice))
    if len(nice) > 8:
        nice = nice[:8] + ["..."]
    return ", ".join(nice)


def _syntax_error(src: Source, err: UnexpectedInput) -> Diagnostic:
    line, col = err.line, err.column
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "$END":
            what = "end of text"
        elif tok.type == "_NL":
            what = "end of line"
        else:
            what = repr(str(tok))
        wanted = _describe(err.accepts or err.expected)
        msg = f"unexpected {what}" + (f"; expected {wanted}" if wanted else "")
        if line is None or line < 0 or tok.type == "$END":
            # lark places the end token on the last token's start: point past the text
            lines = src.text.rstrip().splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
    elif isinstance(err, UnexpectedCharacters):
        msg = f"unexpected character {src.text[cast(int, err.pos_in_stream)]!r}"
        if err.allowed:
            msg += f"; expected {_describe(err.allowed)}"
    else:  # pragma: no cover - other lark errors
        msg = str(err).splitlines()[0]
    fl, fc = src.pos(line, col)
    return Diagnostic(src.path, fl, fc, "SYNTAX", msg, source_line=src.line_text(line) and
                      _file_line(src, line))


def _file_line(src: Source, line: int) -> str:
    text = src.line_text(line)
    if src.first_only and line == 1:
        return " " * src.col0 + text
    if not src.first_only:
        return " " * src.col0 + text
    return text


def _build(src: Source, tree):
    """Tree -> AST; a DiagnosticError raised while building (a bad string
    interpolation) comes out as itself, not wrapped in lark's VisitError."""
    try:
        return _Build(src).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, DiagnosticError):
            raise e.orig_exc from None
        raise


_LOOPS = (A.For, A.While, A.Repeat)
_BODIES = (A.Func, A.Phase, A.On, A.Ability, A.Game)  # each compiles to its own function


def _loose_jumps(node, in_loop: bool, out: list) -> list:
    """'break' / 'continue' statements that are not inside a loop."""
    if isinstance(node, (list, tuple)):
        for x in node:
            _loose_jumps(x, in_loop, out)
        return out
    if not isinstance(node, A.Node):
        return out
    if isinstance(node, (A.Break, A.Continue)) and not in_loop:
        out.append(node)
    if isinstance(node, _LOOPS):
        in_loop = True
    elif isinstance(node, (_BODIES, A.Window)):  # a window's `after` block is no loop of yours
        in_loop = False
    elif isinstance(node, A.Choose) and node.each:  # nor are the answers of `choose each`
        in_loop = False
    for name in getattr(node, "__dataclass_fields__", {}):
        if name != "span":
            _loose_jumps(getattr(node, name), in_loop, out)
    return out


def _check_jumps(tree) -> None:
    loose = _loose_jumps(tree, False, [])
    if loose:
        raise DiagnosticError([Diagnostic(
            n.span.path, n.span.line, n.span.col, "SYNTAX",
            f"'{'break' if isinstance(n, A.Break) else 'continue'}' outside a loop",
            hint="it may stand only inside 'for', 'while' or 'repeat'") for n in loose])


def _braces(text: str):
    """Each brace outside strings and comments: (kind, line, col, indent of
    its line, whether it starts its line), 1-based."""
    for i, line in enumerate(text.split("\n"), 1):
        code = re.sub(r'"([^"\\]|\\.)*"', lambda m: " " * len(m.group()), line)
        code = code.split("#", 1)[0]
        indent = len(code) - len(code.lstrip(" \t"))
        for j, ch in enumerate(code):
            if ch in "{}":
                yield ch, i, j + 1, indent, j == indent


def unclosed_brace(text: str, upto: int) -> tuple[int, int] | None:
    """The '{' (line, col) that seems never closed before line `upto`, or
    None (and None when the text has a '}' for every '{'). A '}' that starts
    its line closes, by its indentation, the '{' of
    the line indented alike: one that closes a '{' on a line indented more
    has passed over it, so that '{' is the one left open; failing that,
    the innermost '{' still open where the error is."""
    braces = list(_braces(text))
    if sum(1 if b[0] == "{" else -1 for b in braces) <= 0:
        return None  # every '{' has its '}': the mistake is something else
    stack = []
    for ch, line, col, indent, first in braces:
        if line > upto:
            break
        if ch == "{":
            stack.append((line, col, indent))
        elif stack:
            opened = stack.pop()
            if first and opened[2] > indent:
                return opened[:2]
    return stack[-1][:2] if stack else None


def _unclosed_advice(src: Source, first: Diagnostic) -> list:
    """A syntax error after a '{' that was never closed: name it, with its
    own line and a caret under it (the parser only notices later)."""
    line = first.line - src.line0
    found = unclosed_brace(src.text, line)
    if found is None or found[0] >= line:
        return [first]
    bl, bc = found
    fl, fc = src.pos(bl, bc)
    where = f"line {fl}"
    first = dataclasses.replace(first, hint=(first.hint + "; " if first.hint else "") +
                                f"the '{{' at {where} seems never closed")
    return [first, Diagnostic(src.path, fl, fc, "SYNTAX", "this '{' seems never closed: "
                              f"the error at line {first.line} comes after it",
                              severity="info", hint="close it with '}' where its block ends",
                              source_line=_file_line(src, bl))]


def parse_module(src: Source) -> A.Module:
    try:
        tree = _parse(src, src.text + "\n", "start")
    except UnexpectedInput as err:
        first = _syntax_error(src, err)
        raise DiagnosticError(_unclosed_advice(src, first) + _more_errors(src, first)[1:]) \
            from None
    module = _build(src, tree)
    _check_jumps(module)
    return module


def _chunks(text: str):
    """Split rule text into its top-level items: (first line index, text).
    Braces inside strings and comments do not count."""
    lines = text.split("\n")
    out, start, depth = [], None, 0
    for i, line in enumerate(lines):
        code = re.sub(r'"([^"\\]|\\.)*"', '""', line).split("#", 1)[0]
        if start is None and code.strip():
            start = i
        depth += code.count("{") - code.count("}")
        if start is not None and depth <= 0:
            out.append((start, "\n".join(lines[start:i + 1])))
            start, depth = None, 0
    if start is not None:
        out.append((start, "\n".join(lines[start:])))
    return out


def _more_errors(src: Source, first: Diagnostic) -> list:
    """After a syntax error, parse each top-level item on its own so that one
    mistake does not hide the others (one report per item at most)."""
    found = [first]
    if src.first_only:
        return found
    for line0, chunk in _chunks(src.text):
        sub = Source(src.path, chunk, src.line0 + line0, src.col0)
        try:
            _parse(sub, chunk + "\n", "start")
        except DiagnosticError as e:
            d = e.diagnostics[0]
            if all((d.line, d.col) != (f.line, f.col) for f in found) and d.line > first.line:
                found.append(d)
        except UnexpectedInput as err:
            d = _syntax_error(sub, err)
            if all((d.line, d.col) != (f.line, f.col) for f in found) and d.line > first.line:
                found.append(d)
    return found


def parse_stmts(src: Source) -> list:
    try:
        tree = _parse(src, src.text + "\n", "stmts")
    except UnexpectedInput as err:
        raise DiagnosticError(_syntax_error(src, err)) from None
    stmts = _build(src, tree)
    _check_jumps(stmts)
    return stmts


def parse_expr(src: Source) -> A.Node:
    try:
        tree = _parse(src, src.text, "expr")
    except UnexpectedInput as err:
        raise DiagnosticError(_syntax_error(src, err)) from None
    return _build(src, tree)


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
    def __init__(self, src: Source):
        super().__init__()
        self.src = src

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
        kind, expr, phases = "forever", None, []
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
                _, kind, expr, phases = p
        return A.Game(setup, kind, expr, phases, finish, summary, span=self._span(meta))

    def setup_part(self, meta, items):
        return ("setup", items[0])

    def finish_part(self, meta, items):
        return ("finish", items[0])

    def summary_part(self, meta, items):
        return ("summary", items[0])

    def rounds_part(self, meta, items):
        kind, expr = items[0]
        return ("rounds", kind, expr, [(str(t), self._tspan(t)) for t in items[1:] if t is not None])

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
        picked, var, it, cond, label, low, high, test, prefer, body = items
        return [A.SomeOption(str(picked), str(var), it, cond, label, low, high, test, prefer,
                             body, span=self._span(meta))]

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
                end = raw.find("}", i)
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
                parts.append(parse_expr(inner))
                i = end + 1
            else:
                buf.append(c)
                i += 1
        if buf:
            parts.append(_unescape("".join(buf)))
        return A.Str(parts, span=span)
