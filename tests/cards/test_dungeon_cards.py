"""A dungeon (309.2) starts outside the game: a scenario's setup may put one in a player's command
zone, a deck never holds one, in either deck format."""

from __future__ import annotations

from pathlib import Path

import pytest

from spellstack.cards import load_cards, load_deck, parse_decklist
from spellstack.rules import CardDefinitionError

CARDS = load_cards()


def test_a_deck_file_with_a_dungeon_is_refused(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('name = "cheat"\n[cards]\n"Plains" = 39\n"Lost Mine of Phandelver" = 1\n', "utf-8")
    with pytest.raises(CardDefinitionError, match=r"'Lost Mine of Phandelver' is a dungeon"):
        load_deck(str(deck), CARDS)


def test_a_deck_list_with_a_dungeon_is_refused() -> None:
    with pytest.raises(CardDefinitionError, match=r"line 2 .*'Lost Mine of Phandelver' is a dungeon"):
        parse_decklist("Deck\n1 Lost Mine of Phandelver\n39 Plains\n", "list.txt", CARDS)


def test_a_deck_with_the_card_that_ventures_loads(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('name = "fair"\n[cards]\n"Plains" = 36\n"Cloister Gargoyle" = 4\n', "utf-8")
    assert load_deck(str(deck), CARDS).cards.count("Cloister Gargoyle") == 4
