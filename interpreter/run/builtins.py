"""Python side of the language's built-in functions (see types.BUILTINS), and
the few helpers generated code calls.

Every function takes the game G first: work that grows with the size of a
list is paid for from the game's step budget (`spend`), so no rule can make
the engine work without end. A function argument (`x => ...`) is checked
to be a lambda written in the rules before anything calls it.
"""
from __future__ import annotations

from types import FunctionType
from typing import TYPE_CHECKING, Any, Callable

from ..model.logwords import plural
from ..model.state import Comp, FrozenList, RuleError, Side, Space, Zone, cut, display
from ..model.views import Secret, hidden_comps, hidden_knowers, plain, shown
from ..support.limits import MAX_LIST, MAX_NUMBER, MAX_TEXT
from .walkcost import nested_items, sort_times

if TYPE_CHECKING:
    from .gamestate import GameState

RULES_FILE = "<rules>"  # the file name of generated code, in tracebacks

__all__ = ["RuleError", "RULES_FILE", "namespace"]


def spend(G: GameState, n: int) -> None:
    """Pay n steps from the game's budget."""
    G.fuel -= n
    if G.fuel < 0:
        G.out_of_steps()


def fn(f: Any) -> Callable:
    """f, if it is a function written in the rules (a lambda); the check is
    what keeps Python callables out of the builtins that call their argument."""
    if type(f) is FunctionType and f.__code__.co_filename == RULES_FILE \
            and f.__code__.co_name == "<lambda>":
        return f
    raise RuleError(f"expected a function such as x => x.value, got {kind_of(f)}")


def kind_of(x: Any) -> str:
    if x is None:
        return "none"
    if isinstance(x, bool):
        return "true/false"
    if isinstance(x, int):
        return "a number"
    if isinstance(x, str):
        return "text"
    if isinstance(x, list):
        return "a list"
    if isinstance(x, dict):
        return "a table"
    names = {"Side": "a side", "Space": "a space", "Comp": "a component", "Zone": "a zone",
             "PieceRow": "a piece count"}
    return names.get(type(x).__name__, "a function" if callable(x) else "a value")


_M = MAX_NUMBER


def num(x: Any) -> int:
    """A number that came out of arithmetic on two unknowns: kept in range."""
    if type(x) is int and -MAX_NUMBER <= x <= MAX_NUMBER:
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        if -MAX_NUMBER <= x <= MAX_NUMBER:
            return int(x)
        raise RuleError(f"a number went past the limit of {MAX_NUMBER:,} "
                        "(does a value grow without end?)")
    raise RuleError(f"arithmetic needs numbers, got {kind_of(x)}")


def B_add(G: GameState, a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        return num(a + b)
    if isinstance(a, (list, Zone)) and isinstance(b, (list, Zone)):
        return B_concat(G, a, b)
    if isinstance(a, str) or isinstance(b, str):
        raise RuleError("text is joined with interpolation: \"{a}{b}\", not '+'")
    return num(num(a) + num(b))


# The helpers below take the common case (two numbers in range, a result in
# range) without the calls of num(); anything else goes the careful way.
def B_sub(G: GameState, a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int and -_M <= a <= _M and -_M <= b <= _M:
        r = a - b
        if -_M <= r <= _M:
            return r
    return num(num(a) - num(b))


def B_mul(G: GameState, a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int and -_M <= a <= _M and -_M <= b <= _M:
        r = a * b
        if -_M <= r <= _M:
            return r
    return num(num(a) * num(b))


def B_div(G: GameState, a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int and -_M <= a <= _M and -_M <= b <= _M and b:
        return a // b
    a, b = num(a), num(b)
    if b == 0:
        raise RuleError("division by zero")
    return a // b


def B_mod(G: GameState, a: Any, b: Any) -> int:
    a, b = num(a), num(b)
    if b == 0:
        raise RuleError("division by zero (in %)")
    return a % b


def B_concat(G: GameState, a: Any, b: Any) -> list:
    a, b = lst(a), lst(b)
    n = len(a) + len(b)
    if n > MAX_LIST:
        raise RuleError(f"a list grew past {MAX_LIST:,} items")
    spend(G, n)
    return a + b


def B_text(G: GameState, s: Any) -> str:
    """Text built by interpolation, kept under MAX_TEXT characters."""
    if len(s) > MAX_TEXT:
        raise RuleError(f"a text grew past {MAX_TEXT:,} characters")
    return s


def B_built(G: GameState, parts: Any) -> str:
    """A text built by interpolation (parts: text, value, text, value ...)
    whose values may hide something from some seat: a component lying where
    not everyone sees it (in lists too), a field of a card a secret decision
    picked (views.Sourced), another secret text. Then the text keeps its
    secret (views.Secret): its readers are those who may see every hidden
    thing in it, and everyone else reads it with each as 'a <kind>'. The
    words are those of the plain text the compiler would have joined."""
    words = [p if i % 2 == 0 else _in_text(G, p) for i, p in enumerate(parts)]
    return _kept(B_text(G, "".join(words)), parts)


def _kept(text: str, parts: Any) -> str:
    """`text`, made of `parts`, as a secret text when a value in them hides
    something from some seat (B_built)."""
    hidden = [h for v in parts[1::2] for h in hidden_comps(v)]
    if not hidden:
        return text
    readers = frozenset.intersection(*(frozenset(hidden_knowers(h)) for h in hidden))
    hide = set(hidden)
    others = "".join(p if i % 2 == 0 else shown(p, hide, _leaf) for i, p in enumerate(parts))
    return Secret(text, readers, cut(others))


# what a value of unknown type in a text is, when it can hide nothing (e_Str)
PLAIN = frozenset({str, int, bool, type(None), Side, Space})


def _in_text(G: GameState, v: Any) -> str:
    """A value's words inside a built text: what e_Str's joined code makes."""
    v = plain(v)
    t = type(v)
    if t is int:
        return str(v)
    if t is str or t is Secret:
        return v
    if t is Side or t is Space or t is Comp:
        return v.id
    return show(G, v)


def _leaf(v: Any) -> str:
    """A value the others may read, in a secret text's other words (a text as itself)."""
    return v if isinstance(v, str) else display(v)


def B_each(G: GameState, xs: Any) -> list:
    """What a comprehension walks: a list, or a snapshot of a zone, paid for."""
    return _paid(G, xs)


def B_in(G: GameState, x: Any, xs: Any) -> bool:
    if type(xs) is list or type(xs) is FrozenList:
        spend(G, len(xs))
        if isinstance(x, (list, dict)):  # each item compared with x, deeply
            nested_items(G, xs)
    try:
        return x in xs
    except TypeError:
        raise RuleError(f"'in' needs a list, zone, table or text, not {kind_of(xs)}") from None


def B_eq(G: GameState, a: Any, b: Any) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return False  # as Python's ==, without walking either
        spend(G, len(a))
        nested_items(G, a)  # lists inside are compared item by item too
    elif isinstance(a, dict) and isinstance(b, dict):
        nested_items(G, (a,))
    return a == b


def lst(x: Any) -> list:
    if type(x) is Zone:
        return list(x.items)
    if x is None:
        return []
    if isinstance(x, list):
        return list(x)
    raise RuleError(f"expected a list, got {kind_of(x)}")


def it(x: Any) -> list:
    """Iterate a list, or a snapshot of a zone (rules may move items while looping)."""
    if type(x) is Zone:
        return x.items[:]
    if isinstance(x, list):
        return x
    if x is None:
        raise RuleError("cannot loop over none")
    raise RuleError(f"cannot loop over {kind_of(x)}")


def show(G: GameState, x: Any) -> str:
    """A value inside a text ("{x}"): display(x), the common kinds first."""
    t = type(x)
    if t is int:
        return str(x)  # a number in range: short, never cut
    if t is str or t is Side or t is Space or t is Comp:
        text = x if t is str else x.id
        return text if len(text) <= MAX_TEXT else display(text)
    if isinstance(x, list):
        spend(G, len(x))
    return display(x)


def ztop(z: Zone) -> Comp | None:
    return z.items[0] if z.items else None


def items(G: GameState, z: Zone) -> list[Comp]:
    """zone.items: a copy, paid for by its length."""
    spend(G, len(z.items))
    return list(z.items)


def _paid(G: GameState, xs: Any) -> list:
    """The items of a list or zone, paid for (the hot path: spend() inlined)."""
    if type(xs) is Zone:
        xs = xs.items[:]
    elif not isinstance(xs, list):
        xs = it(xs)
    G.fuel -= len(xs) + 1
    if G.fuel < 0:
        G.out_of_steps()
    return xs


def B_len(G: GameState, x: Any) -> int:
    if type(x) is Zone:
        return len(x.items)
    if isinstance(x, (list, str, dict)):
        return len(x)
    raise RuleError(f"len() needs a list, zone or text, not {kind_of(x)}")


def B_count(G: GameState, xs: Any, pred: Any = None, trusted: bool = False) -> int:
    if pred is None:
        return B_len(G, xs)
    pred = pred if trusted else fn(pred)
    return sum(1 for x in _paid(G, xs) if pred(x))


def B_sum(G: GameState, xs: Any, key: Any = None, trusted: bool = False) -> int:
    xs = _paid(G, xs)
    if key is None:
        return num(sum(xs))
    key = key if trusted else fn(key)
    return num(sum(key(x) for x in xs))


class _InOrder:
    """A side, space or component as an ordering sees it: placed by its index
    (sort(xs) of sides, spaces, components) and equal only to itself. The
    entities themselves define no order, which keeps their == a plain
    identity test (a class with a Python `<` makes every == and `in` on its
    objects look methods up)."""

    __slots__ = ("e",)

    def __init__(self, e):
        self.e = e

    def __lt__(self, other):
        return self.e.index < other.e.index if type(other) is _InOrder else NotImplemented

    def __gt__(self, other):
        return self.e.index > other.e.index if type(other) is _InOrder else NotImplemented

    def __eq__(self, other):
        return type(other) is _InOrder and other.e is self.e

    def __ne__(self, other):
        return not (type(other) is _InOrder and other.e is self.e)

    __hash__ = None  # type: ignore[assignment]  # (unhashable, as mypy cannot say)


def _in_order(k):
    """k with every side, space and component in it placed by its index."""
    t = type(k)
    if t is Side or t is Space or t is Comp:
        return _InOrder(k)
    if t is list or t is FrozenList or t is tuple:
        return [_in_order(x) for x in k]
    return k


def _order(G, xs, ks):
    """The positions of xs by their keys ks, smallest first, ties in order
    (each key worked out once, before: a key may be a rule's function)."""
    at = range(len(xs))
    nested_items(G, ks, sort_times(len(ks)))
    try:
        return sorted(at, key=ks.__getitem__)
    except TypeError:  # sides, spaces or components among the keys
        ks = [_in_order(k) for k in ks]
        return sorted(at, key=ks.__getitem__)


def _ordered_keys(G, scan, xs, ks):
    """scan(xs, ks), again with entities placed by index if their keys
    cannot be compared as they are (the keys are worked out once, before)."""
    nested_items(G, ks)
    try:
        return scan(xs, ks)
    except TypeError:
        return scan(xs, [_in_order(k) for k in ks])


def _most_of(G, args, pick):
    xs = _paid(G, args[0]) if len(args) == 1 else args
    if not xs:
        return 0
    nested_items(G, xs)
    try:
        return pick(xs)
    except TypeError:
        return pick(xs, key=_in_order)


def B_max(G: GameState, *args: Any) -> Any:
    return _most_of(G, args, max)


def B_min(G: GameState, *args: Any) -> Any:
    return _most_of(G, args, min)


def B_abs(G: GameState, x: Any) -> int:
    return abs(num(x))


def _keyed(xs, key, trusted):
    key = key if trusted else fn(key)
    xs = xs if type(xs) is list else list(xs)
    return xs, [key(x) for x in xs]


def _best(more):
    def scan(xs, ks):
        best, bk = None, None
        for x, k in zip(xs, ks):
            if bk is None or (k > bk if more else k < bk):
                best, bk = x, k
        return best
    return scan


def _all_best(more):
    def scan(xs, ks):
        out, bk = [], None
        for x, k in zip(xs, ks):
            if bk is None or (k > bk if more else k < bk):
                out, bk = [x], k
            elif k == bk:
                out.append(x)
        return out
    return scan


_MAX_BY, _MIN_BY, _MOST, _FEWEST = _best(True), _best(False), _all_best(True), _all_best(False)


def B_max_by(G: GameState, xs: Any, key: Any, trusted: bool = False) -> Any:
    return _ordered_keys(G, _MAX_BY, *_keyed(_paid(G, xs), key, trusted))


def B_min_by(G: GameState, xs: Any, key: Any, trusted: bool = False) -> Any:
    return _ordered_keys(G, _MIN_BY, *_keyed(_paid(G, xs), key, trusted))


def B_most(G: GameState, xs: Any, key: Any, trusted: bool = False) -> list:
    return _ordered_keys(G, _MOST, *_keyed(_paid(G, xs), key, trusted))


def B_fewest(G: GameState, xs: Any, key: Any, trusted: bool = False) -> list:
    return _ordered_keys(G, _FEWEST, *_keyed(_paid(G, xs), key, trusted))


def B_filter(G: GameState, xs: Any, pred: Any, trusted: bool = False) -> list:
    pred = pred if trusted else fn(pred)
    return [x for x in _paid(G, xs) if pred(x)]


def B_map(G: GameState, xs: Any, f: Any, trusted: bool = False) -> list:
    f = f if trusted else fn(f)
    return [f(x) for x in _paid(G, xs)]


def B_sort_by(G: GameState, xs: Any, key: Any, trusted: bool = False) -> list:
    xs, ks = _keyed(_paid(G, xs), key, trusted)
    return [xs[i] for i in _order(G, xs, ks)]


def B_sort(G: GameState, xs: Any) -> list:
    xs = _paid(G, xs)
    nested_items(G, xs, sort_times(len(xs)))
    try:
        return sorted(xs)
    except TypeError:
        return sorted(xs, key=_in_order)


def _key(by, trusted):
    """`by:` is one function or a list of them: items compare on the first,
    then the next on a tie (a function may also return a list: [a, -b])."""
    if by is None:
        return None
    if isinstance(by, list):
        keys = [k if trusted else fn(k) for k in by]
        if not keys:
            raise RuleError("by: needs at least one function")
        return lambda x: [k(x) for k in keys]
    return by if trusted else fn(by)


def B_sorted(G: GameState, xs: Any, by: Any = None, trusted: bool = False) -> list:
    key = _key(by, trusted)
    xs = _paid(G, xs)
    ks = xs if key is None else [key(x) for x in xs]
    try:
        return [xs[i] for i in _order(G, xs, ks)]
    except TypeError:
        raise RuleError("sorted: these values cannot be put in order (mixed kinds, or none)") \
            from None


def B_ranked(G: GameState, xs: Any, by: Any = None, trusted: bool = False) -> list[list]:
    """The items in groups of equal keys, the smallest key first."""
    key = _key(by, trusted) or (lambda x: x)
    out: list[list]
    out, last = [], None
    xs = _paid(G, xs)
    ks = [key(x) for x in xs]
    try:
        ordered = [(ks[i], xs[i]) for i in _order(G, xs, ks)]
    except TypeError:
        raise RuleError("ranked: these values cannot be put in order (mixed kinds, or none)") \
            from None
    for k, x in ordered:
        if out and k == last:
            out[-1].append(x)
        else:
            out.append([x])
            last = k
    return out


def B_reverse(G: GameState, xs: Any) -> list:
    return lst(_paid(G, xs))[::-1]


def B_first(G: GameState, xs: Any, pred: Any = None, trusted: bool = False) -> Any:
    if pred is not None:
        pred = pred if trusted else fn(pred)
    for x in _paid(G, xs):
        if pred is None or pred(x):
            return x
    return None


def B_last(G: GameState, xs: Any) -> Any:
    xs = lst(xs)
    return xs[-1] if xs else None


def B_any(G: GameState, xs: Any, pred: Any = None, trusted: bool = False) -> bool:
    if pred is None:
        return any(_paid(G, xs))
    pred = pred if trusted else fn(pred)
    return any(pred(x) for x in _paid(G, xs))


def B_every(G: GameState, xs: Any, pred: Any = None, trusted: bool = False) -> bool:
    if pred is None:
        return all(_paid(G, xs))
    pred = pred if trusted else fn(pred)
    return all(pred(x) for x in _paid(G, xs))


def B_unique(G: GameState, xs: Any) -> list:
    seen, out = set(), []
    for x in _paid(G, xs):
        k = id(x) if isinstance(x, (Comp, Space)) else x
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def B_distinct(G: GameState, xs: Any, key: Any, trusted: bool = False) -> list:
    key = key if trusted else fn(key)
    seen, out = set(), []
    for x in _paid(G, xs):
        k = key(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def B_group_by(G: GameState, xs: Any, key: Any, trusted: bool = False) -> list[list]:
    key = key if trusted else fn(key)
    groups: dict[Any, list]
    out: list[list]
    groups, out = {}, []
    for x in _paid(G, xs):
        k = key(x)
        g = groups.get(k)
        if g is None:
            groups[k] = g = []
            out.append(g)
        g.append(x)
    return out


def _index(G, xs, x):
    if isinstance(x, (list, dict)):  # each item compared with x, deeply
        nested_items(G, xs)
    for i, y in enumerate(xs):
        if y is x or y == x:
            return i
    return -1


def B_index_of(G: GameState, xs: Any, x: Any) -> int:
    return _index(G, _paid(G, xs), x)


def B_rotate(G: GameState, xs: Any, x: Any) -> list:
    return _rotated(G, it(xs), x)  # a zone's items, a list as it is


def _rotated(G, xs, x):
    """A list from x on, then what came before x: paid for by its length
    (what _paid, lst and _index did in three calls; players_from() and ring
    orders rotate lists many times a game)."""
    G.fuel -= len(xs) + 1
    if G.fuel < 0:
        G.out_of_steps()
    if isinstance(x, (list, dict)):  # each item compared with x, deeply
        nested_items(G, xs)
    for i, y in enumerate(xs):
        if y is x or y == x:
            return xs[i:] + xs[:i]
    raise RuleError(f"rotate: {display(x)} is not in the list")


def B_next_of(G: GameState, xs: Any, x: Any) -> Any:
    xs = lst(_paid(G, xs))
    i = _index(G, xs, x)
    if i < 0:
        raise RuleError(f"next_of: {display(x)} is not in the list")
    return xs[(i + 1) % len(xs)]


def B_range(G: GameState, a: Any, b: Any = None) -> list[int]:
    lo, hi = (0, num(a)) if b is None else (num(a), num(b))
    if hi - lo > MAX_LIST:
        raise RuleError(f"range() of {hi - lo:,} numbers: a list holds at most {MAX_LIST:,}")
    spend(G, max(hi - lo, 0))
    return list(range(lo, hi))


def B_str(G: GameState, x: Any) -> str:
    return _kept(show(G, x), ("", x, ""))


def B_joined(G: GameState, xs: Any, word: Any = "and") -> str:
    """joined(xs), joined(xs, "or"): the items as words, "a, b and c" (a
    text built as interpolation builds one: what hides, stays hidden)."""
    items = _paid(G, xs)
    if type(word) is not str:
        raise RuleError(f"joined(xs, word): the word must be a text, not {kind_of(word)}")
    if not items:
        return "nothing"
    last = len(items) - 1
    parts: list = [""]
    for i, x in enumerate(items):
        parts += [x, "" if i == last else f" {word} " if i == last - 1 else ", "]
    return B_built(G, parts)


def B_plural(G: GameState, word: Any, n: Any = None) -> str:
    """plural("card") is "cards"; plural("card", n) agrees with n: "card"
    when n is 1 (or -1), "cards" otherwise."""
    word = plain(word)  # (a picked card's field: Sourced)
    if not isinstance(word, str):
        raise RuleError(f"plural(word, n): the word must be a text, not {kind_of(word)}")
    if n is not None and abs(num(n)) == 1:
        return word
    if type(word) is Secret:  # the plural keeps the secret, in both readings
        return Secret(plural(str(word)), word.readers, plural(word.others))
    return plural(str(word))


def B_space(G: GameState, sid: Any) -> Space:
    try:
        return G.spaces_by_id[sid]
    except (KeyError, TypeError):
        raise RuleError(f"no space {display(sid)!r}") from None


def B_spaces(G: GameState) -> list[Space]:
    spend(G, len(G.spaces))
    return list(G.spaces)


def B_component(G: GameState, cid: Any) -> Comp:
    try:
        return G.comps_by_id[cid]
    except (KeyError, TypeError):
        raise RuleError(f"no component {display(cid)!r}") from None


def B_components(G: GameState, kind: Any) -> list[Comp]:
    found = G.comps_by_kind.get(kind, ()) if isinstance(kind, str) else ()
    spend(G, len(found))
    return list(found)


def _track(G, name):
    try:
        return G.tracks[name]
    except (KeyError, TypeError):
        raise _no_track(name) from None


def _no_track(name):
    return RuleError(f"no track {display(name)!r}")


def B_track(G: GameState, name: Any) -> list[Space]:
    spaces = _track(G, name)[0]
    spend(G, len(spaces))
    return list(spaces)


def B_step(G: GameState, name: Any, space: Any, n: Any) -> Space:
    try:  # _track, without its call (step and distance are hot)
        spaces, loop, pos = G.tracks[name]
    except (KeyError, TypeError):
        raise _no_track(name) from None
    i = pos.get(space.index) if type(space) is Space else None
    if i is None:
        raise RuleError(f"{display(space)} is not on track {name!r}")
    j = i + (n if type(n) is int and -_M <= n <= _M else num(n))
    if loop:
        return spaces[j % len(spaces)]
    return spaces[max(0, min(j, len(spaces) - 1))]


def B_distance(G: GameState, name: Any, a: Any, b: Any) -> int:
    try:
        spaces, loop, pos = G.tracks[name]
    except (KeyError, TypeError):
        raise _no_track(name) from None
    if type(a) is not Space or type(b) is not Space or a.index not in pos or \
            b.index not in pos:
        raise RuleError(f"distance: both spaces must be on track {name!r}")
    d = pos[b.index] - pos[a.index]
    return d % len(spaces) if loop else d


def B_linked(G: GameState, space: Any, kind: Any) -> list[Space]:
    if type(space) is not Space:
        raise RuleError(f"linked: needs a space, got {kind_of(space)}")
    return list(map(G.spaces.__getitem__, space._links.get(kind, ())))  # indexes (engine)


def B_in_linked(G: GameState, x: Any, space: Any, kind: Any) -> bool:
    """`x in linked(space, kind)` (fast back end): the steps `in` pays for
    the list, without making it."""
    if type(space) is not Space:
        raise RuleError(f"linked: needs a space, got {kind_of(space)}")
    links = space._links.get(kind, ())
    G.fuel -= len(links)
    if G.fuel < 0:
        G.out_of_steps()
    return type(x) is Space and x.index in links and G.spaces[x.index] is x


def B_players_from(G: GameState, p: Any) -> list[Side]:
    return _rotated(G, G.players, p)


def B_others(G: GameState, p: Any) -> list[Side]:
    return [q for q in G.players if q is not p]


def B_random(G: GameState, xs: Any) -> Any:
    xs = lst(_paid(G, xs))
    if not xs:
        return None
    return xs[G.rng.randrange(len(xs))]


def B_shuffled(G: GameState, xs: Any) -> list:
    xs = lst(_paid(G, xs))
    G.rng.shuffle(xs)
    return xs


def B_cash(G: GameState, side: Any) -> int:
    total = 0
    for _, attr, value in G.program.money:
        total += getattr(side, attr) * value
    return total


class Around:
    """The turns of an `around` loop: who is still going round (`items`, a
    new list at each drop: rule lists never change in place) and whose turn
    it is. A turn moves on from the last one, or stays where it was when
    that one dropped out (the next in line has taken its place)."""

    __slots__ = ("items", "at", "stay")

    def __init__(self, items: list):
        self.items = items
        self.at = -1  # the index of the turn being taken
        self.stay = False  # the turn's taker dropped out: the next stands at `at`

    def turn(self) -> Any:
        if not self.stay:
            self.at += 1
        self.stay = False
        self.at %= len(self.items)
        return self.items[self.at]

    def drop(self, x: Any) -> None:
        items = self.items
        k = next((i for i, y in enumerate(items) if y is x), None)
        if k is None:
            k = next((i for i, y in enumerate(items) if y == x), None)
        if k is None:
            raise RuleError(f"cannot drop {display(x)}: it is not going round")
        self.items = items[:k] + items[k + 1:]
        if k < self.at:
            self.at -= 1
        elif k == self.at:
            self.stay = True


def namespace() -> dict:
    """Every name generated code may use, besides the game object G and the
    names the compiler itself defines. Python's builtins are not among them."""
    ns = {k: v for k, v in globals().items() if k.startswith("B_")}
    ns.update(lst=lst, it=it, show=show, ztop=ztop, items=items, fn=fn, num=num,
              spend=spend, len=len, sum=sum, list=list, range=range, str=str,
              any=any, all=all, next=next, set=set, min=min, max=max, paid=_paid,
              paidl=_paid, paidz=_paid, Secret=Secret, PLAIN=PLAIN, Comp=Comp,
              Around=Around)
    ns["__builtins__"] = {}
    return ns

