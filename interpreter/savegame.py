"""Saved games: ruleset + options + seed + choices, replayed exactly."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .agents import ScriptedAgent


@dataclass
class Step:
    player: str
    choice: str
    decision: str | None = None


def write_save(path: Path, program, game, variant=None) -> None:
    data = {
        "ruleset": str(program.rs.path),
        "variant": variant,
        "seed": game.seed,
        "options": {k: v for k, v in game.options.items()},
        "choices": [list(h) for h in game.history],
    }
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def load_save(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def replay_agents(saved: dict, agents: list):
    """Agents that first replay the saved choices, then (resuming) hand over
    to `agents`, one per seat."""
    script = [Step(p, label, name) for p, name, label in saved["choices"]]
    return [None if a is None else ScriptedAgent(script, fallback=a) for a in agents]
