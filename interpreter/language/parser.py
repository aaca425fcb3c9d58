"""Rule text -> AST. Lark LALR with positions; syntax errors become Diagnostics.

Rule text may come from a `.rules` file or from a YAML string (a card's
`rules:`); a `Source` says where the text sits in its file so that every
position reported is a real `path:line:col`.

The parser itself (grammar.py, and Lark under it) is imported only when a
text is not in the disk cache: a run that finds every text there never
loads it.
"""
from __future__ import annotations

from . import ast as A
from ..support.diskcache import cached
from .source import Source

__all__ = ["Source", "parse", "parse_expr", "parse_stmts"]


# Parsed modules by source (path, text and place): a run that loads a
# ruleset several times (each variant and overlay on top of the base)
# parses each text once. A module is never changed after it is built.
_PARSED: dict = {}
_PARSED_MAX = 4096


def parse(src: Source) -> A.Module:
    key = (src.path, src.text, src.line0, src.col0, src.first_only)
    hit = _PARSED.get(key)
    if hit is not None:
        return hit
    module = cached("rules", key, lambda: _grammar().parse_module(src))
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    _PARSED[key] = module
    return module


def parse_stmts(src: Source) -> list:
    """A scenario's statements."""
    return _grammar().parse_stmts(src)


def parse_expr(src: Source) -> A.Node:
    """One expression (a scenario's check)."""
    return _grammar().parse_expr(src)


def _grammar():
    from . import grammar

    return grammar
