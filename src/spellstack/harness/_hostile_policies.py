"""Hostile policies: bots that fail in the ways a bot's own code can, played by a real player
actor (``POLICY_KINDS``).

A bot's failure is its own: whatever its exception's text does (a ``__str__`` or ``__repr__``
that raises, a message of a megabyte, text that can't be encoded), it forfeits its own game at
once with a bounded reason, and the game ends normally. A bot whose synchronous ``decide``
blocks the thread is held to its deadline by its own time: over it, it forfeits; under it,
never.
"""

from __future__ import annotations

import time
from typing import Any

from ..bots import RandomBot
from ..protocol import Message
from ..rules import Decision, GameRandom, PlayerView, Reply

__all__ = ["POLICY_KINDS", "BlockingBot", "RaisingBot", "block_plan", "expected_reason",
           "policy_kind"]

POLICY_KINDS: tuple[str, ...] = (
    "raise_str", "raise_repr", "raise_huge", "raise_large", "raise_name", "raise_text",
    "reply_repr", "notify_repr", "block",
)
"""The hostile policies (``policy_kind`` gives each game's): an exception whose ``__str__`` raises, whose
``__str__`` and ``__repr__`` raise, with a 1 MiB message, a 100 KB one, whose class's name
raises, whose text can't be encoded (a lone surrogate); a reply that is not one and whose
``__repr__`` raises; a ``notify`` raising an exception whose ``__repr__`` raises; a
synchronous ``decide`` that blocks the thread."""

_PREFIX = {
    "raise_str": "policy raised HostileStr: ",
    "raise_repr": "policy raised HostileRepr: ",
    "raise_huge": "policy raised ValueError: xxx",
    "raise_large": "policy raised ValueError: yyy",
    "raise_name": "policy raised exception: ",
    "raise_text": "policy raised ValueError: ",
    "reply_repr": "policy answered a ",
    "notify_repr": "policy's notify raised HostileRepr: ",
    "block": "answered after ",
}


def policy_kind(game_no: int) -> str:
    """The hostile policy of policy game ``game_no``: ``block`` in every other game, the others
    in turn between them."""
    if game_no % 2:
        return "block"
    return POLICY_KINDS[(game_no // 2) % (len(POLICY_KINDS) - 1)]


def expected_reason(kind: str) -> str:
    """How the forfeit reason of a ``kind`` policy starts."""
    return _PREFIX[kind]


class HostileStr(Exception):
    """An exception whose ``__str__`` raises."""

    def __str__(self) -> str:
        raise RuntimeError("an exception's text that raises")


class HostileRepr(Exception):
    """An exception whose ``__str__`` and ``__repr__`` raise."""

    def __str__(self) -> str:
        raise RuntimeError("an exception's text that raises")

    def __repr__(self) -> str:
        raise RuntimeError("an exception's repr that raises")


class _NameRaises(type):
    @property
    def __name__(cls) -> str:  # type: ignore[override]
        raise RuntimeError("a class name that raises")


class Nameless(Exception, metaclass=_NameRaises):
    """An exception whose class's ``__name__`` raises."""


class NotAReply:
    """A reply of no reply type, whose ``__repr__`` raises."""

    def __repr__(self) -> str:
        raise RuntimeError("a reply's repr that raises")


class RaisingBot:
    """A RandomBot that fails, as ``kind`` says, at a seeded decision (its first to its 12th).
    ``failed``: whether it has."""

    def __init__(self, kind: str, seed: int) -> None:
        rng = GameRandom.from_seed(seed)
        self.inner = RandomBot(seed ^ 0x7E57)
        self.kind = kind
        self.at = 1 + rng.below(12)
        self.calls = 0
        self.failed = False

    def notify(self, msg: Message) -> None:
        """Raise when it is time (``notify_repr``)."""
        if self.kind == "notify_repr" and self.calls >= self.at:
            self.failed = True
            raise HostileRepr()

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """The random bot's reply, until it is time to fail."""
        self.calls += 1
        if self.calls < self.at or self.kind == "notify_repr":
            return self.inner.decide(view, decision)
        self.failed = True
        kind = self.kind
        if kind == "raise_str":
            raise HostileStr()
        if kind == "raise_repr":
            raise HostileRepr()
        if kind == "raise_huge":
            raise ValueError("x" * (1 << 20))
        if kind == "raise_large":
            raise ValueError("y" * 100_000)
        if kind == "raise_name":
            raise Nameless("an exception of no name")
        if kind == "raise_text":
            raise ValueError("half a surrogate pair: \ud800")
        if kind == "reply_repr":
            bad: Any = NotAReply()
            return bad  # type: ignore[no-any-return]
        raise ValueError(f"no such hostile policy: {kind}")


def block_plan(cap: float) -> tuple[float, float, float]:
    """For blocks of at most ``cap`` seconds: the blocking seat's deadline, the longest small
    block (well under the deadline: never a forfeit) and the shortest big one (well over it:
    always a forfeit)."""
    deadline = cap / 2
    return deadline, deadline / 4, deadline * 1.5


class BlockingBot:
    """A RandomBot whose synchronous ``decide`` blocks the thread (``time.sleep``): now and then
    for a short time, well within its deadline, and in about half its games once for longer
    than its deadline, at a seeded decision. ``big``: whether that long block happened;
    ``blocked``: seconds blocked in all."""

    def __init__(self, seed: int, cap: float) -> None:
        self.rng = GameRandom.from_seed(seed)
        self.inner = RandomBot(seed ^ 0xB10C)
        self.deadline, self.small, self.long = block_plan(cap)
        self.cap = cap
        self.big_at = 1 + self.rng.below(30) if self.rng.below(2) else 0
        self.calls = 0
        self.big = False
        self.blocked = 0.0

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """Block (or not), then the random bot's reply."""
        self.calls += 1
        rng = self.rng
        wait = 0.0
        if self.calls == self.big_at:
            wait = self.long + (self.cap - self.long) * rng.below(1001) / 1000
            self.big = True
        elif rng.below(100) < 10:
            wait = self.small * rng.below(1001) / 1000
        if wait:
            self.blocked += wait
            time.sleep(wait)  # blocks the event loop: the attack
        return self.inner.decide(view, decision)
