"""A mailbox read with a deadline (``Mailbox.receive_before``): what a read within
``trio.move_on_at`` gives, the wait ended by the run's ``Deadlines`` task instead of a cancel
scope of its own."""

from __future__ import annotations

import math

import trio
import trio.testing

from spellstack.actors import Mailbox
from spellstack.actors._deadlines import Deadlines, run_deadlines


async def test_a_wait_gives_none_exactly_at_its_deadline(autojump_clock: trio.abc.Clock) -> None:
    box = Mailbox[bytes]()
    deadlines = run_deadlines()
    due = trio.current_time() + 2.5
    assert await box.receive_before(due, deadlines) is None
    assert trio.current_time() == due
    assert deadlines.waiting() == 0 and box.statistics().tasks_waiting_receive == 0


async def test_a_message_before_the_deadline_is_received_and_the_wait_disarmed(
        autojump_clock: trio.abc.Clock) -> None:
    box = Mailbox[bytes]()
    deadlines = run_deadlines()
    start = trio.current_time()
    got: list[bytes | None] = []

    async def receive() -> None:
        got.append(await box.receive_before(start + 10, deadlines))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(receive)
        await trio.sleep(1)
        assert deadlines.waiting() == 1
        box.send_nowait(b"a")
    assert got == [b"a"] and trio.current_time() == start + 1
    assert deadlines.waiting() == 0
    # The run's deadline task wakes at the deadline nobody waits for any more, and ends nothing.
    await trio.sleep(20)
    assert deadlines.wake == math.inf and deadlines.waiting() == 0


async def test_a_message_already_waiting_is_received_without_waiting() -> None:
    box = Mailbox[bytes]()
    box.send_nowait(b"a")
    assert await box.receive_before(trio.current_time() + 1, run_deadlines()) == b"a"


async def test_a_deadline_already_past_gives_none_and_leaves_the_message() -> None:
    box = Mailbox[bytes]()
    box.send_nowait(b"a")
    assert await box.receive_before(trio.current_time(), run_deadlines()) is None
    assert box.receive_nowait() == b"a"  # as a cancel scope past its deadline would leave it


async def test_a_cancelled_wait_is_disarmed_and_leaves_the_mailbox_as_it_was(
        autojump_clock: trio.abc.Clock) -> None:
    box = Mailbox[bytes]()
    deadlines = run_deadlines()
    with trio.move_on_after(0.01) as scope:
        await box.receive_before(trio.current_time() + 60, deadlines)
    assert scope.cancelled_caught
    assert deadlines.waiting() == 0 and box.statistics().tasks_waiting_receive == 0
    box.send_nowait(b"a")
    assert box.receive_nowait() == b"a"


async def test_a_read_already_cancelled_raises_whichever_way_it_would_go(
        autojump_clock: trio.abc.Clock) -> None:
    box = Mailbox[bytes]()
    deadlines = run_deadlines()
    now = trio.current_time()
    for due in (now, now + 60):  # past (None at once, uncancelled), and a wait
        with trio.CancelScope() as scope:
            scope.cancel()
            await box.receive_before(due, deadlines)
        assert scope.cancelled_caught
        assert deadlines.waiting() == 0 and box.statistics().tasks_waiting_receive == 0
    box.send_nowait(b"a")
    with trio.CancelScope() as scope:  # a message waits: cancelled before it is taken
        scope.cancel()
        await box.receive_before(now + 60, deadlines)
    assert scope.cancelled_caught and box.receive_nowait() == b"a"


async def test_a_message_sent_once_the_deadline_ended_the_wait_stays_in_the_slot() -> None:
    box, deadlines, got = Mailbox[bytes](), Deadlines(), []  # deadlines driven by hand
    async with trio.open_nursery() as nursery:
        task = await _waiting(nursery, box, deadlines, got)
        deadlines.disarm(task)
        box.expire(task)  # the deadline: the receiver is woken with none, and has not run yet
        box.send_nowait(b"late")  # sent before it runs: not handed to it
    assert got == [None]
    assert box.receive_nowait() == b"late"


async def test_a_message_handed_over_is_not_taken_back_by_the_deadline() -> None:
    box, deadlines, got = Mailbox[bytes](), Deadlines(), []
    async with trio.open_nursery() as nursery:
        task = await _waiting(nursery, box, deadlines, got)
        box.send_nowait(b"a")  # handed to the waiting receiver, which has not run yet
        box.expire(task)  # its deadline, in the same moment: it no longer waits
    assert got == [b"a"]
    assert deadlines.waiting() == 0


async def _waiting(nursery: trio.Nursery, box: Mailbox[bytes], deadlines: Deadlines,
                   got: list[bytes | None]) -> trio.lowlevel.Task:
    """A task started waiting on ``box`` (a minute's deadline), what it gets into ``got``."""

    async def receive() -> None:
        got.append(await box.receive_before(trio.current_time() + 60, deadlines))

    nursery.start_soon(receive)
    await trio.testing.wait_all_tasks_blocked()
    [task] = list(deadlines._waits)
    return task


async def test_a_sooner_deadline_wakes_the_sleeping_task_sooner(autojump_clock: trio.abc.Clock) -> None:
    first, second = Mailbox[bytes](), Mailbox[bytes]()
    deadlines = run_deadlines()
    start = trio.current_time()
    ended: dict[str, float] = {}

    async def wait(name: str, box: Mailbox[bytes], after: float) -> None:
        assert await box.receive_before(start + after, deadlines) is None
        ended[name] = trio.current_time() - start

    async with trio.open_nursery() as nursery:
        nursery.start_soon(wait, "late", first, 30.0)
        await trio.testing.wait_all_tasks_blocked()
        assert deadlines.wake == start + 30.0  # the task sleeps until the only deadline
        nursery.start_soon(wait, "soon", second, 5.0)
    assert ended == {"soon": 5.0, "late": 30.0}
