"""Card keys: each top-level key of a card's table in a card file (``[[card]]``, ``[[token]]``,
a face of a card of another layout), with the type of its value and the rule it serves.

The card loader reads a card's table into the card format's dataclasses (``CardTable`` for a
card or a face, ``MultiFaceTable`` for a card of another layout), which refuse any other key,
naming the file, the card and the key; a test holds their fields to this registry, name for
name and type for type, so that it and the loader say the same.

A mechanic (``rules/mechanics``) may register a key of its own: its entry names the mechanic,
the type its value is read as, and the card data it stands for (as a keyword that is a
triggered ability stands for that ability); the loader reads it beside the format's fields and
keeps its value on the card (``CardDefinition.mechanic_keys``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from ..registry import Registry

ValueType = Literal["string", "integer", "boolean", "list of strings", "table", "list of tables"]
"""What a key's value is in TOML."""
VALUE_TYPES: Final[tuple[ValueType, ...]] = get_args(ValueType)


@dataclass(frozen=True, slots=True)
class CardKey:
    """A top-level key of a card's table: what its value is, the rule it serves, what it means."""

    type: ValueType
    """What its value is in TOML (a table's or a list's items are described by the card format)."""
    rule: str
    """The comprehensive rule it serves (``"205.1"``), the first of several; empty for a key of
    spellstack's own that serves none."""
    means: str
    """What it says about the card, in a line."""
    mechanic: str = ""
    """The mechanic that registers it (``MECHANICS``); empty for a key of the card format's own
    tables."""
    reads_as: Any = None
    """A mechanic's key: the type its value is read as (by ``spellstack.schema``, with the
    validators of ``Annotated``); None for the format's own keys (their tables' fields say)."""
    stands_for: Callable[[Any], dict[str, list[dict[str, Any]]]] | None = None
    """A mechanic's key: the card data its value stands for, by card key (``{"replacement":
    [...]}``), added to the card's own before the card is read (each ability still quotes its
    Oracle text); None if it stands for none."""
    card_type: str = ""
    """A mechanic's key: the card type a card with it must have (205.2a); empty for any."""

    def __post_init__(self) -> None:
        if self.type not in VALUE_TYPES:
            raise ValueError(f"card key: type {self.type!r} is not one of {VALUE_TYPES}")
        if self.mechanic and self.reads_as is None:
            raise ValueError(f"card key of {self.mechanic!r}: say what its value is read as")
        if not self.mechanic and (self.reads_as is not None or self.stands_for is not None
                                  or self.card_type):
            raise ValueError("card key: only a mechanic's key is read or expanded by its entry")


CARD_KEYS: Final[Registry[CardKey]] = Registry("card key")
"""The closed registry of top-level card keys, in the order the card format's page lists them:
the keys of a card's own table, then the keys only a card of another layout has (with its
``name``), then the keys the mechanics register."""
for _name, _key in {
    "name": CardKey("string", "201.1", "the card's name; a face's own name on a card of another "
                    "layout"),
    "type": CardKey("string", "205.1", "the type line: supertypes, card types, a dash and "
                    "subtypes (``Legendary Creature — Dog``); ``Token`` marks a token"),
    "cost": CardKey("string", "202.1", "the mana cost as printed (``{1}{G}``); none for a land or "
                    "a card without one"),
    "pt": CardKey("string", "208.1", "power and toughness (``2/2``); ``*`` is defined by a "
                  "characteristic-defining ability (604.3)"),
    "loyalty": CardKey("integer", "209.1", "a planeswalker's printed loyalty: it enters with that "
                       "many loyalty counters (306.5b)"),
    "text": CardKey("string", "207.1", "the Oracle text, verbatim; each ability below quotes its "
                    "part of it"),
    "color": CardKey("string", "105.2", "colour letters (``WUBRG``) when the card's colours are "
                     "not those of its mana cost"),
    "keywords": CardKey("list of strings", "702.1", "keyword abilities, lower case, each in the "
                        "Oracle text"),
    "spell": CardKey("table", "113.3a", "the spell ability of an instant or sorcery: its targets "
                     "and effects, or its modes"),
    "activated": CardKey("list of tables", "602.1", "activated abilities (``[Cost]: [Effect]``), "
                         "mana and loyalty abilities included, in printed order"),
    "triggered": CardKey("list of tables", "603.1", "triggered abilities: a trigger event, an "
                         "optional intervening \"if\" and effects"),
    "replacement": CardKey("list of tables", "614.1", "static abilities that make replacement "
                           "effects"),
    "counter_limits": CardKey("list of tables", "704.5r", "\"can't have more than N KIND counters "
                              "on it\""),
    "enchant": CardKey("string", "702.5a", "an Aura's enchant ability: a target kind, what it can "
                       "enchant"),
    "restriction": CardKey("list of tables", "101.2", "static abilities saying something can't "
                           "happen"),
    "permission": CardKey("list of tables", "101.2", "static abilities saying something may "
                          "happen"),
    "static": CardKey("list of tables", "604.1", "static abilities with continuous effects, each "
                      "effect a layer verb"),
    "enters_as_copy": CardKey("table", "707.2", "\"you may have it enter as a copy of ...\" "
                              "(614.1c)"),
    "cost_options": CardKey("list of tables", "601.2b", "optional additional and alternative "
                            "costs, each a cost option"),
    "cast_from": CardKey("table", "601.3", "zones the card's own ability lets its owner cast it "
                         "from"),
    "test_only": CardKey("boolean", "", "a card for the tests of a rule: scenarios may use it, no "
                         "deck may"),
    "flash_if": CardKey("table", "601.3d", "\"this spell has flash as long as [condition]\": a "
                        "condition and the sentence it quotes"),
    "layout": CardKey("string", "709.1", "a card of another layout: ``split`` (709), "
                      "``adventure`` (715) or ``mdfc``, modal double-faced (712)"),
    "face": CardKey("list of tables", "709.1", "the two faces of a card of another layout, each "
                    "a card's table of its own"),
}.items():
    CARD_KEYS.register(_name, _key)
