"""``RemoteSeat``: a seat played by a client over a WebSocket connection, one more kind of seat.

The seat is a ``Client`` of its game (``actors.Client``), a relay as thin as a bot process's:
every message the coordinator sends the seat goes to the client as it is (its bytes, one
binary frame each), and every message the client sends is decoded and passed on, so that the
coordinator judges it as it judges any player's message (malformed messages, illegal actions,
decision ids not pending, deadlines and clocks are the coordinator's to count) and the trace
holds it as it holds any player's. The game runs exactly as with seats in the engine's process.

Connections come and go; the seat stays. A client joins with the seat's token (``attach``);
the game waits for every remote seat's first join, at most ``grace`` seconds, as it waits for
a bot process to start (``Client.starts``: no deadline pays for it). A client that disconnects
may join again within ``grace`` seconds, the game's deadlines and clocks running meanwhile, and
is sent what it needs to go on (``resync``): the request still waiting for its answer, with the
full view. A newer connection with the token takes the seat from an older one. The seat
forfeits when no client joins in time, when its client is away longer than ``grace``, or when
it says ``Goodbye`` before its game is over. What its clients may send is the seat's own
allowance (``MessageRate``), whichever connection plays it: one answer per request it is sent,
and a few messages a second more; a connection closed for a fault (a flood, a slow reader) is
named in the seat's forfeit if no client comes back.

A tournament entrant's seat (``entrant``) is played by a connection that goes on to its next
game: after its ``GameOver`` the client's ``NextGame`` ends its turn at the seat, and what it
sends before that is dropped (it answers a game that is over). A seat that forfeited is sent
no ``GameOver`` by the coordinator: its client is told ``Unseated`` instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Literal

import msgpack  # type: ignore[import-untyped]  # ships no type information
import trio

from ..actors import Client, Link
from ..protocol import (
    Concede,
    DecisionRequest,
    Forfeit,
    Goodbye,
    NextGame,
    PriorityRequest,
    RequestFullView,
    Resync,
    Seated,
    SetStops,
    SubmitAction,
    SubmitAnswer,
    Unseated,
    decode_from_client,
    decode_trusted,
)
from ..rules import InvalidMessageError
from ..seats import SeatHello
from ._connection import Connection, ConnectionGone
from ._rate import MessageRate
from ._settings import DEFAULT_MESSAGES_PER_SECOND

__all__ = ["REMOTE_ENTRANT", "Outcome", "RemoteSeat"]

REMOTE_ENTRANT = "remote client"
"""Who plays a remote seat, for the trace's header (the server can't know what program it is)."""

Outcome = Literal["goodbye", "closed", "replaced", "over", "refused", "next"]
"""How one connection's turn at a seat ended: the client said goodbye; the connection closed;
a newer connection took the seat; the seat's game is over for it; the client sent a session
message out of place; (an entrant's seat) the game is over and the client is ready for its
next (``NextGame``)."""


def _kind_prefix(kind: str) -> bytes:
    """How the engine's encoding of a message of ``kind`` begins (a map of three, its kind
    first): a request or the game's end is told from the bytes, without decoding them."""
    prefix: bytes = b"\x83" + msgpack.packb("k") + msgpack.packb(kind)
    return prefix


_REQUESTS = (_kind_prefix(PriorityRequest.KIND), _kind_prefix(DecisionRequest.KIND))
_GAME_OVER = _kind_prefix("GameOver")
_ANSWERS = (SubmitAction, SubmitAnswer, Forfeit, Concede)
"""What a client sends that ends its pending request."""
_PLAYER_SENDS = (*_ANSWERS, RequestFullView, SetStops)
"""What a client sends that is passed on to the coordinator (``PLAYER_KINDS``)."""


class RemoteSeat:
    """A seat of a hosted game, played by whichever connection joined last with its token."""

    def __init__(self, hello: SeatHello, grace: float, after_game: float, *, entrant: bool = False,
                 rate: MessageRate | None = None) -> None:
        self.hello = hello
        """What the seat is told of its game (``Seated``)."""
        self.entrant = entrant
        """A tournament entrant's seat: its connection goes on to the entrant's next game."""
        self.grace = grace
        """Seconds its client may be away before it forfeits."""
        self.after_game = after_game
        """Seconds a connection stays open after the seat's ``GameOver``, for its goodbye."""
        self.rate = rate if rate is not None else MessageRate(DEFAULT_MESSAGES_PER_SECOND)
        """What the seat's clients may still send (each connection that plays it is charged to it)."""
        self.ended = trio.Event()
        """Set when the seat's part of its game has ended (its game over, or the seat left)."""
        self.over = False
        """The seat was sent its ``GameOver``."""
        self.joins = 0
        """Connections that have joined the seat."""
        self.forfeited = False
        """The seat has left its game (its client said goodbye, never joined or stayed away)."""
        self._conn: Connection | None = None
        """The connection playing the seat now (it was sent its ``Seated``)."""
        self._reader: trio.CancelScope | None = None
        """The scope of the current connection's reading (cancelled when another takes over)."""
        self._changed = trio.Event()
        """Set, and replaced, whenever a connection comes or goes or the client leaves."""
        self._sending = trio.Lock()
        """Held while something is sent to the client: frames go in the order they are sent."""
        self._link: Link | None = None
        self._linked = trio.Event()
        self._pending: bytes | None = None
        """The request last sent to the seat and not answered yet, as it was sent."""
        self._full_next = False
        """The client has no view to apply the next request's delta to: ask for the full view."""
        self._leaving = ""
        """Why the client left the game (its goodbye), once it did."""
        self._game_over: bytes | None = None
        """The seat's ``GameOver``, once the coordinator has sent it."""
        self._lost = ""
        """Why the server closed the seat's last connection, if a fault of the client's did."""

    @property
    def connected(self) -> bool:
        """Whether a connection plays the seat now."""
        return self._conn is not None

    def player(self, hello: SeatHello) -> Client:
        """What plays the seat in its game (``Seat``): a relay to whichever client joins."""
        return Client(self.play, starts=True, entrant=REMOTE_ENTRANT)

    def leave(self, reason: str) -> None:
        """The seat leaves its game before a client joins it: it forfeits with ``reason`` as
        soon as the game can be told (an entrant that is away)."""
        self._leaving = reason
        self._signal()

    @property
    def away(self) -> bool:
        """A client played the seat and lost its connection; the game goes on without one (a
        connection joining now comes back to it)."""
        return self.joins > 0 and self._conn is None and not (self.ended.is_set() or self._leaving
                                                               or self.forfeited or self.over)

    # ------------------------------------------------------------------ the game's side

    async def play(self, link: Link, ready: Callable[[], None]) -> None:
        """Relay between the game and the seat's clients until the game is over for the seat
        (``Client.play``, with ``ready`` called once the first client joined or the seat gave
        up waiting)."""
        self._link = link
        self._linked.set()
        try:
            async with trio.open_nursery() as nursery:
                # Drained from the start to the game's end, whoever is connected: the
                # coordinator never waits to send to the seat, even once it has left.
                nursery.start_soon(self._from_game, link, nursery.cancel_scope)
                joined = await self._wait_for_client()
                ready()
                if not joined:
                    await self._forfeit(link, self._leaving or f"no client joined the seat within {self.grace:g} s")
                    return
                await self._stay(link)
        finally:
            # Told whatever cancelled the relay (the game's end stops its players at once), if
            # the client takes it in time.
            with trio.CancelScope(shield=True), trio.move_on_after(self.after_game):
                await self._tell_game_over(link)
                if self.entrant and self._game_over is None:
                    await self._tell_unseated()
            self.end()

    async def _stay(self, link: Link) -> None:
        """Wait while the seat is played, and for its client to come back while it is away;
        forfeit when it does not, or says goodbye first. Returns when the game is over for the
        seat or it has left."""
        while not self.over:
            if self._leaving:
                await self._forfeit(link, self._leaving)
                return
            if self._conn is None and not await self._wait_for_client():
                if not self.over:
                    lost = f" (closed for {self._lost})" if self._lost else ""
                    await self._forfeit(link, self._leaving or f"lost its connection{lost} and did not come back "
                                                               f"within {self.grace:g} s")
                return
            await self._changed.wait()

    async def _forfeit(self, link: Link, reason: str) -> None:
        """The seat leaves its game: no connection takes it any more."""
        self.forfeited = True
        self._signal()
        await link.send(Forfeit(reason))

    async def _wait_for_client(self) -> bool:
        """Wait up to ``grace`` for a connection; whether one is there (a goodbye ends the wait)."""
        with trio.move_on_after(self.grace):
            while self._conn is None and not self._leaving and not self.over:
                await self._changed.wait()
        return self._conn is not None and not self._leaving

    async def _from_game(self, link: Link, relay: trio.CancelScope) -> None:
        """Every message the coordinator sends the seat, to the client there is (none: only the
        pending request is kept). After the ``GameOver`` the relay ends."""
        while True:
            data = await link.receive_bytes()
            if data.startswith(_GAME_OVER):
                self._game_over = data
                self.over = True
                self._signal()
                relay.cancel()  # the game over is told in ``play``'s end, whatever cancels it
                return
            if data.startswith(_REQUESTS):
                if self._full_next:
                    self._full_next = False
                    request = decode_trusted(data)
                    assert isinstance(request, (PriorityRequest, DecisionRequest))
                    if request.view is None or not request.view.full:  # the client has no view to apply it to
                        self._pending = data
                        await link.send(RequestFullView(request.decision.id))
                        continue
                self._pending = data
                self.rate.owe()
            async with self._sending:
                conn = self._conn
                if conn is not None:
                    try:
                        await conn.send(data)
                    except ConnectionGone:
                        self._drop(conn)

    async def _tell_game_over(self, link: Link) -> None:
        """Pass on the seat's ``GameOver``, read by the relay or still waiting in the link (the
        game may stop its players before the relay has read it)."""
        while self._game_over is None:
            try:
                data = link.inbox.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return
            if data.startswith(_GAME_OVER):
                self._game_over = data
                self.over = True
        async with self._sending:
            conn = self._conn
            if conn is not None:
                with contextlib.suppress(ConnectionGone):
                    await conn.send(self._game_over)

    async def _tell_unseated(self) -> None:
        """An entrant's seat that forfeited gets no ``GameOver``: its client is told the game
        went on without it (``Unseated``), and may go on to its next game."""
        self.over = True
        async with self._sending:
            conn = self._conn
            if conn is not None:
                with contextlib.suppress(ConnectionGone):
                    await conn.tell(Unseated(self.hello.game))

    def end(self) -> None:
        """The seat's part of the game has ended (or its game could not be played): the
        connection reading for it has ``after_game`` seconds for its goodbye if the game is over
        for it, none otherwise."""
        self.ended.set()
        reader = self._reader
        if reader is not None:
            reader.deadline = min(reader.deadline, trio.current_time() + (self.after_game if self.over else 0))
        self._signal()

    # ------------------------------------------------------------------ the client's side

    async def attach(self, conn: Connection) -> Outcome:
        """Play the seat over ``conn`` (a client joined with its token) until the connection's
        turn at it ends; how it ended. The connection is sent ``Seated``, then whatever it needs
        to go on from where the seat is (``resync``), then the game's messages."""
        if self.ended.is_set() or self._leaving or self.forfeited:
            return "over"
        outcome: Outcome = "replaced"
        with trio.CancelScope() as scope:
            previous, self._reader = self._reader, scope
            if previous is not None:
                previous.cancel()  # the older connection's reading stops: this one takes the seat
            try:
                async with self._sending:
                    self.joins += 1
                    self._conn = conn
                    conn.rate = self.rate
                    self._signal()
                    h = self.hello
                    await conn.tell(Seated(h.game, h.seat, h.players, h.deadline, h.seed))
                    if self.joins > 1:
                        await self._resync(conn)
                outcome = await self._read(conn)
            except ConnectionGone:
                outcome = "closed"
        if scope.cancelled_caught and self.ended.is_set():
            outcome = "over"
        if self._reader is scope:
            self._reader = None
        self._drop(conn)
        return outcome

    async def _read(self, conn: Connection) -> Outcome:
        """Pass what the client sends to the coordinator, but ``Resync`` (answered here) and
        ``Goodbye`` (which ends the turn); another session message is refused. Before the game
        has started, what is to be passed on waits for it."""
        while True:
            try:
                data = await conn.receive()
            except ConnectionGone:
                return "closed"
            try:
                msg = decode_from_client(data)
            except InvalidMessageError:
                # The coordinator refuses it, saying what is wrong, as any malformed message.
                await (await self._game_link()).send_bytes(data)
                continue
            if isinstance(msg, Resync):
                async with self._sending:
                    await self._resync(conn)
                continue
            if isinstance(msg, Goodbye):
                if not self.over:
                    self._leaving = "said goodbye before the game was over"
                    self._signal()
                return "goodbye"
            if isinstance(msg, NextGame) and self.entrant and self.over:
                return "next"
            if not isinstance(msg, _PLAYER_SENDS):
                return "refused"  # a session message out of place
            if self.over and self.entrant:
                continue  # an answer to a game that is over: nobody reads it
            link = await self._game_link()
            if isinstance(msg, _ANSWERS):
                self._pending = None
            await link.send(msg)

    async def _game_link(self) -> Link:
        """The seat's link, once its game has started."""
        await self._linked.wait()
        assert self._link is not None
        return self._link

    async def _resync(self, conn: Connection) -> None:
        """Give the client what it needs to go on (``_sending`` held): the pending request
        with the full view (sent again if it had it; otherwise the seat asks the coordinator
        for it, ``RequestFullView``, and the request comes again); with nothing pending, the
        next request is asked for with the full view."""
        pending = self._pending
        if pending is None:
            self._full_next = True
            return
        request = decode_trusted(pending)
        assert isinstance(request, (PriorityRequest, DecisionRequest))
        if request.view is not None and request.view.full:
            with contextlib.suppress(ConnectionGone):
                await conn.send(pending)
            return
        assert self._link is not None
        await self._link.send(RequestFullView(request.decision.id))

    def _drop(self, conn: Connection) -> None:
        """``conn`` plays the seat no more (it closed, or another took over)."""
        if self._conn is conn:
            self._conn = None
            self._lost = conn.fault
            self._signal()

    def _signal(self) -> None:
        """Wake whoever waits for a connection to come or go."""
        self._changed.set()
        self._changed = trio.Event()
