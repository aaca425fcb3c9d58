"""Bridges to the frameworks game-AI people bring their own algorithms to:
PettingZoo (`pettingzoo_env.py`, extra `[rl]`) and OpenSpiel
(`openspiel_game.py`, extra `[openspiel]`), both on the forward model."""
