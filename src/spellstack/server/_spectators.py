"""The spectator feed: what a game's spectators see, its public events as they happen.

A spectator is no player: it sees what every player may see and nothing more (400.2), as a
viewer who is no seat of the game would. The feed is handed every record of the game's trace
(``actors.TraceSink``), the kernel's events included, and keeps the events private to no seat
(``GameEvent.private_to`` empty: an event naming a card hidden from some seat is private to the
seats that may see it), without the engine's own bookkeeping of who was asked what
(``NOT_WATCHED``: whether a seat was asked, or passed by the engine because it could only pass,
depends on the cards in its hand). Every spectator gets every public event from the start, in
batches (``Watched``), then the game's ``GameOver``; the events are the same, in the same order,
whatever hidden cards the players hold, until a card becomes public.
"""

from __future__ import annotations

import trio

from ..actors import TraceRecord
from ..protocol import (
    GameEvent,
    GameOver,
    Goodbye,
    Resync,
    Watched,
    Watching,
    decode_from_client,
    encode,
)
from ..rules import InvalidMessageError
from ._connection import Connection, ConnectionGone

__all__ = ["BATCH_EVENTS", "NOT_WATCHED", "SpectatorFeed", "WatchOutcome"]

NOT_WATCHED = frozenset({"priority", "pass", "auto_pass", "refused", "malformed"})
"""Event kinds a spectator is not sent: who was asked, who passed by their own answer or was
passed for, what the engine refused of a seat."""
BATCH_EVENTS = 256
"""The most events in one ``Watched`` (a frame stays far below the message limit)."""

WatchOutcome = str
"""How a spectator's watch ended: ``over``, ``goodbye``, ``closed``, or a refusal's reason."""


class _Place:
    """One spectator's place in the feed."""

    __slots__ = ("sent",)

    def __init__(self) -> None:
        self.sent = 0
        """Public events sent to it so far."""


class SpectatorFeed:
    """One game's public events, for its spectators (``watch``)."""

    def __init__(self, game: str, players: tuple[str, ...]) -> None:
        self.game = game
        """The game's id."""
        self.players = players
        """Its players' names, by seat."""
        self.events: list[GameEvent] = []
        """Its public events so far."""
        self.over: GameOver | None = None
        """Its end, once it is over."""
        self.watchers = 0
        """Spectators watching now."""
        self._more = trio.Event()

    def message(self, rec: TraceRecord) -> None:
        """Keep a traced record if it is a public event (``TraceSink``)."""
        msg = rec.message
        if type(msg) is GameEvent and not msg.private_to and msg.kind not in NOT_WATCHED:
            self.events.append(msg)
            self._wake()

    def finish(self, over: GameOver) -> None:
        """The game is over: spectators are sent ``over`` after its last events."""
        self.over = over
        self._wake()

    def _wake(self) -> None:
        self._more.set()
        self._more = trio.Event()

    async def watch(self, conn: Connection) -> WatchOutcome:
        """Send ``conn`` the feed, from the start, until the game is over (then its
        ``GameOver``); it may ask for it all again (``Resync``) or leave (``Goodbye``);
        anything else it sends is refused. Returns how the watch ended."""
        self.watchers += 1
        place = _Place()
        outcome: WatchOutcome = "over"
        try:
            await conn.tell(Watching(self.game, self.players))
            async with trio.open_nursery() as nursery:

                async def listen() -> None:
                    nonlocal outcome
                    outcome = await self._listen(conn, place)
                    nursery.cancel_scope.cancel()

                nursery.start_soon(listen)
                await self._send(conn, place)
                nursery.cancel_scope.cancel()
        except ConnectionGone:
            outcome = "closed"
        finally:
            self.watchers -= 1
        return outcome

    async def _send(self, conn: Connection, place: _Place) -> None:
        """Every public event not sent yet, in batches, as they come; then the end."""
        while True:
            events = self.events
            if place.sent < len(events):
                batch = tuple(events[place.sent:place.sent + BATCH_EVENTS])
                first = place.sent
                place.sent += len(batch)
                await conn.tell(Watched(first, batch))
                continue
            if self.over is not None:
                await conn.send(encode(self.over))
                return
            await self._more.wait()

    async def _listen(self, conn: Connection, place: _Place) -> WatchOutcome:
        """What the spectator sends: ``Resync`` starts its feed again, ``Goodbye`` ends the
        watch; anything else is refused (a spectator never acts)."""
        while True:
            try:
                data = await conn.receive()
            except ConnectionGone:
                return "closed"
            try:
                msg = decode_from_client(data)
            except InvalidMessageError as err:
                return f"a spectator sends Resync or Goodbye only: {err}"
            if isinstance(msg, Goodbye):
                return "goodbye"
            if not isinstance(msg, Resync):
                return f"a spectator sends Resync or Goodbye only, not {msg.KIND}"
            place.sent = 0
            self._wake()
