"""Clients of a test server on the loopback address: a connection speaking the session
messages (``Remote``), and a remote bot that plays a seat (``play_remote``), or a tournament's
entrant game after game (``play_entrant``), with one of the engine's bots through the engine's
own player actor, so that its answers are those the same bot gives in process."""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field

import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, open_websocket_url

from spellstack.actors import Link, Wire, player_actor
from spellstack.bots import Bot
from spellstack.protocol import (
    PROTOCOL_VERSION,
    CreateGame,
    Entered,
    GameCreated,
    Goodbye,
    Hello,
    JoinEntrant,
    JoinSeat,
    Message,
    NextGame,
    Seated,
    SeatSpec,
    SessionMessage,
    Welcome,
    decode_from_server,
    encode,
    encode_session,
)
from spellstack.server import EntrantLobby, GameServer, ServerSettings


@asynccontextmanager
async def running_server(settings: ServerSettings, *, lobby: EntrantLobby | None = None) -> AsyncIterator[GameServer]:
    """A server running with ``settings`` (give port 0: the port chosen is ``server.port``),
    serving ``lobby``'s remote entrants if given."""
    async with trio.open_nursery() as nursery:
        server: GameServer = await nursery.start(GameServer(settings, lobby=lobby).run)
        yield server
        nursery.cancel_scope.cancel()


@dataclass
class ThreadedServer:
    """A server running in a thread of its own."""

    server: GameServer
    """The server (read-only from other threads)."""
    token: trio.lowlevel.TrioToken
    scope: trio.CancelScope

    @property
    def port(self) -> int | None:
        """The port it listens on."""
        return self.server.port

    def stop(self) -> None:
        """Stop it, from any thread (its connections are cut); nothing if it has stopped."""
        with contextlib.suppress(trio.RunFinishedError):
            self.token.run_sync_soon(self.scope.cancel)


@contextmanager
def server_in_a_thread(settings: ServerSettings) -> Iterator[ThreadedServer]:
    """A server running with ``settings`` in a thread of its own (its own trio run), for a test
    whose client runs an asyncio loop (a chat front end's host); stopped at the end."""
    started: queue.Queue[ThreadedServer] = queue.Queue()

    async def run() -> None:
        async with trio.open_nursery() as nursery:
            server: GameServer = await nursery.start(GameServer(settings).run)
            started.put(ThreadedServer(server, trio.lowlevel.current_trio_token(), nursery.cancel_scope))

    thread = threading.Thread(target=trio.run, args=(run,), daemon=True)
    thread.start()
    running = started.get(timeout=30)
    try:
        yield running
    finally:
        running.stop()
        thread.join(30)


def loopback(**settings: object) -> ServerSettings:
    """Settings for a test server: the loopback address, a port the system picks."""
    return ServerSettings(host="127.0.0.1", port=0, **settings)  # type: ignore[arg-type]


@dataclass
class Remote:
    """One client connection."""

    ws: WebSocketConnection
    """The WebSocket."""
    frames: list[bytes] = field(default_factory=list)
    """Every frame received, in order."""

    async def send(self, msg: Message | SessionMessage) -> None:
        """Send one message, encoded as the protocol says."""
        data = encode(msg) if isinstance(msg, Message.__args__) else encode_session(msg)  # type: ignore[attr-defined,arg-type]
        await self.ws.send_message(data)

    async def receive_bytes(self) -> bytes:
        """The next frame (it must be binary)."""
        data = await self.ws.get_message()
        assert isinstance(data, bytes), data
        self.frames.append(data)
        return data

    async def receive(self) -> Message | SessionMessage:
        """The next frame, decoded."""
        return decode_from_server(await self.receive_bytes())

    async def closed(self) -> tuple[list[Message | SessionMessage], int]:
        """Everything received until the server closes, and the close code."""
        got: list[Message | SessionMessage] = []
        while True:
            try:
                got.append(await self.receive())
            except ConnectionClosed as closed:
                assert closed.reason is not None
                return got, closed.reason.code


@asynccontextmanager
async def connect(port: int, *, hello: bool = True) -> AsyncIterator[Remote]:
    """A connection to the server on ``port``; ``hello``: it has said hello (and was welcomed)."""
    async with open_websocket_url(f"ws://127.0.0.1:{port}") as ws:
        remote = Remote(ws)
        if hello:
            await remote.send(Hello(PROTOCOL_VERSION))
            assert isinstance(await remote.receive(), Welcome)
        yield remote


async def create_game(port: int, seats: tuple[SeatSpec, ...] = (SeatSpec("alice", "gruul"), SeatSpec("bob", "orzhov")),
                      **fields: object) -> GameCreated:
    """Create a game on the server (watched with a spectator token unless ``fields`` say
    otherwise) and return its tokens."""
    async with connect(port) as remote:
        await remote.send(CreateGame(seats, **{"spectate": "token", **fields}))  # type: ignore[arg-type]
        created = await remote.receive()
        assert isinstance(created, GameCreated), created
        await remote.send(Goodbye())
        return created


async def play_remote(port: int, token: str, make: Callable[[int], Bot], *, frames: list[bytes] | None = None,
                      task_status: trio.TaskStatus[Seated] = trio.TASK_STATUS_IGNORED) -> Seated:
    """Join the seat ``token`` opens and play it to the game's end with the bot ``make`` builds
    from the seat's seed, in the engine's own player actor; then say goodbye. ``frames``: where
    to keep every frame the connection received. Started (``nursery.start``) once seated."""
    async with connect(port) as remote:
        await remote.send(JoinSeat(token))
        seated = await remote.receive()
        assert isinstance(seated, Seated), seated
        task_status.started(seated)
        await _relay(remote, seated, make(seated.seed))
        await remote.send(Goodbye())
        if frames is not None:
            frames.extend(remote.frames)
        return seated


async def _relay(remote: Remote, seated: Seated, bot: Bot, *, requests: list[int] | None = None) -> bool:
    """Play the game ``seated`` tells with ``bot`` in the engine's player actor, to its
    ``GameOver`` (True); with ``requests`` (one count, shared by the games of a connection),
    the connection is dropped, without a goodbye, when it reaches 0 (False)."""
    to_player, from_server = trio.open_memory_channel[bytes](1)
    to_server, from_player = trio.open_memory_channel[bytes](1)
    link = Link(Wire("client", None), f"player:{seated.players[seated.seat]}", "coordinator",
                to_server, from_server)
    dropped = False

    async def down() -> None:
        nonlocal dropped
        while True:
            data = await remote.receive_bytes()
            if b"Unseated" in data[:16]:  # an entrant's seat that forfeited: its game is over
                nursery.cancel_scope.cancel()
                return
            if requests is not None and b"Request" in data[:24]:
                requests[0] -= 1
                if requests[0] < 0:
                    dropped = True
                    await remote.ws.aclose()
                    nursery.cancel_scope.cancel()
                    return
            await to_player.send(data)

    async def up() -> None:
        async for data in from_player:
            await remote.ws.send_message(data)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(down)
        nursery.start_soon(up)
        await player_actor(bot, link)
        nursery.cancel_scope.cancel()
    return not dropped


async def play_entrant(port: int, token: str, make: Callable[[int], Bot], *,
                       drop_after: int | None = None) -> list[Seated]:
    """Join as the tournament entrant ``token`` opens and play each game it is seated in with
    the bot ``make`` builds from the seat's seed, until the server closes the connection (the
    tournament is over); the games it was seated in. ``drop_after``: drop the connection,
    without a goodbye, when that many requests have been answered (over all its games)."""
    seated_in: list[Seated] = []
    requests = None if drop_after is None else [drop_after]
    async with connect(port) as remote:
        await remote.send(JoinEntrant(token))
        assert isinstance(await remote.receive(), Entered)
        while True:
            try:
                await remote.send(NextGame())
                seated = await remote.receive()
            except ConnectionClosed:
                return seated_in
            assert isinstance(seated, Seated), seated
            seated_in.append(seated)
            if not await _relay(remote, seated, make(seated.seed), requests=requests):
                return seated_in
