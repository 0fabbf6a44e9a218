"""Card definitions (hand-written data files) and the loader that validates them."""

from ._decklists import parse_decklist
from ._decks import DECKS, MAX_DECK_SIZE, MIN_DECK_SIZE, Deck, load_deck
from ._format import KEYWORDS
from ._loader import load_card_file, load_cards, parse_type_line
from ._pool import POOL_NAMES, PoolNames, card_name_problem
from ._reference import card_format_reference
from ._toml import checking, parse_toml, short_value

__all__ = ["DECKS", "KEYWORDS", "MAX_DECK_SIZE", "MIN_DECK_SIZE", "POOL_NAMES", "Deck",
           "PoolNames", "card_format_reference", "card_name_problem", "checking", "load_card_file",
           "load_cards", "load_deck", "parse_decklist", "parse_toml", "parse_type_line", "short_value"]
