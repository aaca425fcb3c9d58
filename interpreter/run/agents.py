"""Agents answer decisions with the index of one of the offered labels.

An agent gets a decisions.Decision: the deciding player, the decision's name,
prompt and option labels, and — for an agent whose class sets
`wants_view = True` — `view()`, that player's view of the game and of the
log as plain data (views.view_for, views.log_for). A Decision holds no path
to the game object: no agent can see another seat's hidden zones or the
deck order.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Sequence

from ..model.numbers import NumberLabels
from .builtins import RuleError

if TYPE_CHECKING:
    from ..model.some import SomeOffer
    from .decisions import LabelledDecision, SomeDecision


class RandomAgent:
    """Uniform over the legal options, from its own seeded RNG (never the game's)."""

    name = "random"

    def __init__(self, seed: int | str = 0):
        self.rng = random.Random(f"agent:{seed}")

    def pick(self, d: LabelledDecision) -> int:
        n = len(d.labels)
        # randrange(n) draws exactly this, through two more calls (_randbelow: CPython's own)
        return (self.rng._randbelow(n)  # type: ignore[attr-defined]
                if n > 0 else self.rng.randrange(n))

    def pick_some(self, d: SomeDecision) -> list[int] | None:
        """A "choose some" decision: uniform over the selections (and the pass)."""
        return d.some.sample(self.rng)


class FirstAgent:
    """Always the first legal option: a cheap, predictable opponent."""

    name = "first"

    def pick(self, d: LabelledDecision) -> int:
        return 0

    def pick_some(self, d: SomeDecision) -> list[int] | None:
        return next(d.some.selections())


class ScriptError(RuleError):
    """A script that names a choice not on offer, or has none left; `entry`
    is the script's entry it is about (a savegame.Step, or a scenario's Step,
    which knows its line)."""

    def __init__(self, message: str, entry: Any = None, legal: Sequence[str] | None = None):
        super().__init__(message)
        self.entry = entry
        # (a number entry's values are said as their range, never listed)
        self.legal = [legal.describe()] if isinstance(legal, NumberLabels) else list(legal or [])


class ScriptedAgent:
    """Follows a shared script of (player, label[, decision]) entries in order.

    When the script runs out it hands over to `fallback` (or fails). A
    `follow` agent is shown every scripted decision too and its answer thrown
    away: replaying a saved game keeps a random agent's generator in step,
    so that it plays on exactly as it would have."""

    name = "scripted"

    def __init__(self, script: list[Any], fallback: Any = None, follow: Any = None):
        self.script = script  # shared list, consumed from the front
        self.fallback = fallback
        self.follow = follow

    @property
    def wants_view(self) -> bool:
        return getattr(self.fallback, "wants_view", False)

    @property
    def wants_search(self) -> bool:
        # a search agent that follows the replay searches each decision again,
        # so that it plays on exactly as it would have
        return getattr(self.fallback, "wants_search", False)

    def pick(self, d: LabelledDecision) -> int:
        player, decision, labels = d.player, d.decision, d.labels
        if self.script and self.follow is not None:
            self.follow.pick(d)
        if not self.script:
            if self.fallback is None:
                raise ScriptError(f"the script has no choice left for {player}'s "
                                  f"{decision}", legal=labels)
            return self.fallback.pick(d)
        entry = self._entry(d, labels)
        label = entry.choice
        if label not in labels and d.some is not None:  # a selection's parts, in any order
            label = d.some.canonical(label) or label
        if label not in labels:
            raise ScriptError(f"{entry.choice!r} is not a legal choice for {player}'s "
                              f"{decision}", entry, labels)
        self.script.pop(0)
        return labels.index(label)

    def pick_some(self, d: SomeDecision) -> list[int] | None:
        """A free "choose some" decision: the script names the selection."""
        if self.script and self.follow is not None:
            self.follow.pick_some(d)
        if not self.script:
            if self.fallback is None:
                raise ScriptError(f"the script has no choice left for {d.player}'s "
                                  f"{d.decision}", legal=_examples(d.some))
            return self.fallback.pick_some(d)
        entry = self._entry(d, _examples(d.some))
        if entry.choice == "pass" and d.some.may:
            self.script.pop(0)
            return None
        try:
            counts = d.some.parse(entry.choice)
        except RuleError as e:
            raise ScriptError(f"{entry.choice!r} is not a legal choice for {d.player}'s "
                              f"{d.decision}: {e}", entry, _examples(d.some)) from None
        self.script.pop(0)
        return counts

    def _entry(self, d: LabelledDecision | SomeDecision, legal: Sequence[str]) -> Any:
        entry = self.script[0]
        if entry.player != d.player:
            raise ScriptError(f"the script expects {entry.player} to choose next, but "
                              f"{d.player} is choosing {d.decision}", entry, legal)
        if entry.decision is not None and entry.decision != d.decision:
            raise ScriptError(f"the script expects decision {entry.decision!r} but {d.player} "
                              f"is choosing {d.decision!r}", entry, legal)
        return entry


def _examples(offer: SomeOffer, n: int = 12) -> list[str]:
    """A few selections of a "choose some" offer, to show in an error."""
    out = []
    for counts in offer.selections():
        out.append(offer.label(counts))
        if len(out) >= n:
            break
    return out + (["pass"] if offer.may else [])


def make_agent(spec: str, seed: int, seat: int) -> RandomAgent | FirstAgent:
    spec = spec.strip()
    if spec == "random":
        return RandomAgent(f"{seed}:{seat}")
    if spec == "first":
        return FirstAgent()
    if spec == "human":
        raise ValueError("a human seat plays only in `rulebook play` (agents here: random, first)")
    raise ValueError(f"unknown agent {spec!r} (random, first, human)")
