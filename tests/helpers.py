"""What many tests share: where the repository and its rulesets are, and
`rulebook` run in-process (tests/conftest.py puts this folder on the path,
so any test imports it as `helpers`)."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules"
GOLDEN = ROOT / "tests" / "golden"


def cli(*args):
    """`rulebook ARGS` in-process: the click result (output, exit code)."""
    return CliRunner().invoke(main, [str(a) for a in args])


def cli_clean(*args):
    """cli(), which must end without a traceback, an INTERNAL error or an
    exception other than the command's own exit."""
    r = cli(*args)
    assert "Traceback" not in r.output and "INTERNAL" not in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r
