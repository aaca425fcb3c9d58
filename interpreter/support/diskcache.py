"""What reading a rule file costs, kept on disk between runs.

Parsing YAML and rule text is most of the time `validate` and `play` take
before the first move. The results are kept in the user's own cache folder
(found by platformdirs: `$XDG_CACHE_HOME/rulebook`, else `~/.cache/rulebook`
on Linux; made private to the user), one file per result, named by a hash of the file's path and content
and of the code that reads it: a changed file, or a new version of the
reader, simply misses. Only this module writes there, and it writes only
objects it built itself (documents and syntax trees), so loading them back
runs nothing from a rule file. Set RULEBOOK_NO_CACHE=1 to read everything
afresh. A cache that cannot be read or written is ignored."""
from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import pickle
import sys
import tempfile
from pathlib import Path
from types import CodeType
from typing import Any, Callable, Literal

import platformdirs

_folder: Path | None | Literal[False] = None  # False: no usable cache this run
_version: bytes | None = None
# beyond either bound the oldest entries go, so the folder cannot grow forever
MAX_ENTRIES = 20_000
MAX_BYTES = 256 * 2**20
_pruned = False


def folder() -> Path | None:
    """The cache folder, made if need be; None when there is none to use."""
    global _folder
    if _folder is None:
        _folder = False
        if os.environ.get("RULEBOOK_NO_CACHE"):
            return None
        # the platform's user cache folder ($XDG_CACHE_HOME or ~/.cache on
        # Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows)
        path = platformdirs.user_cache_path("rulebook", appauthor=False)
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
            st = path.stat()
            if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o022):
                return None  # somebody else's, or open to others: do not trust it
            _folder = path
        except OSError:
            return None
    return _folder or None


def _code_version() -> bytes:
    global _version
    if _version is None:
        h = hashlib.sha256()
        # every file of the engine and its schemas: any change to the code
        # that reads, checks or compiles rules starts the cache afresh
        from .resources import engine_files
        try:
            for name, data in engine_files():
                h.update(name.encode() + b"\0" + data)
        except OSError:  # unreadable: a key no other run shares
            h.update(os.urandom(16))
        # and the libraries whose objects the entries hold, by where and when
        # they were installed (importing them to ask their versions would
        # cost more than a warm run takes)
        for lib in ("lark", "ruamel.yaml"):
            try:
                spec = importlib.util.find_spec(lib)
                origin = spec.origin if spec is not None else None
                if origin is None:
                    raise LookupError(lib)
                st = os.stat(origin)
                h.update(f"{origin} {st.st_size} {st.st_mtime_ns}".encode())
            except Exception:  # not findable: the code hash still holds
                h.update(lib.encode())
        _version = h.digest()
    return _version


def cached(kind: str, parts: tuple, compute: Callable[[], Any]) -> Any:
    """compute(), or what an earlier run computed for the same kind and
    parts (strings and numbers: a path, a text, offsets)."""
    return _kept(kind, parts, compute, "pickle",
                 lambda v: pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL), pickle.loads)


def compiled_code(source: str, filename: str) -> CodeType:
    """compile(source, filename, "exec"), or the code object an earlier run
    compiled from the same generated source (kept like Python's own
    __pycache__, in the private folder, for this Python version only)."""
    return _kept("code", (sys.version, filename, source),
                 lambda: compile(source, filename, "exec"), "marshal", marshal.dumps, marshal.loads)


def _kept(kind: str, parts: tuple, compute: Callable[[], Any], ext: str,
          dumps: Callable[[Any], bytes], loads: Callable[[bytes], Any]) -> Any:
    where = folder()
    if where is None:
        return compute()
    h = hashlib.sha256(_code_version())
    for p in (kind, *parts):
        b = str(p).encode("utf-8", "surrogatepass")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    path = where / f"{kind}-{h.hexdigest()[:40]}.{ext}"
    try:
        return loads(path.read_bytes())
    except Exception:  # missing, half-written or from an older reader: work it out afresh
        pass
    value = compute()
    try:
        data = dumps(value)
    except Exception:  # a value that cannot be kept: just do not keep it
        return value
    _write(path, data)
    return value


def _write(path: Path, data: bytes) -> None:
    """Write whole or not at all (a reader never sees half a file); a full
    disk or a read-only folder only means no cache."""
    global _pruned
    if not _pruned:  # once a run, before its first new entry
        _pruned = True
        prune(path.parent, MAX_ENTRIES, MAX_BYTES)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def prune(where: Path, keep: int, most_bytes: int) -> None:
    """Past `keep` entries or `most_bytes` in all, remove the least recently
    written down to three quarters of both (entries of edited files and of
    older engines linger otherwise)."""
    try:
        entries = []
        for p in where.iterdir():
            st = p.stat()
            entries.append((st.st_mtime, st.st_size, p))
        total = sum(size for _, size, _ in entries)
        if len(entries) <= keep and total <= most_bytes:
            return
        entries.sort(key=lambda e: e[0])
        count = len(entries)
        for _, size, p in entries:
            if count <= keep * 3 // 4 and total <= most_bytes * 3 // 4:
                break
            p.unlink()
            count -= 1
            total -= size
    except OSError:  # another run pruning at the same time, say
        pass
