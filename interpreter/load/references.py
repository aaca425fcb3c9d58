"""Loading a ruleset, part three: what is checked once every file is read
(references between files, attribute names that clash)."""
from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, Iterable, TypeAlias

from .definitions import COMP_RESERVED, RESERVED_ATTRS, SPACE_RESERVED
from .loaderstate import LoaderState
from .yamlio import position

# where a name is defined, for a message: (path, line, col), None when unknown
_At: TypeAlias = "tuple[str, int, int] | None"


class References(LoaderState):
    """The loader's cross-file checks (a part of ruleset._Loader)."""

    def resolve_references(self) -> None:
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
                    from_at: tuple[int, int] = opt["from_at"]
                    self.undef(f, *from_at, "component kind",
                               opt["from"], rs.kinds)
                    continue
                opt["choices"] = [c.id for c in rs.components if c.kind == opt["from"]]
            d = opt["default"]
            if d is not None and d != "random" and d not in opt["choices"]:
                default_at: tuple[int, int] = opt["default_at"]
                self.err(f, *default_at, "OPTION",
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

    def check_attribute_names(self) -> None:
        """Each side, space and component reads its fields by name: a piece
        kind, variable, zone or attribute must not share a name with a built-in
        field of the same object, nor with another declared name there."""
        rs = self.rs
        pieces: dict[str, _At] = {p: rs.where.get(("piece", p)) for p in rs.pieces}
        # (whose fields, their built-in ones, [(what, name, where)] declared there)
        owners: list[tuple[str, set[str], list[tuple[str, str, _At]]]] = [
            ("sides", RESERVED_ATTRS,
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
        # piece -> the objects on which its name is a built-in field
        builtin_of: dict[str, list[str]] = {}
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
            piece_at = pieces[name]
            if piece_at:
                self.err(*piece_at, "DUP-ID", f"{name!r} is a built-in field of "
                         f"{' and '.join(where)}, where pieces are counted; the piece kind "
                         "needs another name")
        for sa in set(rs.space_attrs) & set(rs.zone_names("space")):
            zone_at: _At = rs.where.get(("zone", "space", sa))
            if zone_at:
                self.err(*zone_at, "DUP-ID", f"{sa!r} is both a space attribute and a space zone")

    def undef(self, f: str | Path, line: int, col: int, what: str, name: Any,
              known: Iterable[Any]) -> None:
        near = difflib.get_close_matches(str(name), [str(k) for k in known], n=1)
        self.err(f, line, col, "REF-UNDEF", f"undefined {what} {name!r}",
                 hint=f"did you mean {near[0]!r}?" if near else "")

def _key(node, text):
    """The mapping key whose text is `text` (YAML keys may be numbers)."""
    return next((k for k in node if str(k) == text), text)
