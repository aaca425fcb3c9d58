"""Attaching a component to another (issue 33): a gun on a gangster, a
nigiri on a wasabi. The attached one lies in its host's zone, goes where the
host goes, is shown when the host is shown, and comes off when it is moved
on its own or detached."""
from __future__ import annotations

import shutil

import pytest
from helpers import compiled, first_agents, load_errors, locate

from interpreter.designer.refdocs import reference
from interpreter.model.views import log_for
from interpreter.run.engine import Game
from interpreter.support.diagnostics import DiagnosticError

RACE = """
game {{
  setup {{
    for p in players {{ p.at = space("start") }}
    for p in players {{ draw 3 from deck to p.hand }}
  }}
  rounds 1 {{
    talk
  }}
  finish {{ win most(players, p => p.laps) }}
}}
{more}
"""
HANDS = {"zones:\n  game:\n": "zones:\n  side:\n    hand: {visibility: owner}\n"
                              "    table: {}\n  game:\n"
                              "    deck: {type: deck, visibility: hidden}\n"
                              "    discard: {}\n"}
CARDS = "kind: components\ncomponent: card\nattributes:\n  power: {type: int, default: 1}\n" \
    "zone: deck\nitems:\n" + "".join(f"  - {{id: c{i}, power: {i}}}\n" for i in range(8))

TABLE = """phase talk {
  let boss = red.hand.items[0]
  let gun = red.hand.items[1]
  move boss to red.table
  attach gun to boss
  log "on {boss.id}: {[c.id for c in boss.attached]}; {gun.id} on {gun.host.id}"
  red.laps = sum([boss] + boss.attached, c => c.power)
  move boss to discard
  log "discard {[c.id for c in discard]}; still on {gun.host.id}"
  move gun to red.hand
  log "host now {gun.host}; boss carries {len(boss.attached)}"
}
"""


def game_with(make_ruleset, more, **kw):
    return make_ruleset(RACE.format(more=more), game_edits=HANDS, files={"cards.yaml": CARDS},
                        **kw)


def played(folder, backend="fast"):
    return Game(compiled(folder, backend=backend), seed=1, agents=first_agents(),
                logging=True).run()


def texts(game, seat=None):
    log = game.log if seat is None else log_for(game, seat)
    return [e["text"] for e in log]


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_an_attached_card_goes_where_its_host_goes(make_ruleset, backend):
    game = played(game_with(make_ruleset, TABLE), backend)
    red = game.players[0]
    boss, gun = "c0", "c1"  # (an unshuffled deck deals from the top)
    out = texts(game)
    assert out[3:] == [
        f"{boss} goes from red's hand to red's table",
        f"{gun} goes from red's hand to red's table",  # to lie with its host
        f"{gun} is attached to {boss}",
        f"on {boss}: {gun}; {gun} on {boss}",
        f"{boss} goes from red's table to discard",
        f"{gun} goes from red's table to discard",  # carried along, still attached
        f"discard {boss} and {gun}; still on {boss}",
        f"{gun} goes from discard to red's hand",  # moved on its own: it comes off
        "host now none; boss carries 0",
        "after round 1: red 1, blue 0", "game over: red"]
    assert red.u_laps == 0 + 1  # the powers of the boss and what it carries


SECRET = """phase talk {
  let boss = red.hand.items[0]
  let first = red.hand.items[2]
  let then = red.hand.items[1]
  attach first to boss
  attach then to boss
  red.laps = 100 * index_of(red.hand.items, boss) + 10 * index_of(red.hand.items, first) +
    index_of(red.hand.items, then)
  reveal boss to blue
  detach then
  log "left {len(boss.attached)}"
}
"""


def test_what_is_attached_in_a_hidden_zone_stays_hidden_and_is_shown_with_its_host(
        make_ruleset):
    game = played(game_with(make_ruleset, SECRET))
    red, blue = game.players
    # each attached lies right after its host and what is already attached to it
    assert red.u_laps == 0 * 100 + 1 * 10 + 2
    theirs = texts(game, blue)
    assert "a card is attached to a card" in theirs
    assert "c2 is attached to c0" in texts(game, red) and "c2 is attached to c0" not in theirs
    # a reveal shows the host and what lies on it; a detach leaves it where it is
    for c in ("c0", "c2", "c1"):
        assert f"blue sees {c} in red's hand" in theirs
    assert "c1 comes off c0" in texts(game, red) and "left 1" in texts(game)


def test_attaching_what_cannot_be_attached_is_an_error(make_ruleset):
    for rules, message in [
            ("let b = red.hand.items[0]\n  attach b to b", "c0 cannot be attached to c0: it is "
             "the same component"),
            ("let b = red.hand.items[0]\n  let g = red.hand.items[1]\n  attach g to b\n"
             "  attach b to g", "c0 cannot be attached to c1: that is attached to it")]:
        folder = game_with(make_ruleset, "phase talk {\n  " + rules + "\n}\n")
        with pytest.raises(DiagnosticError, match=message):
            Game(compiled(folder), seed=1, agents=first_agents()).run()
        shutil.rmtree(folder)


def test_attach_is_type_checked(make_ruleset):
    folder = game_with(make_ruleset, "phase talk {\n  attach red.hand.items[0] to red\n"
                       "  attach 3 to red.hand.items[0]\n}\n")
    text = (folder / "race.rules").read_text()
    got = [(d.code, d.line, d.col, d.message) for d in load_errors(folder)]
    assert ("TYPE", *locate(text, "red\n"), "components are attached to a component, not "
            "a side") in got
    assert ("TYPE", *locate(text, "3 to"), "only components move between zones, not "
            "a number") in got


def test_docs_read_attach(make_ruleset):
    text = reference(game_with(make_ruleset, TABLE))
    assert "Attach gun to boss (in its zone; it goes where that goes)." in text


CARRY = """phase talk {
  let held = red.hand.items
  attach held[1] to held[0]
  attach held[2] to held[1]
  move held[0] to deck
  draw 1 from deck to red.table
  cycle [red.table, blue.table]
  red.laps = len(blue.table.items)
  blue.laps = 1 if held[2].host == held[1] and held[1].host == held[0] and
    held[0].holder == blue else 0
}
"""


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_a_draw_and_a_cycle_carry_what_is_attached(make_ruleset, backend):
    game = played(game_with(make_ruleset, CARRY), backend)
    red, blue = game.players
    # the boss on top of the deck is drawn with the gun and the gun's scope, and
    # the three pass to blue's table together, still attached
    assert (red.u_laps, blue.u_laps) == (3, 1)
    assert [c.id for c in blue.u_table.items] == ["c0", "c1", "c2"]
