"""The `rulebook` command line: validate, play, simulate.

Exit codes: 0 clean, 1 problems found (or a scenario failed), 2 usage or
internal error. No input, however broken, ends in a Python traceback.
"""
from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path
from typing import Any, NoReturn

import click

from ..support.terminal import echo


def _pipe_closed() -> NoReturn:
    """The reader went away (`rulebook validate | head -1`): stop quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    sys.exit(1)


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            _pipe_closed()
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except Exception:  # last resort: a bug in the interpreter, never a traceback
            tb = traceback.extract_tb(sys.exc_info()[2])[-1]
            echo(f"<interpreter>:{tb.lineno}:1: INTERNAL {sys.exc_info()[1]!r} "
                 f"(in {Path(tb.filename).name}; please report)", err=True)
            sys.exit(2)


@click.group(cls=_Group)
@click.version_option(package_name="rulebook-interpreter")
def main() -> None:
    """Validate, play and simulate board-game rulesets written as data."""
    from ..run.engine import tune_gc
    tune_gc()


# one module per command
from . import (  # noqa: E402
    bench,
    coverage,
    docs,
    info,
    lint,
    new,
    play,
    report,
    schema,
    serve,
    simulate,
    validate,
)

for _command in (bench, coverage, docs, info, lint, new, play, report, schema, serve, simulate,
                 validate):
    main.add_command(_command.command)
