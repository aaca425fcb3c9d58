"""YAML reading with positions, and JSON-Schema validation mapped back to them."""
from __future__ import annotations

import difflib
import json
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, CommentedSet
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError

from .diagnostics import Diagnostic

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


def load_yaml(path: Path, diags: list[Diagnostic]):
    """Parse one YAML file round-trip (positions kept); None on error."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        diags.append(Diagnostic(str(path), 1, 1, "FILE-MISSING", f"cannot read file: {e}"))
        return None
    yaml = YAML(typ="rt")
    yaml.allow_duplicate_keys = False
    try:
        doc = yaml.load(text)
    except DuplicateKeyError as e:
        mark = e.problem_mark
        key = (e.problem or "").split('"')[1] if '"' in (e.problem or "") else ""
        diags.append(Diagnostic(str(path), mark.line + 1, mark.column + 1, "YAML-DUPKEY",
                                f"duplicate key {key!r}" if key else "duplicate key",
                                hint="a mapping may hold each key once"))
        return None
    except MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        msg = (e.problem or e.context or "invalid YAML").strip()
        code = "YAML-TAG" if "tag" in msg else "YAML-SYNTAX"
        hint = ""
        cm = e.context_mark
        if cm is not None and "flow" in (e.context or "") and mark is not cm:
            opened = text.splitlines()[cm.line][cm.column:cm.column + 1] \
                if cm.line < len(text.splitlines()) else ""
            if opened in ("[", "{"):
                hint = f"is the {opened!r} opened at line {cm.line + 1}, col {cm.column + 1} closed?"
        diags.append(Diagnostic(str(path), line, col, code, msg, hint=hint))
        return None
    except Exception as e:  # ruamel raises a few unmarked errors too
        diags.append(Diagnostic(str(path), 1, 1, "YAML-SYNTAX", str(e).splitlines()[0]))
        return None
    tagged = _tags(doc, None, None, [])
    for line, col, tag in tagged:
        diags.append(Diagnostic(str(path), line, col, "YAML-TAG",
                                f"YAML tags ({tag}) are not allowed in rulesets",
                                hint="write the plain value"))
    return None if tagged else doc


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


def position(node, key=None, *, at_key=False) -> tuple[int, int]:
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


def walk(doc, path):
    """Follow a jsonschema absolute_path; return (parent, last_key, node)."""
    parent, key, node = None, None, doc
    for part in path:
        parent, key = node, part
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
    return parent, key, node


@lru_cache(maxsize=None)
def _registry() -> Registry:
    resources = []
    for f in SCHEMA_DIR.glob("*.schema.json"):
        schema = json.loads(f.read_text(encoding="utf-8"))
        resources.append((f.name, Resource.from_contents(schema)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=_registry())


def plain(node):
    """ruamel containers -> plain dicts/lists (for jsonschema)."""
    if isinstance(node, dict):
        return {str(k): plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    return node


def schema_diagnostics(path: str, doc, schema_name: str) -> list[Diagnostic]:
    out = []
    data = plain(doc)
    for err in validator(schema_name).iter_errors(data):
        out.extend(_map_error(path, doc, err))
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
    at = "/".join(str(p) for p in where) or "the file"
    if err.validator == "additionalProperties" and isinstance(node, dict):
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in node if k not in allowed]
        res = []
        for k in extra:
            line, col = position(node, k, at_key=True)
            near = difflib.get_close_matches(str(k), allowed, n=1)
            hint = f"did you mean {near[0]!r}?" if near else (
                "allowed: " + ", ".join(allowed) if allowed else "")
            res.append(Diagnostic(path, line, col, "SCHEMA-UNKNOWN-KEY",
                                  f"unknown key {k!r} in {at}", hint=hint))
        return res
    if err.validator == "required":
        # point at the key that owns the incomplete mapping, if there is one
        line, col = position(parent, key, at_key=True) if isinstance(parent, CommentedMap) \
            else position(node)
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        return [Diagnostic(path, line, col, "SCHEMA-MISSING",
                           f"{at} is missing required key {missing!r}")]
    if parent is not None:
        line, col = position(parent, key)
    else:
        line, col = position(node)
    if err.validator == "type":
        return [Diagnostic(path, line, col, "SCHEMA-TYPE",
                           f"{at}: expected {_types(err.validator_value)}, got {_shown(err.instance)}")]
    if err.validator == "propertyNames":
        return [Diagnostic(path, line, col, "SCHEMA-VALUE",
                           f"{at}: {err.message}")]
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
        return [Diagnostic(path, line, col, "SCHEMA-VALUE", f"{at}: {best.message}")]
    return [Diagnostic(path, line, col, "SCHEMA-VALUE", f"{at}: {err.message}")]


def _types(t) -> str:
    names = {"integer": "a whole number", "string": "a string", "boolean": "true or false",
             "array": "a list", "object": "a mapping", "null": "nothing"}
    if isinstance(t, list):
        return " or ".join(names.get(x, x) for x in t)
    return names.get(t, t)


def _shown(v) -> str:
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return f"number {v}"
    if isinstance(v, str):
        return f"string {v!r}"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return "nothing" if v is None else type(v).__name__
