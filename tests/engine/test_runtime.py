"""Runtime properties: determinism, replay, conservation, visibility."""
import json

import pytest
from helpers import RULES, compiled, copy_ruleset, random_agents, replay_script, run_game

from interpreter.model.views import log_for, view_for
from interpreter.run.agents import RandomAgent, ScriptedAgent
from interpreter.run.builtins import RuleError
from interpreter.run.engine import Game

RULESET = RULES / "smile_and_gun"


@pytest.fixture(scope="module")
def program():
    return compiled(RULESET)


def play(program, seed, options, logging=True, hooks=None):
    return run_game(program, hooks, seed=seed, options=options, agents=random_agents(seed),
                    logging=logging)


def shadows(program):
    return [c.id for c in program.rs.components if c.kind == "shadow"]


def infusions(program):
    return [c.id for c in program.rs.components if c.kind == "infusion"]


def test_same_seed_same_game_byte_for_byte(program):
    opts = {"shadow": "the-collector", "infusion": "second-chance"}
    a = play(program, 11, opts)
    b = play(program, 11, opts)
    assert json.dumps(a.log) == json.dumps(b.log)
    assert a.history == b.history and len(a.history) > 40
    c = play(program, 12, opts)
    assert json.dumps(a.log) != json.dumps(c.log)


def test_random_options_are_drawn_from_the_seed(program):
    assert play(program, 5, {}).options == play(program, 5, {}).options


def test_replay_of_recorded_choices_gives_the_same_game(program):
    opts = {"shadow": "the-siren", "infusion": "undertow"}
    first = play(program, 3, opts)
    script = replay_script(first)
    agent = ScriptedAgent(script)
    again = Game(program, seed=3, options=opts, agents=[agent, agent], logging=True).run()
    assert script == []
    assert json.dumps(again.log) == json.dumps(first.log)
    assert again.scores() == first.scores()


def test_every_shadow_and_infusion_pairing_plays_with_conservation(program):
    def check(game, when, phase):
        game.check_invariants()

    pairs = [(s, i) for s in shadows(program) for i in infusions(program)]
    assert len(pairs) == 13 * 9
    for n, (s, i) in enumerate(pairs):
        game = play(program, n, {"shadow": s, "infusion": i}, logging=False, hooks=check)
        assert game.finished
        assert game.round == 3
        assert set(game.scores()) == {"green", "yellow"}


def test_invariant_check_catches_a_lost_cube(program):
    game = play(program, 1, {"shadow": "the-badge", "infusion": "knockoff"}, logging=False)
    game.check_invariants()
    game.n_green.u_cubes -= 1
    with pytest.raises(RuleError, match="green has 34 cubes"):
        game.check_invariants()


def test_views_hide_what_is_in_the_bag(program):
    seen = {}

    def grab(game, when, phase):
        if when == "after" and phase == "sizing_it_up" and game.round == 1:
            seen["view"] = view_for(game, game.n_green)

    play(program, 4, {"shadow": "the-badge", "infusion": "knockoff"}, hooks=grab)
    view = seen["view"]
    assert view["zones"]["bag"] == {"count": 41 - 14}
    assert isinstance(view["zones"]["box"], list)
    assert view["you"] == "green"
    assert sum(len(v["tokens"]) for v in view["spaces"].values()) == 19


def test_agents_receive_a_decision_not_the_game(program):
    import gc
    import types

    from interpreter.run.engine import Game as GameClass

    class Peek:
        wants_view = True

        def __init__(self):
            self.rng = RandomAgent("peek")
            self.views = 0

        def pick(self, d):
            # nothing an agent holds leads back to the game object: the walk
            # follows every object and closure the decision reaches, but not
            # classes and modules (shared code, which holds no game: walking
            # the interpreter's whole heap at each pick took minutes)
            reachable, todo, seen = [], [d], set()
            while todo:
                x = todo.pop()
                if id(x) in seen or isinstance(x, (str, int, float, bool, type(None), type,
                                                   types.ModuleType)):
                    continue
                seen.add(id(x))
                reachable.append(x)
                if isinstance(x, types.FunctionType):  # its closure and defaults, not globals
                    todo.extend(c.cell_contents for c in x.__closure__ or ())
                    todo.extend(x.__defaults__ or ())
                    todo.extend((x.__kwdefaults__ or {}).values())
                    continue
                todo.extend(gc.get_referents(x))
            assert not any(isinstance(x, GameClass) for x in reachable)
            assert d.player in ("green", "yellow") and d.labels
            if self.views < 3:
                assert d.view()["you"] == d.player
                self.views += 1
            return self.rng.pick(d)

    peek = Peek()
    Game(program, seed=2, options={"shadow": "the-feds", "infusion": "horde"},
         agents=[peek, peek]).run()
    assert peek.views == 3


def test_secret_log_entries_reach_only_their_owner(program):
    game = play(program, 1, {"shadow": "the-badge", "infusion": "knockoff"})
    game.log.append({"round": 9, "phase": "x", "text": "secret", "see": ["green"],
                     "others": "green does something"})
    assert log_for(game, game.n_green)[-1]["text"] == "secret"
    assert all(e["text"] != "secret" for e in log_for(game, game.n_yellow))
    assert log_for(game, game.n_yellow)[-1]["text"] == "green does something"
    assert log_for(game, None)[-1] == {"round": 9, "phase": "x", "text": "green does something",
                                       "see": "all"}


def test_a_ruleset_loaded_again_is_read_again_when_a_file_changed(tmp_path):
    from interpreter.load.ruleset import load_ruleset
    folder = copy_ruleset("tutorial_race", tmp_path / "race")
    first, _ = load_ruleset(folder)
    again, _ = load_ruleset(folder)
    assert again is first  # the same files: read once per run
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("default: 2", "default: 3"))
    changed, _ = load_ruleset(folder)
    assert changed is not first and changed.options["laps"]["default"] == 3
    (folder / "race.rules").write_text("not rules")
    broken, diags = load_ruleset(folder)
    assert any(d.code == "SYNTAX" for d in diags)
