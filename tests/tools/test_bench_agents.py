"""tools/bench-agents: the strength benchmark runs, reports each line with
its interval and speed, writes its rows, and says when a goal is missed."""
from __future__ import annotations

import json
import subprocess
import sys

from helpers import ROOT

TOOL = ROOT / "tools" / "bench-agents"


def bench(*args, cwd=None):
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


def test_a_small_run_reports_the_rate_the_interval_and_the_speed(tmp_path):
    out = tmp_path / "rows.json"
    r = bench("race", "--games", "6", "--iterations", "40", "--json", str(out))
    assert r.returncode in (0, 1), r.stderr
    line = next(x for x in r.stdout.splitlines() if x.startswith("race"))
    assert "/6 =" in line and "it/s" in line and "s/decision" in line and "goal 70%" in line
    (row,) = json.loads(out.read_text())
    assert row["games"] == 6 and row["agent"] == "mcts:40" and 0 <= row["low"] <= row["rate"]
    assert row["met"] == (row["rate"] >= 0.70) and r.returncode == (0 if row["met"] else 1)


def test_an_unknown_suite_is_refused():
    r = bench("nosuch")
    assert r.returncode == 2 and "no suite 'nosuch'" in r.stderr
