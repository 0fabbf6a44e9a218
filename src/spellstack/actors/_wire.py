"""The wire: every message of one game is encoded, numbered, copied to the tracer, and sent."""

from __future__ import annotations

from dataclasses import dataclass, field

import trio

from ..protocol import GameEvent, Message, decode, decode_trusted, encode
from ..rules import Game
from ._deadlines import Deadlines
from ._lag import HeldTime
from ._mailbox import Mailbox, ReceiveEnd, SendEnd

_checkpoint_if_cancelled = trio.lowlevel.checkpoint_if_cancelled

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
    """The encoded message, exactly as it crossed the channel. For a trace-only record
    (``message``): empty, or, for a ``malformed`` event, the bytes the player sent that could
    not be read (what crossed the channel, kept so that a replay can send them again)."""
    message: Message | None = None
    """A trace-only record (a ``GameEvent``), which crosses no channel: the object itself,
    never encoded, which the tracer writes as ``to_plain`` gives it."""
    left: bool = False
    """Sent by a seat that had left the game (forfeited, conceded, out of time), so held and
    numbered after the game's last message (``Wire.leave``)."""

    def decoded(self) -> Message:
        """The message: the trace-only record, or the crossed message decoded."""
        return self.message if self.message is not None else decode_trusted(self.data)


class Wire:
    """Numbers a game's messages as they are sent. Only one message per game is in flight at a
    time, so the numbering never depends on how trio schedules tasks. A seat that has left the
    game is read no more, so what it still sends (a reply on its way when its time ran out)
    would be a second message in flight: it is numbered after the game's last message instead
    (``leave``), where its place never depends on when it came."""

    def __init__(self, game_id: str, trace: trio.MemorySendChannel[TraceRecord] | None) -> None:
        self.game_id = game_id
        self.seq = 0
        """Numbers given so far: every message sent and, when traced, every trace-only
        coordinator event. The trace's own counter: no seat is ever sent it."""
        self.sent = 0
        """Messages that crossed a channel."""
        self.trace = trace
        self.game: Game | None = None
        """The game whose kernel events the trace records (``Game.trace_log``), if traced."""
        self._left: dict[str, list[tuple[str, str, bytes]]] = {}
        """Each actor that has left the game (``leave``), in the order they left, with what it
        sent since, unnumbered: (receiver, kind, encoded message)."""

    def leave(self, actor: str) -> None:
        """``actor`` (a seat's player) has left the game: nothing it sends is read any more.
        What it still sends is held, unnumbered, until the game is over (``flush_left``): it
        is no part of the game's one message in flight, and numbering it when it came would
        make its place in the trace depend on when that was (a reply on its way when the
        coordinator declared its seat out of time)."""
        self._left.setdefault(actor, [])

    def flush_left(self) -> None:
        """The game is over and its players are done: number what the actors that left sent
        since, after everything else, actor by actor in the order they left, each's in the
        order it sent them. What they send from now on is never numbered."""
        for sender, held in self._left.items():
            for receiver, kind, data in held:
                self._number(sender, receiver, kind, data, left=True)
            held.clear()

    def note(self, sender: str, msg: Message, data: bytes = b"") -> None:
        """A trace-only record (it crosses no channel): numbered and handed to the tracer as it
        is (not encoded) when tracing, after the kernel's events logged before it; nothing at
        all without a tracer. ``data``: the unreadable bytes a ``malformed`` event is about."""
        if self.trace is not None:
            if self.game is not None and self.game.trace_log:
                self.flush_events(sender)
            self._note(sender, msg, data)

    def note_event(self, game: Game, kind: str, seat: int, text: str, *, refs: tuple[int, ...] = (),
                   amount: int = 0, data: bytes = b"") -> None:
        """A coordinator event about ``game`` for the trace (``note``), stamped with its turn and
        step; nothing is built untraced. ``data``: as for ``note``."""
        if self.trace is not None:
            st = game.state
            self.note("coordinator", GameEvent(st.turn, st.step, kind, seat, text, amount=amount, refs=refs),
                      data)

    def flush_events(self, sender: str) -> None:
        """Record the kernel's events logged since the last record as ``GameEvent``s from
        ``sender`` (the actor whose work logged them), each numbered in turn."""
        game = self.game
        if game is None or self.trace is None:
            return
        for t in game.take_traced():
            ev = t.event
            self._note(sender, GameEvent(t.turn, t.step, ev.kind, ev.player, ev.text, ev.subject,
                                         ev.amount, t.refs, t.zones, ev.private_to))

    def _note(self, sender: str, msg: Message, data: bytes = b"") -> None:
        """Number a trace-only record and hand it to the tracer."""
        self.seq += 1
        if self.trace is None:
            return
        try:
            self.trace.send_nowait(TraceRecord(self.game_id, self.seq, sender, "tracer", msg.KIND, data, msg))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.trace = None  # as in ``_number``

    def record(self, sender: str, receiver: str, msg: Message) -> bytes:
        """Encode and number a message, copying it to the tracer; when traced, the kernel's
        events logged before it come first (``flush_events``). A message from an actor that
        has left the game is held instead, and numbered once the game is over (``leave``)."""
        if self._left:
            held = self._left.get(sender)
            if held is not None:
                data = encode(msg)
                held.append((receiver, msg.KIND, data))
                return data
        if self.game is not None and self.game.trace_log:
            self.flush_events(sender)
        data = encode(msg)
        if self.trace is None:
            self.seq += 1  # ``_number``'s work untraced, without its call
        else:
            self._number(sender, receiver, msg.KIND, data)
        return data

    def _number(self, sender: str, receiver: str, kind: str, data: bytes, *, left: bool = False) -> None:
        """Number an encoded message and copy it to the tracer (``left``: held till now)."""
        self.seq += 1
        if self.trace is not None:
            try:
                self.trace.send_nowait(TraceRecord(self.game_id, self.seq, sender, receiver, kind, data,
                                                   left=left))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                # The tracer has stopped: its failure ends the game where the tracer ran;
                # until then the game goes on untraced instead of failing a second time here.
                self.trace = None


@dataclass(slots=True)
class Link:
    """One actor's end of a two-way connection with another actor."""

    wire: Wire
    """The game's wire."""
    me: str
    """This end's actor name."""
    peer: str
    """The other end's actor name."""
    out: SendEnd[bytes]
    """Where this end sends: a ``Mailbox`` (``pair``) or a trio memory channel."""
    inbox: ReceiveEnd[bytes]
    """Where this end receives: a ``Mailbox`` (``pair``) or a trio memory channel."""
    trusted: bool = False
    """The peer is one of the engine's own actors (the coordinator, the stack actor, the SBA
    checker), never a player: what arrives was encoded by this program and is decoded without
    validation. Bytes from a player are always validated."""
    held: HeldTime = field(default_factory=HeldTime)
    """The time the player at one end held the event loop, charged by its player actor and
    read by the coordinator (``Link.pair`` gives both ends the same one)."""

    async def send(self, msg: Message) -> None:
        """Encode, number, trace, send (``send_bytes``)."""
        wire = self.wire
        data = wire.record(self.me, self.peer, msg)
        if type(self).send_bytes is not _SEND_BYTES:  # a link class that sends in its own way
            await self.send_bytes(data)
            return
        # ``send_bytes`` written out: one coroutine fewer at every message.
        wire.sent += 1
        await _checkpoint_if_cancelled()
        try:
            self.out.send_nowait(data)
        except trio.WouldBlock:
            await self.out.send(data)

    async def send_bytes(self, data: bytes) -> None:
        """Send an already recorded message.

        A send the channel takes at once (its reader waits, or there is room) hands the
        message over without a scheduling round: trio's ``send`` would yield to the scheduler
        after it, which is one more task switch per message and buys nothing here, since the
        sender always waits for its peer soon after. A cancelled scope still stops the send
        (``checkpoint_if_cancelled``), and a send that must wait waits as ``send`` does."""
        self.wire.sent += 1
        await _checkpoint_if_cancelled()
        try:
            self.out.send_nowait(data)
        except trio.WouldBlock:
            await self.out.send(data)

    async def receive_bytes(self) -> bytes:
        """The next raw message."""
        return await self.inbox.receive()

    async def receive_bytes_before(self, due: float, deadlines: Deadlines) -> bytes | None:
        """The next raw message, or None if ``due`` (a ``trio.current_time()``) comes first: a
        mailbox's wait is ended by ``deadlines`` (``Mailbox.receive_before``), any other wait
        (another channel, or a link class that reads in its own way: a probe, a test's watcher)
        by a cancel scope around ``receive_bytes``."""
        inbox = self.inbox
        if isinstance(inbox, Mailbox) and type(self).receive_bytes is _RECEIVE_BYTES:
            return await inbox.receive_before(due, deadlines)
        with trio.move_on_at(due):
            return await self.receive_bytes()
        return None

    def receive_waiting(self) -> bytes | None:
        """The next raw message if one is waiting already (None: none), without waiting."""
        try:
            return self.inbox.receive_nowait()
        except trio.WouldBlock:
            return None

    async def receive(self) -> Message:
        """The next message, decoded (InvalidMessageError if malformed)."""
        data = await self.inbox.receive()
        return decode_trusted(data) if self.trusted else decode(data)

    @classmethod
    def pair(cls, wire: Wire, a: str, b: str) -> tuple[Link, Link]:
        """Two connected ends; each trusts what it receives unless its peer is a player
        (``player:NAME``): a player actor's end trusts the coordinator, the coordinator's end
        validates everything from the player."""
        a_to_b, b_to_a = Mailbox[bytes](), Mailbox[bytes]()
        held = HeldTime()
        return (cls(wire, a, b, a_to_b, b_to_a, not b.startswith("player:"), held),
                cls(wire, b, a, b_to_a, a_to_b, not a.startswith("player:"), held))


_SEND_BYTES = Link.send_bytes
"""``Link``'s own send, which ``send`` does in place unless a link class has its own."""
_RECEIVE_BYTES = Link.receive_bytes
"""``Link``'s own read, which ``receive_bytes_before`` may do without a cancel scope."""
