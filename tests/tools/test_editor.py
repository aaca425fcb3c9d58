"""In the designer's editor: `rulebook schema KIND` prints a self-contained
schema that validates the shipped files as the engine does, every schema
property is described with examples, and the TextMate grammar for `.rules`
files knows every keyword of the language."""
import functools
import json
import re
from pathlib import Path

import pytest
from helpers import ROOT, cli, cli_raising
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML

from interpreter.load.schemas import KINDS

GRAMMAR = ROOT / "tools" / "editor" / "rulebook-rules" / "syntaxes" / "rules.tmLanguage.json"


def printed(kind) -> dict:
    r = cli_raising("schema", kind)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


@functools.lru_cache(maxsize=1)
def _shipped_docs() -> tuple:
    """Every shipped YAML file, read once for all the kinds' tests."""
    out = []
    for f in sorted((ROOT / "rules").rglob("*.yaml")):
        doc = YAML(typ="safe").load(f.read_text())
        out.append((f, doc, doc.get("kind", "scenario" if f.name.endswith(".scenario.yaml")
                                    else None) if isinstance(doc, dict) else None))
    return tuple(out)


def shipped(kind):
    """The shipped YAML files of a kind (as their `kind:` key says)."""
    return [(f, doc) for f, doc, k in _shipped_docs() if k == kind]


def refs(node):
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for v in node.values():
            yield from refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from refs(v)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_printed_schema_stands_alone_and_checks_the_shipped_files(kind):
    schema = printed(kind)
    Draft202012Validator.check_schema(schema)
    assert all(r.startswith("#") for r in refs(schema))  # nothing outside this file
    check = Draft202012Validator(schema)  # no registry: every reference must resolve here
    files = shipped(kind)
    if kind == "save":  # none ship: save one
        import tempfile
        path = Path(tempfile.mkdtemp()) / "game.json"
        r = cli("play", ROOT / "rules" / "tutorial_race", "--seed", "1", "--quiet", "--save", path)
        assert r.exit_code == 0, r.output
        files = [(path, json.loads(path.read_text()))]
    if kind == "log":  # a log is made by playing: one line of it per file
        r = cli("play", ROOT / "rules" / "examples" / "hidden_hands", "--seed", "1", "--format",
                "jsonl")
        assert r.exit_code == 0, r.output
        files = [(f"line {i}", json.loads(line)) for i, line in enumerate(r.output.splitlines())]
    assert files, kind
    for f, doc in files:
        assert list(check.iter_errors(doc)) == [], f
    bad = dict(files[0][1], colour_of_the_box="red")
    assert any("colour_of_the_box" in e.message for e in check.iter_errors(bad))


def _properties(node, path=""):
    """Every (path, property schema) under a `properties` at any depth."""
    if isinstance(node, dict):
        props = node.get("properties")
        for k, v in (props if isinstance(props, dict) else {}).items():
            if isinstance(v, dict):
                yield f"{path}/{k}", v
                yield from _properties(v, f"{path}/{k}")
        for k, v in node.items():
            if k == "properties":  # a map of names to schemas, walked above
                continue
            if k in ("$defs", "definitions", "patternProperties") and isinstance(v, dict):
                for name, sub in v.items():
                    yield from _properties(sub, f"{path}/{k}/{name}")
            else:
                yield from _properties(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _properties(v, f"{path}[{i}]")


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "schemas").glob("*.json")))
def test_every_schema_property_is_described_with_examples_that_hold(name):
    schema = json.loads((ROOT / "schemas" / name).read_text())
    kind = name.removesuffix(".schema.json")
    whole = printed(next(k for k, v in KINDS.items() if v == kind))
    missing = [p for p, v in _properties(schema) if not v.get("description") or
               not isinstance(v.get("examples"), list) or not v["examples"]]
    assert missing == [], f"{name}: no description or examples at {missing[:10]}"
    for path, prop in _properties(whole):
        sub = dict(prop, **{"$defs": whole.get("$defs", {})})
        check = Draft202012Validator(sub)
        for example in prop.get("examples", []):
            errors = [e.message for e in check.iter_errors(example)]
            assert errors == [], (name, path, example, errors)


def _keywords() -> set:
    text = (ROOT / "interpreter" / "language" / "rules.lark").read_text()
    return set(re.findall(r'"([a-z][a-z_]*)"', text))


def test_the_grammar_highlights_every_keyword_and_interpolation():
    g = json.loads(GRAMMAR.read_text())
    assert g["scopeName"] == "source.rules" and "rules" in g["fileTypes"]
    found = set()
    for p in g["repository"]["keywords"]["patterns"] + [g["repository"]["constants"]]:
        found |= set(re.findall(r"[a-z_]+", p["match"].replace("\\b", " ")))
    assert _keywords() <= found, sorted(_keywords() - found)

    def patterns(node):
        if isinstance(node, dict):
            for key in ("match", "begin", "end"):
                if key in node:
                    yield node[key]
            for v in node.values():
                yield from patterns(v)
        elif isinstance(node, list):
            for v in node:
                yield from patterns(v)
    for p in patterns(g):
        re.compile(p)  # the plain subset of Oniguruma that Python reads too
    string = g["repository"]["string"]
    assert string["begin"] == '"' and string["patterns"][1]["begin"] == "\\{"
    package = json.loads((GRAMMAR.parent.parent / "package.json").read_text())
    assert package["contributes"]["grammars"][0]["path"] == "./syntaxes/rules.tmLanguage.json"
