"""Any ruleset as a PettingZoo AEC environment (extra: `pip install .[rl]`).

    env = interpreter.pettingzoo_env("rules/smile_and_gun")
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else \\
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

The agents are the seats the rules do not play themselves. An action is the
position of an option among the decision's labels (`info["labels"]` names
them; `action_mask` marks the ones on offer): one Discrete space of
`max_actions` for every seat. The observation is the deciding seat's view
as numbers (observation.Layout), with its action mask; a seat not deciding
is observed too, with an empty mask. Rewards come at the end: a win is 1,
shared among the winners. The game is the forward model's (run/forward.py),
so a seed gives the same game as `rulebook play --seed`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..run.forward import MAX_LISTED, Position
from .observation import Layout
from .program import program_for

MAX_ACTIONS = MAX_LISTED + 1  # the most labels a "choose some" lists, and its pass


class RulesetEnv(AECEnv):
    """A ruleset's game as an agent-environment cycle."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, path: str | Path, *, variant: str | None = None,
                 options: dict | None = None, players: int | None = None,
                 max_actions: int = MAX_ACTIONS, render_mode: str | None = None):
        super().__init__()
        self.program = program_for(path, variant, options)
        self.given = dict(options or {})
        self.players = players
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"rulebook_{self.program.rs.id}"}
        first = Position(self.program, 0, self.given, players)
        self.layout = Layout(first.game)
        self.possible_agents = list(self.layout.seats)
        bots = set(self.program.rs.bots)
        self.possible_agents = [s for s in self.possible_agents if s not in bots]
        self.max_actions = max_actions
        n = self.layout.size
        self._obs_space = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (n,), np.float32),
            "action_mask": spaces.Box(0, 1, (max_actions,), np.int8)})
            for a in self.possible_agents}
        self._act_space = {a: spaces.Discrete(max_actions) for a in self.possible_agents}
        self.position: Position = first
        self.seed_used = 0

    # -- spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space[agent]

    # -- the cycle
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self.seed_used = seed
        self.position = Position(self.program, self.seed_used, self.given, self.players)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._after_move()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        labels = self.position.legal()
        i = int(action)
        if not 0 <= i < min(len(labels), self.max_actions):
            raise ValueError(f"action {i} is not on offer to {agent} "
                             f"({min(len(labels), self.max_actions)} options)")
        self._cumulative_rewards[agent] = 0.0
        self.position = self.position.apply(i)
        self._clear_rewards()
        self._after_move()
        self._accumulate_rewards()

    def _after_move(self) -> None:
        """Point at the next seat to decide, or end the game for all."""
        asking = self.position.asking
        for a in self.agents:
            self.infos[a] = {}
        if asking is None:
            for a, r in zip(self.layout.seats, self.position.rewards()):
                if a in self.rewards:
                    self.rewards[a] = float(r)
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = asking.player
        self.infos[asking.player] = {"labels": list(asking.labels[:self.max_actions]),
                                     "decision": asking.decision}

    def observe(self, agent: str) -> dict:
        game = self.position.game
        asking = self.position.asking
        seat = self.layout.seats.index(agent)
        vector = np.asarray(self.layout.encode(game, seat, asking.player if asking else None),
                            dtype=np.float32)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if asking is not None and asking.player == agent:
            mask[:min(len(asking.labels), self.max_actions)] = 1
        return {"observation": vector, "action_mask": mask}

    def render(self) -> str | None:
        """(ansi) Who decides what, and the options; or the result."""
        if self.render_mode is None:
            return None
        asking = self.position.asking
        if asking is None:
            game = self.position.game
            return "game over: " + (", ".join(w.id for w in game.winners) or "no winner")
        return f"{asking.player} chooses {asking.decision}: " + ", ".join(
            f"[{i}] {lab}" for i, lab in enumerate(asking.labels[:self.max_actions]))

    def close(self) -> None:
        self.position = Position(self.program, self.seed_used, self.given, self.players)


def pettingzoo_env(path: str | Path, *, variant: str | None = None, options: dict | None = None,
                   players: int | None = None, **kw: Any) -> RulesetEnv:
    """The ruleset at `path` as a PettingZoo AEC environment."""
    return RulesetEnv(path, variant=variant, options=options, players=players, **kw)
