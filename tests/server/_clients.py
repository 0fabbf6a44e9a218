"""Clients of a test server on the loopback address: a connection speaking the session
messages (``Remote``), and a remote bot that plays a seat with one of the engine's bots through
the engine's own player actor (``play_remote``), so that its answers are those the same bot
gives in process."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, open_websocket_url

from spellstack.actors import Link, Wire, player_actor
from spellstack.bots import Bot
from spellstack.protocol import (
    PROTOCOL_VERSION,
    CreateGame,
    GameCreated,
    Goodbye,
    Hello,
    JoinSeat,
    Message,
    Seated,
    SeatSpec,
    SessionMessage,
    Welcome,
    decode_from_server,
    encode,
    encode_session,
)
from spellstack.server import GameServer, ServerSettings


@asynccontextmanager
async def running_server(settings: ServerSettings) -> AsyncIterator[GameServer]:
    """A server running with ``settings`` (give port 0: the port chosen is ``server.port``)."""
    async with trio.open_nursery() as nursery:
        server: GameServer = await nursery.start(GameServer(settings).run)
        yield server
        nursery.cancel_scope.cancel()


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
        to_player, from_server = trio.open_memory_channel[bytes](1)
        to_server, from_player = trio.open_memory_channel[bytes](1)
        link = Link(Wire("client", None), f"player:{seated.players[seated.seat]}", "coordinator",
                    to_server, from_server)

        async def down() -> None:
            while True:
                await to_player.send(await remote.receive_bytes())

        async def up() -> None:
            async for data in from_player:
                await remote.ws.send_message(data)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(down)
            nursery.start_soon(up)
            await player_actor(make(seated.seed), link)
            nursery.cancel_scope.cancel()
        await remote.send(Goodbye())
        if frames is not None:
            frames.extend(remote.frames)
        return seated
