"""Search agents (search/mcts.py): stronger than random where it shows,
deterministic for a seed, blind to what their seat cannot see, and named
wherever --agents is taken."""
from __future__ import annotations

import random

import pytest
from helpers import ROOT, cli, compiled, run_game
from test_hidden_information import Watched, leaks

from interpreter.run.agents import RandomAgent
from interpreter.run.engine import Game
from interpreter.search.agents import make_agent
from interpreter.search.mcts import MCTSAgent

RACE = ROOT / "rules" / "tutorial_race"


def _duel(program, spec, games):
    """MCTS (spec) against a random agent, seats alternating: MCTS's wins."""
    wins = 0.0
    for seed in range(games):
        me = seed % 2
        agents = [make_agent(spec if i == me else "random", seed, i) for i in range(2)]
        game = Game(program, seed=seed, agents=agents).run()
        ids = [w.id for w in game.winners]
        if game.players[me].id in ids:
            wins += 1 / len(ids)
    return wins


def test_mcts_beats_random_in_the_race():
    # random against random wins about half; 42 of 60 or more happens to it
    # about once in 800 tries (binomial, p = 1/2), so this cannot pass by luck
    program = compiled(RACE)
    assert _duel(program, "mcts:200", 60) >= 42


def test_an_mcts_agent_plays_the_same_game_for_the_same_seed():
    program = compiled(ROOT / "rules" / "smile_and_gun")

    def game(seed):
        agents = [MCTSAgent(20, seed=seed), RandomAgent(seed)]
        return Game(program, seed=3, agents=agents).run().history

    first = game(1)
    assert game(1) == first
    assert game(2) != first  # a seed of its own: another search


def _laps_race(rounds, turn):
    """Rules of a race of `rounds` rounds where each player's turn is `turn`
    and the most laps win."""
    return (f"game {{\n  rounds {rounds} {{ race }}\n  finish {{ win most(players, p => p.laps) }}\n}}\n"
            f"phase race {{\n  for p in players {{\n{turn}  }}\n}}\n")


def test_mcts_chooses_the_best_selection_of_a_choose_some(make_ruleset):
    program = compiled(make_ruleset(_laps_race(1, """\
    let stuff = ["boss", "runner", "runner", "runner", "moonshine"]
    choose p as cargo "send what?" some picked from x in stuff label x min 1 max 3 {
      p.laps = len(picked)
    }
""")))
    for seed in range(4):
        game = Game(program, seed=seed, agents=[MCTSAgent(120, seed=seed),
                                                RandomAgent(seed)]).run()
        assert game.n_red.u_laps == 3, game.history


def test_an_mcts_seat_leaks_nothing_to_the_log(hands):
    program = compiled(hands)
    for seed in range(4):
        game = run_game(program, game=Watched, seed=seed, logging=True,
                        agents=[MCTSAgent(30, seed=seed), MCTSAgent(30, seed=seed + 1)])
        assert game.finished and leaks(game) == []


@pytest.mark.parametrize("spec,iterations,seconds,depth", [
    ("mcts", 500, None, None), ("mcts:40", 40, None, None), ("mcts:0.5s", 500, 0.5, None),
    ("mcts:2s", 500, 2.0, None), ("mcts:200:30", 200, None, 30), ("mcts:1s:5", 500, 1.0, 5)])
def test_agent_names(spec, iterations, seconds, depth):
    agent = make_agent(spec, 1, 0)
    assert isinstance(agent, MCTSAgent)
    assert (agent.iterations, agent.seconds, agent.depth) == (iterations, seconds, depth)


@pytest.mark.parametrize("spec", ["mcts:", "mcts:x", "mcts:0", "mcts:-3", "mcts:1.5", "mctsy",
                                  "mcts:0s", "mcts:99999999", "mcts:20:0", "mcts:20:", "mcts::4"])
def test_bad_agent_names_say_what_an_mcts_agent_is(spec):
    with pytest.raises(ValueError, match="mcts"):
        make_agent(spec, 1, 0)


def test_play_and_simulate_take_mcts_agents(tmp_path):
    r = cli("play", str(RACE), "--agents", "mcts:30,random", "--seed", "4", "--json")
    assert r.exit_code == 0, r.output
    r = cli("simulate", str(RACE), "--agents", "mcts:20", "--games", "4", "--json")
    assert r.exit_code == 0, r.output
    r = cli("play", str(RACE), "--agents", "mcts:nope,random")
    assert r.exit_code == 2 and "mcts:N" in r.output



@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork() here")
def test_forked_and_replayed_playouts_make_the_same_search(hands):
    """A playout in a forked copy of the process and one replayed from the
    start are the same playout: the games an agent plays do not depend on
    which way its playouts went (the way is chosen by the clock)."""
    program = compiled(hands)

    def game(fork):
        class Pinned(MCTSAgent):
            def pick(self, d):
                d.search.fork = fork
                return super().pick(d)
        agents = [Pinned(25, seed=3, depth=3), Pinned(25, seed=4)]
        return Game(program, seed=6, agents=agents).run().history

    assert game(True) == game(False)


@pytest.mark.parametrize("fork", [True, False])
def test_what_a_search_keeps_between_decisions_changes_no_game(hands, fork):
    """A seat's search carries its knowledge and its forks' start from one
    decision to the next (playout.Kept) instead of replaying the game each
    time: the games it plays are those it plays when every decision starts
    afresh, forked or replayed."""
    program = compiled(hands)

    def game(fresh):
        class Pinned(MCTSAgent):
            def pick(self, d):
                if fresh:
                    d.search._kept.__init__(d.search._recipe, d.search.seat)
                d.search.fork = fork
                return super().pick(d)
        agents = [Pinned(25, seed=3, depth=3), Pinned(25, seed=4)]
        return Game(program, seed=6, agents=agents).run().history

    assert game(fresh=False) == game(fresh=True)


def test_a_cut_playout_is_judged_by_the_score(make_ruleset):
    program = compiled(make_ruleset(_laps_race(3, """\
    choose p as step "how far?" from n in [0, 1, 2] label "step:{n}" {
      p.laps += n
    }
""")))  # (the race scores laps)
    for seed in range(4):  # red's first step: one random decision, then the laps decide
        game = Game(program, seed=seed, agents=[MCTSAgent(60, seed=seed, depth=1),
                                                RandomAgent(seed)]).run()
        assert game.history[0] == ("red", "step", "step:2")


def test_bot_playouts_take_the_options_the_rules_rank(make_ruleset):
    """mcts:N:bot: in a playout, each seat takes the option its rules rank
    first (`prefer`, as a bot would) where they rank any."""
    program = compiled(make_ruleset(_laps_race(3, """\
    choose p as step "how far?" from n in [0, 1, 2] label "step:{n}" prefer 0 - n {
      p.laps += n
    }
""")))
    from interpreter.run.playout import ROLLOUT

    class Probe:
        """Red and blue step 2 in round 1; the playout plays on from red's
        round-2 decision (taken at random: it was asked before the rollout)."""

        wants_search = True
        results = None

        def policy(self):
            asked = []

            def answer(asking):
                asked.append(asking)
                return 2 if len(asked) <= 2 else ROLLOUT
            return answer

        def pick(self, d):
            if self.results is None:
                self.results = {}
                for ranked in (True, False):
                    d.search.ranked = ranked
                    self.results[ranked] = {tuple(d.search.playout(random.Random(k),
                                                                   self.policy()))
                                            for k in range(30)}
            return 0

    probe = Probe()
    Game(program, seed=1, agents=[probe, RandomAgent(1)]).run()
    # by the ranks, blue steps 2 every time after: red never gets ahead
    assert (1.0, 0.0) not in probe.results[True] and (0.5, 0.5) in probe.results[True]
    assert (1.0, 0.0) in probe.results[False]  # random steps: sometimes it does
    assert make_agent("mcts:50:bot", 1, 0).rollout == "bot"


def test_a_saved_game_resumed_with_its_search_agent_plays_on_as_it_would_have(tmp_path):
    import json
    full, part, resumed = tmp_path / "full.json", tmp_path / "part.json", tmp_path / "again.json"
    r = cli("play", str(RACE), "--agents", "mcts:30,random", "--seed", "3", "--save", str(full),
            "--quiet")
    assert r.exit_code == 0, r.output
    saved = json.loads(full.read_text())
    assert len(saved["choices"]) > 4
    part.write_text(json.dumps({**saved, "choices": saved["choices"][:3], "finished": False,
                                "ruleset": str(RACE)}))
    r = cli("play", str(RACE), "--replay", str(part), "--agents", "mcts:30,random", "--save",
            str(resumed), "--quiet")
    assert r.exit_code == 0, r.output
    assert json.loads(resumed.read_text())["choices"] == saved["choices"]


def test_the_time_an_agent_thinks_is_not_the_rules_time(monkeypatch):
    """The clock that stops runaway rules (MAX_SECONDS) counts the rules'
    time only: a search that thinks long does not end the game."""
    import time

    import interpreter.run.engine as engine

    class Slow(RandomAgent):
        def pick(self, d):
            time.sleep(0.01)
            return super().pick(d)

    monkeypatch.setattr(engine, "MAX_SECONDS", 0.3)
    monkeypatch.setattr(engine, "STEP_CHUNK", 50)  # the clock is read every 50 steps
    program = compiled(ROOT / "rules" / "smile_and_gun")
    game = Game(program, seed=1, agents=[Slow(1), Slow(2)]).run()
    assert game.finished and len(game.history) * 0.01 > 0.3  # it thought longer than that


def test_a_failed_games_error_crosses_to_another_process():
    """A game that fails in a worker (simulate, tools/bench-agents) reports
    its located diagnostics back, not a broken pool."""
    import pickle

    from interpreter.support.diagnostics import Diagnostic, DiagnosticError

    error = DiagnosticError(Diagnostic("race.rules", 3, 5, "RUNTIME", "boom"))
    again = pickle.loads(pickle.dumps(error))
    assert again.diagnostics[0].short() == "race.rules:3:5: RUNTIME boom"
    assert str(again) == str(error)


def test_a_report_plays_its_search_agents_for_real():
    """Simulations watch games through hooks; the search agents in them still
    search (a silent random pick in their name would make the report lie)."""
    from interpreter.designer.simulate import Job, play_record

    made = []

    def agents(spec, program, seed, options, players):
        made[:] = [MCTSAgent(30, seed=seed), RandomAgent(seed)]
        return made

    job = Job(str(RACE), None, {}, None, None, "mcts:30,random", agents, "fast")
    rec = play_record(compiled(RACE), job, 3)
    assert rec.get("winners") and rec.get("error") is None, rec
    assert made[0].searched > 0 and made[0].runs == 30 * made[0].searched
