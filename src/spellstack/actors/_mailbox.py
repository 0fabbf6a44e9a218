"""A mailbox: a one-way memory channel with room for one message, as small as it can be, for
the links between a game's actors (``Link.pair``).

A game's actors keep one message in flight at a time, and a game has eight such channels; trio's
memory channel (two endpoint objects, a state with a deque and two ordered dictionaries of
waiting tasks, a set of tasks per endpoint) is about 1.7 kB each, most of a kilobyte of it the
deque's first block. A thousand games in flight kept 13 MB in them. A mailbox holds its message
in a slot and makes its list of waiting tasks only when a task waits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Generic, Protocol, TypeVar

import outcome
import trio

from ..rules.base import builder
from ._deadlines import Deadlines

__all__ = ["Mailbox", "MailboxStatistics", "ReceiveEnd", "SendEnd"]

_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)
_T_contra = TypeVar("_T_contra", contravariant=True)

_EMPTY = object()
"""What the slot holds while no message waits in it."""
_TIMED_OUT = object()
"""What wakes a task whose deadline came first (``Mailbox.expire``)."""
_now = trio.current_time


@dataclass(frozen=True, slots=True)
class MailboxStatistics:
    """What ``statistics()`` tells of a channel: the fields of trio's ``MemoryChannelStatistics``
    that the actors read."""

    current_buffer_used: int
    """Messages waiting to be received (0 or 1)."""
    max_buffer_size: int
    """Room for messages (1)."""
    tasks_waiting_send: int
    """Senders waiting for room."""
    tasks_waiting_receive: int
    """Receivers waiting for a message."""


_STATISTICS: Final = builder(MailboxStatistics)
"""``MailboxStatistics``' fast constructor: a send asks for them at every message, to see whether
it can block (the frozen class's own ``__init__`` sets each field through ``object.__setattr__``)."""


class SendEnd(Protocol[_T_contra]):
    """The sending end of a link's channel: a ``Mailbox`` or a trio memory channel's."""

    def send_nowait(self, value: _T_contra) -> None:
        """Send at once, or ``trio.WouldBlock``."""
        ...

    async def send(self, value: _T_contra) -> None:
        """Send, waiting for room if need be."""
        ...

    def statistics(self) -> MailboxStatistics | trio.MemoryChannelStatistics:
        """How full the channel is, and who waits on it."""
        ...


class ReceiveEnd(Protocol[_T_co]):
    """The receiving end of a link's channel: a ``Mailbox`` or a trio memory channel's."""

    def receive_nowait(self) -> _T_co:
        """The next message at once, or ``trio.WouldBlock``."""
        ...

    async def receive(self) -> _T_co:
        """The next message, waiting for one if need be."""
        ...


class Mailbox(Generic[_T]):
    """Both ends of a one-way channel with room for one message, which behaves as
    ``trio.open_memory_channel(1)`` does for what the actors do with it (send, send at once,
    receive, receive at once, statistics; never closed): each wait is a trio checkpoint that a
    cancelled scope stops, waiting tasks are served first come, first served, and a send or
    receive that does not wait is a checkpoint all the same."""

    __slots__ = ("_item", "_receivers", "_senders")

    def __init__(self) -> None:
        self._item: object = _EMPTY
        """The message waiting to be received, ``_EMPTY`` for none."""
        self._receivers: list[trio.lowlevel.Task] | None = None
        """Tasks waiting for a message, first first (made when one waits)."""
        self._senders: list[tuple[trio.lowlevel.Task, _T]] | None = None
        """Tasks waiting for room, first first, each with its message (made when one waits)."""

    def send_nowait(self, value: _T) -> None:
        """Hand ``value`` to a waiting receiver or put it in the slot; ``trio.WouldBlock`` if
        the slot is full."""
        if self._receivers:
            trio.lowlevel.reschedule(self._receivers.pop(0), outcome.Value(value))
        elif self._item is _EMPTY:
            self._item = value
        else:
            raise trio.WouldBlock

    async def send(self, value: _T) -> None:
        """Send ``value``, waiting for room if the slot is full."""
        await trio.lowlevel.checkpoint_if_cancelled()
        try:
            self.send_nowait(value)
        except trio.WouldBlock:
            pass
        else:
            await trio.lowlevel.cancel_shielded_checkpoint()
            return
        task = trio.lowlevel.current_task()
        if self._senders is None:
            self._senders = []
        waiting = (task, value)
        self._senders.append(waiting)

        def abort(_: trio.lowlevel.RaiseCancelT) -> trio.lowlevel.Abort:
            assert self._senders is not None
            self._senders.remove(waiting)
            return trio.lowlevel.Abort.SUCCEEDED

        await trio.lowlevel.wait_task_rescheduled(abort)

    def receive_nowait(self) -> _T:
        """The message in the slot (a waiting sender's then takes its place); ``trio.WouldBlock``
        if there is none."""
        value = self._item
        if value is _EMPTY:
            raise trio.WouldBlock
        if self._senders:
            task, self._item = self._senders.pop(0)
            trio.lowlevel.reschedule(task)
        else:
            self._item = _EMPTY
        return value  # type: ignore[return-value]  # not _EMPTY: one of the values sent

    async def receive(self) -> _T:
        """The next message, waiting for one if the slot is empty.

        Cancelled, it raises ``trio.Cancelled`` whichever way it goes, as trio's channels do: a
        wait delivers a pending cancellation as it starts (trio's run loop does, at every
        ``wait_task_rescheduled``), so only a message taken at once needs the check first."""
        if self._item is not _EMPTY:  # taken after a schedule point, as trio's channels do
            await trio.lowlevel.checkpoint_if_cancelled()
            value = self.receive_nowait()
            await trio.lowlevel.cancel_shielded_checkpoint()
            return value
        received: _T = await trio.lowlevel.wait_task_rescheduled(self._in_line(None, 0.0))
        return received

    async def receive_before(self, due: float, deadlines: Deadlines) -> _T | None:
        """The next message, or None if ``due`` (a ``trio.current_time()``) comes first: what
        ``receive`` within ``trio.move_on_at(due)`` gives, without a cancel scope (``Deadlines``
        wakes the wait at ``due``). A deadline already past gives None at once, as that scope
        would be cancelled before its first checkpoint, whether a message waits or not. Cancelled,
        it raises ``trio.Cancelled`` first, as ``receive`` does."""
        if _now() >= due:
            await trio.lowlevel.checkpoint_if_cancelled()
            return None
        if self._item is not _EMPTY:
            await trio.lowlevel.checkpoint_if_cancelled()
            value = self.receive_nowait()
            await trio.lowlevel.cancel_shielded_checkpoint()
            return value
        received = await trio.lowlevel.wait_task_rescheduled(self._in_line(deadlines, due))
        if received is _TIMED_OUT:
            return None
        deadlines.disarm(trio.lowlevel.current_task())
        return received  # type: ignore[no-any-return]  # one of the values sent

    def _in_line(self, deadlines: Deadlines | None, due: float
                 ) -> Callable[[trio.lowlevel.RaiseCancelT], trio.lowlevel.Abort]:
        """Put the current task in line for the next message (``deadlines``: until ``due`` at
        the latest, when it is woken with ``_TIMED_OUT``); what takes it out of line if its wait
        is cancelled. A helper, not a coroutine: one more frame in every wait costs about 1% of
        a decision through the actors."""
        task = trio.lowlevel.current_task()
        if self._receivers is None:
            self._receivers = []
        self._receivers.append(task)
        if deadlines is not None:
            deadlines.arm(task, due, self)

        def abort(_: trio.lowlevel.RaiseCancelT) -> trio.lowlevel.Abort:
            assert self._receivers is not None
            self._receivers.remove(task)
            if deadlines is not None:
                deadlines.disarm(task)
            return trio.lowlevel.Abort.SUCCEEDED

        return abort

    def expire(self, task: trio.lowlevel.Task) -> None:
        """``task``'s deadline has come (``receive_before``): wake it with none if it still
        waits (a sender may have woken it with a message already)."""
        receivers = self._receivers
        if receivers and task in receivers:
            receivers.remove(task)
            trio.lowlevel.reschedule(task, outcome.Value(_TIMED_OUT))

    def takes_now(self) -> bool:
        """Whether a send now would not wait: a receiver waits, or the slot is empty (what
        ``statistics()`` tells, without making them)."""
        return bool(self._receivers) or self._item is _EMPTY

    def statistics(self) -> MailboxStatistics:
        """How full the slot is, and who waits on it."""
        return _STATISTICS(0 if self._item is _EMPTY else 1, 1, len(self._senders or ()),
                           len(self._receivers or ()))
