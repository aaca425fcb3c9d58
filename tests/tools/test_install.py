"""What an installed package needs at run time travels inside it, and a new
designer's first ruleset is one command away. (CI also builds the wheel and
uses it from a fresh virtualenv in another folder: tools/check-wheel.)"""
import json
import tomllib

import pytest
from helpers import ROOT
from helpers import cli_raising as run

from interpreter.designer.scaffold import ruleset_id
from interpreter.support import resources


def test_the_schemas_are_package_data_made_from_the_top_level_folder():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "interpreter.schema_files" in conf["packages"]
    assert conf["package-dir"]["interpreter.schema_files"] == "schemas"
    assert conf["package-data"]["interpreter.schema_files"] == ["*.schema.json"]
    assert "templates/**/*" in conf["package-data"]["interpreter"]
    names = resources.schema_names()
    assert names == sorted(p.name for p in (ROOT / "schemas").glob("*.schema.json"))
    for name in names:
        assert json.loads(resources.schema_text(name)) == \
            json.loads((ROOT / "schemas" / name).read_text())
    assert resources.grammar_text() == (ROOT / "interpreter" / "language" / "rules.lark").read_text()


def test_no_module_reads_a_file_beside_the_checkout():
    """Run-time files come through importlib.resources (resources.py): no
    module builds a path out of its own location to reach them."""
    for f in sorted((ROOT / "interpreter").glob("*.py")):
        text = f.read_text()
        if f.name == "resources.py":
            continue
        assert "Path(__file__)" not in text and "__file__" not in text, f.name


def test_new_makes_a_ruleset_that_validates_plays_and_passes_its_scenario(tmp_path):
    folder = tmp_path / "Card Duel"
    r = run("new", folder)
    assert r.exit_code == 0, r.output
    assert "rulebook validate" in r.output
    game = (folder / "game.yaml").read_text()
    assert "id: card_duel" in game and 'name: "Card Duel"' in game
    assert run("validate", folder).output.startswith("0 error(s), 0 warning(s)")
    played = run("play", folder, "--seed", "4", "--json")
    assert played.exit_code == 0, played.output
    result = json.loads(played.output)
    assert result["ruleset"] == "card_duel" and len(result["winners"]) >= 1
    scenarios = sorted((folder / "scenarios").glob("*.scenario.yaml"))
    assert scenarios
    for s in scenarios:
        r = run("play", folder, "--scenario", s)
        assert r.exit_code == 0 and "passed" in r.output, r.output
    lint = run("lint", folder)
    assert lint.exit_code == 0 and "0 finding(s)" in lint.output, lint.output


def test_new_takes_a_title_and_never_writes_over_a_folder(tmp_path):
    r = run("new", tmp_path / "duel", "--name", 'Duel: "the" game')
    assert r.exit_code == 0, r.output
    assert run("validate", tmp_path / "duel").exit_code == 0
    again = run("new", tmp_path / "duel")
    assert again.exit_code == 2 and "already exists" in again.output
    assert run("new", tmp_path / "x", "--name", "two\nlines").exit_code == 2


@pytest.mark.parametrize("folder,ident", [("My Game!", "my_game"), ("3-up", "game_3_up"),
                                          ("___", "my_game"), ("chess2", "chess2")])
def test_a_folder_name_becomes_an_id(folder, ident):
    assert ruleset_id(folder) == ident
