"""The Elo, normalized Elo and LOS estimates against independent numbers: fastchess's own test
vectors (counts as LL, LD, WL, DD, WD, WW; WL and DD are one count here) and Magic-like results
computed apart for these tests, to the digits given."""

from __future__ import annotations

import pytest

from spellstack.tournament import elo_pentanomial, elo_wdl, format_pair_line, format_pairs_line, pair_line
from spellstack.tournament._elo import Z975, pentanomial_counts


def _close(value: float | None, expected: float, places: int = 2) -> bool:
    return value is not None and round(value, places) == expected


def test_the_exact_z() -> None:
    assert round(Z975, 6) == 1.959964


@pytest.mark.parametrize(("counts", "elo", "margin", "nelo", "nmargin", "los"), [
    ((34, 54, 31 + 32, 64, 75), 55.58, 27.65, 57.94, 28.28, None),
    ((332, 433, 457 + 41, 333, 334), -8.64, 10.33, -9.17, 10.96, 5.05),
    ((5, 0, 30, 0, 65), 240.82, 63.48, 252.80, 48.15, None),
])
def test_pentanomial_estimates(counts: tuple[int, int, int, int, int], elo: float, margin: float,
                               nelo: float, nmargin: float, los: float | None) -> None:
    est = elo_pentanomial(counts)
    assert _close(est.elo, elo) and _close(est.elo_margin, margin)
    assert _close(est.nelo, nelo) and _close(est.nelo_margin, nmargin)
    if los is not None:
        assert est.los is not None and round(100 * est.los, 2) == los


def test_estimates_over_games() -> None:
    est = elo_wdl(136, 96, 111)
    assert _close(est.elo, 40.70) and _close(est.elo_margin, 30.43)
    assert _close(est.nelo, 49.77) and _close(est.nelo_margin, 36.77)
    assert est.los is not None and round(100 * est.los, 2) == 99.57  # cutechess's LOS over games
    magic = elo_wdl(340, 60, 0)
    assert _close(magic.elo, 301.33) and _close(magic.elo_margin, 48.44)
    assert _close(magic.nelo, 340.55) and _close(magic.nelo_margin, 34.05)


def test_the_exact_z_gives_the_margin_cutechess_rounds_down() -> None:
    line = format_pair_line(pair_line(0, 1, "a", "b", 6, 2, 2))
    assert "Elo diff 147.2 +/- 268.7" in line


def test_the_pairs_line() -> None:
    assert format_pairs_line("heuristic-gruul", "random-gruul", wins=160, losses=40, draws=0,
                             pentanomial=(5, 0, 30, 0, 65), on_play=(85, 15, 0), on_draw=(75, 25, 0)) == (
        "heuristic-gruul vs random-gruul: 200 games (100 pairs): 160 - 40 - 0 [0.800]; pairs LL 5, "
        "LD 0, WL+DD 30, WD 0, WW 65; Elo 240.8 +/- 63.5, nElo 252.8 +/- 48.2, LOS 100.0%; on the "
        "play 85-15-0, on the draw 75-25-0")
    swept = format_pairs_line("a", "b", wins=4, losses=0, draws=0, pentanomial=(0, 0, 0, 0, 2),
                              on_play=(2, 0, 0), on_draw=(2, 0, 0))
    assert "a won every pair: no Elo estimate" in swept and "inf" not in swept


def test_pentanomial_counts_from_pair_scores() -> None:
    assert pentanomial_counts([0, 0.5, 1, 1, 1.5, 2, 2]) == (1, 1, 2, 1, 2)
    with pytest.raises(ValueError, match=r"a pair's score is 0, 0\.5, 1, 1\.5 or 2, not 0\.25"):
        pentanomial_counts([0.25])
