"""Round robin schedules and Swiss pairings, byes included.

Entrants are indexes 0..n-1 and a pairing is ``(a, b)``, with ``b`` None for a bye. Every
function is pure: the same arguments give the same pairings in every Python process (the
only randomness is a ``random.Random`` seeded with a string, which Python hashes with
SHA-512, not with the per-process ``hash()``).

A pairing says who meets whom, not who sits where: the runner seats each pair by
``seat_order`` (a coin from the two names, then alternating at each meeting), the same in
either format and whoever else entered, so that the games between two entrants don't
depend on the rest of the field.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from ._standings import MatchResult, Standing, check_results, rank_key, standings

__all__ = ["FORMATS", "Pairing", "round_robin", "swiss_pairings", "swiss_rounds"]

FORMATS = ("round-robin", "swiss")
"""The formats a tournament can have (``run_tournament`` plays each)."""

Pairing = tuple[int, int | None]
"""Two entrants' indexes, or an entrant and None: a bye."""


def _check_n(n: int) -> None:
    if n < 2:
        raise ValueError(f"a tournament needs at least 2 entrants, not {n}")


def round_robin(n: int) -> list[list[Pairing]]:
    """Every entrant meets every other exactly once, by the circle method.

    Entrant 0 stays in place while the others turn around it one seat a round; with an
    odd n an empty seat joins, and whoever faces it has a bye, so each entrant has exactly
    one bye. n even: n - 1 rounds of n / 2 matches; n odd: n rounds of (n - 1) / 2 matches
    and one bye, listed last as ``(entrant, None)``. Entrant 0 alternates between first
    and second place of its pair round by round (the runner's seats don't follow it:
    ``seat_order``). Raises ValueError if n < 2.
    """
    _check_n(n)
    seats: list[int | None] = [*range(n)]
    if n % 2:
        seats.append(None)
    size = len(seats)
    rounds: list[list[Pairing]] = []
    for number in range(size - 1):
        matches: list[Pairing] = []
        bye: list[Pairing] = []
        for i in range(size // 2):
            first, second = seats[i], seats[size - 1 - i]
            if i == 0 and number % 2:
                first, second = second, first
            if first is None:
                assert second is not None
                bye.append((second, None))
            elif second is None:
                bye.append((first, None))
            else:
                matches.append((first, second))
        rounds.append(matches + bye)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds


def swiss_rounds(n: int) -> int:
    """The number of Swiss rounds for n entrants: ceil(log2 n), at least 1.

    This agrees with the table of rounds Wizards of the Coast publishes for Swiss events
    (2: 1, 3-4: 2, 5-8: 3, 9-16: 4, ... 65-128: 7, 129-212: 8) up to 212 players; from 213
    the table adds rounds sooner. A tournament can ask for another number. Raises
    ValueError if n < 2.
    """
    _check_n(n)
    return max(1, (n - 1).bit_length())


def _order(n: int, results: Sequence[MatchResult], round_no: int, seed: int | str,
           games_to_win: int) -> tuple[list[int], list[Standing]]:
    """The entrants from the top of the standings down, exact ties in a seeded random order."""
    rows = standings(n, results, games_to_win)
    rng = random.Random(f"{seed}:swiss:{round_no}")
    draw = list(range(n))
    rng.shuffle(draw)
    lot = {entrant: place for place, entrant in enumerate(draw)}
    by_entrant = sorted(rows, key=lambda row: row.entrant)
    order = sorted(range(n), key=lambda e: (rank_key(by_entrant[e]), lot[e]))
    return order, by_entrant


def _pair(order: Sequence[int], met: Counter[frozenset[int]], allow_rematch: bool,
          failed: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    """Pair ``order`` (even length) from the top down, backtracking; None if impossible.

    The first unpaired entrant takes the first of the others, in order, it can meet: its
    own match-point group first, then the groups below (a pair-down). Without
    ``allow_rematch`` two entrants that have met are never paired; with it, entrants that
    have met fewer times come first. ``failed`` remembers the sets already found
    impossible, so no set is searched twice.
    """
    if not order:
        return []
    key = frozenset(order)
    if key in failed:
        return None
    top, rest = order[0], order[1:]
    candidates = list(rest)
    if allow_rematch:
        candidates.sort(key=lambda other: met[frozenset((top, other))])
    for other in candidates:
        if not allow_rematch and met[frozenset((top, other))]:
            continue
        tail = _pair([e for e in rest if e != other], met, allow_rematch, failed)
        if tail is not None:
            return [(top, other), *tail]
    failed.add(key)
    return None


def swiss_pairings(n: int, results: Iterable[MatchResult], round_no: int, seed: int | str,
                   games_to_win: int) -> list[Pairing]:
    """The pairings of Swiss round ``round_no`` after the ``results`` of the rounds before it.

    The procedure follows Wizards of the Coast's Swiss practice (players meet others with
    the same record, a player meets the same opponent at most once, a bye goes to a
    lowest-ranked player who has not had one; MTR appendix C scores it as a match win):

    1. Order the entrants by the standings (match points, then OMW%, GW%, OGW%, as in
       MTR 3.1); entrants exactly tied are put in an order drawn by lot from
       ``random.Random(f"{seed}:swiss:{round_no}")`` instead of by index. In round 1
       everyone is tied, so the whole order is the lot: random pairings from the seed.
    2. With an odd n, the bye goes to the lowest in that order among the entrants with the
       fewest byes so far (so no one has a second bye while someone has had none).
    3. The others are paired from the top down: the highest unpaired entrant meets the
       next one in order it has not met, within its match-point group, or the highest of
       the groups below when its group runs out (a pair-down). When that leaves someone
       without a legal opponent, the search backtracks; when no pairing of the others
       avoids a rematch, the bye moves up to the next entrant among those with the fewest
       byes. So there is no rematch if any pairing, with any bye step 2 allows, avoids
       one; a second bye is never given to avoid a rematch.
    4. Only if every such choice repeats a match are rematches allowed: the same top-down
       pass then prefers, for each entrant in turn, the opponents it has met fewest times
       (greedily, not a global minimum), with the bye as in step 2.

    Each pairing is (higher in the order, lower: not the seats, which ``seat_order``
    gives); the bye, if any, comes last as
    ``(entrant, None)``. Raises ValueError if n < 2, ``round_no`` < 1, a result names an
    entrant outside 0..n-1, or a result is from round ``round_no`` or later.
    """
    results = list(results)
    check_results(n, results)
    if round_no < 1:
        raise ValueError(f"rounds count from 1, not {round_no}")
    late = [result for result in results if result.round >= round_no]
    if late:
        raise ValueError(f"pairing round {round_no}, but {late[0]} is from round {late[0].round}")
    order, rows = _order(n, results, round_no, seed, games_to_win)
    met: Counter[frozenset[int]] = Counter(
        frozenset((result.a, result.b)) for result in results if result.b is not None)
    bye_candidates: list[int | None] = [None]
    if n % 2:
        fewest = min(row.byes for row in rows)
        bye_candidates = [e for e in reversed(order) if rows[e].byes == fewest]
    for allow_rematch in (False, True):
        failed: set[frozenset[int]] = set()
        for bye in bye_candidates:
            pairs = _pair([e for e in order if e != bye], met, allow_rematch, failed)
            if pairs is not None:
                tables: list[Pairing] = [*pairs]
                return tables if bye is None else [*tables, (bye, None)]
    raise AssertionError("an even number of entrants can always be paired with rematches")
