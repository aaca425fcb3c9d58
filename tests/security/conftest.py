"""Fixtures only the security tests use (the shared ones are in
tests/conftest.py)."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import copy_ruleset


@pytest.fixture
def race(tmp_path) -> Path:
    """A fresh copy of rules/tutorial_race, without its scenarios."""
    return copy_ruleset("tutorial_race", tmp_path / "race", "scenarios", "__pycache__")
