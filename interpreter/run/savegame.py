"""Saved games: ruleset + variant + options + seed + choices, replayed exactly.

A save records what a replay needs and nothing it could get wrong: the
options that were given and the ones drawn at random (a replay draws those
again from the same seed, in the same order, and checks it got the same), the
agents that played (a random agent is replayed in step with the saved choices,
so handing over to it mid-game continues the very same game), and the ruleset
as a path relative to the save file's own folder. Save files are untrusted
input: they are checked against schemas/save.schema.json before use.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..load.yamlio import read_text, validator
from ..support.diagnostics import Diagnostic, DiagnosticError
from ..support.limits import MAX_JSON_DEPTH
from .agents import ScriptedAgent

if TYPE_CHECKING:
    from .engine import Game, Program

FORMAT = 1
VARIANT_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*\Z")  # a folder under variants/, nothing else


@dataclass
class Step:
    player: str
    choice: str
    decision: str | None = None


def variant_problem(variant: Any) -> str | None:
    """Why `variant` cannot name a variant folder (None when it can)."""
    if variant is None:
        return None
    if not isinstance(variant, str):
        return f"a variant is named by text, not {type(variant).__name__}"
    if not VARIANT_NAME.match(variant):
        shown = variant if len(variant) <= 60 else variant[:57] + "..."
        return (f"variant {shown!r} is not a variant name: it names a folder under "
                "variants/ (lower-case letters, digits, '-' and '_'; no path)")
    return None


def write_save(path: str | Path, program: Program, game: Game, variant: str | None = None,
               agents: list[str | None] | None = None, error: str | None = None) -> None:
    """Write the save; the ruleset path is stored relative to the save's folder."""
    folder = Path(path).resolve().parent
    try:
        ruleset = os.path.relpath(Path(program.rs.path).resolve(), folder)
    except ValueError:  # another drive (Windows): keep it absolute
        ruleset = str(Path(program.rs.path).resolve())
    data = {
        "format": FORMAT,
        "ruleset": Path(ruleset).as_posix(),
        "ruleset_id": program.rs.id,
        "variant": variant,
        "seed": game.seed,
        "options": dict(game.options),
        "drawn": list(game.drawn),
        "players": sum(not p.bot for p in game.players),  # the bots are not counted
        "agents": list(agents) if agents is not None else None,
        "finished": game.finished,
        "choices": [list(h) for h in game.history],
    }
    if error is not None:
        data["error"] = error
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def load_save(path: str | Path) -> dict:
    """A checked save file; DiagnosticError (code SAVE-INVALID and friends) if not."""
    path = Path(path)
    diags: list[Diagnostic] = []
    text = read_text(path, diags)
    if text is None:
        raise DiagnosticError(diags)

    def bad(msg: str, hint: str = "") -> DiagnosticError:
        return DiagnosticError(Diagnostic(str(path), 1, 1, "SAVE-INVALID", msg, hint=hint))

    depth = _json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise bad(f"the file nests more than {MAX_JSON_DEPTH} levels deep: not a saved game")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        line, col = (getattr(e, "lineno", 1), getattr(e, "colno", 1))
        raise DiagnosticError(Diagnostic(str(path), line, col, "SAVE-INVALID",
                                         f"not a saved game: {getattr(e, 'msg', e)}")) from None
    errors = sorted(validator("save").iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "the file"
        raise bad(f"{where}: {_short(first.message)}", hint="a saved game is written by "
                  "`rulebook play --save`")
    problem = variant_problem(data.get("variant"))
    if problem:
        raise DiagnosticError(Diagnostic(str(path), 1, 1, "OPTION", problem))
    data.setdefault("drawn", [])
    data.setdefault("options", {})
    data["choices"] = [tuple(c) for c in data["choices"]]
    return data


def saved_ruleset(path: str | Path, data: dict) -> Path:
    """Where the saved game's ruleset is: relative to the save file's folder."""
    return Path(path).resolve().parent / data["ruleset"]


def replay_agents(saved: dict, agents: list,
                  specs: list | None = None) -> list[ScriptedAgent | None]:
    """Agents that first replay the saved choices, then (resuming) hand over
    to `agents`, one per seat. An agent of the same kind as the one saved
    for its seat (`specs`) is shown every replayed decision of its seat, so
    that a random agent's generator is exactly where it was at that point."""
    script = [Step(p, label, name) for p, name, label in saved["choices"]]
    before = saved.get("agents") or []
    out: list[ScriptedAgent | None] = []
    for i, a in enumerate(agents):
        if a is None:
            out.append(None)
            continue
        same = specs is not None and i < len(before) and i < len(specs) and \
            before[i] == specs[i] and specs[i] != "human"  # (a person is not asked again)
        out.append(ScriptedAgent(script, fallback=a, follow=a if same else None))
    return out


def _json_depth(text: str) -> int:
    """Deepest nesting of [ and { outside strings, without parsing."""
    depth = best = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth -= 1
    return best


def _short(msg: str) -> str:
    return msg if len(msg) <= 160 else msg[:157] + "..."
