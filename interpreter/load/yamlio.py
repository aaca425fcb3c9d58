"""YAML reading with positions, and JSON-Schema validation mapped back to them.

Rule folders, scenarios and saves are untrusted: every file is read through
read_text() (size, encoding, binary checks), every path is tested with the
safe predicates below, and every YAML document is bounded (aliases, nesting,
numbers) before anything walks it recursively. See limits.py.
"""
from __future__ import annotations

import difflib
import json
import math
import os
import re
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, CommentedSet
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    ScalarEvent,
)
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.scalarbool import ScalarBoolean

from ..support.confine import confine, escapes_root
from ..support.diagnostics import Diagnostic
from ..support.diskcache import cached
from ..support.escapes import printable
from ..support.limits import (
    MAX_FILE_BYTES,
    MAX_NUMBER,
    MAX_PATH_CHARS,
    MAX_YAML_DEPTH,
    MAX_YAML_NODES,
)
from ..support.resources import schema_names, schema_text

__all__ = ["read_text", "confine", "is_dir", "is_file", "exists", "path_too_long", "line_col", "shorten",
           "load_yaml", "position", "walk", "plain", "schema_diagnostics", "validator"]



# ------------------------------------------------------------------ paths and files
def path_too_long(path: str | Path) -> bool:
    """True when a path has more characters than MAX_PATH_CHARS."""
    return len(str(path)) > MAX_PATH_CHARS


def _test(path, test) -> bool:
    if path_too_long(path):
        return False
    try:
        return test(Path(path))
    except (OSError, ValueError):  # ENAMETOOLONG, ELOOP, EACCES, an embedded NUL ...
        return False


def is_dir(path: str | Path) -> bool:
    """Path.is_dir() that answers False instead of raising (too long, NUL, no access)."""
    return _test(path, Path.is_dir)


def is_file(path: str | Path) -> bool:
    """Path.is_file() that answers False instead of raising."""
    return _test(path, Path.is_file)


def exists(path: str | Path) -> bool:
    """Path.exists() that answers False instead of raising."""
    return _test(path, Path.exists)


def line_col(text: str, index: int) -> tuple[int, int]:
    """1-based (line, col) of character `index` of `text`."""
    index = max(0, min(index, len(text)))
    start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - start + 1


def read_text(path: str | Path, diags: list[Diagnostic]) -> str | None:
    """The text of one ruleset, scenario or save file; None (with a located
    diagnostic appended) when it is missing, not a regular file, larger than
    MAX_FILE_BYTES (checked before reading), not UTF-8 or binary (a NUL byte).
    A UTF-8 byte-order mark is dropped."""
    shown = str(path)

    def fail(code, msg, line=1, col=1, hint=""):
        diags.append(Diagnostic(shown, line, col, code, msg, hint=hint))
        return None

    if path_too_long(shown):
        return fail("LIMIT", f"the path is {len(shown):,} characters long; the limit is "
                    f"{MAX_PATH_CHARS:,}", hint="use a shorter file or folder name")
    root = escapes_root(shown)
    if root is not None:
        return fail("FILE-MISSING", "cannot read file: a folder on its path is a symbolic link "
                    f"out of the ruleset folder {shorten(root, 200)}",
                    hint="a ruleset reads only what lies inside its own folder; copy the files in")
    try:
        st = os.lstat(shown)
    except (OSError, ValueError) as e:
        return fail("FILE-MISSING", f"cannot read file: {_reason(e)}")
    if stat.S_ISLNK(st.st_mode):  # a shared folder must not read files from elsewhere
        return fail("FILE-MISSING", "cannot read file: it is a symbolic link",
                    hint="rule, scenario and save files must be plain files; copy the file")
    if stat.S_ISDIR(st.st_mode):
        return fail("FILE-MISSING", "cannot read file: it is a folder")
    if not stat.S_ISREG(st.st_mode):
        return fail("FILE-MISSING", "cannot read file: it is not a regular file")
    too_big = ("LIMIT", "the file is larger than the limit of {:,} bytes".format(MAX_FILE_BYTES))
    if st.st_size > MAX_FILE_BYTES:
        return fail(*too_big, hint=f"it is {st.st_size:,} bytes")
    try:
        with open(shown, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)  # never more, even if the file grows
    except (OSError, ValueError) as e:
        return fail("FILE-MISSING", f"cannot read file: {_reason(e)}")
    if len(data) > MAX_FILE_BYTES:
        return fail(*too_big)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start].decode("utf-8")  # valid up to the first bad byte
        line, col = line_col(before, len(before))
        return fail("FILE-ENCODING", f"the file is not UTF-8 text (byte 0x{data[e.start]:02x} "
                    f"cannot be decoded)", line, col, hint="save it as UTF-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    nul = text.find("\0")
    if nul >= 0:
        return fail("FILE-ENCODING", "the file holds a NUL byte: it is binary, not text",
                    *line_col(text, nul))
    return text


def _reason(e: Exception) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e) or type(e).__name__


# ------------------------------------------------------------------ YAML
# Loaded documents by (path, text), with the diagnostics their loading gave:
# a run that loads a ruleset once per variant and overlay reads each file's
# YAML once. The loader only reads a document, never changes it, so every
# caller shares the one tree.
_LOADED: dict = {}
_LOADED_MAX = 1024


def load_yaml(path: Path, diags: list[Diagnostic]) -> Any:
    """Parse one YAML file round-trip (positions kept); None on error."""
    text = read_text(path, diags)
    if text is None:
        return None
    key = (str(path), text)
    hit = _LOADED.get(key)
    if hit is None:
        def read():
            found: list[Diagnostic] = []
            return _load_yaml_text(str(path), text, found), found
        hit = cached("yaml", key, read)
        if len(_LOADED) >= _LOADED_MAX:
            _LOADED.clear()
            _TEXT.clear()
        _LOADED[key] = hit
    doc, found = hit
    diags.extend(found)
    if doc is not None:
        _TEXT[id(doc)] = (doc, text)
    return doc


def _load_yaml_text(path: str, text: str, diags: list[Diagnostic]):
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        bounded = _bounds(text)  # before anything composes or walks the tree
        if bounded is not None:
            line, col, code, msg, hint = bounded
            diags.append(Diagnostic(path, line, col, code, msg, hint=hint))
            return None
        doc = yaml.load(text)
    except DuplicateKeyError as e:
        mark = e.problem_mark
        key = (e.problem or "").split('"')[1] if '"' in (e.problem or "") else ""
        diags.append(Diagnostic(path, mark.line + 1, mark.column + 1, "YAML-DUPKEY",
                                f"duplicate key {shorten(key)!r}" if key else "duplicate key",
                                hint="a mapping may hold each key once"))
        return None
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        msg = shorten((e.problem or e.context or "invalid YAML").strip(), 200)
        code = "YAML-TAG" if "tag" in msg else "YAML-SYNTAX"
        hint = ""
        cm = e.context_mark
        if cm is not None and "flow" in (e.context or "") and mark is not cm:
            opened = text.splitlines()[cm.line][cm.column:cm.column + 1] \
                if cm.line < len(text.splitlines()) else ""
            if opened in ("[", "{"):
                hint = f"is the {opened!r} opened at line {cm.line + 1}, col {cm.column + 1} closed?"
        dedent = _dedented_block_line(text, line) if code == "YAML-SYNTAX" else None
        if dedent is not None:  # the mistake is a line the parser passed over
            d_line, d_col, block_line, want = dedent
            diags.append(Diagnostic(
                path, d_line, d_col, code, f"this line is indented less than the text block "
                f"begun at line {block_line}, which goes on after it",
                hint=f"indent it to column {want} or more, as the block's other lines "
                f"(the YAML reader stopped at line {line}: {msg})"))
            return None
        diags.append(Diagnostic(path, line, col, code, msg, hint=hint))
        return None
    except ReaderError as e:  # a character YAML does not allow (control characters)
        line, col = line_col(text, e.position if isinstance(e.position, int) else 0)
        what = f"#x{e.character:04x}" if isinstance(e.character, int) else repr(e.character)
        diags.append(Diagnostic(path, line, col, "YAML-SYNTAX",
                                f"unacceptable character {what}: {e.reason}"))
        return None
    except (RecursionError, MemoryError):  # the reader itself ran out: best effort
        diags.append(Diagnostic(path, 1, 1, "LIMIT", "the file is too large or too deeply "
                                "nested to read", hint=f"at most {MAX_YAML_DEPTH} levels of "
                                f"nesting and {MAX_YAML_NODES:,} values"))
        return None
    except Exception as e:  # ruamel raises a few unmarked errors too
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        if "integer string conversion" in msg:  # a number of thousands of digits
            m = re.search(r"[0-9_]{1000,}", text)
            line, col = line_col(text, m.start()) if m else (1, 1)
            diags.append(Diagnostic(path, line, col, "LIMIT", _TOO_BIG_NUMBER))
            return None
        diags.append(Diagnostic(path, 1, 1, "YAML-SYNTAX", shorten(msg, 200)))
        return None
    tagged = _tags(doc, None, None, [])
    for line, col, tag in tagged:
        diags.append(Diagnostic(path, line, col, "YAML-TAG",
                                f"YAML tags ({tag}) are not allowed in rulesets",
                                hint="write the plain value"))
    if tagged:
        return None
    big = _big_numbers(doc)
    for line, col, v in big:
        diags.append(Diagnostic(path, line, col, "LIMIT", _TOO_BIG_NUMBER,
                                hint=f"it is {_number_text(v)}"))
    commas = _comma_numbers(text)
    for line, col, written in commas:
        digits = written.replace(",", "")
        diags.append(Diagnostic(
            path, line, col, "YAML-NUMBER", f"{written} is not one number in YAML: a comma "
            f"ends a value inside {{...}} or [...], and elsewhere makes it a text",
            hint=f"write {digits}"))
    return None if big or commas else doc


# `cost: 1,000`: a number written with thousands separators, after a key
_COMMA_NUMBER = re.compile(r"(:\s+)(-?\d{1,3}(?:,\d{3})+)(?=\s*(?:[,}\]#]|$))")


def _comma_numbers(text: str) -> list:
    """(line, col, text) of each `key: 1,000` outside quotes and comments."""
    out: list[tuple[int, int, str]] = []
    if "," not in text:
        return out
    block = None  # the indentation a text block's lines have (`key: |`): prose, skipped
    for i, line in enumerate(text.split("\n"), 1):
        indent = len(line) - len(line.lstrip(" "))
        if block is not None:
            if not line.strip() or indent >= block:
                continue
            block = None
        m = _BLOCK_START.match(line)
        if m is not None:
            block = len(m.group(1)) + 1
            continue
        if "," not in line:
            continue
        code = re.sub(r'"([^"\\]|\\.)*"|\'[^\']*\'', lambda m: " " * len(m.group()), line)
        code = re.sub(r"(^|\s)#.*", "", code)
        for m in _COMMA_NUMBER.finditer(code):
            out.append((i, m.start(2) + 1, m.group(2)))
    return out


_BLOCK_START = re.compile(r"^(\s*)(?:-\s+)?[^#\s][^#]*:\s*[|>][-+0-9]*\s*(?:#.*)?$")


def _dedented_block_line(text: str, error_line: int):
    """A YAML error after a text block (`rules: |`) one line of which is
    indented too little: that line ends the block, and the block's next
    lines, indented as before, then read as broken YAML further down. When
    the block resumes right after a line indented less than its own lines,
    and the reader failed soon after, that line is the mistake: (its line
    and column, the block's first line, the column to indent to)."""
    lines = text.split("\n")
    for i in range(min(error_line, len(lines)) - 1, -1, -1):
        m = _BLOCK_START.match(lines[i])
        if m is None:
            continue
        key_indent = len(m.group(1))
        body = [j for j in range(i + 1, len(lines)) if lines[j].strip()]
        if not body:
            return None
        want = len(lines[body[0]]) - len(lines[body[0]].lstrip(" "))
        if want <= key_indent:
            return None
        for k, j in enumerate(body):
            indent = len(lines[j]) - len(lines[j].lstrip(" "))
            if indent >= want:
                continue
            nxt = body[k + 1] if k + 1 < len(body) else None
            resumes = nxt is not None and \
                len(lines[nxt]) - len(lines[nxt].lstrip(" ")) >= want
            if resumes and j + 1 <= error_line <= j + 12:
                return j + 1, indent + 1, i + 1, want + 1
            return None
        return None
    return None


_TOO_BIG_NUMBER = f"a number larger than {MAX_NUMBER:,} (the largest the engine allows)"
# a plain scalar the resolver reads as an integer (YAML 1.2 and 1.1 forms)
_INT = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F_]+|0[oO]?[0-7_]+|0[bB][01_]+|[0-9][0-9_]*)")
_DIGITS_MAX = 4000  # Python will not convert more than 4,300 digits to an int


def _bounds(text: str):
    """One pass over the parser's events, before the tree is built: the size of
    the document with aliases expanded (memoised per anchor, so linear in the
    text), self-referencing aliases, nesting depth and numbers too long to
    convert. (line, col, code, message, hint) of the first problem, or None."""
    total = 0  # values so far, aliases expanded
    aliased = False
    anchors: dict = {}  # name -> (size, height), or None while the anchored node is open
    stack: list = []  # open collections: [anchor, total before it, depth, deepest inside]
    for ev in YAML(typ="rt").parse(text):
        mark = ev.start_mark
        where = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        if isinstance(ev, DocumentStartEvent):
            total, aliased, anchors = 0, False, {}
            continue
        if isinstance(ev, ScalarEvent):
            total += 1
            if ev.style is None and len(ev.value) > _DIGITS_MAX and _INT.fullmatch(ev.value):
                return (*where, "LIMIT", _TOO_BIG_NUMBER,
                        f"it is {len(ev.value):,} characters long")
            if ev.anchor:
                anchors[ev.anchor] = (1, -1)
        elif isinstance(ev, CollectionStartEvent):
            total += 1
            depth = len(stack) + 1
            if depth > MAX_YAML_DEPTH:
                return (*where, "LIMIT", f"lists and mappings are nested more than "
                        f"{MAX_YAML_DEPTH} deep here", "flatten the data")
            if ev.anchor:
                anchors[ev.anchor] = None  # open: an alias to it now is a cycle
            stack.append([ev.anchor, total - 1, depth, depth])
        elif isinstance(ev, CollectionEndEvent):
            if not stack:
                continue
            anchor, before, depth, deepest = stack.pop()
            if stack:
                stack[-1][3] = max(stack[-1][3], deepest)
            if anchor:
                anchors[anchor] = (total - before, deepest - depth)
        elif isinstance(ev, AliasEvent):
            if ev.anchor not in anchors:
                continue  # undefined: the composer reports it, located
            found = anchors[ev.anchor]
            if found is None:
                return (*where, "YAML-ALIAS", f"alias *{shorten(ev.anchor)} refers to a list or "
                        "mapping that contains it (a cycle)",
                        "an alias may only repeat a value that is complete")
            size, height = found
            total += size
            aliased = True
            depth = len(stack) + 1 + height
            if depth > MAX_YAML_DEPTH:
                return (*where, "LIMIT", f"alias *{shorten(ev.anchor)} nests lists and mappings "
                        f"more than {MAX_YAML_DEPTH} deep here", "flatten the data")
            if stack:
                stack[-1][3] = max(stack[-1][3], depth)
        else:
            continue
        if total > MAX_YAML_NODES:
            if isinstance(ev, AliasEvent) or aliased:
                return (*where, "YAML-ALIAS", f"aliases expand the document past "
                        f"{MAX_YAML_NODES:,} values", "repeat less, or write the values out")
            return (*where, "LIMIT", f"the document holds more than {MAX_YAML_NODES:,} values",
                    "split it into several files")
    return None


def _big_numbers(doc) -> list:
    """(line, col, value) of every number whose magnitude is past MAX_NUMBER;
    each list or mapping is visited once however many aliases share it."""
    out, seen = [], set()
    todo: list[tuple[Any, Any, Any, bool]] = [(doc, None, None, False)]
    while todo:
        node, parent, key, at_key = todo.pop()
        if isinstance(node, (dict, list)):
            if id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, dict):
                items = list(node.items())
                for k, v in reversed(items):
                    todo.append((v, node, k, False))
                    todo.append((k, node, k, True))
            else:
                for i in range(len(node) - 1, -1, -1):
                    todo.append((node[i], node, i, False))
            continue
        if _too_big(node):
            line, col = position(parent, key, at_key=at_key) if parent is not None else (1, 1)
            out.append((line, col, node))
    return out


def _too_big(v) -> bool:
    if isinstance(v, bool) or isinstance(v, ScalarBoolean):
        return False
    if isinstance(v, int):
        return abs(v) > MAX_NUMBER
    if isinstance(v, float):
        return math.isinf(v) or abs(v) > MAX_NUMBER
    return False


def _number_text(v) -> str:
    if isinstance(v, int):
        digits = len(str(abs(int(v)))) if abs(v) < 10 ** 4000 else None
        return f"{digits:,} digits long" if digits else "thousands of digits long"
    return str(float(v))


def shorten(v: object, n: int = 60) -> str:
    """A name or key as shown in a message: long ones are cut, control
    characters escaped."""
    s = str(v)
    cut = s if len(s) <= n else s[:n]
    cut = printable(cut, keep="")
    return cut if len(s) <= n else cut + f"... ({len(s):,} characters)"


def _tags(node, parent, key, out) -> list:
    """(line, col, tag) of every explicitly tagged node (`!!str x`, `!thing {...}`)."""
    tag = getattr(node, "tag", None)
    value = getattr(tag, "value", tag) if tag is not None else None
    if isinstance(node, CommentedSet) or value:
        shown = str(value) if value else "!!set"
        if shown.startswith("tag:yaml.org,2002:"):
            shown = "!!" + shown[len("tag:yaml.org,2002:"):]
        line, col = position(parent, key) if parent is not None else position(node)
        out.append((line, col, shown))
        return out
    if isinstance(node, CommentedMap):
        for k, v in node.items():
            _tags(v, node, k, out)
    elif isinstance(node, CommentedSeq):
        for i, v in enumerate(node):
            _tags(v, node, i, out)
    return out


def position(node: Any, key: Any = None, *, at_key: bool = False) -> tuple[int, int]:
    """1-based line/col of `node[key]` (its value, or its key with at_key)."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return (1, 1)
    try:
        if key is None:
            return (lc.line + 1, lc.col + 1)
        if isinstance(node, CommentedMap):
            line, col = lc.key(key) if at_key else lc.value(key)
            return (line + 1, col + 1)
        if isinstance(node, CommentedSeq):
            line, col = lc.item(key)
            return (line + 1, col + 1)
    except (KeyError, IndexError, TypeError):
        pass
    return (lc.line + 1, lc.col + 1)


def walk(doc: Any, path: Iterable[Any]) -> tuple[Any, Any, Any]:
    """Follow a jsonschema absolute_path; return (parent, last_key, node)."""
    parent, key, node = None, None, doc
    for part in path:
        parent, key = node, part
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
    return parent, key, node


# jsonschema is imported the first time a document is checked: a run that
# finds everything in the disk cache never needs it (it costs ~0.1 s to load).
@lru_cache(maxsize=None)
def _registry():
    from referencing import Registry, Resource

    resources = []
    for name in schema_names():
        schema = json.loads(schema_text(name))
        resources.append((name, Resource.from_contents(schema)))
    return Registry().with_resources(resources)


def _is_integer(checker, v) -> bool:  # 2.0 is not a whole number here, nor is true
    return isinstance(v, int) and not isinstance(v, (bool, ScalarBoolean))


def _is_number(checker, v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, (bool, ScalarBoolean))


@lru_cache(maxsize=None)
def _end_anchored(pattern: str):
    # A schema's `pattern` is ECMA-262, where `$` is the end of the text; in
    # Python's re it also matches before a final newline, so "score\n" would
    # pass "^[a-z]+$" and reach the engine as a name. `\Z` is the end in re.
    return re.compile(re.sub(r"(?<!\\)\$$", r"\\Z", pattern))


def _pattern(validator, pattern, instance, schema):
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not _end_anchored(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=None)
def _validator_class():
    # Draft 2020-12 counts 2.0 as an "integer"; rule data may not. A pattern's
    # `$` is the end of the text, as in the schema's own language (_pattern).
    from jsonschema import Draft202012Validator, validators

    return validators.extend(
        Draft202012Validator,
        validators={"pattern": _pattern},
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many(
            {"integer": _is_integer, "number": _is_number}))


@lru_cache(maxsize=None)
def validator(name: str) -> Any:
    """The checker of schemas/<name>.schema.json (a jsonschema validator)."""
    schema = json.loads(schema_text(f"{name}.schema.json"))
    return _validator_class()(schema, registry=_registry())


def plain(node: Any) -> Any:
    """ruamel containers and scalars -> plain dicts, lists, bools, ints, floats
    and strs (for jsonschema and the engine). The document must have passed
    load_yaml's bounds (depth and expanded size)."""
    if isinstance(node, dict):
        return {str(k): plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    if isinstance(node, (bool, ScalarBoolean)):  # an anchored `&a true` is a ScalarBoolean
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return node


# Checked documents: a document load_yaml shares is checked against a
# schema once per run, however many layers load it.
_CHECKED: dict = {}
_TEXT: dict = {}  # id of a shared document -> (document, the text it was read from)


def schema_diagnostics(path: str, doc: Any, schema_name: str) -> list[Diagnostic]:
    hit = _CHECKED.get((path, schema_name))
    if hit is not None and hit[0] is doc:
        return list(hit[1])
    src = _TEXT.get(id(doc))
    if src is not None and src[0] is doc:  # known text: the check is kept on disk too
        found = cached("schema", (path, schema_name, src[1]),
                       lambda: _schema_diagnostics(path, doc, schema_name))
    else:
        found = _schema_diagnostics(path, doc, schema_name)
    if len(_CHECKED) >= _LOADED_MAX:
        _CHECKED.clear()
    _CHECKED[(path, schema_name)] = (doc, found)
    return list(found)


def _schema_diagnostics(path: str, doc, schema_name: str) -> list[Diagnostic]:
    out = []
    try:  # load_yaml bounds depth and size, so this is only a net
        data = plain(doc)
        for err in validator(schema_name).iter_errors(data):
            out.extend(_map_error(path, doc, err))
    except RecursionError:
        return [Diagnostic(path, 1, 1, "LIMIT", "the file is nested too deeply to check",
                           hint=f"at most {MAX_YAML_DEPTH} levels of lists and mappings")]
    # oneOf/anyOf produce one error per branch at the same place: keep the first
    seen, unique = set(), []
    for d in out:
        k = (d.line, d.col, d.code)
        if k not in seen:
            seen.add(k)
            unique.append(d)
    return unique


def _map_error(path, doc, err) -> list[Diagnostic]:
    where = list(err.absolute_path)
    parent, key, node = walk(doc, where)
    at = "/".join(shorten(p, 40) for p in where) or "the file"
    if err.validator == "additionalProperties" and isinstance(node, dict):
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in node if k not in allowed]
        res = []
        for k in extra:
            line, col = position(node, k, at_key=True)
            near = difflib.get_close_matches(str(k), allowed, n=1)
            hint = f"did you mean {near[0]!r}?" if near else (
                "allowed: " + ", ".join(allowed) if allowed else "")
            if node[k] is None and _flow(node) and " " in str(k):
                # {description: Tricks won, face down}: the comma began a key
                hint = "a comma inside {...} starts a new key: put the text in quotes"
            res.append(Diagnostic(path, line, col, "SCHEMA-UNKNOWN-KEY",
                                  f"unknown key {shorten(k)!r} in {at}", hint=hint))
        return res
    if err.validator == "required":
        # point at the key that owns the incomplete mapping, if there is one
        line, col = position(parent, key, at_key=True) if isinstance(parent, CommentedMap) \
            else position(node)
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        return [Diagnostic(path, line, col, "SCHEMA-MISSING",
                           f"{at} is missing required key {missing!r}")]
    if err.validator == "dependentRequired" and isinstance(node, dict):
        # "each needs product": at the key present, naming the one missing
        res = []
        for k, needs in err.validator_value.items():
            for missing in (n for n in needs if k in node and n not in node):
                line, col = position(node, k, at_key=True)
                res.append(Diagnostic(path, line, col, "SCHEMA-MISSING",
                                      f"{shorten(k)!r} in {at} needs {missing!r} beside it"))
        if res:
            return res
    if isinstance(node, dict) and isinstance(err.instance, str) and err.instance in node \
            and err.validator == "pattern":  # a key that is not a name (propertyNames)
        line, col = position(node, err.instance, at_key=True)
        name = shorten(err.instance)
        why = ("names starting with '_' belong to the engine" if err.instance.startswith("_")
               else "a name is lower-case letters, digits and '_', starting with a letter")
        return [Diagnostic(path, line, col, "SCHEMA-VALUE", f"{at}: {name!r} is not a name",
                           hint=why)]
    if parent is not None:
        line, col = position(parent, key)
    else:
        line, col = position(node)
    if err.validator == "type":
        return [Diagnostic(path, line, col, "SCHEMA-TYPE",
                           f"{at}: expected {_types(err.validator_value)}, got {_shown(err.instance)}")]
    if err.validator == "propertyNames":
        return [Diagnostic(path, line, col, "SCHEMA-VALUE", f"{at}: {_message(err)}")]
    if err.validator in ("oneOf", "anyOf") and err.context:
        top = [e for e in err.context if not list(e.relative_path)]
        if top and all(e.validator == "type" for e in top):  # wrong type for every branch
            wanted = []
            for e in top:
                v = e.validator_value
                wanted += v if isinstance(v, list) else [v]
            return [Diagnostic(path, line, col, "SCHEMA-TYPE",
                               f"{at}: expected {_types(wanted)}, got {_shown(err.instance)}")]
        best = min(err.context, key=lambda e: len(list(e.absolute_path)))
        return [Diagnostic(path, line, col, "SCHEMA-VALUE", f"{at}: {_message(best)}")]
    return [Diagnostic(path, line, col, "SCHEMA-VALUE", f"{at}: {_message(err)}")]


def _flow(node) -> bool:
    """Was this mapping written in braces, on one line ({a: 1, b: 2})?"""
    fa = getattr(node, "fa", None)
    return bool(fa is not None and fa.flow_style())


def _message(err) -> str:
    """jsonschema's message, with a long value in it cut short."""
    msg, shown = err.message, repr(err.instance)
    if len(shown) > 80 and shown in msg:
        short = repr(shorten(err.instance)) if isinstance(err.instance, str) else "the value"
        msg = msg.replace(shown, short)
    return msg


def _types(t: str | list[str]) -> str:
    names = {"integer": "a whole number", "number": "a number", "string": "a string",
             "boolean": "true or false",
             "array": "a list", "object": "a mapping", "null": "nothing"}
    if isinstance(t, list):
        return " or ".join(names.get(x, x) for x in t)
    return names.get(t, t)


def _shown(v) -> str:
    if isinstance(v, (bool, ScalarBoolean)):
        return "true/false"
    if isinstance(v, int):
        return f"number {v}"
    if isinstance(v, float):
        return f"decimal number {float(v)!r}"
    if isinstance(v, str):
        return f"string {shorten(v)!r}"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return "nothing" if v is None else type(v).__name__
