"""Playing a compiled program: the Game (flow, effects, decisions, windows),
the built-ins generated code calls, the log, agents and saved games."""
