"""A generic, declarative rules interpreter for board games.

Rulesets are folders of YAML data and rule-language files (see rules/README.md);
this package loads, checks, compiles and runs them without knowing any game.
"""

from typing import Any

__version__ = "0.1.0"
__all__ = ["openspiel_game", "pettingzoo_env"]


def pettingzoo_env(path: Any, *, variant: str | None = None, options: dict | None = None,
                   players: int | None = None, **kw: Any) -> Any:
    """The ruleset at `path` as a PettingZoo AEC environment (needs the
    `rl` extra: pip install ".[rl]"); see bridges/pettingzoo_env.py."""
    from .bridges.pettingzoo_env import pettingzoo_env as make
    return make(path, variant=variant, options=options, players=players, **kw)


def openspiel_game(path: Any, *, variant: str | None = None, options: dict | None = None,
                   players: int | None = None, **kw: Any) -> Any:
    """The ruleset at `path` as an OpenSpiel game (needs the `openspiel`
    extra: pip install ".[openspiel]"); see bridges/openspiel_game.py."""
    from .bridges.openspiel_game import openspiel_game as make
    return make(path, variant=variant, options=options, players=players, **kw)
