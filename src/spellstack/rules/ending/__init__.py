"""Winning, losing and leaving (104, 800.4): a player loses, a player leaves a multiplayer game
with their objects, and the game ends when one player or none is left.
"""

from ._ending import CONCEDED, check_game_over, draw_game, lose_game

__all__ = [
    "CONCEDED",
    "check_game_over",
    "draw_game",
    "lose_game",
]
