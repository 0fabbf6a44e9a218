"""A tournament's results in schedule order, as the SPRT and the interim standings read them.

Games end in any order (many at once, in many processes); what is decided from them must not
depend on that. So the SPRT and ``--rating-interval`` read the games of the matches that have
ended with no match before them (in schedule order: by round, then match) still going: the
same prefix, whatever ran the games and whenever the tournament was resumed.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from ._elo import pentanomial_counts
from ._games import GameRow
from ._sprt import SprtResult, SprtSettings, sprt_status

__all__ = ["first_entrant_scores", "sprt_of"]


def first_entrant_scores(rows: Sequence[GameRow], first: int = 0) -> list[float]:
    """Entrant ``first``'s score in each game it played (1 a win, 0.5 a draw, 0 a loss), in
    the order given."""
    scores = []
    for row in rows:
        if first not in row.entrants:
            continue
        scores.append(0.5 if row.winner < 0 else 1.0 if row.entrants[row.winner] == first else 0.0)
    return scores


def sprt_of(settings: SprtSettings, rows: Sequence[GameRow], *, pairs: bool) -> SprtResult:
    """The SPRT after ``rows`` (a two-entrant tournament's games in schedule order), from the
    first entrant's side: H1 says it leads by ``elo1``. With ``pairs``, over the complete game
    pairs (pentanomial); else over the games (trinomial)."""
    if pairs:
        totals = [sum(first_entrant_scores(list(games)))
                  for _, games in groupby(rows, key=lambda r: (r.round, r.match))]
        games = [list(g) for _, g in groupby(rows, key=lambda r: (r.round, r.match))]
        complete = [total for total, pair in zip(totals, games, strict=True) if len(pair) == 2]
        counts = pentanomial_counts(complete)
        return sprt_status(settings, pentanomial=counts, games=2 * len(complete))
    scores = first_entrant_scores(rows)
    trinomial = (scores.count(0.0), scores.count(0.5), scores.count(1.0))
    return sprt_status(settings, trinomial=trinomial, games=len(scores))
