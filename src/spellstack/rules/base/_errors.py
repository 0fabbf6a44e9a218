"""Errors, split by cause."""

from __future__ import annotations


class SpellstackError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalActionError(SpellstackError):
    """The rules forbid what was asked; the message names the rule and the game state."""


class InvalidMessageError(SpellstackError):
    """A message or answer is malformed: wrong shape, type, size or reference."""


class CardDefinitionError(SpellstackError):
    """A card data file is broken; the message names the file, the card and the field."""
