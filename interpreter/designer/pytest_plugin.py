"""pytest plugin: every `*.scenario.yaml` file is collected as one test item.

A failure shows the scenario file and line, with expected against actual."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterator

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import ExceptionInfo, TerminalRepr, TracebackStyle

from ..support.diagnostics import render


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> ScenarioFile | None:
    if file_path.name.endswith(".scenario.yaml"):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[ScenarioItem]:
        yield ScenarioItem.from_parent(self, name=self.path.name[: -len(".scenario.yaml")])


class ScenarioFailed(Exception):
    pass


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        from .scenario import log_tail, run_scenario_file

        result = run_scenario_file(self.path)
        if not result.ok:
            tail = log_tail(result.game)
            raise ScenarioFailed(render(result.diagnostics) +
                                 (f"\n\nthe log up to the failure:\n{tail}" if tail else ""))
        if result.checks == 0:
            raise ScenarioFailed(f"{self.path}: a scenario must check at least one expectation")

    def repr_failure(self, excinfo: ExceptionInfo[BaseException],
                     style: TracebackStyle | None = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario: {self.name}"
