"""TODO package docstring: ending."""

from ._ending import check_game_over, lose_game

__all__ = [
    "check_game_over",
    "lose_game",
]
