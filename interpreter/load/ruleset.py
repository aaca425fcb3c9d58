"""Load a ruleset folder: YAML data and rule files -> a checked definition.

A ruleset folder holds one `game.yaml` (kind: game), any number of other YAML
files (kind: components / board / tables) and `*.rules` files. Every problem
found is collected as a Diagnostic; loading never stops at the first.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from ..language.parser import Source, parse
from ..support.diagnostics import Diagnostic, DiagnosticError
from ..support.limits import MAX_FILE_BYTES, MAX_PATH_CHARS, MAX_SPACES
from .components import Components
from .definitions import RESERVED_ATTRS, Ruleset, ZoneDef
from .references import References
from .yamlio import (confine, exists, is_dir, load_yaml, path_too_long, plain, position, read_text,
                     schema_diagnostics, shorten)


class _Loader(Components, References):
    """Reads one folder: the game file, its layers and overlays, board and
    tables here; component files (components.py) and the checks made once
    everything is read (references.py) in their own parts."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.rs = Ruleset(folder)
        self.diags: list[Diagnostic] = []
        # kinds of files that failed to load ("*": kind unknown); references into
        # them are not checked, so one broken file does not cascade into others
        self.broken: set[str] = set()
        self.raw: dict = {}  # path -> lines, for the positions of card rules
        self.too_many = False  # MAX_COMPONENTS was reported

    def err(self, path: str | Path, line: int, col: int, code: str, msg: str,
            hint: str = "") -> None:
        self.diags.append(Diagnostic(str(path), line, col, code, msg, hint=hint))

    def run(self, variant: str | None = None, options: dict | None = None) -> Ruleset:
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

    def load_overlays(self, vdir: Path, options: dict) -> None:
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

    def load_layer(self, folder: Path, kinds: tuple[str, ...]) -> None:
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

    def variable(self, f: Path, node: CommentedMap, scope: str, name: str, init: Any) -> Any:
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
    def load_overlay(self, f: Path, doc: CommentedMap) -> None:
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

    def apply_option_changes(self) -> None:
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
    def load_game(self, f: Path, doc: CommentedMap) -> None:
        rs = self.rs
        rs.id, rs.name = doc["id"], doc["name"]
        rs.where["game"] = (str(f), 1, 1)
        for s in doc["seats"]:
            rs.seats.append((s["id"], s.get("name", s["id"])))
            self.define(("side", s["id"]), f, s, "id")
        for s in doc.get("sides", []):
            rs.sides.append((s["id"], s.get("name", s["id"])))
            self.define(("side", s["id"]), f, s, "id")
        # seats the rules play in every game: `players` counts the others
        seats = {sid for sid, _ in rs.seats}
        for i, sid in enumerate(doc.get("bots") or []):
            if sid not in seats:
                self.undef(f, *position(doc["bots"], i), "seat", sid, seats)
            else:
                rs.bots.add(sid)
        free = len(rs.seats) - len(rs.bots)
        if rs.bots and free < 1:
            self.err(f, *position(doc, "bots"), "SCHEMA-VALUE",
                     "the bots take every seat the game has: no player is left")
        p = doc.get("players", max(free, 1))
        rs.min_players, rs.max_players = (p, p) if isinstance(p, int) else (p["min"], p["max"])
        rs.default_players = None if isinstance(p, int) else p.get("default")
        if "players" in doc:
            rs.where["players"] = (str(f), *position(doc, "players"))
        if free >= 1 and (rs.max_players > free or rs.min_players > rs.max_players or not (
                rs.min_players <= (rs.default_players or rs.max_players) <= rs.max_players)):
            self.err(f, *position(doc, "players"), "SCHEMA-VALUE",
                     f"players must be between 1 and the {free} seats"
                     + (" besides the bots" if rs.bots else "") + ", min <= default <= max")
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
            # a function of the rules, `def NAME(p)`: the compiler checks it
            rs.score_fn, rs.score_var = rs.score_var, None
            rs.where["score"] = (str(f), *position(doc, "score"))
        dup = set(rs.side_vars) & set(rs.zone_names("side"))
        for name in sorted(dup):
            self.err(f, 1, 1, "DUP-ID", f"{name!r} is both a side variable and a side zone")

    def piece(self, f: Path, node: CommentedMap, name: str, p: Any) -> None:
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

    def define(self, key: tuple, f: Path, node: Any, k: Any) -> bool:
        line, col = position(node, k, at_key=isinstance(node, dict)) if node is not None else (1, 1)
        if key in self.rs.where and key[0] != "game":
            p0, l0, _ = self.rs.where[key]
            self.err(f, line, col, "DUP-ID", f"{key[-1]!r} is defined twice (first at {p0}:{l0})")
            return False
        self.rs.where[key] = (str(f), line, col)
        return True

    # -- board ---------------------------------------------------------------
    def load_board(self, f: Path, doc: CommentedMap) -> None:
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

    # -- tables --------------------------------------------------------------
    def load_tables(self, f: Path, doc: CommentedMap, replace: bool = False) -> None:
        """Tables of an overlay replace the base's tables of the same name."""
        for name, v in doc["tables"].items():
            if replace and name in self.rs.tables:
                if plain(v) == self.rs.tables[name]:  # (rulebook lint: it shadows nothing)
                    self.rs.where.setdefault(("same-table",), []).append(
                        (str(f), *position(doc["tables"], name, at_key=True), name))
                self.rs.tables[name] = plain(v)
            elif self.define(("table", name), f, doc["tables"], name):
                self.rs.tables[name] = plain(v)


def _option(f: Path, node: CommentedMap, name: str, opt: Any) -> dict:
    """An option as the loader keeps it, with the places for messages."""
    return {"choices": list(opt.get("choices", [])), "from": opt.get("from"),
            "default": opt.get("default"),
            "at": (str(f), *position(node, name, at_key=True)),
            "from_at": position(opt, "from"),
            "default_at": position(opt, "default"),
            "seats": {str(k): list(v) for k, v in (opt.get("seats") or {}).items()},
            "seats_node": opt.get("seats")}



def load_ruleset(folder: str | Path, variant: str | None = None,
                 options: dict | None = None) -> tuple[Ruleset, list[Diagnostic]]:
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
