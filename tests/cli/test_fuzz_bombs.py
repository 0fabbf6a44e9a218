"""The fuzz's object-count bombs: every one is refused for a limit without changing the state,
a seat alternating them with refused actions ends in the forfeit the protocol calls for, and
coordinators broken the two ways the bombs attack are reported."""

from __future__ import annotations

import pytest

from spellstack.actors import Coordinator, SeatChannel
from spellstack.harness import BOMB_CYCLE_EVERY, RAW_KINDS, fuzz
from spellstack.harness._hostile import NO_DELTA
from spellstack.harness._hostile_bombs import BOMB_SHAPES, object_bomb
from spellstack.protocol import (
    MAX_MESSAGE_BYTES,
    MAX_PLAYER_MESSAGE_BYTES,
    DecisionRequest,
    PriorityRequest,
    SubmitAction,
    SubmitAnswer,
    decode,
    decode_from_player,
)
from spellstack.rules import Action, Answer, Decision, GameRandom, InvalidMessageError

BOMB_GAME = BOMB_CYCLE_EVERY - 1
"""The first game of a run whose hostile seat leaves by a bomb cycle."""


def test_every_bomb_shape_is_refused_for_a_limit() -> None:
    assert "object_bomb" in RAW_KINDS
    rng = GameRandom.from_seed(4)
    priority = PriorityRequest(Decision(5, 0, "priority", "p"), NO_DELTA)
    choose = DecisionRequest(Decision(6, 0, "choose", "c"), NO_DELTA)
    shapes: set[int] = set()
    for i in range(200):
        request, legal = ((priority, SubmitAction(5, Action("pass"))) if i % 2 else
                          (choose, SubmitAnswer(Answer(6, (0,)))))
        data = object_bomb(rng, request, legal)
        assert len(data) <= MAX_MESSAGE_BYTES
        with pytest.raises(InvalidMessageError, match=r"over the limit of|objects, the limit"):
            decode_from_player(data)
        shapes.add(len(data) > MAX_PLAYER_MESSAGE_BYTES)
    assert shapes == {True, False}  # past the byte cap, and within it past the object cap
    assert len(BOMB_SHAPES) == 7


async def test_a_bomb_cycle_ends_in_the_forfeit_the_protocol_calls_for() -> None:
    report = await fuzz(1, 0, game=BOMB_GAME)
    assert report.failure_count == 0, report.failures
    assert report.forfeits == {"bomb cycle": 1}
    assert report.kinds["bomb_cycle"].sent == report.kinds["bomb_cycle"].error == 3
    assert report.kinds["object_bomb"].error == report.kinds["object_bomb"].sent
    assert report.bombs_refused == report.kinds["bomb_cycle"].sent + report.kinds["object_bomb"].sent


class ForgivingChannel(SeatChannel):
    """Forgets a seat's malformed messages when its action is refused, as the coordinator
    once did: bombs alternating with refused actions never forfeit."""

    async def refuse(self, decision: Decision, error: Exception, *, action: bool) -> None:
        if action:
            self._strikes = 0
        await super().refuse(decision, error, action=action)


class ForgivingCoordinator(Coordinator):
    channel_class = ForgivingChannel


async def test_a_coordinator_that_forgets_strikes_on_a_refusal_is_caught() -> None:
    report = await fuzz(1, 0, game=BOMB_GAME, coordinator=ForgivingCoordinator)
    assert any(f.what == "the protocol calls for a forfeit (strikes) but the seat is still in "
               "the game" and f.kind == "bomb_cycle" for f in report.failures), report.failures


async def test_a_coordinator_that_decodes_player_bytes_without_the_player_caps_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("spellstack.actors._seat_channel.decode_from_player", decode)
    report = await fuzz(1, 0, game=BOMB_GAME)
    bombs = [f for f in report.failures if f.kind in ("object_bomb", "bomb_cycle")]
    assert bombs, report.failures
    assert all(f.what.startswith("an object-count bomb got ")
               and f.what.endswith(", not an ErrorReply naming a limit") for f in bombs)
    assert any("got ErrorReply: invalid SubmitAction message: expected map" in f.what
               for f in bombs)
