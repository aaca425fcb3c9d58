"""The JSON Schemas of the ruleset files, for a designer's editor.

`rulebook schema KIND` prints one of them self-contained: what another
schema file it refers to (`game.schema.json#/$defs/name`) is copied under
its `$defs`, so an editor reading one file (yaml-language-server's
`# yaml-language-server: $schema=...` line) finds every description.
"""
from __future__ import annotations

import copy
import json

from ..support.resources import schema_text

# a file's `kind:` -> its schema (a variant and an overlay share one)
KINDS = {"game": "game", "components": "components", "board": "board", "tables": "tables",
         "variant": "overlay", "overlay": "overlay", "scenario": "scenario", "save": "save",
         "log": "log"}


def _load(name: str) -> dict:
    return json.loads(schema_text(f"{name}.schema.json"))


def bundled(kind: str) -> dict:
    """The schema for files of `kind`, with the other schema files it refers
    to embedded under `$defs` (each as `$defs/<file>-schema`, its own references
    re-pointed into the copy)."""
    root = _load(KINDS[kind])
    embedded: dict = {}

    def repoint(node, prefix: str):
        """Rewrite the references in `node`: '#/x' within a copy embedded at
        `prefix`, and 'other.schema.json#/x' into that file's embedded copy."""
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                target, _, pointer = ref.partition("#")
                if target:  # another file: embed it once
                    name = target.removesuffix(".schema.json")
                    if name not in embedded:
                        embedded[name] = None  # (a file that refers back stops here)
                        doc = _load(name)
                        doc.pop("$schema", None)
                        doc.pop("$id", None)
                        embedded[name] = repoint(doc, f"/$defs/{name}-schema")
                    node["$ref"] = f"#/$defs/{name}-schema{pointer}"
                else:
                    node["$ref"] = f"#{prefix}{pointer}"
            for v in node.values():
                repoint(v, prefix)
        elif isinstance(node, list):
            for v in node:
                repoint(v, prefix)
        return node

    out = repoint(copy.deepcopy(root), "")
    if embedded:
        out.setdefault("$defs", {}).update({f"{k}-schema": v for k, v in embedded.items()})
    return out
