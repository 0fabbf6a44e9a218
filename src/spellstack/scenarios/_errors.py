"""Scenario errors."""

from __future__ import annotations

from ..rules import SpellstackError

__all__ = ["ScenarioError", "ScenarioFailure", "ScenarioUnsupported"]


class ScenarioError(SpellstackError):
    """A scenario file is broken (not the engine's fault): names the file and the key."""


class ScenarioFailure(Exception):
    """An expectation did not hold, or the script could not be followed."""


class ScenarioUnsupported(ScenarioFailure):
    """The scenario needs something the engine does not have yet (a card, a key the format
    allows): an honest failure, named as such, not a crash."""

    def __init__(self, where: str, what: str) -> None:
        """``what``: what is missing, said in full (``'X' is a pool card not implemented
        yet``, ``not supported yet: the 'k' key``)."""
        super().__init__(f"{where}: {what}")
