"""Collect every scenario file below this folder as a test case (scenario format 1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spellstack.scenarios import EXPECTED_FAILURES, load_expected_failures, run_scenario_file


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix == ".toml" and file_path.name != EXPECTED_FAILURES:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioItem(pytest.Item):
    @property
    def obj(self) -> Any:
        """pytest-trio's trio_mode inspects every item's function; this one is synchronous
        (each scenario starts its own trio run)."""
        return self.runtest

    def runtest(self) -> None:
        # run_scenario_file decides: a crash of the runner or engine is an ERROR even for a
        # file listed in expected_failures.toml; only an honest failure is an xfail.
        expected = load_expected_failures(self.path.parent)
        result = run_scenario_file(self.path, expected)
        if result.status == "XFAIL":
            pytest.xfail(f"waits for: {result.waits}; fails: {result.message}")
        if not result.ok:
            raise ScenarioItemFailure("\n".join(filter(None, (result.line(), result.detail))))

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioItemFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario {self.path.name}"


class ScenarioItemFailure(Exception):
    """A scenario failed (its report line is the message)."""
