"""Round robin schedules by the circle method, and the number of Swiss rounds."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from spellstack.tournament import round_robin, swiss_rounds


def test_two_entrants_meet_once() -> None:
    assert round_robin(2) == [[(0, 1)]]


def test_three_entrants_each_have_one_bye() -> None:
    # The seats are 0 1 2 and an empty seat E; entrant 0 stays, the others turn.
    # Round 1: 0-E 1-2  -> (1, 2) and the bye (0, None)
    # Round 2: seats 0 E 1 2 -> 0-2, E-1; entrant 0 swaps to second place -> (2, 0), (1, None)
    # Round 3: seats 0 2 E 1 -> 0-1, 2-E -> (0, 1), (2, None)
    assert round_robin(3) == [[(1, 2), (0, None)], [(2, 0), (1, None)], [(0, 1), (2, None)]]


def test_four_entrants_by_the_circle_method() -> None:
    # Seats 0 1 2 3: 0-3 1-2; turn -> 0 3 1 2: 0-2 3-1 (0 second); turn -> 0 2 3 1: 0-1 2-3.
    assert round_robin(4) == [[(0, 3), (1, 2)], [(2, 0), (3, 1)], [(0, 1), (2, 3)]]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
def test_every_pair_meets_exactly_once(n: int) -> None:
    rounds = round_robin(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    meetings = Counter(frozenset(pair) for pairs in rounds for pair in pairs if pair[1] is not None)
    assert meetings == Counter(frozenset(pair) for pair in combinations(range(n), 2))
    for pairs in rounds:  # everyone plays (or has the bye) once a round
        seated = [e for pair in pairs for e in pair if e is not None]
        assert sorted(seated) == list(range(n))
    byes = Counter(a for pairs in rounds for a, b in pairs if b is None)
    assert byes == (Counter(range(n)) if n % 2 else Counter())


def test_five_entrants_bye_comes_last_each_round() -> None:
    for pairs in round_robin(5):
        assert len(pairs) == 3
        assert pairs[-1][1] is None
        assert all(b is not None for _, b in pairs[:-1])


@pytest.mark.parametrize("n", [1, 0, -3])
def test_too_few_entrants(n: int) -> None:
    with pytest.raises(ValueError, match="at least 2 entrants"):
        round_robin(n)
    with pytest.raises(ValueError, match="at least 2 entrants"):
        swiss_rounds(n)


def test_swiss_rounds_is_ceil_log2() -> None:
    # 2: 1; 3-4: 2; 5-8: 3; 9-16: 4; 17: 5; 128: 7; 129: 8
    assert [swiss_rounds(n) for n in (2, 3, 4, 5, 8, 9, 16, 17, 128, 129)] == [1, 2, 2, 3, 3, 4, 4, 5, 7, 8]
