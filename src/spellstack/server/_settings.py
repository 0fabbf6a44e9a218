"""What a server is run with (``ServerSettings``), and the defaults."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["DEFAULT_GRACE", "DEFAULT_HOST", "DEFAULT_MAX_GAMES", "DEFAULT_PORT", "ServerSettings"]

DEFAULT_HOST = "127.0.0.1"
"""The address served unless told otherwise: this machine only."""
DEFAULT_PORT = 8765
"""The port served unless told otherwise."""
DEFAULT_MAX_GAMES = 100
"""Games hosted at once unless told otherwise."""
DEFAULT_GRACE = 60.0
"""Seconds a seat's client may be away (not joined yet, or disconnected) before the seat
forfeits, unless told otherwise."""


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
    hello_timeout: float = 10.0
    """Seconds a connection has for each step before it plays or watches (its ``Hello``, then
    each message up to its ``JoinSeat`` or ``Spectate``); then it is closed."""
    max_spectators: int = 100
    """Spectators of one game at once; one more is refused."""
    after_game: float = 2.0
    """Seconds a seat's connection stays open after its ``GameOver`` for the client's
    ``Goodbye``; then the server closes it."""

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise ValueError(f"port {self.port}: not between 0 and 65535")
        if self.max_games < 1:
            raise ValueError(f"max games {self.max_games}: at least 1")
        for name in ("grace", "hello_timeout", "after_game"):
            value = getattr(self, name)
            if not value > 0:
                raise ValueError(f"{name.replace('_', ' ')} {value}: must be more than 0 seconds")
        if self.max_spectators < 0:
            raise ValueError(f"max spectators {self.max_spectators}: at least 0")
