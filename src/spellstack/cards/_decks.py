"""Decklists: the built-in decks, and deck files: TOML (``name``, ``[cards]`` name = count)
or a text decklist (an MTG Arena export or an MTGO ``.txt`` list, ``_decklists``)."""

from __future__ import annotations

import codecs
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated

from .._files import FileRefused, read_regular_file
from .._printable import printable
from .._suggest import closest
from ..rules import CardDefinition, CardDefinitionError
from ..rules.base import AtLeast
from ..schema import SchemaError, from_plain, other_keys_ignored
from ._pool import card_name_problem
from ._toml import checking, parse_toml, short_value

__all__ = ["DECKS", "MAX_DECK_SIZE", "MIN_DECK_SIZE", "Deck", "load_deck"]

MIN_DECK_SIZE = 40
"""The fewest cards a deck may have."""

MAX_DECK_SIZE = 10_000
"""No rule limits a deck's size; this bounds what a deck file can make the engine build."""


@dataclass(frozen=True, slots=True)
class Deck:
    """A decklist."""

    name: str
    """The deck's name."""
    cards: tuple[str, ...]
    """Card names, one entry per copy, in file order."""

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.cards)} cards)"


@other_keys_ignored
@dataclass(frozen=True, slots=True)
class DeckFile:
    """A TOML deck file as written; other keys (``description``) are ignored."""

    name: str
    """The deck's name."""
    cards: dict[str, Annotated[int, AtLeast(1)]]
    """The ``[cards]`` table: each card's name and how many copies, in file order."""


def _parse(source: str, text: str, cards: Mapping[str, CardDefinition]) -> Deck:
    data = parse_toml(text, source, CardDefinitionError)
    with checking(source, CardDefinitionError):
        try:
            deck = from_plain(DeckFile, data)
        except SchemaError as err:
            name = data.get("name")
            deck_name = f"deck {short_value(name)}: " if isinstance(name, str) else ""
            raise CardDefinitionError(f"{source}: {deck_name}{err}") from None
        return _check(source, deck, cards)


def _check(source: str, deck: DeckFile, cards: Mapping[str, CardDefinition]) -> Deck:
    """The deck's cards, one entry per copy: each one a card ``cards`` defines that a deck may
    hold, within the size limits."""
    name = deck.name
    out: list[str] = []
    for card, count in deck.cards.items():
        if card not in cards or cards[card].is_token:
            raise CardDefinitionError(f"{source}: deck {short_value(name)}: {card_name_problem(card, cards)[1]}")
        if cards[card].test_only:
            raise CardDefinitionError(f"{source}: deck {short_value(name)}: {short_value(card)} is a test-only card "
                                      "(for the tests of a rule), never in a deck")
        if "Dungeon" in cards[card].card_types:
            raise CardDefinitionError(f"{source}: deck {short_value(name)}: {short_value(card)} is a dungeon "
                                      "(309.2: it starts outside the game), never in a deck")
        if len(out) + count > MAX_DECK_SIZE:
            raise CardDefinitionError(f"{source}: deck {short_value(name)} has more than {MAX_DECK_SIZE} "
                                      "cards")
        out.extend([card] * count)
    if len(out) < MIN_DECK_SIZE:
        raise CardDefinitionError(f"{source}: deck {short_value(name)} has {len(out)} cards; at least "
                                  f"{MIN_DECK_SIZE}")
    return Deck(name, tuple(out))


def _builtin() -> tuple[str, ...]:
    folder = resources.files("spellstack.cards").joinpath("decks")
    return tuple(sorted(e.name[:-5] for e in folder.iterdir() if e.name.endswith(".toml")))


DECKS: tuple[str, ...] = _builtin()
"""Names of the built-in decks."""


_BUILT_IN: dict[str, tuple[Mapping[str, CardDefinition], Deck]] = {}
"""Built-in decks parsed so far, with the card definitions they were checked against."""


def load_deck(name_or_path: str, cards: Mapping[str, CardDefinition]) -> Deck:
    """A built-in deck by name, or a deck file by path: a ``.toml`` file is a TOML deck, any
    other file a text decklist (``parse_decklist``)."""
    if name_or_path in DECKS:
        # Built-in decks are package data: parsed once per card set (a tournament starts
        # thousands of games from the same two).
        known = _BUILT_IN.get(name_or_path)
        if known is not None and known[0] is cards:
            return known[1]
        entry = resources.files("spellstack.cards").joinpath("decks", f"{name_or_path}.toml")
        deck = _parse(f"decks/{name_or_path}.toml", entry.read_text("utf-8"), cards)
        _BUILT_IN[name_or_path] = (cards, deck)
        return deck
    path = Path(name_or_path)
    try:
        data = read_regular_file(path)
    except FileRefused as err:
        if err.folder:
            raise CardDefinitionError(f"{short_value(name_or_path)} is a folder, not a deck "
                                      "file") from None
        if err.missing:
            near = closest(name_or_path, DECKS)
            hint = f"; did you mean {near!r}?" if near else ""
            raise CardDefinitionError(f"no built-in deck or deck file {short_value(name_or_path)} "
                                      f"(built-in: {', '.join(DECKS)}){hint}") from None
        raise CardDefinitionError(f"deck file {short_value(name_or_path)}: {err}") from None
    # The path names the file in every error: escaped, as it may hold anything.
    source = printable(str(path))
    # Windows Notepad's "Unicode" is UTF-16 with a byte-order mark: the mark says which.
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    if not utf16 and b"\0" in data:
        # Valid UTF-8, yet no text: most likely UTF-16 saved without its mark.
        raise CardDefinitionError(f"{source}: a deck file must be UTF-8 text (byte "
                                  f"{data.index(0)} is a NUL: UTF-16 without its byte-order "
                                  "mark?)")
    try:
        text = data.decode("utf-16") if utf16 else data.decode("utf-8")
    except UnicodeDecodeError as err:
        kind = "UTF-16 text after its byte-order mark" if utf16 else "UTF-8 text"
        raise CardDefinitionError(f"{source}: a deck file must be {kind} (byte {err.start} "
                                  "is not)") from None
    if path.suffix.lower() == ".toml":
        return _parse(source, text, cards)
    # Deferred: the text decklist reader builds on this module's Deck and size limits.
    from ._decklists import parse_decklist

    return parse_decklist(text, source, cards)
