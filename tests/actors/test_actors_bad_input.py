"""A hostile client on one seat, talking raw bytes to a real Coordinator over real Links.

design.md: "Decoding untrusted bytes ... answers a malformed or illegal message with a clear
error message, never an exception that kills the game, and never a change of state", and
"Bad input of every kind (malformed bytes, wrong types, illegal actions, ...) gets a clear
error and loses nothing."

The test plays alice (seat 0, who moves first, with auto-pass off so that she is asked at her
first upkeep); bob is a RandomBot behind a real player actor. After the hostile part, alice's
end of the link is handed to a player actor with a RandomBot and the game is played out.
"""

from __future__ import annotations

import math
from typing import Any

import msgpack  # type: ignore[import-untyped]  # ships no type information
import pytest
import trio

from spellstack.actors import (
    MAX_REJECTIONS,
    MAX_STRIKES,
    GameResult,
)
from spellstack.protocol import (
    PROTOCOL_VERSION,
    Accepted,
    ErrorReply,
    Forfeit,
    PriorityRequest,
    Rejected,
    SubmitAction,
    SubmitAnswer,
)
from spellstack.rules import Action, Answer
from tests.actors.hostile_table import HOSTILE, NAMES, Table, run_table


def _raw(kind: Any, body: Any, version: Any = PROTOCOL_VERSION) -> bytes:
    data: bytes = msgpack.packb({"k": kind, "v": version, "b": body}, use_bin_type=True)
    return data


def _assert_finished_normally(result: GameResult) -> None:
    assert result.forfeits == []
    assert result.winner in NAMES
    assert "forfeit" not in result.reason
    assert 1 <= result.turns < 200


# --------------------------------------------------------------------------- the first request


async def test_the_hostile_seat_is_asked_first_in_the_upkeep() -> None:
    async def body(t: Table) -> None:
        req = await t.request()
        assert isinstance(req, PriorityRequest)
        assert req.decision.player == HOSTILE
        assert req.view.seat == HOSTILE
        assert req.view.step == "upkeep"
        assert [a.kind for a in req.decision.actions] == ["pass"]
        await t.send(SubmitAction(req.decision.id, Action("pass")))
        assert await t.receive() == Accepted(req.decision.id)
        _assert_finished_normally(await t.finish_with_bot())

    await run_table(body)


# --------------------------------------------------------------------------- malformed messages

MALFORMED = [
    pytest.param(b"\xc1", "0xc1", id="reserved-byte"),
    pytest.param(b"", "empty", id="empty"),
    pytest.param(b"\x93\x01", "truncated", id="truncated"),
    pytest.param(b"\x81\xa1k\xa3Acc\x00", "trailing bytes", id="trailing-bytes"),
    pytest.param(msgpack.packb([1, 2, 3]), "expected a map", id="not-a-map"),
    pytest.param(msgpack.packb({"kind": "SubmitAction"}), "envelope", id="bad-envelope"),
    pytest.param(_raw("CastFireball", {}), "unknown kind 'CastFireball'", id="unknown-kind"),
    pytest.param(_raw(42, {}), "kind must be a str", id="kind-not-a-string"),
    pytest.param(_raw("SubmitAction", {"decision_id": 1, "action": {"kind": "pass"}}, 99),
                 "unsupported protocol version 99", id="wrong-version"),
    pytest.param(_raw("SubmitAction", {"decision_id": "one", "action": {"kind": "pass"}}),
                 "decision_id: expected int, got str 'one'", id="id-is-a-string"),
    pytest.param(_raw("SubmitAction", {"decision_id": 1,
                                       "action": {"kind": "cast", "targets": "all"}}),
                 "action.targets", id="targets-is-a-string"),
    pytest.param(_raw("SubmitAction", {"decision_id": 1, "action": {"kind": "pass",
                                                                    "object_id": True}}),
                 "action.object_id: expected int, got bool", id="bool-for-int"),
    pytest.param(_raw("SubmitAction", {"decision_id": 1}), "action: missing required field",
                 id="missing-field"),
    pytest.param(_raw("SubmitAction", {"decision_id": 1, "action": {"kind": "pass"},
                                       "cheat": 1}), "unknown field 'cheat'", id="extra-field"),
    pytest.param(msgpack.packb({"k": "SubmitAction", "v": 1, "b": b"\x00" * 8},
                               use_bin_type=True), "binary data not allowed", id="binary"),
    pytest.param(b"\xdd\xff\xff\xff\xff", "limit exceeded", id="huge-array-header"),
]


@pytest.mark.parametrize(("data", "why"), MALFORMED)
async def test_a_malformed_message_gets_an_error_and_changes_nothing(data: bytes,
                                                                     why: str) -> None:
    async def body(t: Table) -> None:
        req = await t.request()
        before = t.hash()
        await t.send_raw(data)
        reply = await t.receive()
        assert isinstance(reply, ErrorReply)
        assert why in reply.reason
        again = await t.request()
        assert t.hash() == before
        # The same question is asked again, and a correct answer is then accepted.
        assert isinstance(again, PriorityRequest)
        assert again.decision.player == HOSTILE
        assert again.decision.actions == req.decision.actions
        await t.send(SubmitAction(again.decision.id, Action("pass")))
        assert await t.receive() == Accepted(again.decision.id)
        _assert_finished_normally(await t.finish_with_bot())

    await run_table(body)


async def test_a_submit_answer_instead_of_a_submit_action_is_refused() -> None:
    async def body(t: Table) -> None:
        req = await t.request()
        before = t.hash()
        await t.send(SubmitAnswer(Answer(req.decision.id, (1,))))
        reply = await t.receive()
        assert isinstance(reply, ErrorReply)
        assert "expected SubmitAction" in reply.reason
        assert "got SubmitAnswer" in reply.reason
        assert str(req.decision.id) in reply.reason
        again = await t.request()
        assert t.hash() == before
        assert isinstance(again, PriorityRequest)
        await t.send(SubmitAction(again.decision.id, Action("pass")))
        assert await t.receive() == Accepted(again.decision.id)
        _assert_finished_normally(await t.finish_with_bot())

    await run_table(body)


async def test_a_submit_action_for_the_wrong_decision_says_the_id_is_wrong(
        autojump_clock: trio.abc.Clock) -> None:
    # The body leaves alice silent, so the game ends when her 30 s run out: on the mock clock.
    async def body(t: Table) -> None:
        req = await t.request()
        before = t.hash()
        await t.send(SubmitAction(req.decision.id + 1000, Action("pass")))
        reply = await t.receive()
        assert isinstance(reply, ErrorReply)
        assert t.hash() == before
        assert str(req.decision.id + 1000) in reply.reason

    await run_table(body)


async def test_a_submit_action_for_the_wrong_decision_is_refused_and_changes_nothing() -> None:
    async def body(t: Table) -> None:
        req = await t.request()
        before = t.hash()
        await t.send(SubmitAction(req.decision.id + 1000, Action("pass")))
        reply = await t.receive()
        assert isinstance(reply, ErrorReply)
        assert f"decision {req.decision.id}" in reply.reason
        again = await t.request()
        assert t.hash() == before
        await t.send(SubmitAction(again.decision.id, Action("pass")))
        assert await t.receive() == Accepted(again.decision.id)
        _assert_finished_normally(await t.finish_with_bot())

    await run_table(body)


# --------------------------------------------------------------------------- illegal actions


def _hand(t: Table, seat: int, card_type: str, *, invert: bool = False) -> int:
    """A card in ``seat``'s hand of that type (or, inverted, not of that type)."""
    st = t.game.state
    for oid in st.players[seat].hand:
        if t.game.is_type(st.objects[oid], card_type) != invert:
            return oid
    raise AssertionError(f"no card {'not ' if invert else ''}of type {card_type} in seat "
                         f"{seat}'s hand: {[st.objects[o].name for o in st.players[seat].hand]}")


ILLEGAL: list[Any] = [
    pytest.param(lambda t: Action("cast", object_id=_hand(t, HOSTILE, "Land")), "305.9",
                 id="cast-a-land"),
    pytest.param(lambda t: Action("cast", object_id=t.game.state.players[HOSTILE].library[0]),
                 "601.2a", id="cast-from-library"),
    pytest.param(lambda t: Action("cast", object_id=_hand(t, 1 - HOSTILE, "Land", invert=True)),
                 "601.2a", id="cast-from-opponents-hand"),
    pytest.param(lambda t: Action("cast", object_id=999_999), "601.2a", id="cast-no-such-object"),
    pytest.param(lambda t: Action("cast", object_id=_hand(t, HOSTILE, "Creature")), "307.1",
                 id="creature-in-upkeep"),
    pytest.param(lambda t: Action("cast", object_id=_hand(t, HOSTILE, "Instant")), "601.2c",
                 id="instant-without-target"),
    pytest.param(lambda t: Action("play", object_id=_hand(t, HOSTILE, "Land")), "305.1",
                 id="land-in-upkeep"),
    pytest.param(lambda t: Action("play", object_id=_hand(t, HOSTILE, "Land", invert=True)), "305.1",
                 id="play-a-spell"),
    pytest.param(lambda t: Action("activate", object_id=_hand(t, HOSTILE, "Land"),
                                  ability=1), "602.2", id="activate-from-hand"),
    pytest.param(lambda t: Action("explode"), "unknown action kind 'explode'",
                 id="unknown-action-kind"),
]


@pytest.mark.parametrize(("make", "why"), ILLEGAL)
async def test_an_illegal_action_is_rejected_naming_the_rule(make: Any, why: str) -> None:
    async def body(t: Table) -> None:
        req = await t.request()
        before = t.hash()
        hand = list(t.game.state.players[HOSTILE].hand)
        await t.send(SubmitAction(req.decision.id, make(t)))
        reply = await t.receive()
        assert isinstance(reply, Rejected)
        assert reply.decision_id == req.decision.id
        assert why in reply.reason
        again = await t.request()
        assert t.hash() == before
        assert t.game.state.players[HOSTILE].hand == hand
        assert isinstance(again, PriorityRequest)
        assert again.decision.actions == req.decision.actions
        await t.send(SubmitAction(again.decision.id, Action("pass")))
        assert await t.receive() == Accepted(again.decision.id)
        _assert_finished_normally(await t.finish_with_bot())

    await run_table(body)


async def test_an_illegal_action_in_the_main_phase_is_rejected_with_state_intact() -> None:
    """Play the real game up to alice's first main phase, then try two illegal things there."""
    async def body(t: Table) -> None:
        while True:
            req = await t.request()
            assert isinstance(req, PriorityRequest)
            if req.view.step == "precombat_main":
                break
            await t.send(SubmitAction(req.decision.id, Action("pass")))
            assert isinstance(await t.receive(), Accepted)
        land = _hand(t, HOSTILE, "Land")
        assert any(a.kind == "play" and a.object_id == land for a in req.decision.actions)
        before = t.hash()
        # A land can be played but not cast; a second land is not allowed (305.2).
        await t.send(SubmitAction(req.decision.id, Action("cast", object_id=land)))
        reply = await t.receive()
        assert isinstance(reply, Rejected)
        assert "305.9" in reply.reason
        req = await t.request()
        assert t.hash() == before
        await t.send(SubmitAction(req.decision.id, Action("play", object_id=land)))
        assert await t.receive() == Accepted(req.decision.id)
        req = await t.request()
        played = t.hash()
        assert played != before
        other = _hand(t, HOSTILE, "Land")
        await t.send(SubmitAction(req.decision.id, Action("play", object_id=other)))
        reply = await t.receive()
        assert isinstance(reply, Rejected)
        assert "305.2" in reply.reason
        req = await t.request()
        assert t.hash() == played
        await t.send(SubmitAction(req.decision.id, Action("pass")))
        assert await t.receive() == Accepted(req.decision.id)
        _assert_finished_normally(await t.finish_with_bot())

    await run_table(body)


# --------------------------------------------------------------------------- forfeits


async def test_three_malformed_messages_in_a_row_forfeit_the_seat() -> None:
    async def body(t: Table) -> None:
        await t.request()
        for n in range(1, MAX_STRIKES + 1):
            await t.send_raw(b"\xc1")
            reply = await t.receive()
            assert isinstance(reply, ErrorReply)
            assert "0xc1" in reply.reason
            if n < MAX_STRIKES:
                assert isinstance(await t.request(), PriorityRequest)

    t = await run_table(body)
    result = t.result
    assert result is not None
    assert MAX_STRIKES == 3
    assert result.winner == "bob"
    assert result.forfeits == [(
        "alice", "3 malformed messages in a row: invalid message: not msgpack (reserved byte 0xc1)")]
    assert "alice" in result.reason and "forfeit" in result.reason
    assert t.game.state.players[HOSTILE].lost
    assert "3 malformed messages in a row" in t.game.state.players[HOSTILE].loss_reason
    # A seat that forfeited is told nothing more.
    with pytest.raises(trio.WouldBlock):
        t.hostile.inbox.receive_nowait()


async def test_malformed_messages_not_in_a_row_do_not_forfeit() -> None:
    async def body(t: Table) -> None:
        for _ in range(3):
            await t.request()
            for _ in range(MAX_STRIKES - 1):
                await t.send_raw(b"\xc1")
                assert isinstance(await t.receive(), ErrorReply)
                await t.request()
            req = t.log[-1]
            assert isinstance(req, PriorityRequest)
            await t.send(SubmitAction(req.decision.id, Action("pass")))
            assert await t.receive() == Accepted(req.decision.id)
        _assert_finished_normally(await t.finish_with_bot())

    await run_table(body)


async def test_a_forfeit_message_ends_the_game_with_its_reason() -> None:
    async def body(t: Table) -> None:
        await t.request()
        await t.send(Forfeit("I have a train to catch"))

    t = await run_table(body)
    assert t.result is not None
    assert t.result.winner == "bob"
    assert t.result.forfeits == [("alice", "I have a train to catch")]
    assert "I have a train to catch" in t.result.reason


async def test_a_silent_seat_forfeits_on_timeout(autojump_clock: trio.abc.Clock) -> None:
    async def body(t: Table) -> None:
        await t.request()
        start = trio.current_time()
        await t.done.wait()
        assert trio.current_time() - start == pytest.approx(5.0)

    t = await run_table(body, timeout=5.0)
    assert t.result is not None
    assert t.result.winner == "bob"
    assert t.result.forfeits == [("alice", "no answer within 5 s")]


async def test_wrong_kind_replies_in_a_row_cannot_stall_the_game(
        autojump_clock: trio.abc.Clock) -> None:
    bound = MAX_STRIKES + MAX_REJECTIONS + 10

    async def body(t: Table) -> None:
        for _ in range(bound):
            req = await t.request()
            await t.send(SubmitAnswer(Answer(req.decision.id)))
            reply = await t.receive()
            assert isinstance(reply, ErrorReply)
            if t.game.state.players[HOSTILE].lost:
                return
        # Then alice keeps reading but falls silent: if she is still in the game, she times out.
        while not t.done.is_set():
            with trio.move_on_after(1.0):
                await t.receive()

    t = await run_table(body, timeout=5.0)
    assert t.result is not None
    assert t.result.winner == "bob"
    assert t.result.forfeits
    name, reason = t.result.forfeits[0]
    assert name == "alice"
    assert "no answer within" not in reason, f"not stopped in {bound} refusals: {reason}"


async def test_a_client_that_stops_reading_forfeits_instead_of_hanging_the_game(
        autojump_clock: trio.abc.Clock) -> None:
    async def body(t: Table) -> None:
        await t.request()
        await t.send_raw(b"\xc1")  # the coordinator answers, then asks again: nobody reads

    with trio.move_on_after(10_000) as scope:
        t = await run_table(body, timeout=5.0, limit=math.inf)
    assert not scope.cancelled_caught, "the coordinator hung on a seat that stopped reading"
    assert t.result is not None
    assert t.result.winner == "bob"
