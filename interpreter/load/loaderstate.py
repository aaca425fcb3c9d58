"""What a loader holds, declared once for the type checker.

ruleset._Loader is assembled from parts (components.py, references.py),
each a class of its own that reads the loader's state and calls its
methods. LoaderState, the base of every part, declares that state and those
methods: annotations without values, so a loader has nothing more at run
time than before (the methods are declared only while types are checked,
and the real ones, in ruleset.py, are checked against them).
_Loader.__init__ sets the attributes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from ..support.diagnostics import Diagnostic
    from .definitions import Ruleset


class LoaderState:
    """The state and the methods the parts of a loader share (ruleset._Loader)."""

    folder: Path
    rs: Ruleset
    diags: list[Diagnostic]
    # kinds of files that failed to load ("*": kind unknown)
    broken: set[str]
    raw: dict[Path, list[str]]  # path -> lines, for the positions of card rules
    too_many: bool  # MAX_COMPONENTS was reported

    if TYPE_CHECKING:
        # ruleset.py
        def err(self, path: str | Path, line: int, col: int, code: str, msg: str,
                hint: str = "") -> None: ...
        def define(self, key: tuple, f: Path, node: Any, k: Any) -> bool: ...
        def apply_option_changes(self) -> None: ...
