"""The wire: every message of one game is encoded, numbered, copied to the tracer, and sent."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import trio
from outcome import Value
from trio.lowlevel import (
    Abort,
    Task,
    cancel_shielded_checkpoint,
    checkpoint_if_cancelled,
    current_task,
    reschedule,
    wait_task_rescheduled,
)

from ..protocol import Message, decode, decode_trusted, encode

__all__ = ["Link", "TraceRecord", "Wire"]


@dataclass(frozen=True, slots=True)
class TraceRecord:
    """One message as the tracer receives it."""

    game: str
    """The game's id."""
    seq: int
    """Its number within the game, given when it was sent."""
    sender: str
    """The sending actor (``coordinator``, ``stack``, ``sba``, ``player:NAME``)."""
    receiver: str
    """The receiving actor."""
    kind: str
    """The message kind."""
    data: bytes
    """The encoded message, exactly as it crossed the channel."""


class Wire:
    """Numbers a game's messages as they are sent. Only one message per game is in flight at a
    time, so the numbering never depends on how trio schedules tasks."""

    def __init__(self, game_id: str, trace: trio.MemorySendChannel[TraceRecord] | None) -> None:
        self.game_id = game_id
        self.seq = 0
        """Numbers given so far (messages and trace-only coordinator events)."""
        self.sent = 0
        """Messages that crossed a channel."""
        self.trace = trace

    def note(self, sender: str, msg: Message) -> None:
        """A trace-only record (it crosses no channel): numbered always, encoded only when
        tracing, so numbering is the same with and without a tracer."""
        if self.trace is None:
            self.seq += 1
        else:
            self.record(sender, "tracer", msg)

    def record(self, sender: str, receiver: str, msg: Message) -> bytes:
        """Encode and number a message, copying it to the tracer."""
        data = encode(msg)
        self.seq += 1
        if self.trace is not None:
            try:
                self.trace.send_nowait(
                    TraceRecord(self.game_id, self.seq, sender, receiver, msg.KIND, data))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                # The tracer has stopped: its failure ends the game where the tracer ran;
                # until then the game goes on untraced instead of failing a second time here.
                self.trace = None
        return data


class _Box:
    """A one-message mailbox from one of the engine's own actors to another (one task sends,
    one receives): a memory channel of buffer size 1 without what trio's channels keep for
    many senders, clones and closing (about 1.8 kB each; a game has four such channels).

    It waits, wakes and checkpoints as a trio channel does: a send or receive that need not
    wait is still a checkpoint, and one that waits can be cancelled until it is woken."""

    __slots__ = ("_data", "_full", "_receiver", "_sender")

    def __init__(self) -> None:
        self._data = b""
        self._full = False
        self._receiver: Task | None = None
        self._sender: Task | None = None

    async def send(self, data: bytes) -> None:
        """Put ``data`` in the box, first waiting while the previous message is still there."""
        await checkpoint_if_cancelled()
        if self._full:
            if self._sender is not None:
                raise RuntimeError("a second task sends on a one-sender mailbox")
            self._sender = current_task()

            def abort(_: Any) -> Abort:
                self._sender = None
                return Abort.SUCCEEDED

            await wait_task_rescheduled(abort)
            self._deliver(data)
            return
        self._deliver(data)
        await cancel_shielded_checkpoint()

    def _deliver(self, data: bytes) -> None:
        receiver = self._receiver
        if receiver is not None:
            self._receiver = None
            reschedule(receiver, Value(data))
        else:
            self._data, self._full = data, True

    async def receive(self) -> bytes:
        """Take the message in the box, first waiting for one."""
        await checkpoint_if_cancelled()
        if self._full:
            data = self._take()
            await cancel_shielded_checkpoint()
            return data
        if self._receiver is not None:
            raise RuntimeError("a second task receives on a one-receiver mailbox")
        self._receiver = current_task()

        def abort(_: Any) -> Abort:
            self._receiver = None
            return Abort.SUCCEEDED

        data = await wait_task_rescheduled(abort)
        assert isinstance(data, bytes)
        return data

    def _take(self) -> bytes:
        data, self._data, self._full = self._data, b"", False
        sender = self._sender
        if sender is not None:
            self._sender = None
            reschedule(sender)
        return data


# What a link between two of the engine's own actors holds in place of trio channels: closed,
# so that anything using them directly fails at once rather than waiting for ever.
_NO_OUT, _NO_IN = trio.open_memory_channel[bytes](0)
_NO_OUT.close()
_NO_IN.close()


@dataclass(slots=True)
class Link:
    """One actor's end of a two-way connection with another actor."""

    wire: Wire
    """The game's wire."""
    me: str
    """This end's actor name."""
    peer: str
    """The other end's actor name."""
    out: trio.MemorySendChannel[bytes]
    """Where this end sends (closed placeholders when ``box_out`` is set)."""
    inbox: trio.MemoryReceiveChannel[bytes]
    """Where this end receives (closed placeholders when ``box_in`` is set)."""
    trusted: bool = False
    """Both ends are the engine's own actors (no player): what arrives was encoded by this
    program and is decoded without validation. Bytes from a player are always validated."""
    box_out: _Box | None = None
    """Between two of the engine's own actors: where this end sends, instead of ``out``."""
    box_in: _Box | None = None
    """Between two of the engine's own actors: where this end receives, instead of ``inbox``."""

    async def send(self, msg: Message) -> None:
        """Encode, number, trace, send."""
        await self.send_bytes(self.wire.record(self.me, self.peer, msg))

    async def send_bytes(self, data: bytes) -> None:
        """Send an already recorded message."""
        self.wire.sent += 1
        if self.box_out is not None:
            await self.box_out.send(data)
        else:
            await self.out.send(data)

    async def receive_bytes(self) -> bytes:
        """The next raw message."""
        if self.box_in is not None:
            return await self.box_in.receive()
        return await self.inbox.receive()

    async def receive(self) -> Message:
        """The next message, decoded (InvalidMessageError if malformed)."""
        if self.box_in is not None:
            data = await self.box_in.receive()
        else:
            data = await self.inbox.receive()
        return decode_trusted(data) if self.trusted else decode(data)

    @classmethod
    def pair(cls, wire: Wire, a: str, b: str) -> tuple[Link, Link]:
        """Two connected ends; trusted when neither is a player (``player:NAME``). A player's
        link is a pair of trio memory channels of buffer size 1; a trusted one is a pair of
        lighter mailboxes that behave the same (``_Box``)."""
        if not (a.startswith("player:") or b.startswith("player:")):
            to_b, to_a = _Box(), _Box()
            return (cls(wire, a, b, _NO_OUT, _NO_IN, True, to_b, to_a),
                    cls(wire, b, a, _NO_OUT, _NO_IN, True, to_a, to_b))
        a_out, b_in = trio.open_memory_channel[bytes](1)
        b_out, a_in = trio.open_memory_channel[bytes](1)
        return cls(wire, a, b, a_out, a_in), cls(wire, b, a, b_out, b_in)
