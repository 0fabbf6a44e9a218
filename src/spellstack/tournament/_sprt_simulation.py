"""How often an SPRT on pairs of games accepts each hypothesis: a seeded simulation of outcomes.

No game is played: each pair's outcome is drawn from given chances, the LLR is taken after every
pair, and a run stops at the first pair past a bound or at the pair limit, as a tournament with
``--pairs`` and ``--sprt`` stops. Over many runs, the share that accepts H1 where H0 holds is the
test's real false-positive rate, to set beside its alpha (and likewise beta).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ._sprt import NELO_SCALE, SprtSettings, llr_pentanomial, sprt_bounds

__all__ = ["SimulationSummary", "bernoulli_pair_chances", "simulate_sprt"]


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    """What the runs of a simulated SPRT decided."""

    settings: SprtSettings
    """The test simulated."""
    pair_chances: tuple[float, ...]
    """The chance of each pair outcome (LL, LD, WL+DD, WD, WW) the runs were drawn from."""
    runs: int
    """The runs simulated."""
    max_pairs: int
    """The pairs at which a run without a decision stops."""
    h1: int
    """The runs that accepted H1."""
    h0: int
    """The runs that accepted H0."""
    undecided: int
    """The runs that reached ``max_pairs`` without a decision."""
    mean_pairs: float
    """The pairs a run played, on average, wherever it stopped."""


def bernoulli_pair_chances(true_nelo: float) -> tuple[float, float, float, float, float]:
    """The chances of a pair's outcomes (LL, LD, WL+DD, WD, WW) when its two games are independent,
    never drawn, and each won with the probability p whose normalized Elo is ``true_nelo``.

    Such a game's score has mean p and deviation √(p (1 - p)); a pair's, mean p and deviation
    √(p (1 - p) / 2), so either way t = (p - 1/2) / √(p (1 - p)) = nElo / (800 / ln 10), which
    gives p = (1 + t / √(1 + t²)) / 2.
    """
    t = true_nelo / NELO_SCALE
    p = (1.0 + t / math.sqrt(1.0 + t * t)) / 2.0
    return (1.0 - p) ** 2, 0.0, 2.0 * p * (1.0 - p), 0.0, p * p


def simulate_sprt(settings: SprtSettings, *, true_nelo: float | None = None,
                  pair_chances: Sequence[float] | None = None, runs: int, max_pairs: int,
                  seed: int) -> SimulationSummary:
    """``runs`` SPRTs on pairs, each drawn from a ``random.Random(seed)`` in turn; the same
    arguments give the same summary.

    Give ``true_nelo`` (games as ``bernoulli_pair_chances(true_nelo)`` draws them) or ``pair_chances``
    itself, five chances adding up to 1. Raises ValueError for other arguments.
    """
    if (true_nelo is None) == (pair_chances is None):
        raise ValueError("give true_nelo or pair_chances, not both or neither")
    chances = tuple(bernoulli_pair_chances(true_nelo) if true_nelo is not None else pair_chances or ())
    if len(chances) != 5 or any(not 0.0 <= c <= 1.0 for c in chances) or not math.isclose(sum(chances), 1.0):
        raise ValueError(f"pair_chances must be five chances (LL, LD, WL+DD, WD, WW) adding up to 1, "
                         f"not {list(chances)}")
    if runs < 1 or max_pairs < 1:
        raise ValueError(f"runs ({runs}) and max_pairs ({max_pairs}) must be 1 or more")
    cumulative = [sum(chances[:i + 1]) for i in range(4)]
    lower, upper = sprt_bounds(settings.alpha, settings.beta)
    rng = random.Random(seed)
    known: dict[tuple[int, ...], float] = {}  # runs revisit the same counts; each LLR is worked out once
    h1 = h0 = pairs_played = 0
    for _ in range(runs):
        counts = [0, 0, 0, 0, 0]
        played = 0
        while played < max_pairs:
            played += 1
            draw = rng.random()
            counts[next((i for i, edge in enumerate(cumulative) if draw < edge), 4)] += 1
            key = tuple(counts)
            llr = known.get(key)
            if llr is None:
                llr = known[key] = llr_pentanomial(key, settings)
            if llr >= upper or llr <= lower:
                h1 += llr >= upper
                h0 += llr <= lower
                break
        pairs_played += played
    return SimulationSummary(settings=settings, pair_chances=chances, runs=runs, max_pairs=max_pairs, h1=h1, h0=h0,
                             undecided=runs - h1 - h0, mean_pairs=pairs_played / runs)

