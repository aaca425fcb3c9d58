"""Search agents: players that look ahead through the forward model (run/forward.py)."""
