"""A best-of-N match: which game comes next, and how the match came out.

A match is won by the first entrant to win more than half of its N games (``games_to_win``).
A drawn game (the turn limit, or an engine error) does not count towards the N (MTR 2.3: drawn
games do not count towards a match's best-of total), but a match has at most ``2 N`` games in
all, standing in for the round's time limit (MTR 2.5): then, or once N games were decisive
with nobody past half (an even N), the entrant with more game wins wins the match, and equal
wins are a drawn match.

103.1: the first game's chooser is picked by the game's generator; each later game's chooser
is the previous game's loser, or after a drawn game the previous game's chooser.

The games between two entrants don't depend on who else entered: who sits in seat 0
(``seat_order``), each game's seed and each bot's seed come from the tournament's key, the
two entrants' names, which meeting of the two the match is and the game's number in it, never
from the round, the match's number in it or the entrants' indexes. A tournament with more
entrants plays, between two of them, the same games (apart from their ids) as one without.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..rules import DEFAULT_TURN_LIMIT
from ._games import GameRow, GameSpec
from ._keys import keyed_seed

__all__ = ["MatchSpec", "Score", "games_to_win", "knockout_score", "match_score", "next_game", "next_pair_game",
           "pair_score", "seat_order"]


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """One match of a round (a pairing)."""

    round: int
    """The round, from 1."""
    match: int
    """Its number in the round, from 1."""
    entrants: tuple[int, int]
    """The two entrants, the first in seat 0 of every game (``seat_order``)."""
    names: tuple[str, str]
    """Their names, in the same order: the games' seeds come from them."""
    meeting: int
    """Which meeting of the two this match is in the tournament, from 1."""


@dataclass(frozen=True, slots=True)
class Score:
    """A match's games so far."""

    wins: tuple[int, int]
    """Game wins of the match's first and second entrant."""
    draws: int
    """Drawn games."""
    over: bool
    """Whether the match has ended."""


def games_to_win(best_of: int) -> int:
    """Game wins that win a best-of-``best_of`` match: more than half."""
    return best_of // 2 + 1


def match_score(rows: Sequence[GameRow], best_of: int) -> Score:
    """The score of a match from its games so far (in order)."""
    wins = [0, 0]
    draws = 0
    for row in rows:
        if row.winner >= 0:
            wins[row.winner] += 1
        else:
            draws += 1
    need = games_to_win(best_of)
    over = (max(wins) >= need or wins[0] + wins[1] >= best_of
            or len(rows) >= 2 * best_of)
    return Score((wins[0], wins[1]), draws, over)


def knockout_score(rows: Sequence[GameRow], best_of: int) -> Score:
    """A knockout match's score (a top cut's): it can't end drawn. It is over as a match is
    (``match_score``) unless the two are level then; level, it goes on a game at a time, up to
    twice ``best_of`` games in all, after which the higher seed (seat 0) goes through."""
    score = match_score(rows, best_of)
    level = score.wins[0] == score.wins[1]
    return replace(score, over=len(rows) >= 2 * best_of or (score.over and not level))


def _pair_part(names: Sequence[str]) -> str:
    """Names as one part of a seed's text, unambiguously (a name may hold the ``/`` that
    ``keyed_seed`` joins parts with)."""
    return json.dumps(list(names), ensure_ascii=False)


def seat_order(key: bytes, a: int, b: int, names: Sequence[str], meeting: int) -> tuple[int, int]:
    """Entrants ``a`` and ``b`` (indexes into ``names``) in seat order for their ``meeting``-th
    match (from 1): a coin from the tournament's key and the two names (in sorted order)
    picks who has seat 0 in the first meeting, and the seats swap at every meeting after.

    Only the names, the key and the meeting count, so the order is the same in any
    tournament that holds the two, whatever the format, the round or the others entered.
    Raises ValueError if the two share a name or ``meeting`` < 1.
    """
    if names[a] == names[b]:
        raise ValueError(f"entrants {a} and {b} are both named {names[a]!r}")
    if meeting < 1:
        raise ValueError(f"meetings count from 1, not {meeting}")
    low, high = sorted((a, b), key=lambda e: names[e])
    coin = keyed_seed(key, "seats", _pair_part((names[low], names[high]))) % 2
    return (low, high) if (coin + meeting - 1) % 2 == 0 else (high, low)


def next_game(key: bytes, match: MatchSpec, rows: Sequence[GameRow], best_of: int,
              turn_limit: int = DEFAULT_TURN_LIMIT, *, knockout: bool = False) -> GameSpec | None:
    """The match's next game after ``rows`` (its games so far, in order), or None: it is over.

    The game's seed is ``keyed_seed(key, "game", names, meeting, number)`` and seat k's bot
    seed ``keyed_seed(key, "bot", names, meeting, number, k)``, with ``names`` the two
    entrants' names in seat order as a JSON list: the same game in every tournament that
    holds the two entrants with this key. A bot told its own seed learns nothing of the key,
    so nothing of the game's seed.

    ``knockout``: a top cut's match (``knockout_score``), the higher seed in seat 0, who
    chooses who plays first in the first game.
    """
    if (knockout_score if knockout else match_score)(rows, best_of).over:
        return None
    number = len(rows) + 1
    game_id = f"r{match.round}-m{match.match}-g{number}"
    chooser: int | None = 0 if knockout else None
    if rows:
        last = rows[-1]
        if last.winner >= 0:
            chooser = 1 - last.winner
        elif last.chooser >= 0:
            chooser = last.chooser
        # else: a game that never got as far as the choice; the generator picks again
    # Not the game id: the round and match numbers change with the other entrants.
    pair = _pair_part(match.names)
    return GameSpec(game_id, match.round, match.match, number,
                    keyed_seed(key, "game", pair, match.meeting, number), match.entrants,
                    tuple(keyed_seed(key, "bot", pair, match.meeting, number, seat)
                          for seat in range(2)),
                    chooser, turn_limit=turn_limit)


def pair_score(rows: Sequence[GameRow], match: MatchSpec) -> Score:
    """A game pair's score so far, from the match's entrants' sides (game 2 has the seats
    reversed, so a game's winning seat is mapped to its entrant); over after two games."""
    wins = [0, 0]
    draws = 0
    for row in rows:
        if row.winner >= 0:
            wins[match.entrants.index(row.entrants[row.winner])] += 1
        else:
            draws += 1
    return Score((wins[0], wins[1]), draws, len(rows) >= 2)


def next_pair_game(key: bytes, match: MatchSpec, rows: Sequence[GameRow],
                   turn_limit: int = DEFAULT_TURN_LIMIT) -> GameSpec | None:
    """A game pair's next game after ``rows``, or None: both are played (cutechess's
    ``-repeat``, fastchess's ``-games 2``: one deal, played once from each side).

    Both games have the pair's seed, ``keyed_seed(key, "pair", names, meeting)``; each
    entrant's bot seed and its deck's library shuffle seed are the same in both (keyed by the
    entrant's place in game 1), so each deck's library before the opening draw is in the same
    order in both games. Only the seats change: game 2 has them reversed, and seat 0 takes the
    first turn in each, so the entrant on the play in game 1 is on the draw in game 2; nobody
    chooses (mulligans are asked as usual)."""
    if len(rows) >= 2:
        return None
    number = len(rows) + 1
    pair = _pair_part(match.names)
    places = (0, 1) if number == 1 else (1, 0)  # each seat's entrant, by its place in game 1
    return GameSpec(f"r{match.round}-m{match.match}-g{number}", match.round, match.match, number,
                    keyed_seed(key, "pair", pair, match.meeting),
                    tuple(match.entrants[i] for i in places),
                    tuple(keyed_seed(key, "pair bot", pair, match.meeting, i) for i in places),
                    None, starting=0,
                    library_seeds=tuple(keyed_seed(key, "pair library", pair, match.meeting, i)
                                        for i in places),
                    turn_limit=turn_limit)
