"""Starting a game: players, shuffled libraries, opening hands (103)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..base import GameRandom, IllegalActionError
from ..definitions import CardDefinition
from ..game import Game
from ..state import MAX_PLAYERS, GameState, PlayerState
from ..zones import create_object, draw_cards

OPENING_HAND = 7


DEFAULT_TURN_LIMIT = 300


def new_game(cards: Mapping[str, CardDefinition], players: Sequence[tuple[str, Sequence[str]]],
             seed: int, *, turn_limit: int = DEFAULT_TURN_LIMIT) -> Game:
    """103.1-103.5: seat the players in the given order (the first plays first), shuffle each
    library with the game's generator, and draw opening hands. Mulligans come later.

    ``turn_limit``: the game is a draw when that turn ends (0 for none); random bots can
    otherwise loop for ever (two players recasting Black Sun's Zenith, say).
    """
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise IllegalActionError(f"103.1: a game needs 2 to {MAX_PLAYERS} players, "
                                 f"got {len(players)}")
    state = GameState(
        players=[PlayerState(seat=i, name=name) for i, (name, _) in enumerate(players)],
        rng=GameRandom.from_seed(seed),
        step="upkeep",
        turn_limit=turn_limit,
        seed=seed,
    )
    game = Game(state, cards)
    for seat, (_, deck) in enumerate(players):
        for name in deck:
            if name not in cards:
                raise IllegalActionError(f"unknown card {name!r} in {players[seat][0]}'s deck")
        # 103.3: shuffle first, then number the cards top to bottom, so that an id says nothing
        # about the deck list's order (400.2: a library's order is hidden).
        order = list(deck)
        state.rng.shuffle(order)
        for name in order:
            create_object(game, name, seat, "library")
    for seat in range(len(players)):
        draw_cards(game, seat, OPENING_HAND)
    game.take_events()
    # The game starts in the first player's upkeep (the untap step has nothing to untap).
    state.priority = 0
    state.cycle = "check"
    state.sba.mark_all()
    return game
