"""Elo, normalized Elo and LOS between two entrants, from single games or from pairs of games.

These are the estimates chess-engine testers read (fastchess's, as its ``EloWDL`` and
``EloPentanomial`` give them): the score s and the variance σ² of one result (a game, or a pair
of games with the seats swapped), the 95% interval s ± z √(σ² / n), the Elo difference
-400 log10(1 / s - 1) and its margin, half the distance between the Elo differences of the
interval's ends, and the normalized Elo, (s - 1/2) / σ · 800 / ln 10 per game (σ over √2 per
pair), which measures a lead in standard deviations rather than in points. z is the exact
two-sided 95% quantile; cutechess approximates it, so its margins are slightly smaller.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from ._pairs import elo_difference, los

__all__ = ["EloEstimate", "elo_pentanomial", "elo_wdl", "format_pairs_line", "pentanomial_counts"]

Z = NormalDist().inv_cdf(0.975)
"""The two-sided 95% quantile of the standard normal distribution, 1.959964."""
NELO_SCALE = 800.0 / math.log(10.0)
"""Normalized Elo per unit of (score - 1/2) / standard deviation."""
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score per game for each of its outcomes: LL, LD, WL or DD, WD, WW."""
PAIR_OUTCOMES = ("LL", "LD", "WL+DD", "WD", "WW")
"""The outcomes of a pair of games, from the first entrant's side, in the order of the counts."""


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """What the results between two entrants say of the first one's lead."""

    score: float
    """The first entrant's score fraction, 0..1."""
    elo: float | None
    """The Elo difference -400 log10(1 / score - 1); None when infinite (a score of 0 or 1)."""
    elo_margin: float | None
    """Half the width of the Elo difference's 95% interval; None when an end of it is unbounded."""
    nelo: float | None
    """The normalized Elo difference; None when the results have no spread (every one the same)."""
    nelo_margin: float | None
    """Half the width of the normalized Elo's 95% interval; None when ``nelo`` is."""
    los: float | None
    """The likelihood of superiority, 0..1; None when the results give no evidence either way."""


def _estimate(score: float, variance: float, results: int, spread: float) -> tuple[
        float | None, float | None, float | None, float | None]:
    """Elo and normalized Elo with their margins, from ``results`` results of this mean and
    variance; ``spread`` is the normalized Elo's standard deviation (σ per game, σ √2 per pair)."""
    error = Z * math.sqrt(variance / results)
    elo = elo_difference(score)
    high, low = elo_difference(score + error), elo_difference(score - error)
    margin = None if elo is None or high is None or low is None else (high - low) / 2.0
    if spread == 0.0:
        return elo, margin, None, None
    return elo, margin, (score - 0.5) / spread * NELO_SCALE + 0.0, error / spread * NELO_SCALE


def elo_wdl(wins: int, losses: int, draws: int) -> EloEstimate:
    """The estimates from single games, counted from the first entrant's side; LOS is cutechess's,
    0.5 (1 + erf((W - L) / √(2 (W + L)))). Raises ValueError without games."""
    _check_counts((wins, losses, draws))
    games = wins + losses + draws
    if games == 0:
        raise ValueError("no games: no Elo estimate")
    score = (wins + 0.5 * draws) / games
    variance = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / games
    elo, margin, nelo, nelo_margin = _estimate(score, variance, games, math.sqrt(variance))
    return EloEstimate(score=score, elo=elo, elo_margin=margin, nelo=nelo, nelo_margin=nelo_margin,
                       los=los(wins, losses))


def elo_pentanomial(counts: Sequence[int]) -> EloEstimate:
    """The estimates from pairs of games, ``counts`` being the pairs (LL, LD, WL+DD, WD, WW) from
    the first entrant's side; LOS is Φ((s - 1/2) / √(σ² / P)) over the P pairs, None when every
    pair had the same outcome. Raises ValueError without pairs."""
    if len(counts) != len(PAIR_SCORES):
        raise ValueError(f"the pentanomial counts are (LL, LD, WL+DD, WD, WW), not {list(counts)}")
    _check_counts(counts)
    pairs = sum(counts)
    if pairs == 0:
        raise ValueError("no pairs: no Elo estimate")
    score = sum(c * x for c, x in zip(counts, PAIR_SCORES, strict=True)) / pairs
    variance = sum(c * (x - score) ** 2 for c, x in zip(counts, PAIR_SCORES, strict=True)) / pairs
    elo, margin, nelo, nelo_margin = _estimate(score, variance, pairs, math.sqrt(2.0 * variance))
    chance = None if variance == 0.0 else NormalDist().cdf((score - 0.5) / math.sqrt(variance / pairs))
    return EloEstimate(score=score, elo=elo, elo_margin=margin, nelo=nelo, nelo_margin=nelo_margin, los=chance)


def _check_counts(counts: Sequence[int]) -> None:
    if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
        raise ValueError(f"counts must be whole numbers of 0 or more: {list(counts)}")


def pentanomial_counts(pair_scores: Iterable[float]) -> tuple[int, int, int, int, int]:
    """The pairs (LL, LD, WL+DD, WD, WW) from each pair's points, 0, 0.5, 1, 1.5 or 2 (a win 1,
    a draw 0.5, over the pair's two games); ValueError for other points."""
    counts = [0, 0, 0, 0, 0]
    for points in pair_scores:
        doubled = points * 2.0
        if doubled not in (0.0, 1.0, 2.0, 3.0, 4.0):
            raise ValueError(f"a pair of games scores 0, 0.5, 1, 1.5 or 2 points, not {points!r}")
        counts[int(doubled)] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _record(wins: int, losses: int, draws: int) -> str:
    return f"{wins}-{losses}-{draws}"


def format_pairs_line(name_a: str, name_b: str, *, wins: int, losses: int, draws: int, pentanomial: Sequence[int],
                      on_play: tuple[int, int, int], on_draw: tuple[int, int, int]) -> str:
    """One text line for two entrants who played pairs of games, from the first's side:

    ``A vs B: G games (P pairs): W - L - D [score]; pairs LL n, LD n, WL+DD n, WD n, WW n;
    Elo E +/- M, nElo N +/- M, LOS P%; on the play W-L-D, on the draw W-L-D``

    The games' record and score count every game; the estimates count the complete pairs in
    ``pentanomial`` (LL, LD, WL+DD, WD, WW). ``on_play`` and ``on_draw`` are the first entrant's
    (wins, losses, draws) in the games it started and in those it didn't; they must add up to the
    record. What has no number is said in words: a side that won every pair has no Elo estimate
    (``A won all 3 pairs: no Elo estimate``), an interval with no bound says so (``Elo 120.4
    (interval unbounded: 3 pairs)``), and the normalized Elo and LOS of pairs that all went the
    same way are ``n/a``. Raises ValueError when the numbers don't fit together.
    """
    _check_counts((wins, losses, draws, *on_play, *on_draw))
    games = wins + losses + draws
    if games == 0:
        raise ValueError(f"{name_a} and {name_b} have played no games")
    if len(on_play) != 3 or len(on_draw) != 3 or \
            tuple(p + d for p, d in zip(on_play, on_draw, strict=True)) != (wins, losses, draws):
        raise ValueError(f"on the play {list(on_play)} and on the draw {list(on_draw)} don't add up "
                         f"to {wins}-{losses}-{draws}")
    if len(pentanomial) != len(PAIR_OUTCOMES):
        raise ValueError(f"the pentanomial counts are (LL, LD, WL+DD, WD, WW), not {list(pentanomial)}")
    _check_counts(pentanomial)
    pairs = sum(pentanomial)
    if 2 * pairs > games:
        raise ValueError(f"{games} games can't hold {pairs} pairs")
    counted = ", ".join(f"{outcome} {count}" for outcome, count in zip(PAIR_OUTCOMES, pentanomial, strict=True))
    if pairs == 0:
        estimates = "no complete pair: no Elo estimate"
    else:
        estimate = elo_pentanomial(pentanomial)
        chance = "n/a" if estimate.los is None else f"{100.0 * estimate.los:.1f}%"
        if estimate.elo is None:
            winner = name_a if estimate.score > 0.5 else name_b
            swept = "the only pair" if pairs == 1 else f"all {pairs} pairs"
            estimates = f"{winner} won {swept}: no Elo estimate, LOS {chance}"
        else:
            if estimate.elo_margin is None:
                elo = f"Elo {estimate.elo:.1f} (interval unbounded: {_plural(pairs, 'pair')})"
            else:
                elo = f"Elo {estimate.elo:.1f} +/- {estimate.elo_margin:.1f}"
            if estimate.nelo is None or estimate.nelo_margin is None:
                nelo = "nElo n/a"
            else:
                nelo = f"nElo {estimate.nelo:.1f} +/- {estimate.nelo_margin:.1f}"
            estimates = f"{elo}, {nelo}, LOS {chance}"
    return (f"{name_a} vs {name_b}: {_plural(games, 'game')} ({_plural(pairs, 'pair')}): "
            f"{wins} - {losses} - {draws} [{(wins + 0.5 * draws) / games:.3f}]; pairs {counted}; {estimates}; "
            f"on the play {_record(*on_play)}, on the draw {_record(*on_draw)}")
