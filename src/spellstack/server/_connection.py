"""One client's WebSocket connection, as the server uses it: binary frames of one message each,
within the client's limits (its messages per second, the time a frame may wait for it to read),
refusals said once and then the close."""

from __future__ import annotations

import contextlib
from typing import NoReturn

import trio
from trio_websocket import ConnectionClosed, WebSocketConnection

from ..protocol import MAX_PLAYER_MESSAGE_BYTES, SessionError, SessionMessage, encode_session
from ._rate import MessageRate
from ._settings import DEFAULT_MESSAGES_PER_SECOND, DEFAULT_SEND_TIMEOUT

__all__ = ["CLOSE_GOING_AWAY", "CLOSE_NORMAL", "CLOSE_POLICY", "CLOSE_SERVER_ERROR", "CLOSE_TOO_BIG", "CLOSE_TRY_AGAIN",
           "CLOSE_UNSUPPORTED", "CLOSE_WAIT", "Connection", "ConnectionGone"]

CLOSE_NORMAL = 1000
"""The close code of a session that ended as it should (a goodbye, the game over)."""
CLOSE_GOING_AWAY = 1001
"""The close code when the server stops."""
CLOSE_UNSUPPORTED = 1003
"""The close code for a text frame (every frame is binary)."""
CLOSE_POLICY = 1008
"""The close code after a refusal (a token, a message out of place, a flood)."""
CLOSE_TOO_BIG = 1009
"""The close code for a frame over the server's frame limit (said by the WebSocket library,
which never keeps the frame)."""
CLOSE_SERVER_ERROR = 1011
"""The close code when serving the connection failed (a fault of the server's)."""
CLOSE_TRY_AGAIN = 1013
"""The close code when the server is at a limit (connections from one address, spectators of
a game): the same may succeed later."""
_REASON_BYTES = 120
"""A close frame's reason is at most 123 bytes (RFC 6455, 5.5)."""
CLOSE_WAIT = 2.0
"""Seconds the server waits for the client's half of the closing handshake; then the TCP
connection is closed anyway (a client that never answers holds nothing)."""


class ConnectionGone(Exception):
    """The connection is closed (by the client, by the server, or broken)."""


class Connection:
    """A client's connection: each frame one binary WebSocket message holding one msgpack
    message."""

    def __init__(self, ws: WebSocketConnection, peer: str, *, send_timeout: float = DEFAULT_SEND_TIMEOUT,
                 rate: MessageRate | None = None, max_frame_bytes: int = MAX_PLAYER_MESSAGE_BYTES) -> None:
        self.ws = ws
        """The WebSocket."""
        self.peer = peer
        """The client's address, for the log."""
        self.send_timeout = send_timeout
        """Seconds a frame may wait for the client to take it."""
        self.rate = rate if rate is not None else MessageRate(DEFAULT_MESSAGES_PER_SECOND)
        """What the client may still send, charged for each frame received (a seat puts its
        own in place while the connection plays it)."""
        self.max_frame_bytes = max_frame_bytes
        """The largest frame it may send (the WebSocket library closes it for a larger one)."""
        self.fault = ""
        """What closed the connection, if a fault of the client's did (``a flood: ...``, ``a
        slow reader: ...``, ``a text frame...``, ``a frame over ...``); empty otherwise."""

    async def receive(self) -> bytes:
        """The next frame's bytes. A text frame closes the connection (``CLOSE_UNSUPPORTED``),
        and so does a message over the client's allowance (a flood, ``CLOSE_POLICY``), each
        after one ``SessionError`` saying why.

        Raises:
            ConnectionGone: The connection is closed.
        """
        try:
            data = await self.ws.get_message()
        except ConnectionClosed as closed:
            reason = closed.reason
            if reason is not None and reason.code == CLOSE_TOO_BIG and not self.fault:
                self.fault = f"a frame over {self.max_frame_bytes} bytes"
            raise ConnectionGone from None
        if isinstance(data, str):
            await self._fault("a text frame: each frame is one binary msgpack message", CLOSE_UNSUPPORTED)
        if not self.rate.take():
            await self._fault(f"a flood: more than {self.rate.per_second:g} messages a second beyond its answers",
                              CLOSE_POLICY)
        return data

    async def _fault(self, reason: str, code: int) -> NoReturn:
        """Refuse the connection for a fault of the client's, and keep why."""
        self.fault = reason
        await self.refuse(reason, code)
        raise ConnectionGone

    async def send(self, data: bytes) -> None:
        """Send one frame. One the client does not take within ``send_timeout`` (it reads
        nothing, and the network's buffers are full) closes the connection at once: nothing
        more is kept for it.

        Raises:
            ConnectionGone: The connection is closed.
        """
        with trio.move_on_after(self.send_timeout):
            try:
                await self.ws.send_message(data)
            except ConnectionClosed:
                raise ConnectionGone from None
            return
        self.fault = f"a slow reader: a frame not taken within {self.send_timeout:g} s"
        await self._abort()
        raise ConnectionGone

    async def tell(self, msg: SessionMessage) -> None:
        """Send one session message (``ConnectionGone`` if it can't be)."""
        await self.send(encode_session(msg))

    async def refuse(self, reason: str, code: int = CLOSE_POLICY) -> None:
        """Say why with one ``SessionError``, then close (whether or not the client is still
        there to read it)."""
        # Bounded: a client that reads nothing does not hold its refusal.
        with trio.move_on_after(CLOSE_WAIT), contextlib.suppress(ConnectionGone):
            await self.tell(SessionError(reason))
        await self.close(code, reason)

    async def close(self, code: int = CLOSE_NORMAL, reason: str = "") -> None:
        """Close the connection (nothing if it is closed already)."""
        cut = reason.encode()[:_REASON_BYTES].decode("utf-8", "ignore")
        with trio.move_on_after(CLOSE_WAIT), contextlib.suppress(Exception):
            # A broken connection can't be closed politely; a cancelled close still closes
            # the stream.
            await self.ws.aclose(code, cut or None)

    async def _abort(self) -> None:
        """Close the TCP connection at once, without the closing handshake (a frame cut short
        by the send's timeout may be half sent: nothing more can follow it)."""
        with trio.CancelScope() as scope, contextlib.suppress(Exception):
            scope.cancel()
            await self.ws.aclose(CLOSE_POLICY)
