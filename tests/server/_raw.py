"""Connections a test opens itself: from a chosen loopback address (``127.0.0.2`` is another
client than ``127.0.0.1``), with a small receive buffer (a client that stops reading is felt
soon), or no WebSocket at all (a TCP connection that never says anything)."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio
from trio_websocket import wrap_client_stream

from tests.server._clients import Remote


async def tcp_from(port: int, address: str = "127.0.0.1", *, receive_buffer: int = 0) -> trio.SocketStream:
    """A TCP connection to the server on ``port`` from ``address`` (any of 127.0.0.0/8)."""
    sock = trio.socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    await sock.bind((address, 0))
    await sock.connect(("127.0.0.1", port))
    return trio.SocketStream(sock)


@asynccontextmanager
async def connect_from(port: int, address: str = "127.0.0.1", *, receive_buffer: int = 0) -> AsyncIterator[Remote]:
    """A WebSocket connection to the server on ``port`` from ``address``, not said hello yet.
    A client that does not read holds one message; then the network's buffers fill."""
    stream = await tcp_from(port, address, receive_buffer=receive_buffer)
    async with trio.open_nursery() as nursery:
        ws = await wrap_client_stream(nursery, stream, "127.0.0.1", "/")
        try:
            yield Remote(ws)
        finally:
            with trio.move_on_after(2):
                await ws.aclose()
            nursery.cancel_scope.cancel()
