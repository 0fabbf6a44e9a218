"""TODO package docstring: zones."""

from ._destroy import destroy_permanent
from ._zones import (
    create_object,
    create_token,
    deal_damage,
    draw_cards,
    gain_life,
    lose_life,
    move_object,
    move_object_proc,
    return_exiled,
    simultaneous_moves,
)

__all__ = [
    "create_object",
    "create_token",
    "deal_damage",
    "destroy_permanent",
    "draw_cards",
    "gain_life",
    "lose_life",
    "move_object",
    "move_object_proc",
    "return_exiled",
    "simultaneous_moves",
]
