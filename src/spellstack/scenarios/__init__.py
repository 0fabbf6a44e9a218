"""Scenario files (format 1): a game state, what each player does, what must hold after."""

from ._director import Director, ScriptedPolicy
from ._errors import ScenarioError, ScenarioFailure, ScenarioUnsupported
from ._runner import (
    EXPECTED_FAILURES,
    ScenarioResult,
    collect,
    load_expected_failures,
    read_expected_failures,
    run_scenario,
    run_scenario_file,
    summary,
)
from ._setup import build_game

__all__ = [
    "EXPECTED_FAILURES", "Director", "ScenarioError", "ScenarioFailure", "ScenarioResult",
    "ScenarioUnsupported", "ScriptedPolicy", "build_game", "collect", "load_expected_failures",
    "read_expected_failures", "run_scenario", "run_scenario_file", "summary",
]
