"""What comparing values costs: the items nested inside them.

`==`, `in`, `sort`, `max` and the like compare lists item by item, and a
list may hold lists: one Python call can walk far more items than a rule
step would suggest (a list of 3,000 lists of 3,000 lists of 3,000 made by
repeating one list costs a few thousand steps to build and 2.7x10^10 items
to compare). So before such a call the items it may walk are counted and
paid for from the step budget, chunk by chunk: the budget, and the clock
read between chunks, stop a walk that is too long before Python starts it.
The count is an upper bound of the comparison's own work (a list reached
twice is counted twice, as a comparison walks it twice).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from ..support.limits import STEP_CHUNK

if TYPE_CHECKING:
    from .gamestate import GameState

_NESTED = (list, tuple, dict)


def nested_items(G: GameState, values: Iterable[Any], times: int = 1) -> None:
    """Pay `times` steps for every item nested inside the values of
    `values` (the values themselves are paid for by the caller)."""
    todo = [v for v in values if isinstance(v, _NESTED)]
    if not todo:
        return
    owed = 0
    while todo:
        v = todo.pop()
        items = v.values() if isinstance(v, dict) else v
        owed += len(v) * times
        todo.extend(x for x in items if isinstance(x, _NESTED))
        if owed >= STEP_CHUNK:
            _pay(G, owed)
            owed = 0
    _pay(G, owed)


def _pay(G: GameState, n: int) -> None:
    G.fuel -= n
    if G.fuel < 0:
        G.out_of_steps()


def sort_times(n: int) -> int:
    """How many times a sort of n keys may compare each key (about log2 n)."""
    return max(1, n.bit_length())
