"""What a loaded ruleset is: its kinds, components, zones and the Ruleset
that holds them with the places of their definitions (for messages)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..language import ast as A

# {key} or {key.name} (the value's word, from `names`) in a product's `each` texts
_PLACES = re.compile(r"\{([a-z][a-z0-9_]*)(\.name)?\}")
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*\Z")  # a component id (components.schema.json)

RESERVED_ATTRS = {"id", "name", "index", "is_player", "bot"}  # built into every side
# built into every component
COMP_RESERVED = {"id", "kind", "index", "zone", "holder", "host", "attached"}
SPACE_RESERVED = {"id", "index"}  # built into every space


@dataclass
class AttrDef:
    type: str  # int str bool space spaces enum any
    values: list | None = None
    default: object = None
    has_default: bool = False


@dataclass
class KindDef:
    name: str
    attributes: dict  # name -> AttrDef
    properties: dict  # name -> initial value
    zone: str | None
    path: str
    line: int


@dataclass
class CompDef:
    id: str
    kind: str
    values: dict  # attribute and property values
    rules: A.Module | None
    path: str
    line: int
    col: int
    copies: bool = False  # one of an item's `count:` copies


@dataclass
class ZoneDef:
    name: str
    scope: str  # game side space
    type: str = "set"
    visibility: str = "public"
    live: bool = False
    title: str | None = None  # how the log names it


@dataclass
class Ruleset:
    path: Path
    stamp: bytes | None = None  # digest of every file it was read from (None: unknown)
    id: str = ""
    name: str = ""
    seats: list = field(default_factory=list)  # [(id, name)]
    sides: list = field(default_factory=list)  # neutral [(id, name)]
    min_players: int = 0
    max_players: int = 0
    default_players: int | None = None  # the count when none is asked for (else max)
    options: dict = field(default_factory=dict)  # name -> {choices, default, from}
    game_vars: dict = field(default_factory=dict)
    side_vars: dict = field(default_factory=dict)
    var_visibility: dict = field(default_factory=dict)  # (scope, name) -> owner / hidden
    pieces: dict = field(default_factory=dict)  # name -> supply
    piece_words: dict = field(default_factory=dict)  # name -> (one, many) in the log
    zones: dict = field(default_factory=dict)  # (scope, name) -> ZoneDef
    kinds: dict = field(default_factory=dict)  # kind -> KindDef
    components: list = field(default_factory=list)  # CompDef in file order
    space_attrs: dict = field(default_factory=dict)  # name -> AttrDef
    spaces: list = field(default_factory=list)  # [(id, values)]
    tracks: dict = field(default_factory=dict)  # name -> (list of ids, loop)
    links: dict = field(default_factory=dict)  # kind -> [(a, b)]
    tables: dict = field(default_factory=dict)
    modules: list = field(default_factory=list)  # A.Module
    score_var: str | None = None
    score_fn: str | None = None  # `score:` naming a function of the rules, `def NAME(p)`
    where: dict = field(default_factory=dict)  # ("zone", name) etc. -> (path, line, col)
    variants: list = field(default_factory=list)  # variant folders available
    overlays: list = field(default_factory=list)  # (id, name, file) applied, in order
    bots: set = field(default_factory=set)  # seats the rules play
    overlay_map: dict = field(default_factory=dict)  # option -> value -> [folders]
    pending_options: list = field(default_factory=list)
    piece_supply: dict = field(default_factory=dict)  # piece -> {side: supply}
    money: list = field(default_factory=list)  # [(money note piece, value)], largest first
    bank: str | None = None
    steps: int | None = None  # the step budget of one game (game.yaml limits.steps)
    lint: dict = field(default_factory=dict)  # game.yaml lint: (rulebook lint's settings)
    coverage: dict = field(default_factory=dict)  # game.yaml coverage: (rulebook coverage's)

    def zone_names(self, scope: str) -> list[str]:
        return [n for (s, n) in self.zones if s == scope]
