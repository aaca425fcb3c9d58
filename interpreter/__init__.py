"""A generic, declarative rules interpreter for board games.

Rulesets are folders of YAML data and rule-language files (see rules/README.md);
this package loads, checks, compiles and runs them without knowing any game.
"""

__version__ = "0.1.0"
