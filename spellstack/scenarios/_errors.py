"""Scenario errors."""

from __future__ import annotations

from ..rules import SpellstackError

__all__ = ["ScenarioError", "ScenarioFailure"]


class ScenarioError(SpellstackError):
    """A scenario file is broken (not the engine's fault): names the file and the key."""


class ScenarioFailure(Exception):
    """An expectation did not hold, or the script could not be followed."""
