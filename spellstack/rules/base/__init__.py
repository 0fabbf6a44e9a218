"""Foundations with no rules area of their own: errors by cause, the game's seeded generator,
bounded quoting of untrusted values and fast constructors for frozen value types; and the
game's shared words (colours, card types and supertypes, zones), written once for every area.
"""

from ._builder import builder
from ._errors import CardDefinitionError, IllegalActionError, InvalidMessageError, SpellstackError
from ._quote import in_int64, quote
from ._rng import GameRandom
from ._words import (
    CARD_TYPES,
    CARD_ZONES,
    COLOR_BY_WORD,
    MOVE_ZONES,
    REDIRECT_ZONES,
    SETUP_ZONES,
    SUPERTYPES,
    WORD_BY_COLOR,
    ZONES,
)

__all__ = [
    "CARD_TYPES",
    "CARD_ZONES",
    "COLOR_BY_WORD",
    "MOVE_ZONES",
    "REDIRECT_ZONES",
    "SETUP_ZONES",
    "SUPERTYPES",
    "WORD_BY_COLOR",
    "ZONES",
    "CardDefinitionError",
    "GameRandom",
    "IllegalActionError",
    "InvalidMessageError",
    "SpellstackError",
    "builder",
    "in_int64",
    "quote",
]
