"""The kernel's handle on one game (``Game``): its state, its card definitions, its events, the
decisions it numbers, characteristic queries (613, through the layer engine's cache), and every
cache the kernel keeps (``Caches``, one object with one invalidation point).
"""

from ._caches import Caches, HandFacts, PermanentFacts, SeatBoard
from ._game import EXILE_LOOK_RULE, MANA_PAYER, SPELL_CASTER, TOP_CARD_RULE, Game, TracedEvent

__all__ = [
    "EXILE_LOOK_RULE",
    "MANA_PAYER",
    "SPELL_CASTER",
    "TOP_CARD_RULE",
    "Caches",
    "Game",
    "HandFacts",
    "PermanentFacts",
    "SeatBoard",
    "TracedEvent",
]
