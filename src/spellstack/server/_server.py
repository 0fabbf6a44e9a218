"""``GameServer``: the WebSocket server that hosts games for remote clients (``spellstack serve``)."""

from __future__ import annotations

import secrets
import socket
from collections.abc import Callable

import trio
from trio_websocket import ConnectionClosed, Endpoint, WebSocketRequest, WebSocketServer

from ..protocol import CreateGame, GameCreated, GameOver, SeatToken
from ._chat import ChatService
from ._connection import CLOSE_SERVER_ERROR, CLOSE_TRY_AGAIN, CLOSE_WAIT, Connection
from ._entrants import EntrantLobby
from ._games import GameRequestError, HostedGame, plan_game
from ._rate import MessageRate
from ._sessions import Session, log
from ._settings import ServerSettings
from ._tokens import Grant, TokenBook

__all__ = ["GameServer", "serve"]


class GameServer:
    """Hosts games for clients that connect over WebSockets (``run``): each connection says
    hello, may create games, then plays one seat or watches one game (``Session``); chat front
    ends' games too (``chat``). With ``lobby``, the server is a tournament's: its remote
    entrants connect to it, and it hosts no other games."""

    def __init__(self, settings: ServerSettings | None = None, *, lobby: EntrantLobby | None = None) -> None:
        self.settings = settings if settings is not None else ServerSettings()
        """How it runs."""
        self.lobby = lobby
        """The remote entrants of the tournament it serves, if it serves one."""
        self.chat = ChatService(self)
        """The chat games it hosts."""
        self.tokens = TokenBook()
        """Every live token."""
        self.games: dict[str, HostedGame] = {}
        """The games hosted now, by id."""
        self.port: int | None = None
        """The port it listens on, once it does (``settings.port``, or the one the system
        picked for 0)."""
        self.played = 0
        """Games played to their end since it started."""
        self.connections: dict[str, int] = {}
        """Connections open now, by the client's IP address."""
        self._nursery: trio.Nursery | None = None

    async def run(self, *, task_status: trio.TaskStatus[GameServer] = trio.TASK_STATUS_IGNORED) -> None:
        """Listen and host until cancelled (``nursery.start``: started once it listens)."""
        s = self.settings
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            await nursery.start(self.chat.run)
            listeners = await trio.open_tcp_listeners(s.port, host=s.host)
            for listener in listeners:
                # What the system keeps for one client that reads nothing is bounded: each
                # connection it accepts inherits the listening socket's send buffer (Linux;
                # elsewhere at least a bound the system sets).
                listener.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, s.send_buffer_bytes)
            listening = await nursery.start(WebSocketServer(
                self._handle, listeners,
                # A frame is one message from a client: over the limit, the library closes
                # the connection (1009, with its reason) before the frame is kept.
                max_message_size=s.max_frame_bytes, connect_timeout=s.hello_timeout,
                disconnect_timeout=CLOSE_WAIT).run)
            self.port = listening.port
            task_status.started(self)

    async def _handle(self, request: WebSocketRequest) -> None:
        """One connection, from its handshake to its end; one over its address's limit is
        refused."""
        s = self.settings
        remote = request.remote
        address = str(remote.address) if isinstance(remote, Endpoint) else str(remote)
        open_now = self.connections.get(address, 0)
        self.connections[address] = open_now + 1
        try:
            try:
                ws = await request.accept()
            except ConnectionClosed:
                return
            peer = f"{remote.address}:{remote.port}" if isinstance(remote, Endpoint) else str(remote)
            conn = Connection(ws, peer, send_timeout=s.send_timeout, rate=MessageRate(s.max_messages_per_second),
                              max_frame_bytes=s.max_frame_bytes)
            if open_now >= s.max_connections_per_address:
                log.info("connection from %s refused: %d open from its address", peer, open_now)
                await conn.refuse(f"{s.max_connections_per_address} connections from this address at once, the "
                                  "limit: try again later", CLOSE_TRY_AGAIN)
                return
            try:
                await Session(self, conn).run()
            except Exception:  # a fault serving one connection ends that connection alone
                log.exception("connection from %s failed", peer)
                await conn.close(CLOSE_SERVER_ERROR, "server error")
            if conn.fault:
                log.info("connection from %s closed for %s", peer, conn.fault)
        finally:
            left = self.connections[address] - 1
            if left:
                self.connections[address] = left
            else:
                del self.connections[address]

    def create(self, request: CreateGame) -> GameCreated:
        """Host the game ``request`` asks for: its tokens.

        Raises:
            GameRequestError: The game can't be played, or the server hosts its most games.
        """
        s = self.settings
        if self.lobby is not None:
            raise GameRequestError("this server plays a tournament: it hosts no other games")
        if len(self.games) + len(self.chat.games) >= s.max_games:
            raise GameRequestError(f"the server hosts {s.max_games} games at once, its limit: try again later")
        assert self._nursery is not None, "the server is not running"
        game_id = f"g{secrets.token_hex(6)}"
        setup = plan_game(request, game_id)
        hosted = HostedGame(setup, [spec.bot for spec in request.seats], grace=s.grace,
                            after_game=s.after_game, spectate=request.spectate == "token",
                            trace_dir=s.trace_dir, messages_per_second=s.max_messages_per_second)
        seats = tuple(SeatToken(n, name, self.tokens.issue(Grant(game_id, "seat", n)) if n in hosted.remote else "")
                      for n, name in enumerate(setup.players))
        spectator = self.tokens.issue(Grant(game_id, "spectator")) if hosted.feed is not None else ""
        self.games[game_id] = hosted
        self._nursery.start_soon(self._host, hosted)
        log.info("game %s created: %s", game_id, " vs ".join(
            f"{spec.name} ({spec.deck}, {spec.bot or 'remote'})" for spec in request.seats))
        return GameCreated(game_id, seats, spectator)

    async def _host(self, hosted: HostedGame) -> None:
        """Play a hosted game to its end, then forget it: its tokens open nothing more."""
        game_id = hosted.game_id
        try:
            result = await hosted.run()
            self.played += 1
            log.info("game %s over on turn %d: %s", game_id, result.turns, result.reason)
        except Exception:  # a game that can't be played (its trace can't be written) ends alone
            log.exception("game %s could not be played", game_id)
        finally:
            feed = hosted.feed
            if feed is not None and feed.over is None:
                feed.finish(GameOver("", (), "the game could not be played"))
            for seat in hosted.remote.values():
                seat.end()
            self.tokens.revoke_game(game_id)
            del self.games[game_id]
            hosted.done.set()


async def serve(settings: ServerSettings, *, listening: Callable[[GameServer], object] = lambda server: None) -> None:
    """Run a server with ``settings`` until cancelled; ``listening`` is called with it once it
    listens."""
    server = GameServer(settings)
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        listening(server)
