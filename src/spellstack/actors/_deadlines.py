"""Deadlines for tasks waiting on a mailbox: one small system task per trio run wakes each at its
deadline, in place of a cancel scope per wait.

The coordinator waits for a seat's answer with a deadline at every decision. trio's
``move_on_at`` makes a cancel scope for each such wait, and entering and leaving one costs more
than the message's whole hop from one task to another. ``Deadlines`` keeps the waits in a
dictionary and sleeps, in a cancel scope of its own, until the earliest one: arming a wait and
disarming it are a dictionary's set and pop, and the scope's deadline moves only when a wait is
due sooner than the task's next wake. Waits that end before their deadline are simply dropped;
the task wakes at a deadline nobody waits for any more at most once per wait's length of time.
"""

from __future__ import annotations

import math
from typing import Protocol

import trio

__all__ = ["Deadlines", "Expirable", "run_deadlines"]


class Expirable(Protocol):
    """What holds a waiting task: told when the task's deadline has come."""

    def expire(self, task: trio.lowlevel.Task) -> None:
        """``task``'s deadline has come: wake it as timed out if it still waits."""
        ...


class Deadlines:
    """The waits with deadlines of one trio run, and the task that ends them (``run``)."""

    __slots__ = ("_sleep", "_waits", "wake")

    def __init__(self) -> None:
        self._waits: dict[trio.lowlevel.Task, tuple[float, Expirable]] = {}
        """Each waiting task's deadline (a ``trio.current_time()``) and what it waits on."""
        self.wake = math.inf
        """When the task wakes next: no later than the earliest deadline."""
        self._sleep: trio.CancelScope | None = None
        """The scope the task sleeps in (its deadline is ``wake``)."""

    def arm(self, task: trio.lowlevel.Task, due: float, on: Expirable) -> None:
        """``task`` waits on ``on`` until ``due`` at the latest."""
        self._waits[task] = (due, on)
        if due < self.wake:
            self.wake = due
            if self._sleep is not None:
                self._sleep.deadline = due

    def disarm(self, task: trio.lowlevel.Task) -> None:
        """``task`` waits no more (a wait already ended at its deadline is not there)."""
        self._waits.pop(task, None)

    def waiting(self) -> int:
        """How many waits are armed."""
        return len(self._waits)

    async def run(self) -> None:
        """Sleep until the earliest deadline, end the waits that are due, for ever (a system
        task: cancelled when the run ends)."""
        while True:
            with trio.CancelScope(deadline=self.wake) as self._sleep:
                await trio.sleep_forever()
            now = trio.current_time()
            wake = math.inf
            waits = self._waits
            for task, (due, on) in list(waits.items()):
                if due <= now:  # as trio's deadlines: due once the clock reaches them
                    del waits[task]
                    on.expire(task)
                elif due < wake:
                    wake = due
            self.wake = wake


_DEADLINES: trio.lowlevel.RunVar[Deadlines] = trio.lowlevel.RunVar("spellstack_deadlines")


def run_deadlines() -> Deadlines:
    """This trio run's deadlines, their task started on first use."""
    try:
        return _DEADLINES.get()
    except LookupError:
        deadlines = Deadlines()
        _DEADLINES.set(deadlines)
        trio.lowlevel.spawn_system_task(deadlines.run, name="spellstack deadlines")
        return deadlines
