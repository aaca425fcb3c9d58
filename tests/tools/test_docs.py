"""`rulebook docs`: the rules reference made from a ruleset alone.

The Markdown of the tutorial is checked in under tests/golden/ and was read
for readability; regenerate it with `REGOLD=1 pytest tests/tools/test_docs.py` and
read the diff before committing it."""
import dataclasses
import os

import pytest
from helpers import GOLDEN, ROOT, cli_raising, compiled, edit

from interpreter.designer import describe
from interpreter.language import ast as A
from interpreter.run.engine import load_program

SHIPPED = ["tutorial_race", "smile_and_gun", "chicago", "moonshine_kingdom", "scarface_1920"] + [
    f"examples/{p.name}" for p in sorted((ROOT / "rules" / "examples").iterdir())
    if (p / "game.yaml").exists()]


def run(*args):
    return cli_raising("docs", *args)


def test_the_tutorial_reference_reads_as_reviewed():
    r = run(ROOT / "rules" / "tutorial_race", "--format", "md")
    assert r.exit_code == 0, r.output
    path = GOLDEN / "tutorial_race.docs.md"
    if os.environ.get("REGOLD"):
        path.write_text(r.output)
    assert path.exists(), "no golden reference: run with REGOLD=1 and review it"
    assert r.output == path.read_text(), "the tutorial's reference changed: review the diff " \
        "(REGOLD=1 rewrites the golden file)"


def test_the_same_ruleset_gives_the_same_bytes():
    a = run(ROOT / "rules" / "tutorial_race", "--format", "html").output
    b = run(ROOT / "rules" / "tutorial_race", "--format", "html").output
    assert a == b
    assert str(ROOT) not in a


def test_every_node_class_can_describe_itself():
    classes = describe.node_classes()
    assert len(classes) > 40
    assert describe.undescribed() == set()
    for cls in classes:  # a node of each class, its fields filled with small nodes
        values = {f.name: _filler(cls, f.name) for f in dataclasses.fields(cls)
                  if f.name != "span"}
        out = describe.describe(cls(**values))
        text = out if isinstance(out, str) else " ".join(ln.text for ln in out)
        assert text and "cannot be described" not in text, (cls.__name__, text)


def _filler(cls, name):
    x = A.Name("x")
    if cls is A.Const:
        return True
    if cls in describe.EXPRESSIONS and name == "body":
        return x
    if name in ("label", "prompt") and cls is not A.Ability:
        return A.Str(["pick ", x])
    if cls is A.Module and name == "items":
        return [A.Phase("go", [A.Break()])]
    if name == "branches":
        return [(x, [A.Break()])]
    if name == "fors":
        return [("y", x)]
    if name == "phases":
        return [("go", A.NOWHERE)]
    if name == "phase_when":
        return [x]
    if name == "parts":
        return ["hello ", x]
    if name == "params":
        return ["p"]
    if name in ("items", "args"):
        return [x]
    if name in ("body", "orelse", "default", "after", "setup", "finish", "summary", "options"):
        return [A.Break()]
    if name in ("value", "index", "count", "amount"):
        return A.Num(2)
    if name == "op":
        return "+"
    if name == "rounds_kind":
        return "count"
    if name in ("round_robin", "may", "instead", "override"):
        return False
    if name == "priority":
        return 0
    if name in ("name", "event", "var", "param", "piece", "label", "window", "picked", "part",
                "id", "position"):
        return "thing"
    return x


def test_an_unknown_construct_is_a_finding_not_a_crash(monkeypatch):
    program, _ = load_program(ROOT / "rules" / "tutorial_race")
    assert describe.indescribable(program) == []
    monkeypatch.delitem(describe.DESCRIBERS, A.Roll)
    monkeypatch.delitem(describe.STATEMENTS, A.Roll)
    found = describe.indescribable(program)
    assert [type(n).__name__ for n in found] == ["Roll"]
    assert found[0].span.path.endswith("race.rules") and found[0].span.line > 1
    assert "Roll" in describe.undescribed()
    r = run(ROOT / "rules" / "tutorial_race")
    assert r.exit_code == 0 and "cannot be described" in r.output


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_has_an_html_reference(name):
    path = ROOT / "rules" / name
    r = run(path, "--format", "html")
    assert r.exit_code == 0, r.output
    html = r.output
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "<script" not in html and "http://" not in html.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    program = compiled(path)
    has_board = bool(program.rs.spaces)
    assert ("<svg" in html) == has_board
    assert describe.indescribable(program) == []
    assert "cannot be described" not in html


def test_a_variant_is_described_with_its_changes():
    r = run(ROOT / "rules" / "smile_and_gun", "--variant", "solo", "--format", "md")
    assert r.exit_code == 0, r.output
    assert "## Variants and overlays" in r.output and "Variant solo" in r.output


def test_text_from_a_ruleset_is_escaped(ruleset_copy):
    folder = ruleset_copy("tutorial_race", to="hostile")
    evil = "<script>alert(1)</script> & co"
    edit(folder / "game.yaml", "moving by dice.", f"moving by dice. {evil}")
    edit(folder / "game.yaml", "{id: red, name: Red}", "{id: red, name: \"Red <b>&\"}")
    edit(folder / "board.yaml", "boost: {type: bool, default: false}",
         "boost: {type: bool, default: false}\n  name: {type: str, default: \"\"}")
    edit(folder / "board.yaml", "- {id: s1}", f"- {{id: s1, name: \"{evil}\"}}")
    edit(folder / "race.rules", '"{p} completes lap {p.laps}"',
         '"{p} <i>completes</i> lap {p.laps}"')
    r = run(folder, "--format", "html")
    assert r.exit_code == 0, r.output
    assert "<script>" not in r.output and "<b>" not in r.output and "<i>" not in r.output
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in r.output
    svg = r.output[r.output.index("<svg"):r.output.index("</svg>")]
    assert "&lt;script&gt;" in svg
    md = run(folder, "--format", "md").output
    assert "<script>" not in md and "&lt;script&gt;" in md


def test_dash_o_writes_the_file(tmp_path):
    out = tmp_path / "ref.html"
    r = run(ROOT / "rules" / "tutorial_race", "--format", "html", "-o", out)
    assert r.exit_code == 0
    text = out.read_text()
    assert "<svg" in text and "Tutorial Race" in text
    assert "<!DOCTYPE html>" not in r.stdout


def test_a_bad_path_exits_1_with_a_diagnostic(tmp_path):
    r = run(tmp_path / "nowhere")
    assert r.exit_code == 1
    assert "FILE-MISSING" in r.output and "Traceback" not in r.output


def test_a_broken_ruleset_exits_1_with_the_located_problem(ruleset_copy):
    folder = ruleset_copy("tutorial_race", to="broken")
    edit(folder / "race.rules", "roll cup", "roll cupp")
    r = run(folder)
    assert r.exit_code == 1
    assert "race.rules:" in r.output and "REF-UNDEF" in r.output
