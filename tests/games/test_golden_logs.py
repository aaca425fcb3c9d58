"""Golden logs: one seeded game of each shipped ruleset, as the designer
reads it, checked in under tests/golden/ and reviewed for readability. A
change to how the log reads shows here as a diff to review; regenerate the
files with `REGOLD=1 pytest tests/games/test_golden_logs.py` and read the diff
before committing it."""
import json
import os

import pytest
from helpers import GOLDEN, ROOT, cli_raising

GAMES = {  # golden file -> the `rulebook play` arguments that make it
    "smile_and_gun": ["smile_and_gun", "--seed", "1"],
    "smile_and_gun-solo": ["smile_and_gun", "--variant", "solo", "--seed", "1"],
    "chicago": ["chicago", "--option", "bosses=2", "--seed", "1"],
    "moonshine_kingdom": ["moonshine_kingdom", "--seed", "1"],
    "scarface_1920": ["scarface_1920", "--seed", "1"],
    "scarface_1920-solo": ["scarface_1920", "--variant", "solo", "--seed", "1"],
    "tutorial_race": ["tutorial_race", "--seed", "1"],
}


def designer_log(entries) -> str:
    """The log as `rulebook play` prints it, one entry a line, unwrapped."""
    out = []
    for e in entries:
        text = e["text"]
        if text.startswith("=="):
            out.append(text)
            continue
        see = e.get("see", "all")
        out.append("  " + text + ("" if see == "all" else f"  [seen by {', '.join(see) or 'nobody'}]"))
    return "\n".join(out) + "\n"


def played(name) -> list:
    """The log of `rulebook play rules/ARGS`, as its JSON lines give it."""
    ruleset, *args = GAMES[name]
    r = cli_raising("play", ROOT / "rules" / ruleset, *args, "--format", "jsonl")
    assert r.exit_code == 0, r.output
    return [json.loads(line) for line in r.output.splitlines()]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_log_of_a_seeded_game_reads_as_reviewed(name):
    text = designer_log(played(name))
    path = GOLDEN / f"{name}.log"
    if os.environ.get("REGOLD"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"no golden log {path.name}: run with REGOLD=1 and review it"
    assert text == path.read_text(), f"the log of {name} changed: review the diff " \
        "(REGOLD=1 rewrites the golden file)"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_logs_name_things_in_words(name):
    """No raw arrows or pluralised plurals; each line says something."""
    text = (GOLDEN / f"{name}.log").read_text()
    for bad in (" -> ", "cubess", " 1 cubes", ": nowhere", "nowhere ->"):
        assert bad not in text, (name, bad)
    assert all(line.strip() for line in text.splitlines())
