"""Starting a game (103): players, shuffled libraries, opening hands; for a game of a match, the
starting player's choice (103.1) and London mulligans (103.5) as decisions (``start_game``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from ..base import GameRandom, IllegalActionError
from ..definitions import CardDefinition
from ..game import Game
from ..state import (
    MAX_PLAYERS,
    Answer,
    GameState,
    PlayerState,
    Proc,
    StartProgress,
    StartSettings,
    new_choice,
    player_ref,
)
from ..zones import create_object, draw_cards, move_object

OPENING_HAND: Final = 7


DEFAULT_TURN_LIMIT: Final = 300


def new_game(cards: Mapping[str, CardDefinition], players: Sequence[tuple[str, Sequence[str]]],
             seed: int, *, turn_limit: int = DEFAULT_TURN_LIMIT,
             start: StartSettings | None = None) -> Game:
    """103.1-103.5: seat the players in the given order, shuffle each library with the game's
    generator, and draw opening hands.

    ``start`` None: the first seat plays first and every player keeps seven cards (``play``,
    ``bench``, scenarios). ``start`` given: the game starts the way a game of a match does
    (``start_game``, the first thing the game loop does): the chooser (``StartSettings.chooser``,
    or a seat the generator picks) chooses who takes the first turn, then everyone draws seven
    and may take London mulligans.

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
    if start is not None and start.starting is not None:
        # Play and draw fixed in advance: nobody chooses (chooser -1), nothing is drawn for it.
        if not 0 <= start.starting < len(players):
            raise IllegalActionError(f"the starting player must be a seat from 0 to "
                                     f"{len(players) - 1}, got {start.starting}")
        state.start = StartProgress(-1, [0] * len(players), starting=start.starting,
                                    kept=[False] * len(players), allow_mulligans=start.mulligans)
    elif start is not None:
        chooser = start.chooser
        if chooser is None:
            # 103.1: in a match's first game, "any mutually agreeable method" picks the player
            # who chooses: here the game's generator, before anything else draws on it.
            chooser = state.rng.below(len(players))
        elif not 0 <= chooser < len(players):
            raise IllegalActionError(f"103.1: the chooser must be a seat from 0 to "
                                     f"{len(players) - 1}, got {chooser}")
        state.start = StartProgress(chooser, [0] * len(players), kept=[False] * len(players),
                                  allow_mulligans=start.mulligans)
    library_seeds = start.library_seeds if start is not None else ()
    if library_seeds and len(library_seeds) != len(players):
        raise IllegalActionError(f"103.3: {len(library_seeds)} library seeds for "
                                 f"{len(players)} players")
    for seat, (_, deck) in enumerate(players):
        for name in deck:
            if name not in cards:
                raise IllegalActionError(f"unknown card {name!r} in {players[seat][0]}'s deck")
        # 103.3: shuffle first, then number the cards top to bottom, so that an id says nothing
        # about the deck list's order (400.2: a library's order is hidden).
        order = list(deck)
        (GameRandom.from_seed(library_seeds[seat]) if library_seeds else state.rng).shuffle(order)
        for name in order:
            create_object(game, name, seat, "library")
    if start is not None:
        # 103.1-103.5 are decisions: the game loop's first task (``start_game``).
        game.take_events()
        state.priority = -1
        state.cycle = "start"
        return game
    for seat in range(len(players)):
        draw_cards(game, seat, OPENING_HAND)
    game.take_events()
    # The game starts in the first player's upkeep (the untap step has nothing to untap).
    state.priority = 0
    state.cycle = "check"
    state.sba.mark_all()
    return game


_KEEP: Final = 0
_MULLIGAN: Final = 1


def start_game(game: Game) -> Proc[None]:
    """103.1-103.7 for a game that starts the tournament way (``GameState.start``).

    103.1: the chooser chooses who takes the first turn (a ``starting_player`` decision); the
    turn order begins with the starting player. 103.5: each player draws seven (in turn order
    from the starting player). Then, until nobody takes one, the players who have not kept
    declare in turn order whether they keep or take a mulligan (``mulligan`` decisions); those
    who take one do so at the same time: each shuffles their hand into their library, draws
    seven, and puts as many cards as the mulligans they have taken on the bottom of their
    library in the order they choose (a ``mulligan_bottom`` decision; 103.5c: in a game of
    three or more players the first mulligan is free). A player whose hand would be empty
    takes no further mulligan. 103.7: the starting player's first turn then begins (in its
    upkeep: the untap step has nothing to untap; 103.8a, their draw is skipped in a two-player
    game).
    """
    st = game.state
    start = st.start
    assert start is not None and not start.done, "start_game: not a game that starts this way"
    n = len(st.players)
    if start.starting >= 0:  # fixed before the game (``StartSettings.starting``): nobody chooses
        starting = start.starting
        game.log("starting_player", f"{st.players[starting].name} takes the first turn (play "
                 "and draw fixed before the game)", player=starting)
    else:
        # 103.1: the choice of who takes the first turn.
        choices = tuple(new_choice(seat, player_ref(seat), p.name, 0) for seat, p in enumerate(st.players))
        reply = yield game.decision(start.chooser, "starting_player",
                                    "103.1: choose who takes the first turn", choices=choices,
                                    min=1, max=1)
        assert isinstance(reply, Answer)
        starting = reply.keys[0]
        start.starting = starting
        game.log("starting_player", f"{st.players[start.chooser].name} chooses "
                 f"{st.players[starting].name} to take the first turn", player=starting)
    st.active = starting
    order = [(starting + i) % n for i in range(n)]
    for seat in order:  # 103.5: starting hands
        draw_cards(game, seat, OPENING_HAND)
    free = 1 if n >= 3 else 0  # 103.5c
    while start.allow_mulligans:
        takers: list[int] = []
        for seat in order:
            if start.kept[seat]:
                continue
            hand = st.players[seat].hand
            if not hand:
                start.kept[seat] = True  # an empty hand: no further mulligan
                continue
            taken = start.mulligans[seat]
            reply = yield game.decision(
                seat, "mulligan",
                f"103.5: keep your {len(hand)}-card hand or take a mulligan (mulligans taken: "
                f"{taken}; after another you put {max(0, taken + 1 - free)} on the bottom)",
                choices=(new_choice(_KEEP, 0, "keep", 0), new_choice(_MULLIGAN, 0, "mulligan", 0)),
                min=1, max=1)
            assert isinstance(reply, Answer)
            if reply.keys == (_MULLIGAN,):
                takers.append(seat)
            else:
                start.kept[seat] = True
        if not takers:
            break
        for seat in takers:  # at the same time: shuffled back, then seven new cards
            p = st.players[seat]
            for oid in list(p.hand):
                move_object(game, oid, "library", cause="mulligan")
            st.rng.shuffle(p.library)
            game.log("mulligan", f"{p.name} takes a mulligan", player=seat)
        for seat in takers:
            draw_cards(game, seat, OPENING_HAND)
        for seat in takers:
            start.mulligans[seat] += 1
            count = min(start.mulligans[seat] - free, len(st.players[seat].hand))
            if count <= 0:
                continue
            p = st.players[seat]
            hand = list(p.hand)
            cards = tuple(new_choice(i, oid, st.objects[oid].name, 0) for i, oid in enumerate(hand))
            reply = yield game.decision(
                seat, "mulligan_bottom",
                f"103.5: put {count} card{'s' if count != 1 else ''} from your hand on the bottom "
                "of your library, the first named first (the last named ends up at the bottom)",
                choices=cards, min=count, max=count)
            assert isinstance(reply, Answer)
            for key in reply.keys:
                move_object(game, hand[key], "library", top=False, cause="mulligan")
            game.log("mulligan_bottom", f"{p.name} puts {count} card{'s' if count != 1 else ''} "
                     "on the bottom of their library", player=seat, amount=count)
    start.done = True
    st.priority = starting
    st.cycle = "check"
    st.sba.mark_all()
