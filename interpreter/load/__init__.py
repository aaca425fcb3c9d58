"""Reading a ruleset folder: YAML with positions, the JSON Schemas, and the
Ruleset that gathers data and parsed rule files, variants and overlays."""
