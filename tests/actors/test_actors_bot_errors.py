"""A bot's own failure forfeits its own game at once, whatever its exception's text does.

Each kind of failure below ended the game as an engine error (an exception whose ``__str__``
raises, one whose message is too long for the ``Forfeit`` to be encoded, one whose text
can't be encoded at all, a reply or an exception whose ``__repr__`` raises), or forfeited
only after the seat's whole time limit, with "no answer" for its reason (a 100 KB message).
The reason the player actor sends is cut to ``REASON_LIMIT`` characters and always encodes.
"""

from __future__ import annotations

from typing import Any

import pytest
import trio

from spellstack.actors import ENGINE_ERROR, REASON_LIMIT, GameResult, SeatConfig, play_one_game
from spellstack.bots import RandomBot
from spellstack.protocol import Message
from spellstack.rules import Decision, PlayerView, Reply

TIMEOUT = 30.0


class StrRaises(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text for you")


class ReprRaises(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")

    def __repr__(self) -> str:
        raise RuntimeError("no repr either")


class NameRaises(type):
    @property
    def __name__(cls) -> str:  # type: ignore[override]
        raise RuntimeError("nameless")


class Nameless(Exception, metaclass=NameRaises):
    pass


class BadRepr:
    """Not a reply, and its repr raises."""

    def __repr__(self) -> str:
        raise RuntimeError("unrepresentable")


class Sly(str):
    """A message text whose slicing raises."""

    def __getitem__(self, key: Any) -> str:
        raise RuntimeError("no slices")


class Failing:
    """A RandomBot that fails, as ``how`` says, at its ``at``-th decision (or notification)."""

    def __init__(self, how: str, at: int = 5) -> None:
        self.inner = RandomBot(1)
        self.how = how
        self.at = at
        self.calls = 0

    def notify(self, msg: Message) -> None:
        if self.how == "notify_repr" and self.calls >= self.at:
            raise ReprRaises()

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.calls += 1
        if self.calls < self.at or self.how == "notify_repr":
            return self.inner.decide(view, decision)
        if self.how == "plain":
            raise ValueError("boom")
        if self.how == "str_raises":
            raise StrRaises()
        if self.how == "repr_raises":
            raise ReprRaises()
        if self.how == "name_raises":
            raise Nameless("who am I")
        if self.how == "huge":
            raise ValueError("x" * (1 << 20))
        if self.how == "large":
            raise ValueError("y" * 100_000)
        if self.how == "surrogate":
            raise ValueError("half a pair: \ud800")
        if self.how == "sly_text":
            raise ValueError(Sly("z" * 500))
        if self.how == "reply_repr":
            return BadRepr()  # type: ignore[return-value]
        raise AssertionError(self.how)


async def _play(bot: Failing) -> GameResult:
    configs = [SeatConfig(timeout=TIMEOUT)] * 2
    _, result = await play_one_game(["gruul", "orzhov"], [bot, RandomBot(2)], 3,
                                    names=["alice", "bob"], configs=configs)
    return result


@pytest.mark.parametrize(("how", "starts"), [
    ("plain", "policy raised ValueError: boom"),
    ("str_raises", "policy raised StrRaises: StrRaises()"),
    ("repr_raises", "policy raised ReprRaises: <its message can't be shown>"),
    ("name_raises", "policy raised exception: who am I"),
    ("huge", "policy raised ValueError: xxxx"),
    ("large", "policy raised ValueError: yyyy"),
    ("surrogate", "policy raised ValueError: half a pair: ?"),
    ("sly_text", "policy raised ValueError: zzzz"),
    ("reply_repr", "policy answered a "),
    ("notify_repr", "policy's notify raised ReprRaises: <its message can't be shown>"),
])
async def test_a_failing_bot_forfeits_at_once_with_a_bounded_reason(
        how: str, starts: str, autojump_clock: Any) -> None:
    start = trio.current_time()
    result = await _play(Failing(how))
    assert not result.reason.startswith(ENGINE_ERROR), result.reason
    assert len(result.forfeits) == 1, result.forfeits
    who, reason = result.forfeits[0]
    assert who == "alice"
    assert reason.startswith(starts), reason
    assert len(reason) <= REASON_LIMIT
    assert result.winner == "bob"
    assert trio.current_time() - start < TIMEOUT  # at once, not at the deadline
