"""``MessageRate``: how many messages a client may send, so that a flood is told from play.

A token bucket on the event loop's clock: ``per_second`` messages a second, and as many at once
after a second of quiet. Each request a seat is sent adds one message more (``owe``), kept
apart from the bucket: an answer is always in order, however fast the game asks, and whatever
else a client sends (its settings, a resync, messages out of turn) draws from the bucket.
Over any stretch of ``t`` seconds a client sends at most ``requests + per_second * (t + 1)``
messages.
"""

from __future__ import annotations

import trio

__all__ = ["MessageRate"]


class MessageRate:
    """The messages one client may still send."""

    __slots__ = ("_at", "_owed", "_tokens", "per_second")

    def __init__(self, per_second: float) -> None:
        self.per_second = per_second
        """Messages a second, and the most at once."""
        self._tokens = per_second
        self._at: float | None = None
        """When the bucket was last filled up; None: not yet (it starts full)."""
        self._owed = 0
        """Answers owed: requests sent and not answered by a message yet."""

    def owe(self) -> None:
        """A request was sent: one message more is in order."""
        self._owed += 1

    def take(self) -> bool:
        """Count one message received; False if it is one too many (a flood)."""
        if self._owed:
            self._owed -= 1
            return True
        now = trio.current_time()
        if self._at is not None:
            self._tokens = min(self.per_second, self._tokens + (now - self._at) * self.per_second)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True
