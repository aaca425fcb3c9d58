"""The README's commands: its Quickstart and each line of its "Next"
section work as written (from the repository root, in a scratch folder for
the files they write)."""
import re
import shlex
import shutil

import pytest
from helpers import ROOT, cli_raising

README = (ROOT / "README.md").read_text()


def section(title):
    text = README.split(f"## {title}\n", 1)[1]
    return text.split("\n## ", 1)[0]


def commands(title):
    return [m.group(1) for m in re.finditer(r"^    (\S.*)$", section(title), re.M)]


def test_the_quickstart_has_two_commands_install_then_play_or_test():
    quick = commands("Quickstart")
    assert len(quick) == 2
    play, tests = quick
    assert play.startswith("python3 -m pip install") and "rulebook play " in play
    assert tests.startswith("python3 -m pip install") and tests.endswith("&& pytest")


NEXT = commands("Next")


@pytest.mark.parametrize("line", NEXT)
def test_each_next_step_works(line, tmp_path, monkeypatch):
    shutil.copytree(ROOT / "rules", tmp_path / "rules")  # files they write stay here
    monkeypatch.chdir(tmp_path)
    for command in line.split(" && "):
        words = shlex.split(command)
        assert words[0] == "rulebook"
        stdin = "1\n" * 400 if "human" in words else None
        r = cli_raising(*words[1:], input=stdin)
        assert r.exit_code == 0, f"{command}\n{r.output[-2000:]}"
        for i, w in enumerate(words):
            if w == "-o":
                page = (tmp_path / words[i + 1]).read_text()
                assert page.startswith("<!DOCTYPE html>")
        if words[1] == "new":
            assert (tmp_path / words[2] / "game.yaml").exists()


def test_next_names_every_tool_a_newcomer_needs():
    text = " ".join(NEXT)
    for tool in ("--agents human", "rulebook lint", "rulebook docs", "rulebook coverage",
                 "rulebook report", "rulebook new"):
        assert tool in text, tool
