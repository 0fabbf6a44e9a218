"""Elo and normalized Elo estimates for engine testers, over games (win, draw, loss) or over
game pairs (the pentanomial counts), with the intervals and LOS that fastchess prints.

The score's interval is s +- z sqrt(var / N), with z the exact 97.5% normal quantile
(1.959964; cutechess approximates it as 1.957162, so its margins are 0.14% smaller), var the
variance of one outcome's score, N the games or pairs. The Elo margin is half the distance
between the Elo differences of the interval's ends. Normalized Elo (Van den Bergh, "Comments on
Normalized Elo") divides the score's distance from one half by its spread: (s - 1/2) / sd x
800 / ln 10, with sd = sqrt(var) over games and sqrt(2 var) over pairs (a pair is two games).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from ._pairs import elo_difference, los

__all__ = ["NELO_SCALE", "Z975", "EloEstimate", "elo_pentanomial", "elo_wdl", "format_pairs_line",
           "pentanomial_counts"]

Z975 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% quantile of the standard normal distribution, exactly (1.959964...)."""
NELO_SCALE = 800.0 / math.log(10.0)
"""Normalized Elo per unit of (s - 1/2) / sd."""
_PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score fraction for LL, LD, WL+DD, WD, WW."""


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """The estimates from a set of results, from the first side's view."""

    score: float
    """The score fraction, 0..1."""
    elo: float | None
    """-400 log10(1 / score - 1); None at a score of 0 or 1 (infinite)."""
    elo_margin: float | None
    """Half the width of the Elo difference's 95% interval; None when an end is unbounded."""
    nelo: float | None
    """Normalized Elo; None when the outcomes have no spread."""
    nelo_margin: float | None
    """Half the width of its 95% interval; None when the outcomes have no spread."""
    los: float | None
    """The likelihood of superiority, 0..1; None with no evidence either way."""


def _estimate(scores: Sequence[float], counts: Sequence[int]) -> tuple[float, float, float]:
    """(score, variance of one outcome, its count) of outcomes ``scores`` seen ``counts`` times."""
    n = sum(counts)
    if n == 0:
        raise ValueError("no results to estimate from")
    s = sum(c * x for c, x in zip(counts, scores, strict=True)) / n
    var = sum(c * (x - s) ** 2 for c, x in zip(counts, scores, strict=True)) / n
    return s, var, n


def _interval(s: float, var: float, n: float,
              spread: float) -> tuple[float | None, float | None, float | None, float | None]:
    """Elo, its margin, nElo and its margin, for a score ``s`` with outcome variance ``var``
    over ``n`` outcomes; ``spread``: the sd that normalizes (sqrt(var) or sqrt(2 var))."""
    error = Z975 * math.sqrt(var / n)
    elo = elo_difference(s)
    high, low = elo_difference(s + error), elo_difference(s - error)
    margin = None if elo is None or high is None or low is None else (high - low) / 2.0
    if spread == 0.0:
        return elo, margin, None, None
    return elo, margin, (s - 0.5) / spread * NELO_SCALE, error / spread * NELO_SCALE


def elo_wdl(wins: int, losses: int, draws: int) -> EloEstimate:
    """Estimates over single games; LOS by cutechess's formula (``_pairs.los``)."""
    s, var, n = _estimate((1.0, 0.0, 0.5), (wins, losses, draws))
    elo, margin, nelo, nmargin = _interval(s, var, n, math.sqrt(var))
    return EloEstimate(s, elo, margin, nelo, nmargin, los(wins, losses))


def elo_pentanomial(counts: Sequence[int]) -> EloEstimate:
    """Estimates over game pairs, ``counts`` being LL, LD, WL+DD, WD, WW; LOS as
    Phi((s - 1/2) / sqrt(var / P))."""
    if len(counts) != 5:
        raise ValueError(f"the pentanomial counts are LL, LD, WL+DD, WD, WW, not {list(counts)}")
    s, var, n = _estimate(_PENTANOMIAL_SCORES, counts)
    elo, margin, nelo, nmargin = _interval(s, var, n, math.sqrt(2.0 * var))
    chance = None if var == 0.0 else NormalDist().cdf((s - 0.5) / math.sqrt(var / n))
    return EloEstimate(s, elo, margin, nelo, nmargin, chance)


def pentanomial_counts(pair_scores: Iterable[float]) -> tuple[int, int, int, int, int]:
    """LL, LD, WL+DD, WD, WW from each pair's total score (0, 0.5, 1, 1.5 or 2)."""
    counts = [0, 0, 0, 0, 0]
    for total in pair_scores:
        slot = total * 2
        if slot not in (0, 1, 2, 3, 4):
            raise ValueError(f"a pair's score is 0, 0.5, 1, 1.5 or 2, not {total}")
        counts[int(slot)] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def format_pairs_line(name_a: str, name_b: str, *, wins: int, losses: int, draws: int,
                      pentanomial: Sequence[int], on_play: Sequence[int], on_draw: Sequence[int]) -> str:
    """The line of two entrants that played game pairs, from the first's side, as
    ``A vs B: 200 games (100 pairs): 160 - 40 - 0 [0.800]; pairs LL 5, LD 0, WL+DD 30, WD 0,
    WW 65; Elo 240.8 +/- 63.5, nElo 252.8 +/- 48.2, LOS 100.0%; on the play 85-15-0, on the
    draw 75-25-0``. What has no number is said in words, as the other pair lines say it."""
    games = wins + losses + draws
    count = sum(pentanomial)
    ll, ld, mid, wd, ww = pentanomial
    head = (f"{name_a} vs {name_b}: {games} game{'s' if games != 1 else ''} ({count} "
            f"pair{'s' if count != 1 else ''}): {wins} - {losses} - {draws} "
            f"[{(wins + draws / 2) / games if games else 0.5:.3f}]; "
            f"pairs LL {ll}, LD {ld}, WL+DD {mid}, WD {wd}, WW {ww}")
    if count == 0:
        est = None
        told = "no complete pair: no estimate"
    else:
        est = elo_pentanomial(pentanomial)
        if est.elo is None:
            winner = name_a if est.score > 0.5 else name_b
            told = f"{winner} won every pair: no Elo estimate"
        elif est.elo_margin is None:
            told = f"Elo {est.elo:.1f} (interval unbounded: {count} pair{'s' if count != 1 else ''})"
        else:
            told = f"Elo {est.elo:.1f} +/- {est.elo_margin:.1f}"
        if est.nelo is not None and est.nelo_margin is not None:
            told += f", nElo {est.nelo:.1f} +/- {est.nelo_margin:.1f}"
    chance = "n/a" if est is None or est.los is None else f"{100.0 * est.los:.1f}%"
    return (f"{head}; {told}, LOS {chance}; on the play {'-'.join(map(str, on_play))}, "
            f"on the draw {'-'.join(map(str, on_draw))}")
