"""Two more things designers asked for (issue 33): a number the player
enters ("bid any amount from 1 to your cash") and picks made one at a time
in an order of the player's own ("take two cards, in the order you
choose")."""
from __future__ import annotations

import pytest
from helpers import RULES, compiled, first_agents, load_errors, locate

from interpreter.designer.refdocs import reference
from interpreter.model.numbers import NumberLabels, Numbers
from interpreter.model.views import log_for
from interpreter.run.agents import RandomAgent, ScriptedAgent, ScriptError
from interpreter.run.engine import Game
from interpreter.run.savegame import Step
from interpreter.support.diagnostics import DiagnosticError
from interpreter.support.limits import MAX_LIST

RACE4 = """
game {{
  setup {{ for p in players {{ p.at = space("start") }} }}
  rounds 4 {{
    talk
  }}
  finish {{ win most(players, p => p.laps) }}
}}
{more}
"""

BID = """phase talk {
  for p in players {
    choose p as bid may "how many laps?" number n from 1 to round + 5 by 2 prefer -n {
      p.laps += n
      log "{p} takes {n}"
    }
  }
}
"""

MENU = """phase talk {
  for p in players {
    choose p as raise "raise or fold" {
      option "fold" { p.laps += 100 }
      number n from 2 to 10 by 2 prefer 10 - n { p.laps += n }
      option "check" prefer 20 { p.laps += 0 }
    }
  }
}
"""


def game_with(make_ruleset, more, **kw):
    return make_ruleset(RACE4.format(more=more), **kw)


def run(folder, agents, backend="fast", **kw):
    return Game(compiled(folder, backend=backend), seed=1, agents=agents, **kw).run()


def script(*steps):
    return ScriptedAgent([Step(p, c, d) for p, c, d in steps])


def errors(folder):
    return [(d.code, d.line, d.col, d.message) for d in load_errors(folder)]


# ---------------------------------------------------------------- numbers
def test_the_options_of_a_number_entry_are_a_range_never_listed():
    nums = Numbers(1, 10, 3, [(-1,)], ["pass"])
    assert list(nums.labels) == ["1", "4", "7", "10", "pass"]
    assert nums[2] == (0, 7) and nums[4] == (-1,) and len(nums) == 5
    assert "7" in nums.labels and "8" not in nums.labels and "11" not in nums.labels
    assert nums.labels.index(" 10 ") == 3 and nums.labels.index("pass") == 4
    assert "07" not in nums.labels and "7.0" not in nums.labels and "" not in nums.labels
    assert nums.describe() == "a number from 1 to 10 in steps of 3, or pass"
    big = Numbers(0, MAX_LIST - 1)
    assert len(big.labels) == MAX_LIST and big.labels[-1] == str(MAX_LIST - 1)
    with pytest.raises(Exception, match="at most 100,000"):
        Numbers(0, MAX_LIST)
    with pytest.raises(Exception, match="step must be 1 or more"):
        Numbers(0, 5, 0)
    with pytest.raises(Exception, match="cannot be told apart from the number"):
        Numbers(1, 5, 1, [(1,)], ["3"])


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_a_number_entry_is_one_decision_of_every_number(make_ruleset, backend):
    folder = game_with(make_ruleset, BID)
    game = run(folder, first_agents(), backend, logging=True)
    # the first option is the lowest number; the block runs with it
    assert game.history[:2] == [("red", "bid", "1"), ("blue", "bid", "1")]
    assert [p.u_laps for p in game.players] == [4, 4]
    assert "red takes 1" in [e["text"] for e in game.log]
    # a script names a number; 4 is not on offer (steps of 2 from 1)
    steps = [("red", "5", "bid"), ("blue", "pass", "bid")] * 4
    game = run(folder, [script(*steps)] * 2, backend)
    assert [p.u_laps for p in game.players] == [20, 0]
    with pytest.raises(ScriptError, match="'4' is not a legal choice"):
        run(folder, [script(("red", "4", "bid"))] * 2, backend)


def test_a_random_player_draws_every_option_alike(make_ruleset):
    folder = game_with(make_ruleset, BID)
    seen = {}
    for seed in range(300):
        game = Game(compiled(folder), seed=seed, agents=[RandomAgent(seed), RandomAgent(-seed)]).run()
        for who, _, label in game.history[:2]:
            seen[label] = seen.get(label, 0) + 1
    # round 1 offers 1, 3, 5 and pass: each about a quarter of 600 answers
    assert set(seen) == {"1", "3", "5", "pass"}
    assert all(110 < n < 190 for n in seen.values()), seen


def test_both_back_ends_and_a_replay_agree(make_ruleset):
    folder = game_with(make_ruleset, MENU)
    for seed in range(30):
        fast = Game(compiled(folder), seed=seed, agents=[RandomAgent(seed), RandomAgent(1)]).run()
        ref = Game(compiled(folder, backend="reference"), seed=seed,
                   agents=[RandomAgent(seed), RandomAgent(1)]).run()
        assert fast.history == ref.history
        again = run(folder, [ScriptedAgent([Step(p, c, d) for p, d, c in fast.history])] * 2)
        assert [p.u_laps for p in again.players] == [p.u_laps for p in fast.players]
    labels = {label for _, _, label in fast.history}
    assert labels <= {"fold", "check", "2", "4", "6", "8", "10"}


def test_a_number_entry_among_options_dispatches_each(make_ruleset):
    folder = game_with(make_ruleset, MENU)
    game = run(folder, [script(*[("red", "8", "raise"), ("blue", "fold", "raise")] * 4)] * 2)
    assert [p.u_laps for p in game.players] == [32, 400]
    # an agent is shown the labels as a number entry, not a list
    shown = []

    class Peek(RandomAgent):
        def pick(self, d):
            shown.append(d.labels)
            return super().pick(d)
    Game(compiled(folder), seed=1, agents=[Peek(1), Peek(2)]).run()
    assert isinstance(shown[0], NumberLabels)
    assert list(shown[0]) == ["2", "4", "6", "8", "10", "fold", "check"]
    assert shown[0].describe() == "a number from 2 to 10 in steps of 2, or fold, check"


def test_a_bot_ranks_every_number(make_ruleset):
    seat = {"  - {id: blue, name: Blue}\n": "  - {id: blue, name: Blue}\n"
                                            "  - {id: robot, name: Robot}\nbots: [robot]\n"}
    folder = game_with(make_ruleset, MENU, game_edits=seat)
    game = Game(compiled(folder), seed=1, agents=[*first_agents(), None], logging=True).run()
    lines = [e["text"] for e in game.log if e["text"].startswith("robot (bot)")]
    assert lines[0].startswith("robot (bot) chooses 10 (raise")  # 10 - n lowest at 10
    robot = next(p for p in game.players if p.id == "robot")
    assert robot.u_laps == 40


def test_number_entries_are_checked_where_written(make_ruleset):
    bad = MENU.replace("number n from 2 to 10 by 2", 'number n from "two" to 10 by 0')
    folder = game_with(make_ruleset, bad)
    text = (folder / "race.rules").read_text()
    got = errors(folder)
    assert ("TYPE", *locate(text, '"two"'),
            "the lowest number of a number entry must be a number, not text") in got
    assert ("TYPE", *locate(text, "0 prefer"),
            "a number entry's step must be 1 or more, not 0") in got
    two = MENU.replace('option "check"', "number m from 1 to 2")
    folder = game_with(make_ruleset, two, folder=folder.parent / "two")
    text = (folder / "race.rules").read_text()
    assert errors(folder) == [("TYPE", *locate(text, "number m"),
                               "a decision takes one number entry; this is another")]


def test_a_range_too_wide_is_a_located_error(make_ruleset):
    folder = game_with(make_ruleset, BID.replace("to round + 5 by 2", "to round * 1000000"))
    text = (folder / "race.rules").read_text()
    with pytest.raises(DiagnosticError) as e:
        run(folder, first_agents())
    line, _ = locate(text, "number n")
    assert f"race.rules:{line}:" in str(e.value) and "at most 100,000" in str(e.value)


def test_an_option_reading_like_a_number_is_refused(make_ruleset):
    folder = game_with(make_ruleset, MENU.replace('option "fold"', 'option "4"'))
    with pytest.raises(DiagnosticError, match="'4' cannot be told apart from the number"):
        run(folder, first_agents())


def test_docs_and_coverage_read_a_number_entry(make_ruleset):
    folder = game_with(make_ruleset, BID)
    assert ("A number n from 1 to the round number plus 5, in steps of 2 (a bot ranks each "
            "by minus n, lowest first):") in reference(folder)


def test_a_script_that_names_no_number_on_offer_says_what_is(tmp_path):
    with pytest.raises(ScriptError) as e:
        ScriptedAgent([Step("ann", "99", "bid")]).pick(_Asked(Numbers(1, 15).labels))
    assert e.value.legal == ["a number from 1 to 15"]


class _Asked:
    player, decision, prompt, some = "ann", "bid", None, None

    def __init__(self, labels):
        self.labels = labels

    def view(self):
        return None


def test_the_auction_recipe_bids_by_number():
    from interpreter.run.engine import load_program
    program, _ = load_program(RULES / "examples" / "auction")
    game = Game(program, seed=4, agents=[RandomAgent(1), RandomAgent(2), RandomAgent(3)],
                players=3).run()
    bids = [label for _, d, label in game.history if d == "bid"]
    assert bids and all(b == "pass" or b.isdigit() for b in bids)


# ---------------------------------------------------------------- ordered picks
HANDS = {"zones:\n  game:\n": "zones:\n  side:\n    hand: {visibility: owner}\n  game:\n"
                              "    deck: {type: deck, visibility: hidden}\n"}
CARDS = "kind: components\ncomponent: card\nattributes:\n  cost: {type: int, default: 0}\n" \
    "zone: deck\nitems:\n" + \
    "".join(f"  - {{id: c{i}, cost: {i}}}\n" for i in range(8))
PLAY = """phase talk {
  if round == 1 {
    for p in players { draw 3 from deck to p.hand }
  }
  for p in players {
    choose p as play may "play cards" some played in order from c in p.hand label c.id
        min 1 max 2 prefer -sum(played, c => c.cost) {
      log "{p} plays {joined([c.id for c in played])}"
      p.laps += played[0].cost
      for c in played { move c to deck bottom }
      draw len(played) from deck to p.hand
    }
  }
}
"""


def hands_game(make_ruleset, more=PLAY, **kw):
    return game_with(make_ruleset, more, game_edits=HANDS, files={"cards.yaml": CARDS}, **kw)


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_picks_in_order_are_a_list_in_the_order_picked(make_ruleset, backend):
    folder = hands_game(make_ruleset)
    game = run(folder, [script(
        ("red", "c2", "play"), ("red", "c0", "play"),    # two: the picking ends itself
        ("blue", "c3", "play"), ("blue", "done", "play"),  # one, then stop
        *[("red", "pass", "play"), ("blue", "pass", "play")] * 3)] * 2, backend, logging=True)
    out = [e["text"] for e in game.log]
    assert "red plays c2 and c0" in out and "blue plays c3" in out
    red, blue = game.players
    assert (red.u_laps, blue.u_laps) == (2, 3)  # the first card played counts
    # what was played went under the last two cards of the deck in the order
    # played (c2, c0, then blue's c3); red drew those two, blue drew c2 back
    assert [c.id for c in game.z_deck.items] == ["c0", "c3"]
    assert "c2" in [c.id for c in blue.u_hand.items]


def test_what_is_offered_at_each_pick(make_ruleset):
    folder = hands_game(make_ruleset)
    asked = []

    class Peek(ScriptedAgent):
        def pick(self, d):
            asked.append((d.player, list(d.labels), d.prompt))
            return super().pick(d)
    steps = [Step("red", "c1", "play"), Step("red", "done", "play")]
    Game(compiled(folder), seed=1, agents=[Peek(steps, fallback=RandomAgent(1))] * 2).run()
    hand = asked[0][1][:3]
    # before the first pick: the hand and pass (one is needed, so no `nothing`)
    assert asked[0] == ("red", [*hand, "pass"], "play cards")
    # then the rest of the hand, or stop: the prompt says what is picked
    assert asked[1] == ("red", [h for h in hand if h != "c1"] + ["done"],
                        "play cards — picked so far: c1")


def test_other_seats_read_a_hidden_pick_as_a_card(make_ruleset):
    folder = hands_game(make_ruleset)
    steps = [Step("red", "c1", "play"), Step("red", "done", "play")]
    agents = [ScriptedAgent(steps, fallback=RandomAgent(1))] * 2
    game = Game(compiled(folder), seed=1, agents=agents, logging=True).run()
    blue = [e["text"] for e in log_for(game, game.players[1])]
    red = [e["text"] for e in log_for(game, game.players[0])]
    assert "red chooses a card (play)" in blue and "red chooses c1 (play)" in red
    assert not any("c1" in t for t in blue[:blue.index("red chooses done (play)")])


def test_both_back_ends_agree_on_ordered_picks(make_ruleset):
    folder = hands_game(make_ruleset)
    for seed in range(20):
        agents = lambda: [RandomAgent(seed), RandomAgent(seed + 1)]  # noqa: E731
        fast = Game(compiled(folder), seed=seed, agents=agents()).run()
        ref = Game(compiled(folder, backend="reference"), seed=seed, agents=agents()).run()
        assert fast.history == ref.history


def test_a_bot_picks_greedily_by_its_rank(make_ruleset):
    seat = {**HANDS, "  - {id: blue, name: Blue}\n": "  - {id: blue, name: Blue}\n"
            "  - {id: robot, name: Robot}\nbots: [robot]\n"}
    folder = game_with(make_ruleset, PLAY, game_edits=seat, files={"cards.yaml": CARDS})
    game = Game(compiled(folder), seed=1, agents=[*first_agents(), None], logging=True).run()
    robot = [e["text"] for e in game.log if e["text"].startswith("robot")]
    hand = sorted(robot[0].split("draws ")[1].split(" from")[0].replace(" and", ",").split(", "))
    # the dearest first (rank -cost), then the next dearest (never `done` early)
    top = sorted(hand, key=lambda c: -int(c[1:]))
    assert robot[1].startswith(f"robot (bot) chooses {top[0]} (play")
    assert robot[2].startswith(f"robot (bot) chooses {top[1]} (play")


def test_ordered_picks_take_no_when_and_no_stop_words(make_ruleset):
    folder = hands_game(make_ruleset, PLAY.replace(" prefer -sum", " when len(played) > 0 prefer -sum"))
    text = (folder / "race.rules").read_text()
    got = errors(folder)
    assert got == [("TYPE", *locate(text, "len(played) >"),
                    "picks made in order take no 'when' test (each pick is its own decision)")]
    folder = hands_game(make_ruleset, PLAY.replace("label c.id", 'label "done"'),
                        folder=folder.parent / "done")
    with pytest.raises(DiagnosticError, match="'done' cannot be told apart from stopping"):
        run(folder, first_agents())


def test_docs_read_picks_in_order(make_ruleset):
    text = reference(hands_game(make_ruleset))
    assert "one at a time in an order of one's own" in text
    assert "call the picked ones played (in the order picked)" in text


def test_the_forward_model_and_a_search_take_a_number_entry():
    from interpreter.run.engine import load_program
    from interpreter.run.forward import Position, Recipe
    from interpreter.search.agents import make_agent
    program, _ = load_program(RULES / "examples" / "auction")
    pos = Position(Recipe(program, 3, {}, 3))
    assert pos.asking.decision == "bid" and pos.legal()[:3] == ["1", "2", "3"]
    assert pos.legal()[-1] == "pass" and len(pos.legal()) == 16  # 1 to 15, or pass
    after = pos.apply("7")
    assert after.game.v_high_bid == 7
    agent = make_agent("mcts:30", 1, 0)
    game = Game(program, seed=2, agents=[agent, RandomAgent(2), RandomAgent(3)], players=3).run()
    assert any(d == "bid" and who == "ann" for who, d, _ in game.history)
