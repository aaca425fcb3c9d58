"""Python side of the language's built-in functions (see types.BUILTINS)."""
from __future__ import annotations

from .state import Comp, Space, Zone, display


class RuleError(Exception):
    """A rule did something impossible at run time; the message is for designers."""


def lst(x):
    if type(x) is Zone:
        return list(x.items)
    if x is None:
        return []
    return list(x)


def it(x):
    """Iterate a list, or a snapshot of a zone (rules may move items while looping)."""
    if type(x) is Zone:
        return x.items[:]
    if x is None:
        raise RuleError("cannot loop over none")
    return x


def show(x):
    return display(x)


def ztop(z):
    return z.items[0] if z.items else None


def B_len(x):
    return len(x.items) if type(x) is Zone else len(x)


def B_count(xs, pred=None):
    if pred is None:
        return B_len(xs)
    return sum(1 for x in it(xs) if pred(x))


def B_sum(xs, key=None):
    if key is None:
        return sum(it(xs))
    return sum(key(x) for x in it(xs))


def B_max(*args):
    if len(args) == 1:
        xs = lst(args[0])
        return max(xs) if xs else 0
    return max(args)


def B_min(*args):
    if len(args) == 1:
        xs = lst(args[0])
        return min(xs) if xs else 0
    return min(args)


def B_abs(x):
    return abs(x)


def B_max_by(xs, key):
    best, bk = None, None
    for x in it(xs):
        k = key(x)
        if bk is None or k > bk:
            best, bk = x, k
    return best


def B_min_by(xs, key):
    best, bk = None, None
    for x in it(xs):
        k = key(x)
        if bk is None or k < bk:
            best, bk = x, k
    return best


def B_most(xs, key):
    out, bk = [], None
    for x in it(xs):
        k = key(x)
        if bk is None or k > bk:
            out, bk = [x], k
        elif k == bk:
            out.append(x)
    return out


def B_fewest(xs, key):
    out, bk = [], None
    for x in it(xs):
        k = key(x)
        if bk is None or k < bk:
            out, bk = [x], k
        elif k == bk:
            out.append(x)
    return out


def B_filter(xs, pred):
    return [x for x in it(xs) if pred(x)]


def B_map(xs, f):
    return [f(x) for x in it(xs)]


def B_sort_by(xs, key):
    return sorted(it(xs), key=key)


def B_sort(xs):
    return sorted(it(xs))


def B_reverse(xs):
    return lst(xs)[::-1]


def B_first(xs, pred=None):
    for x in it(xs):
        if pred is None or pred(x):
            return x
    return None


def B_last(xs):
    xs = lst(xs)
    return xs[-1] if xs else None


def B_any(xs, pred=None):
    return any(it(xs)) if pred is None else any(pred(x) for x in it(xs))


def B_every(xs, pred=None):
    return all(it(xs)) if pred is None else all(pred(x) for x in it(xs))


def B_unique(xs):
    seen, out = set(), []
    for x in it(xs):
        k = id(x) if isinstance(x, (Comp, Space)) else x
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def B_distinct(xs, key):
    seen, out = set(), []
    for x in it(xs):
        k = key(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def B_index_of(xs, x):
    xs = lst(xs)
    for i, y in enumerate(xs):
        if y is x or y == x:
            return i
    return -1


def B_rotate(xs, x):
    xs = lst(xs)
    i = B_index_of(xs, x)
    if i < 0:
        raise RuleError(f"rotate: {display(x)} is not in the list")
    return xs[i:] + xs[:i]


def B_next_of(xs, x):
    xs = lst(xs)
    i = B_index_of(xs, x)
    if i < 0:
        raise RuleError(f"next_of: {display(x)} is not in the list")
    return xs[(i + 1) % len(xs)]


def B_range(a, b=None):
    return list(range(a)) if b is None else list(range(a, b))


def B_str(x):
    return display(x)


def B_space(G, sid):
    try:
        return G.spaces_by_id[sid]
    except KeyError:
        raise RuleError(f"no space {sid!r}") from None


def B_component(G, cid):
    try:
        return G.comps_by_id[cid]
    except KeyError:
        raise RuleError(f"no component {cid!r}") from None


def B_components(G, kind):
    return list(G.comps_by_kind.get(kind, ()))


def _track(G, name):
    try:
        return G.tracks[name]
    except KeyError:
        raise RuleError(f"no track {name!r}") from None


def B_track(G, name):
    return list(_track(G, name)[0])


def B_step(G, name, space, n):
    spaces, loop, pos = _track(G, name)
    i = pos.get(space)
    if i is None:
        raise RuleError(f"{display(space)} is not on track {name!r}")
    j = i + n
    if loop:
        return spaces[j % len(spaces)]
    return spaces[max(0, min(j, len(spaces) - 1))]


def B_distance(G, name, a, b):
    spaces, loop, pos = _track(G, name)
    if a not in pos or b not in pos:
        raise RuleError(f"distance: both spaces must be on track {name!r}")
    d = pos[b] - pos[a]
    return d % len(spaces) if loop else d


def B_linked(G, space, kind):
    if space is None:
        raise RuleError("linked: no space given")
    return list(space._links.get(kind, ()))


def B_players_from(G, p):
    return B_rotate(G.players, p)


def B_others(G, p):
    return [q for q in G.players if q is not p]


def B_random(G, xs):
    xs = lst(xs)
    if not xs:
        return None
    return xs[G.rng.randrange(len(xs))]


def B_shuffled(G, xs):
    xs = lst(xs)
    G.rng.shuffle(xs)
    return xs


def B_cash(G, side):
    return sum(getattr(side, piece) * value for piece, value in G.program.money)


def namespace() -> dict:
    """Names the generated code may use, besides the game object G."""
    ns = {k: v for k, v in globals().items() if k.startswith("B_")}
    ns.update(lst=lst, it=it, show=show, ztop=ztop)
    return ns
