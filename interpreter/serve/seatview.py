"""What each browser of a table is shown: every seat's picture of the game,
made from that seat's view (model/views.py) and its log, never from the
game itself, so that nothing a seat may not see can reach its page. The
decision waited on goes to the seat asked only (and, at a hot-seat table,
to the host's link, which shows the asked seat's picture).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model.labels import names_for, readable
from ..model.numbers import NumberLabels
from ..model.views import Secret, log_for, view_for

if TYPE_CHECKING:
    from ..run.engine import Game
    from .tables import Seat, Table

PUBLIC = "public"  # the spectators' picture
HOST = "host"  # the designer's link
DESIGNER = "designer"  # the replay viewer's picture of everything
LOG_SHOWN = 400  # the last log lines a page holds (the whole log is in the save)

Snapshot = dict  # key (a seat id, PUBLIC or HOST) -> picture (plain data)


def snapshot(table: Table, game: Game, asking: tuple[Seat, Any] | None) -> Snapshot:
    sides = {s.id: s for s in game.players}
    out: Snapshot = {}
    for seat in table.seats:
        side = sides.get(seat.sid)
        out[seat.sid] = picture(table, game, side, asking)
    out[PUBLIC] = picture(table, game, None, None)
    # the host's link: at a hot-seat table the picture of the seat asked (the
    # screen is passed round); else the spectators' (the designer's own seat
    # has its own link)
    shown = out[asking[0].sid] if table.hot_seat and asking is not None else out[PUBLIC]
    out[HOST] = dict(shown, host=True)
    return out


def picture(table: Table, game: Game, side: Any, asking: tuple[Seat, Any] | None) -> dict:
    """One seat's picture (side None: a spectator's)."""
    program = game.program
    rs = program.rs
    view = view_for(game, side)
    names = names_for(program, ())
    seen_log = log_for(game, side)
    turn = asking[0].sid if asking is not None else None
    out: dict[str, Any] = {
        "title": rs.name or rs.id,
        "table": table.tid,
        "you": side.id if side is not None else None,
        "you_name": names.get(side.id, side.id) if side is not None else None,
        "round": view.get("round"),
        "phase": view.get("phase"),
        "turn": turn,
        "turn_name": names.get(turn, turn) if turn else None,
        "seq": table.seq,
        "hot_seat": table.hot_seat,
        "decisions": len(game.history),
        "finished": table.finished,
        "error": table.error,
        "summary": game.summary_for(side),
        "sides": _sides(view, names, side),
        "zones": {name: _zone_text(z, names) for name, z in view.get("zones", {}).items()},
        "board": _board(view, names),
        "log": [e.get("text", "") for e in seen_log[-LOG_SHOWN:]],
        "log_size": len(seen_log),
        "variables": {k: _short(v, names) for k, v in view.get("variables", {}).items()},
        "decision": None,
        "result": _result(game) if table.finished else None,
    }
    if asking is not None and side is not None and asking[0].sid == side.id:
        out["decision"] = decision(asking[1], side.id, program)
    return out


def designer_picture(table: Any, game: Game) -> dict:
    """The designer's picture: every side as it sees itself (its hand, its
    hidden variables), the table as everyone sees it, and the whole log."""
    out = picture(table, game, None, None)
    names = names_for(game.program, ())
    own = {p.id: view_for(game, p)["sides"][p.id] for p in game.players}
    view = view_for(game, None)
    for sid, mine in own.items():
        view["sides"][sid] = mine
    out["sides"] = _sides(view, names, None)
    out["log"] = [e.get("text", "") for e in game.log[-LOG_SHOWN:]]
    out["log_size"] = len(game.log)
    out["designer"] = True
    return out


def decision(d: Any, sid: str, program: Any) -> dict:
    """The decision as the seat asked reads it: its options' labels and words,
    a "choose some" offer's groups, or a number entry's range."""
    out: dict[str, Any] = {"name": d.decision, "prompt": d.prompt}
    if d.labels is None:  # choose some
        some = d.some
        names = names_for(program, [lab for lab, _ in some.groups])
        out["some"] = {"groups": [{"label": lab, "words": readable(lab, names), "most": n}
                                  for lab, n in some.groups],
                       "low": some.low, "high": some.high, "may": some.may}
        return out
    labels = d.labels
    if isinstance(labels, NumberLabels):
        out["number"] = {"low": labels.low, "high": labels.high, "step": labels.step,
                         "describe": labels.describe(),
                         "others": [{"index": labels.index(o), "label": o, "words": o}
                                    for o in labels.others]}
        return out
    shown = [lab.others if type(lab) is Secret and sid not in lab.readers else lab
             for lab in labels]
    names = names_for(program, shown)
    out["options"] = [{"index": i, "label": str(lab), "words": readable(str(lab), names)}
                      for i, lab in enumerate(shown)]
    return out


def _sides(view: dict, names: dict, side: Any) -> list[dict]:
    out = []
    for sid, s in view.get("sides", {}).items():
        facts = [f"{_words(k)} {_short(v, names)}" for k, v in s.get("variables", {}).items()
                 if v not in (None, False, [], "")]
        facts += [f"{names.get(p, p)} {n}" for p, n in s.get("supply", {}).items() if n]
        zones = {z: _zone_text(v, names) for z, v in s.get("zones", {}).items()}
        out.append({"id": sid, "name": names.get(sid, sid), "you": side is not None and
                    sid == side.id, "facts": facts, "zones": zones,
                    "cards": _cards(s.get("zones", {}), names)})
    return out


def _cards(zones: dict, names: dict) -> dict:
    """The components of the zones a seat sees inside, as cards: name and facts."""
    out = {}
    for zname, z in zones.items():
        if isinstance(z, list):
            out[zname] = [_card(c, names) for c in z]
    return out


def _card(c: dict, names: dict) -> dict:
    facts = {k: _short(v, names) for k, v in c.items() if k not in ("id", "kind", "name")}
    text = facts.pop("text", None)
    return {"id": c.get("id"), "name": c.get("name") or c.get("id"), "kind": c.get("kind"),
            "facts": ", ".join(f"{_words(k)} {v}" for k, v in facts.items() if v != ""),
            "text": text}


def _board(view: dict, names: dict) -> dict:
    """space id -> what lies there, in words (pieces per side, components)."""
    out = {}
    for sid, entry in view.get("spaces", {}).items():
        parts = []
        for key, v in entry.items():
            if isinstance(v, dict) and "count" not in v and "hidden" not in v:
                for owner, n in v.items():  # a piece row: per side
                    parts.append(f"{names.get(owner, owner)} {n} {names.get(key, key)}")
            else:
                text = _zone_text(v, names)
                if text:
                    parts.append(f"{_words(key)}: {text}")
        if parts:
            out[sid] = "; ".join(parts)
    return out


def _zone_text(z: Any, names: dict) -> str:
    if isinstance(z, list):
        return ", ".join(_name(c, names) for c in z)
    if isinstance(z, dict) and "count" in z:
        known = [_name(c, names) for c in z.get("known", [])]
        return f"{z['count']} hidden" + (f" (you know {', '.join(known)})" if known else "") \
            if z["count"] else ""
    return ""


def _name(c: Any, names: dict) -> str:
    if isinstance(c, dict):
        if "hidden" in c:
            return f"a {c['hidden']}"
        name = c.get("name") or c.get("id")
        value = c.get("value")
        return f"{name} ({value})" if c.get("kind") and "sides" in c and value is not None \
            else str(name)
    return names.get(str(c), str(c))


def _short(v: Any, names: dict) -> str:
    if isinstance(v, dict):
        if "hidden" in v:
            return f"a {v['hidden']}"
        return "{" + ", ".join(f"{k}: {_short(x, names)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return ", ".join(_short(x, names) for x in v)
    if v is None:
        return "none"
    if v is True or v is False:
        return "yes" if v else "no"
    return names.get(str(v), str(v))


def _words(name: str) -> str:
    return name.replace("_", " ")


def _result(game: Game) -> dict:
    """Who won, and every score (the game is over: nothing is hidden now)."""
    return {"winners": [p.id for p in game.winners], "scores": dict(game.scores())}
