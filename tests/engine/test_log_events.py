"""The JSON-lines log carries every event as data beside its words
(schemas/log.schema.json), under the same secrecy: a reader who may not see
a component gets its kind and count, never its id."""
import json

import pytest
from helpers import ROOT, RULES, cli_raising
from jsonschema import Draft202012Validator

SCHEMA = Draft202012Validator(json.loads((ROOT / "schemas" / "log.schema.json").read_text()))

GAMES = {
    "tutorial_race": ["tutorial_race"],
    "hidden_hands": ["examples/hidden_hands"],
    "chicago": ["chicago", "--option", "bosses=2"],
    "smile_and_gun": ["smile_and_gun"],
    "moonshine_kingdom": ["moonshine_kingdom"],
    "scarface_1920": ["scarface_1920"],
    "scarface_1920-solo": ["scarface_1920", "--variant", "solo"],
}


def lines(args, *more) -> list:
    ruleset, *rest = args
    r = cli_raising("play", RULES / ruleset, *rest, "--seed", "2", "--format", "jsonl", *more)
    assert r.exit_code == 0, r.output
    return [json.loads(line) for line in r.output.splitlines()]


def ids_in(node) -> set:
    """Every component id an event names (items, moves, dice, places)."""
    out = set()
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("id", "component"):
                out.add(v)
            else:
                out |= ids_in(v)
    elif isinstance(node, list):
        for v in node:
            out |= ids_in(v)
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_line_is_an_event_the_schema_describes(name):
    designer = lines(GAMES[name])
    assert designer
    for e in designer:
        assert list(SCHEMA.iter_errors(e)) == [], e
    kinds = {e["event"]["kind"] for e in designer}
    assert {"phase", "decision", "end"} <= kinds
    end = designer[-1]["event"]
    assert end["kind"] == "end" and isinstance(end["winners"], list)


@pytest.mark.parametrize("name", ["hidden_hands", "chicago", "scarface_1920"])
def test_a_seat_reads_secret_events_as_kinds_and_counts(name):
    designer = lines(GAMES[name])
    seats = sorted(designer[-1]["event"]["scores"])  # every player
    secret = [e for e in designer if e["see"] != "all" and "others" in e]
    assert secret and seats, "the game should have had secrets"
    for seat in seats:
        view = lines(GAMES[name], "--view", seat)
        for e in view:
            assert list(SCHEMA.iter_errors(e)) == [], e
            assert "others" not in e or e["see"] != "all"
        # the lines this seat reads in other words carry the others' data: no ids
        mine = {json.dumps(e, sort_keys=True) for e in view}
        for e in secret:
            if seat in e["see"]:
                assert json.dumps(e, sort_keys=True) in mine  # its own secrets, whole
                continue
            told = [v for v in view if v["text"] == e["others"] and v["round"] == e["round"]]
            assert told, e["others"]
            assert all(ids_in(v["event"]) == set() or v["event"] == e["event"] for v in told)
            assert all("choice" not in v["event"] for v in told
                       if v["event"]["kind"] == "decision" and "choice" not in e["others"])


def test_the_data_tells_what_the_words_tell():
    """A roll's faces, a draw's cards, a move's zones, a decision's label."""
    designer = lines(GAMES["hidden_hands"])
    draw = next(e for e in designer if e["event"]["kind"] == "draw")
    ev = draw["event"]
    assert ev["player"] == draw["see"][0] and ev["from"] == "deck"
    assert ev["to"] == f"{ev['player']}.hand" and ev["count"] == 5
    assert [i["id"] for i in ev["items"]] == [w.strip() for w in draw["text"].split(
        " draws ")[1].split(" from ")[0].replace(" and ", ", ").split(",")]
    assert draw["others_event"]["items"] == [{"kind": "card", "count": 5}]
    pick = next(e for e in designer if e["event"]["kind"] == "decision"
                and e["decision"] == "play")
    assert pick["event"]["choice"] == pick["choice"]
    assert pick["others_event"] == {"kind": "decision", "player": pick["player"],
                                    "decision": "play", "items": [{"kind": "card", "count": 1}]}
    race = lines(GAMES["tutorial_race"])
    roll = next(e for e in race if e["event"]["kind"] == "roll")
    faces = [d["value"] for d in roll["event"]["dice"]]
    assert roll["text"] == f"{roll['event']['player']} rolls {faces[0]} and {faces[1]}"


def test_the_log_file_and_the_printed_lines_carry_the_same_events(tmp_path):
    log = tmp_path / "game.jsonl"
    r = cli_raising("play", RULES / "tutorial_race", "--seed", "2", "--quiet", "--log", log)
    assert r.exit_code == 0, r.output
    written = [json.loads(line) for line in log.read_text().splitlines()]
    assert written == lines(GAMES["tutorial_race"])
