"""Games from whole decks, shuffled and dealt as ``new_game`` does (through ``GameSetup``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..actors import GameSetup
from ..cards import Deck, load_cards
from ..rules import CardDefinition, Game, StartSettings

__all__ = ["NAMES", "deck_game"]

NAMES = ("alice", "bob", "carol", "dan")
"""The players' names when a test gives none, in seat order."""


def deck_game(*decks: str | Sequence[str], seed: int = 0, names: Sequence[str] | None = None,
              start: StartSettings | None = None,
              cards: Mapping[str, CardDefinition] | None = None) -> Game:
    """A game between players with these decks, in seat order: each a built-in deck's name
    (``gruul``, ``dimir``, ``orzhov``) or a list of card names. Libraries are shuffled with
    ``seed`` and opening hands drawn (``new_game``); ``start`` starts it as a game of a match
    does. ``names``: the players' names (default ``NAMES``)."""
    cards = load_cards() if cards is None else cards
    names = NAMES[:len(decks)] if names is None else names
    if len(names) != len(decks):
        raise ValueError(f"{len(decks)} decks but {len(names)} names: {list(names)}")
    lists = [d if isinstance(d, str) else Deck("", tuple(d)) for d in decks]
    return GameSetup(lists, seed, names, start).build(cards)
