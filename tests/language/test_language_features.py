"""Language features grown for the bigger games: "choose some of these",
handlers run on named components (`trigger ... on`, `collect ... on`),
`reveal`, sorting and ranking by several keys (`sorted`/`ranked` with `by:`),
and `spaces()`."""
import json
import textwrap
from collections import Counter

import pytest
from helpers import compiled, first_agents, load_errors, replay_script

from interpreter.designer.scenario import run_scenario_file
from interpreter.model.some import SomeOffer
from interpreter.model.views import log_for, view_for
from interpreter.run.agents import FirstAgent, RandomAgent, ScriptedAgent
from interpreter.run.engine import Game, load_program
from interpreter.run.savegame import Step

# (make_ruleset, the factory of small games with rules of their own, is a
# fixture of tests/conftest.py)

CARDS = """
kind: components
component: card
attributes:
  worth: {type: int, default: 1}
properties:
  used: 0
zone: deck
items:
  - id: gold
    worth: 5
    rules: |
      on score(p) { return this.worth }
      on bump(p) { this.used += 1 }
  - id: tin
    rules: |
      on score(p) { return this.worth }
      on bump(p) { this.used += 10 }
"""


# the race with these two cards in a hidden deck
WITH_CARDS = {"game_edits": {"zones:\n  game:\n": "zones:\n  game:\n"
                                                  "    deck: {type: deck, visibility: hidden}\n"},
              "files": {"cards.yaml": CARDS}}


def errors(folder):
    return [(d.code, d.line, d.message) for d in load_errors(folder)]


def lines(game):
    return [e["text"] for e in game.log]


SOME = """
game {
  rounds 1 { race }
}
phase race {
  for p in players {
    let stuff = ["boss", "runner", "runner", "runner", "moonshine"]
    choose p as cargo "send what?" some picked from x in stuff label x min 1 max 3 {
      p.laps = len(picked)
      log "{p} sends {picked}"
    }
  }
}
"""


# ------------------------------------------------------------------ choose some
def test_a_selection_is_one_decision_labelled_by_counts(make_ruleset):
    prog = compiled(make_ruleset(SOME))
    script = [Step("red", "runner x2 + boss", None), Step("blue", "moonshine", None)]
    agent = ScriptedAgent(script)
    game = Game(prog, agents=[agent, agent], logging=True).run()
    assert script == []
    assert game.history == [("red", "cargo", "boss + runner x2"), ("blue", "cargo", "moonshine")]
    assert game.n_red.u_laps == 3 and game.n_blue.u_laps == 1
    assert "red sends boss, runner and runner" in lines(game)


@pytest.mark.parametrize("label,why", [("runner x4", "only 3"), ("boss + runner x3", "4 item(s) chosen; this decision takes 1 to 3"),
                                       ("nothing", "0 item"), ("rum", "not on offer")])
def test_a_scripted_selection_must_be_on_offer(make_ruleset, label, why):
    prog = compiled(make_ruleset(SOME))
    agent = ScriptedAgent([Step("red", label, None)])
    with pytest.raises(Exception) as e:
        Game(prog, agents=[agent, agent]).run()
    assert why in str(e.value)


def test_random_selections_are_uniform_and_first_takes_the_smallest(make_ruleset):
    offer = SomeOffer([("boss", 1), ("runner", 3), ("moonshine", 1)], 1, 3)
    labels = [offer.label(c) for c in offer.selections()]
    assert len(labels) == offer.total() == 11
    assert labels[:3] == ["boss", "runner", "moonshine"]
    rng = __import__("random").Random(3)
    seen = Counter(offer.label(offer.sample(rng)) for _ in range(11_000))
    assert set(seen) == set(labels) and min(seen.values()) > 850
    prog = compiled(make_ruleset(SOME))
    game = Game(prog, agents=first_agents()).run()
    assert game.history[0] == ("red", "cargo", "boss")


def test_every_pick_is_one_selection_once_with_or_without_limits():
    """A random pick is a number below total(): each one gives a different
    selection, and together every selection on offer (counted in mixed
    radix when any number may be taken, from the counting table otherwise)."""
    class Pick:
        def __init__(self, k):
            self.k = k

        def randrange(self, n):
            assert 0 <= self.k < n
            return self.k

    groups = [("a", 2), ("b", 1), ("c", 3)]
    for low, high, may in ((1, 6, False), (0, 6, True), (1, 3, False), (2, 6, False),
                           (0, 2, False)):
        offer = SomeOffer(groups, low, high, may)
        listed = sorted(map(tuple, offer.selections()))
        assert len(listed) == offer.total()
        drawn = [offer.sample(Pick(k)) for k in range(offer.total() + (1 if may else 0))]
        if may:
            assert drawn.pop() is None  # the last number is the pass
        assert sorted(map(tuple, drawn)) == listed, (low, high)
    assert SomeOffer(groups, 1, 6).total() == 3 * 2 * 4 - 1


def test_a_when_test_lists_the_legal_selections(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    phase race {
      choose red as odd some picked from x in [1, 2, 3, 4] label "n{x}" min 1 max 2
          when sum(picked) % 2 == 1 {
        red.laps = sum(picked)
      }
    }
    """
    prog = compiled(make_ruleset(rules))
    seen = []

    class Spy:
        def pick(self, d):
            seen.extend(d.labels)
            return d.labels.index("n2 + n3")

    game = Game(prog, agents=[Spy(), Spy()]).run()
    assert seen == ["n1", "n3", "n1 + n2", "n1 + n4", "n2 + n3", "n3 + n4"]
    assert game.n_red.u_laps == 5


def test_may_adds_a_pass_and_a_single_selection_is_forced(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    phase race {
      choose red as maybe may some picked from x in ["a", "b"] label x min 1 {
        red.laps = 9
      }
      choose blue as all some picked from x in ["a", "b"] label x min 2 {
        blue.laps = len(picked)
      }
    }
    """
    prog = compiled(make_ruleset(rules))
    agent = ScriptedAgent([Step("red", "pass", "maybe")])
    game = Game(prog, agents=[agent, agent], logging=True).run()
    assert game.n_red.u_laps == 0 and game.n_blue.u_laps == 2
    assert game.history == [("red", "maybe", "pass")]
    assert "blue chooses a + b (all, only option)" in lines(game)


def test_a_bot_ranks_each_selection(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    phase race {
      choose red as pick some picked from x in [3, 1, 2] label "n{x}" min 1 max 2
          prefer -sum(picked) {
        red.laps = sum(picked)
      }
    }
    """
    folder = make_ruleset(rules)
    (folder / "variants" / "solo").mkdir(parents=True)
    (folder / "variants" / "solo" / "variant.yaml").write_text("kind: variant\nbots: [red]\n")
    prog = compiled(folder, variant="solo")
    game = Game(prog, agents=[None, FirstAgent()], logging=True).run()
    assert game.n_red.u_laps == 5 and game.history == []
    assert any("red (bot) chooses n3 + n2 (pick, rank -5" in t for t in lines(game))


def test_a_saved_selection_replays(make_ruleset):
    prog = compiled(make_ruleset(SOME))
    first = Game(prog, seed=4, agents=[RandomAgent(1), RandomAgent(2)], logging=True).run()
    agent = ScriptedAgent(replay_script(first))
    again = Game(prog, seed=4, agents=[agent, agent], logging=True).run()
    assert json.dumps(again.log) == json.dumps(first.log)


def test_scenarios_check_what_a_selection_offers(tmp_path, make_ruleset):
    folder = make_ruleset(SOME)
    sc = tmp_path / "s.scenario.yaml"
    sc.write_text(textwrap.dedent(f"""\
        scenario: what a selection offers
        ruleset: {folder}
        script:
          - red: boss + runner
          - blue: runner x3
        expect:
          - offered: {{player: red, decision: cargo, labels: ["boss + runner x2", "moonshine"]}}
          - not_offered: {{player: red, decision: cargo, labels: ["runner x4", "nothing"]}}
          - chosen: {{player: blue, decision: cargo, label: "runner x3"}}
          - that: ["red.laps == 2", "blue.laps == 3"]
        """))
    res = run_scenario_file(sc)
    assert res.ok, [d.short() for d in res.diagnostics]


def test_item_labels_must_be_tellable_apart(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    phase race {
      choose red as bad some picked from x in ["a + b", "c"] label x { red.laps = 1 }
    }
    """
    prog = compiled(make_ruleset(rules))
    with pytest.raises(Exception) as e:
        Game(prog, agents=first_agents()).run()
    assert "cannot be told apart" in str(e.value)


# ------------------------------------------------------------------ on, reveal
TARGETS = """
game { rounds 1 { race } }
on bump(p) { p.laps += 100 }
phase race {
  let gold = component("gold")
  let tin = component("tin")
  red.laps = sum(collect score(red))
  blue.laps = sum(collect score(red) on gold)
  red.at = space("s1") if sum(collect score(red) on deck) == 6 else none
  trigger bump(red) on [tin]
  trigger bump(blue)
}
"""


def test_on_runs_only_the_named_components_handlers(make_ruleset):
    game = Game(compiled(make_ruleset(TARGETS, **WITH_CARDS)),
                agents=first_agents()).run()
    assert game.n_red.u_laps == 0  # the deck is not live: no card listens
    assert game.n_blue.u_laps == 5 + 100  # only the gold, then the rule file's handler
    assert game.n_red.u_at is game.spaces_by_id["s1"]
    assert game.comps_by_id["tin"].u_used == 10 and game.comps_by_id["gold"].u_used == 0


def test_on_names_components_only(make_ruleset):
    bad = TARGETS.replace("trigger bump(red) on [tin]", "trigger bump(red) on red")
    assert ("TYPE", 10, "'on' names components (a component, a list or a zone), not a side") \
        in errors(make_ruleset(bad, **WITH_CARDS))


REVEAL = """
game { rounds 1 { race } }
phase race {
  reveal deck.top to red
  log "red knows {deck.top}"
  choose blue as wait from x in [1, 2] label "w{x}" { }
  shuffle deck
  choose red as later from x in [1, 2] label "w{x}" { }
}
"""


def test_reveal_shows_a_hidden_card_to_one_side_until_it_moves(tmp_path, make_ruleset):
    views = {}

    class Watcher:
        wants_view = True

        def __init__(self, who):
            self.who = who

        def pick(self, d):
            views[d.decision] = d.view()
            return 0

    game = Game(compiled(make_ruleset(REVEAL, **WITH_CARDS)),
                agents=[Watcher("red"), Watcher("blue")], logging=True)
    game.run()
    top = game.comps_by_id["gold"]
    red, blue = game.n_red, game.n_blue
    assert [e["text"] for e in log_for(game, red)][:2] == ["== round 1: race ==",
                                                            "red sees gold in deck"]
    assert "red sees a card in deck" in [e["text"] for e in log_for(game, blue)]
    assert "red knows a card" in [e["text"] for e in log_for(game, None)]
    assert "gold" not in json.dumps(views["wait"])  # blue's view: a count
    assert "known" not in views["later"]["zones"]["deck"]  # shuffled: red knows no more
    assert top.zone.id == "deck"
    game2 = Game(compiled(make_ruleset(REVEAL.replace("shuffle deck", ""),
                                       folder=tmp_path / "b" / "game", **WITH_CARDS)),
                 agents=first_agents())
    game2.run()
    seen = view_for(game2, game2.n_red)["zones"]["deck"]
    assert seen["known"][0]["id"] == "gold" and seen["known"][0]["position"] == 0
    assert "known" not in view_for(game2, game2.n_blue)["zones"]["deck"]


REROLL = """
game { rounds 1 { race } }
phase race {
  move cup to box
  reveal box to red
  choose blue as wait from x in [1, 2] label "w{x}" { }
  roll box
  choose red as later from x in [1, 2] label "w{x}" { }
}
"""


def test_rolling_a_revealed_die_ends_the_reveal(tmp_path, make_ruleset):
    """A die shown to one side lies hidden again once it shows a new face,
    on both back ends (the fast one rolls a zone's dice in place)."""
    for backend in ("fast", "reference"):
        views = {}

        class Watcher:
            wants_view = True

            def pick(self, d):
                views[d.decision] = d.view()
                return 0

        folder = make_ruleset(REROLL, folder=tmp_path / backend / "game", game_edits={
            "zones:\n  game:\n": "zones:\n  game:\n    box: {visibility: hidden}\n"})
        prog = compiled(folder, backend=backend)
        game = Game(prog, agents=[Watcher(), Watcher()])
        shown = []
        game.hooks = lambda g, when, what: shown.append(view_for(g, g.n_red)["zones"]["box"]) \
            if when == "asked" and what[1] == "wait" else None
        game.run()
        assert len(shown[0]["known"]) == 2  # red sees both dice before the roll
        assert "known" not in views["wait"]["zones"]["box"]  # blue was never shown
        assert "known" not in views["later"]["zones"]["box"], backend  # red: rolled since


PROMPTS = """
game { rounds 1 { race } }
phase race {
  choose red as first "top: {deck.top}, {len(deck)} left, {red}{1 + 1}" from x in [1, 2] label "w{x}" { }
  reveal deck.top to red
  choose red as second "top: {deck.top}" from x in [1, 2] label "w{x}" { }
  choose blue as third "top: {deck.top}" from x in [1, 2] label "w{x}" { }
}
"""


def test_prompts_show_values_as_the_chooser_may_see_them(tmp_path, make_ruleset):
    prompts = {}

    class Reader:
        def pick(self, d):
            prompts[d.decision] = d.prompt
            return 0

    for backend in ("fast", "reference"):
        prog = compiled(make_ruleset(PROMPTS, folder=tmp_path / backend / "game", **WITH_CARDS),
                        backend=backend)
        Game(prog, agents=[Reader(), Reader()]).run()
        assert prompts == {"first": "top: a card, 2 left, red2", "second": "top: gold",
                           "third": "top: a card"}, backend


EACH = """
game { rounds 1 { race } }
phase race {
  choose each p in players as bet from x in [1, 2] label "b{x}" { p.laps += x }
}
"""


def test_choose_each_checkpoints_follow_each_players_own_rules(make_ruleset):
    """A scenario checkpoint after one player's answer sees that player's
    rules run and the next player's not yet (the answers run in order)."""
    seen = []

    def hooks(game, when, what):
        if when == "decided":
            seen.append((what[0], game.n_red.u_laps, game.n_blue.u_laps))

    game = Game(compiled(make_ruleset(EACH)), agents=first_agents())
    game.hooks = hooks
    game.run()
    assert seen == [("red", 1, 0), ("blue", 1, 1)]


# ------------------------------------------------------------------ sorted, ranked, spaces
def test_sorted_and_ranked_by_several_keys(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    phase race {
      let rows = [[1, 2], [0, 5], [1, 1], [0, 5]]
      log "{sorted(rows, by: [r => r[0], r => -r[1]])}"
      log "{sorted(rows, by: r => [-r[0], r[1]])}"
      let tiers = ranked(rows, by: r => r[0] + r[1])
      log "{len(tiers)} {len(tiers[0])} {tiers[0][0]}"
      log "{sorted([3, 1, 2])} {len(spaces())} {spaces()[3]}"
      log "{max_by(spaces(), s => [s.boost, -s.index])}"
    }
    """
    game = Game(compiled(make_ruleset(rules)), agents=first_agents(),
                logging=True).run()
    assert lines(game)[1:6] == ["[0, 5], [0, 5], [1, 2] and [1, 1]",
                                "[1, 1], [1, 2], [0, 5] and [0, 5]", "3 1 1 and 1",
                                "1, 2 and 3 8 s3", "s3"]


def test_by_is_checked(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    def f(x) { return x }
    phase race {
      let a = sorted([1], by: 3)
      let b = sorted([1], key: x => x)
      let c = f(1, by: x => x)
      let d = len([1], by: x => x)
    }
    """
    found = errors(make_ruleset(rules))
    assert ("TYPE", 5, "'by:' takes a function such as x => x.cost or a list of them, not a "
            "number") in found
    assert ("ARITY", 6, "sorted() takes no 'key:' argument (it takes by:)") in found
    assert any(c == "ARITY" and line == 7 for c, line, _ in found)
    assert ("ARITY", 8, "len() takes no 'by:' argument") in found


def test_a_named_argument_belongs_in_a_call_only(make_ruleset):
    rules = "game { rounds 1 { race } }\nphase race { let a = [by: 1] }\n"
    assert errors(make_ruleset(rules))[0][0] == "SYNTAX"


def test_the_grammar_has_no_conflicts():
    from lark import Lark

    from interpreter.language import grammar as parser
    Lark(parser.grammar_text(), parser="lalr",
         start=["start", "expr", "stmts"], propagate_positions=True, maybe_placeholders=True,
         postlex=parser._Newlines(), strict=True)


def test_counting_a_huge_selection_pays_from_the_step_budget(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    phase race {
      choose red as many some picked from x in range(5000) label "n{x}" { red.laps = 1 }
    }
    """
    prog = compiled(make_ruleset(rules))
    with pytest.raises(Exception) as e:
        Game(prog, agents=first_agents(), steps=1_000_000).run()
    assert "steps" in str(e.value)


# ------------------------------------------------------------------ hidden variables
# the race with a hidden game variable and a side variable only its owner sees
SECRETS = {"game_edits": {
    "variables:\n  side:\n": "variables:\n  game:\n    pot: {value: 0, visibility: hidden}\n"
                              "  side:\n    purse: {value: 5, visibility: owner}\n"}}


def test_an_owner_only_variable_reaches_its_owner_alone(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    phase race {
      red.purse += 3
      pot += 1
      log "{red} counts the purse: {red.purse}" to red
      log "the pot holds {pot}" to [red, blue]
      log "{red} is busy"
    }
    """
    game = Game(compiled(make_ruleset(rules, **SECRETS)), agents=first_agents(),
                logging=True).run()
    red, blue = game.n_red, game.n_blue
    assert game.n_red.u_purse == 8
    red_lines = [e["text"] for e in log_for(game, red)]
    blue_lines = [e["text"] for e in log_for(game, blue)]
    public = [e["text"] for e in log_for(game, None)]
    assert "red counts the purse: 8" in red_lines and "red counts the purse: 8" not in blue_lines
    assert "the pot holds 1" in blue_lines and "the pot holds 1" not in public
    assert "red is busy" in public
    assert view_for(game, red)["sides"]["red"]["variables"]["purse"] == 8
    assert view_for(game, blue)["sides"]["red"]["variables"]["purse"] == {"hidden": "variable"}
    assert view_for(game, red)["variables"]["pot"] == {"hidden": "variable"}
    assert view_for(game, blue)["sides"]["blue"]["variables"]["purse"] == 5


def test_a_public_line_may_not_show_a_hidden_variable(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    phase race {
      log "{red} has {red.purse}"
      log "the pot is {pot}"
      choose red as spend from n in range(1, red.purse) label "spend {red.purse}" { }
    }
    """
    found = errors(make_ruleset(rules, **SECRETS))
    assert [(c, line) for c, line, _ in found] == [("VISIBILITY", 4), ("VISIBILITY", 5),
                                                    ("VISIBILITY", 6)]
    assert "seen by its owner only" in found[0][2] and "hidden" in found[1][2]


def test_only_a_side_variable_has_an_owner(make_ruleset):
    folder = make_ruleset("game { rounds 1 { race } }\nphase race { }\n")
    game = (folder / "game.yaml").read_text()
    (folder / "game.yaml").write_text(game.replace(
        "variables:\n", "variables:\n  game:\n    pot: {value: 0, visibility: owner}\n"))
    assert errors(folder)[0][0] == "SCHEMA-VALUE"


# ------------------------------------------------------------------ abilities
def test_a_card_in_a_side_zone_offers_its_ability_to_that_side_only(make_ruleset):
    folder = make_ruleset("""
    game { rounds 1 { race } }
    phase race {
      move component("gold") to red.hand
      move component("tin") to shelf
      window market() for each players until pass
    }
    """, **WITH_CARDS)
    game = (folder / "game.yaml").read_text()
    game = game.replace("    deck: {type: deck, visibility: hidden}\n",
                        "    deck: {type: deck, visibility: hidden}\n    shelf: {live: true}\n")
    game = game.replace("zones:\n", "zones:\n  side:\n    hand: {live: true}\n")
    (folder / "game.yaml").write_text(game)
    (folder / "cards.yaml").write_text(CARDS.replace(
        "      on bump(p) { this.used += 1 }",
        "      on bump(p) { this.used += 1 }\n      ability \"spend\" at market(p) { p.laps += 10 }"
    ).replace("      on bump(p) { this.used += 10 }",
              "      on bump(p) { this.used += 10 }\n      ability \"borrow\" at market(p) { p.laps += 1 }"))
    asked = {}

    class Spy:
        def __init__(self, who):
            self.who = who

        def pick(self, d):
            asked.setdefault(self.who, []).append(list(d.labels))
            return d.labels.index("pass")

    Game(compiled(folder), agents=[Spy("red"), Spy("blue")]).run()
    assert asked["red"][0] == ["spend", "borrow", "pass"]   # his own card, and the shelf's
    assert asked["blue"][0] == ["borrow", "pass"]           # never red's card


def test_one_ability_at_several_windows(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    ability "rest" at morning(p), evening(p, n) when p.laps < 5 { p.laps += 1 }
    phase race {
      window morning() for red
      window evening(3) for red
    }
    """
    prog = compiled(make_ruleset(rules))
    agent = ScriptedAgent([Step("red", "rest", "morning"), Step("red", "pass", "morning"),
                           Step("red", "rest", "evening"), Step("red", "pass", "evening")])
    game = Game(prog, agents=[agent, agent]).run()
    assert game.n_red.u_laps == 2


def test_a_window_runs_its_after_block_after_each_ability_used(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    ability "step" at turn_actions(p) when p.laps < 3 { p.laps += 1 }
    phase race {
      let uses = 0
      window turn_actions() for red after {
        uses += 1
        log "after use {uses}: laps {red.laps}"
      }
      blue.laps = uses
      window turn_actions() for each players until pass after {
        log "someone stepped"
      }
    }
    """
    prog = compiled(make_ruleset(rules))
    agent = ScriptedAgent([Step("red", "step", None), Step("red", "step", None),
                           Step("red", "pass", None),
                           Step("red", "step", None), Step("blue", "pass", None),
                           Step("red", "pass", None)])
    game = Game(prog, agents=[agent, agent], logging=True).run()
    assert game.n_red.u_laps == 3 and game.n_blue.u_laps == 2
    log = lines(game)
    assert "after use 1: laps 1" in log and "after use 2: laps 2" in log
    assert log.count("someone stepped") == 1


# ------------------------------------------------------------------ choose each
class Spy(FirstAgent):
    """Takes the last option and keeps every view it was shown."""

    wants_view = True

    def __init__(self):
        self.seen = []

    def pick(self, d):
        self.seen.append(d.view())
        return len(d.labels) - 1


def test_choose_each_takes_every_answer_before_any_counts(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    phase race {
      choose each p in players as bid "how far?" from n in [1, 2, 3]
          where n > red.laps + blue.laps label "go {n}" {
        p.laps = n
        log "{p} goes {n}"
      }
    }
    """
    spy = Spy()
    game = Game(compiled(make_ruleset(rules)), agents=[spy, spy], logging=True).run()
    # blue answered with red's answer still unknown and not yet in force
    assert game.n_red.u_laps == 3 and game.n_blue.u_laps == 3
    blue_view = spy.seen[1]
    assert blue_view["sides"]["red"]["variables"]["laps"] == 0
    assert not any("go 3" in e["text"] for e in blue_view.get("log", []))
    log = lines(game)
    assert log.index("blue chooses go 3 (bid)") < log.index("red goes 3")
    assert log.index("red chooses go 3 (bid)") < log.index("blue chooses go 3 (bid)")


def test_choose_each_answers_are_no_loop_to_break(make_ruleset):
    rules = """
    game { rounds 1 { race } }
    phase race {
      for q in players {
        choose each p in players as bid "how far?" from n in [1, 2] label "go {n}" {
          break
        }
      }
    }
    """
    assert [c for c, _, _ in errors(make_ruleset(rules))] == ["SYNTAX"]


def test_a_prefer_rank_may_be_a_list_of_keys(tmp_path, make_ruleset):
    """A bot takes the lowest rank; a list compares item by item, mixed
    with plain numbers, ties to the first listed; a rank that is not a
    number or a list of numbers fails in plain words."""
    rules = """
    game { rounds 1 { race } }
    phase race {
      choose red as pick "pick" {
        option "a" prefer [2, 5] { red.laps = 1 }
        option "b" prefer [1, 9] { red.laps = 2 }
        option "c" prefer [1, 3] { red.laps = 3 }
        option "d" prefer 1 { red.laps = 4 }
        option "e" prefer [1, 3] { red.laps = 5 }
      }
    }
    """
    folder = make_ruleset(rules)
    variant = folder / "variants" / "bot"
    variant.mkdir(parents=True)
    (variant / "variant.yaml").write_text("kind: variant\nid: bot\nname: Bot\nbots: [red]\n")
    prog = compiled(folder, variant="bot")
    game = Game(prog, agents=[None, FirstAgent()], logging=True).run()
    assert game.n_red.u_laps == 4  # [1] < [1, 3] < [1, 9] < [2, 5]
    prog2, diags = load_program(make_ruleset(rules.replace('prefer 1 {', 'prefer "x" {'),
                                             folder=tmp_path / "x" / "game"))
    assert any(d.code == "TYPE" and "a 'prefer' rank" in d.message for d in diags), diags


LISTED = """
game { rounds 1 { race } }
phase race {
  log "deck holds {deck.items} and {[c for c in deck]}"
  choose red as first "top: {deck.items}" from x in [1, 2] label "w{x}" { }
  reveal deck.top to red
  choose red as second "top: {deck.items}" from x in [1, 2] label "w{x}" { }
}
"""


def test_hidden_cards_inside_a_list_stay_hidden_in_logs_and_prompts(tmp_path, make_ruleset):
    """A text that shows a list of components hides each one a reader may
    not see, as it hides a single one: the public log and a prompt alike."""
    for backend in ("fast", "reference"):
        prompts = {}

        class Reader:
            def pick(self, d):
                prompts[d.decision] = d.prompt
                return 0

        prog = compiled(make_ruleset(LISTED, folder=tmp_path / backend / "game", **WITH_CARDS),
                        backend=backend)
        game = Game(prog, agents=[Reader(), Reader()], logging=True).run()
        blue = [e["text"] for e in log_for(game, game.n_blue)]
        assert "deck holds a card, a card and a card, a card" in blue, blue
        assert not any("gold" in t or "tin" in t for t in blue)
        assert prompts == {"first": "top: a card,a card", "second": "top: gold,a card"}, backend
