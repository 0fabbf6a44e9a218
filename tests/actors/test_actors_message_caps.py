"""A hostile seat against the coordinator's limits on what a player's message may cost:
object-count bombs are refused for their size or count, a refused action does not end a run
of malformed messages, and a setting cannot name more steps than there are."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]

from spellstack.actors import MAX_STRIKES
from spellstack.protocol import (
    MAX_MESSAGE_BYTES,
    MAX_PLAYER_MESSAGE_BYTES,
    MAX_PLAYER_OBJECTS,
    PROTOCOL_VERSION,
    Accepted,
    ErrorReply,
    PriorityRequest,
    Rejected,
    SetStops,
    Stops,
    SubmitAction,
)
from spellstack.rules import FIRST_OBJECT_ID, Action
from tests.actors.hostile_table import HOSTILE, Table, run_table


def _lists_bomb(size: int) -> bytes:
    """A SubmitAction envelope of at most ``size`` bytes whose body is as many empty lists as
    fit (a million in 1 MiB), in lists of 65,535."""
    head = (b"\x83" + msgpack.packb("k") + msgpack.packb("SubmitAction") + msgpack.packb("v")
            + msgpack.packb(PROTOCOL_VERSION) + msgpack.packb("b"))
    per = min(65_535, size - len(head) - 6)
    chunk = b"\xdc" + per.to_bytes(2, "big") + b"\x90" * per
    n = (size - len(head) - 3) // len(chunk)
    return head + b"\xdc" + n.to_bytes(2, "big") + chunk * n


def _refused_action(req: PriorityRequest) -> SubmitAction:
    """An action refused every time: no object has an id below ``FIRST_OBJECT_ID``."""
    return SubmitAction(req.decision.id, Action("play", FIRST_OBJECT_ID - 1))


async def test_object_count_bombs_are_refused_and_change_nothing() -> None:
    big = _lists_bomb(MAX_MESSAGE_BYTES)
    small = _lists_bomb(MAX_PLAYER_MESSAGE_BYTES)
    assert len(big) > MAX_PLAYER_MESSAGE_BYTES >= len(small)

    async def body(t: Table) -> None:
        req = await t.request()
        before = t.hash()
        await t.send_raw(big)
        reply = await t.receive()
        assert isinstance(reply, ErrorReply)
        assert reply.reason == (f"invalid message: {len(big)} bytes, over the limit of "
                                f"{MAX_PLAYER_MESSAGE_BYTES} for a message from a player")
        req = await t.request()
        await t.send_raw(small)
        reply = await t.receive()
        assert isinstance(reply, ErrorReply)
        assert reply.reason == (f"invalid message: more than {MAX_PLAYER_OBJECTS} objects, the "
                                "limit for a message from a player")
        req = await t.request()
        assert t.hash() == before
        await t.send(SubmitAction(req.decision.id, Action("pass")))
        assert await t.receive() == Accepted(req.decision.id)
        result = await t.finish_with_bot()
        assert result.forfeits == []

    await run_table(body)


async def test_bombs_alternating_with_refused_actions_forfeit_at_the_strike_limit() -> None:
    async def body(t: Table) -> None:
        req = await t.request()
        for n in range(1, MAX_STRIKES + 1):
            await t.send(_refused_action(req))
            assert isinstance(await t.receive(), Rejected)
            req = await t.request()
            await t.send_raw(_lists_bomb(MAX_PLAYER_MESSAGE_BYTES))
            assert isinstance(await t.receive(), ErrorReply)
            if n < MAX_STRIKES:
                req = await t.request()

    t = await run_table(body)
    assert t.result is not None
    assert t.result.winner == "bob"
    assert t.result.forfeits == [("alice", f"{MAX_STRIKES} malformed messages in a row: invalid "
                                  f"message: more than {MAX_PLAYER_OBJECTS} objects, the limit "
                                  "for a message from a player")]
    assert t.game.state.players[HOSTILE].lost


async def test_an_accepted_action_ends_a_run_of_malformed_messages() -> None:
    async def body(t: Table) -> None:
        for _ in range(3):
            req = await t.request()
            for _ in range(MAX_STRIKES - 1):
                await t.send_raw(b"\xc1")
                assert isinstance(await t.receive(), ErrorReply)
                req = await t.request()
            assert isinstance(req, PriorityRequest)
            await t.send(SubmitAction(req.decision.id, Action("pass")))
            assert await t.receive() == Accepted(req.decision.id)
        assert (await t.finish_with_bot()).forfeits == []

    await run_table(body)


async def test_a_setting_naming_more_steps_than_there_are_is_refused() -> None:
    async def body(t: Table) -> None:
        req = await t.request()
        await t.send(SetStops(Stops(my_turn=("upkeep",) * 13)))
        reply = await t.receive()
        assert isinstance(reply, ErrorReply)
        assert reply.reason == ("invalid SetStops: my_turn: 13 step names, more than the 12 "
                                "steps in which a player receives priority")
        await t.send(SubmitAction(req.decision.id, Action("pass")))
        assert await t.receive() == Accepted(req.decision.id)
        assert (await t.finish_with_bot()).forfeits == []

    await run_table(body)
