"""103 for a game of a match (``new_game(start=StartSettings(...))``): the chooser's choice of who
takes the first turn (103.1), opening hands and London mulligans (103.5, 103.5c), and the
first turn that follows (103.7, 103.8a). Driven through the game loop, as every game is."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spellstack.cards import load_cards, load_deck
from spellstack.rules import (
    Action,
    Answer,
    Decision,
    Game,
    IllegalActionError,
    Reply,
    StartSettings,
    check_answer,
    default_answer,
    play_sync,
    player_ref,
    view_for,
)
from spellstack.testing import deck_game

CARDS = load_cards()
GRUUL = load_deck("gruul", CARDS).cards
DIMIR = load_deck("dimir", CARDS).cards
NAMES = ("p0", "p1")


def _play_start(game: Game, answer: Callable[[Decision], Reply]) -> list[Decision]:
    """Run the game until the first grant of priority; returns every question asked."""
    asked: list[Decision] = []

    def record(decision: Decision) -> Reply:
        asked.append(decision)
        return answer(decision)

    play_sync(game, record, until=lambda g, task: task == "priority")
    return asked


def _keep_all(decision: Decision) -> Reply:
    return default_answer(decision)


def test_the_chooser_chooses_who_takes_the_first_turn_and_the_turn_order_begins_there() -> None:
    game = deck_game(GRUUL, DIMIR, names=NAMES, seed=3, start=StartSettings(chooser=0))
    asked = _play_start(game, lambda d: Answer(d.id, (1,)) if d.kind == "starting_player"
                        else default_answer(d))
    first = asked[0]
    assert (first.kind, first.player, first.min, first.max) == ("starting_player", 0, 1, 1)
    assert first.prompt.startswith("103.1: ")
    assert [(c.key, c.ref, c.name) for c in first.choices] == [(0, player_ref(0), "p0"),
                                                              (1, player_ref(1), "p1")]
    st = game.state
    assert st.start is not None and (st.start.chooser, st.start.starting) == (0, 1)
    # 103.7: the starting player's first turn; 103.8a: no draw on it in a two-player game.
    assert (st.turn, st.active, st.priority) == (1, 1, 1)
    assert [len(p.hand) for p in st.players] == [7, 7]
    # Then the mulligan questions, starting player first (103.5).
    assert [(d.kind, d.player) for d in asked[1:]] == [("mulligan", 1), ("mulligan", 0)]
    play_sync(game, _keep_all, until=lambda g, task: g.state.turn == 2
              and g.state.step == "precombat_main")
    assert game.state.active == 0
    assert len(game.state.players[0].hand) == 8  # p0 draws in its first turn


def test_without_a_chooser_the_games_generator_picks_one_the_same_for_the_same_seed() -> None:
    choosers = Counter()
    for seed in range(40):
        game = deck_game(GRUUL, DIMIR, names=NAMES, seed=seed, start=StartSettings())
        again = deck_game(GRUUL, DIMIR, names=NAMES, seed=seed, start=StartSettings())
        assert game.state.start is not None and again.state.start is not None
        assert game.state.start.chooser == again.state.start.chooser
        assert game.state.state_hash() == again.state.state_hash()
        choosers[game.state.start.chooser] += 1
    assert choosers[0] > 5 and choosers[1] > 5  # both seats get picked


def test_a_mulligan_shuffles_the_hand_back_draws_seven_and_bottoms_one_per_mulligan() -> None:
    game = deck_game(GRUUL, DIMIR, names=NAMES, seed=3, start=StartSettings(chooser=0))
    st = game.state
    bottomed: list[int] = []
    seen: list[tuple[str, int, int]] = []

    def answer(d: Decision) -> Reply:
        if d.kind == "starting_player":
            return Answer(d.id, (0,))
        assert d.kind in ("mulligan", "mulligan_bottom")
        taken = st.start.mulligans[d.player]  # type: ignore[union-attr]
        if d.kind == "mulligan":
            seen.append((d.kind, d.player, len(st.players[d.player].hand)))
            # p0 takes two mulligans, p1 one.
            return Answer(d.id, (1,) if taken < (2 if d.player == 0 else 1) else (0,))
        seen.append((d.kind, d.player, d.min))
        assert d.min == d.max == taken
        # The choices are the cards in hand, by id.
        assert sorted(c.ref for c in d.choices) == sorted(st.players[d.player].hand)
        keys = tuple(c.key for c in d.choices[-d.min:])
        if d.player == 0:
            bottomed[:] = [d.choices[k].name for k in keys]
        return Answer(d.id, keys)

    _play_start(game, answer)
    assert seen == [
        ("mulligan", 0, 7), ("mulligan", 1, 7),             # both take one
        ("mulligan_bottom", 0, 1), ("mulligan_bottom", 1, 1),
        ("mulligan", 0, 6), ("mulligan", 1, 6),             # p0 takes another, p1 keeps six
        ("mulligan_bottom", 0, 2),
        ("mulligan", 0, 5),                                 # p0 keeps five
    ]
    assert st.start is not None and st.start.mulligans == [2, 1] and st.start.done
    assert [len(p.hand) for p in st.players] == [5, 6]
    assert [len(p.hand) + len(p.library) for p in st.players] == [len(GRUUL), len(DIMIR)]
    # The two cards put back last are the bottom of p0's library, in the order named.
    assert [st.objects[o].name for o in st.players[0].library[-2:]] == bottomed


def test_103_5c_in_a_game_of_three_the_first_mulligan_is_free() -> None:
    game = deck_game(GRUUL, DIMIR, GRUUL, names=(*NAMES, "p2"), seed=3, start=StartSettings(chooser=2))
    bottoms: list[tuple[int, int]] = []

    def answer(d: Decision) -> Reply:
        if d.kind == "starting_player":
            return Answer(d.id, (2,))
        if d.kind == "mulligan_bottom":
            bottoms.append((d.player, d.min))
            return default_answer(d)
        taken = game.state.start.mulligans[d.player]  # type: ignore[union-attr]
        return Answer(d.id, (1,) if d.player == 1 and taken < 2 else (0,))

    _play_start(game, answer)
    assert bottoms == [(1, 1)]  # the second mulligan puts one back, the first none
    assert [len(p.hand) for p in game.state.players] == [7, 6, 7]
    assert game.state.active == 2


def test_mulligans_end_when_the_hand_would_be_empty() -> None:
    game = deck_game(GRUUL, DIMIR, names=NAMES, seed=3, start=StartSettings(chooser=1))
    asked = _play_start(game, lambda d: Answer(d.id, (1,)) if d.kind == "mulligan" and d.player == 0
                        else default_answer(d))
    st = game.state
    assert st.start is not None and st.start.mulligans == [7, 0]
    assert st.players[0].hand == [] and len(st.players[0].library) == len(GRUUL)
    assert sum(1 for d in asked if d.kind == "mulligan" and d.player == 0) == 7
    assert [d.min for d in asked if d.kind == "mulligan_bottom"] == [1, 2, 3, 4, 5, 6, 7]


def test_without_mulligans_everyone_keeps_seven() -> None:
    game = deck_game(GRUUL, DIMIR, names=NAMES, seed=3, start=StartSettings(chooser=0, mulligans=False))
    asked = _play_start(game, _keep_all)
    assert [d.kind for d in asked] == ["starting_player"]
    assert [len(p.hand) for p in game.state.players] == [7, 7]


def test_answers_that_do_not_fit_are_refused() -> None:
    game = deck_game(GRUUL, DIMIR, names=NAMES, seed=3, start=StartSettings(chooser=0))
    questions: list[Decision] = []

    def answer(d: Decision) -> Reply:
        questions.append(d)
        return Answer(d.id, (1,)) if d.kind == "mulligan" and d.player == 0 and len(questions) < 3 \
            else default_answer(d)

    _play_start(game, answer)
    first, bottom = questions[0], next(d for d in questions if d.kind == "mulligan_bottom")
    with pytest.raises(IllegalActionError, match=r"103\.1: decision 1: choose 1 to 1 options, got 2"):
        check_answer(first, Answer(first.id, (0, 1)))
    with pytest.raises(IllegalActionError, match=r"103\.1: decision 1: no option 5"):
        check_answer(first, Answer(first.id, (5,)))
    with pytest.raises(IllegalActionError, match=r"103\.5: decision \d+: choose distinct options"):
        check_answer(bottom, Answer(bottom.id, (0, 0)))
    with pytest.raises(IllegalActionError, match=r"103\.5: decision \d+: choose 1 to 1 options, got 0"):
        check_answer(bottom, Answer(bottom.id, ()))


def test_the_chooser_must_be_a_seat() -> None:
    with pytest.raises(IllegalActionError, match=r"103\.1: the chooser must be a seat from 0 to 1, got 2"):
        deck_game(GRUUL, DIMIR, names=NAMES, seed=3, start=StartSettings(chooser=2))


def test_an_opponent_sees_how_many_cards_went_back_never_which() -> None:
    game = deck_game(GRUUL, DIMIR, names=NAMES, seed=3, start=StartSettings(chooser=0))
    game.history = []
    _play_start(game, lambda d: Answer(d.id, (1,)) if d.kind == "mulligan" and d.player == 0
                and game.state.start.mulligans[0] == 0 else default_answer(d))  # type: ignore[union-attr]
    hidden = {game.state.objects[o].name for o in game.state.players[0].hand + game.state.players[0].library}
    told = [ev for ev in game.history if not ev.private_to or 1 in ev.private_to]
    assert any(ev.kind == "mulligan" and ev.text == "p0 takes a mulligan" for ev in told)
    assert any(ev.kind == "mulligan_bottom" and ev.amount == 1 for ev in told)
    for ev in told:
        if ev.player == 0:
            assert not any(name in ev.text for name in hidden), ev
    view = view_for(game, 1)
    assert view.players[0].hand_count == 6
    assert all(o.owner == 1 for o in view.hand)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 1000), min_size=40, max_size=40))
def test_any_answers_leave_every_card_in_hand_or_library_and_the_game_goes_on(
        seed: int, picks: list[int]) -> None:
    game = deck_game(GRUUL, DIMIR, names=NAMES, seed=seed, start=StartSettings())
    it = iter(picks)

    def answer(d: Decision) -> Reply:
        pick = next(it, 0)
        keys = [c.key for c in d.choices]
        if d.kind in ("starting_player", "mulligan"):
            return Answer(d.id, (keys[pick % len(keys)],))
        # Some order of the cards to put back.
        rotated = keys[pick % len(keys):] + keys[:pick % len(keys)]
        return Answer(d.id, tuple(rotated[:d.min]))

    _play_start(game, answer)
    st_ = game.state
    assert st_.start is not None and st_.start.done and all(st_.start.kept)
    for seat, p in enumerate(st_.players):
        assert len(p.hand) == max(0, 7 - st_.start.mulligans[seat])
        assert len(p.hand) + len(p.library) == len([GRUUL, DIMIR][seat])
    assert st_.active == st_.start.starting and st_.priority == st_.active
    play_sync(game, lambda d: Action("pass") if d.kind == "priority" else default_answer(d),
              max_tasks=5000, until=lambda g, task: g.state.turn == 3)
    assert game.state.turn == 3
