"""Hidden information is a promise: what a zone hides never reaches another
seat's view, the public log, or another seat's agent.

A small card game with owner-only hands, a face-down pile, a hidden deck and
owner-only dice exercises every way a secret could leak; every shipped game is
then played with a watcher that checks each log line as it is written.
"""
from __future__ import annotations

import json
import re

import pytest
from helpers import (
    ROOT,
    cli,
    compiled,
    random_agents,
    run_game,
    seat_agents,
)

from interpreter.model.views import entry_for, log_for, sees, view_for, viewers
from interpreter.run.agents import RandomAgent
from interpreter.run.engine import Game, load_program

class Watched(Game):
    """A game that notes, for each log line, which components were hidden from
    each reader both before and after the event (those must never be named)."""

    readers = None

    def say(self, *args, **kwargs):
        now = self._hidden_now()
        before = getattr(self, "_before", now)
        self._before = now
        super().say(*args, **kwargs)
        self.log[-1]["_secret"] = {r: before[r] & now[r] for r in now}

    def _hidden_now(self):
        out = {}
        for reader in [None] + list(self.players):
            rid = reader.id if reader is not None else None
            out[rid] = {c.id for c in self.comps if c.zone is not None and
                        not sees(c, reader)}  # a card revealed to the reader is his to see
        return out


def leaks(game) -> list[str]:
    ids = sorted((c.id for c in game.comps), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")
    found = []
    for entry in game.log:
        for reader in [None] + list(game.players):
            rid = reader.id if reader is not None else None
            shown = entry_for(entry, rid)
            if shown is None:
                continue
            named = set(pattern.findall(shown["text"]))
            bad = named & entry["_secret"][rid]
            if bad:
                found.append(f"{rid or 'public'} reads {shown['text']!r} naming {sorted(bad)}")
    return found


def play(folder, seed, options=None, variant=None, agents=None):
    program = compiled(folder, variant=variant, options=options)
    agents = agents or random_agents(seed, len(program.rs.seats))
    return run_game(program, game=Watched, seed=seed, options=options or {}, agents=agents,
                    logging=True)


def public(game):
    return [e["text"] for e in log_for(game, None)]


def test_no_line_of_the_hands_game_names_a_hidden_card(hands):
    for seed in range(30):
        game = play(hands, seed)
        assert leaks(game) == []


def test_a_card_passed_face_down_is_a_card_to_the_table(hands):
    game = play(hands, 3)
    north = [e["text"] for e in log_for(game, game.n_north)]
    passes = [t for t in public(game) if t.startswith("north chooses") and t.endswith("(pass)")]
    assert passes == ["north chooses a card (pass)"] * 2
    mine = [t for t in north if t.startswith("north chooses") and t.endswith("(pass)")]
    assert len(mine) == 2 and all(t[len("north chooses "):-len(" (pass)")] in
                                  {c.id for c in game.comps} for t in mine)
    # the owner's line knows how many options there were; the table's does not
    entry = next(e for e in game.log if e["text"].startswith("north chooses") and
                 e["text"].endswith("(pass)"))
    assert entry["see"] == ["north"] and entry["options"] == 3
    told = entry_for(entry, "south")
    assert set(told) == {"round", "phase", "player", "decision", "text", "see", "event"}
    assert told["event"] == {"kind": "decision", "player": "north", "decision": "pass",
                             "items": [{"kind": "card", "count": 1}]}  # no label, no count


def test_a_forced_play_reads_like_a_chosen_one(hands):
    game = play(hands, 5)
    # round 2: two cards drawn, one passed, so the face-up play is forced
    forced = [e for e in game.log if e.get("forced")]
    assert forced and all(e["see"] == [e["player"]] for e in forced)
    for e in forced:
        assert e["text"].endswith(" (show, only option)")
        shown = entry_for(e, "south" if e["player"] == "north" else "north")["text"]
        assert shown == f"{e['player']} chooses a card (show)"
    shows = [t for t in public(game) if t.endswith(" (show)")]
    assert len(set(shows)) == 2 and all(t.endswith("chooses a card (show)") for t in shows)


def test_several_hidden_cards_moved_at_once_are_one_counted_line(hands):
    game = play(hands, 7)
    lines = [t for t in public(game) if re.search(r"'s hand to pile", t)]
    assert lines and all(re.fullmatch(r"(a card goes|\d cards go) from (north|south)'s hand to "
                                      r"pile", t) for t in lines), lines
    sorted_move = [e for e in game.log if e["text"].count(",") and e["text"].endswith("pile")]
    for e in sorted_move:  # the owner reads the ids, in the order the rules moved them
        assert e["see"] in (["north"], ["south"])


def test_owner_only_dice_show_their_faces_to_the_owner_alone(hands):
    game = play(hands, 2)
    rolls = [e for e in game.log if " rolls " in e["text"]]
    assert len(rolls) == 4
    for e in rolls:
        assert e["see"] in (["north"], ["south"])
        owner = e["see"][0]
        assert re.fullmatch(rf"{owner} rolls [1-6] and [1-6]", e["text"]), e["text"]
        assert e["others"] == f"{owner} rolls 2 dice in {owner}'s dice"
    assert not [t for t in public(game) if re.search(r"rolls [1-6] and", t)]


def test_a_log_statement_shows_a_hidden_card_as_its_kind(hands):
    game = play(hands, 4)
    kept = [e for e in game.log if " keeps " in e["text"]]
    assert kept
    for e in kept:
        if e["text"].endswith("keeps none in hand"):
            continue
        assert e["see"] == [e["text"].split()[0]]
        assert e["others"] == f"{e['text'].split()[0]} keeps a card in hand"


def test_views_show_other_hands_as_counts_only(hands):
    program, _ = load_program(hands)
    seen = []

    class Looker:
        wants_view = True

        def __init__(self, seat):
            self.rng = RandomAgent(seat)

        def pick(self, d):
            seen.append((d.player, d.view()))
            return self.rng.pick(d)

    Game(program, seed=1, agents=[Looker("n"), Looker("s")]).run()
    assert seen
    for seat, view in seen:
        other = "south" if seat == "north" else "north"
        assert isinstance(view["sides"][seat]["zones"]["hand"], list)
        assert set(view["sides"][other]["zones"]["hand"]) == {"count"}
        assert set(view["zones"]["deck"]) == {"count"}
        for e in view["log"]:
            assert e["see"] == "all" or seat in e["see"]


@pytest.mark.parametrize("ruleset,options,variant", [
    ("smile_and_gun", {"shadow": "the-badge", "infusion": "second-chance"}, None),
    ("smile_and_gun", {"shadow": "the-collector", "infusion": "knockoff"}, None),
    ("smile_and_gun", {}, "solo"),
    ("chicago", {"bosses": "2"}, None),
    ("chicago", {"bosses": "4"}, None),
    ("tutorial_race", {}, None),
    ("moonshine_kingdom", {"days": "20"}, None),
    ("moonshine_kingdom", {"days": "20"}, "blood-oath"),
    ("scarface_1920", {}, None),
    ("scarface_1920", {"job_draft": "true", "customized_deck": "true"}, None),
    ("scarface_1920", {}, "solo"),
])
def test_no_public_line_of_a_shipped_game_names_a_hidden_component(ruleset, options, variant):
    program = compiled(ROOT / "rules" / ruleset, variant=variant, options=options)
    for seed in range(4):
        game = run_game(program, game=Watched, seed=seed, options=options,
                        agents=seat_agents(program, seed), logging=True)
        assert leaks(game) == [], leaks(game)[:5]


def test_play_view_prints_only_what_a_seat_may_read(hands, tmp_path):
    log = tmp_path / "full.jsonl"
    r = cli("play", hands, "--seed", "3", "--log", log, "--view", "south")
    assert r.exit_code == 0, r.output
    full = [json.loads(line) for line in log.read_text().splitlines()]
    assert all("see" in e for e in full)
    north_only = [e["text"] for e in full if e["see"] == ["north"]]
    assert north_only
    for text in north_only:
        assert text not in r.output
    assert "north chooses a card (pass)" in r.output
    r = cli("play", hands, "--seed", "3", "--view", "public")
    assert r.exit_code == 0 and "north chooses a card (pass)" in r.output
    assert not any(t in r.output for t in north_only)
    r = cli("play", hands, "--seed", "3", "--view", "west")
    assert r.exit_code == 2 and "west" in r.output


def test_viewers_of_zones(hands):
    program, _ = load_program(hands)
    game = Game(program, seed=1, agents=[RandomAgent(1), RandomAgent(2)])
    assert viewers(game.z_table) is None
    assert viewers(game.z_deck) == set()
    assert viewers(game.n_north.u_hand) == {"north"}
    assert view_for(game, None)["sides"]["north"]["zones"]["hand"] == {"count": 0}
