"""Links between the engine's own actors: a one-message mailbox that behaves like a trio memory
channel of buffer size 1 (issue 7: less memory per game in flight)."""

from __future__ import annotations

import trio
import trio.testing

from spellstack.actors import Link, Wire
from spellstack.protocol import CheckSBA, SBABatch


def test_engine_links_use_mailboxes_and_player_links_trio_channels() -> None:
    wire = Wire("g1", None)
    coord, sba = Link.pair(wire, "coordinator", "sba")
    assert coord.box_out is sba.box_in is not None and coord.box_in is sba.box_out is not None
    assert coord.trusted and sba.trusted
    mine, theirs = Link.pair(wire, "coordinator", "player:alice")
    assert mine.box_out is mine.box_in is theirs.box_out is None
    assert not mine.trusted


async def test_a_receive_waits_for_the_message_and_a_second_send_for_room() -> None:
    coord, sba = Link.pair(Wire("g1", None), "coordinator", "sba")
    got: list[object] = []
    sent: list[int] = []

    async def reader() -> None:
        got.append(await sba.receive())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(reader)
        await trio.testing.wait_all_tasks_blocked()
        assert got == []
        await coord.send(CheckSBA())
        await trio.testing.wait_all_tasks_blocked()
    assert got == [CheckSBA()]

    async def writer() -> None:
        for k in range(2):
            await coord.send(CheckSBA())
            sent.append(k)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(writer)
        await trio.testing.wait_all_tasks_blocked()
        assert sent == [0]  # the box holds one message: the second send waits
        assert await sba.receive() == CheckSBA()
        await trio.testing.wait_all_tasks_blocked()
        assert sent == [0, 1]
        assert await sba.receive() == CheckSBA()
    assert coord.wire.sent == 3


async def test_a_cancelled_wait_leaves_the_box_usable(autojump_clock: trio.testing.MockClock) -> None:
    coord, sba = Link.pair(Wire("g1", None), "coordinator", "sba")
    with trio.move_on_after(1) as scope:
        await sba.receive()
    assert scope.cancelled_caught
    await coord.send(SBABatch(()))
    assert await sba.receive() == SBABatch(())
    await sba.send(SBABatch(()))
    with trio.move_on_after(1) as scope:
        await sba.send(SBABatch(()))  # the first is still there: this one waits, then gives up
    assert scope.cancelled_caught
    assert await coord.receive() == SBABatch(())
    with trio.move_on_after(1) as scope:
        await coord.receive()
    assert scope.cancelled_caught
