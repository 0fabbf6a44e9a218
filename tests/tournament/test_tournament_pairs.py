"""Per-pair score, Elo difference with its 95% interval, and LOS, against hand-worked numbers."""

from __future__ import annotations

import math

import pytest

from spellstack.tournament import PairLine, elo_difference, format_pair_line, los, pair_line, pair_lines

NAMES = ["random-gruul", "random-dimir", "random-boros"]


def test_six_wins_two_losses_two_draws_by_hand() -> None:
    # p = (6 + 2/2) / 10 = 0.7
    # Elo = -400 log10(1/0.7 - 1) = -400 log10(3/7) = -400 (0.477121 - 0.845098) = 147.19
    # Per-game variance: (6 (1 - 0.7)^2 + 2 (0.5 - 0.7)^2 + 2 (0.7)^2) / 10
    #   = (0.54 + 0.08 + 0.98) / 10 = 0.16; standard error sqrt(0.16 / 10) = 0.126491
    # 95%: 1.959964 x 0.126491 = 0.247918, so p in [0.452082, 0.947918]
    #   Elo(0.947918) = -400 log10(0.054943) = 504.03; Elo(0.452082) = -400 log10(1.211987) = -33.40
    #   margin = (504.03 + 33.40) / 2 = 268.72
    # LOS = 0.5 (1 + erf((6 - 2) / sqrt(2 x 8))) = 0.5 (1 + erf(1)) = 0.5 (1 + 0.842701) = 0.921350
    line = pair_line(0, 1, "random-gruul", "random-dimir", 6, 2, 2)
    assert (line.wins, line.losses, line.draws, line.games) == (6, 2, 2, 10)
    assert line.score == pytest.approx(0.7)
    assert line.elo == pytest.approx(147.19, abs=0.01)
    assert line.elo_margin == pytest.approx(268.72, abs=0.01)
    assert line.los == pytest.approx(0.921350, abs=1e-6)
    assert format_pair_line(line) == (
        "random-gruul vs random-dimir: 6 - 2 - 2  [0.700]  Elo diff 147.2 +/- 268.7, LOS 92.1%")


def test_five_three_two_by_hand() -> None:
    # p = 0.6: Elo = -400 log10(2/3) = 70.44
    # variance (5 x 0.16 + 2 x 0.01 + 3 x 0.36) / 10 = 0.19; error 1.959964 sqrt(0.019) = 0.270163
    # Elo(0.870163) = -400 log10(0.149210) = 330.48; Elo(0.329837) = -400 log10(2.031795) = -123.15
    # margin (330.48 + 123.15) / 2 = 226.82; LOS 0.5 (1 + erf(2 / 4)) = 0.5 (1 + 0.520500) = 0.760250
    line = pair_line(0, 1, "a", "b", 5, 3, 2)
    assert line.elo == pytest.approx(70.44, abs=0.01)
    assert line.elo_margin == pytest.approx(226.82, abs=0.01)
    assert line.los == pytest.approx(0.760250, abs=1e-6)
    assert format_pair_line(line) == "a vs b: 5 - 3 - 2  [0.600]  Elo diff 70.4 +/- 226.8, LOS 76.0%"


def test_a_clean_sweep_is_infinite() -> None:
    # p = 1: no finite Elo and no bounded interval; LOS 0.5 (1 + erf(3 / sqrt(6))) = 0.958368
    line = pair_line(0, 1, "a", "b", 3, 0, 0)
    assert (line.score, line.elo, line.elo_margin) == (1.0, None, None)
    assert line.los == pytest.approx(0.958368, abs=1e-6)
    assert format_pair_line(line) == "a vs b: 3 - 0 - 0  [1.000]  a won all 3 games: no Elo estimate, LOS 95.8%"
    lost = pair_line(0, 1, "a", "b", 0, 3, 0)
    assert format_pair_line(lost) == "a vs b: 0 - 3 - 0  [0.000]  b won all 3 games: no Elo estimate, LOS 4.2%"
    one = pair_line(0, 1, "a", "b", 0, 1, 0)
    assert format_pair_line(one) == "a vs b: 0 - 1 - 0  [0.000]  b won the only game: no Elo estimate, LOS 15.9%"


def test_an_interval_that_reaches_a_clean_sweep_is_unbounded() -> None:
    # 9-1-0: p = 0.9, Elo = -400 log10(1/9) = 381.70; variance (9 x 0.01 + 0.81) / 10 = 0.09,
    # error 1.959964 x 0.3 / sqrt(10) = 0.185935: the upper end 1.086 is past 1.
    line = pair_line(0, 1, "a", "b", 9, 1, 0)
    assert line.elo == pytest.approx(381.70, abs=0.01)
    assert line.elo_margin is None
    assert format_pair_line(line) == ("a vs b: 9 - 1 - 0  [0.900]  Elo diff 381.7 (interval unbounded: "
                                      "10 games), LOS 99.4%")


def test_only_draws() -> None:
    line = pair_line(0, 1, "a", "b", 0, 0, 4)
    assert (line.score, line.elo, line.elo_margin, line.los) == (0.5, 0.0, 0.0, None)
    assert format_pair_line(line) == "a vs b: 0 - 0 - 4  [0.500]  Elo diff 0.0 +/- 0.0, LOS n/a"


def test_elo_and_los_helpers() -> None:
    even = elo_difference(0.5)
    assert even == 0.0 and even is not None and math.copysign(1.0, even) == 1.0  # 0.0, not -0.0
    assert elo_difference(0.0) is None and elo_difference(1.0) is None
    # p = 10/11: 1/p - 1 = 1/10, so exactly 400
    assert elo_difference(10 / 11) == pytest.approx(400.0)
    assert los(0, 0) is None
    assert los(5, 5) == 0.5


def test_pair_lines_tally_games_from_the_lower_index() -> None:
    # Games between 1 and 0 are counted from 0's side: (1, 0, 0) is a win for 0.
    outcomes = [(0, 1, 1.0), (1, 0, 0.0), (1, 0, 0.5), (0, 1, 0.0), (2, 0, 1.0), (0, 1, 1.0)]
    lines = pair_lines(outcomes, NAMES)
    assert [(line.a, line.b, line.wins, line.losses, line.draws) for line in lines] == [
        (0, 1, 3, 1, 1),  # 0 beat 1 three times (two as a, one as b), lost once, drew once
        (0, 2, 0, 1, 0),  # 2 beat 0
    ]
    assert isinstance(lines[0], PairLine) and lines[0].name_b == "random-dimir"
    assert pair_lines([], NAMES) == []


def test_bad_outcomes() -> None:
    with pytest.raises(ValueError, match=r"names entrant 3, but the entrants are 0\.\.2"):
        pair_lines([(0, 3, 1.0)], NAMES)
    with pytest.raises(ValueError, match="with itself"):
        pair_lines([(1, 1, 1.0)], NAMES)
    with pytest.raises(ValueError, match=r"a score is 1, 0\.5 or 0"):
        pair_lines([(0, 1, 0.25)], NAMES)
    with pytest.raises(ValueError, match="have played no games"):
        pair_line(0, 1, "a", "b", 0, 0, 0)
