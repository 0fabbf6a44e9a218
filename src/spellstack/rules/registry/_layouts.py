"""Card layouts (709, 712, 715): the frames of a card with two faces (halves, an Adventure, a
back face), each a card file may name as a card's ``layout``, registered by its mechanic's
module (``rules/mechanics``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ._registry import Registry


@dataclass(frozen=True, slots=True)
class Layout:
    """A layout of a card with two faces: its rule and what it is."""

    rule: str
    """Its rule (``"709.1"``)."""
    does: str
    """What a card of it is, and which face may be cast or played, in words."""


LAYOUTS: Final[Registry[Layout]] = Registry("layout")
"""The closed registry of the layouts a card file may name (a card of none has one face)."""
