"""Foundations with no rules area of their own: errors by cause, the game's seeded generator,
bounded quoting of untrusted values, and fast constructors for frozen value types.
"""

from ._builder import builder
from ._errors import CardDefinitionError, IllegalActionError, InvalidMessageError, SpellstackError
from ._quote import in_int64, quote
from ._rng import GameRandom

__all__ = [
    "CardDefinitionError",
    "GameRandom",
    "IllegalActionError",
    "InvalidMessageError",
    "SpellstackError",
    "builder",
    "in_int64",
    "quote",
]
