"""What a game holds, declared once for the type checker.

engine.Game is assembled from parts (effects.py, events.py, decisions.py,
gamelog.py), each a class of its own that reads the game's state and calls
the others' methods. GameState, the base of every part, declares that
state and those methods: annotations without values, so a Game has nothing
more at run time than before (the methods are declared only while types
are checked, and the real ones, in engine.py and the parts, are checked
against them). engine.Game and the layout's build (newgame.py) set the
attributes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    import random

    from ..model.some import SomeOffer
    from ..model.state import Comp, Side, Space, Table, Zone
    from ..support.diagnostics import DiagnosticError
    from .engine import Rig
    from .program import Program

# a hook of a scenario or a record: hooks(game, when, what)
Hook = Callable[[Any, str, Any], None]
# a rule's own words for an event: say(subject) -> parts (text, value, text ...)
Say = Callable[..., Any]


class GameState:
    """The state and the methods the parts of a Game share (engine.Game)."""

    program: Program
    seed: int
    rng: random.Random
    rig: Rig | None
    replayable: bool
    logging: bool
    log: list[dict]
    score_track: list[tuple[str, dict]]
    history: list[tuple]  # (player id, decision, label) of every decision agents answered
    final_scores: dict[str, Any] | None  # a score function's, once the game is over
    searches: dict[int, Any]  # seat -> what its search agent keeps between decisions (playout.Kept)
    round: int
    phase: str | None
    current: Side | None
    winners: list[Side]
    finished: bool
    stopped: bool
    hooks: Hook | None
    drawn: list[str]
    options: Table
    tables: Any
    players: list[Side]
    sides: list[Side]
    agents: list[Any]
    viewless: list[bool]
    uniform: list[Callable[[int], int] | None]
    decisions: int
    draws_inline: bool
    budget: int
    fuel: int
    reserve: int
    started: float
    live_at: dict[str, list[int]]
    _deciding: list[tuple[str, str]]
    _offer: SomeOffer | None
    _handlers: dict[str, list[tuple]]
    _abilities: dict[str, list[tuple]]
    _firsts: dict[tuple[str, str], dict]
    # set by the layout's build (newgame.py)
    zones: dict[str, Zone]
    spaces: list[Space]
    spaces_by_id: dict[str, Space]
    tracks: dict[str, tuple[list[Space], bool, dict[int, int]]]
    comps: list[Comp]
    comps_by_id: dict[str, Comp]
    comps_by_kind: dict[str, list[Comp]]

    if TYPE_CHECKING:
        # engine.py
        def out_of_steps(self) -> None: ...
        def side_by_id(self, sid: str) -> Side | None: ...
        def summary_for(self, side: Side | None) -> list[str] | None: ...
        def attr(self, x: Any, name: str) -> Any: ...
        def _runtime_error(self, message: str) -> DiagnosticError: ...

        # events.py
        def abilities_of(self, window: str) -> list[tuple]: ...
        def _relive(self, c: Comp, live: bool) -> None: ...

        # gamelog.py
        def say(self, text: str, see: str | list[str] = "all", others: str | None = None,
                **extra: Any) -> None: ...
        def say_at(self, template: Sequence[str | int], *places: Any, **extra: Any) -> None: ...
        def say_event(self, say: Say, subject: Any, seers: set[str] | None,
                      others: str | None, **extra: Any) -> bool: ...
        def _log_choice(self, player: Side, name: str, opt: Any, label: str,
                        note: str | None = None, say: Say | None = None,
                        **extra: Any) -> None: ...
        def _log_reveal(self, comp: Comp, sides: list[Side]) -> None: ...
        def _log_attach(self, comp: Comp, host: Comp, on: bool) -> None: ...
        def _log_moves(self, moved: list[tuple[Comp, Zone | None]], dest: Zone,
                       top: bool = True, say: Say | None = None,
                       subject: Any = None) -> None: ...
        def _log_draw(self, drawn: list[Comp], src: Zone, dst: Zone, say: Say | None = None,
                      subject: Any = None) -> None: ...
        def _log_roll(self, dice: Sequence[Comp], say: Say | None = None,
                      subject: Any = None) -> None: ...
