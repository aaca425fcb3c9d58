"""The program a bridge plays: a ruleset loaded, checked and compiled, or a
DiagnosticError saying where it is wrong."""
from __future__ import annotations

from pathlib import Path

from ..run.engine import Program, load_program, option_problems
from ..support.diagnostics import DiagnosticError


def program_for(path: str | Path, variant: str | None = None,
                options: dict | None = None) -> Program:
    program, diags = load_program(path, variant=variant, options=options or None)
    errors = [d for d in diags if d.severity == "error"]
    if program is None or errors:
        raise DiagnosticError(errors or diags)
    bad = option_problems(program.rs, options or {})
    if bad:
        raise DiagnosticError(bad)
    return program
