"""Foundations with no rules area of their own: errors by cause, the game's seeded generator,
bounded quoting of untrusted values, fast constructors for frozen value types, and the marks
that type hints of data files carry (``Words``, ``AtLeast``, ``Parsed``).
"""

from ._builder import builder
from ._errors import CardDefinitionError, IllegalActionError, InvalidMessageError, SpellstackError
from ._marks import AtLeast, Parsed, Words
from ._quote import in_int64, quote
from ._rng import GameRandom

__all__ = [
    "AtLeast",
    "CardDefinitionError",
    "GameRandom",
    "IllegalActionError",
    "InvalidMessageError",
    "Parsed",
    "SpellstackError",
    "Words",
    "builder",
    "in_int64",
    "quote",
]
