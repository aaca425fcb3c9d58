"""The checker's small type vocabulary and the built-in functions' signatures.

Types are strings: int bool str none any side space zone row table options
func, `comp` or `comp:KIND`, and `list:T`. `any` silences checks: the checker
reports only what it can know for sure.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

SCALARS = {"int", "bool", "str", "none"}


def list_of(t: str) -> str:
    return f"list:{t}"


def elem(t: str) -> str:
    if t.startswith("list:"):
        # a function kept in a list may have been replaced by anything: only
        # a lambda or a `let` of one is known to be a function
        return "any" if t == "list:func" else t[5:]
    if t == "zone":
        return "comp"
    return "any"


def is_list(t: str) -> bool:
    return t.startswith("list:") or t == "zone"


def compatible(a: str, b: str) -> bool:
    """Could a value of type a be used where b is expected (or compared with b)?"""
    if "any" in (a, b) or a == b:
        return True
    if "none" in (a, b):
        return a not in ("int", "bool", "str") or b not in ("int", "bool", "str")
    if a.startswith("comp") and b.startswith("comp"):
        return a == "comp" or b == "comp" or a == b
    if a.startswith("table") and b.startswith("table"):
        return True  # (tables and records: their fields are checked where read)
    if is_list(a) and is_list(b):
        return compatible(elem(a), elem(b))
    return False


def record_fields(t: str) -> list[str] | None:
    """The fields of a record's type (`table:{count,face}`), None for another."""
    if t.startswith("table:{") and t.endswith("}"):
        return [f for f in t[7:-1].split(",") if f]
    return None


def of_value(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, str):
        return "str"
    if v is None:
        return "any"  # a variable starting at none may hold anything later
    if isinstance(v, list):
        return list_of(of_value(v[0]) if v else "any")
    return "any"


@dataclass
class Builtin:
    min_args: int
    max_args: int  # -1: any number
    result: Callable[[list], str]
    doc: str
    game: bool = False  # reads the game's state (documentation only: every B_ takes G)
    fn_args: tuple = ()  # positions of arguments that must be functions (x => ...)
    keywords: tuple = ()  # `name: value` arguments it takes (each a function or a list of them)


def _first(args: list[str]) -> str:
    return elem(args[0]) if args else "any"


def _same_list(args: list[str]) -> str:
    return args[0] if args and is_list(args[0]) and args[0] != "zone" else list_of(_first(args))


def _const(t: str) -> Callable[[list[str]], str]:
    return lambda args: t


BUILTINS: dict[str, Builtin] = {
    "len": Builtin(1, 1, _const("int"), "number of items in a list or zone"),
    "count": Builtin(1, 2, _const("int"), "count(xs) items; count(xs, x => cond) matching items", fn_args=(1,)),
    "sum": Builtin(1, 2, _const("int"), "sum(xs) or sum(xs, x => value)", fn_args=(1,)),
    "max": Builtin(1, -1, lambda a: "int", "largest of numbers, or of a list"),
    "min": Builtin(1, -1, lambda a: "int", "smallest of numbers, or of a list"),
    "abs": Builtin(1, 1, _const("int"), "absolute value"),
    "max_by": Builtin(2, 2, _first, "first item with the largest key, none if empty", fn_args=(1,)),
    "min_by": Builtin(2, 2, _first, "first item with the smallest key, none if empty", fn_args=(1,)),
    "most": Builtin(2, 2, _same_list, "all items tied for the largest key", fn_args=(1,)),
    "fewest": Builtin(2, 2, _same_list, "all items tied for the smallest key", fn_args=(1,)),
    "filter": Builtin(2, 2, _same_list, "items for which the test holds", fn_args=(1,)),
    "map": Builtin(2, 2, _const("list:any"), "the function applied to every item", fn_args=(1,)),
    "sort_by": Builtin(2, 2, _same_list, "items ordered by key, smallest first (stable)", fn_args=(1,)),
    "sort": Builtin(1, 1, _same_list, "items in ascending order"),
    "sorted": Builtin(1, 1, _same_list, "sorted(xs, by: key or [keys]): ordered by several keys",
                      keywords=("by",)),
    "ranked": Builtin(1, 1, lambda a: list_of(_same_list(a)),
                      "ranked(xs, by: ...): groups of tied items, the smallest key first",
                      keywords=("by",)),
    "reverse": Builtin(1, 1, _same_list, "items in reverse order"),
    "first": Builtin(1, 2, _first, "first item (matching the test), none if there is none", fn_args=(1,)),
    "last": Builtin(1, 1, _first, "last item, none if empty"),
    "any": Builtin(1, 2, _const("bool"), "any(xs) or any(xs, x => test)", fn_args=(1,)),
    "every": Builtin(1, 2, _const("bool"), "every(xs) or every(xs, x => test)", fn_args=(1,)),
    "unique": Builtin(1, 1, _same_list, "items without repeats, first occurrence kept"),
    "distinct": Builtin(2, 2, _same_list, "the first item for each key: distinct(dice, d => d.value)", fn_args=(1,)),
    "group_by": Builtin(2, 2, lambda a: list_of(_same_list(a)),
                        "the items in lists of equal key, each in the order its key first "
                        "appears: group_by(dice, d => d.value)", fn_args=(1,)),
    "index_of": Builtin(2, 2, _const("int"), "position of an item (0-based), -1 if absent"),
    "rotate": Builtin(2, 2, _same_list, "the list starting at the given item, wrapping round"),
    "next_of": Builtin(2, 2, _first, "the item after the given one, wrapping round"),
    "range": Builtin(1, 2, _const("list:int"), "range(n): 0..n-1; range(a, b): a..b-1"),
    "str": Builtin(1, 1, _const("str"), "the value as text"),
    "joined": Builtin(1, 2, _const("str"), "joined(xs), joined(xs, \"or\"): the items in words, "
                      "\"a, b and c\""),
    "plural": Builtin(1, 2, _const("str"), "plural(word), plural(word, n): the word's plural; "
                      "with n, the word agreeing with n"),
    "space": Builtin(1, 1, _const("space"), "the board space with this id", game=True),
    "spaces": Builtin(0, 0, _const("list:space"), "every board space, in board order", game=True),
    "component": Builtin(1, 1, _const("comp"), "the component with this id", game=True),
    "components": Builtin(1, 1, _const("list:comp"), "every component of a kind", game=True),
    "track": Builtin(1, 1, _const("list:space"), "the spaces of a track, in order", game=True),
    "step": Builtin(3, 3, _const("space"), "step(track, space, n): n spaces along a track",
                    game=True),
    "distance": Builtin(3, 3, _const("int"), "distance(track, a, b): steps forward from a to b",
                        game=True),
    "linked": Builtin(2, 2, _const("list:space"), "linked(space, kind): spaces joined by links",
                      game=True),
    "players_from": Builtin(1, 1, _const("list:side"), "players in seat order from this one",
                            game=True),
    "others": Builtin(1, 1, _const("list:side"), "the other players", game=True),
    "random": Builtin(1, 1, _first, "an item picked at random (a chance event)", game=True),
    "shuffled": Builtin(1, 1, _same_list, "the items in a random order (a chance event)",
                        game=True),
    "cash": Builtin(1, 1, _const("int"), "the total value of a side's notes of money", game=True),
}
