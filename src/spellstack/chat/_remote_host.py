"""``RemoteGameHost``: a chat front end's games hosted on a spellstack server (``spellstack
serve``), with ``GameHost``'s methods, so that the front end runs either.

The host talks to the server over WebSockets (trio-websocket, in a trio run that is a guest of
the front end's asyncio loop, as ``GameHost`` runs its engine). ``create_game`` sends the game
(``CreateChat``: the seats, the decks by a built-in deck's name or by their cards, the seed)
and joins each person's seat on a connection of its own with the seat's token (``JoinChat``);
from then on each seat's texts come from its own connection (``messages``), its commands go on
it (``submit``), and its ``ChatOver`` ends it. The tokens stay in this process: a player is
never told one. A connection that is lost ends that seat's texts with a line saying so (the
server's game goes on; the seat's time limits run).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import re
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

import trio
from trio_websocket import ConnectionClosed, HandshakeError, WebSocketConnection, open_websocket_url

from ..actors import SeatConfig
from ..cards import DECKS, Deck, load_cards, load_deck
from ..protocol import (
    MAX_PLAYER_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    ChatAnswer,
    ChatCommand,
    ChatCreated,
    ChatJoined,
    ChatOver,
    ChatSeat,
    ChatText,
    CreateChat,
    EndChat,
    Goodbye,
    Hello,
    JoinChat,
    SessionError,
    SessionMessage,
    Welcome,
    decode_from_server,
    encode_session,
)
from ..rules import DEFAULT_TURN_LIMIT, InvalidMessageError
from ..seats import BUILT_IN_BOTS
from ._decks import log
from ._game_host import ChatError, GameInfo, TextHook
from ._guest import GuestRun, NotRunning
from ._seats import HUMAN_STOPS, BotSeat, HumanSeat

__all__ = ["CONNECTION_LOST", "RemoteGameHost"]

CONNECTION_LOST = "Game over: the connection to the game's server was lost."
"""A seat's last text when its connection to the server is lost."""
_OVER = "The game is over."
"""What a command gets once its seat's game is over (as ``GameHost`` answers it)."""
_STOP_WAIT = 5.0
"""Seconds ``stop`` gives the server to end each running game."""

T = TypeVar("T")


@dataclass(slots=True)
class _Seat:
    """A person's seat of a remote game, as this host holds it."""

    player: str
    """The player's name."""
    outbox: asyncio.Queue[str | None]
    """Their texts, for ``messages``; None after the last."""
    answers: deque[asyncio.Future[str]] = field(default_factory=deque)
    """The commands sent and not yet answered, in order."""
    send: trio.MemorySendChannel[bytes] | None = None
    """Frames for its connection, in order (once it is joined)."""
    over: bool = False
    """Its texts have ended (the game is over, or the connection lost)."""
    ended: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once ``over``."""


@dataclass(slots=True)
class _Game:
    """A remote game, as this host holds it."""

    info: GameInfo
    """Its entry, as ``games()`` lists it."""
    owner: str
    """The token that ends it (``EndChat``)."""
    done: asyncio.Event
    """Set once it is over."""
    seats: dict[str, _Seat] = field(default_factory=dict)
    """Its people's seats, by name."""


class RemoteGameHost:
    """Hosts games on the server at ``url`` (``ws://HOST:PORT``), with ``GameHost``'s methods:
    ``start``/``stop`` (or ``async with``), ``create_game``, ``submit``, ``concede``,
    ``messages``, ``end_game``, ``info``, ``games``, ``wait``. ``on_text``: called with every
    text a player is given, as ``GameHost`` calls it. ``timeout``: seconds for each exchange
    with the server (a connection, a created game).

    What a server can't give: ``GameInfo.result`` (a ``GameResult`` stays on the server: the
    entry's ``reason`` says how the game ended, ``winners`` who won), the game's seed (``seed``
    is the one given, or 0 when the server drew a secret one), ``player_view``, ``pending``,
    ``numbering`` and ``engine_game`` (the view and the game stay on the server: a player's
    ``view`` command shows it). A deck is a built-in deck's name or a ``Deck`` (its cards are
    sent: a path is never read), a bot a built-in bot's name with the default settings, a
    person's seat with the default stops."""

    def __init__(self, url: str, *, on_text: TextHook | None = None, timeout: float = 10.0) -> None:
        self.url = url
        """The server."""
        self.timeout = timeout
        """Seconds for each exchange with the server."""
        self.winners: dict[str, str] = {}
        """Each game's winner once it is over (empty: none), by id."""
        self._on_text = on_text
        self._guest = GuestRun()
        self._games: dict[str, _Game] = {}
        self._ids = itertools.count(1)

    # ------------------------------------------------------------ lifetime

    async def start(self) -> None:
        """Start the host (its trio run, as a guest of the running asyncio loop)."""
        if self._guest.token is not None:
            raise ChatError("the host is running already")
        await self._guest.start()

    async def stop(self) -> None:
        """End every running game on the server (its players are told), then the host."""
        if self._guest.token is None:
            return
        for game_id, game in list(self._games.items()):
            if game.info.running:
                try:
                    await asyncio.wait_for(self.end_game(game_id, "stopped: the host is shutting down"), _STOP_WAIT)
                    # Each seat's last texts (the end) come on its own connection.
                    await asyncio.wait_for(asyncio.gather(*(s.ended.wait() for s in game.seats.values())),
                                           _STOP_WAIT)
                except (ChatError, TimeoutError):
                    pass  # the server is gone: the games are over for this host anyway
        await self._guest.stop()
        for game in self._games.values():
            for seat in game.seats.values():
                self._lose(game, seat)

    async def __aenter__(self) -> RemoteGameHost:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------ games

    async def create_game(self, seats: Sequence[HumanSeat | BotSeat], decks: Sequence[str | Deck],
                          *, seed: int | None = None, game_id: str | None = None,
                          turn_limit: int = DEFAULT_TURN_LIMIT) -> str:
        """Start a game on the server, as ``GameHost.create_game`` does in process; returns
        its id in this host (``game_id``, or ``gameN``). ``ChatError`` naming what the server
        or this host refused."""
        self._require()
        if len(seats) != len(decks):
            raise ChatError(f"{len(seats)} seats but {len(decks)} decks")
        names = [s.name for s in seats]
        if len(set(names)) != len(names):
            raise ChatError("two seats have the same name")
        gid = game_id or f"game{next(self._ids)}"
        if gid in self._games:
            raise ChatError(f"a game {gid!r} exists already")
        request = CreateChat(tuple(_chat_seat(seat, deck) for seat, deck in zip(seats, decks, strict=True)),
                             seed, turn_limit)
        if len(encode_session(request)) > MAX_PLAYER_MESSAGE_BYTES:
            raise ChatError(f"the decks are too big to send to a server ({MAX_PLAYER_MESSAGE_BYTES} bytes "
                            "for the game in all)")
        created = await self._call(lambda: self._ask(request, ChatCreated))
        assert isinstance(created, ChatCreated)
        humans = tuple(s.name for s in seats if isinstance(s, HumanSeat))
        game = _Game(GameInfo(gid, tuple(names), humans, seed=seed or 0), created.owner, asyncio.Event())
        for told in created.seats:
            if told.token:
                game.seats[told.name] = _Seat(told.name, asyncio.Queue())
        self._games[gid] = game
        try:
            for told in created.seats:
                if told.token:
                    await self._call(partial(self._join, game, game.seats[told.name], told.token))
        except Exception:
            self._games.pop(gid, None)
            with contextlib.suppress(Exception):  # nobody would play it: the server ends it
                await self._call(lambda: self._ask(EndChat(created.owner, "its seats could not be joined"), ChatOver))
            raise
        return gid

    async def submit(self, game_id: str, player: str, text: str) -> str:
        """Send a player's text command to the server; returns its answer for them."""
        token, _ = self._require()
        seat = self._seat(game_id, player)
        if seat.over or seat.send is None:
            return self._reply(game_id, player, _OVER)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str] = loop.create_future()
        seat.answers.append(answer)
        token.run_sync_soon(seat.send.send_nowait, encode_session(ChatCommand(text)))
        return self._reply(game_id, player, await answer)

    async def concede(self, game_id: str, player: str) -> str:
        """The player concedes (104.3a); returns the answer for them."""
        return await self.submit(game_id, player, "concede")

    async def messages(self, game_id: str, player: str) -> AsyncIterator[str]:
        """What the player should be told, as it comes; ends after the game's last text."""
        seat = self._seat(game_id, player)
        while True:
            text = await seat.outbox.get()
            if text is None:
                seat.outbox.put_nowait(None)  # a second reader ends too
                return
            yield text

    async def end_game(self, game_id: str, reason: str) -> GameInfo:
        """End a running game now, with no winner, because of ``reason`` (told to its
        players); a game over already is left as it is. Returns its entry once it has ended."""
        self._require()
        game = self._game(game_id)
        if game.info.running:
            over = await self._call(lambda: self._ask(EndChat(game.owner, reason), ChatOver))
            assert isinstance(over, ChatOver)
            self._over(game, over)
        return game.info

    def games(self) -> list[GameInfo]:
        """Every game of this host, running or over."""
        return [g.info for g in self._games.values()]

    def info(self, game_id: str) -> GameInfo:
        """One game's entry."""
        return self._game(game_id).info

    async def wait(self, game_id: str) -> GameInfo:
        """Wait for the game to end; returns its entry."""
        game = self._game(game_id)
        await game.done.wait()
        return game.info

    # ------------------------------------------------------------ the asyncio side

    def _require(self) -> tuple[trio.lowlevel.TrioToken, trio.Nursery]:
        try:
            return self._guest.require()
        except NotRunning:
            raise ChatError("the host is not running: `await host.start()` first") from None

    def _game(self, game_id: str) -> _Game:
        game = self._games.get(game_id)
        if game is None:
            raise ChatError(f"no game {game_id[:40]!r}")
        return game

    def _seat(self, game_id: str, player: str) -> _Seat:
        seat = self._game(game_id).seats.get(player)
        if seat is None:
            raise ChatError(f"no human player {player[:40]!r} in game {game_id[:40]!r}")
        return seat

    def _reply(self, game_id: str, player: str, text: str) -> str:
        if self._on_text is not None:
            self._on_text(game_id, player, text)
        return text

    async def _call(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn`` in the trio run; its result (or its error, a ``ChatError`` if the run is
        stopped meanwhile)."""
        token, nursery = self._require()
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()

        async def run() -> None:
            try:
                result = await fn()
            except Exception as err:
                if not future.done():
                    future.set_exception(err)
            except BaseException:
                if not future.done():
                    future.set_exception(ChatError("the host stopped"))
                raise
            else:
                if not future.done():
                    future.set_result(result)

        token.run_sync_soon(nursery.start_soon, run)
        return await future

    # ------------------------------------------------------------ the trio side

    async def _hello(self, ws: WebSocketConnection) -> None:
        """Say hello; ``ChatError`` unless welcomed."""
        await ws.send_message(encode_session(Hello(PROTOCOL_VERSION)))
        await self._answer(ws, Welcome)

    async def _answer(self, ws: WebSocketConnection, kind: type[SessionMessage]) -> SessionMessage:
        """The server's next message, which must be a ``kind``; ``ChatError`` with the server's
        reason for anything else."""
        with trio.fail_after(self.timeout):
            data = await ws.get_message()
        try:
            msg = decode_from_server(data if isinstance(data, bytes) else data.encode())
        except InvalidMessageError as err:
            raise ChatError(f"the server at {self.url} sent what can't be read: {err}") from None
        if isinstance(msg, SessionError):
            raise ChatError(f"the server refused: {msg.reason}")
        if not isinstance(msg, kind):
            raise ChatError(f"the server sent {msg.KIND}, not {kind.KIND}")
        return msg

    async def _ask(self, request: SessionMessage, kind: type[SessionMessage]) -> SessionMessage:
        """One request on a connection of its own, and its answer."""
        try:
            async with open_websocket_url(self.url, connect_timeout=self.timeout,
                                          disconnect_timeout=self.timeout) as ws:
                await self._hello(ws)
                await ws.send_message(encode_session(request))
                answer = await self._answer(ws, kind)
                await ws.send_message(encode_session(Goodbye()))
                return answer
        except (OSError, HandshakeError, ConnectionClosed, trio.TooSlowError) as err:
            raise ChatError(f"can't reach the server at {self.url}: {_why(err)}") from None

    async def _join(self, game: _Game, seat: _Seat, token: str) -> None:
        """Join the seat on a connection of its own, kept in the host's nursery: returns once
        it is joined (``ChatError`` if it can't be)."""
        _, nursery = self._require()
        try:
            await nursery.start(self._play, game, seat, token)
        except (OSError, HandshakeError, ConnectionClosed, trio.TooSlowError) as err:
            raise ChatError(f"can't reach the server at {self.url}: {_why(err)}") from None

    async def _play(self, game: _Game, seat: _Seat, token: str,
                    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """The seat's connection, from its join to its ``ChatOver`` (or its loss)."""
        started = False
        try:
            async with open_websocket_url(self.url, connect_timeout=self.timeout,
                                          disconnect_timeout=self.timeout) as ws:
                await self._hello(ws)
                await ws.send_message(encode_session(JoinChat(token)))
                await self._answer(ws, ChatJoined)
                seat.send, frames = trio.open_memory_channel[bytes](math.inf)
                task_status.started()
                started = True
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._write, ws, frames)
                    await self._read(ws, game, seat)
                    nursery.cancel_scope.cancel()
                if not seat.over:
                    self._lose(game, seat)
                    return
                await ws.send_message(encode_session(Goodbye()))
        except (OSError, HandshakeError, ConnectionClosed, trio.TooSlowError, ChatError):
            if not started:
                raise
            self._lose(game, seat)
        except Exception:  # a fault of one seat's connection ends that seat alone, not the host
            if not started:
                raise
            log.exception("game %s: %s's connection to %s failed", game.info.game_id, seat.player, self.url)
            self._lose(game, seat)

    async def _write(self, ws: WebSocketConnection, frames: trio.MemoryReceiveChannel[bytes]) -> None:
        """Send the seat's frames in order (a closed connection is the reader's to tell)."""
        with contextlib.suppress(ConnectionClosed):
            async for data in frames:
                await ws.send_message(data)

    async def _read(self, ws: WebSocketConnection, game: _Game, seat: _Seat) -> None:
        """The seat's frames until its ``ChatOver`` (then ``seat.over``), or until the
        connection ends."""
        while True:
            try:
                data = await ws.get_message()
                msg = decode_from_server(data if isinstance(data, bytes) else data.encode())
            except (ConnectionClosed, InvalidMessageError):
                return
            if isinstance(msg, ChatText):
                if self._on_text is not None:
                    self._on_text(game.info.game_id, seat.player, msg.text)
                seat.outbox.put_nowait(msg.text)
            elif isinstance(msg, ChatAnswer):
                if seat.answers:
                    answer = seat.answers.popleft()
                    if not answer.done():
                        answer.set_result(msg.text)
            elif isinstance(msg, ChatOver):
                self._over(game, msg)
                self._end_seat(seat, _OVER)
                return
            else:
                return  # an Error (the server closes the connection next), or out of place

    def _over(self, game: _Game, over: ChatOver) -> None:
        """The game is over, as the server says."""
        info = game.info
        if info.running:
            info.running = False
            info.reason = over.reason
            self.winners[info.game_id] = over.winner
        game.done.set()

    def _end_seat(self, seat: _Seat, answer: str) -> None:
        """The seat's texts have ended: commands still waiting get ``answer``."""
        seat.over = True
        seat.ended.set()
        seat.outbox.put_nowait(None)
        while seat.answers:
            waiting = seat.answers.popleft()
            if not waiting.done():
                waiting.set_result(answer)

    def _lose(self, game: _Game, seat: _Seat) -> None:
        """The seat's connection is lost before its game's end: its player is told, and the
        game is over for this host."""
        if seat.over:
            return
        seat.outbox.put_nowait(CONNECTION_LOST)
        self._end_seat(seat, "The connection to the game's server was lost.")
        info = game.info
        if info.running:
            info.running = False
            info.reason = "lost the connection to the game's server"
        game.done.set()


def _chat_seat(seat: HumanSeat | BotSeat, deck: str | Deck) -> ChatSeat:
    """A seat as ``CreateChat`` sends it; ``ChatError`` for what a server can't play."""
    cards: tuple[str, ...] = ()
    if isinstance(deck, str):
        if deck not in DECKS:
            raise ChatError(f"deck {deck[:40]!r}: a server is given a built-in deck by name ({', '.join(DECKS)}) "
                            "or a Deck (its cards are sent): never a path")
        name = deck
    elif deck.name in DECKS and load_deck(deck.name, load_cards()).cards == deck.cards:
        name = deck.name
    else:
        # A deck's name is a file's: held to the server's rules for a name (what it shows).
        name = re.sub(r"[^A-Za-z0-9_.-]", "-", deck.name)[:40] or "deck"
        cards = deck.cards
    if isinstance(seat, HumanSeat):
        if seat.stops != HUMAN_STOPS:
            raise ChatError(f"seat {seat.name[:40]!r}: a person's seat on a server has the default stops")
        return ChatSeat(seat.name, name, cards, "", float(seat.time_limit), seat.max_misses)
    if not isinstance(seat.bot, str) or seat.bot not in BUILT_IN_BOTS or seat.config != SeatConfig():
        raise ChatError(f"seat {seat.name[:40]!r}: a server plays its built-in bots ({', '.join(BUILT_IN_BOTS)}) "
                        "with the default settings")
    return ChatSeat(seat.name, name, cards, seat.bot)


def _why(err: BaseException) -> str:
    """A failure to reach the server, in a few words."""
    if isinstance(err, trio.TooSlowError):
        return "no answer in time"
    if isinstance(err, OSError):
        return err.strerror or str(err)
    return str(err) or type(err).__name__
