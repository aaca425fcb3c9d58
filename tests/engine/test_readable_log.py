"""The log in words: one sentence per event, subject first, in the
ruleset's words where it gives them (`log` clauses on events), names for
components, zones and pieces, one line per draw, and a summary at the end
of each round; secrets stay with those who may see them."""
import re

import pytest
from helpers import ROOT, cli, cli_raising, compiled, first_agents, load_errors, run_game

from interpreter.model.views import log_for

CARDS = """
kind: components
component: card
description: three cards with names, face down in the deck
zone: deck
attributes:
  name: {type: str}
items:
  - {id: gold, name: Gold Bar}
  - {id: tin, name: Tin Cup}
  - {id: lead, name: Lead Pipe}
"""


# the race with a hand for each seat, a hidden deck of the three cards and a
# table to show them on
WITH_CARDS = {
    "game_edits": {"zones:\n  game:\n": "zones:\n  side:\n    hand: {visibility: owner}\n"
                                        "  game:\n    deck: {type: deck, visibility: hidden}\n"
                                        "    shown_cards: {title: the table}\n"},
    "files": {"cards.yaml": CARDS}}


@pytest.fixture
def ruleset(make_ruleset):
    """ruleset(rules, game_extra=""): the race WITH_CARDS and these rules."""
    return lambda rules, game_extra="": make_ruleset(rules, game_extra, **WITH_CARDS)


def play(folder, backend="fast"):
    return run_game(compiled(folder, backend=backend), agents=first_agents(), logging=True)


def texts(game, side=None):
    if side is None:
        return [e["text"] for e in game.log]
    return [e["text"] for e in log_for(game, side)]


DRAWS = """
game { rounds 1 { race } }
phase race {
  draw 2 from deck to red.hand
  move red.hand.top to shown_cards log c => "red shows {c}"
  draw 1 from deck to blue.hand log cards => "blue picks up {cards}"
  move blue.hand to shown_cards
}
"""


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_a_draw_is_one_line_and_a_log_clause_replaces_the_engines_words(ruleset, backend):
    game = play(ruleset(DRAWS), backend)
    red, blue = game.n_red, game.n_blue
    assert texts(game)[1:] == [
        "red draws Gold Bar and Tin Cup from deck",
        "red shows Gold Bar",
        "blue picks up Lead Pipe",
        "Lead Pipe goes from blue's hand to the table",
        "after round 1: red 0, blue 0", "game over: no winner"]
    # blue may not see red's hand: the engine's counted words, never the names
    assert texts(game, blue)[1:4] == ["red draws 2 cards from deck", "red shows Gold Bar",
                                      "blue picks up Lead Pipe"]
    # red may not read blue's own line: its secret names the card
    assert texts(game, red)[3] == "blue draws a card from deck"
    assert not any("Lead Pipe" in t for t in texts(game, red)[:3])
    secret = [e for e in game.log if e["text"] == "blue picks up Lead Pipe"]
    assert len(secret) == 1 and secret[0]["see"] == ["blue"]


EVENTS = """
game { rounds 1 { race } }
phase race {
  move components("die") to cup
  roll cup log "red throws {sum(cup, d => d.value)}"
  place 1 flag of red at space("s1") log n => "red plants {n} flag"
  place 3 flag of red at space("s2")
  transfer 1 flag of red from space("s2") to space("s3") log ""
  transfer 1 flag of red from space("s2") to space("s3") log n => "red shifts {n} to s3"
  choose red as pick "which?" log l => "red goes for {l}" {
    option "left" { }
    option "right" { }
  }
  choose blue as other "which?" {
    option "up" { }
  }
}
"""

PIECES = "pieces:\n  flag: {supply: 5, plural: flags}\n"


def test_rolls_placements_and_decisions_read_as_sentences(ruleset):
    game = play(ruleset(EVENTS, PIECES))
    lines = texts(game)  # (the dice lie in the cup already: a move within a set is not said)
    assert lines[1].startswith("red throws ") and "rolls" not in " ".join(lines)
    assert lines[2:] == ["red plants 1 flag", "red places 3 flags at s2", "red shifts 1 to s3",
                         "red goes for left", "blue chooses up (other, only option)",
                         "after round 1: red 0, blue 0", "game over: no winner"]


SUMMARY = """
game {
  rounds 2 { race }
  summary {
    let best = 0
    for p in players {
      if p.laps > best { best = p.laps }
      log "{p} has run {p.laps} laps"
    }
    log "best: {best}"
  }
}
phase race {
  for p in players { p.laps += 1 }
}
"""


def test_a_summary_closes_every_round_and_only_when_logged(ruleset):
    folder = ruleset(SUMMARY)
    game = play(folder)
    assert [e["text"] for e in game.log if e.get("summary")] == [
        "red has run 1 laps", "blue has run 1 laps", "best: 1",
        "red has run 2 laps", "blue has run 2 laps", "best: 2"]
    quiet = run_game(compiled(folder), agents=first_agents())
    assert quiet.log == [] and quiet.n_red.u_laps == game.n_red.u_laps == 2


@pytest.mark.parametrize("body,what", [
    ("red.laps += 1", "changes the game"),
    ("move deck.top to red.hand", "changes the game"),
    ("log \"{bump()}\"", "calls bump()"),
])
def test_a_summary_may_only_read_the_game(ruleset, body, what):
    rules = SUMMARY.replace('    log "best: {best}"', "    " + body) + \
        "\ndef bump() {\n  red.laps += 1\n  return 1\n}\n"
    bad = load_errors(ruleset(rules))
    assert bad and bad[0].code == "TYPE" and what in bad[0].message, [d.short() for d in bad]


def test_names_titles_and_plurals():
    from interpreter.model.logwords import counted, plural
    assert [plural(w) for w in ("card", "die", "box", "city", "day", "Bus", "hat-4 token")] == \
        ["cards", "dice", "boxes", "cities", "days", "Buses", "hat-4 tokens"]
    assert counted(1, "infusion token") == "an infusion token"
    assert counted(0, "cube") == "no cubes" and counted(3, "cube", "cubes") == "3 cubes"


def test_a_score_behind_a_screen_stays_behind_it_in_summaries_and_charts():
    """Scarface 1920 scores money kept behind each gang's screen: a seat reads
    its own score after each round, never another's, and its page charts only
    its own line (the result at the end shows them all)."""

    def run(*args):
        r = cli_raising("play", ROOT / "rules" / "scarface_1920", "--seed", "1", *args)
        assert r.exit_code == 0, r.output
        return r.output

    mine = run("--format", "jsonl", "--view", "p1")
    assert "after round 1: p1 " in mine and "after round 1: p2 " not in mine
    assert run("--format", "html", "--view", "p1").count("<polyline") == 1
    assert run("--format", "html", "--view", "public").count("<polyline") == 0
    assert run("--format", "html").count("<polyline") == 4  # the designer's page


LOG_TEXTS = """
game { rounds 1 { race } }
phase race {
  let xs = range(0, 3000)
  log "sum {sum(xs, x => x * 2)}"
  log "broken {red.at.boost}"
  roll cup log "thrown {cup.items[5].value}"
  red.laps = 1
}
"""


def test_a_log_text_spends_no_steps_and_a_broken_one_is_a_note(ruleset):
    """Log texts are made only when a log is kept: making one spends no steps
    and cannot fail the game, so a game logged and the same game played
    quietly (simulate) end alike; a broken text is a located note."""
    folder = ruleset(LOG_TEXTS)
    prog = compiled(folder)
    logged = run_game(prog, agents=first_agents(), logging=True)
    quiet = run_game(prog, agents=first_agents())
    assert logged.n_red.u_laps == quiet.n_red.u_laps == 1
    assert logged.fuel == quiet.fuel
    lines = texts(logged)
    assert lines[1] == "sum 8997000"
    assert lines[2].startswith("(a log text failed at ") and "race.rules:6" in lines[2]
    assert lines[3].startswith("(a log text failed at ") and "race.rules:7" in lines[3]
    assert re.fullmatch(r"cup shows \d and \d", lines[4])  # the engine's line instead
    assert [d.line for d in logged.log_failures] == [6, 7]
    # the notes are the designer's alone: an error's words may hold a secret
    seen = texts(logged, logged.n_blue) + [e["text"] for e in log_for(logged, None)]
    assert not any("failed" in t for t in seen) and "sum 8997000" in seen

    r = cli("play", folder, "--seed", "1")  # (stderr apart)
    assert r.exit_code == 0 and "race.rules:6:3: LOG-TEXT warning" in r.stderr, r.stderr


HOSTILE = """
game {
  rounds 1 { race }
  summary {
    log "{laps_of(red)}"
  }
}
phase race {
  LINE
}
def laps_of(p) {
  let n = p.laps
  return n
}
def bump() {
  red.laps += 1
  return 1
}
def sneaky() {
  return bump()
}
"""


@pytest.mark.parametrize("line,what", [
    ('log "{bump()}"', "calls bump(), which changes the game"),
    ('log "{sneaky()}"', "calls sneaky(), which changes the game"),  # through another
    ('roll cup log "{bump()}"', "calls bump(), which changes the game"),
    ('move deck.top to red.hand log c => "{sneaky()} {c}"', "calls sneaky()"),
    ('log "{sum(collect bump())}"', "collects from handlers"),
])
def test_a_log_text_may_not_change_the_game(ruleset, line, what):
    """A log text is made only when a log is kept: one that could change the
    game (an effect, through any function) would make logged and quiet games
    differ, so it is refused before play; a function that only reads is fine."""
    bad = load_errors(ruleset(HOSTILE.replace("LINE", line)))
    assert bad and bad[0].code == "TYPE" and what in bad[0].message, [d.short() for d in bad]
    assert "a log text only reads the game" in bad[0].message


def test_a_summary_reads_through_functions_that_only_read(ruleset):
    game = play(ruleset(HOSTILE.replace("LINE", "red.laps = 2")))
    assert [e["text"] for e in game.log if e.get("summary")] == ["2"]


def test_a_summary_that_never_ends_is_a_note_not_a_hung_game(ruleset):
    rules = SUMMARY.replace('    log "best: {best}"', "    while true { best += 1 }")
    game = play(ruleset(rules))
    notes = [e for e in game.log if e["text"].startswith("(a log text failed")]
    assert len(notes) == 2 and all(e["see"] == [] for e in notes)  # once a round
    assert game.n_red.u_laps == 2 and game.finished


def test_a_log_clause_naming_a_hidden_card_in_plain_text_reaches_only_its_seers(ruleset):
    """A clause that prints a card's name as text (not the card, which the
    log could hide) is still a secret line: the event itself was secret."""
    rules = """
    game { rounds 1 { race } }
    phase race {
      draw 1 from deck to blue.hand log cards => "blue picks up {cards[0].name}"
      move blue.hand.top to red.hand log c => "blue slips {c.name} to red"
    }
    """
    game = play(ruleset(rules))
    red, blue = game.n_red, game.n_blue
    assert "blue picks up Gold Bar" in texts(game, blue)
    assert not any("Gold Bar" in t for t in texts(game, red)[:2])
    assert texts(game, red)[1] == "blue draws a card from deck"
    # passed from blue's hand to red's: both see it, nobody else does
    secret = next(e for e in game.log if e["text"] == "blue slips Gold Bar to red")
    assert secret["see"] == ["blue", "red"]
    assert not any("Gold Bar" in e["text"] for e in log_for(game, None))
