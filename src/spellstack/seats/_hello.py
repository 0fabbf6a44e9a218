"""What a seat is told of its game before its first request."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_STARTUP", "SeatHello"]

DEFAULT_STARTUP = 10.0
"""Seconds a bot process has from its start to its ready frame unless told otherwise: a Python
bot importing the engine needs one or two on a busy machine."""


@dataclass(frozen=True, slots=True)
class SeatHello:
    """What a seat is told of its game before its first request (a bot process reads it as its
    hello frame)."""

    game: str
    """The game's id."""
    seat: int
    """The seat, from 0."""
    players: tuple[str, ...]
    """Every player's name, by seat."""
    deadline: float
    """Seconds it has for each decision."""
    seed: int
    """Its own seed, for whatever it draws at random (a bot is built from it)."""
    startup: float = DEFAULT_STARTUP
    """Seconds it has from its start to its ready frame, if it must start (a bot process not
    ready by then forfeits)."""
