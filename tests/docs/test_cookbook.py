"""The guide's cookbook (rules/README.md section 15): every recipe under
rules/examples/ checks cleanly, plays 100 random games to their end on
both back ends alike, and has its own section in the guide."""

import pytest
from helpers import ROOT, seat_agents

from interpreter.designer.difftest import compare
from interpreter.run.engine import Game, active_seats, load_program, validate_ruleset, with_players

EXAMPLES = sorted(p.parent for p in (ROOT / "rules" / "examples").glob("*/game.yaml"))


def test_there_are_ten_recipes():
    assert len(EXAMPLES) >= 10, [p.name for p in EXAMPLES]


@pytest.mark.parametrize("folder", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_a_recipe_validates_and_plays_100_games(folder):
    diags = validate_ruleset(folder)
    assert not diags, [d.short() for d in diags]
    program, _ = load_program(folder)
    seated = with_players(program.rs, {}, None)
    seats = active_seats(program.rs, seated, None)
    ended = 0
    for seed in range(100):
        game = Game(program, seed=seed, options=seated,
                    agents=seat_agents(program, seed, seats)).run()
        ended += game.finished
    assert ended == 100
    assert not compare(folder, range(10), None, {})  # the fast back end plays the same
    guide = (ROOT / "rules" / "README.md").read_text(encoding="utf-8")
    assert f"rulebook play rules/examples/{folder.name}" in guide
