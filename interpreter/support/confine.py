"""The folders a run may read under, checked on real paths.

A ruleset folder the user named is confined: a file read under it must
really lie inside it. A variant folder, an overlay folder or `variants/`
itself that is a symbolic link to elsewhere would otherwise have the loader
read, and diagnostics quote, files from anywhere (yamlio.read_text and
diagnostics.read_line both ask escapes_root first).
"""
from __future__ import annotations

import os
from pathlib import Path

__all__ = ["confine", "escapes_root", "ruleset_reach"]

# confined folders: absolute path -> real path (the most recent last)
_ROOTS: dict[str, str] = {}
_ROOTS_MAX = 256


def confine(root: str | Path) -> None:
    """Every file read under `root` from now on must resolve inside it,
    checked on its real path, for every folder on the way."""
    try:
        key, real = os.path.abspath(root), os.path.realpath(root)
    except (OSError, ValueError):
        return
    _ROOTS.pop(key, None)
    _ROOTS[key] = real
    while len(_ROOTS) > _ROOTS_MAX:
        _ROOTS.pop(next(iter(_ROOTS)))


def escapes_root(path: str) -> str | None:
    """The confined folder that `path` lies under by name but not really
    (a folder on the way is a link out of it); None when it is inside."""
    try:
        lexical = os.path.abspath(path)
        real = None
        for key, root in _ROOTS.items():
            if lexical == key or lexical.startswith(key.rstrip(os.sep) + os.sep):
                real = real or os.path.realpath(lexical)
                if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
                    return key
    except (OSError, ValueError):
        return None
    return None


def ruleset_reach(file: str | Path, folder: str | Path) -> bool:
    """Whether a scenario or save `file` may name the ruleset at `folder` by
    itself (guide, section 13): its own folder, a folder inside it, or the
    folder just above it (`ruleset: ..` from a ruleset's scenarios/), all on
    real paths. Any other folder only when the command line names it too."""
    try:
        here = os.path.realpath(os.path.dirname(os.path.abspath(file)))
        real = os.path.realpath(folder)
    except (OSError, ValueError):  # (a NUL: no folder at all, which the caller reports)
        return True
    return real == os.path.dirname(here) or real == here or \
        real.startswith(here.rstrip(os.sep) + os.sep)
