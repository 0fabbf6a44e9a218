"""A finished game is freed the moment the last reference to it goes, not at the cyclic
collector's next full pass: nothing in a game refers back to the game in a cycle. (A tournament
keeps a thousand games in flight; finished games waiting for a full collection would be
hundreds of megabytes.)"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
import trio

from spellstack import RandomBot, play_one_game
from spellstack.cards import load_cards, load_deck
from spellstack.rules import Game, StartSettings, new_game, play_sync, view_for
from spellstack.rules.base import is_compiled_class

CARDS = load_cards()

pytestmark = pytest.mark.skipif(
    is_compiled_class(Game), reason="compiled, Game takes no weak reference and each game is a "
    "reference cycle (its layer cache holds it strongly): freed by the collector")


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _kernel_game(seed: int) -> weakref.ref[Game]:
    decks = [load_deck(d, CARDS).cards for d in ("gruul", "orzhov")]
    game = new_game(CARDS, [("a", decks[0]), ("b", decks[1])], seed, start=StartSettings())
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    play_sync(game, lambda d: bots[d.player].decide(view_for(game, d.player), d))
    assert game.state.game_over
    return weakref.ref(game)


@pytest.mark.usefixtures("no_collector")
def test_a_kernel_game_is_freed_by_reference_counting() -> None:
    for seed in range(3):
        assert _kernel_game(seed)() is None
    assert gc.collect() == 0  # and it left no garbage cycle behind


@pytest.mark.usefixtures("no_collector")
def test_a_game_played_by_the_actors_is_freed_by_reference_counting() -> None:
    async def play(seed: int) -> weakref.ref[Game]:
        game, result = await play_one_game(["gruul", "dimir"], [RandomBot(1), RandomBot(2)],
                                           seed, start=StartSettings())
        assert result.winner is not None or result.reason
        return weakref.ref(game)

    for seed in range(2):
        assert trio.run(play, seed)() is None
