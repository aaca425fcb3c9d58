"""Playing a seat yourself: `rulebook play --agents human,...` driven through
stdin, as a person at a terminal or a pipe would drive it."""
import json
from pathlib import Path

import pytest
from helpers import RULES, cli, cli_raising, rulebook_process

RACE = str(RULES / "tutorial_race")
CHICAGO = str(RULES / "chicago")


def play(*args, input=""):
    return cli_raising("play", *args, "--plain", input=input)


def test_a_person_answers_by_number_or_label_and_is_asked_again_on_bad_input():
    r = play(RACE, "--agents", "human,random", input="1\n?\nlog 3\nzzz\n9\nm\nmove:\n"
             "view\n2\n" + "1\n" * 40)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "red (round 2, race): move by which die?" in out
    assert "1. move 5  (move:5)" in out  # the option in words, then its label
    assert "commands:" in out and "save FILE" in out  # ?
    assert "no option zzz (a number 1 to 2" in out  # an unknown answer
    assert "no option 9: 1 to 2" in out  # a number out of range
    assert "m starts 2 options" in out and "move:  starts 2 options" not in out
    assert "you, Red: at " in out and "Blue: at " in out  # the view, by the seats' names
    assert "since your last decision:" in out and "blue chooses move:" in out
    assert "(winner)" in out  # the game played to its end
    assert "== round 1: race ==" not in out.split("(winner)")[-1]  # no designer's log after


def test_end_of_input_saves_the_game_and_exits_130(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if True:
        r = cli_raising("play", RACE, "--agents", "human,random", "--plain", input="1\n2\n")
        assert r.exit_code == 130, r.output
        assert "saved 5 choices to tutorial_race-seed0.save.json" in r.output
        saved = json.loads(Path("tutorial_race-seed0.save.json").read_text())
        assert [c[0] for c in saved["choices"]].count("red") == 2  # both answers kept
        # replayed, the same seat is asked the next question, and the game goes on
        r = cli_raising("play", RACE, "--replay", "tutorial_race-seed0.save.json",
                        "--agents", "human,random", "--plain", input="1\n" * 40)
        assert r.exit_code == 0, r.output
        assert r.output.count("move by which die?") >= 1 and "(winner)" in r.output
        # a second leaving does not overwrite the first save
        r = cli_raising("play", RACE, "--agents", "human,random", "--plain", input="")
        assert r.exit_code == 130 and Path("tutorial_race-seed0-2.save.json").exists()


def test_save_and_quit_are_commands(tmp_path):
    target = tmp_path / "mid.save.json"
    r = play(RACE, "--agents", "human,random", input=f"1\nsave {target}\nsave /no/such/x\n"
             "quit\nno\n")
    assert r.exit_code == 130, r.output
    assert f"saved 3 choices to {target}" in r.output and target.exists()
    assert "not saved: there is no folder /no/such" in r.output
    assert "left without saving" in r.output


def test_a_pipe_drives_it_and_eof_exits_cleanly(tmp_path):
    """A real pipe, a real process: no traceback, exit 130, the save made."""
    p = rulebook_process("play", RACE, "--agents", "random,human", "--seed", "3", "--plain",
                         input="2\n", cwd=tmp_path)
    assert p.returncode == 130, p.stderr
    assert "Traceback" not in p.stderr + p.stdout
    assert "blue (round" in p.stdout and (tmp_path / "tutorial_race-seed3.save.json").exists()


def test_hot_seat_clears_the_screen_between_seats():
    r = play(RACE, "--agents", "human,human", input="1\n" * 60)
    assert r.exit_code == 0, r.output
    assert "---- the screen is cleared for blue ----" in r.output
    assert "---- the screen is cleared for red ----" in r.output


def test_a_person_sees_only_what_their_seat_may(tmp_path):
    """Chicago deals secret cards: no text of a log line the boss may not read
    reaches its screen, and its view shows other hands as counts."""
    log = tmp_path / "log.jsonl"
    r = play(CHICAGO, "--option", "bosses=2", "--agents", "human,random,random",
             "--log", str(log), input="view\n" + "1\n" * 3000)  # view: the whole table
    assert r.exit_code == 0, r.output
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    secret = {e["text"] for e in entries if e.get("see", "all") != "all" and
              "boss1" not in e["see"]}
    readable = {e["text"] for e in entries if e.get("see", "all") == "all" or
                "boss1" in e["see"]}
    hidden = secret - readable
    assert hidden, "the game should have had secrets"
    for text in hidden:
        assert text not in r.output, text
    assert "street life (" in r.output and " hidden)" in r.output


def test_human_seats_are_for_play_only():
    r = cli("simulate", RACE, "--games", "2", "--agents", "human")
    assert r.exit_code == 2 and "a human seat plays only in `rulebook play`" in r.output
    r = play(RACE, "--agents", "human,random", "--json", input="1\n")
    assert r.exit_code == 2 and "human seat needs the screen" in r.output


def test_a_person_sees_the_rulesets_summary_not_the_whole_board():
    """Chicago declares a `summary` (cash, people, businesses, Marks): a person
    reads it before each decision, made aside, so the log and the game are
    those of the same game played without a person."""
    r = play(CHICAGO, "--option", "bosses=2", "--seed", "1", "--agents", "human,random,random",
             "--log", "/dev/null", input="2\n" * 60)
    assert r.exit_code == 0, r.output
    first = r.output.split("boss1 (round 1, round)")[0]
    assert "  boss1: $12000; people 50, businesses 0, Empire Marks 0" in first
    assert "board: " not in first  # the full board only on `view`
    looked = play(CHICAGO, "--option", "bosses=2", "--seed", "1", "--agents",
                  "human,random,random", input="view\n" + "2\n" * 60)
    shown = looked.output.split("> view")[1].split("> ")[0]
    assert "  boss1: $12000; people 50" in shown and "you, Boss 1: at " in shown
    assert "$1,000 notes" in shown and "note1000" not in shown  # pieces by their names
    alone = play(CHICAGO, "--option", "bosses=2", "--seed", "1", "--agents",
                 "first,random,random", "--quiet")
    assert alone.exit_code == 0


@pytest.mark.parametrize("ruleset,seat", [("examples/tricks", "north"), ("chicago", "boss1")])
def test_the_screen_holds_every_line_the_seat_may_read_in_order(tmp_path, ruleset, seat):
    """A 4-seat game with hidden hands, one seat played through stdin: every
    line of that seat's `--view` log reaches its screen, in order (none cut
    after many lines, none lost around forced picks, the end included), and
    the end names the winner."""
    save = tmp_path / "game.json"
    path = str(RULES / ruleset)
    r = play(path, "--players", "4", "--seed", "5", "--agents", "human", "--save", str(save),
             input="1\n" * 5000)
    assert r.exit_code == 0, r.output[-3000:]
    assert "played by random agents" in r.output  # the other seats, said so
    view = cli_raising("play", path, "--replay", save, "--view", seat, "--format", "jsonl")
    assert view.exit_code == 0, view.output
    expected = [json.loads(line)["text"] for line in view.stdout.splitlines()]
    assert len(expected) > 60  # more than a screenful between some decisions
    screen = [line.strip() for line in r.output.splitlines()]
    at = 0
    for line in screen:
        if at < len(expected) and line == expected[at].strip():
            at += 1
    assert at == len(expected), f"missing from the screen: {expected[at]!r}"
    assert expected[-1].startswith("game over:") and "(winner)" in r.output


def test_a_person_answers_a_choose_some_by_the_groups_numbers(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # (input ending early saves the game here)
    hands = str(RULES / "examples" / "hidden_hands")
    r = play(hands, "--agents", "human,random,random", input="9\n1 1\n1 2\n" + "1\n" * 40)
    out = r.output
    assert "    1. star-1" in out and "or by numbers (1 3)" in out
    assert "no group 9: 1 to 5" in out  # a number no group has
    assert "only 1 'star-1' on offer, not 2" in out  # a number twice is two of it
    assert "ann chooses star-1 + leaf-4 (pass_cards)" in out  # 1 2: the first two listed


def test_a_person_types_a_number_for_a_number_entry(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # (input ending early saves the game here)
    auction = str(RULES / "examples" / "auction")
    r = play(auction, "--players", "3", "--seed", "2", "--agents", "human,random,random",
             input="abc\n99\n07\n7\n" + "pass\n" * 60)
    assert r.exit_code == 0, r.output
    out = r.output
    assert "enter a number from 1 to 15, or pass" in out  # no menu of fifteen lines
    assert "  15. " not in out
    assert "not a number on offer: abc" in out and "not a number on offer: 99" in out
    assert "not a number on offer: 07" in out  # a number is written as its label
    assert "ann chooses 7 (bid)" in out
