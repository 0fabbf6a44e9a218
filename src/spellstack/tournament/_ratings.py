"""Ratings of the entrants with openskill's Plackett-Luce model, game by game.

Ratings are a report beside the standings, not a tiebreaker: the Magic Tournament Rules
rank by match points and MTR 3.1's tiebreakers alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ._pairs import GameOutcome, check_outcomes

__all__ = ["Rating", "ratings"]


@dataclass(frozen=True, slots=True)
class Rating:
    """One entrant's skill estimate after every game."""

    entrant: int
    """The entrant's index."""
    name: str
    """The entrant's name."""
    mu: float
    """The estimated skill (the model's default before any game: 25)."""
    sigma: float
    """The uncertainty of ``mu`` (the default before any game: 25/3)."""
    ordinal: float
    """The conservative estimate mu - 3 sigma, the order of the list."""


def ratings(outcomes: Iterable[GameOutcome], names: Sequence[str]) -> list[Rating]:
    """Plackett-Luce ratings (openskill, default parameters) of entrants 0..len(names)-1.

    Every entrant starts at the model's default rating; each game ``(a, b, score of a)``
    is rated in the order given (the caller passes them in game-id order) as a two-team
    result: a win ranks a first, a loss b first, and a draw (score 0.5) is a tie. Entrants
    without games keep the default. The list is sorted by ordinal, highest first, ties by
    index. Only the numbers enter the model (never openskill's random player ids), so the
    result depends on nothing but the arguments. Raises ValueError for an unknown entrant,
    a game against oneself, or a score other than 1, 0.5 or 0.
    """
    # Imported here: the model is wanted only once a tournament is over, and importing it
    # costs every process (each worker, every other command) memory and start-up time.
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [model.rating() for _ in names]
    for a, b, score in check_outcomes(outcomes, names):
        ranks = [0.0, 0.0] if score == 0.5 else ([0.0, 1.0] if score == 1 else [1.0, 0.0])
        [new_a], [new_b] = model.rate([[current[a]], [current[b]]], ranks=ranks)
        current[a], current[b] = new_a, new_b
    rows = [Rating(entrant=i, name=names[i], mu=r.mu, sigma=r.sigma, ordinal=r.ordinal())
            for i, r in enumerate(current)]
    rows.sort(key=lambda row: (-row.ordinal, row.entrant))
    return rows
