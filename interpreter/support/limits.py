"""The engine's limits. Rule files, scenarios and saves are untrusted input:
every stage that reads or runs them is bounded by one of these numbers, and
going past one is a located diagnostic, never a hang or a crash.

rules/README.md ("Sharing rule files safely") lists the same table.
"""
from __future__ import annotations

# --- reading files -----------------------------------------------------------
MAX_FILE_BYTES = 2_000_000  # one YAML, rules, scenario or save file
MAX_PATH_CHARS = 1_000  # a path named on the command line or in a file
MAX_YAML_NODES = 200_000  # values in one YAML document, aliases expanded
MAX_YAML_DEPTH = 64  # mappings and lists nested inside one another
MAX_JSON_DEPTH = 32  # nesting in a saved game

# --- data ---------------------------------------------------------------------
MAX_NUMBER = 10**15  # largest magnitude of a number, in data and at run time
MAX_COPIES = 10_000  # `count:` of one component item
MAX_COMPONENTS = 50_000  # components in a ruleset, all files together
MAX_SPACES = 10_000  # spaces on a board

# --- rule text ----------------------------------------------------------------
MAX_NESTING = 40  # blocks and expressions nested inside one another

# --- running ------------------------------------------------------------------
DEFAULT_STEPS = 10_000_000  # rule steps in one game (game.yaml limits.steps, --max-steps)
STEP_CHUNK = 10_000  # steps handed out at a time; the clock is read between chunks
MAX_SECONDS = 60  # a backstop: a game whose steps are each unusually costly stops too
MAX_LIST = 100_000  # items in one list made at run time
MAX_TEXT = 100_000  # characters in one text made at run time
MAX_LOG = 1_000_000  # log lines in one game
MAX_LOG_LINE = 100_000  # characters in one log line (longer ones are cut and marked)
MAX_LOG_CHARS = 20_000_000  # characters in all the log lines of one game
MAX_DECISIONS = 200_000  # decisions asked in one game
MAX_SOME = 20_000  # selections of one "choose some" tested or ranked one by one
