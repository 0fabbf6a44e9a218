"""Zones and zone changes (400): new objects on every zone change (400.7), last known
information, drawing (121), life (119), damage (120), tokens (111), and destruction (701.7).
"""

from ._destroy import destroy_permanent
from ._zones import (
    copy_card,
    create_object,
    create_token,
    deal_damage,
    draw_cards,
    gain_life,
    lose_life,
    move_object,
    move_object_proc,
    replace_entering,
    return_exiled,
    simultaneous_moves,
)

__all__ = [
    "copy_card",
    "create_object",
    "create_token",
    "deal_damage",
    "destroy_permanent",
    "draw_cards",
    "gain_life",
    "lose_life",
    "move_object",
    "move_object_proc",
    "replace_entering",
    "return_exiled",
    "simultaneous_moves",
]
