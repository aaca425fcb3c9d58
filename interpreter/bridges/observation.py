"""A seat's view as a fixed-length vector of numbers, for learning agents.

The vector is read from the seat's view (model/views.view_for) and nothing
else, so it holds no more than the seat may see. Its layout is fixed per
program and player count, from the ruleset's structure, never from a game's
state: so every observation of a game has the same length and meaning.

In order (`Layout.names` gives a name to each place, for debugging):
- the round; the phase, one-hot; whose turn it is and who is deciding, one-hot;
- each numeric (or true/false) game variable the seat may see;
- for each side: each numeric side variable it may see, its supply of each piece;
- for each zone (game, side and space zones): how many components lie there;
- for each component: where it lies, one-hot over the zones plus "not seen",
  then each numeric attribute and property, when the seat sees it;
- for each space: each side's count of each piece there.
Values the seat may not see are 0 (and "not seen" is 1 for a component).
"""
from __future__ import annotations

from typing import Any

from ..model.views import view_for


def _number(v: Any) -> float | None:
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    return None


class Layout:
    """Where each number of the vector comes from, for one program."""

    def __init__(self, game: Any):
        rs = game.program.rs
        self.names: list[str] = ["round"]
        self.phases = ["setup", *[name for name, _ in game.program.phases], "finish"]
        self.names += [f"phase={p}" for p in self.phases]
        self.seats = [p.id for p in game.players]
        self.names += [f"current={s}" for s in self.seats] + [f"deciding={s}" for s in self.seats]
        self.game_vars = [k for k in rs.game_vars if _number(rs.game_vars[k]) is not None]
        self.names += [f"var:{k}" for k in self.game_vars]
        self.sides = [s.id for s in game.sides]
        self.side_vars = [k for k in rs.side_vars if _number(rs.side_vars[k]) is not None]
        self.pieces = list(rs.pieces)
        for s in self.sides:
            self.names += [f"{s}.var:{k}" for k in self.side_vars]
            self.names += [f"{s}.supply:{p}" for p in self.pieces]
        self.zones = _zone_ids(game)
        self.names += [f"count:{z}" for z in self.zones]
        self.where = {z: i for i, z in enumerate(self.zones)}
        self.comps = [c.id for c in game.comps]
        self.comp_fields: dict[str, list[str]] = {}
        for kind, kd in rs.kinds.items():
            self.comp_fields[kind] = list(kd.attributes) + list(kd.properties)
        self.comp_at: dict[str, int] = {}
        for c in game.comps:
            self.comp_at[c.id] = len(self.names)
            self.names += [f"{c.id}@{z}" for z in self.zones] + [f"{c.id}@unseen"]
            self.names += [f"{c.id}.{n}" for n in self.comp_fields[c.kind]]
        self.spaces = [sp.id for sp in game.spaces]
        self.space_zones = list(rs.zone_names("space"))
        self.spaces_at = len(self.names)
        for sp in self.spaces:
            for p in self.pieces:
                self.names += [f"{sp}.{p}:{s}" for s in self.sides]
        self.size = len(self.names)

    def encode(self, game: Any, seat: int, deciding: str | None) -> list[float]:
        """The vector of `seat`'s view of `game` (deciding: the seat asked now)."""
        side = game.players[seat]
        view = view_for(game, side)
        out = [0.0] * self.size
        out[0] = float(view["round"] or 0)
        k = 1
        if view["phase"] in self.phases:
            out[k + self.phases.index(view["phase"])] = 1.0
        k += len(self.phases)
        if view["current"] in self.seats:
            out[k + self.seats.index(view["current"])] = 1.0
        k += len(self.seats)
        if deciding in self.seats:
            out[k + self.seats.index(deciding)] = 1.0
        k += len(self.seats)
        for name in self.game_vars:
            out[k] = _number(view["variables"].get(name)) or 0.0
            k += 1
        for sid in self.sides:
            s = view["sides"][sid]
            for name in self.side_vars:
                out[k] = _number(s["variables"].get(name)) or 0.0
                k += 1
            for p in self.pieces:
                out[k] = _number(s["supply"].get(p)) or 0.0
                k += 1
        zones = _view_zones(view, self.space_zones)
        for zid in self.zones:
            z = zones.get(zid)
            out[k] = float(len(z) if isinstance(z, list) else z["count"] if z else 0)
            k += 1
        seen: dict[str, tuple[str, dict]] = {}
        for zid, z in zones.items():
            for c in z if isinstance(z, list) else z.get("known", ()):
                seen[c["id"]] = (zid, c)
        for cid in self.comps:
            at = self.comp_at[cid]
            fields = self.comp_fields[game.comps_by_id[cid].kind]
            if cid in seen:
                zid, c = seen[cid]
                out[at + self.where[zid]] = 1.0
                base = at + len(self.zones) + 1
                for i, name in enumerate(fields):
                    out[base + i] = _number(c.get(name)) or 0.0
            else:
                out[at + len(self.zones)] = 1.0
        k = self.spaces_at
        for sp in self.spaces:
            entry = view["spaces"][sp]
            for p in self.pieces:
                row = entry.get(p, {})
                for sid in self.sides:
                    out[k] = float(row.get(sid, 0))
                    k += 1
        return out


def _zone_ids(game: Any) -> list[str]:
    """Every zone's id, in a fixed order: the game's, each side's, each space's."""
    rs = game.program.rs
    ids = list(game.zones)
    for s in game.sides:
        ids += [f"{s.id}.{n}" for n in rs.zone_names("side")]
    for sp in game.spaces:
        ids += [f"{sp.id}.{n}" for n in rs.zone_names("space")]
    return ids


def _view_zones(view: dict, space_zones: list[str]) -> dict[str, Any]:
    """The view's zones under the ids _zone_ids gives them."""
    out = dict(view["zones"])
    for sid, s in view["sides"].items():
        for n, z in s["zones"].items():
            out[f"{sid}.{n}"] = z
    for sp, entry in view["spaces"].items():
        for n in space_zones:
            out[f"{sp}.{n}"] = entry[n]
    return out
