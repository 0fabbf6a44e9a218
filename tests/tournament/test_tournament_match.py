"""A best-of-N match: when it ends, how it scores, who chooses who plays first (103.1), who
sits where and the seeds of its games."""

from __future__ import annotations

import pytest

from spellstack.tournament import (
    GameRow,
    MatchSpec,
    games_to_win,
    key_from_seed,
    keyed_seed,
    match_score,
    next_game,
    seat_order,
)

MATCH = MatchSpec(2, 3, (4, 1), ("d", "a"), 1)
KEY = key_from_seed(7)


def _row(number: int, winner: int, chooser: int) -> GameRow:
    """A finished game of MATCH: ``winner`` a seat or -1 for a draw."""
    return GameRow(f"r2-m3-g{number}", 2, 3, number, 0, (4, 1), (0, 0), chooser, chooser, (0, 0),
                   winner, "", 10, 10, "")


def test_games_to_win_is_more_than_half() -> None:
    assert [games_to_win(n) for n in (1, 2, 3, 4, 5, 7)] == [1, 2, 2, 3, 3, 4]


def test_the_first_game_is_chosen_by_the_generator_and_named_by_round_match_and_number() -> None:
    spec = next_game(KEY, MATCH, [], 3)
    assert spec is not None
    assert (spec.game_id, spec.round, spec.match, spec.number) == ("r2-m3-g1", 2, 3, 1)
    assert spec.entrants == (4, 1)
    assert spec.chooser is None
    assert spec.seed == keyed_seed(KEY, "game", '["d", "a"]', 1, 1)
    assert spec.bot_seeds == (keyed_seed(KEY, "bot", '["d", "a"]', 1, 1, 0),
                              keyed_seed(KEY, "bot", '["d", "a"]', 1, 1, 1))
    assert len({spec.seed, *spec.bot_seeds}) == 3
    assert next_game(key_from_seed(8), MATCH, [], 3).seed != spec.seed  # type: ignore[union-attr]


def test_the_seeds_come_from_the_names_meeting_and_game_not_the_round_match_or_indexes() -> None:
    spec = next_game(KEY, MATCH, [], 3)
    elsewhere = next_game(KEY, MatchSpec(9, 1, (0, 6), ("d", "a"), 1), [], 3)
    assert spec is not None and elsewhere is not None
    assert elsewhere.game_id == "r9-m1-g1"
    assert (elsewhere.seed, elsewhere.bot_seeds) == (spec.seed, spec.bot_seeds)
    # Another meeting of the pair, other seats, other names, the next game: other seeds.
    others = [next_game(KEY, MatchSpec(2, 3, (4, 1), ("d", "a"), 2), [], 3),
              next_game(KEY, MatchSpec(2, 3, (1, 4), ("a", "d"), 1), [], 3),
              next_game(KEY, MatchSpec(2, 3, (4, 1), ("d", "b"), 1), [], 3),
              next_game(KEY, MATCH, [_row(1, -1, 0)], 3)]
    seeds = {(o.seed, o.bot_seeds) for o in others if o is not None}
    assert len(seeds) == 4 and (spec.seed, spec.bot_seeds) not in seeds
    # A name holding the "/" seed parts are joined with can't pass for two parts.
    split = next_game(KEY, MatchSpec(1, 1, (0, 1), ("d/a", "x"), 1), [], 3)
    joined = next_game(KEY, MatchSpec(1, 1, (0, 1), ("d", "a/x"), 1), [], 3)
    assert split is not None and joined is not None and split.seed != joined.seed


def test_seats_are_a_coin_from_the_names_then_alternate_meeting_by_meeting() -> None:
    names = ["a", "b", "c", "d", "e"]
    first = seat_order(KEY, 0, 3, names, 1)
    assert first in ((0, 3), (3, 0))
    assert seat_order(KEY, 3, 0, names, 1) == first  # whichever way the pairing lists them
    assert [seat_order(KEY, 0, 3, names, m) for m in (2, 3, 4)] == [first[::-1], first, first[::-1]]
    # The same two names at other indexes, among other entrants: the same seats by name.
    moved = ["x", "d", "y", "a"]
    again = seat_order(KEY, 3, 1, moved, 1)
    assert [moved[i] for i in again] == [names[i] for i in first]
    # The coin falls both ways over the pairs (and seeds).
    coins = {seat_order(key_from_seed(seed), 0, 1, names, 1) for seed in range(20)}
    assert coins == {(0, 1), (1, 0)}


def test_seats_need_two_names_and_a_meeting_from_one() -> None:
    with pytest.raises(ValueError, match="both named 'a'"):
        seat_order(KEY, 0, 1, ["a", "a"], 1)
    with pytest.raises(ValueError, match="meetings count from 1, not 0"):
        seat_order(KEY, 0, 1, ["a", "b"], 0)


def test_the_loser_chooses_and_after_a_draw_the_same_player_chooses_again() -> None:
    # 103.1: game 1 chosen by seat 1, won by seat 1: seat 0 lost and chooses game 2.
    rows = [_row(1, 1, 1)]
    assert next_game(KEY, MATCH, rows, 3).chooser == 0  # type: ignore[union-attr]
    # Game 2 (chosen by seat 0) is drawn: seat 0 chooses game 3 too.
    rows.append(_row(2, -1, 0))
    assert next_game(KEY, MATCH, rows, 3).chooser == 0  # type: ignore[union-attr]
    # Game 3 won by seat 0: seat 1 chooses game 4.
    rows.append(_row(3, 0, 0))
    spec = next_game(KEY, MATCH, rows, 3)
    assert spec is not None and spec.chooser == 1 and spec.game_id == "r2-m3-g4"


def test_a_best_of_three_ends_at_two_wins() -> None:
    assert match_score([_row(1, 0, 0), _row(2, 0, 1)], 3).over
    assert next_game(KEY, MATCH, [_row(1, 0, 0), _row(2, 0, 1)], 3) is None
    one_all = match_score([_row(1, 0, 0), _row(2, 1, 1)], 3)
    assert (one_all.wins, one_all.draws, one_all.over) == ((1, 1), 0, False)
    third = match_score([_row(1, 0, 0), _row(2, 1, 1), _row(3, 1, 0)], 3)
    assert (third.wins, third.over) == ((1, 2), True)


def test_drawn_games_do_not_count_towards_the_best_of_but_a_match_has_at_most_twice_as_many() -> None:
    rows = [_row(1, 0, 0), _row(2, -1, 1), _row(3, -1, 1)]
    score = match_score(rows, 3)
    assert (score.wins, score.draws, score.over) == ((1, 0), 2, False)
    rows += [_row(4, -1, 1), _row(5, 1, 1)]
    assert not match_score(rows, 3).over  # 1-1 with 3 draws: five games of at most six
    rows.append(_row(6, -1, 0))
    capped = match_score(rows, 3)
    assert (capped.wins, capped.draws, capped.over) == ((1, 1), 4, True)  # a drawn match


def test_an_even_best_of_ends_when_every_decisive_game_is_played() -> None:
    assert match_score([_row(1, 0, 0), _row(2, 1, 1)], 2).over  # 1-1: a drawn match
    assert not match_score([_row(1, 0, 0)], 2).over
    assert match_score([_row(1, 1, 0)], 1).over
