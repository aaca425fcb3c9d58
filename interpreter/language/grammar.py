"""The rule language's grammar at work: Lark LALR over rules.lark, with
positions; syntax errors become Diagnostics and the parse tree becomes the
AST (ast.py). parser.py is the way in; this module is loaded on demand.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from typing import cast

from lark import Lark, Tree
from lark import __version__ as lark_version
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from . import ast as A
from ..support.diagnostics import Diagnostic, DiagnosticError
from ..support.diskcache import folder as cache_folder
from ..support.limits import MAX_NESTING
from .build import _Build
from .source import Source
from ..support.resources import grammar_text



class _Newlines:
    """Postlexer: newlines inside ( ) and [ ] are not statement ends, runs of
    newlines count once, and a newline before `elif` / `else` does not end the
    `if`; nor does one that plainly continues the line before (see below), nor
    any inside the head of a `choose` or an `option` (from the word to the
    `{` of its block, which holds no statement end). It never buffers a
    token: the contextual lexer must see each token in the parser state it
    belongs to."""

    always_accept = ("_NL",)
    text = ""

    def process(self, stream):
        depth = 0
        last_nl = True
        last = None
        head = False  # inside a choose's or an option's head
        for tok in stream:
            if tok.type == "NAME" and tok.startswith("_"):
                raise _ReservedName(tok)
            if tok.type == "_NL":
                if depth or head or last_nl or last in _CONTINUES or \
                        _CONTINUE_AHEAD.match(self.text, tok.end_pos):
                    continue
                last_nl = True
            else:
                last_nl = False
                last = tok.type
                if tok.type in ("CHOOSE", "OPTION"):
                    head = True
                elif tok.type == "LBRACE":
                    head = False
                elif tok.type in ("LPAR", "LSQB"):
                    depth += 1
                elif tok.type in ("RPAR", "RSQB"):
                    depth = max(depth - 1, 0)
            yield tok


# A line continues the previous one when that ended with an operator or comma,
# or when this one starts with a word or brace that cannot begin a statement.
_CONTINUE_AHEAD = re.compile(
    r"(?:[ \t\r\n;]|#[^\n]*)*(?:(?:elif|else|when|where|and|or|label|priority|prefer|after|until)\b|"
    r"(?:min|max)\b(?!\s*\()|\{|=>)")
_CONTINUES = {"COMMA", "AND", "OR", "ADDOP", "MULOP", "COMPOP", "EQUAL", "AUGOP", "NOT",
              "IN", "IF", "ELSE", "WHEN", "WHERE", "LABEL", "FOR", "FROM", "TO", "AT", "OF",
              "AS", "_ARROW", "MAY", "SOME", "MIN", "MAX", "ON", "REVEAL", "COLON", "AFTER"}

class _ReservedName(Exception):
    """A name starting with '_': those belong to the engine, never to rules."""

    def __init__(self, tok):
        super().__init__(str(tok))
        self.tok = tok


# a quoted text, as the grammar's STRING reads it (texts inside a text's
# `{...}` included): what the brace counters below step over
TEXT = re.compile(r'"(?:[^"\\\n{]|\\.|\{\{|\{(?:[^"{}\n]|"(?:[^"\\\n]|\\.)*+")*+\}|\{)*+"')


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
        return _Build(src, parse_expr).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, DiagnosticError):
            raise e.orig_exc from None
        raise


_LOOPS = (A.For, A.While, A.Repeat, A.Around)
_BODIES = (A.Func, A.Phase, A.On, A.Ability, A.Game)  # each compiles to its own function


def _loose_jumps(node, in_loop: bool, out: list, around: bool = False) -> list:
    """'break' / 'continue' statements that are not inside a loop, and
    'drop' statements that are not inside an `around`."""
    if isinstance(node, (list, tuple)):
        for x in node:
            _loose_jumps(x, in_loop, out, around)
        return out
    if not isinstance(node, A.Node):
        return out
    if isinstance(node, (A.Break, A.Continue)) and not in_loop:
        out.append(node)
    if isinstance(node, A.Drop) and not around:
        out.append(node)
    if isinstance(node, _LOOPS):
        in_loop = True
        if isinstance(node, A.Around):
            around = True
    elif isinstance(node, _BODIES):
        in_loop = around = False
    elif isinstance(node, A.Window):  # a window's `after` block is no loop of yours
        in_loop = False
    elif isinstance(node, A.Choose) and node.each:  # nor are the answers of `choose each`
        in_loop = False
    for name in getattr(node, "__dataclass_fields__", {}):
        if name != "span":
            _loose_jumps(getattr(node, name), in_loop, out, around)
    return out


def _check_jumps(tree) -> None:
    loose = _loose_jumps(tree, False, [])
    if loose:
        raise DiagnosticError([Diagnostic(
            n.span.path, n.span.line, n.span.col, "SYNTAX",
            "'drop' outside an 'around' loop", hint="drop takes one out of the turns of "
            "the 'around' it stands in") if isinstance(n, A.Drop) else Diagnostic(
            n.span.path, n.span.line, n.span.col, "SYNTAX",
            f"'{'break' if isinstance(n, A.Break) else 'continue'}' outside a loop",
            hint="it may stand only inside 'for', 'while', 'repeat' or 'around'")
            for n in loose])


def _braces(text: str):
    """Each brace outside strings and comments: (kind, line, col, indent of
    its line, whether it starts its line), 1-based."""
    for i, line in enumerate(text.split("\n"), 1):
        code = TEXT.sub(lambda m: " " * len(m.group()), line)
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
        code = TEXT.sub('""', line).split("#", 1)[0]
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
