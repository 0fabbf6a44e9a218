"""The Bot API: one method that answers a decision given the player's view."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, runtime_checkable

from ..rules import Decision, PlayerView, Reply

__all__ = ["Bot"]


@runtime_checkable
class Bot(Protocol):
    """A player policy. ``decide`` may be a plain or an ``async`` method.

    Optional: a ``stops`` attribute (a ``protocol.Stops``), the steps in which the policy wants
    priority even when it could act; the player actor declares it with its first reply and
    the engine passes for it elsewhere (``docs/protocol.md``). A ``views_at_priority``
    attribute set to False says that its ``decide`` reads nothing of the view for a priority
    decision but the fields it was last sent: its seat's priority requests then carry no view
    (nothing is built, sent or rebuilt) and it is given the last view it was sent, with the
    request's clock. A ``notify(msg)`` method is given the coordinator's notifications
    (Accepted, Rejected, ErrorReply, StopsSet)."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply | Awaitable[Reply]:
        """Answer ``decision`` (an Action for priority, an Answer otherwise), or return an
        awaitable of the answer."""
        ...
