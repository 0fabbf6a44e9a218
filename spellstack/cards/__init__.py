"""Card definitions (hand-written data files) and the loader that validates them."""

from ._decks import DECKS, Deck, load_deck
from ._fields import KEYWORDS
from ._loader import load_card_file, load_cards, parse_type_line

__all__ = ["DECKS", "KEYWORDS", "Deck", "load_card_file", "load_cards", "load_deck",
           "parse_type_line"]
