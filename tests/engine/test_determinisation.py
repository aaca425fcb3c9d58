"""Determinisation (run/determinise.py): a sample of the game as one seat
knows it agrees with everything that seat has seen, is random in what it has
not — spread as the rules spread it — and depends on nothing else."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import ROOT, compiled, run_game

from interpreter.model.views import view_for
from interpreter.run.agents import RandomAgent
from interpreter.run.engine import Game, Rig
from interpreter.run.forward import Position
from interpreter.search.mcts import MCTSAgent


class Probe(RandomAgent):
    """A random agent that keeps, at each of its decisions, its view and the
    playouts handed to a search agent."""

    wants_search = True
    wants_view = True

    def __init__(self, seed):
        super().__init__(seed)
        self.seen = []

    def pick(self, d):
        self.seen.append((d.decision, _table(d.view()), d.search))
        return super().pick(d)

    def pick_some(self, d):
        self.seen.append((d.decision, _table(d.view()), d.search))
        return super().pick_some(d)


def _table(view):
    """A view without what only the real game's past has (its log)."""
    return {k: v for k, v in view.items() if k not in ("log", "log_size", "names", "summary")}


def _probed(program, seed, players=None, **kw):
    n = len(program.rs.seats)
    agents = [Probe(f"{seed}:{i}") for i in range(n)]
    game = run_game(program, seed=seed, agents=agents, players=players, **kw)
    return game, agents


def _agrees(program, seeds, per_game, samples, players=None):
    for seed in seeds:
        game, agents = _probed(program, seed, players)
        rng = random.Random(seed)
        for seat, agent in enumerate(agents[:len(game.players)]):
            points = agent.seen
            for decision, view, search in rng.sample(points, min(per_game, len(points))):
                for k in range(samples):
                    sample = search.sample(random.Random(k)).game
                    side = sample.players[seat]
                    assert _table(view_for(sample, side)) == view, \
                        f"seed {seed}: a sample of {side.id}'s {decision} contradicts its view"


def test_a_sample_never_contradicts_the_seats_view(hands):
    _agrees(compiled(hands), range(20), 4, 5)


@pytest.mark.parametrize("game, players, seeds", [
    ("smile_and_gun", None, range(4)), ("scarface_1920", 4, range(1)),
    ("chicago", 4, range(1)), ("moonshine_kingdom", 4, range(1))])
def test_samples_of_every_shipped_game_agree_with_the_view(game, players, seeds):
    _agrees(compiled(ROOT / "rules" / game), seeds, 3, 2, players)


def _first_pass(program, seed=11, rig=None):
    """north's first decision (its face-down pass) in a hands game."""
    game, agents = _probed(program, seed, rig=rig)
    decision, view, search = agents[0].seen[0]
    assert decision == "pass"
    return game, view, search


def test_unseen_cards_are_spread_as_the_deal_spreads_them(hands):
    program = compiled(hands)
    game, view, search = _first_pass(program)
    mine = {c["id"] for c in view["sides"]["north"]["zones"]["hand"]}
    unseen = {c.id for c in game.comps if c.kind == "card"} - mine
    assert len(mine) == 3 and len(unseen) == 9
    in_hand, on_top, real = Counter(), Counter(), 0
    truth = _hand(_replayed(search))
    n = 1800
    for k in range(n):
        sample = search.sample(random.Random(k)).game
        hand = _hand(sample)
        assert len(hand) == 3 and not hand & mine
        in_hand.update(hand)
        on_top[sample.zones["deck"].items[0].id] += 1
        real += hand == truth
    assert set(in_hand) == unseen and set(on_top) == unseen
    for card in unseen:  # each unseen card: in south's hand 1/3 of the time, on top 1/9
        assert abs(in_hand[card] - n / 3) < 90, in_hand
        assert abs(on_top[card] - n / 9) < 60, on_top
    assert real < n / 20  # south's real hand (one deal in 84) is not favoured


def _hand(game, seat="south"):
    return {c.id for c in getattr(game, f"n_{seat}").u_hand.items}


def _replayed(search):
    """The real game at the search's decision (the test may look; agents may not)."""
    return Position(search._recipe, choices=search._choices).game


def test_a_card_passed_face_down_stays_where_its_passer_put_it(hands):
    program = compiled(hands)
    for seed in range(10):
        game, agents = _probed(program, seed)
        north = agents[0].seen
        first = north[0][2]  # the round-1 pass
        later = [s for d, _, s in north[2:]]  # the round-2 decisions
        before = _replayed(first)
        after = _replayed(later[0])
        pile_before = {c.id for c in before.zones["pile"].items}
        mine = {c.id for c in after.zones["pile"].items} - pile_before
        kept = {c.id for c in before.n_north.u_hand.items}
        x = next(iter(mine & kept))  # the card north passed: now in the pile
        others = Counter()
        for k in range(200):
            sample = later[0].sample(random.Random(k)).game
            pile = {c.id for c in sample.zones["pile"].items}
            assert x in pile
            others.update(pile - {x})
        assert len(others) > 3  # what south passed (north saw no card of it) varies


def test_games_alike_to_a_seat_give_it_the_same_samples_and_the_same_search(hands):
    program = compiled(hands)
    rolls = [3, 5, 2, 6] * 10
    found = []
    for south in (["jack", "ten", "nine"], ["three", "four", "five"]):
        rig = Rig(rolls, {"deck": ["ace", "king", "queen"] + south})
        game, view, search = _first_pass(program, 11, rig)
        assert _hand(_replayed(search)) == set(south)
        samples = [sorted(_hand(search.sample(random.Random(k)).game)) for k in range(20)]
        mcts = FirstSearch(60, seed=4)
        agents = [mcts, RandomAgent(9)]
        Game(program, seed=11, agents=agents, rig=Rig(rolls, {"deck": ["ace", "king", "queen"]
                                                              + south})).run()
        found.append((view, samples, mcts.first))
    (view_a, samples_a, first_a), (view_b, samples_b, first_b) = found
    assert view_a == view_b  # north sees the same game ...
    assert samples_a == samples_b  # ... so it samples the same games
    assert first_a == first_b and len(first_a[1]) == 3  # and searches them alike
    assert sum(v for v, _ in first_a[1].values()) == 60


class FirstSearch(MCTSAgent):
    """An MCTS agent that keeps its first decision and the root's statistics."""

    first = None

    def pick(self, d):
        i = super().pick(d)
        if self.first is None:
            self.first = (i, dict(self.last))
        return i


@pytest.mark.parametrize("game,players", [("hands", None), ("scarface_1920", 3)])
def test_knowledge_carried_on_is_knowledge_worked_out_afresh(game, players, request):
    """Tracking carries one logged replay on from decision to decision; at
    every decision it knows what a replay from the start works out."""
    from interpreter.run.determinise import Knowledge, Tracking
    from interpreter.run.forward import Recipe

    path = request.getfixturevalue("hands") if game == "hands" else ROOT / "rules" / game
    program = compiled(path)
    played = run_game(program, seed=5, players=players,
                      agents=[RandomAgent(i) for i in range(len(program.rs.seats))])
    recipe = Recipe(program, 5, {}, players)
    history = tuple(played.history)
    tracking = Tracking(recipe, 0)
    checked = 0
    for n in range(0, len(history), max(1, len(history) // 25)):
        carried = tracking.at(history[:n])
        assert carried == Knowledge.of(recipe, history[:n], 0)
        checked += bool(carried.groups)
    assert checked > 5  # (positions with something hidden were compared)
