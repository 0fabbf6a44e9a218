"""The Bot API: one method that answers a decision given the player's view."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, runtime_checkable

from ..rules import Decision, PlayerView, Reply

__all__ = ["Bot"]


@runtime_checkable
class Bot(Protocol):
    """A player policy. ``decide`` may be a plain or an ``async`` method."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply | Awaitable[Reply]:
        """Answer ``decision`` (an Action for priority, an Answer otherwise), or return an
        awaitable of the answer."""
        ...
