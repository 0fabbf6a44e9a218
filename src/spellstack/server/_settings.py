"""What a server is run with (``ServerSettings``), and the defaults: every limit on what a
client may cost is one of its fields (``docs/server-security.md`` says why each default)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from ..protocol import MAX_PLAYER_MESSAGE_BYTES, SESSION_KIND_BYTES

__all__ = ["DEFAULT_CONNECTIONS_PER_ADDRESS", "DEFAULT_GRACE", "DEFAULT_HELLO_TIMEOUT", "DEFAULT_HOST",
           "DEFAULT_MAX_GAMES", "DEFAULT_MAX_SPECTATORS", "DEFAULT_MESSAGES_PER_SECOND", "DEFAULT_PORT",
           "DEFAULT_SEND_BUFFER", "DEFAULT_SEND_TIMEOUT", "MAX_SEND_BUFFER", "MIN_FRAME_BYTES", "MIN_SEND_BUFFER",
           "ServerSettings"]

DEFAULT_HOST = "127.0.0.1"
"""The address served unless told otherwise: this machine only."""
DEFAULT_PORT = 8765
"""The port served unless told otherwise."""
DEFAULT_MAX_GAMES = 100
"""Games hosted at once unless told otherwise."""
DEFAULT_GRACE = 60.0
"""Seconds a seat's client may be away (not joined yet, or disconnected) before the seat
forfeits, unless told otherwise."""
DEFAULT_HELLO_TIMEOUT = 10.0
"""Seconds a connection has for each message before it plays or watches, unless told otherwise."""
DEFAULT_CONNECTIONS_PER_ADDRESS = 32
"""Connections open at once from one address unless told otherwise: a machine running a few
dozen bots."""
DEFAULT_MESSAGES_PER_SECOND = 20.0
"""Messages a connection may send a second, beyond one answer per request it is sent, unless
told otherwise (an honest client sends a few: its settings, a resync)."""
DEFAULT_MAX_SPECTATORS = 100
"""Spectators of one game at once unless told otherwise."""
DEFAULT_SEND_BUFFER = 1 << 16
"""Bytes the system keeps for one client's frames not yet taken unless told otherwise (64 KiB:
a game's frames are a few kB, a spectator's batch tens of kB)."""
MIN_SEND_BUFFER = 1 << 12
"""The smallest send buffer a server may have."""
MAX_SEND_BUFFER = 1 << 24
"""The largest send buffer a server may have (16 MiB)."""
DEFAULT_SEND_TIMEOUT = 10.0
"""Seconds a frame may wait for the client to take it unless told otherwise: a client that
reads nothing that long is closed (a slow reader)."""
MIN_FRAME_BYTES = SESSION_KIND_BYTES["CreateGame"]
"""The smallest frame limit a server may have: the largest message a bot's client sends
(``CreateGame``) must fit. A chat front end's ``CreateChat`` with card lists, or a long
``ChatCommand``, may need more, up to the default."""


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """How a ``GameServer`` runs."""

    host: str = DEFAULT_HOST
    """The address to listen on."""
    port: int = DEFAULT_PORT
    """The port to listen on; 0: one the system picks (``GameServer.port`` tells it)."""
    max_games: int = DEFAULT_MAX_GAMES
    """Games hosted at once; a ``CreateGame`` beyond them is refused."""
    trace_dir: Path | None = None
    """Where each game's trace is written (``GAME.jsonl``); None: no traces."""
    grace: float = DEFAULT_GRACE
    """Seconds a seat's client may be away before its seat forfeits."""
    hello_timeout: float = DEFAULT_HELLO_TIMEOUT
    """Seconds a connection has for each step before it plays or watches (its WebSocket
    handshake, its ``Hello``, then each message up to its ``JoinSeat`` or ``Spectate``); then
    it is closed."""
    max_spectators: int = DEFAULT_MAX_SPECTATORS
    """Spectators of one game at once; one more is refused."""
    after_game: float = 2.0
    """Seconds a seat's connection stays open after its ``GameOver`` for the client's
    ``Goodbye``; then the server closes it."""
    max_connections_per_address: int = DEFAULT_CONNECTIONS_PER_ADDRESS
    """Connections open at once from one IP address; one more is refused. Behind a reverse
    proxy every client has the proxy's address."""
    max_frame_bytes: int = MAX_PLAYER_MESSAGE_BYTES
    """The largest frame a client may send, in bytes: a larger one closes its connection
    before it is kept. Each kind of message has its own cap below it (``PLAYER_KIND_BYTES``,
    ``SESSION_KIND_BYTES``), as in the engine's process."""
    max_messages_per_second: float = DEFAULT_MESSAGES_PER_SECOND
    """Messages a connection may send a second (and at once, after a second of quiet), beyond
    one answer per request its seat is sent; more is a flood, and the connection is closed. A
    seat's allowance is the seat's, whichever connection plays it."""
    send_timeout: float = DEFAULT_SEND_TIMEOUT
    """Seconds one frame may wait for the client to take it (the network's buffers full): a
    client that reads nothing that long is closed, and its seat is away."""
    send_buffer_bytes: int = DEFAULT_SEND_BUFFER
    """Bytes the operating system may keep for one client's frames it has not taken (each
    connection's socket send buffer; the system doubles it for its own bookkeeping)."""

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port {self.port}: not between 0 and 65535")
        for name in ("max_games", "max_connections_per_address"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name.replace('_', ' ')} {getattr(self, name)}: at least 1")
        for name in ("grace", "hello_timeout", "after_game", "send_timeout"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"{name.replace('_', ' ')} {value}: must be more than 0 seconds")
        if self.max_spectators < 0:
            raise ValueError(f"max spectators {self.max_spectators}: at least 0")
        if not MIN_FRAME_BYTES <= self.max_frame_bytes <= MAX_PLAYER_MESSAGE_BYTES:
            raise ValueError(f"max frame bytes {self.max_frame_bytes}: {MIN_FRAME_BYTES} to "
                             f"{MAX_PLAYER_MESSAGE_BYTES}")
        if not MIN_SEND_BUFFER <= self.send_buffer_bytes <= MAX_SEND_BUFFER:
            raise ValueError(f"send buffer bytes {self.send_buffer_bytes}: {MIN_SEND_BUFFER} to {MAX_SEND_BUFFER}")
        if not (math.isfinite(self.max_messages_per_second) and self.max_messages_per_second >= 1):
            raise ValueError(f"max messages per second {self.max_messages_per_second}: at least 1")
