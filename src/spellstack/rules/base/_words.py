"""The game's shared words, each vocabulary written once: the colours (105.1), the card types and
supertypes (205.2a, 205.4a) and the zones (400.1), with the named subsets of zones beside them.

Every part of the program that reads or checks one of these words takes it from here: the
kernel, the card loader and the scenarios.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

WORD_BY_COLOR: Final[Mapping[str, str]] = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
"""105.1: the five colours by letter, in WUBRG order, with their words ("W" -> "white")."""
COLOR_BY_WORD: Final[Mapping[str, str]] = {word: letter for letter, word in WORD_BY_COLOR.items()}
"""The inverse of ``WORD_BY_COLOR``: a colour word's letter ("white" -> "W")."""
BASIC_LAND_BY_COLOR: Final[Mapping[str, str]] = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain",
                                          "G": "Forest"}
"""305.6: the basic land type whose intrinsic mana ability makes each colour's mana."""
BASIC_LAND_TYPES: Final[tuple[str, ...]] = tuple(BASIC_LAND_BY_COLOR.values())
"""205.3i: the basic land types (text-changing effects may swap them)."""

CARD_TYPES: Final[frozenset[str]] = frozenset({"Artifact", "Battle", "Creature", "Dungeon", "Enchantment",
                                        "Instant", "Kindred", "Land", "Planeswalker", "Sorcery"})
"""205.2a: the card types."""
SUPERTYPES: Final[frozenset[str]] = frozenset({"Basic", "Legendary", "Snow", "World"})
"""205.4a: the supertypes (a copy "except it isn't legendary" names one, 707.9b)."""

ZONES: Final[tuple[str, ...]] = ("library", "hand", "battlefield", "graveyard", "stack", "exile", "command")
"""400.1: the zones, in the rule's order; every subset below is drawn from them."""
CARD_ZONES: Final[frozenset[str]] = frozenset({"hand", "library", "graveyard", "exile"})
"""The zones where an object is a card, neither a permanent nor a spell: the zones an effect's
``zone`` names, and those where a card with no static ability keeps its printed values until it
leaves (400.7)."""
MOVE_ZONES: Final[frozenset[str]] = frozenset({"hand", "graveyard", "battlefield", "exile"})
"""Zones whose cards ``shuffle_into_library`` may take (the battlefield: permanents owned)."""
REDIRECT_ZONES: Final[frozenset[str]] = frozenset({"library", "exile", "hand"})
"""Where a ``to_graveyard`` replacement may send a card instead (``library``: shuffled in)."""
SETUP_ZONES: Final[tuple[str, ...]] = ("library", "hand", "graveyard", "exile", "battlefield")
"""The zones a set-up position (a scenario's ``setup``) places cards in, in the order it places
them: the order fixes the objects' ids. A scenario's step may take a card from any of them."""
