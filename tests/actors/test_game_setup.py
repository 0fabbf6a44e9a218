"""``GameSetup``: one game's setup as a value, which deals the same game as the seat-by-seat
arguments did and refuses what does not fit together."""

from __future__ import annotations

import pytest

from spellstack.actors import GameSetup, SeatConfig
from spellstack.cards import Deck, load_cards, load_deck
from spellstack.rules import StartSettings, new_game

CARDS = load_cards()


def test_a_setup_deals_the_game_new_game_deals() -> None:
    setup = GameSetup(["gruul", "orzhov"], 5, ["ann", "ben"], StartSettings(chooser=1), turn_limit=9)
    built = setup.build(CARDS)
    dealt = new_game(CARDS, [("ann", load_deck("gruul", CARDS).cards), ("ben", load_deck("orzhov", CARDS).cards)],
                     5, start=StartSettings(chooser=1), turn_limit=9)
    assert built.state.canonical() == dealt.state.canonical()
    assert built.history is None and setup.build(CARDS, history=True).history == []


def test_defaults_name_seed_and_configure_each_seat() -> None:
    setup = GameSetup(("gruul", "dimir"), 4)
    assert setup.players == ("p1", "p2")
    assert setup.seat_configs == (SeatConfig(), SeatConfig())
    assert [setup.bot_seed(0), setup.bot_seed(1)] == [9, 10]  # spellstack play's random bots
    assert GameSetup(("gruul", "dimir"), 4, bot_seeds=[7, 3]).bot_seed(1) == 3


def test_a_setup_is_a_value_whatever_sequences_it_was_given() -> None:
    a = GameSetup(["gruul", "dimir"], 1, ["a", "b"])
    b = GameSetup(("gruul", "dimir"), 1, ("a", "b"))
    assert a == b and hash(a) == hash(b)


def test_loading_reads_each_deck_once_and_keeps_the_rest() -> None:
    mine = Deck("mine", load_deck("dimir", CARDS).cards)
    loaded = GameSetup(["gruul", mine], 2).loaded(CARDS)
    assert [d.name for d in loaded.read_decks()] == [load_deck("gruul", CARDS).name, "mine"]
    assert loaded.decks[1] is mine


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"names": ["a"]}, "2 decks but 1 names"),
    ({"configs": [SeatConfig()] * 3}, "2 decks but 3 configs"),
    ({"bot_seeds": [1]}, "2 decks but 1 bot_seeds"),
    ({"names": ["a", "a"]}, "two players have the same name"),
])
def test_parts_that_do_not_fit_are_refused(kwargs: dict[str, object], says: str) -> None:
    with pytest.raises(ValueError, match=says):
        GameSetup(["gruul", "dimir"], 1, **kwargs)  # type: ignore[arg-type]
