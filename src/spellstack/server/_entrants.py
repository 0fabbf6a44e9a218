"""Remote entrants: a tournament's entrants played by clients that connect to its server, each
with an entrant token, and are seated game by game (``EntrantLobby``).

An entrant's client says ``JoinEntrant`` with its token (answered by ``Entered``), then
``NextGame`` whenever it is ready for a game. The tournament plays its games as it plays any
(``spellstack.tournament``): each seat of a remote entrant is a ``RemoteEntrant``, which for
each game makes a ``RemoteSeat`` (the same relay a ``JoinSeat`` client plays through, so the
coordinator judges and traces every answer as any player's) and seats a ready connection of the
entrant in it: ``Seated``, the game's messages, its ``GameOver``; then the client's
``NextGame`` makes the connection ready again.

One connection plays one game at a time; an entrant may hold several connections (at most
``connections``) to play several games at once. A game takes the connections of all its remote
entrants at the same moment, once each has one ready, so that no game holds one entrant's
connection while it waits for another's (two games waiting for each other's entrants would
wait for ever). A game waits for an entrant as long as one of the entrant's connections plays
another game (its games end, by their deadlines if need be); an entrant with no connection in a
game and none ready is waited for ``grace`` seconds from its last sign of life (its join, its
``NextGame``, the end of a game of its), and then forfeits the game at its start, as does every
later game of it until a connection of it is ready again. A connection lost during a game may
come back within ``grace`` (``JoinEntrant``, ``NextGame``: it is seated in that game again, with
the full view), else that game is forfeited (``lost its connection and did not come back``);
either way the entrant's other games are its own. ``Goodbye`` withdraws the entrant: its token
opens nothing more, a game under way is forfeited, and so is each later one.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import trio

from ..actors import Client, Link
from ..cards import Deck
from ..protocol import Entered, Goodbye, NextGame, decode_from_client
from ..rules import InvalidMessageError
from ..seats import SeatHello
from ._connection import CLOSE_NORMAL, CLOSE_TRY_AGAIN, Connection, ConnectionGone
from ._remote_seat import REMOTE_ENTRANT, RemoteSeat
from ._settings import DEFAULT_GRACE
from ._tokens import Grant, TokenBook

__all__ = ["ENTRANT_CONNECTIONS", "TOURNAMENT_OVER", "WITHDRAWN", "EntrantLobby", "RemoteEntrant"]

ENTRANT_CONNECTIONS = 4
"""Connections one entrant may hold at once unless told otherwise (each plays one game at a
time)."""
TOURNAMENT_OVER = "the tournament is over"
"""The close reason of an entrant's connection when its tournament has no more games."""
WITHDRAWN = "its client said goodbye: it left the tournament"
"""Why a withdrawn entrant forfeits each of its later games."""


class _Waiting:
    """A connection of an entrant, ready for a game (it said ``NextGame``)."""

    __slots__ = ("conn", "given", "seat")

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        """The connection."""
        self.seat: RemoteSeat | None = None
        """The seat it is given (None, once given: the tournament is over)."""
        self.given = trio.Event()
        """Set once it is given a seat, or the tournament is over."""

    def give(self, seat: RemoteSeat | None) -> None:
        self.seat = seat
        self.given.set()


class _Booking:
    """The connections one game takes, one per remote entrant, all at once."""

    __slots__ = ("done", "entrants", "left", "places", "reasons")

    def __init__(self, entrants: list[RemoteEntrant]) -> None:
        self.entrants = entrants
        """The game's remote entrants."""
        self.places: dict[str, _Waiting] = {}
        """The connection taken for each entrant that has one."""
        self.reasons: dict[str, str] = {}
        """Why each other entrant forfeits the game."""
        self.left = len(entrants)
        """Seats that have not yet taken their place."""
        self.done = trio.Event()
        """Set once the connections are taken (or the taking was cancelled)."""


class RemoteEntrant:
    """One remote entrant of a tournament: its token, its connections, and the seat it plays in
    each game (a ``Seat``: the tournament's ``Contestant.bot``)."""

    def __init__(self, lobby: EntrantLobby, name: str, deck: str, token: str) -> None:
        self.lobby = lobby
        """The lobby it waits in."""
        self.name = name
        """Its name in the tournament."""
        self.deck = deck
        """Its deck's name."""
        self.token = token
        """The secret its client joins with (``JoinEntrant``): for the operator to hand to the
        entrant's author, never to print in a log."""
        self.open: set[Connection] = set()
        """Its connections now (joined, not closed)."""
        self.playing = 0
        """Of those, the connections a game has taken (in it, or on their way)."""
        self.ready: list[_Waiting] = []
        """Of those, the connections ready for a game, in the order they said so."""
        self.last_seen: float | None = None
        """When it last showed life (a join, a ``NextGame``, the end of a game of its); None:
        not yet waited for."""
        self.withdrawn = False
        """Its client said goodbye: it forfeits every later game."""
        self.seats: dict[str, RemoteSeat] = {}
        """Its games under way, by id."""

    def __repr__(self) -> str:  # never the token
        return f"RemoteEntrant({self.name!r})"

    def player(self, hello: SeatHello) -> Client:
        """What plays the entrant's seat in the game ``hello`` describes (``Seat``): a relay
        to the connection of the entrant the game takes, once it has taken one."""
        lobby = self.lobby
        seat = RemoteSeat(hello, lobby.grace, lobby.after_game, entrant=True)

        async def play(link: Link, ready: Callable[[], None]) -> None:
            self.seats[hello.game] = seat
            try:
                await lobby.place(self, seat)
                await seat.play(link, ready)
            finally:
                self.seats.pop(hello.game, None)
                lobby.signal()

        return Client(play, starts=True, entrant=REMOTE_ENTRANT)

    def stray(self) -> RemoteSeat | None:
        """A game of its that lost its connection and waits for it to come back, if any."""
        return next((seat for seat in self.seats.values() if seat.away), None)


class EntrantLobby:
    """The remote entrants of a tournament played on a server (``GameServer(lobby=...)``):
    their tokens, their connections, and each game's seats for them."""

    def __init__(self, *, grace: float = DEFAULT_GRACE, after_game: float = 2.0,
                 connections: int = ENTRANT_CONNECTIONS) -> None:
        if not grace > 0:
            raise ValueError(f"grace {grace}: must be more than 0 seconds")
        if connections < 1:
            raise ValueError(f"connections {connections}: at least 1")
        self.grace = grace
        """Seconds a game waits for an entrant that shows no life, and a lost connection has
        to come back to its game."""
        self.after_game = after_game
        """Seconds a connection has after its ``GameOver`` to say ``NextGame`` (else it is
        ready again only once it says so)."""
        self.connections = connections
        """Connections one entrant may hold at once."""
        self.entrants: dict[str, RemoteEntrant] = {}
        """The remote entrants, by name."""
        self.closed = False
        """The tournament is over: no connection is seated any more."""
        self._tokens = TokenBook()
        self._bookings: dict[str, _Booking] = {}
        self._changed = trio.Event()

    def add(self, name: str, deck: Deck) -> RemoteEntrant:
        """A new remote entrant, with a fresh token (``parse_entrant``'s ``remote``).

        Raises:
            ValueError: An entrant of that name is here already.
        """
        if name in self.entrants:
            raise ValueError(f"entrant {name!r}: there is one of that name already")
        entrant = RemoteEntrant(self, name, deck.name, "")
        entrant.token = self._tokens.issue(Grant(name, "entrant"))
        self.entrants[name] = entrant
        return entrant

    def find(self, token: str) -> RemoteEntrant | None:
        """The entrant ``token`` opens (None: none, or it withdrew, or the tournament is over)."""
        grant = self._tokens.find(token)
        entrant = None if grant is None or self.closed else self.entrants.get(grant.game)
        return None if entrant is None or entrant.withdrawn else entrant

    async def close(self) -> None:
        """The tournament is over: no token opens anything any more, and every entrant's
        connection is closed (``TOURNAMENT_OVER``)."""
        self.closed = True
        for entrant in self.entrants.values():
            for waiting in entrant.ready:
                waiting.give(None)
            entrant.ready.clear()
            self._tokens.revoke(entrant.token)
        self.signal()
        async with trio.open_nursery() as nursery:
            for entrant in self.entrants.values():
                for conn in entrant.open:
                    nursery.start_soon(conn.close, CLOSE_NORMAL, TOURNAMENT_OVER)

    async def all_ready(self) -> None:
        """Wait until every entrant has a connection ready for a game (to start a tournament
        once its remote entrants are all there)."""
        while not all(entrant.ready for entrant in self.entrants.values()):
            await self._changed.wait()

    def signal(self) -> None:
        """Wake the games waiting for connections: an entrant's connections changed."""
        self._changed.set()
        self._changed = trio.Event()

    # ------------------------------------------------------------------ the games' side

    async def place(self, entrant: RemoteEntrant, seat: RemoteSeat) -> None:
        """Give ``seat`` (``entrant``'s in its game) a connection of the entrant, taken for its
        game at the same moment as its other remote entrants' (the first of the game's seats to
        come takes them all); or, if the entrant is not there, make it leave the game."""
        game = seat.hello.game
        booking = self._bookings.get(game)
        first = booking is None
        if booking is None:
            booking = self._bookings[game] = _Booking(
                [self.entrants[name] for name in seat.hello.players if name in self.entrants])
        try:
            if first:
                try:
                    await self._take(booking)
                finally:
                    booking.done.set()
            else:
                await booking.done.wait()
            place = booking.places.pop(entrant.name, None)
            if place is not None:
                place.give(seat)
            else:
                seat.leave(booking.reasons.get(entrant.name, WITHDRAWN))
        finally:
            unused = booking.places.pop(entrant.name, None)  # cancelled before it took its place
            if unused is not None:
                entrant.playing -= 1
                entrant.ready.insert(0, unused)
                self.signal()
            booking.left -= 1
            if booking.left <= 0:
                self._bookings.pop(game, None)

    async def _take(self, booking: _Booking) -> None:
        """Wait until each of the game's entrants has a connection ready, or is not there (it
        withdrew, or showed no life for ``grace`` seconds with no game under way); then take
        them all."""
        while True:
            now = trio.current_time()
            wake = math.inf
            can = True
            for entrant in booking.entrants:
                if entrant.last_seen is None:
                    entrant.last_seen = now
                if entrant.withdrawn or entrant.ready or self.closed:
                    continue
                if entrant.playing:
                    can = False  # its game ends, by its deadlines if need be
                    continue
                due = entrant.last_seen + self.grace
                if now < due:
                    can = False
                    wake = min(wake, due)
            if can:
                for entrant in booking.entrants:
                    if entrant.ready and not entrant.withdrawn and not self.closed:
                        booking.places[entrant.name] = entrant.ready.pop(0)
                        entrant.playing += 1  # from now: another game waits for it, as for a game
                    elif entrant.withdrawn:
                        booking.reasons[entrant.name] = WITHDRAWN
                    else:
                        booking.reasons[entrant.name] = (f"no client of its was ready for the game within "
                                                         f"{self.grace:g} s")
                return
            changed = self._changed
            with trio.move_on_at(wake):
                await changed.wait()

    # ------------------------------------------------------------------ the clients' side

    async def serve(self, entrant: RemoteEntrant, conn: Connection) -> None:
        """Play ``entrant``'s games over ``conn`` (it joined with the entrant's token) until the
        connection ends or the tournament is over."""
        if len(entrant.open) >= self.connections:
            await conn.refuse(f"this entrant has {self.connections} connections, its limit", CLOSE_TRY_AGAIN)
            return
        entrant.open.add(conn)
        entrant.last_seen = trio.current_time()
        self.signal()
        try:
            await conn.tell(Entered(entrant.name, entrant.deck))
            ready = False
            while True:
                if not ready:
                    said = await self._next_game(conn)
                    if said != "next":
                        await self._end(entrant, conn, said)
                        return
                entrant.last_seen = trio.current_time()
                seat = entrant.stray()
                if seat is not None:
                    entrant.playing += 1
                else:
                    seat, said = await self._wait_for_game(entrant, conn)  # counted as playing
                    if seat is None:
                        await self._end(entrant, conn, said)
                        return
                try:
                    outcome = await seat.attach(conn)
                finally:
                    entrant.playing -= 1
                    entrant.last_seen = trio.current_time()
                    self.signal()
                if outcome in ("next", "over"):
                    ready = outcome == "next"
                    continue
                await self._end(entrant, conn, outcome)
                return
        except ConnectionGone:
            pass
        finally:
            entrant.open.discard(conn)
            self.signal()

    async def _end(self, entrant: RemoteEntrant, conn: Connection, said: str) -> None:
        """End the connection as ``said`` says: ``closed`` (it is), ``goodbye`` (the entrant
        withdraws), ``over`` (the tournament is), ``replaced`` or a refusal's reason."""
        if said == "closed":
            return
        if said == "goodbye":
            entrant.withdrawn = True
            self._tokens.revoke(entrant.token)
            for waiting in entrant.ready:
                waiting.give(None)
            entrant.ready.clear()
            self.signal()
            await conn.close(CLOSE_NORMAL, "goodbye")
        elif said == "over":
            await conn.close(CLOSE_NORMAL, TOURNAMENT_OVER)
        elif said == "replaced":
            await conn.refuse("another connection of this entrant came back to its game")
        elif said == "refused":
            await conn.refuse("a seated entrant sends the player's messages, Resync, NextGame after its "
                              "GameOver, or Goodbye")
        else:
            await conn.refuse(said)

    async def _next_game(self, conn: Connection) -> str:
        """Read the client's ``NextGame`` (``next``); or ``goodbye``, ``closed``, ``over``, or
        a refusal's reason for anything else."""
        while True:
            if self.closed:
                return "over"
            try:
                data = await conn.receive()
            except ConnectionGone:
                return "closed"
            try:
                msg = decode_from_client(data)
            except InvalidMessageError as err:
                return str(err)
            if isinstance(msg, NextGame):
                return "next"
            if isinstance(msg, Goodbye):
                return "goodbye"
            return f"an entrant between games sends NextGame or Goodbye, not {msg.KIND}"

    async def _wait_for_game(self, entrant: RemoteEntrant, conn: Connection) -> tuple[RemoteSeat | None, str]:
        """Wait, ready, for a game to take the connection: its seat; or None and why not
        (``over``, ``closed``, ``goodbye``, or a refusal's reason: the client may send nothing
        but ``Goodbye`` while it waits)."""
        if self.closed:
            return None, "over"
        waiting = _Waiting(conn)
        entrant.ready.append(waiting)
        self.signal()
        said = "over"
        try:
            async with trio.open_nursery() as nursery:

                async def listen() -> None:
                    nonlocal said
                    got = await self._next_game(conn)
                    said = "NextGame twice: wait for Seated" if got == "next" else got
                    nursery.cancel_scope.cancel()

                nursery.start_soon(listen)
                await waiting.given.wait()
                nursery.cancel_scope.cancel()
        finally:
            if waiting in entrant.ready:
                entrant.ready.remove(waiting)
                self.signal()
        if waiting.seat is not None:
            return waiting.seat, ""
        return None, said
