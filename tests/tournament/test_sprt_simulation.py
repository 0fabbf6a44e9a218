"""The SPRT's error rates in a seeded simulation of outcomes, not games: Bernoulli games, two per
pair, the LLR taken after every pair, alpha = beta = 0.05, the normalized model.

The long cases (300 runs each) are in the slow lane; the fast lane runs fewer, with wider limits
that a broken test would still break. Run with -s to see the mean pairs per case.
"""

from __future__ import annotations

import math

import pytest

from spellstack.tournament import SimulationSummary, SprtSettings, bernoulli_pair_chances, simulate_sprt

SEED = 39
NO_LIMIT = 100_000
"""More pairs than any run plays: the runs end at a bound."""


def _report(case: str, summary: SimulationSummary) -> None:
    print(f"{case}: {summary.runs} runs, H1 {summary.h1}, H0 {summary.h0}, no decision {summary.undecided}, "
          f"mean pairs {summary.mean_pairs:.1f}")


def _equal_at_0_50(runs: int) -> SimulationSummary:
    summary = simulate_sprt(SprtSettings(0, 50), true_nelo=0.0, runs=runs, max_pairs=NO_LIMIT, seed=SEED)
    _report("[0, 50], true nElo 0", summary)
    assert summary.undecided == 0
    return summary


def _ahead_at_0_50(runs: int) -> SimulationSummary:
    summary = simulate_sprt(SprtSettings(0, 50), true_nelo=50.0, runs=runs, max_pairs=NO_LIMIT, seed=SEED)
    _report("[0, 50], true nElo 50", summary)
    assert summary.undecided == 0
    return summary


def _identical_at_0_10(runs: int) -> SimulationSummary:
    summary = simulate_sprt(SprtSettings(0, 10), true_nelo=0.0, runs=runs, max_pairs=200, seed=SEED)
    _report("[0, 10], identical, 200-pair limit", summary)
    assert summary.undecided > runs / 2  # most runs reach the limit
    return summary


@pytest.mark.slow
def test_false_positives_at_0_50() -> None:
    summary = _equal_at_0_50(300)
    assert summary.h1 <= 0.08 * 300
    assert 100 <= summary.mean_pairs <= 170  # about 135


@pytest.mark.slow
def test_false_negatives_at_0_50() -> None:
    summary = _ahead_at_0_50(300)
    assert summary.h0 <= 0.08 * 300
    assert 100 <= summary.mean_pairs <= 190


@pytest.mark.slow
def test_identical_entrants_at_0_10() -> None:
    summary = _identical_at_0_10(300)
    assert summary.h1 <= 0.05 * 300


@pytest.mark.slow
def test_false_positives_at_0_50_fast() -> None:
    summary = _equal_at_0_50(20)
    assert summary.h1 <= 5  # 25%: a test that accepted H1 at random would exceed it
    assert 60 <= summary.mean_pairs <= 250


@pytest.mark.slow
def test_false_negatives_at_0_50_fast() -> None:
    summary = _ahead_at_0_50(20)
    assert summary.h0 <= 5
    assert 60 <= summary.mean_pairs <= 250


@pytest.mark.slow
def test_identical_entrants_at_0_10_fast() -> None:
    summary = _identical_at_0_10(15)
    assert summary.h1 <= 2


def test_the_same_seed_gives_the_same_runs() -> None:
    settings = SprtSettings(0, 100, model="logistic")
    first = simulate_sprt(settings, true_nelo=30.0, runs=10, max_pairs=100, seed=7)
    assert simulate_sprt(settings, true_nelo=30.0, runs=10, max_pairs=100, seed=7) == first
    assert first.h1 + first.h0 + first.undecided == 10
    other = simulate_sprt(settings, true_nelo=30.0, runs=10, max_pairs=100, seed=8)
    assert other.mean_pairs != first.mean_pairs


def test_bernoulli_games_have_the_normalized_elo_asked_for() -> None:
    assert bernoulli_pair_chances(0.0) == (0.25, 0.0, 0.5, 0.0, 0.25)
    for nelo in (-120.0, 10.0, 50.0, 300.0):
        chances = bernoulli_pair_chances(nelo)
        assert sum(chances) == pytest.approx(1.0) and chances[1] == chances[3] == 0.0
        scores = (0.0, 0.25, 0.5, 0.75, 1.0)
        mean = sum(c * x for c, x in zip(chances, scores, strict=True))
        variance = sum(c * (x - mean) ** 2 for c, x in zip(chances, scores, strict=True))
        # nElo over pairs: (s - 1/2) / √(2 σ²) · 800 / ln 10
        assert (mean - 0.5) / math.sqrt(2 * variance) * 800 / math.log(10) == pytest.approx(nelo)


def test_pair_chances_are_drawn_as_given() -> None:
    # Every pair WW: the LLR climbs to H1 and every run stops at the same pair.
    summary = simulate_sprt(SprtSettings(0, 10), pair_chances=(0, 0, 0, 0, 1), runs=5, max_pairs=100, seed=1)
    assert (summary.h1, summary.h0, summary.undecided) == (5, 0, 0)
    assert summary.mean_pairs == int(summary.mean_pairs) < 100


def test_bad_arguments_are_refused() -> None:
    settings = SprtSettings(0, 10)
    with pytest.raises(ValueError, match="give true_nelo or pair_chances, not both or neither"):
        simulate_sprt(settings, runs=1, max_pairs=1, seed=1)
    with pytest.raises(ValueError, match="adding up to 1"):
        simulate_sprt(settings, pair_chances=(0.5, 0.5, 0.5, 0, 0), runs=1, max_pairs=1, seed=1)
    with pytest.raises(ValueError, match=r"runs \(0\) and max_pairs \(10\) must be 1 or more"):
        simulate_sprt(settings, true_nelo=0.0, runs=0, max_pairs=10, seed=1)
