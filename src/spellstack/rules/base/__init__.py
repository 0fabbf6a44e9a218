"""Foundations with no rules area of their own: errors by cause, the game's seeded generator,
bounded quoting of untrusted values, fast constructors for frozen value types, records whose
copies are themselves, rare fields kept out of a class's slots, the marks that type hints of
data files carry (``Words``, ``AtLeast``, ``Parsed``); and the game's shared words (colours,
card types and supertypes, zones), written once for every area.
"""

from ._builder import builder, native_builder
from ._errors import CardDefinitionError, IllegalActionError, InvalidMessageError, SpellstackError
from ._marks import AtLeast, Parsed, Words
from ._quote import in_int64, quote
from ._rare import is_compiled_class, rare_builder, rare_fields, reset_rare
from ._record import Record
from ._rng import GameRandom
from ._words import (
    BASIC_LAND_BY_COLOR,
    BASIC_LAND_TYPES,
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
    "BASIC_LAND_BY_COLOR",
    "BASIC_LAND_TYPES",
    "CARD_TYPES",
    "CARD_ZONES",
    "COLOR_BY_WORD",
    "MOVE_ZONES",
    "REDIRECT_ZONES",
    "SETUP_ZONES",
    "SUPERTYPES",
    "WORD_BY_COLOR",
    "ZONES",
    "AtLeast",
    "CardDefinitionError",
    "GameRandom",
    "IllegalActionError",
    "InvalidMessageError",
    "Parsed",
    "Record",
    "SpellstackError",
    "Words",
    "builder",
    "in_int64",
    "is_compiled_class",
    "native_builder",
    "quote",
    "rare_builder",
    "rare_fields",
    "reset_rare",
]
