"""What one side may see: the single visibility model for agents and logs.

Zones are `public` (everyone sees the components), `owner` (only the side
owning the zone sees them; others see a count) or `hidden` (nobody sees
which components are inside, only how many: a bag, a deck).
"""
from __future__ import annotations

from .state import Comp, Space, Zone, display, py_name


def visible(zone: Zone, side) -> bool:
    if zone.visibility == "public":
        return True
    return zone.visibility == "owner" and side is not None and zone.owner is side


def _value(v):
    if isinstance(v, (Comp, Space)) or hasattr(v, "is_player"):
        return v.id
    if isinstance(v, list):
        return [_value(x) for x in v]
    if isinstance(v, (int, str, bool)) or v is None:
        return v
    return display(v)


def _comp(c: Comp, program) -> dict:
    kd = program.rs.kinds[c.kind]
    out = {"id": c.id, "kind": c.kind}
    for name in list(kd.attributes) + list(kd.properties):
        out[name] = _value(getattr(c, py_name(name), None))
    return out


def _zone(z: Zone, side, program):
    if visible(z, side):
        return [_comp(c, program) for c in z.items]
    return {"count": len(z.items)}


def view_for(game, side) -> dict:
    """A JSON-able picture of the game as `side` sees it (None: a spectator)."""
    rs = game.program.rs
    out = {
        "round": game.round,
        "phase": game.phase,
        "current": game.current.id if game.current else None,
        "you": side.id if side is not None else None,
        "options": dict(game.options),
        "variables": {k: _value(getattr(game, f"v_{k}")) for k in rs.game_vars},
        "zones": {name: _zone(z, side, game.program) for name, z in game.zones.items()},
        "sides": {},
        "spaces": {},
    }
    for s in game.sides:
        out["sides"][s.id] = {
            "variables": {k: _value(getattr(s, py_name(k))) for k in rs.side_vars},
            "supply": {p: getattr(s, py_name(p)) for p in rs.pieces},
            "zones": {n: _zone(getattr(s, py_name(n)), side, game.program)
                      for n in rs.zone_names("side")},
        }
    for sp in game.spaces:
        entry = {n: _zone(getattr(sp, py_name(n)), side, game.program)
                 for n in rs.zone_names("space")}
        for p in rs.pieces:
            row = getattr(sp, py_name(p))
            entry[p] = {s.id: row.counts[s.index] for s in game.sides if row.counts[s.index]}
        out["spaces"][sp.id] = entry
    return out


def log_for(game, side) -> list[dict]:
    """The log entries `side` may read (secret ones only for their owner)."""
    sid = side.id if side is not None else None
    return [e for e in game.log if "secret" not in e or e["secret"] == sid]
