"""Protection (702.16): what a permanent with protection can't be damaged, enchanted or
equipped, blocked or targeted by (DEBT).

Protection is a keyword ability with a quality, written ``protection from QUALITY``: a colour
word (``protection from white``), a card type in the plural (``protection from artifacts``) or
``protection from monocolored``.
The permanent's abilities come from ``Game.keywords``, so protection granted by a continuous
effect (Apostle's Blessing, layer 6) counts like printed protection.
"""

from __future__ import annotations

from typing import Final

from ..base import WORD_BY_COLOR
from ..definitions import CardDefinition
from ..game import Game
from ..state import GameObject

_TYPE_WORDS: Final[dict[str, str]] = {"artifacts": "Artifact", "creatures": "Creature",
                               "enchantments": "Enchantment", "instants": "Instant",
                               "sorceries": "Sorcery", "lands": "Land",
                               "planeswalkers": "Planeswalker"}

PROTECTION_QUALITIES: Final[frozenset[str]] = frozenset({*WORD_BY_COLOR.values(), *_TYPE_WORDS,
                                                  "monocolored"})
"""702.16a: the qualities the kernel knows: the colours, the card types (plural) and
``monocolored`` (105.2a: exactly one colour)."""

_PREFIX: Final = "protection from "


def protection_keyword(quality: str) -> str:
    """The keyword ``protection from QUALITY``; a colour letter is spelled out."""
    word = WORD_BY_COLOR.get(quality, quality)
    if word not in PROTECTION_QUALITIES:
        raise ValueError(f"unknown protection quality {quality!r}")
    return _PREFIX + word


def protection_qualities(game: Game, obj: GameObject) -> tuple[str, ...]:
    """702.16a: the qualities ``obj`` has protection from now, in the order it got them."""
    return tuple(k[len(_PREFIX):] for k in game.keywords(obj) if k.startswith(_PREFIX))


def has_quality(game: Game, source: GameObject, quality: str,
                as_cast: CardDefinition | None = None) -> bool:
    """Whether ``source`` has the quality now: a colour (105) or a card type (205.2). An ability
    on the stack has the characteristics of its source (113.7a); the caller passes that.
    ``as_cast``: the face ``source`` is being cast as, whose characteristics alone it has
    (``protected_from``)."""
    looks = game.characteristics(source) if as_cast is None else as_cast
    for letter, word in WORD_BY_COLOR.items():
        if quality == word:
            return letter in looks.colors
    if quality == "monocolored":
        return len(looks.colors) == 1  # 105.2a
    card_type = _TYPE_WORDS.get(quality)
    return card_type is not None and card_type in looks.card_types


def protected_from(game: Game, obj: GameObject, source: GameObject | None,
                   as_cast: CardDefinition | None = None) -> bool:
    """702.16b-e: whether ``obj`` has protection from a quality ``source`` has. ``source`` None
    (no source, e.g. a rule) is never stopped. ``as_cast``: the face, half or Adventure the card
    ``source`` is proposed as while it is cast (601.2c), checked before it is on the stack: the
    spell has only that face's characteristics (709.3a, 715.3b, 708.2a), not the card's."""
    if source is None:
        return False
    qualities = protection_qualities(game, obj)
    return bool(qualities) and any(has_quality(game, source, q, as_cast) for q in qualities)
