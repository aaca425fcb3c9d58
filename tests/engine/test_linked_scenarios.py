"""A scenario's own code (arrange, expectations) is compiled alone and linked
onto the ruleset's kept program when it runs on that program's code
unchanged; otherwise the ruleset is compiled again with it. Either way the
scenario plays exactly as a full compile plays it."""
from pathlib import Path

import pytest
from helpers import RACE, RULES, copy_ruleset

from interpreter.designer.scenario import run_scenario_file
from interpreter.run import program

LINKED = program._linked


def outcome(path):
    r = run_scenario_file(Path(path))
    g = r.game
    return (r.ok, r.checks, [d.short() for d in r.diagnostics],
            None if g is None else ([e["text"] for e in g.log], [list(h) for h in g.history],
                                    [w.id for w in g.winners]))


def both(path, monkeypatch):
    """(outcome linked, outcome compiled whole, whether it was linked)."""
    calls = []

    def spy(*a, **k):
        got = LINKED(*a, **k)
        calls.append(got is not None)
        return got
    monkeypatch.setattr(program, "_linked", spy)
    linked = outcome(path)
    monkeypatch.setattr(program, "_linked", lambda *a, **k: None)
    whole = outcome(path)
    return linked, whole, any(calls)


def sample():
    out = []
    for name in ("smile_and_gun", "chicago", "moonshine_kingdom", "scarface_1920"):
        files = sorted((RULES / name).rglob("*.scenario.yaml"))
        out += files[::max(1, len(files) // 2)][:2]
    return out


@pytest.mark.parametrize("path", sample(), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_linked_scenario_plays_as_the_whole_compile_does(path, monkeypatch):
    linked, whole, _ = both(path, monkeypatch)
    assert linked == whole
    assert linked[0], linked[2]


def test_most_scenarios_link_and_those_that_place_pieces_anew_compile_whole(monkeypatch):
    # cubes arranged on a tile, where no rule of the base game puts them: the
    # fast back end keeps no count there, so this one is compiled whole
    special = RULES / "smile_and_gun" / "scenarios" / "solo-final-win.scenario.yaml"
    linked, whole, was_linked = both(special, monkeypatch)
    assert not was_linked and linked == whole and linked[0]
    plain = RACE / "scenarios" / "first-to-finish.scenario.yaml"
    linked, whole, was_linked = both(plain, monkeypatch)
    assert was_linked and linked == whole and linked[0]


def race_scenario(tmp_path, expect, arrange=""):
    folder = copy_ruleset("tutorial_race", tmp_path / "race")
    path = folder / "scenarios" / "mine.scenario.yaml"
    path.write_text("scenario: a check\nruleset: ..\nrig:\n  rolls: [2, 5, 3, 1, 3, 3]\n"
                    "options: {laps: 1}\nscript:\n  - red: move:5\n  - blue: move:3\n"
                    + (f"arrange: |\n  {arrange}\n" if arrange else "")
                    + "expect:\n  - that:\n      - " + expect + "\n")
    return path


def test_code_that_passes_another_type_to_typed_rules_compiles_whole(tmp_path, monkeypatch):
    """`progress` is typed for a side by the rules' own calls; a check that
    passes it a list would make a whole compile leave it untyped, so the
    scenario is not linked, and fails as the whole compile fails it."""
    path = race_scenario(tmp_path, "progress(winners) == 0")
    linked, whole, was_linked = both(path, monkeypatch)
    assert not was_linked and linked == whole and not linked[0]
    path = race_scenario(tmp_path / "b", "progress(red) == 8", arrange="red.laps = 0")
    linked, whole, was_linked = both(path, monkeypatch)
    assert was_linked and linked == whole and linked[0]


def test_errors_in_scenario_code_are_those_of_the_whole_compile(tmp_path, monkeypatch):
    path = race_scenario(tmp_path, "progres(red) == 8")
    linked, whole, _ = both(path, monkeypatch)
    assert linked == whole and not linked[0]
    assert "REF-UNDEF" in linked[2][0] and "progress" in linked[2][0]
