"""TODO package docstring: game."""

from ._caches import HandFacts, PermanentFacts, SeatBoard
from ._game import Game

__all__ = [
    "Game",
    "HandFacts",
    "PermanentFacts",
    "SeatBoard",
]
