"""The forward model: a game as a position one can copy, list the options
of, apply one to, and go on from.

A game runs as a Python call stack (the compiled rules call the agents), so
a position cannot be copied as objects: the stack that knows which phase,
which loop and which local values come next would be lost. A position is
therefore its recipe — program, seed, the options as given, the player
count and the choices made so far — and reaching it is a replay: the game
is played from the start with every recorded choice answered in order, up
to the first decision nobody has answered yet. Copying costs a tuple;
applying a choice costs one replay. The same replay is how saves resume
(savegame.py), so both read the game the same way.

`Position.apply` on the newest position carries on the very game it already
played (a greenlet holds that game paused at its decision), so stepping
through a game choice by choice costs one game, not one per step.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..model.some import SomeOffer
from ..model.state import Side
from .agents import ScriptError, _examples
from .builtins import RuleError

if TYPE_CHECKING:
    from .engine import Game, Program


@dataclass(frozen=True)
class Asking:
    """The decision a position waits on: who decides what, and the options
    as labels (a "choose some" lists its selections, then `pass` if it may)."""

    player: str
    decision: str
    prompt: str | None
    labels: tuple[str, ...]
    offer: SomeOffer | None = None  # a "choose some": labels are its selections


# a "choose some" with more selections than this is offered as its first ones
# only (a search cannot weigh more; a script may still name any)
MAX_LISTED = 400


def some_labels(offer: SomeOffer) -> list[str]:
    """A "choose some" offer's selections as labels (its first MAX_LISTED),
    then `pass` if it may be passed."""
    return _examples(offer, MAX_LISTED)


def reward(game: Game) -> list[float]:
    """Each player's result of a finished game: a win is 1, shared equally
    among the winners; a loss or an unfinished game is 0."""
    winners = {w.id for w in game.winners if isinstance(w, Side)}
    share = 1.0 / len(winners) if winners else 0.0
    return [share if p.id in winners else 0.0 for p in game.players]


class Replayer:
    """The agent of every seat while a position is reached: answers each
    decision from the recorded choices, then hands the next one to `then`
    (which may pause the game by raising StopGame)."""

    name = "replay"

    def __init__(self, choices: Sequence[tuple[str, str, str]],
                 then: Callable[[Asking, Any], int | list[int] | None]):
        self.choices = choices
        self.at = 0
        self.then = then
        # (choice index, fn): fn() runs when that choice is asked, before it is
        # answered (a sample is made there: Recipe.sample)
        self.reached: tuple[int, Callable[[], Any]] | None = None

    def _reach(self) -> None:
        if self.reached is not None and self.reached[0] == self.at:
            fn = self.reached[1]
            self.reached = None
            fn()

    def chance(self, n: int) -> int:
        """A random draw of 0 .. n-1, as a recipe with chance makes it."""
        if n <= 0:
            raise ValueError("empty range")
        self._reach()
        if self.at < len(self.choices):
            player, _, label = self.choices[self.at]
            if player != CHANCE or not label.isdigit() or int(label) >= n:
                raise ScriptError(f"choice {self.at + 1} of the position is {player}'s "
                                  f"{label!r}, but the game draws one of {n} outcomes")
            self.at += 1
            return int(label)
        asking = Asking(CHANCE, CHANCE, None, tuple(str(i) for i in range(n)))
        return self.then(asking, None)  # type: ignore[return-value]

    def pick(self, d: Any) -> int:
        self._reach()
        if self.at < len(self.choices):
            return self._recorded(d, d.labels)
        asking = Asking(d.player, d.decision, d.prompt, tuple(d.labels))
        return self.then(asking, d)  # type: ignore[return-value]

    def pick_some(self, d: Any) -> list[int] | None:
        self._reach()
        if self.at < len(self.choices):
            player, name, label = self.choices[self.at]
            self._check(d, player, name)
            self.at += 1
            if label == "pass" and d.some.may:
                return None
            try:
                return d.some.parse(label)
            except RuleError as e:
                raise ScriptError(f"{label!r} is not a legal choice for {player}'s {name} "
                                  f"(choice {self.at}): {e}") from None
        asking = Asking(d.player, d.decision, d.prompt, tuple(some_labels(d.some)), d.some)
        return self.then(asking, d)  # type: ignore[return-value]

    def _recorded(self, d: Any, labels: list[str]) -> int:
        player, name, label = self.choices[self.at]
        self._check(d, player, name)
        if label not in labels and d.some is not None:
            label = d.some.canonical(label) or label
        if label not in labels:
            raise ScriptError(f"{label!r} is not a legal choice for {player}'s {name} "
                              f"(choice {self.at + 1} of the position)", legal=labels)
        self.at += 1
        return labels.index(label)

    def _check(self, d: Any, player: str, name: str) -> None:
        if d.player != player or d.decision != name:
            raise ScriptError(f"choice {self.at + 1} of the position is {player}'s {name}, "
                            f"but the game asks {d.player}'s {d.decision}")


def answer(asking: Asking, i: int) -> int | list[int] | None:
    """Option i of a decision as its agent answers it: an index, or for a
    "choose some" the counts of that selection (None: the pass)."""
    if asking.offer is None:
        return i
    label = asking.labels[i]
    if label == "pass" and asking.offer.may:
        return None
    return asking.offer.parse(label)


@dataclass(frozen=True)
class Recipe:
    """What makes a game again: program, seed, options as given, player
    count, step budget, a scenario's rig, and — for a sample — whose
    knowledge was sampled when the replay reached which choice (that
    choice's index, the seat, its determinise.Knowledge, the sample's seed)."""

    program: Program
    seed: int = 0
    options: dict = field(default_factory=dict)
    players: int | None = None
    steps: int | None = None
    rig: tuple | None = None
    sample: tuple[int, int, Any, int] | None = None
    # every random draw is a decision of CHANCE (its options: 0 .. n-1, alike
    # likely) instead of the seed's: for frameworks that weigh chance themselves
    chance: bool = False
    logging: bool = False

    def game(self, driver: Replayer, game_class: Any = None, logging: bool = False) -> Game:
        """A new game of the recipe, every seat played by `driver`."""
        from .engine import Game, Rig

        game = (game_class or Game)(
            self.program, seed=self.seed, options=self.options, players=self.players,
            steps=self.steps, agents=[driver] * len(self.program.rs.seats),
            logging=logging or self.logging, rig=None if self.rig is None else Rig(*self.rig))
        if self.chance:
            game.rng = _ChanceRandom(driver)
            game.draws_inline = False  # every draw through _randbelow, none inline
        if self.sample is not None:
            at, seat, knowledge, seed = self.sample
            driver.reached = (at, lambda: knowledge.sample(game, seat, random.Random(seed)))
        return game


CHANCE = "chance"  # who "decides" a random draw, in a recipe with chance


class _ChanceRandom(random.Random):
    """A game's generator whose every draw is asked of the driver: a draw of
    one of n alike likely outcomes (randrange, shuffle, choice and a die's
    roll all come down to _randbelow, in CPython)."""

    def __init__(self, driver: Replayer):
        super().__init__(0)
        self.driver = driver

    def _randbelow(self, n: int) -> int:
        return self.driver.chance(n)

    def getrandbits(self, k: int) -> int:
        return self.driver.chance(1 << k)

    def random(self) -> float:
        raise RuntimeError("a game with chance as decisions draws only whole numbers")


class Position:
    """A game at a decision (or finished). Immutable: apply() makes a new one."""

    def __init__(self, program: Program | Recipe, seed: int = 0, options: dict | None = None,
                 players: int | None = None, choices: tuple = (), live: Any = None):
        self.recipe = program if isinstance(program, Recipe) else \
            Recipe(program, seed, dict(options or {}), players)
        self.choices = tuple(choices)
        self._live = live  # a _Live paused at this position's decision, if any
        self._game: Game | None = None
        self._asking: Asking | None = None
        if live is not None:
            self._game, self._asking = live.game, live.asking

    # -- reading
    @property
    def game(self) -> Game:
        """The game as it stands at this position (replayed when first asked).
        Read it, never change it: it is the game apply() carries on."""
        self._reach()
        assert self._game is not None
        return self._game

    @property
    def asking(self) -> Asking | None:
        """The decision waited on; None once the game is over."""
        self._reach()
        return self._asking

    @property
    def finished(self) -> bool:
        return self.asking is None

    def legal(self) -> list[str]:
        a = self.asking
        return list(a.labels) if a is not None else []

    def rewards(self) -> list[float]:
        return reward(self.game)

    def copy(self) -> Position:
        return Position(self.recipe, choices=self.choices)

    def __deepcopy__(self, memo: Any) -> Position:
        return self.copy()  # (the paused game stays with this one)

    # -- moving on
    def apply(self, choice: int | str) -> Position:
        """The position after the decision waited on is answered with option
        `choice` (its index, or its label)."""
        a = self.asking
        if a is None:
            raise RuleError("the game is over: there is no decision to answer")
        if isinstance(choice, str) and choice not in a.labels and a.offer is not None:
            # a selection of a "choose some" beyond those listed: any legal one
            counts = None if choice == "pass" and a.offer.may else a.offer.parse(choice)
            label = "pass" if counts is None else a.offer.label(counts)
            return self._step(a, label, counts)
        i = a.labels.index(choice) if isinstance(choice, str) else choice
        if not 0 <= i < len(a.labels):
            raise RuleError(f"option {choice!r} is not among the {len(a.labels)} offered")
        return self._step(a, a.labels[i], answer(a, i))

    def _step(self, a: Asking, label: str, value: Any) -> Position:
        step = (a.player, a.decision, label)
        live, self._live = self._live, None
        if live is not None and live.alive:
            live.answer(value)  # carry on the paused game itself
            return Position(self.recipe, choices=self.choices + (step,), live=live)
        return Position(self.recipe, choices=self.choices + (step,))

    def _reach(self, game_class: Any = None, prepare: Callable[[Any], None] | None = None) -> None:
        if self._game is not None:
            return
        live = _Live(self, game_class, prepare)
        self._game, self._asking = live.game, live.asking
        self._live = live if live.alive else None

    def reached(self, game_class: Any, prepare: Callable[[Any], None]) -> Position:
        """This position reached in a game of `game_class` (logged), which
        `prepare` is given before it starts; for a game that watches itself
        being played (determinise.py)."""
        pos = Position(self.recipe, choices=self.choices)
        pos._reach(game_class, prepare)
        return pos

    def carried(self, choices: tuple) -> Position | None:
        """The position `choices` reach, when they go on from this one's: its
        paused game carried on (no replay from the start); None when they do
        not go on from here or this position's game was carried on already."""
        n = len(self.choices)
        if self._live is None or len(choices) < n or tuple(choices[:n]) != self.choices:
            return None
        pos = self
        try:
            for player, decision, label in choices[n:]:
                a = pos.asking
                if a is None or (a.player, a.decision) != (player, decision):
                    return None
                pos = pos.apply(label)
        except (RuleError, ScriptError, ValueError):
            return None
        return pos


class _Live:
    """A game paused at a decision, inside a greenlet, to be carried on."""

    def __init__(self, pos: Position, game_class: Any = None,
                 prepare: Callable[[Any], None] | None = None):
        from greenlet import getcurrent, greenlet

        self.parent = getcurrent()
        self.asking: Asking | None = None
        self.driver = Replayer(pos.choices, self._wait)
        self.game = pos.recipe.game(self.driver, game_class, game_class is not None)
        if prepare is not None:
            prepare(self.game)
        self.alive = True
        self.runner = greenlet(self._play)
        self.runner.switch()

    def _play(self) -> None:
        try:
            self.game.run()
        finally:
            self.alive = False
            self.asking = None

    def _wait(self, asking: Asking, d: Any) -> Any:
        self.asking = asking
        # back to whoever reached or applied the position; a paused game
        # nobody carries on is ended by greenlet (GreenletExit) when dropped
        return self.parent.switch()

    def answer(self, value: Any) -> None:
        from greenlet import getcurrent

        self.asking = None
        self.runner.parent = self.parent = getcurrent()
        self.runner.switch(value)
