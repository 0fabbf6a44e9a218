"""Head-to-head results per pair of entrants: score, Elo difference with its 95% interval, LOS.

These are the statistics chess engine testers print for a match between two programs
(the cutechess style); they are not part of the Magic Tournament Rules, which rank by
match points alone (MTR 3.1). Games are counted one by one, whatever match they were in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Z95", "GameOutcome", "PairLine", "check_outcomes", "elo_difference", "format_pair_line", "los",
           "pair_line", "pair_lines"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

GameOutcome = tuple[int, int, float]
"""One game: entrant a, entrant b, and a's score (1 a win, 0.5 a draw, 0 a loss)."""


@dataclass(frozen=True, slots=True)
class PairLine:
    """The games between two entrants, from the first entrant's side."""

    a: int
    """The first entrant (the lower index)."""
    b: int
    """The second entrant (the higher index)."""
    name_a: str
    """The first entrant's name."""
    name_b: str
    """The second entrant's name."""
    wins: int
    """Games ``a`` won."""
    losses: int
    """Games ``a`` lost."""
    draws: int
    """Games drawn."""
    score: float
    """``a``'s score fraction: (wins + draws / 2) / games."""
    elo: float | None
    """The Elo difference -400 log10(1 / score - 1); None when infinite (score 0 or 1)."""
    elo_margin: float | None
    """Half the width of the Elo difference's 95% interval; None when unbounded."""
    los: float | None
    """The likelihood that ``a`` is the stronger, 0..1; None without decisive games."""

    @property
    def games(self) -> int:
        """The games played between the two."""
        return self.wins + self.losses + self.draws


def elo_difference(score: float) -> float | None:
    """-400 log10(1 / score - 1), the Elo difference that predicts ``score``; None at 0 or 1."""
    if not 0.0 < score < 1.0:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: an even score is 0.0, not -0.0


def los(wins: int, losses: int) -> float | None:
    """Likelihood of superiority, 0.5 (1 + erf((wins - losses) / sqrt(2 (wins + losses)))).

    The normal approximation of the chance that the side with ``wins`` is the stronger,
    from decisive games only; None when there are none (no evidence either way).
    """
    decisive = wins + losses
    if decisive == 0:
        return None
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * decisive)))


def pair_line(a: int, b: int, name_a: str, name_b: str, wins: int, losses: int,
              draws: int) -> PairLine:
    """The statistics of ``wins``-``losses``-``draws`` (from a's side) between a and b.

    The score p is the mean of the per-game scores (1, 0.5, 0). Its standard error is the
    per-game standard deviation over sqrt(games), with the variance
    (wins (1 - p)^2 + draws (0.5 - p)^2 + losses p^2) / games; the 95% interval of the
    score is p +- 1.96 standard errors, and ``elo_margin`` is half the distance between the
    Elo differences of its ends (None when an end reaches 0 or 1, where the Elo
    difference is infinite). All games drawn: the score is 0.5 with no spread, so the
    difference is 0 +- 0, and ``los`` is None.
    """
    games = wins + losses + draws
    if games == 0:
        raise ValueError(f"{name_a} and {name_b} have played no games")
    score = (wins + 0.5 * draws) / games
    variance = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2
                + losses * score ** 2) / games
    error = Z95 * math.sqrt(variance / games)
    high, low = elo_difference(score + error), elo_difference(score - error)
    margin = None if high is None or low is None else (high - low) / 2.0
    return PairLine(a=a, b=b, name_a=name_a, name_b=name_b, wins=wins, losses=losses, draws=draws,
                    score=score, elo=elo_difference(score), elo_margin=margin, los=los(wins, losses))


def check_outcomes(outcomes: Iterable[GameOutcome], names: Sequence[str]) -> list[GameOutcome]:
    """The outcomes as a list; ValueError unless each names two known, distinct entrants and
    a score of 1, 0.5 or 0."""
    n = len(names)
    checked = list(outcomes)
    for outcome in checked:
        a, b, score = outcome
        for entrant in (a, b):
            if not 0 <= entrant < n:
                raise ValueError(f"game {outcome} names entrant {entrant}, but the entrants are 0..{n - 1}")
        if a == b:
            raise ValueError(f"game {outcome} pairs entrant {a} with itself")
        if score not in (0, 0.5, 1):
            raise ValueError(f"game {outcome} has score {score}; a score is 1, 0.5 or 0")
    return checked


def pair_lines(outcomes: Iterable[GameOutcome], names: Sequence[str]) -> list[PairLine]:
    """One line per pair of entrants that played, in order of (a, b) with a < b.

    ``outcomes`` are games ``(a, b, score of a)``, the score 1, 0.5 or 0; ``names[i]`` is
    entrant i's name. Each line is from the lower index's side, whichever side a game named
    first. Raises ValueError for an unknown entrant, a game of an entrant against itself,
    or another score.
    """
    tally: dict[tuple[int, int], list[int]] = {}
    for a, b, score in check_outcomes(outcomes, names):
        if a > b:
            a, b, score = b, a, 1 - score
        counts = tally.setdefault((a, b), [0, 0, 0])
        counts[0 if score == 1 else 1 if score == 0 else 2] += 1  # wins, losses, draws
    return [pair_line(a, b, names[a], names[b], *counts) for (a, b), counts in sorted(tally.items())]


def format_pair_line(line: PairLine) -> str:
    """One text line in the cutechess style, the games counted from the first entrant's side:

    ``A vs B: W - L - D  [score]  Elo diff E +/- M, LOS P%``

    for example ``random-gruul vs random-dimir: 6 - 2 - 2  [0.700]  Elo diff 147.2 +/- 268.7,
    LOS 92.1%``. What has no number is said in words: a score of 0 or 1 (``B won all 2 games:
    no Elo estimate``), an interval with no bound (``Elo diff 120.4 (interval unbounded:
    3 games)``), and the LOS without decisive games (``n/a``).
    """
    if line.elo is None:
        winner = line.name_a if line.score > 0.5 else line.name_b
        swept = "the only game" if line.games == 1 else f"all {line.games} games"
        elo = f"{winner} won {swept}: no Elo estimate"
    elif line.elo_margin is None:
        games = f"{line.games} game{'s' if line.games != 1 else ''}"
        elo = f"Elo diff {line.elo:.1f} (interval unbounded: {games})"
    else:
        elo = f"Elo diff {line.elo:.1f} +/- {line.elo_margin:.1f}"
    chance = "n/a" if line.los is None else f"{100.0 * line.los:.1f}%"
    return (f"{line.name_a} vs {line.name_b}: {line.wins} - {line.losses} - {line.draws}  "
            f"[{line.score:.3f}]  {elo}, LOS {chance}")
