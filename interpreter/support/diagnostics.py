"""One diagnostic type for every stage: loading, schemas, parsing, checking, running.

Rendered `path:line:col: CODE message` (flake8/rustc style); the long form adds
the source line and a caret. Codes are stable: tests and tools may rely on them.
"""
from __future__ import annotations

import json
import os
import stat
from dataclasses import asdict, dataclass, field

from .confine import escapes_root
from .escapes import printable
from .limits import MAX_FILE_BYTES

# Stable codes and what they mean; rules/README.md lists the same table.
CODES = {
    "YAML-SYNTAX": "the file is not valid YAML",
    "YAML-DUPKEY": "a mapping holds the same key twice",
    "YAML-TAG": "the file uses a YAML tag, which rulesets may not",
    "FILE-MISSING": "a file or folder the ruleset needs does not exist",
    "FILE-ENCODING": "a file is not UTF-8 text",
    "YAML-ALIAS": "YAML aliases expand too far, or refer to themselves",
    "LIMIT": "the input goes past one of the engine's limits (size, count, nesting, steps)",
    "SCHEMA-TYPE": "a value has the wrong type",
    "SCHEMA-UNKNOWN-KEY": "a key the schema does not allow (often a typo)",
    "SCHEMA-MISSING": "a required key is missing",
    "SCHEMA-VALUE": "a value is outside what the schema allows",
    "SYNTAX": "the rule text cannot be parsed",
    "REF-UNDEF": "a name is used but never defined",
    "DUP-ID": "the same id is defined twice",
    "TYPE": "a value of the wrong type is used",
    "ARITY": "a call passes the wrong number of arguments",
    "UNREACHABLE": "a definition is never used",
    "VISIBILITY": "a text everyone reads would show what only its owner (or nobody) may see",
    "RUNTIME": "a rule failed while the game was running",
    "CHOICE-ILLEGAL": "a scripted choice is not among the legal options",
    "SCRIPT-LEFT": "a scenario script has choices left when the game ended",
    "RIG-LEFT": "a scenario's rigged rolls or draws were not all used",
    "LOG-TEXT": "a log text failed while the game was logged (a warning: the game went on)",
    "EXPECT-FAIL": "a scenario expectation does not hold",
    "OPTION": "a game option or variant is unknown or has a value it does not allow",
    "SAVE-INVALID": "a saved game file is not one rulebook wrote (bad JSON or fields)",
    "USAGE": "the command line is wrong",
    "INTERNAL": "the interpreter itself failed (a bug: please report it)",
}


@dataclass
class Diagnostic:
    path: str
    line: int
    col: int
    code: str
    message: str
    severity: str = "error"
    hint: str = ""
    source_line: str = field(default="", repr=False)

    def short(self) -> str:
        text = f"{self.path}:{self.line}:{self.col}: {self.code} {self.message}"
        return text + (f" ({self.hint})" if self.hint else "")

    def long(self) -> str:
        out = [self.short()]
        src = read_line(self.path, self.line) or self.source_line
        if src:
            out.append(f"    {src.rstrip()}")
            out.append("    " + " " * max(self.col - 1, 0) + "^")
        return "\n".join(out)

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("source_line", None)
        return d


class DiagnosticError(Exception):
    """Raised to stop a stage with one or more diagnostics."""

    trace: list  # a game's failure: the rules' spans active, outermost first (run/engine.py)

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.short() for d in diagnostics))

    def __reduce__(self) -> tuple:
        # made again from its diagnostics (not its text) when it crosses to
        # another process, as a failed game in a pool of workers does
        return (type(self), (self.diagnostics,), self.__dict__)


def read_line(path: str, line: int) -> str:
    """The source line shown under a diagnostic: only from a plain file within
    the size limit, with control characters shown as escapes, never raising."""
    if escapes_root(path) is not None:  # (the file was refused unread: never quote it)
        return ""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES:
            return ""
        with open(path, "rb") as fh:
            # (lines as the parser counts them: a U+2028 or a form feed ends none)
            lines = fh.read(MAX_FILE_BYTES).decode("utf-8", "replace").split("\n")
    except (OSError, ValueError):
        return ""
    text = lines[line - 1].rstrip("\r") if 0 < line <= len(lines) else ""
    return printable(text[:500], keep="\t")


def render(diags: list[Diagnostic], fmt: str = "text") -> str:
    diags = sorted(diags, key=lambda d: (d.path, d.line, d.col, d.code))
    if fmt == "json":
        return json.dumps([d.to_json() for d in diags], indent=2)
    return printable("\n".join(d.long() for d in diags))  # (messages quote rule text)


def collapse(diags: list[Diagnostic], why: str = "") -> list[Diagnostic]:
    """One diagnostic for each place, code and message, in first-seen order;
    one found several times says how many (`why`: what made it repeat)."""
    import dataclasses

    counts: dict = {}
    order = []
    for d in diags:
        key = (d.path, d.line, d.col, d.code, d.message)
        if key not in counts:
            order.append(d)
            counts[key] = 0
        counts[key] += 1
    out = []
    for d in order:
        n = counts[(d.path, d.line, d.col, d.code, d.message)]
        if n > 1 and why:
            d = dataclasses.replace(d, hint=(d.hint + "; " if d.hint else "") + why.format(n=n))
        out.append(d)
    return out


def waste(d: Diagnostic) -> bool:
    """A checker warning about waste: a phase never played, a handler or
    ability that never runs, a statement that does nothing. `rulebook lint`
    reports these (as LINT- codes); `validate` leaves them to it, and
    reports errors and the likely mistakes lint does not (REF-TEXT)."""
    return d.severity == "warning" and (
        d.code == "UNREACHABLE" or d.message.startswith("this expression does nothing"))
