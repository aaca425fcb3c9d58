""""Choose some of these": one decision that picks several items at once.

The items on offer are grouped by label: items with the same label are
interchangeable (three Runners offered as "runner" three times), so a
selection is a count per label, written `boss + runner x3` (groups in the
order offered; `nothing` for the empty selection). An offer knows how many
selections it has, can list them in a fixed order (by size, then the first
groups first), parse a label back (in any order of its parts) and draw one
uniformly at random. The engine lists them all only when it must test or
rank each one (a `when` test, a bot's `prefer`); otherwise agents pick
counts directly, so offering fifty pieces costs nothing.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from .state import RuleError

if TYPE_CHECKING:
    import random

NOTHING = "nothing"
SEP = " + "
_COUNT = re.compile(r"^(.*) x([0-9]+)$")


class SomeOffer:
    """Groups [(label, how many)], a size range [low, high], and `may` (a
    pass besides). Counts are lists, one number per group."""

    __slots__ = ("groups", "low", "high", "may", "_ways")

    def __init__(self, groups: list[tuple[str, int]], low: int, high: int, may: bool = False):
        self.groups = groups
        self.low = low
        self.high = high
        self.may = may
        self._ways: list[list[int]] | None = None

    # ---------------------------------------------------------------- labels
    def label(self, counts: Sequence[int]) -> str:
        parts = [lab if c == 1 else f"{lab} x{c}" for (lab, _), c in zip(self.groups, counts) if c]
        return SEP.join(parts) if parts else NOTHING

    def parse(self, text: str) -> list[int]:
        """Counts for a label (parts in any order, repeats added up); a
        RuleError saying what is wrong when it is not a selection on offer."""
        index = {lab: i for i, (lab, _) in enumerate(self.groups)}
        counts = [0] * len(self.groups)
        if text != NOTHING:
            for part in text.split(SEP):
                i, n = index.get(part), 1
                if i is None:
                    m = _COUNT.match(part)
                    if m and m.group(1) in index:
                        i, n = index[m.group(1)], int(m.group(2))
                if i is None:
                    raise RuleError(f"{part!r} is not on offer")
                counts[i] += n
        for (lab, have), c in zip(self.groups, counts):
            if c > have:
                raise RuleError(f"only {have} {lab!r} on offer, not {c}")
        size = sum(counts)
        if not self.low <= size <= self.high:
            raise RuleError(f"{size} item(s) chosen; this decision takes "
                            + (f"{self.low}" if self.low == self.high else
                               f"{self.low} to {self.high}"))
        return counts

    def canonical(self, text: str) -> str | None:
        try:
            return self.label(self.parse(text))
        except RuleError:
            return None

    # ---------------------------------------------------------------- counting
    def cells(self) -> int:
        """The size of the counting table (what working it out costs)."""
        return (len(self.groups) + 1) * (self.high + 1)

    def ways(self) -> list[list[int]]:
        """ways[i][s]: selections of size s from groups i.. (memoised; each
        row from the next by running sums, so the table costs its size)."""
        if self._ways is None:
            high = self.high
            ways = [[0] * (high + 1) for _ in range(len(self.groups) + 1)]
            ways[-1][0] = 1
            for i in range(len(self.groups) - 1, -1, -1):
                have, nxt, row = self.groups[i][1], ways[i + 1], ways[i]
                run = 0
                for s in range(high + 1):
                    run += nxt[s]  # sum of nxt[s - c] for c in 0..min(have, s)
                    if s - have - 1 >= 0:
                        run -= nxt[s - have - 1]
                    row[s] = run
            self._ways = ways
        return self._ways

    def _free(self) -> bool:
        """Any count of each group, at most all of them, at least none or one:
        then a selection is a number in mixed radix, a digit per group."""
        return self.low <= 1 and self.low <= self.high >= sum(have for _, have in self.groups)

    def total(self) -> int:
        """How many selections there are (not counting a pass)."""
        if self.low > self.high:
            return 0
        if self._free():
            every = 1
            for _, have in self.groups:
                every *= have + 1
            return every - self.low  # without the empty one when one is the least
        return sum(self.ways()[0][self.low:self.high + 1])

    def selections(self) -> Iterator[list[int]]:
        """Every selection, smallest first; within a size, the first groups first."""
        for size in range(self.low, self.high + 1):
            yield from self._of_size(0, size, [])

    def _of_size(self, i: int, size: int, prefix: list[int]) -> Iterator[list[int]]:
        if i == len(self.groups):
            if size == 0:
                yield list(prefix)
            return
        ways = self.ways()
        for c in range(min(self.groups[i][1], size), -1, -1):
            if ways[i + 1][size - c]:
                prefix.append(c)
                yield from self._of_size(i + 1, size - c, prefix)
                prefix.pop()

    def sample(self, rng: random.Random) -> list[int] | None:
        """A selection drawn uniformly (None: the pass, when there is one)."""
        total = self.total()
        pick = rng.randrange(total + (1 if self.may else 0))
        if pick >= total:
            return None
        if self._free():  # the pick as digits, the first group's lowest
            counts, k = [], pick + self.low
            for _, have in self.groups:
                k, c = divmod(k, have + 1)
                counts.append(c)
            return counts
        ways = self.ways()
        for size in range(self.low, self.high + 1):
            if pick < ways[0][size]:
                break
            pick -= ways[0][size]
        counts = []
        for i, (_, have) in enumerate(self.groups):
            for c in range(min(have, size), -1, -1):
                n = ways[i + 1][size - c]
                if pick < n:
                    counts.append(c)
                    size -= c
                    break
                pick -= n
        return counts


class SomeLabels:
    """What a free "choose some" offers, for scenario checks: `label in it`
    tells whether a label is a selection on offer; iterating lists them."""

    def __init__(self, offer: SomeOffer, limit: int = 2000):
        self.offer = offer
        self.limit = limit

    def __contains__(self, label: object) -> bool:
        return label == "pass" and self.offer.may or self.offer.canonical(str(label)) == label

    def __iter__(self) -> Iterator[str]:
        for k, counts in enumerate(self.offer.selections()):
            if k >= self.limit:
                return
            yield self.offer.label(counts)
        if self.offer.may:
            yield "pass"

    def __getitem__(self, key: Any) -> Any:
        return list(self)[key]

    def __len__(self) -> int:
        return self.offer.total() + (1 if self.offer.may else 0)


def grouped(labels: Sequence[str]) -> list[tuple[str, list[int]]]:
    """[(label, [positions])] in the order each label first appears."""
    groups: dict[str, list[int]] = {}
    for i, lab in enumerate(labels):
        if SEP in lab or lab == NOTHING:
            raise RuleError(f"the item label {lab!r} cannot be told apart in a selection: "
                            f"leave out {SEP.strip()!r} and the word {NOTHING!r}")
        groups.setdefault(lab, []).append(i)
    return list(groups.items())


def chosen(items: Sequence, groups: list[tuple[str, list[int]]], counts: Sequence[int]) -> list:
    """The items a selection takes (the first of each group), in offer order."""
    picked = []
    for (_, positions), c in zip(groups, counts):
        picked.extend(positions[:c])
    picked.sort()
    return [items[i] for i in picked]
