"""One connection's session: its hello, the games it creates, and then the seat it plays, the
game it watches, the tournament entrant it plays (``_entrants``) or the chat seat it plays by
text (``_chat``).

Before it plays or watches, a connection has ``ServerSettings.hello_timeout`` seconds for each
message. Whatever is out of place there (a message that can't be read, a kind it may not send
now, a refused token) is answered by one ``SessionError`` and the connection is closed; a
``CreateGame`` that can't be played, or one over the server's limit, is answered by a
``SessionError`` and the connection may go on. A refused token is refused in the same words
whatever was wrong with it (unknown, spent by a goodbye, of a game that is over, of a seat
given to a spectator's request): nothing tells one from another.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import trio

from .._version import __version__
from ..protocol import (
    PROTOCOL_VERSION,
    CreateChat,
    CreateGame,
    EndChat,
    GameCreated,
    Goodbye,
    Hello,
    JoinChat,
    JoinEntrant,
    JoinSeat,
    SessionError,
    SessionMessage,
    Spectate,
    Welcome,
    decode_from_client,
)
from ..protocol import Message as GameMessage
from ..rules import InvalidMessageError
from ._connection import CLOSE_NORMAL, CLOSE_TRY_AGAIN, Connection, ConnectionGone
from ._games import GameRequestError

if TYPE_CHECKING:
    from ._server import GameServer

__all__ = ["TOKEN_REFUSED", "Session", "log"]

log = logging.getLogger("spellstack.server")
"""The server's log: games created and over, connections refused (never a token)."""

TOKEN_REFUSED = "this token opens nothing on this server"
"""The one answer to any token that is refused, whatever was wrong with it."""


class Session:
    """One connection, from its hello to its end (``run``)."""

    def __init__(self, server: GameServer, conn: Connection) -> None:
        self.server = server
        """The server."""
        self.conn = conn
        """The connection."""

    async def run(self) -> None:
        """Serve the connection until it ends; it is closed then."""
        conn = self.conn
        try:
            if not await self._hello():
                return
            while True:
                msg = await self._next()
                if msg is None:
                    return
                if isinstance(msg, CreateGame):
                    await self._create(msg)
                elif isinstance(msg, JoinSeat):
                    await self._join(msg)
                    return
                elif isinstance(msg, Spectate):
                    await self._spectate(msg)
                    return
                elif isinstance(msg, JoinEntrant):
                    await self._enter(msg)
                    return
                elif isinstance(msg, CreateChat):
                    await self.server.chat.create(conn, msg)
                elif isinstance(msg, EndChat):
                    if not await self.server.chat.end(conn, msg, TOKEN_REFUSED):
                        return
                elif isinstance(msg, JoinChat):
                    await self.server.chat.join(conn, msg, TOKEN_REFUSED)
                    return
                elif isinstance(msg, Goodbye):
                    await conn.close(CLOSE_NORMAL, "goodbye")
                    return
                else:
                    await conn.refuse(f"{msg.KIND} is out of place before a seat is joined")
                    return
        except ConnectionGone:
            pass
        finally:
            await conn.close()

    async def _next(self) -> GameMessage | SessionMessage | None:
        """The connection's next message, within the hello timeout; None if it ended (it was
        refused, it timed out, or it closed)."""
        conn = self.conn
        timeout = self.server.settings.hello_timeout
        data = None
        with trio.move_on_after(timeout):
            data = await conn.receive()
        if data is None:
            await conn.refuse(f"nothing came within {timeout:g} s")
            return None
        try:
            return decode_from_client(data)
        except InvalidMessageError as err:
            await conn.refuse(str(err))
            return None

    async def _hello(self) -> bool:
        """The connection's ``Hello``, answered by ``Welcome``; False if it was refused."""
        msg = await self._next()
        if msg is None:
            return False
        if not isinstance(msg, Hello):
            await self.conn.refuse(f"say Hello first, not {msg.KIND}")
            return False
        if msg.protocol != PROTOCOL_VERSION:
            await self.conn.refuse(f"this server speaks protocol {PROTOCOL_VERSION}, not {msg.protocol}")
            return False
        await self.conn.tell(Welcome(PROTOCOL_VERSION, __version__, self.server.settings.grace))
        return True

    async def _create(self, msg: CreateGame) -> None:
        """Host the game ``msg`` asks for and tell its tokens, or say why not."""
        try:
            created: GameCreated = self.server.create(msg)
        except GameRequestError as err:
            await self.conn.tell(SessionError(str(err)))
            return
        await self.conn.tell(created)

    async def _join(self, msg: JoinSeat) -> None:
        """Play the seat the token opens, for as long as this connection does."""
        server = self.server
        grant = server.tokens.find(msg.token)
        hosted = None if grant is None or grant.role != "seat" else server.games.get(grant.game)
        seat = None if hosted is None or grant is None else hosted.remote.get(grant.seat)
        if seat is None or grant is None:
            log.info("connection from %s: a seat's token refused", self.conn.peer)
            await self.conn.refuse(TOKEN_REFUSED)
            return
        outcome = await seat.attach(self.conn)
        if outcome == "goodbye":
            server.tokens.revoke(msg.token)
            await self.conn.close(CLOSE_NORMAL, "goodbye")
        elif outcome == "over":
            await self.conn.close(CLOSE_NORMAL, "the game is over for this seat")
        elif outcome == "replaced":
            await self.conn.refuse("another connection joined this seat")
        elif outcome == "refused":
            await self.conn.refuse("a seated connection sends the player's messages, Resync or Goodbye")

    async def _enter(self, msg: JoinEntrant) -> None:
        """Play the tournament entrant the token opens, game after game (``EntrantLobby``)."""
        lobby = self.server.lobby
        entrant = None if lobby is None else lobby.find(msg.token)
        if lobby is None or entrant is None:
            log.info("connection from %s: an entrant's token refused", self.conn.peer)
            await self.conn.refuse(TOKEN_REFUSED)
            return
        await lobby.serve(entrant, self.conn)

    async def _spectate(self, msg: Spectate) -> None:
        """Watch the game the token opens, until it is over."""
        server = self.server
        grant = server.tokens.find(msg.token)
        hosted = None if grant is None or grant.role != "spectator" else server.games.get(grant.game)
        feed = None if hosted is None else hosted.feed
        if feed is None:
            log.info("connection from %s: a spectator's token refused", self.conn.peer)
            await self.conn.refuse(TOKEN_REFUSED)
            return
        if feed.watchers >= server.settings.max_spectators:
            await self.conn.refuse(f"this game has {server.settings.max_spectators} spectators, its limit: try "
                                   "again later", CLOSE_TRY_AGAIN)
            return
        outcome = await feed.watch(self.conn)
        if outcome in ("over", "goodbye"):
            await self.conn.close(CLOSE_NORMAL, outcome)
        elif outcome != "closed":
            await self.conn.refuse(outcome)
