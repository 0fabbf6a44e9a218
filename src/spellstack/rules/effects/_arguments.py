"""The argument vocabulary of effect verbs: the words an effect uses for players and objects,
and the type of each kind of argument (an ``Annotated`` type whose ``ArgKind`` names the kind,
gives an example and checks what the Python type can't say). A verb class's fields are typed
with these; the card loader reads and checks a card file's values by them."""

from __future__ import annotations

from typing import Annotated, Literal

from ..base import CARD_ZONES, MOVE_ZONES
from ..definitions import ArgKind, CostName, CounterKind, Effect, Flag, Number
from ..layers import DURATIONS, LAYER_ARG_KINDS, is_value
from ..legality import RESTRICTION_FILTERS
from ..mana import MANA_TYPES, ManaCostSyntaxError, parse_mana_cost
from ..state import STEPS

__all__ = [
    "OBJECT_WORDS",
    "PLAYER_WORDS",
    "Amount",
    "CardTypes",
    "Colors",
    "CostName",
    "CounterKind",
    "Duration",
    "Effects",
    "ExileUntil",
    "Flag",
    "Keywords",
    "ManaCostText",
    "ManaType",
    "MoveZones",
    "Number",
    "ObjectWord",
    "PlayerWord",
    "Positions",
    "ProtectionChoice",
    "Recipients",
    "Share",
    "SpellFilter",
    "Step",
    "Supertypes",
    "TextWord",
    "TokenName",
    "Under",
    "Value",
    "Words",
    "Zone",
    "word_of",
]

PLAYER_WORDS: frozenset[str] = frozenset({"you", "target", "each_player", "each_opponent"})
"""Words an effect may use for players: the controller, the targeted player(s), everyone."""
OBJECT_WORDS: frozenset[str] = frozenset({"self", "target", "subject", "each_creature",
                                         "each_permanent", "self_in_graveyard", "exiled",
                                         "each_creature_you_control", "each_creature_that_attacked",
                                         "chosen", "copy", "that", "that_card", "those_cards"})
"""Words an effect may use for objects: the source, the target(s), the object the trigger event
was about, every creature, every creature the controller controls, every creature that attacked
this turn (508.1), every permanent (``destroy`` narrows it with ``types`` and
``mana_value``), the card the source became in its owner's graveyard (603.6e), the cards exiled
with the source ("the exiled card", 607.2a), the card an earlier instruction of the ability
chose (``choose_card``) and the copy it made (``copy_card``); the permanent or player a
``for_each`` is handling now ("that permanent or player", 608.2f), the card the latest
``exile_top`` exiled ("that card") and every card ``exile_top`` exiled as the ability resolved
("the exiled cards")."""


def word_of(value: str) -> str:
    """``target:1`` -> ``target``: a target word may name its requirement by index."""
    return value.split(":", 1)[0]


def _is_mana_cost(text: str) -> bool:
    try:
        parse_mana_cost(text)
    except ManaCostSyntaxError:
        return False
    return True


# Amounts. X is the value chosen as the spell was cast (107.3).
Amount = Annotated[int | Literal["X"], ArgKind("amount", 1)]
"""How many: a number, or X."""
Share = Annotated[int | Literal["X", "divided", "that_card_mana_value"], ArgKind("share", 1)]
"""An amount of damage, or ``divided``: each recipient's share of what the spell divided as it
was cast (601.2d); ``that_card_mana_value``: "damage equal to that card's mana value", the mana
value of the card ``that_card`` names, as it is where it is now (608.2h)."""
Value = Annotated[int | str, ArgKind("value", 1, lambda v: is_value(v) or v == "X")]
"""A layer primitive's value: a number, X, or a word from ``VALUES`` (the layers package)."""

# Players and objects.
PlayerWord = Annotated[str, ArgKind("players", "you", lambda v: word_of(v) in PLAYER_WORDS)]
"""Players, a word from ``PLAYER_WORDS`` (``target:N``: those of target requirement N)."""
ObjectWord = Annotated[str, ArgKind("objects", "each_creature", lambda v: word_of(v) in OBJECT_WORDS)]
"""Objects, a word from ``OBJECT_WORDS`` (``target:N``: those of target requirement N)."""
Recipients = Annotated[str, ArgKind("recipients", "each_opponent",
                                    lambda v: word_of(v) in OBJECT_WORDS | PLAYER_WORDS)]
"""Players or objects (what damage is dealt to), a word from either list."""
Under = Annotated[Literal["you"], ArgKind("under", "you")]
"""110.2a: "under your control"."""

# Zones, steps, durations.
Zone = Annotated[str, ArgKind("zone", "hand", CARD_ZONES.__contains__)]
"""A zone a card is put into or chosen from, from ``CARD_ZONES``."""
MoveZones = Annotated[tuple[str, ...], ArgKind("zones", ("graveyard",),
                                               lambda v: bool(v) and all(z in MOVE_ZONES for z in v))]
"""Zones whose cards move together, from ``MOVE_ZONES`` (one at least)."""
Step = Annotated[str, ArgKind("step", "end", STEPS.__contains__)]
"""A step or phase (500.1), from ``STEPS``."""
Duration = Annotated[str, ArgKind("duration", "end_of_turn", DURATIONS.__contains__)]
"""611.2a/611.2b: how long a resolved effect lasts, from ``DURATIONS`` (the layers package)."""
ExileUntil = Annotated[Literal["source_leaves"], ArgKind("exile_until", "source_leaves")]
"""610.3: "until [the source] leaves the battlefield"."""

# Cards and what they are.
ManaType = Annotated[str, ArgKind("mana", "G", MANA_TYPES.__contains__)]
"""A type of mana (106.1b): W U B R G or C."""
ManaCostText = Annotated[str, ArgKind("mana_cost", "{2}", _is_mana_cost)]
"""A mana cost as printed (202.1), ``{2}``."""
TokenName = Annotated[str, ArgKind("token", "Soldier", bool)]
"""The name of a token's definition (111.4)."""
CardTypes = Annotated[tuple[str, ...], ArgKind("types", ("Creature",), LAYER_ARG_KINDS["types"])]
"""Card types (205.2a)."""
Supertypes = Annotated[tuple[str, ...], ArgKind("supertypes", ("Legendary",), LAYER_ARG_KINDS["supertypes"])]
"""Supertypes (205.4a)."""
Words = Annotated[tuple[str, ...], ArgKind("words", ("Bear",), LAYER_ARG_KINDS["words"])]
"""Subtypes or supertypes, as printed."""
TextWord = Annotated[str, ArgKind("text_word", "white", LAYER_ARG_KINDS["text_word"])]
"""612.2: a word a text-changing effect changes: a colour word or a basic land type."""
Colors = Annotated[str, ArgKind("colors", "W", LAYER_ARG_KINDS["colors"])]
"""Colours as letters, ``WU`` (``""``: colourless, 105.2c)."""
Keywords = Annotated[tuple[str, ...], ArgKind("keywords", ("flying",), LAYER_ARG_KINDS["keywords"])]
"""Keyword abilities (702), lower case."""
Positions = Annotated[tuple[int, ...], ArgKind("positions", (1,), LAYER_ARG_KINDS["positions"])]
"""Printed abilities of the source's definition, by their position (from 1)."""
ProtectionChoice = Annotated[Literal["artifacts_or_color"], ArgKind("protection_choice", "artifacts_or_color")]
"""702.16: what protection may be chosen from: artifacts or one colour."""
SpellFilter = Annotated[str, ArgKind("filter", "any", RESTRICTION_FILTERS.__contains__)]
"""101.2: which spells or cards a permission is about, from ``RESTRICTION_FILTERS``."""

# Instructions.
Effects = Annotated[tuple[Effect, ...], ArgKind("effects", ({"verb": "gain_life", "amount": 1},))]
"""Instructions held by another (``may``'s, a delayed trigger's), in order."""
