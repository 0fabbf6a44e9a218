"""Test-only cards (``test_only = true``) serve the tests of rules no pool card exercises: a
scenario may name one, a deck never holds one, in either deck format."""

from __future__ import annotations

from pathlib import Path

import pytest

from spellstack.cards import load_cards, load_deck, parse_decklist
from spellstack.rules import CardDefinitionError

CARDS = load_cards()


def test_a_deck_file_with_a_test_only_card_is_refused(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('name = "cheat"\n[cards]\n"Forest" = 38\n"Test Ambush Sprite" = 2\n', "utf-8")
    with pytest.raises(CardDefinitionError, match=r"'Test Ambush Sprite' is a test-only card"):
        load_deck(str(deck), CARDS)


def test_a_deck_list_with_a_test_only_card_is_refused() -> None:
    with pytest.raises(CardDefinitionError, match=r"line 2 .*'Test Bestower' is a test-only card"):
        parse_decklist("Deck\n2 Test Bestower\n38 Forest\n", "list.txt", CARDS)


def test_the_same_deck_without_it_loads(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('name = "fair"\n[cards]\n"Forest" = 38\n"Grizzly Bears" = 2\n', "utf-8")
    assert len(load_deck(str(deck), CARDS).cards) == 40
