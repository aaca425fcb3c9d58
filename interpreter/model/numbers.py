"""Number entry: a decision over a range of whole numbers ("bid any amount
from 1 to your cash"). The values are never listed unless an agent asks for
them: a random agent draws an index, a person types a number, a script or a
save names one; only a bot's ranks and a search's menu look at each value.

`Numbers` is the options: the values (each as (key, value), like any option
of a menu), then the decision's other options
(a `pass`, or options written beside the number entry). `NumberLabels` is
their labels, the numbers as texts ("7") then the others' labels, and is
what an agent is shown as `Decision.labels`: a sequence like any list of
labels (len, index, `in`, slicing), which also tells its range (low, high,
step, others) so that a person's prompt can ask for a number instead of
showing a menu.
"""
from __future__ import annotations

from typing import Any, Iterator, Sequence

from ..support.limits import MAX_LIST, MAX_NUMBER
from .state import RuleError


class Numbers(Sequence):
    """low, low + step, ... up to high (each a whole number), then the
    decision's other options (`extra`, labelled `extra_labels`: a `pass`, or
    the options written beside the number entry)."""

    __slots__ = ("low", "high", "step", "size", "extra", "extra_labels", "labels", "key")

    def __init__(self, low: Any, high: Any, step: Any = 1, extra: Sequence = (),
                 extra_labels: Sequence[str] = (), key: Any = 0):
        for what, v in (("lowest", low), ("highest", high), ("step", step)):
            if type(v) is not int or abs(v) > MAX_NUMBER:
                raise RuleError(f"a number entry's {what} value must be a whole number, "
                                f"not {v!r}")
        if step <= 0:
            raise RuleError(f"a number entry's step must be 1 or more, not {step}")
        self.low, self.step = low, step
        self.key = key  # a value is offered as (key, value), like any option of a menu
        self.size = max(0, (high - low) // step + 1)
        if self.size > MAX_LIST:
            raise RuleError(f"a number entry from {low} to {high} offers {self.size:,} "
                            f"values; at most {MAX_LIST:,} (take a larger step)")
        self.high = low + (self.size - 1) * step if self.size else high
        self.labels = NumberLabels(self)
        self.extra: list = []
        self.extra_labels: list[str] = []
        for opt, lab in zip(extra, extra_labels):
            if lab in self.extra_labels:
                continue  # options that read alike are one
            if self.labels.position(lab) is not None:
                raise RuleError(f"the option {lab!r} cannot be told apart from the number "
                                f"{lab} of the entry beside it")
            self.extra.append(opt)
            self.extra_labels.append(lab)

    def __len__(self) -> int:
        return self.size + len(self.extra)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if 0 <= i < self.size:
            return (self.key, self.low + i * self.step)
        if self.size <= i < len(self):
            return self.extra[i - self.size]
        raise IndexError(i)

    def values(self) -> range:
        """The numbers on offer (without the other options)."""
        return range(self.low, self.low + self.size * self.step, self.step)

    def __iter__(self) -> Iterator[Any]:
        key = self.key
        yield from ((key, v) for v in self.values())
        yield from self.extra

    def describe(self) -> str:
        """"a number from 1 to 20 in steps of 5, or pass" """
        if self.size == 0:
            text = ""
        elif self.size == 1:
            text = f"{self.low}"
        else:
            text = f"a number from {self.low} to {self.high}"
            if self.step > 1 and self.size > 2:
                text += f" in steps of {self.step}"
        rest = ", ".join(self.extra_labels)
        return (f"{text}, or {rest}" if rest else text) if text else rest or "no number"


class NumberLabels(Sequence):
    """A number entry's labels ("1", "2", ... "pass"), made one at a time."""

    __slots__ = ("numbers",)

    def __init__(self, numbers: Numbers):
        self.numbers = numbers

    @property
    def low(self) -> int:
        return self.numbers.low

    @property
    def high(self) -> int:
        return self.numbers.high

    @property
    def step(self) -> int:
        return self.numbers.step

    @property
    def others(self) -> list[str]:
        """The labels of the options besides the numbers ("pass")."""
        return self.numbers.extra_labels

    def describe(self) -> str:
        return self.numbers.describe()

    def __len__(self) -> int:
        return len(self.numbers)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = self.numbers
        if i < 0:
            i += len(n)
        return str(n.low + i * n.step) if 0 <= i < n.size else \
            n.extra_labels[i - n.size] if n.size <= i < len(n) else n[i]

    def __iter__(self) -> Iterator[str]:
        yield from map(str, self.numbers.values())
        yield from self.numbers.extra_labels

    def position(self, text: object) -> int | None:
        """Where a typed or scripted answer stands among the options (None
        when it is not one): "7", " 7 ", "pass"."""
        if not isinstance(text, str):
            return None
        text = text.strip()
        n = self.numbers
        if text in n.extra_labels:
            return n.size + n.extra_labels.index(text)
        body = text[1:] if text[:1] in "+-" else text
        if not body.isdigit() or len(body) > 16 or (len(body) > 1 and body[0] == "0"):
            return None
        v = int(text)
        k, off = divmod(v - n.low, n.step)
        return k if off == 0 and 0 <= k < n.size else None

    def __contains__(self, text: object) -> bool:
        return self.position(text) is not None

    def index(self, text: Any, start: int = 0, stop: Any = None) -> int:
        i = self.position(text)
        if i is None or i < start or (stop is not None and i >= stop):
            raise ValueError(f"{text!r} is not {self.describe()}")
        return i

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, Sequence) else NotImplemented

    __hash__ = None  # type: ignore[assignment]


def is_numbers(labels: Sequence[str] | None) -> bool:
    """Whether a decision's labels are a number entry (a person types a number)."""
    return isinstance(labels, NumberLabels)
