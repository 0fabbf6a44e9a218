"""Match points, records and the tiebreakers of the Magic Tournament Rules (MTR).

MTR 3.1 ranks players by match points, then opponents' match-win percentage (OMW%), then
game-win percentage (GW%), then opponents' game-win percentage (OGW%); MTR appendix C
defines them. Everything here is a pure function of its arguments, with exact
``Fraction`` arithmetic so that ties are real ties and never rounding noise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

__all__ = ["FLOOR", "MatchResult", "Standing", "check_results", "match_points", "rank_key", "standings"]

FLOOR = Fraction(33, 100)
"""The lowest match-win and game-win percentage counted: exactly 0.33, as MTR appendix C
writes it ("If this number is lower than 0.33, use 0.33 instead"), not 1/3."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One finished match of a tournament, or a bye; entrants are indexes 0..n-1."""

    round: int
    """The round it was played in, from 1."""
    a: int
    """The first entrant (the one with the bye, for a bye)."""
    b: int | None
    """The second entrant, or None: a bye for ``a``."""
    a_wins: int
    """Games won by ``a`` (ignored for a bye)."""
    b_wins: int
    """Games won by ``b`` (ignored for a bye)."""
    draws: int
    """Drawn games (ignored for a bye)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's row of the standings; the percentages are exact fractions of 1."""

    rank: int
    """1 for the first place; every rank is distinct (the entrant index breaks the last ties)."""
    entrant: int
    """The entrant's index."""
    points: int
    """Match points: 3 a win (byes included), 1 a draw, 0 a loss (MTR appendix C)."""
    wins: int
    """Matches won, byes included."""
    losses: int
    """Matches lost."""
    draws: int
    """Matches drawn."""
    byes: int
    """Byes received (each also counted in ``wins``)."""
    mw: Fraction
    """Match-win percentage: points / (3 x rounds played), at least 0.33."""
    omw: Fraction
    """Opponents' match-win percentage: the mean of the opponents' ``mw`` (0 without opponents)."""
    gw: Fraction
    """Game-win percentage: game points / (3 x games played), at least 0.33."""
    ogw: Fraction
    """Opponents' game-win percentage: the mean of the opponents' ``gw`` (0 without opponents)."""


def _check_entrant(index: int, n: int, result: MatchResult) -> None:
    if not 0 <= index < n:
        raise ValueError(f"{result} names entrant {index}, but the entrants are 0..{n - 1}")


def check_results(n: int, results: Iterable[MatchResult]) -> None:
    """Raise ValueError unless every result names known, distinct entrants with sane counts."""
    if n < 2:
        raise ValueError(f"a tournament needs at least 2 entrants, not {n}")
    for result in results:
        _check_entrant(result.a, n, result)
        if result.b is not None:
            _check_entrant(result.b, n, result)
            if result.b == result.a:
                raise ValueError(f"{result} pairs entrant {result.a} with itself")
            if min(result.a_wins, result.b_wins, result.draws) < 0:
                raise ValueError(f"{result} has a negative number of games")
        if result.round < 1:
            raise ValueError(f"{result} has round {result.round}; rounds count from 1")


def match_points(result: MatchResult, entrant: int) -> int:
    """The match points ``entrant`` (``result.a`` or ``result.b``) earned in ``result``.

    MTR appendix C: 3 for a match win, 1 for a draw, 0 for a loss; a bye is a win. The
    entrant with more game wins wins the match; equal game wins (drawn games aside) is a
    drawn match.
    """
    if entrant == result.a:
        mine, theirs = result.a_wins, result.b_wins
    elif result.b is not None and entrant == result.b:
        mine, theirs = result.b_wins, result.a_wins
    else:
        raise ValueError(f"entrant {entrant} did not play in {result}")
    if result.b is None:
        return 3
    if mine > theirs:
        return 3
    return 1 if mine == theirs else 0


def _games(result: MatchResult, entrant: int, games_to_win: int) -> tuple[int, int]:
    """(game points, games played) of ``entrant`` in ``result``; a bye is ``games_to_win``-0."""
    if result.b is None:
        return 3 * games_to_win, games_to_win
    mine = result.a_wins if entrant == result.a else result.b_wins
    played = result.a_wins + result.b_wins + result.draws
    return 3 * mine + result.draws, played


def _floored(points: int, possible: int) -> Fraction:
    """points / possible, at least 0.33; nothing possible yet counts as 0, so 0.33."""
    if possible == 0:
        return FLOOR
    return max(FLOOR, Fraction(points, possible))


def _mean(values: Sequence[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def rank_key(row: Standing) -> tuple[int, Fraction, Fraction, Fraction]:
    """The MTR 3.1 order as a sort key (ascending sorts best first): points, OMW%, GW%, OGW%."""
    return (-row.points, -row.omw, -row.gw, -row.ogw)


def standings(n: int, results: Iterable[MatchResult], games_to_win: int) -> list[Standing]:
    """The ranked standings of entrants 0..n-1 after ``results`` (MTR 3.1 and appendix C).

    - Match points: 3 a match win, 1 a draw, 0 a loss. A bye is a match win, and for the
      entrant's own GW% it counts as ``games_to_win`` games won and none lost (2-0 in a
      best-of-3).
    - MW% = match points / (3 x rounds played, byes included); GW% = game points / (3 x
      games played), where a game win is 3 game points and a drawn game 1. Both are raised
      to 0.33 when lower; an entrant that has played nothing has 0.33.
    - OMW% and OGW% are the means, over the matches the entrant played (byes ignored), of
      the opponent's MW% and GW%, each already floored; an opponent met twice counts twice.
      An entrant without opponents has OMW% and OGW% 0.
    - Rank: by match points, then OMW%, GW%, OGW%; entrants still tied are ordered by
      index, an arbitrary but fixed order, so every rank is distinct.

    The percentages are exact ``Fraction`` values between 0 and 1 (``float()`` them to
    print). Raises ValueError if n < 2, a result names an entrant outside 0..n-1, or
    ``games_to_win`` < 1.
    """
    results = list(results)
    check_results(n, results)
    if games_to_win < 1:
        raise ValueError(f"games_to_win must be at least 1, not {games_to_win}")
    points = [0] * n
    record = [[0, 0, 0, 0] for _ in range(n)]  # wins, losses, draws, byes
    game_points = [0] * n
    games_played = [0] * n
    opponents: list[list[int]] = [[] for _ in range(n)]
    for result in results:
        sides = [result.a] if result.b is None else [result.a, result.b]
        for entrant in sides:
            earned = match_points(result, entrant)
            points[entrant] += earned
            record[entrant][{3: 0, 0: 1, 1: 2}[earned]] += 1
            gained, played = _games(result, entrant, games_to_win)
            game_points[entrant] += gained
            games_played[entrant] += played
        if result.b is None:
            record[result.a][3] += 1
        else:
            opponents[result.a].append(result.b)
            opponents[result.b].append(result.a)
    mw = [_floored(points[i], 3 * sum(record[i][:3])) for i in range(n)]
    gw = [_floored(game_points[i], 3 * games_played[i]) for i in range(n)]
    rows = [
        Standing(rank=0, entrant=i, points=points[i], wins=record[i][0], losses=record[i][1],
                 draws=record[i][2], byes=record[i][3], mw=mw[i],
                 omw=_mean([mw[o] for o in opponents[i]]), gw=gw[i],
                 ogw=_mean([gw[o] for o in opponents[i]]))
        for i in range(n)
    ]
    rows.sort(key=lambda row: (rank_key(row), row.entrant))
    return [replace(row, rank=place) for place, row in enumerate(rows, start=1)]
