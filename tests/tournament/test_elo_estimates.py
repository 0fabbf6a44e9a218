"""Elo, normalized Elo and LOS from games and from pairs of games, against fastchess's test vectors
and numbers worked out apart, and the pair line that gives them."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest

from spellstack.tournament import (
    EloEstimate,
    elo_pentanomial,
    elo_wdl,
    format_pairs_line,
    pair_line,
    pentanomial_counts,
)


def pairs(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> tuple[int, int, int, int, int]:
    """fastchess's six pair counts as the five the estimates take (WL and DD score the same)."""
    return ll, ld, wl + dd, wd, ww


def test_pentanomial_matches_fastchess() -> None:
    # fastchess's elo_test.cpp, its counts as LL, LD, WL, DD, WD, WW
    first = elo_pentanomial(pairs(34, 54, 31, 32, 64, 75))
    assert (round(first.elo or 0, 2), round(first.elo_margin or 0, 2)) == (55.58, 27.65)
    assert (round(first.nelo or 0, 2), round(first.nelo_margin or 0, 2)) == (57.94, 28.28)
    second = elo_pentanomial(pairs(332, 433, 457, 41, 333, 334))
    assert (round(second.elo or 0, 2), round(second.elo_margin or 0, 2)) == (-8.64, 10.33)
    assert (round(second.nelo or 0, 2), round(second.nelo_margin or 0, 2)) == (-9.17, 10.96)
    assert round(100 * (second.los or 0), 2) == 5.05


def test_games_match_fastchess_with_cutechess_s_los() -> None:
    estimate = elo_wdl(136, 96, 111)
    assert (round(estimate.elo or 0, 2), round(estimate.elo_margin or 0, 2)) == (40.70, 30.43)
    assert (round(estimate.nelo or 0, 2), round(estimate.nelo_margin or 0, 2)) == (49.77, 36.77)
    assert round(100 * (estimate.los or 0), 2) == 99.57  # cutechess's formula, from decisive games
    # fastchess's, Φ((s - 1/2) / √(σ² / N)) over all games, would say 99.60%.
    games, score = 343, (136 + 111 / 2) / 343
    variance = (136 * (1 - score) ** 2 + 111 * (0.5 - score) ** 2 + 96 * score ** 2) / games
    assert round(100 * NormalDist().cdf((score - 0.5) / math.sqrt(variance / games)), 2) == 99.60


def test_magic_like_results_with_no_draws() -> None:
    # Worked out apart for the issue.
    paired = elo_pentanomial((5, 0, 30, 0, 65))
    assert round(paired.score, 3) == 0.800
    assert (round(paired.elo or 0, 2), round(paired.elo_margin or 0, 2)) == (240.82, 63.48)
    assert (round(paired.nelo or 0, 2), round(paired.nelo_margin or 0, 2)) == (252.80, 48.15)
    single = elo_wdl(340, 60, 0)
    assert (round(single.elo or 0, 2), round(single.elo_margin or 0, 2)) == (301.33, 48.44)
    assert (round(single.nelo or 0, 2), round(single.nelo_margin or 0, 2)) == (340.55, 34.05)


def test_the_margin_uses_the_exact_z() -> None:
    estimate = elo_wdl(6, 2, 2)
    assert (round(estimate.elo or 0, 1), round(estimate.elo_margin or 0, 1)) == (147.2, 268.7)
    # cutechess's approximate quantile, 1.957162, gives a margin 0.14% smaller: 268.0.
    def elo(score: float) -> float:
        return -400 * math.log10(1 / score - 1)
    error = 1.957162 * math.sqrt(0.16 / 10)
    assert round((elo(0.7 + error) - elo(0.7 - error)) / 2, 1) == 268.0


def test_games_agree_with_the_pair_line() -> None:
    for wins, losses, draws in ((6, 2, 2), (5, 3, 2), (1, 7, 0), (3, 3, 4), (40, 2, 0)):
        estimate, line = elo_wdl(wins, losses, draws), pair_line(0, 1, "a", "b", wins, losses, draws)
        assert (estimate.score, estimate.elo, estimate.los) == (line.score, line.elo, line.los)
        assert estimate.elo_margin == pytest.approx(line.elo_margin)


def test_what_has_no_number() -> None:
    swept = elo_wdl(3, 0, 0)  # no Elo, an unbounded interval; nElo: every game the same
    assert (swept.score, swept.elo, swept.elo_margin, swept.nelo, swept.nelo_margin) == (1.0, None, None, None, None)
    assert swept.los == pytest.approx(0.5 * (1 + math.erf(3 / math.sqrt(6))))
    drawn = elo_wdl(0, 0, 4)
    assert drawn == EloEstimate(score=0.5, elo=0.0, elo_margin=0.0, nelo=None, nelo_margin=None, los=None)
    few = elo_wdl(2, 1, 0)  # an interval past a score of 1
    assert few.elo is not None and few.elo_margin is None and few.nelo is not None
    all_pairs_won = elo_pentanomial((0, 0, 0, 0, 3))
    assert all_pairs_won == EloEstimate(score=1.0, elo=None, elo_margin=None, nelo=None, nelo_margin=None, los=None)
    split = elo_pentanomial((0, 0, 5, 0, 0))
    assert split == EloEstimate(score=0.5, elo=0.0, elo_margin=0.0, nelo=None, nelo_margin=None, los=None)
    even = elo_pentanomial((1, 0, 0, 0, 1))
    assert even.elo == 0.0 and even.nelo == 0.0 and even.los == 0.5
    assert math.copysign(1.0, even.nelo) == 1.0  # not -0.0


def test_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="no games"):
        elo_wdl(0, 0, 0)
    with pytest.raises(ValueError, match="no pairs"):
        elo_pentanomial((0, 0, 0, 0, 0))
    with pytest.raises(ValueError, match=r"are \(LL, LD, WL\+DD, WD, WW\), not \[1, 2, 3\]"):
        elo_pentanomial((1, 2, 3))
    with pytest.raises(ValueError, match=r"whole numbers of 0 or more: \[1, -1, 0\]"):
        elo_wdl(1, -1, 0)


def test_pentanomial_counts_from_pair_scores() -> None:
    assert pentanomial_counts([2, 1, 1.5, 0, 0.5, 1, 2, 2]) == (1, 1, 2, 1, 3)
    assert pentanomial_counts([]) == (0, 0, 0, 0, 0)
    with pytest.raises(ValueError, match=r"scores 0, 0\.5, 1, 1\.5 or 2 points, not 0\.75"):
        pentanomial_counts([1, 0.75])
    with pytest.raises(ValueError, match="not 3"):
        pentanomial_counts([3])
    with pytest.raises(ValueError, match=r"not -0\.5"):
        pentanomial_counts([-0.5])


def test_the_pairs_line_reads_as_the_issue_gives_it() -> None:
    assert format_pairs_line("heuristic-gruul", "random-gruul", wins=160, losses=40, draws=0,
                             pentanomial=(5, 0, 30, 0, 65), on_play=(85, 15, 0), on_draw=(75, 25, 0)) == (
        "heuristic-gruul vs random-gruul: 200 games (100 pairs): 160 - 40 - 0 [0.800]; "
        "pairs LL 5, LD 0, WL+DD 30, WD 0, WW 65; Elo 240.8 +/- 63.5, nElo 252.8 +/- 48.2, LOS 100.0%; "
        "on the play 85-15-0, on the draw 75-25-0")


def test_the_pairs_line_says_in_words_what_has_no_number() -> None:
    line = format_pairs_line("a", "b", wins=0, losses=6, draws=0, pentanomial=(3, 0, 0, 0, 0), on_play=(0, 3, 0),
                             on_draw=(0, 3, 0))
    assert line == ("a vs b: 6 games (3 pairs): 0 - 6 - 0 [0.000]; pairs LL 3, LD 0, WL+DD 0, WD 0, WW 0; "
                    "b won all 3 pairs: no Elo estimate, LOS n/a; on the play 0-3-0, on the draw 0-3-0")
    line = format_pairs_line("a", "b", wins=2, losses=0, draws=0, pentanomial=(0, 0, 0, 0, 1), on_play=(1, 0, 0),
                             on_draw=(1, 0, 0))
    assert "a won the only pair: no Elo estimate, LOS n/a;" in line and "2 games (1 pair)" in line
    line = format_pairs_line("a", "b", wins=3, losses=1, draws=0, pentanomial=(0, 0, 1, 0, 1), on_play=(2, 0, 0),
                             on_draw=(1, 1, 0))
    assert "; Elo 190.8 (interval unbounded: 2 pairs), nElo 245.7 +/- 340.5, LOS 92.1%;" in line
    line = format_pairs_line("a", "b", wins=2, losses=2, draws=0, pentanomial=(0, 0, 2, 0, 0), on_play=(2, 0, 0),
                             on_draw=(0, 2, 0))
    assert "; Elo 0.0 +/- 0.0, nElo n/a, LOS n/a;" in line
    # A pair under way: its first game counts in the record, not in the estimates.
    line = format_pairs_line("a", "b", wins=1, losses=0, draws=0, pentanomial=(0, 0, 0, 0, 0), on_play=(1, 0, 0),
                             on_draw=(0, 0, 0))
    assert line == ("a vs b: 1 game (0 pairs): 1 - 0 - 0 [1.000]; pairs LL 0, LD 0, WL+DD 0, WD 0, WW 0; "
                    "no complete pair: no Elo estimate; on the play 1-0-0, on the draw 0-0-0")


def test_the_pairs_line_refuses_numbers_that_do_not_fit() -> None:
    with pytest.raises(ValueError, match="have played no games"):
        format_pairs_line("a", "b", wins=0, losses=0, draws=0, pentanomial=(0, 0, 0, 0, 0), on_play=(0, 0, 0),
                          on_draw=(0, 0, 0))
    with pytest.raises(ValueError, match=r"on the play \[1, 0, 0\] and on the draw \[0, 0, 0\] don't add up to 2-0-0"):
        format_pairs_line("a", "b", wins=2, losses=0, draws=0, pentanomial=(0, 0, 0, 0, 1), on_play=(1, 0, 0),
                          on_draw=(0, 0, 0))
    with pytest.raises(ValueError, match="2 games can't hold 2 pairs"):
        format_pairs_line("a", "b", wins=2, losses=0, draws=0, pentanomial=(0, 0, 0, 0, 2), on_play=(1, 0, 0),
                          on_draw=(1, 0, 0))
