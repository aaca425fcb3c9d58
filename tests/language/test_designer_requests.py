"""What designers asked the language for (issue 33), one feature at a time:
a phase in some rounds only, scores worked out by the rules, lists and
plurals in words, texts inside a text's braces."""
from __future__ import annotations

import pytest
from helpers import compiled, first_agents, load_errors, locate

from interpreter.designer.lint import lint_ruleset
from interpreter.designer.refdocs import reference
from interpreter.model.views import log_for
from interpreter.run.engine import Game
from interpreter.support.diagnostics import DiagnosticError

# a four-round race: everyone steps one space a round; `extra` phases join in
RACE4 = """
game {{
  setup {{ for p in players {{ p.at = space("start") }} }}
  rounds 4 {{
    step
{rounds}
  }}
  finish {{ win most(players, p => p.laps) }}
}}
phase step {{
  for p in players {{ p.at = step("loop", p.at, 1) }}
}}
{more}
"""


def race4(make_ruleset, rounds="", more="", **kw):
    return make_ruleset(RACE4.format(rounds=rounds, more=more), **kw)


def played(folder, backend="fast", logging=True, **kw):
    program = compiled(folder, backend=backend)
    return Game(program, seed=1, agents=first_agents(), logging=logging, **kw).run()


def texts(game):
    return [e["text"] for e in game.log]


def errors(folder):
    return [(d.code, d.path.rsplit("/", 1)[-1], d.line, d.col, d.message)
            for d in load_errors(folder)]


# ---------------------------------------------------------------- phases in some rounds
@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_a_phase_with_when_plays_only_in_the_rounds_it_names(make_ruleset, backend):
    folder = race4(make_ruleset, rounds="    bonus when round == 2 or\n      round == 4",
                   more='phase bonus { for p in players { p.laps += 1 }\n  log "bonus {round}" }')
    game = played(folder, backend)
    assert [t for t in texts(game) if t.startswith("== ")] == [
        "== round 1: step ==", "== round 2: step ==", "== round 2: bonus ==",
        "== round 3: step ==", "== round 4: step ==", "== round 4: bonus =="]
    assert [t for t in texts(game) if t.startswith("bonus")] == ["bonus 2", "bonus 4"]
    assert [p.u_laps for p in game.players] == [2, 2]


def test_a_phase_condition_sees_the_game_as_the_phase_comes_up(make_ruleset):
    # the second listing's condition reads what the first one did that round
    folder = race4(make_ruleset, rounds="    bonus when red.laps == 0\n    bonus when red.laps == 1",
                   more="phase bonus { red.laps += 1 }")
    game = played(folder)
    assert game.players[0].u_laps == 2
    assert [t for t in texts(game) if t.endswith("bonus ==")] == [
        "== round 1: bonus ==", "== round 1: bonus =="]


def test_a_phase_condition_must_be_true_or_false(make_ruleset):
    folder = race4(make_ruleset, rounds="    bonus when round + 1",
                   more="phase bonus { red.laps += 1 }")
    line, col = locate((folder / "race.rules").read_text(), "round + 1")
    assert errors(folder) == [("TYPE", "race.rules", line, col,
                               "the condition of phase 'bonus' must be true/false, not a number")]


def test_docs_say_when_a_phase_plays(make_ruleset):
    folder = race4(make_ruleset, rounds="    bonus when round == 2",
                   more="phase bonus { red.laps += 1 }")
    assert "step and bonus (only when the round number is 2)" in reference(folder)


# ---------------------------------------------------------------- scores from the rules
POINTS = "def points(p) {\n  let base = p.laps * 10\n  return base + len(p.at.id)\n}\n"


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_a_score_function_gives_every_score_shown(make_ruleset, backend):
    folder = race4(make_ruleset, more=POINTS, game_edits={"score: laps": "score: points"})
    game = played(folder, backend)
    expected = {p.id: p.u_laps * 10 + len(p.u_at.id) for p in game.players}
    assert game.scores() == expected
    summaries = [t for t in texts(game) if t.startswith("after round")]
    assert len(summaries) == 4
    assert summaries[-1] == "after round 4: " + ", ".join(f"{k} {v}" for k, v in expected.items())
    quiet = played(folder, backend, logging=False)
    assert quiet.scores() == expected and quiet.steps_used() == game.steps_used()


@pytest.mark.parametrize("body,message", [
    ("  p.laps += 1\n  return 1", "a score function only reads the game, but this changes "
                                  "the game (only its own `let` names may change)"),
    ("  move cup.top to cup\n  return 1", "a score function only reads the game, but this "
                                          "changes the game"),
    ("  return random([1, 2])", "a score function only reads the game, but this calls "
                                "random(), which draws from the game's random generator"),
])
def test_a_score_function_may_only_read(make_ruleset, body, message):
    folder = race4(make_ruleset, more=f"def points(p) {{\n{body}\n}}\n",
                   game_edits={"score: laps": "score: points"})
    first = body.strip().split("\n")[0]
    line, col = locate((folder / "race.rules").read_text(), first.replace("return ", ""))
    assert errors(folder) == [("TYPE", "race.rules", line, col, message)]


def test_a_score_naming_nothing_is_located_in_game_yaml(make_ruleset):
    folder = race4(make_ruleset, more=POINTS, game_edits={"score: laps": "score: pionts"})
    line, col = locate((folder / "game.yaml").read_text(), "pionts")
    [(code, path, l, c, message)] = errors(folder)
    assert (code, path, l, c) == ("REF-UNDEF", "game.yaml", line, col)
    assert message == ("score names 'pionts', which is neither a side variable nor a "
                       "function of the rules")
    [d] = load_errors(folder)
    assert d.hint == "did you mean 'points'?"


def test_a_score_function_takes_one_side(make_ruleset):
    folder = race4(make_ruleset, more="def points(p, q) { return 1 }\n",
                   game_edits={"score: laps": "score: points"})
    line, col = locate((folder / "game.yaml").read_text(), "points")
    assert errors(folder) == [("TYPE", "game.yaml", line, col,
                               "score names function 'points', which takes 2 parameters: a "
                               "score function takes one, the side")]


def test_a_score_function_that_fails_is_a_located_runtime_error(make_ruleset):
    folder = race4(make_ruleset, more="def points(p) {\n  return 10 / (p.laps - p.laps)\n}\n",
                   game_edits={"score: laps": "score: points"})
    # quietly played, the failure shows where the result is made
    with pytest.raises(DiagnosticError) as e:
        played(folder, logging=False)
    [d] = e.value.diagnostics
    line, _ = locate((folder / "race.rules").read_text(), "return 10")
    assert (d.code, d.line) == ("RUNTIME", line)
    # logged, each round's summary notes it for the designer and play goes on to the end
    with pytest.raises(DiagnosticError):
        played(folder)


def test_a_score_function_is_used_and_documented(make_ruleset):
    folder = race4(make_ruleset, more=POINTS, game_edits={"score: laps": "score: points"})
    assert "is what points gives for them" in reference(folder)
    findings, errors_found = lint_ruleset(folder)
    assert not errors_found
    assert not [f for f in findings if "points" in str(f)]  # (not an unused function)


# ---------------------------------------------------------------- words in texts
def test_lists_and_plurals_in_words(make_ruleset):
    log = ('phase talk {\n  let n = round - 1\n'
           '  log "{joined(players)}; {joined(reverse(players), "or")}; {joined([])}; '
           '{joined([7])}; {n} {plural("die", n)}; {plural("city")}; {plural("box", -1)}"\n}\n')
    game = played(race4(make_ruleset, rounds="    talk", more=log))
    said = [t for t in texts(game) if ";" in t]
    assert said == [f"red and blue; blue or red; nothing; 7; {n} {w}; cities; box"
                    for n, w in [(0, "dice"), (1, "die"), (2, "dice"), (3, "dice")]]


def test_a_hidden_card_in_a_joined_list_stays_hidden(make_ruleset):
    cards = ("kind: components\ncomponent: card\nzone: deck\nitems:\n"
             "  - {id: gold}\n  - {id: tin}\n")
    rules = ('phase talk {\n  let t = joined(deck.items)\n'
             '  log "the deck holds {t}"\n}\n')
    folder = race4(make_ruleset, rounds="    talk", more=rules,
                   game_edits={"zones:\n  game:\n": "zones:\n  game:\n"
                               "    deck: {type: deck, visibility: hidden}\n"},
                   files={"cards.yaml": cards})
    game = played(folder)
    designer = [t for t in texts(game) if t.startswith("the deck")]
    assert designer[0] in ("the deck holds gold and tin", "the deck holds tin and gold")
    red = [e["text"] for e in log_for(game, game.players[0]) if e["text"].startswith("the deck")]
    assert red[0] == "the deck holds a card and a card"


@pytest.mark.parametrize("bad,message", [
    ('joined(players, 3)', "joined(xs, word): the word must be a text, not a number"),
    ('plural(3)', "plural(word, n): the word must be a text, not a number"),
])
def test_words_refuse_what_is_not_a_text(make_ruleset, bad, message):
    folder = race4(make_ruleset, rounds="    talk", more=f"phase talk {{ let t = {bad} }}\n")
    with pytest.raises(DiagnosticError) as e:
        played(folder, logging=False)
    assert message in e.value.diagnostics[0].message


def test_a_text_inside_braces_may_not_stay_open(make_ruleset):
    folder = race4(make_ruleset, rounds="    talk",
                   more='phase talk {\n  log "{plural("die, 2)}"\n}\n')
    code, path, line, _, _ = errors(folder)[0]
    assert (code, path, line) == ("SYNTAX", "race.rules",
                                  locate((folder / "race.rules").read_text(), "plural(")[0])


# ---------------------------------------------------------------- line breaks in decisions
LAID_OUT = """
phase talk {
  choose each p in players
      as hop
      "hop how far?"
      from n in [1, 2]
      where n > 0
      label "hop:{n}" {
    p.at = step("loop", p.at, n)
  }
  choose red as extra {
    option "extra:{a}:{b}"
        for a in [1, 2],
            b in [0]
        when a > b
        prefer a {
      red.at = step("loop", red.at, a)
    }
  }
}
"""


ONE_LINE = """
phase talk {
  choose each p in players as hop "hop how far?" from n in [1, 2] where n > 0 label "hop:{n}" {
    p.at = step("loop", p.at, n)
  }
  choose red as extra {
    option "extra:{a}:{b}" for a in [1, 2], b in [0] when a > b prefer a {
      red.at = step("loop", red.at, a)
    }
  }
}
"""


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_a_decision_head_may_be_broken_anywhere_before_its_block(make_ruleset, tmp_path,
                                                                  backend):
    laid = played(race4(make_ruleset, rounds="    talk", more=LAID_OUT), backend)
    flat = played(race4(make_ruleset, rounds="    talk", more=ONE_LINE,
                        folder=tmp_path / "flat"), backend)
    assert laid.history == flat.history
    assert laid.history[:3] == [("red", "hop", "hop:1"), ("blue", "hop", "hop:1"),
                                ("red", "extra", "extra:1:0")]


def test_a_decision_head_without_its_block_is_still_located(make_ruleset):
    rules = 'phase talk {\n  choose red as hop\n      from n in [1, 2] label "{n}"\n  log "x"\n}\n'
    folder = race4(make_ruleset, rounds="    talk", more=rules)
    code, path, line, _, message = errors(folder)[0]
    assert (code, path) == ("SYNTAX", "race.rules")
    assert line == locate((folder / "race.rules").read_text(), 'log "x"')[0]
    assert "'{'" in message


# ---------------------------------------------------------------- bots in the base game
BOT_SEAT = {"  - {id: blue, name: Blue}\n": "  - {id: blue, name: Blue}\n"
                                            "  - {id: robot, name: Robot}\nbots: [robot]\n"}
HOPS = """
phase talk {
  for p in players {
    choose p as hop from n in [1, 2, 3] label "hop:{n}" prefer -n {
      p.at = step("loop", p.at, n)
    }
  }
}
"""


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_a_bot_declared_in_game_yaml_plays_in_every_game(make_ruleset, backend):
    folder = race4(make_ruleset, rounds="    talk", more=HOPS, game_edits=BOT_SEAT)
    program = compiled(folder, backend=backend)
    assert program.rs.bots == {"robot"}
    assert (program.rs.min_players, program.rs.max_players) == (2, 2)  # besides the bot
    game = Game(program, seed=1, agents=[*first_agents(), None], logging=True).run()
    robot = next(p for p in game.players if p.id == "robot")
    assert robot.bot and not any(p.bot for p in game.players if p is not robot)
    # the bot takes its lowest rank (the longest hop) and is never recorded
    assert all(who != "robot" for who, _, _ in game.history)
    assert [t for t in texts(game) if t.startswith("robot (bot)")][0].startswith(
        "robot (bot) chooses hop:3")


def test_bots_in_game_yaml_are_checked(make_ruleset):
    folder = race4(make_ruleset, more=HOPS, game_edits={
        "  - {id: blue, name: Blue}\n": "  - {id: blue, name: Blue}\nbots: [robto]\n"})
    [(code, path, line, _, message)] = errors(folder)
    assert (code, path) == ("REF-UNDEF", "game.yaml")
    assert line == locate((folder / "game.yaml").read_text(), "robto")[0]
    folder = race4(make_ruleset, more=HOPS, folder=folder.parent / "all", game_edits={
        "  - {id: blue, name: Blue}\n": "  - {id: blue, name: Blue}\nbots: [red, blue]\n"})
    assert [(c, m) for c, _, _, _, m in errors(folder)] == [
        ("SCHEMA-VALUE", "the bots take every seat the game has: no player is left")]


# ---------------------------------------------------------------- around ... drop
def turns_of(game):
    return [t for t in texts(game) if t.startswith("turn ")]


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_around_goes_round_until_one_is_left(make_ruleset, backend):
    rules = """phase talk {
  around p in players as still {
    p.laps += 1
    log "turn {p} {p.laps}"
    if p.laps >= 3 { drop p }
  }
  log "left {joined(still)}"
}
"""
    game = played(race4(make_ruleset, rounds="    talk", more=rules), backend)
    round_one = texts(game)[texts(game).index("== round 1: talk ==") + 1:][:6]
    assert round_one == ["turn red 1", "turn blue 1", "turn red 2", "turn blue 2",
                         "turn red 3", "left blue"]


def test_drop_takes_anyone_out_and_the_next_in_line_plays_on(make_ruleset):
    # red drops blue (after red in the turns) and then itself: the turns go on
    # with whoever is still in, in order
    rules = """phase talk {
  around p in [1, 2, 3, 4] as still until len(still) == 0 {
    log "turn {p}"
    if p == 1 { drop 3 }
    if p == 2 and 1 in still { drop 1 }
    elif p == 2 { drop 2 }
    if p == 4 { drop 4 }
  }
}
"""
    game = played(race4(make_ruleset, rounds="    talk", more=rules))
    # 1 drops 3; 2 drops 1; 4 drops itself, so 2, next in line, plays again
    assert turns_of(game)[:5] == ["turn 1", "turn 2", "turn 4", "turn 2", "turn 1"]


def test_around_until_and_break(make_ruleset, tmp_path):
    rules = """phase talk {
  let n = 0
  around p in players until n >= 5 {
    n += 1
    log "turn {p} {n}"
    if n == 4 { break }
  }
  around q in players as still until len(still) == 0 {
    log "turn out {q}"
    drop q
  }
}
"""
    game = played(race4(make_ruleset, rounds="    talk", more=rules))
    assert turns_of(game)[:6] == ["turn red 1", "turn blue 2", "turn red 3", "turn blue 4",
                                  "turn out red", "turn out blue"]


def test_drop_belongs_inside_an_around(make_ruleset):
    folder = race4(make_ruleset, rounds="    talk", more="phase talk {\n  drop red\n}\n")
    line, col = locate((folder / "race.rules").read_text(), "drop red")
    assert errors(folder) == [("SYNTAX", "race.rules", line, col,
                               "'drop' outside an 'around' loop")]


def test_dropping_what_is_not_going_round_is_a_located_error(make_ruleset):
    folder = race4(make_ruleset, rounds="    talk",
                   more="phase talk {\n  around p in [1, 2] {\n    drop 7\n  }\n}\n")
    with pytest.raises(DiagnosticError) as e:
        played(folder)
    [d] = e.value.diagnostics
    assert (d.code, d.line) == ("RUNTIME", locate((folder / "race.rules").read_text(),
                                                  "drop 7")[0])
    assert "cannot drop 7: it is not going round" in d.message


def test_an_around_nobody_leaves_runs_out_of_steps(make_ruleset):
    folder = race4(make_ruleset, rounds="    talk",
                   more="phase talk {\n  around p in players {\n    p.laps += 0\n  }\n}\n")
    with pytest.raises(DiagnosticError) as e:
        played(folder, logging=False, steps=5_000)
    assert "steps" in e.value.diagnostics[0].message


def test_the_list_of_those_still_in_is_not_assigned(make_ruleset):
    folder = race4(make_ruleset, rounds="    talk",
                   more="phase talk {\n  around p in players as still {\n    still = []\n"
                        "    drop p\n  }\n}\n")
    [(code, path, line, _, _)] = errors(folder)
    assert (code, path) == ("TYPE", "race.rules")
    assert line == locate((folder / "race.rules").read_text(), "still = []")[0]


def test_docs_describe_the_turns(make_ruleset):
    folder = race4(make_ruleset, rounds="    talk",
                   more="phase talk {\n  around p in players as still {\n    drop p\n  }\n}\n")
    text = reference(folder)
    assert ("Going round the players again and again, p taking each turn (those still in "
            "are still), until fewer than two are left") in text
    assert "P drops out of the turns." in text


# ---------------------------------------------------------------- may
MAY = """phase talk {
  for p in players {
    may p as collect "collect {round}" prefer 1 {
      p.laps += round
    }
  }
}
"""


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_may_is_a_decision_of_the_label_and_pass(make_ruleset, backend):
    folder = race4(make_ruleset, rounds="    talk", more=MAY)
    program = compiled(folder, backend=backend)
    # first agents take the first option, the label: everyone collects
    game = Game(program, seed=1, agents=first_agents(), logging=True).run()
    assert game.history[:2] == [("red", "collect", "collect 1"), ("blue", "collect", "collect 1")]
    assert [p.u_laps for p in game.players] == [10, 10]
    from interpreter.run.agents import ScriptedAgent
    from interpreter.run.savegame import Step
    script = [Step(pid, "pass", "collect") for _ in range(4) for pid in ("red", "blue")]
    script[0] = Step("red", "collect 1", "collect")
    game = Game(program, seed=1, agents=[ScriptedAgent(script)] * 2).run()
    assert [p.u_laps for p in game.players] == [1, 0]


def test_may_is_the_choose_it_stands_for(make_ruleset, tmp_path):
    long = MAY.replace('may p as collect "collect {round}" prefer 1 {',
                       'choose p as collect may {\n      option "collect {round}" prefer 1 {')
    long = long.replace("      p.laps += round\n    }", "      p.laps += round\n    }\n    }")
    short = played(race4(make_ruleset, rounds="    talk", more=MAY))
    spelled = played(race4(make_ruleset, rounds="    talk", more=long, folder=tmp_path / "long"))
    assert short.history == spelled.history and texts(short) == texts(spelled)


def test_docs_read_may_as_a_player_may(make_ruleset):
    folder = race4(make_ruleset, rounds="    talk", more=MAY)
    assert ("p may “collect {the round number}”, or leave it (a bot does when it ranks it, "
            "by 1)") in reference(folder)


# ---------------------------------------------------------------- cycle
HANDS = {"zones:\n  game:\n": "zones:\n  side:\n    hand: {visibility: owner}\n  game:\n"
                              "    deck: {type: deck}\n"}
CARDS = "kind: components\ncomponent: card\nzone: deck\nitems:\n" + \
    "".join(f"  - {{id: c{i}}}\n" for i in range(6))
DEAL = """phase talk {
  if round == 1 {
    for p in players { draw 3 from deck to p.hand }
  }
  let hands = [p.hand for p in players]
  cycle hands if round % 2 == 1 else reverse(hands)
  log "held {[c.id for c in red.hand]} {[c.id for c in blue.hand]}"
}
"""


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_cycle_passes_every_hand_at_once_in_order(make_ruleset, backend):
    folder = race4(make_ruleset, rounds="    talk", more=DEAL,
                   game_edits=HANDS, files={"cards.yaml": CARDS})
    game = played(folder, backend)
    held = [t for t in texts(game) if t.startswith("held")]
    # red was dealt c0-c2, blue c3-c5; each round the two hands swap whole, in order
    assert held == ["held c3, c4 and c5 c0, c1 and c2", "held c0, c1 and c2 c3, c4 and c5"] * 2
    # blue sees what arrives in its hand; an onlooker reads a count, never the cards
    blue = [e["text"] for e in log_for(game, game.players[1]) if "red's hand to" in e["text"]]
    assert blue[0] == "c0, c1 and c2 go from red's hand to blue's hand"
    public = [e["text"] for e in log_for(game, None) if "red's hand to" in e["text"]]
    assert public and all(t.startswith("3 cards") and "c0" not in t for t in public)


def test_cycle_round_three_hands(make_ruleset):
    rules = """phase talk {
  let piles = [deck, red.hand, blue.hand]
  if round == 1 {
    move [component("c1"), component("c2")] to red.hand
  }
  cycle piles
  log "deck {len(piles[0].items)} red {[c.id for c in red.hand]} blue {[c.id for c in blue.hand]}"
}
"""
    folder = race4(make_ruleset, rounds="    talk", more=rules, game_edits=HANDS,
                   files={"cards.yaml": CARDS})
    said = [t for t in texts(played(folder)) if t.startswith("deck ")]
    # (the move to red's hand put c1 and c2 on top one by one: c2 first)
    assert said[:3] == ["deck 0 red c0, c3, c4 and c5 blue c2 and c1",
                        "deck 2 red none blue c0, c3, c4 and c5",
                        "deck 4 red c2 and c1 blue none"]


@pytest.mark.parametrize("bad,message", [
    ("cycle [red.hand, red.hand]", "cycle: a zone stands twice in the list"),
    ("cycle [red.hand, 3]", "cycle passes round a list of zones"),
])
def test_cycle_refuses_what_is_not_a_list_of_distinct_zones(make_ruleset, bad, message):
    folder = race4(make_ruleset, rounds="    talk", more=f"phase talk {{\n  {bad}\n}}\n",
                   game_edits=HANDS, files={"cards.yaml": CARDS})
    with pytest.raises(DiagnosticError) as e:
        played(folder)
    [d] = e.value.diagnostics
    assert message in d.message
    assert d.line == locate((folder / "race.rules").read_text(), "cycle [")[0]


def test_cycle_of_a_number_is_a_type_error(make_ruleset):
    folder = race4(make_ruleset, rounds="    talk", more="phase talk {\n  cycle 3\n}\n")
    line, col = locate((folder / "race.rules").read_text(), "3\n}")
    assert errors(folder) == [("TYPE", "race.rules", line, col,
                               "cycle passes round a list of zones, not a number")]


# ---------------------------------------------------------------- scenario checks per seat
def scenario(hands, body: str):
    from interpreter.designer.scenario import run_scenario_file
    path = hands / "scenarios" / "check.scenario.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text("scenario: per-seat checks\nruleset: ..\nseed: 1\nthen: first\n" + body)
    res = run_scenario_file(path)
    return [(d.code, d.line, d.message) for d in res.diagnostics], path


def test_logged_and_not_logged_as_a_seat_reads_the_log(hands):
    from interpreter.run.engine import load_program
    game = Game(load_program(hands)[0], seed=1, agents=first_agents(), logging=True).run()
    kept = next(t for t in texts(game) if t.startswith("north keeps "))  # the designer's line
    card = kept.split()[2]
    body = f"""expect:
  - logged: "{kept}"
  - logged: "north keeps a card in hand"
    reader: south
  - logged: "north keeps a card in hand"
    reader: public
  - not_logged: "north keeps {card}"
    reader: south
  - logged: "{kept}"
    reader: north
"""
    assert scenario(hands, body)[0] == []
    # each can fail: the secret as south reads it, the designer's line refused
    failing = f"""expect:
  - logged: "{kept}"
    reader: south
  - not_logged: "{kept}"
"""
    diags, path = scenario(hands, failing)
    lines = path.read_text().splitlines()
    assert [(c, m) for c, _, m in diags] == [
        ("EXPECT-FAIL", f"no line of the log south reads contains {kept!r}"),
        ("EXPECT-FAIL", f"a line contains {kept!r}: {kept!r}")]
    assert [ln for _, ln, _ in diags] == [i + 1 for i, t in enumerate(lines) if kept in t]


def test_a_reader_is_a_seat_or_public(hands):
    diags, _ = scenario(hands, 'expect:\n  - logged: "x"\n    reader: nroth\n')
    assert [(c, ln) for c, ln, _ in diags] == [("REF-UNDEF", 7)]
    assert "nroth" in diags[0][2]
    diags, _ = scenario(hands, 'expect:\n  - that: ["round == 2"]\n    reader: north\n')
    assert [(c, m) for c, _, m in diags] == [
        ("SCHEMA-VALUE", "'reader' goes with logged or not_logged: whose log to read")]


def test_asked_says_how_often_a_decision_was_put(hands):
    ok = """expect:
  - asked: {decision: pass, player: north, times: 2}
  - asked: {decision: show, round: 1}
  - asked: {decision: show, player: south, round: 2, times: 1}
"""
    assert scenario(hands, ok)[0] == []
    bad = """expect:
  - asked: {decision: pass, player: north, times: 3}
  - asked: {decision: pass, round: 3}
  - asked: {decision: show, player: south, times: 0}
"""
    diags, _ = scenario(hands, bad)
    assert [(c, ln, m) for c, ln, m in diags] == [
        ("EXPECT-FAIL", 6, "north's decision 'pass' was asked 2 times; expected 3 times"),
        ("EXPECT-FAIL", 7, "anyone's decision 'pass' was never asked in round 3"),
        ("EXPECT-FAIL", 8, "south's decision 'show' was asked 2 times; expected 0 times")]
    diags, _ = scenario(hands, "expect:\n  - asked: {decision: passs}\n")
    assert [c for c, _, _ in diags] == ["REF-UNDEF"]


# ---------------------------------------------------------------- words for product values
PRODUCT = """kind: components
component: card
attributes:
  suit: {enum: [acorns, bells]}
  rank: {type: int}
  name: {type: str}
zone: deck
product:
  suit: [acorns, bells]
  rank: [1, 2, 13]
names:
  rank: {1: ace, 13: king}
each:
  id: "{suit}-{rank}"
  name: "{rank.name} of {suit}"
  text: "Worth {rank}."
"""


def test_names_give_product_values_their_words(make_ruleset):
    folder = race4(make_ruleset, files={"cards.yaml": PRODUCT}, game_edits=HANDS)
    rs = compiled(folder).rs
    named = {c.id: (c.values.get("name"), c.values.get("rank")) for c in rs.components}
    assert named["acorns-1"] == ("ace of acorns", 1)
    assert named["bells-2"] == ("2 of bells", 2)
    assert named["bells-13"] == ("king of bells", 13)


@pytest.mark.parametrize("edit,message", [
    (("names:\n  rank:", "names:\n  rnak:"),
     "names gives words for 'rnak', which is not a product key (suit, rank)"),
    (('name: "{rank.name} of {suit}"', 'name: "{rank.name} of {suit.name}"'),
     "each.name reads {suit.name}, but `names` gives no words for 'suit'"),
])
def test_names_are_checked(make_ruleset, edit, message):
    folder = race4(make_ruleset, files={"cards.yaml": PRODUCT.replace(*edit)}, game_edits=HANDS)
    [(code, path, line, _, got)] = errors(folder)
    assert (code, path, got) == ("REF-UNDEF", "cards.yaml", message)
    text = (folder / "cards.yaml").read_text()
    assert line == locate(text, "rnak" if "rnak" in text else "name: \"{rank")[0]


# ---------------------------------------------------------------- a rig for the play only
ROLLS = """game {
  setup { roll cup; log "setup rolled {[d.value for d in cup]}" }
  rounds 1 { race }
  finish { win red }
}
phase race {
  roll cup
  log "play rolled {[d.value for d in cup]}"
}
"""


@pytest.mark.parametrize("after,play_rolled", [("", None), ("\n  after: setup", "6 and 6")])
def test_a_rig_after_setup_leaves_the_deal_to_chance(make_ruleset, after, play_rolled):
    from interpreter.designer.scenario import run_scenario_file
    folder = make_ruleset(ROLLS)
    (folder / "scenarios").mkdir()
    path = folder / "scenarios" / "rig.scenario.yaml"
    path.write_text("scenario: rigged play\nruleset: ..\nseed: 3\n"
                    f"rig:\n  rolls: [6, 6]{after}\n"
                    "expect:\n  - logged: \"play rolled\"\n")
    res = run_scenario_file(path)
    assert res.ok, [d.short() for d in res.diagnostics]
    said = texts(res.game)
    setup = next(t for t in said if t.startswith("setup rolled"))
    play = next(t for t in said if t.startswith("play rolled"))
    if play_rolled is None:  # the rig from the start: setup's roll takes it
        assert setup == "setup rolled 6 and 6" and play != "play rolled 6 and 6"
    else:
        assert play == "play rolled " + play_rolled


# ---------------------------------------------------------------- a checkpoint after an event
def test_a_check_after_an_event_sees_the_game_mid_turn(make_ruleset):
    from interpreter.designer.scenario import run_scenario_file
    rules = """game {
  setup { for p in players { p.at = space("start") } }
  rounds 1 { race }
  finish { win red }
}
phase race {
  for p in players {
    p.laps += 1
    trigger bumped(p)
    p.laps += 10
  }
}
on bumped(p) { p.laps += 100 }
"""
    folder = make_ruleset(rules)
    (folder / "scenarios").mkdir()
    path = folder / "scenarios" / "event.scenario.yaml"
    path.write_text("""scenario: checked after an event
ruleset: ..
expect:
  - after: {event: bumped}
    that: ["red.laps == 101", "blue.laps == 0"]
  - after: {event: bumped, count: 2}
    that: ["red.laps == 111", "blue.laps == 101"]
stop: {after: {event: bumped, count: 2}}
""")
    res = run_scenario_file(path)
    assert res.ok and res.checks == 4, [d.short() for d in res.diagnostics]
    path.write_text(path.read_text().replace("red.laps == 101", "red.laps == 1"))
    res = run_scenario_file(path)
    [d] = res.diagnostics
    assert d.code == "EXPECT-FAIL" and "101" in d.message
    path.write_text(path.read_text().replace("{event: bumped}", "{event: bumpd}"))
    res = run_scenario_file(path)
    assert [d.code for d in res.diagnostics] == ["REF-UNDEF"]


# ---------------------------------------------------------------- a piece kind chosen by value
PIECES = "pieces:\n  cube: {supply: 10}\n  disc: {supply: 5}\n"
KINDS = """phase talk {
  for kind in ["cube", "disc"] {
    place 1 kind of red at red.at
  }
  let which = "disc" if round % 2 == 0 else "cube"
  transfer 1 which of red from red.at to blue.at
  give 1 which from red to blue
  remove 1 which of red from blue.at
}
"""


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_a_piece_kind_may_be_named_by_a_value(make_ruleset, backend):
    folder = race4(make_ruleset, rounds="    talk", more=KINDS, game_extra=PIECES)
    game = played(folder, backend)
    red, blue = game.players
    # each round red places one of each, moves one of `which` (cube in rounds 1
    # and 3, disc in 2 and 4) to blue's space, gives blue one from its supply
    # and takes the moved one back: of 10 cubes 4 placed, 2 given, 2 back
    assert (red.u_cube, red.u_disc, blue.u_cube, blue.u_disc) == (6, 1, 12, 7)
    board = game.spaces
    assert [sum(s.u_cube.counts[0] for s in board), sum(s.u_disc.counts[0] for s in board)] \
        == [2, 2]  # (red moves on a space a round: its pieces lie on four spaces)
    spelled = KINDS.replace("for kind in [\"cube\", \"disc\"] {\n    place 1 kind of red at "
                            "red.at\n  }", "place 1 cube of red at red.at\n  place 1 disc of "
                            "red at red.at")
    written = played(race4(make_ruleset, rounds="    talk", more=spelled, game_extra=PIECES,
                           folder=folder.parent / "spelled"), backend)
    assert texts(written) == texts(game)


def test_a_value_that_names_no_piece_kind_is_a_located_error(make_ruleset):
    bad = KINDS.replace('let which = "disc"', 'let which = "at"')
    folder = race4(make_ruleset, rounds="    talk", more=bad, game_extra=PIECES)
    text = (folder / "race.rules").read_text()
    with pytest.raises(DiagnosticError) as e:
        played(folder)
    line, col = locate(text, "transfer 1 which")
    assert f"race.rules:{line}:{col}: RUNTIME 'at' is not a piece kind (the pieces are " \
           "cube, disc) (in phase talk, round 2)" in str(e.value)


def test_a_name_for_a_piece_kind_must_hold_a_text(make_ruleset):
    bad = KINDS.replace('let which = "disc" if round % 2 == 0 else "cube"', "let which = 3")
    folder = race4(make_ruleset, rounds="    talk", more=bad, game_extra=PIECES)
    text = (folder / "race.rules").read_text()
    assert ("TYPE", "race.rules", *locate(text, "transfer 1 which"),
            "'which' names a piece kind here: it must hold a text, not a number") in errors(folder)
    folder = race4(make_ruleset, rounds="    talk", more=KINDS.replace("kind of", "knd of"),
                   game_extra=PIECES, folder=folder.parent / "undef")
    assert [e[0] for e in errors(folder)] == ["REF-UNDEF"]


# ---------------------------------------------------------------- records
RECORDS = """phase talk {
  let bid = record(count: round, face: 5)
  let raised = record(bid, count: bid.count + 1)
  let bids = [bid, raised, record(count: 9, face: 1, by: red)]
  log "bid {bid.count}x{bid.face} raised {raised} best {most(bids, b => b.count)[0].by}"
  red.laps += sum(bids, b => b.count)
  if bid == record(face: 5, count: round) { blue.laps += 1 }
}
"""


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_a_record_holds_named_fields(make_ruleset, backend):
    game = played(race4(make_ruleset, rounds="    talk", more=RECORDS), backend)
    assert "bid 2x5 raised {count: 3, face: 5} best red" in texts(game)
    red, blue = game.players
    assert (red.u_laps, blue.u_laps) == (1 + 2 + 9 + 2 + 3 + 9 + 3 + 4 + 9 + 4 + 5 + 9, 4)


@pytest.mark.parametrize("edit, code, needle, message", [
    ("bid.face}", "REF-UNDEF", "bid.fase", "this record has no field 'fase' (its fields: count, face)"),
    ("record(count: 9, face: 1, by: red)", "ARITY", "face: 2", "'face:' is given twice"),
    ("record(bid, count: bid.count + 1)", "ARITY", "bids, count", "record() copies one record at most; "
     "name the other values (NAME: VALUE)"),
    ("record(count: round, face: 5)", "TYPE", "3, face", "the record record() copies must be "
     "a table, not a number"),
])
def test_records_are_checked_where_written(make_ruleset, edit, code, needle, message):
    bad = {"bid.face}": "bid.fase}",
           "record(count: 9, face: 1, by: red)": "record(count: 9, face: 1, face: 2)",
           "record(bid, count: bid.count + 1)": "record(bid, bids, count: 1)",
           "record(count: round, face: 5)": "record(3, face: 5)"}[edit]
    rules = RECORDS.replace("let bids = [bid, raised,", "let bids = [bid, raised,") \
        .replace(edit, bad, 1)
    if edit == "record(bid, count: bid.count + 1)":
        rules = rules.replace("let raised = record(bid, bids, count: 1)",
                              "let bids = []\n  let raised = record(bid, bids, count: 1)") \
            .replace("let bids = [bid, raised,", "let more = [bid, raised,")
    folder = race4(make_ruleset, rounds="    talk", more=rules)
    text = (folder / "race.rules").read_text()
    got = [e for e in errors(folder) if e[0] == code]
    assert got and got[0][4] == message and got[0][2:4] == locate(text, needle), got


def test_a_hidden_card_in_a_record_stays_hidden(make_ruleset):
    rules = """phase talk {
  if round == 1 {
    for p in players { draw 2 from deck to p.hand }
  }
  let r = record(card: red.hand.top, n: round)
  red.laps = r.n
  red.kept = r
  log "kept {r} and {[r]}"
}
"""
    edits = {**HANDS, "    laps: 0             # laps completed\n":
             "    laps: 0             # laps completed\n    kept: null\n"}
    folder = race4(make_ruleset, rounds="    talk", more=rules, game_edits=edits,
                   files={"cards.yaml": CARDS})
    game = played(folder)
    red, blue = game.players
    top = red.u_hand.items[0].id
    seen = {p.id: [e["text"] for e in log_for(game, p) if e["text"].startswith("kept")]
            for p in (red, blue)}
    assert seen["blue"][0] == "kept {card: a card, n: 1} and {card: a card, n: 1}"
    assert seen["red"][0] == f"kept {{card: {top}, n: 1}} and {{card: {top}, n: 1}}"
    from interpreter.model.views import view_for
    assert view_for(game, blue)["sides"]["red"]["variables"]["kept"] == {"card": {"hidden": "card"}, "n": 4}
    assert view_for(game, red)["sides"]["red"]["variables"]["kept"] == {"card": top, "n": 4}


def test_docs_read_records(make_ruleset):
    text = reference(race4(make_ruleset, rounds="    talk", more=RECORDS))
    assert "Let bid be a record of count the round number and face 5." in text
    assert "Let raised be bid with count bid's count plus 1." in text
