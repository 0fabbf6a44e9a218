"""One client's WebSocket connection, as the server uses it: binary frames of one message each,
refusals said once and then the close."""

from __future__ import annotations

import contextlib

import trio
from trio_websocket import ConnectionClosed, WebSocketConnection

from ..protocol import SessionError, SessionMessage, encode_session

__all__ = ["CLOSE_GOING_AWAY", "CLOSE_NORMAL", "CLOSE_POLICY", "CLOSE_SERVER_ERROR", "CLOSE_UNSUPPORTED", "CLOSE_WAIT",
           "Connection", "ConnectionGone"]

CLOSE_NORMAL = 1000
"""The close code of a session that ended as it should (a goodbye, the game over)."""
CLOSE_GOING_AWAY = 1001
"""The close code when the server stops."""
CLOSE_UNSUPPORTED = 1003
"""The close code for a text frame (every frame is binary)."""
CLOSE_POLICY = 1008
"""The close code after a refusal (a token, a message out of place)."""
CLOSE_SERVER_ERROR = 1011
"""The close code when serving the connection failed (a fault of the server's)."""
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

    def __init__(self, ws: WebSocketConnection, peer: str) -> None:
        self.ws = ws
        """The WebSocket."""
        self.peer = peer
        """The client's address, for the log."""

    async def receive(self) -> bytes:
        """The next frame's bytes. A text frame closes the connection (``CLOSE_UNSUPPORTED``).

        Raises:
            ConnectionGone: The connection is closed.
        """
        try:
            data = await self.ws.get_message()
        except ConnectionClosed:
            raise ConnectionGone from None
        if isinstance(data, str):
            await self.close(CLOSE_UNSUPPORTED, "text frames are refused: each frame is one binary msgpack message")
            raise ConnectionGone
        return data

    async def send(self, data: bytes) -> None:
        """Send one frame.

        Raises:
            ConnectionGone: The connection is closed.
        """
        try:
            await self.ws.send_message(data)
        except ConnectionClosed:
            raise ConnectionGone from None

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
