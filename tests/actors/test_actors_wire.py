"""The wire's links: a send the channel takes at once costs no scheduling round, and
cancellation and full channels behave as trio's ``send`` does.

design.md: only one message per game is in flight at a time, so a sender that hands its
message over and goes on (it always waits for its peer soon after) changes no game; the
numbering never depends on trio's scheduling order.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
import trio

from spellstack.actors import Link, TraceRecord, Wire
from spellstack.protocol import PROTOCOL_VERSION, Accepted, RequestFullView
from spellstack.rules import InvalidMessageError


def _pair() -> tuple[Link, Link]:
    return Link.pair(Wire("g1", None), "coordinator", "stack")


async def test_a_send_the_channel_takes_at_once_does_not_yield_to_other_tasks() -> None:
    a, b = _pair()
    ran: list[str] = []

    async def other() -> None:
        ran.append("other")

    async with trio.open_nursery() as nursery:
        nursery.start_soon(other)  # runnable, waiting for the sender to yield
        await a.send(Accepted(1))  # room in the channel: taken at once
        ran.append("sent")
    assert ran == ["sent", "other"]
    assert await b.receive() == Accepted(1)
    assert a.wire.sent == 1


async def test_a_send_to_a_waiting_reader_wakes_it_with_the_message() -> None:
    a, b = _pair()
    got: list[Any] = []

    async def reader() -> None:
        got.append(await b.receive())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(reader)
        await trio.testing.wait_all_tasks_blocked()
        await a.send(Accepted(2))
    assert got == [Accepted(2)]


async def test_a_cancelled_scope_stops_a_send_before_anything_is_sent() -> None:
    a, b = _pair()
    with trio.CancelScope() as scope:
        scope.cancel()
        await a.send_bytes(b"x")
    assert scope.cancelled_caught
    with pytest.raises(trio.WouldBlock):
        b.inbox.receive_nowait()


async def test_a_send_to_a_full_channel_waits_and_its_time_limit_applies(autojump_clock: Any) -> None:
    a, b = _pair()
    await a.send(Accepted(1))  # fills the buffer of one
    with trio.move_on_after(5) as scope:
        await a.send(Accepted(2))
    assert scope.cancelled_caught
    assert await b.receive() == Accepted(1)
    with pytest.raises(trio.WouldBlock):
        b.inbox.receive_nowait()


async def test_a_send_to_a_full_channel_goes_through_once_the_reader_reads() -> None:
    a, b = _pair()
    got: list[Any] = []
    await a.send(Accepted(1))

    async def reader() -> None:
        await trio.testing.wait_all_tasks_blocked()
        got.append(await b.receive())
        got.append(await b.receive())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(reader)
        await a.send(Accepted(2))
    assert got == [Accepted(1), Accepted(2)]


def test_only_the_end_that_receives_from_a_player_validates() -> None:
    wire = Wire("g1", None)
    coordinator, player = Link.pair(wire, "coordinator", "player:alice")
    assert not coordinator.trusted  # what a player sends is always validated
    assert player.trusted  # the player actor takes what the coordinator encoded as it is
    stack_c, stack_a = Link.pair(wire, "coordinator", "stack")
    assert stack_c.trusted and stack_a.trusted


async def test_the_coordinators_end_still_refuses_a_malformed_message_from_a_player() -> None:
    coordinator, player = Link.pair(Wire("g1", None), "coordinator", "player:alice")
    await player.send_bytes(b"\x83\xa1k\xa8Accepted\xa1v" + bytes([PROTOCOL_VERSION])
                            + b"\xa1b\x81\xabdecision_id\xa1x")
    with pytest.raises(InvalidMessageError, match="decision_id: expected int, got str 'x'"):
        await coordinator.receive()


async def test_what_a_seat_that_left_sends_is_numbered_after_everything_else() -> None:
    # A seat that left is read no more: its reply, whenever it comes, would be a second message
    # in flight. The wire numbers it once the game is over, after everything else.
    send, receive = trio.open_memory_channel[TraceRecord](math.inf)
    wire = Wire("g1", send)
    ann_c, ann = Link.pair(wire, "coordinator", "player:ann")
    ben_c, ben = Link.pair(wire, "coordinator", "player:ben")
    await ann_c.send(Accepted(1))
    wire.leave("player:ann")
    await ann.send(RequestFullView(2))  # on its way as ann left: held, but on the channel
    await ben_c.send(Accepted(3))
    await ben.send(RequestFullView(4))
    wire.flush_left()
    assert await ann_c.receive() == RequestFullView(2)
    await ann.send(RequestFullView(5))  # once the game's players are done: in no trace
    send.close()
    got = [(r.seq, r.sender, r.kind, r.left) async for r in receive]
    assert got == [(1, "coordinator", "Accepted", False), (2, "coordinator", "Accepted", False),
                   (3, "player:ben", "RequestFullView", False), (4, "player:ann", "RequestFullView", True)]
