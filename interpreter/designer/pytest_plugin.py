"""pytest plugin: every `*.scenario.yaml` file is collected as one test item.

A failure shows the scenario file and line, with expected against actual."""
from __future__ import annotations

import pytest

from ..support.diagnostics import render


def pytest_collect_file(parent, file_path):
    if file_path.name.endswith(".scenario.yaml"):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.name[: -len(".scenario.yaml")])


class ScenarioFailed(Exception):
    pass


class ScenarioItem(pytest.Item):
    def runtest(self):
        from .scenario import log_tail, run_scenario_file

        result = run_scenario_file(self.path)
        if not result.ok:
            tail = log_tail(result.game)
            raise ScenarioFailed(render(result.diagnostics) +
                                 (f"\n\nthe log up to the failure:\n{tail}" if tail else ""))
        if result.checks == 0:
            raise ScenarioFailed(f"{self.path}: a scenario must check at least one expectation")

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario: {self.name}"
