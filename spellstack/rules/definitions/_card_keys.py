"""Card keys: each top-level key of a card's table in a card file (``[[card]]``, ``[[token]]``,
a face of a card of another layout), with the type of its value and the rule it serves.

The card loader reads a card's table into the card format's dataclasses (``CardTable`` for a
card or a face, ``MultiFaceTable`` for a card of another layout), which refuse any other key,
naming the file, the card and the key; a test holds their fields to this registry, name for
name and type for type, so that it and the loader say the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

ValueType = Literal["string", "integer", "boolean", "list of strings", "table", "list of tables"]
"""What a key's value is in TOML."""
VALUE_TYPES: tuple[ValueType, ...] = get_args(ValueType)


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


CARD_KEYS: dict[str, CardKey] = {
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
}
"""The closed registry of top-level card keys, in the order the card format's page lists them:
the keys of a card's own table, then the keys only a card of another layout has (with its
``name``)."""
