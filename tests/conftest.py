"""Shared by every test folder. pytest puts this folder on the import path
for this conftest, so a test in any folder imports tests/helpers.py (the
repository's paths, `rulebook` run in-process, ruleset folders, programs,
games, small games as text, diagnostics) as `helpers`. The fixtures here
are the rulesets tests in more than one folder start from; a folder's own
conftest.py holds those only its tests use."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import HANDS_FILES, copy_ruleset, race_with_rules, write_files


@pytest.fixture
def ruleset_copy(tmp_path):
    """A factory of fresh copies of shipped rulesets:
    ruleset_copy(name, *leave_out, to=name) copies rules/NAME to tmp_path/to,
    without the entries matching the patterns in leave_out: that folder."""
    def copy(name: str, *leave_out: str, to: str | None = None) -> Path:
        return copy_ruleset(name, tmp_path / (to or name), *leave_out)
    return copy


@pytest.fixture
def rs(tmp_path) -> Path:
    """A fresh copy of rules/smile_and_gun, without its scenarios and variants."""
    return copy_ruleset("smile_and_gun", tmp_path / "rs", "scenarios", "variants", "__pycache__")


@pytest.fixture
def make_ruleset(tmp_path):
    """A factory of small two-seat games with rules of a test's own:
    make_ruleset(rules, game_extra="", game_edits=None, files=None,
    folder=tmp_path / "game") is helpers.race_with_rules — the tutorial
    race's YAML files, `rules` as its only rule file."""
    def make(rules: str, game_extra: str = "", *, folder: Path | None = None, **kw) -> Path:
        return race_with_rules(folder or tmp_path / "game", rules, game_extra, **kw)
    return make


@pytest.fixture
def hands(tmp_path) -> Path:
    """The hands game (helpers.HANDS_FILES) in a fresh folder: hidden deck,
    owner-only hands and dice, a face-down pile."""
    return write_files(tmp_path / "hands", HANDS_FILES)
