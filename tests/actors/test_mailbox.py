"""The mailbox between a game's actors: a one-way channel with room for one message, which
behaves as trio's memory channel of size 1 does for the actors."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest
import trio
import trio.testing

from spellstack.actors import Link, Mailbox, Wire


def test_a_message_waits_in_the_slot_until_received() -> None:
    box = Mailbox[bytes]()
    box.send_nowait(b"a")
    assert box.statistics().current_buffer_used == 1
    with pytest.raises(trio.WouldBlock):
        box.send_nowait(b"b")
    assert box.receive_nowait() == b"a"
    with pytest.raises(trio.WouldBlock):
        box.receive_nowait()


async def test_a_receiver_waits_for_the_message_and_gets_it_directly() -> None:
    box = Mailbox[bytes]()
    got: list[bytes] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: _receive_into(box, got))
        await trio.testing.wait_all_tasks_blocked()
        assert box.statistics().tasks_waiting_receive == 1
        box.send_nowait(b"a")
        assert box.statistics().current_buffer_used == 0  # handed over, not put in the slot
    assert got == [b"a"]


async def test_senders_wait_for_room_and_are_served_in_order() -> None:
    box = Mailbox[bytes]()
    await box.send(b"a")
    async with trio.open_nursery() as nursery:
        for data in (b"b", b"c"):
            nursery.start_soon(box.send, data)
            await trio.testing.wait_all_tasks_blocked()
        assert box.statistics().tasks_waiting_send == 2
        assert [await box.receive() for _ in range(3)] == [b"a", b"b", b"c"]
    assert box.statistics() == box.statistics().__class__(0, 1, 0, 0)


async def test_a_cancelled_wait_leaves_the_mailbox_as_it_was() -> None:
    box = Mailbox[bytes]()
    with trio.move_on_after(0) as receiving:
        await box.receive()
    assert receiving.cancelled_caught and box.statistics().tasks_waiting_receive == 0
    box.send_nowait(b"a")
    with trio.CancelScope() as sending:
        sending.cancel()
        await box.send(b"b")
    assert sending.cancelled_caught and box.statistics().tasks_waiting_send == 0
    assert box.receive_nowait() == b"a"
    with pytest.raises(trio.WouldBlock):
        box.receive_nowait()


async def test_a_read_already_cancelled_raises_and_takes_nothing() -> None:
    box = Mailbox[bytes]()
    with trio.CancelScope() as empty:
        empty.cancel()
        await box.receive()  # it would wait: the wait delivers the cancellation as it starts
    assert empty.cancelled_caught and box.statistics().tasks_waiting_receive == 0
    assert box.takes_now()
    box.send_nowait(b"a")  # into the slot: no receiver left in line
    assert not box.takes_now()
    with trio.CancelScope() as waiting:
        waiting.cancel()
        await box.receive()  # a message waits: cancelled before it is taken
    assert waiting.cancelled_caught
    assert box.receive_nowait() == b"a"


async def test_a_mailbox_takes_a_message_now_when_its_slot_is_empty_or_a_reader_waits() -> None:
    box = Mailbox[bytes]()
    box.send_nowait(b"a")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(box.send, b"b")
        await trio.testing.wait_all_tasks_blocked()
        assert not box.takes_now() and box.statistics().tasks_waiting_send == 1
        assert [await box.receive(), await box.receive()] == [b"a", b"b"]
    got: list[bytes] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: _receive_into(box, got))
        await trio.testing.wait_all_tasks_blocked()
        assert box.takes_now() and box.statistics().tasks_waiting_receive == 1
        box.send_nowait(b"c")
    assert got == [b"c"]


async def test_a_send_that_does_not_wait_is_still_a_checkpoint() -> None:
    box = Mailbox[bytes]()
    with trio.CancelScope() as scope:
        scope.cancel()
        await box.send(b"a")
    assert scope.cancelled_caught and box.statistics().current_buffer_used == 0


def test_a_link_pair_is_far_smaller_than_with_trio_channels() -> None:
    a, b = Link.pair(Wire("g1", None), "coordinator", "player:x")
    assert a.out is b.inbox and b.out is a.inbox
    assert _allocated(lambda: [Mailbox[bytes]() for _ in range(200)]) * 5 < _allocated(
        lambda: [trio.open_memory_channel[bytes](1) for _ in range(100)])


def _allocated(make: Callable[[], object]) -> int:
    """Bytes still allocated by what ``make`` returns."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        made = make()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del made
    return after - before


async def _receive_into(box: Mailbox[bytes], got: list[bytes]) -> None:
    got.append(await box.receive())
