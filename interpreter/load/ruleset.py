"""Load a ruleset folder: YAML data and rule files -> a checked definition.

A ruleset folder holds one `game.yaml` (kind: game), any number of other YAML
files (kind: components / board / tables) and `*.rules` files. Every problem
found is collected as a Diagnostic; loading never stops at the first.
"""
from __future__ import annotations

import difflib
import hashlib
import itertools
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.scalarstring import LiteralScalarString, FoldedScalarString

from ..language import ast as A
from ..support.diagnostics import Diagnostic, DiagnosticError
from ..language.parser import Source, parse
from ..support.limits import MAX_COMPONENTS, MAX_COPIES, MAX_FILE_BYTES, MAX_PATH_CHARS, MAX_SPACES
from .yamlio import (confine, exists, is_dir, load_yaml, path_too_long, plain, position, read_text,
                     schema_diagnostics, shorten)

_PLACES = re.compile(r"\{([a-z][a-z0-9_]*)\}")  # {key} in a product's `each` texts
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*\Z")  # a component id (components.schema.json)

RESERVED_ATTRS = {"id", "name", "index", "is_player", "bot"}  # built into every side
COMP_RESERVED = {"id", "kind", "index", "zone", "holder"}  # built into every component
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

    def zone_names(self, scope):
        return [n for (s, n) in self.zones if s == scope]


class _Loader:
    def __init__(self, folder: Path):
        self.folder = folder
        self.rs = Ruleset(folder)
        self.diags: list[Diagnostic] = []
        # kinds of files that failed to load ("*": kind unknown); references into
        # them are not checked, so one broken file does not cascade into others
        self.broken: set[str] = set()
        self.raw: dict = {}  # path -> lines, for the positions of card rules
        self.too_many = False  # MAX_COMPONENTS was reported

    def err(self, path, line, col, code, msg, hint=""):
        self.diags.append(Diagnostic(str(path), line, col, code, msg, hint=hint))

    def run(self, variant=None, options=None) -> Ruleset:
        folder = self.folder
        if path_too_long(folder):
            self.err(folder, 1, 1, "LIMIT", f"the path is {len(str(folder)):,} characters long; "
                     f"the limit is {MAX_PATH_CHARS:,}", hint="use a shorter folder name")
            return self.rs
        if not is_dir(folder):
            self.err(folder, 1, 1, "FILE-MISSING", f"no ruleset folder at {shorten(folder, 200)}")
            return self.rs
        confine(folder)  # nothing under it is read from outside it (yamlio)
        game = folder / "game.yaml"
        if not exists(game):
            # a folder without one is no ruleset: none of its files is read (or quoted)
            self.err(game, 1, 1, "FILE-MISSING", "a ruleset needs a game.yaml (kind: game)")
            self.broken.add("game")
            return self.rs
        self.rs.variants = sorted(p.parent.name for p in folder.glob("variants/*/variant.yaml"))
        self.load_layer(folder, ("game", "components", "board", "tables"))
        if variant is not None:
            vdir = folder / "variants" / str(variant)
            if variant not in self.rs.variants:  # a folder name, never a path elsewhere
                self.err(game, 1, 1, "OPTION", f"no variant {shorten(variant)!r}",
                         hint="variants: " + (", ".join(self.rs.variants) or "none"))
            else:
                self.load_layer(vdir, ("variant", "components", "tables"))
                self.load_overlays(vdir, options or {})
        self.resolve_references()
        return self.rs

    def load_overlays(self, vdir, options):
        """Apply the overlay folders that the chosen option values bring in."""
        for opt, table in list(self.rs.overlay_map.items()):
            spec = self.rs.options.get(opt, {})
            value = options.get(opt, spec.get("default"))
            for choice in spec.get("choices", []):  # as the game will read it
                if str(choice).lower() == str(value).lower():
                    value = choice
            for sub in table.get(str(value), []):
                odir = vdir / sub
                inside = not Path(sub).is_absolute() and ".." not in Path(sub).parts
                if not inside or not exists(odir / "overlay.yaml"):
                    f, line, col = self.rs.options[opt]["at"]
                    self.err(f, line, col, "FILE-MISSING",
                             f"option {opt}={shorten(value)} needs overlay folder "
                             f"{shorten(sub)}/overlay.yaml" + ("" if inside else
                                                              " inside the variant's folder"))
                    continue
                self.load_layer(odir, ("overlay", "components", "tables"))

    def load_layer(self, folder, kinds):
        """Load one folder's YAML files (of the allowed kinds) and rule files."""
        docs = []
        base = "game" in kinds
        for f in sorted(folder.glob("*.yaml")):
            before = len(self.diags)
            doc = load_yaml(f, self.diags)
            if doc is None:
                if len(self.diags) == before:  # valid YAML, but no document at all
                    self.err(f, 1, 1, "SCHEMA-MISSING",
                             "the file is empty; a ruleset file is a mapping with a 'kind' key")
                self.broken.add("game" if f.name == "game.yaml" else "*")
                continue
            if not isinstance(doc, CommentedMap):
                self.err(f, 1, 1, "SCHEMA-TYPE", "a ruleset file must be a mapping with a 'kind' key")
                self.broken.add("game" if f.name == "game.yaml" else "*")
                continue
            kind = doc.get("kind")
            if kind not in kinds:
                line, col = position(doc, "kind") if "kind" in doc else position(doc)
                self.err(f, line, col, "SCHEMA-VALUE" if "kind" in doc else "SCHEMA-MISSING",
                         f"'kind' must be one of {', '.join(kinds)} here (got {kind!r})")
                self.broken.add("game" if f.name == "game.yaml" else "*")
                continue
            found = schema_diagnostics(str(f), doc, "overlay" if kind == "variant" else kind)
            self.diags.extend(found)
            expected = {"game": "game.yaml", "variant": "variant.yaml", "overlay": "overlay.yaml"}
            if kind in expected and f.name != expected[kind]:
                self.err(f, *position(doc, "kind"), "SCHEMA-VALUE",
                         f"kind: {kind} belongs in {expected[kind]} only")
                continue
            if not found:
                docs.append((kind, f, doc))
            else:
                self.broken.add(kind)
        order = {"game": 0, "variant": 0, "overlay": 0, "board": 1, "components": 2,
                 "tables": 3}
        for kind, f, doc in sorted(docs, key=lambda d: (order[d[0]], str(d[1]))):
            if kind in ("variant", "overlay"):
                self.load_overlay(f, doc)
            elif kind == "tables" and not base:
                self.load_tables(f, doc, replace=True)
            else:
                getattr(self, f"load_{kind}")(f, doc)
        for f in sorted(folder.glob("*.rules")):
            text = read_text(f, self.diags)
            if text is None:
                continue
            try:
                self.rs.modules.append(parse(Source(str(f), text)))
            except DiagnosticError as e:
                self.diags.extend(e.diagnostics)

    def variable(self, f, node, scope, name, init):
        """A variable's starting value; `{value: V, visibility: owner}` (side
        variables) or `hidden` also says who may see it."""
        if not isinstance(init, dict):
            return init
        vis = init.get("visibility", "public")
        if vis == "owner" and scope != "side":
            self.err(f, *position(init, "visibility"), "SCHEMA-VALUE",
                     "only a side variable has an owner: a game variable is public or hidden")
        elif vis != "public":
            self.rs.var_visibility[(scope, name)] = vis
        return init.get("value")

    # -- variant.yaml / overlay.yaml -------------------------------------------
    def load_overlay(self, f, doc):
        """An overlay adds options, variables, zones and pieces, restricts the
        base's options and names bot seats; it may not silently redefine."""
        rs = self.rs
        rs.overlays.append((doc.get("id", f.parent.name), doc.get("name", ""), str(f)))
        seats = {sid for sid, _ in rs.seats}
        before = len(rs.bots)
        for i, sid in enumerate(doc.get("bots") or []):
            if sid not in seats:
                self.undef(f, *position(doc["bots"], i), "seat", sid, seats)
            else:
                rs.bots.add(sid)
        added = len(rs.bots) - before
        if added:  # the player count now counts players only: the bots play on top
            rs.min_players = max(1, rs.min_players - added)
            rs.max_players -= added
            rs.default_players = None
            rs.where["players"] = (str(f), *position(doc, "bots"))
            if rs.max_players < 1:
                self.err(f, *position(doc, "bots"), "SCHEMA-VALUE",
                         "the bots take every seat the game has: no player is left")
        if "players" in doc:  # a variant for some player counts only
            p = doc["players"]
            lo, hi = (p, p) if isinstance(p, int) else (p["min"], p["max"])
            default = None if isinstance(p, int) else p.get("default")
            if lo < rs.min_players or hi > rs.max_players or lo > hi or not (
                    default is None or lo <= default <= hi):
                self.err(f, *position(doc, "players"), "SCHEMA-VALUE",
                         f"players {lo}" + (f" to {hi}" if hi != lo else "") + " is not within "
                         f"the game's {rs.min_players} to {rs.max_players}"
                         + (" (not counting the bots)" if rs.bots else "")
                         + ", or min > max, or the default is outside them")
            else:
                rs.min_players, rs.max_players = lo, hi
                rs.default_players = default
                rs.where["players"] = (str(f), *position(doc, "players"))
        for name, opt in (doc.get("options") or {}).items():
            if name in rs.options:
                self.err(f, *position(doc["options"], name, at_key=True), "DUP-ID",
                         f"option {name!r} already exists; change it under set_options")
                continue
            rs.options[name] = _option(f, doc["options"], name, opt)
        for name, change in (doc.get("set_options") or {}).items():
            rs.pending_options.append((f, doc["set_options"], name, change))
        if doc.get("overlays") and doc["kind"] != "variant":
            self.err(f, *position(doc, "overlays", at_key=True), "SCHEMA-VALUE",
                     "only a variant.yaml selects overlays")
        if "coverage" in doc:
            if doc["kind"] != "variant":
                self.err(f, *position(doc, "coverage", at_key=True), "SCHEMA-VALUE",
                         "only game.yaml and a variant.yaml say what coverage may miss")
            else:  # a variant is covered on its own terms: the base's list does not carry over
                rs.coverage = plain(doc.get("coverage") or {})
        for name, table in (doc.get("overlays") or {}).items() if doc["kind"] == "variant" else ():
            rs.overlay_map[name] = {str(k): (v if isinstance(v, list) else [v])
                                    for k, v in table.items()}
            if name not in rs.options:
                self.undef(f, *position(doc["overlays"], name, at_key=True), "option", name,
                           rs.options)
            elif rs.options[name]["default"] in (None, "random"):
                self.err(f, *position(doc["overlays"], name, at_key=True), "OPTION",
                         f"option {name!r} selects overlays, so it needs a fixed default")
        variables = doc.get("variables") or {}
        for scope, target in (("game", rs.game_vars), ("side", rs.side_vars)):
            for name, init in (variables.get(scope) or {}).items():
                if self.define(("var", scope, name), f, variables[scope], name):
                    target[name] = self.variable(f, variables[scope], scope, name, init)
        for name, p in (doc.get("pieces") or {}).items():
            if self.define(("piece", name), f, doc["pieces"], name):
                self.piece(f, doc["pieces"], name, p)
        for scope, zones in (doc.get("zones") or {}).items():
            for name, z in zones.items():
                if self.define(("zone", scope, name), f, zones, name):
                    rs.zones[(scope, name)] = ZoneDef(name, scope, z.get("type", "set"),
                                                      z.get("visibility", "public"),
                                                      z.get("live", False), z.get("title"))

    def apply_option_changes(self):
        rs = self.rs
        for f, node, name, change in rs.pending_options:
            if name not in rs.options:
                self.undef(f, *position(node, name, at_key=True), "option", name, rs.options)
                continue
            opt = rs.options[name]
            if "choices" in change:
                bad = [c for c in change["choices"] if c not in opt["choices"]]
                if bad:
                    where = position(change["choices"], list(change["choices"]).index(bad[0]))
                    self.err(f, *where, "OPTION",
                             f"option {name!r} has no choice {bad[0]!r} to keep",
                             hint="choices: " + ", ".join(map(str, opt["choices"])))
                    continue
                opt["choices"] = list(change["choices"])
            if "default" in change:
                d = change["default"]
                if d != "random" and d not in opt["choices"]:
                    self.err(f, *position(change, "default"), "OPTION",
                             f"default {d!r} of option {name!r} is not one of its choices")
                    continue
                opt["default"] = d
            elif opt["default"] not in (None, "random") and opt["default"] not in opt["choices"]:
                opt["default"] = opt["choices"][0]

    # -- game.yaml ---------------------------------------------------------
    def load_game(self, f, doc):
        rs = self.rs
        rs.id, rs.name = doc["id"], doc["name"]
        rs.where["game"] = (str(f), 1, 1)
        for s in doc["seats"]:
            rs.seats.append((s["id"], s.get("name", s["id"])))
            self.define(("side", s["id"]), f, s, "id")
        for s in doc.get("sides", []):
            rs.sides.append((s["id"], s.get("name", s["id"])))
            self.define(("side", s["id"]), f, s, "id")
        p = doc.get("players", len(rs.seats))
        rs.min_players, rs.max_players = (p, p) if isinstance(p, int) else (p["min"], p["max"])
        rs.default_players = None if isinstance(p, int) else p.get("default")
        if "players" in doc:
            rs.where["players"] = (str(f), *position(doc, "players"))
        if rs.max_players > len(rs.seats) or rs.min_players > rs.max_players or not (
                rs.min_players <= (rs.default_players or rs.max_players) <= rs.max_players):
            self.err(f, *position(doc, "players"), "SCHEMA-VALUE",
                     f"players must be between 1 and the {len(rs.seats)} seats, "
                     "min <= default <= max")
        for name, opt in (doc.get("options") or {}).items():
            rs.options[name] = _option(f, doc["options"], name, opt)
            if not opt.get("choices") and not opt.get("from"):
                self.err(f, *position(doc["options"], name, at_key=True), "SCHEMA-MISSING",
                         f"option {name!r} needs 'choices' or 'from'")
        variables = doc.get("variables") or {}
        for scope, target in (("game", rs.game_vars), ("side", rs.side_vars)):
            for name, init in (variables.get(scope) or {}).items():
                target[name] = self.variable(f, variables[scope], scope, name, init)
                self.define(("var", scope, name), f, variables[scope], name)
                if scope == "side" and name in RESERVED_ATTRS:
                    self.err(f, *position(variables[scope], name, at_key=True), "DUP-ID",
                             f"{name!r} is a built-in attribute of sides")
        for name, p in (doc.get("pieces") or {}).items():
            self.piece(f, doc["pieces"], name, p)
            self.define(("piece", name), f, doc["pieces"], name)
        for scope, zones in (doc.get("zones") or {}).items():
            for name, z in zones.items():
                rs.zones[(scope, name)] = ZoneDef(name, scope, z.get("type", "set"),
                                                  z.get("visibility", "public"), z.get("live", False),
                                                  z.get("title"))
                self.define(("zone", scope, name), f, zones, name)
        money = doc.get("money")
        if money:
            sides = {sid for sid, _ in rs.seats + rs.sides}
            if money["bank"] not in sides:
                self.undef(f, *position(money, "bank"), "side", money["bank"], sides)
            rs.bank = money["bank"]
            for i, note in enumerate(money["notes"]):
                spec = (doc.get("pieces") or {}).get(note)
                if spec is None:
                    self.undef(f, *position(money["notes"], i), "piece kind", note, rs.pieces)
                elif "value" not in spec:
                    self.err(f, *position(doc["pieces"], note, at_key=True), "SCHEMA-MISSING",
                             f"money note {note!r} needs a 'value'")
                else:
                    rs.money.append((note, spec["value"]))
            rs.money.sort(key=lambda nv: -nv[1])
        rs.steps = (doc.get("limits") or {}).get("steps")
        rs.lint = plain(doc.get("lint") or {})
        if "lint" in doc:
            rs.where["lint"] = (str(f), *position(doc, "lint", at_key=True))
            for i, _ in enumerate(doc["lint"].get("allow") or []):
                rs.where[("lint-allow", i)] = (str(f), *position(doc["lint"]["allow"], i))
        rs.coverage = plain(doc.get("coverage") or {})
        rs.score_var = doc.get("score")
        if rs.score_var and rs.score_var not in rs.side_vars:
            self.err(f, *position(doc, "score"), "REF-UNDEF",
                     f"score names {rs.score_var!r}, which is not a side variable")
        dup = set(rs.side_vars) & set(rs.zone_names("side"))
        for name in sorted(dup):
            self.err(f, 1, 1, "DUP-ID", f"{name!r} is both a side variable and a side zone")

    def piece(self, f, node, name, p):
        """A piece kind: one supply for every side, or per side with 'others'."""
        supply = p["supply"]
        if "name" in p or "plural" in p:
            self.rs.piece_words[name] = (p.get("name", name), p.get("plural"))
        if isinstance(supply, dict):
            self.rs.pieces[name] = supply.get("others", 0)
            self.rs.piece_supply[name] = {k: v for k, v in supply.items() if k != "others"}
            self.rs.where.setdefault(("supply-refs",), []).append((f, node[name]["supply"]))
        else:
            self.rs.pieces[name] = supply

    def define(self, key, f, node, k):
        line, col = position(node, k, at_key=isinstance(node, dict)) if node is not None else (1, 1)
        if key in self.rs.where and key[0] != "game":
            p0, l0, _ = self.rs.where[key]
            self.err(f, line, col, "DUP-ID", f"{key[-1]!r} is defined twice (first at {p0}:{l0})")
            return False
        self.rs.where[key] = (str(f), line, col)
        return True

    # -- board ---------------------------------------------------------------
    def load_board(self, f, doc):
        rs = self.rs
        if ("board-file",) in rs.where:
            self.err(f, 1, 1, "DUP-ID", f"a ruleset has one board; another is in {rs.where[('board-file',)]}")
            return
        rs.where[("board-file",)] = str(f)
        if len(doc["spaces"]) > MAX_SPACES:  # refused before any space is made
            self.err(f, *position(doc["spaces"], MAX_SPACES), "LIMIT",
                     f"the board has {len(doc['spaces']):,} spaces; the limit is {MAX_SPACES:,}")
            self.broken.add("board")
            return
        for name, a in (doc.get("attributes") or {}).items():
            rs.space_attrs[name] = self.attr_def(f, doc["attributes"], name, a)
            rs.where[("space-attr", name)] = (str(f), *position(doc["attributes"], name,
                                                                at_key=True))
        for i, sp in enumerate(doc["spaces"]):
            sid = sp["id"]
            if not self.define(("space", sid), f, sp, "id"):
                continue
            values = self.item_values(f, sp, rs.space_attrs, {}, "space")
            rs.spaces.append((sid, values))
        for name, t in (doc.get("tracks") or {}).items():
            rs.tracks[name] = (list(t["spaces"]), bool(t.get("loop", False)))
            self.define(("track", name), f, doc["tracks"], name)
            self.rs.where[("track-node", name)] = t["spaces"]
        for kind, pairs in (doc.get("links") or {}).items():
            rs.links[kind] = [tuple(p) for p in pairs]
            self.rs.where[("links-node", kind)] = pairs

    # -- components ----------------------------------------------------------
    def load_components(self, f, doc):
        rs = self.rs
        kname = doc["component"]
        attrs = {n: self.attr_def(f, doc["attributes"], n, a)
                 for n, a in (doc.get("attributes") or {}).items()}
        props = dict(doc.get("properties") or {})
        for n in list(attrs) + list(props):
            node = doc["attributes"] if n in attrs else doc["properties"]
            rs.where.setdefault(("kind-attr", kname, n), (str(f), *position(node, n, at_key=True)))
            if n in COMP_RESERVED:
                self.err(f, *position(node, n, at_key=True), "DUP-ID",
                         f"{n!r} is a built-in attribute of components")
        both = set(attrs) & set(props)
        for n in both:
            self.err(f, *position(doc["properties"], n, at_key=True), "DUP-ID",
                     f"{n!r} is both an attribute and a property")
        if kname in rs.kinds:
            k = rs.kinds[kname]
            self.err(f, *position(doc, "component"), "DUP-ID",
                     f"component kind {kname!r} is already defined in {k.path}:{k.line}")
            return
        zone = doc.get("zone")
        rs.kinds[kname] = KindDef(kname, attrs, props, zone, str(f), position(doc, "component")[0])
        if zone is not None:
            rs.where[("kind-zone", kname)] = (str(f), *position(doc, "zone"))
        for item in list(doc.get("items") or []) + self.product_items(f, doc):
            if self.too_many:
                return
            values = self.item_values(f, item, attrs, props, kname)
            count = item.get("count")
            if count is not None and count > MAX_COPIES:  # refused before any id is made
                self.err(f, *position(item, "count"), "LIMIT",
                         f"{shorten(item['id'])!r} asks for {count:,} copies; the limit is "
                         f"{MAX_COPIES:,} copies of one item")
                self.broken.add("components")
                continue
            if len(rs.components) + (count or 1) > MAX_COMPONENTS:
                self.err(f, *position(item, "count" if count is not None else "id"), "LIMIT",
                         f"with {shorten(item['id'])!r} the ruleset has more than "
                         f"{MAX_COMPONENTS:,} components, the limit")
                self.broken.add("components")
                self.too_many = True
                return
            ids = [item["id"]] if count is None else [f"{item['id']}-{i}" for i in range(1, count + 1)]
            rules = None
            if "rules" in item:
                rules = self.card_rules(f, item, item["id"])
            dups = [cid for cid in ids if ("comp", cid) in rs.where]
            if dups:  # one diagnostic per item, however many copies it makes
                p0, l0, _ = rs.where[("comp", dups[0])]
                more = f" (and {len(dups) - 1} more of its {len(ids)} copies)" if len(dups) > 1 else ""
                self.err(f, *position(item, "id", at_key=True), "DUP-ID",
                         f"{dups[0]!r} is defined twice (first at {p0}:{l0}){more}")
            for cid in ids:
                if cid in dups:
                    continue
                self.define(("comp", cid), f, item, "id")
                line, col = position(item, "id")
                rs.components.append(CompDef(cid, kname, values, rules, str(f), line, col,
                                             count is not None))

    def product_items(self, f, doc) -> list:
        """The items of `product` (every combination of its lists, the first
        outermost) with `each` filled in: `{key}` in a text is the item's
        value of that product key. Each item is placed at `each` in the file,
        for the messages about it."""
        product, each = doc.get("product"), doc.get("each")
        if not product or not each:
            return []
        keys, lists = list(product), [list(v) for v in product.values()]
        size = 1
        for values in lists:
            size *= len(values)
        if size * int(each.get("count") or 1) > MAX_COMPONENTS:
            self.err(f, *position(doc, "product", at_key=True), "LIMIT",
                     f"the product makes {size:,} items; the limit is {MAX_COMPONENTS:,} "
                     "components")
            self.broken.add("components")
            return []
        for key, text in each.items():
            bad = [m for m in _PLACES.findall(text) if m not in keys] if isinstance(text, str) else []
            if bad:
                self.err(f, *position(each, key), "REF-UNDEF",
                         f"each.{key} names {{{bad[0]}}}, which is not a product key "
                         f"({', '.join(keys)})")
                return []
        line, col = position(doc, "each", at_key=True)
        out = []
        for combo in itertools.product(*lists):
            values = dict(zip(keys, combo))
            item = CommentedMap(values)
            for key, v in each.items():
                item[key] = _PLACES.sub(lambda m: str(values[m.group(1)]), v) \
                    if isinstance(v, str) and key != "rules" else v
            item.lc.line, item.lc.col = line - 1, col - 1
            if not _ID.match(item["id"]):
                self.err(f, line, col, "SCHEMA-VALUE",
                         f"each.id makes {shorten(item['id'])!r}, not an id (small letters, "
                         "digits, - and _)")
                return []
            out.append(item)
        return out

    def card_rules(self, f, item, owner):
        text = item["rules"]
        line, col = position(item, "rules")
        if f not in self.raw:  # the file was read and checked once already by load_yaml
            self.raw[f] = (read_text(f, []) or "").splitlines()
        raw = self.raw[f]
        if isinstance(text, (LiteralScalarString, FoldedScalarString)):
            # block scalar: content starts on the next line, indented
            indent = 0
            for ln in raw[line:]:
                if ln.strip():
                    indent = len(ln) - len(ln.lstrip())
                    break
            src = Source(str(f), str(text), line0=line, col0=indent)
        else:
            # a quoted scalar's text starts after its quote
            quoted = line <= len(raw) and raw[line - 1][col - 1:col] in ("'", '"')
            src = Source(str(f), str(text), line0=line - 1, col0=col - 1 + quoted, first_only=True)
        try:
            mod = parse(src)
        except DiagnosticError as e:
            self.diags.extend(e.diagnostics)
            return None
        for it in mod.items:
            if isinstance(it, (A.On, A.Ability)):
                it.owner = owner
            else:
                self.err(it.span.path, it.span.line, it.span.col, "SYNTAX",
                         "a component's rules may hold only 'on' and 'ability' handlers")
        return mod

    def attr_def(self, f, node, name, a) -> AttrDef:
        if "enum" in a:
            t = "enum"
        else:
            t = a.get("type", "any")
        d = AttrDef(t, list(a["enum"]) if "enum" in a else None, a.get("default"), "default" in a)
        if d.has_default and not self.type_ok(d, d.default):
            self.err(f, *position(node[name], "default"), "SCHEMA-TYPE",
                     f"default of {name!r} does not fit its type {t}")
        return d

    def type_ok(self, d: AttrDef, v) -> bool:
        if d.type == "int":
            return isinstance(v, int) and not isinstance(v, bool)
        if d.type == "bool":
            return isinstance(v, bool)
        if d.type in ("str", "space"):
            return isinstance(v, str)
        if d.type == "spaces":
            return isinstance(v, list) and all(isinstance(x, str) for x in v)
        if d.type == "enum":
            return v in d.values
        return True

    def item_values(self, f, item, attrs, props, what) -> dict:
        values = {}
        for key in item:
            if key in ("id", "count", "rules", "text"):
                continue
            if key in attrs:
                d = attrs[key]
                v = item[key]
                if not self.type_ok(d, v):
                    want = f"one of {', '.join(d.values)}" if d.type == "enum" else d.type
                    code = "SCHEMA-VALUE" if d.type == "enum" else "SCHEMA-TYPE"
                    self.err(f, *position(item, key), code,
                             f"{what} {item.get('id')!r}: {key} must be {want}, got {v!r}")
                values[key] = list(v) if isinstance(v, list) else v
                if d.type in ("space", "spaces"):
                    self.rs.where.setdefault(("space-refs",), []).append((f, item, key))
            elif key in props:
                values[key] = item[key]
            else:  # an item's own keys (count, rules ...) are names it may mean too
                near = difflib.get_close_matches(
                    str(key), list(attrs) + list(props) + ["id", "count", "rules", "text"], n=1)
                self.err(f, *position(item, key, at_key=True), "SCHEMA-UNKNOWN-KEY",
                         f"{what} {item.get('id')!r} has unknown attribute {key!r}",
                         hint=f"did you mean {near[0]!r}?" if near else
                         "declare it under 'attributes' or 'properties'")
        for name, d in attrs.items():
            if name not in values:
                if d.has_default:
                    values[name] = d.default
                else:
                    self.err(f, *position(item), "SCHEMA-MISSING",
                             f"{what} {item.get('id')!r} is missing attribute {name!r}")
        return values

    # -- tables --------------------------------------------------------------
    def load_tables(self, f, doc, replace=False):
        """Tables of an overlay replace the base's tables of the same name."""
        for name, v in doc["tables"].items():
            if replace and name in self.rs.tables:
                if plain(v) == self.rs.tables[name]:  # (rulebook lint: it shadows nothing)
                    self.rs.where.setdefault(("same-table",), []).append(
                        (str(f), *position(doc["tables"], name, at_key=True), name))
                self.rs.tables[name] = plain(v)
            elif self.define(("table", name), f, doc["tables"], name):
                self.rs.tables[name] = plain(v)

    # -- cross references ----------------------------------------------------
    def resolve_references(self):
        rs = self.rs
        spaces = {sid for sid, _ in rs.spaces}

        def loaded(kind):  # were all files that could define `kind` loaded?
            return kind not in self.broken and "*" not in self.broken

        for entry in (rs.where.get(("space-refs",), []) if loaded("board") else []):
            f, item, key = entry
            v = item[key]
            for i, sid in enumerate(v if isinstance(v, list) else [v]):
                if sid not in spaces:
                    node = item[key]
                    line, col = position(node, i) if isinstance(v, list) else position(item, key)
                    self.undef(f, line, col, "space", sid, spaces)
        for name, (ids, _) in (rs.tracks.items() if loaded("board") else []):
            node = rs.where[("track-node", name)]
            for i, sid in enumerate(ids):
                if sid not in spaces:
                    self.undef(rs.where[("track", name)][0], *position(node, i), "space", sid, spaces)
        for kind, pairs in (rs.links.items() if loaded("board") else []):
            node = rs.where[("links-node", kind)]
            for i, pair in enumerate(pairs):
                for j, sid in enumerate(pair):
                    if sid not in spaces:
                        self.undef(rs.where[("board-file",)], *position(node[i], j),
                                   "space", sid, spaces)
        game_zones = set(rs.zone_names("game"))
        for kname, k in rs.kinds.items():
            if k.zone is not None and k.zone not in game_zones and loaded("game"):
                f, line, col = rs.where[("kind-zone", kname)]
                self.undef(f, line, col, "game zone", k.zone, game_zones)
        for name, opt in rs.options.items():
            f, line, col = opt["at"]
            if opt["from"] is not None:
                if not loaded("components"):
                    continue
                if opt["from"] not in rs.kinds:
                    self.undef(f, *opt["from_at"], "component kind",
                               opt["from"], rs.kinds)
                    continue
                opt["choices"] = [c.id for c in rs.components if c.kind == opt["from"]]
            d = opt["default"]
            if d is not None and d != "random" and d not in opt["choices"]:
                self.err(f, *opt["default_at"], "OPTION",
                         f"default {d!r} of option {name!r} is not one of its choices")
        self.apply_option_changes()
        self.check_attribute_names()
        all_sides = {sid for sid, _ in rs.seats + rs.sides}
        for f, node in rs.where.get(("supply-refs",), []):
            for k in node:
                if k != "others" and k not in all_sides:
                    self.undef(f, *position(node, k, at_key=True), "side", k, all_sides)
        seat_ids = {sid for sid, _ in rs.seats}
        for name, opt in rs.options.items():
            if opt.get("seats"):
                f, line, col = opt["at"]
                keys = set(opt["seats"])
                if opt["default"] in (None, "random"):
                    self.err(f, line, col, "OPTION", f"option {name!r} chooses the seats, so it "
                             "needs a fixed default")
                for c in opt["choices"]:
                    if str(c) not in keys:
                        self.err(f, line, col, "OPTION", f"option {name!r}: no seats listed for "
                                 f"choice {c!r}")
                for k in keys - {str(c) for c in opt["choices"]}:
                    self.err(f, line, col, "OPTION", f"option {name!r}: seats listed for {k!r}, "
                             "which is not a choice")
            for value, ids in opt.get("seats", {}).items():
                node = opt["seats_node"][_key(opt["seats_node"], value)]
                for i, sid in enumerate(ids):
                    if sid not in seat_ids:
                        self.undef(opt["at"][0], *position(node, i), "seat", sid, seat_ids)

    def check_attribute_names(self):
        """Each side, space and component reads its fields by name: a piece
        kind, variable, zone or attribute must not share a name with a built-in
        field of the same object, nor with another declared name there."""
        rs = self.rs
        pieces = {p: rs.where.get(("piece", p)) for p in rs.pieces}
        owners = [("sides", RESERVED_ATTRS,
                   [("side variable", n, rs.where.get(("var", "side", n))) for n in rs.side_vars]
                   + [("side zone", n, rs.where.get(("zone", "side", n)))
                      for n in rs.zone_names("side")]),
                  ("spaces", SPACE_RESERVED,
                   [("space attribute", n, rs.where.get(("space-attr", n))) for n in rs.space_attrs]
                   + [("space zone", n, rs.where.get(("zone", "space", n)))
                      for n in rs.zone_names("space")])]
        for kname, k in rs.kinds.items():
            owners.append((f"components of kind {kname!r}", set(),
                           [("attribute", n, rs.where.get(("kind-attr", kname, n)))
                            for n in list(k.attributes) + list(k.properties)]))
        owners.append(("components", COMP_RESERVED, []))
        builtin_of = {}  # piece -> the objects on which its name is a built-in field
        for owner, builtin, declared in owners:
            for what, name, at in declared:
                if name in builtin and at and what != "side variable":  # vars: load_game
                    self.err(*at, "DUP-ID", f"{name!r} is a built-in field of {owner}; "
                             f"this {what} needs another name")
            for name, at in pieces.items():
                if name in builtin:
                    builtin_of.setdefault(name, []).append(owner)
                clash = next((w for w, n, _ in declared if n == name), None)
                if clash and at:
                    self.err(*at, "DUP-ID", f"piece kind {name!r} has the name of a {clash} "
                             f"(both would be read as {owner[:-1] if owner.endswith('s') else owner}"
                             f".{name})")
        for name, where in builtin_of.items():
            if pieces[name]:
                self.err(*pieces[name], "DUP-ID", f"{name!r} is a built-in field of "
                         f"{' and '.join(where)}, where pieces are counted; the piece kind "
                         "needs another name")
        for sa in set(rs.space_attrs) & set(rs.zone_names("space")):
            at = rs.where.get(("zone", "space", sa))
            if at:
                self.err(*at, "DUP-ID", f"{sa!r} is both a space attribute and a space zone")

    def undef(self, f, line, col, what, name, known):
        near = difflib.get_close_matches(str(name), [str(k) for k in known], n=1)
        self.err(f, line, col, "REF-UNDEF", f"undefined {what} {name!r}",
                 hint=f"did you mean {near[0]!r}?" if near else "")


def _option(f, node, name, opt) -> dict:
    """An option as the loader keeps it, with the places for messages."""
    return {"choices": list(opt.get("choices", [])), "from": opt.get("from"),
            "default": opt.get("default"),
            "at": (str(f), *position(node, name, at_key=True)),
            "from_at": position(opt, "from"),
            "default_at": position(opt, "default"),
            "seats": {str(k): list(v) for k, v in (opt.get("seats") or {}).items()},
            "seats_node": opt.get("seats")}


def _key(node, text):
    """The mapping key whose text is `text` (YAML keys may be numbers)."""
    return next((k for k in node if str(k) == text), text)


def load_ruleset(folder, variant=None, options=None) -> tuple[Ruleset, list[Diagnostic]]:
    """Load a ruleset folder, with a variant and the overlays its options select.

    A run that loads the same files again (every scenario of a ruleset, each
    overlay a validate checks) gets the Ruleset read the first time: it is
    kept against the content of every file the loader may read, and nothing
    changes a Ruleset once it is loaded."""
    folder = Path(folder)
    key = (str(folder), variant, tuple(sorted((str(k), str(v)) for k, v in
                                              (options or {}).items())))
    stamp = _fingerprint(folder)
    hit = _LOADED.get(key)
    if stamp is not None and hit is not None and hit[0] == stamp:
        _LOADED.move_to_end(key)
        return hit[1], list(hit[2])
    loader = _Loader(folder)
    rs = loader.run(variant, options)
    rs.stamp = stamp
    if stamp is not None:
        _LOADED[key] = (stamp, rs, list(loader.diags))
        while len(_LOADED) > _KEEP:
            _LOADED.popitem(last=False)
    return rs, loader.diags


def fingerprint(folder: Path) -> bytes | None:
    """What load_ruleset keys a folder's results by (see _fingerprint)."""
    return _fingerprint(Path(folder))


_LOADED: "OrderedDict[tuple, tuple]" = OrderedDict()  # key -> (fingerprint, Ruleset, diags)
_KEEP = 24


def _fingerprint(folder: Path) -> bytes | None:
    """A digest of every file the loader may read in `folder` (its own files
    and everything under variants/), names and bytes; None when the folder
    cannot be read (then nothing is kept). Every command that reads a ruleset
    asks for this first, even when its result is kept: from here on no file
    under the folder is read from outside it (yamlio.confine)."""
    try:
        if path_too_long(folder) or not is_dir(folder):
            return None
        confine(folder)
        files = list(folder.iterdir())
        variants = folder / "variants"
        if is_dir(variants):
            files += list(variants.rglob("*"))
        digest = hashlib.sha256()
        for p in sorted(files):
            digest.update(str(p.relative_to(folder)).encode("utf-8", "surrogateescape") + b"\0")
            if p.is_symlink() or not p.is_file():  # refused or skipped by the loader: unread
                digest.update(b"link" if p.is_symlink() else b"other")
                continue
            size = p.stat().st_size
            digest.update(str(size).encode())
            if size <= MAX_FILE_BYTES:  # a larger file is refused unread
                digest.update(hashlib.sha256(p.read_bytes()).digest())
        return digest.digest()
    except (OSError, ValueError, RuntimeError):
        return None
