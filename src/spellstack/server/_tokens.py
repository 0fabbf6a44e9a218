"""Tokens: the secrets that open a seat, a game's spectator view, a tournament's entrant, a
person's seat of a chat game or a chat game's ending.

A token is 32 random bytes from the operating system (``secrets``), written in URL-safe
base64 (43 characters). The server keeps only each token's SHA-256 digest: a presented token is
hashed, found by its digest and then compared with it in constant time (``hmac.compare_digest``),
so neither the lookup nor the comparison takes a time that depends on how much of a guess is
right (the guess's digest is unrelated to the token's). A token is never logged, traced or
quoted in an error.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Literal

__all__ = ["MAX_TOKEN_LENGTH", "TOKEN_BYTES", "Grant", "TokenBook", "new_token"]

TOKEN_BYTES = 32
"""Random bytes in a token (256 bits)."""
MAX_TOKEN_LENGTH = 64
"""The longest token a client may present (a token is 43 characters)."""


def new_token() -> str:
    """A fresh token, never one that begins with ``-``: a token is passed on command lines
    (``remote_bot.py URL --entrant TOKEN``), where one that began with a dash would be read as
    an option (one in 64 of them would be; drawing again costs well under a bit of the 256)."""
    while True:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        if not token.startswith("-"):
            return token


@dataclass(frozen=True, slots=True)
class Grant:
    """What one token opens."""

    game: str
    """The game's id (a tournament's entrant: the entrant's name)."""
    role: Literal["seat", "spectator", "entrant", "chat", "owner"]
    """Whether it plays a seat, watches, plays a tournament's entrant, plays a person's seat
    of a chat game by text, or may end a chat game."""
    seat: int = -1
    """The seat it plays (-1 for a token that plays no seat)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    digest: bytes
    """The token's SHA-256 digest."""
    grant: Grant
    """What it opens."""


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class TokenBook:
    """Every live token of a server, by digest."""

    def __init__(self) -> None:
        self._entries: dict[bytes, _Entry] = {}

    def issue(self, grant: Grant) -> str:
        """A new token for ``grant``."""
        token = new_token()
        digest = _digest(token)
        self._entries[digest] = _Entry(digest, grant)
        return token

    def find(self, token: str) -> Grant | None:
        """What ``token`` opens, or None (unknown, revoked, or not a token)."""
        if not 0 < len(token) <= MAX_TOKEN_LENGTH:
            return None
        digest = _digest(token)
        entry = self._entries.get(digest)
        if entry is None or not hmac.compare_digest(entry.digest, digest):
            return None
        return entry.grant

    def revoke(self, token: str) -> None:
        """``token`` opens nothing from now on (a seat's client said goodbye)."""
        self._entries.pop(_digest(token), None)

    def revoke_game(self, game: str) -> None:
        """Every token of ``game`` opens nothing from now on (the game is over)."""
        for digest in [d for d, e in self._entries.items() if e.grant.game == game]:
            del self._entries[digest]

    def __len__(self) -> int:
        return len(self._entries)
