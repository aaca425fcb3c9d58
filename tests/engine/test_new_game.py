"""A new game's board and components are made by code written once per
layout (interpreter/run/newgame.py): every game gets objects of its own, made
as the layout says, and the code holds no text from the rule files."""

import pytest
from helpers import RULES, compiled

from interpreter.model.state import PieceRow, Zone
from interpreter.run.engine import Game, load_program
from interpreter.run.newgame import source

SHIPPED = sorted(p.parent.name for p in RULES.glob("*/game.yaml"))


def _game(program, seed=0):
    return Game(program, seed=seed, agents=[None] * 8)


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_each_game_gets_objects_of_its_own(ruleset):
    program = compiled(RULES / ruleset)
    first = _game(program)
    # scribble over everything the first game owns
    rows = zones = 0
    for obj in [*first.sides, *first.spaces, *first.comps]:
        for k, v in list(vars(obj).items()):
            if k == "zone":
                continue  # where a component lies, not a zone it owns
            if type(v) is PieceRow:
                v.counts[:] = [7] * len(v.counts)
                rows += 1
            elif type(v) is Zone:
                v.items.append("junk")
                zones += 1
    for z in first.zones.values():
        z.items.clear()
    for c in first.comps:
        c.zone = None
    second = _game(program, seed=1)
    assert rows + zones > 0 or ruleset == "tutorial_race"  # (its runners own nothing)
    for obj in [*second.sides, *second.spaces, *second.comps]:
        for k, v in vars(obj).items():
            if k == "zone":
                continue
            if type(v) is PieceRow:
                assert v.counts == [0] * len(second.sides) and v.location is obj
            elif type(v) is Zone:
                assert "junk" not in v.items and v.owner is obj
                assert v.id == f"{obj.id}.{v.name}"
    placed = [c for c in second.comps if c.zone is not None]
    assert all(c in c.zone.items for c in placed)
    assert sum(len(z.items) for z in second.zones.values()) == len(
        [c for c in placed if c.zone.owner is None])
    assert [s.index for s in second.spaces] == list(range(len(second.spaces)))
    assert [c.index for c in second.comps] == list(range(len(second.comps)))
    assert second.spaces_by_id == {s.id: s for s in second.spaces}
    assert second.comps_by_id == {c.id: c for c in second.comps}
    for name, (places, loop, pos) in second.tracks.items():
        assert all(s in second.spaces for s in places)


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_the_builder_holds_no_rule_text(ruleset):
    """Ids, names and values reach the code by position in its constants,
    never as text in it: no quote, and every name it stores to is the
    engine's own or a declared name's u_ attribute."""
    import re
    program, _ = load_program(RULES / ruleset)
    game = _game(program)
    lay = program.layout(len(game.sides))
    text, consts = source(program.template, lay, len(game.sides))
    assert "'" not in text and '"' not in text
    stored = set(re.findall(r"\.(\w+) = ", text))
    engine = {"zones", "spaces", "spaces_by_id", "tracks", "comps", "comps_by_id",
              "comps_by_kind", "name", "owner", "holder", "id", "items", "kind", "visibility",
              "live", "index", "_links", "piece", "location", "counts", "zone"}
    assert all(a in engine or a.startswith(("u_", "z_")) for a in stored), stored - engine
    assert any(isinstance(k, str) for k in consts)
