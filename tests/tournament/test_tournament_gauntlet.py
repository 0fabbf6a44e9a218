"""Gauntlet schedules: each seed meets every other entrant once, the others never meet each
other, nobody plays twice in a round, in as few rounds as can be."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from spellstack.tournament import Pairing, gauntlet, round_robin


def _fewest_rounds(n: int, seeds: int) -> int:
    """A lower bound on the rounds: a seed plays n - 1 matches, one a round, and a round holds
    at most n // 2 matches. A schedule of this many rounds has the fewest."""
    matches = len([pair for pair in combinations(range(n), 2) if pair[0] < seeds])
    return max(n - 1, -(-matches // (n // 2)))


def _check(n: int, seeds: int, schedule: list[list[Pairing]]) -> None:
    meetings: Counter[frozenset[int]] = Counter()
    for matches in schedule:
        assert matches, "no empty round"
        playing = [e for pair in matches for e in pair]
        assert None not in playing
        assert len(playing) == len(set(playing)), f"an entrant twice in a round: {matches}"
        for a, b in matches:
            assert b is not None and 0 <= a < n and 0 <= b < n
            assert min(a, b) < seeds, f"{a} and {b} are not seeds, and met"
            meetings[frozenset((a, b))] += 1
    assert meetings == Counter(frozenset(pair) for pair in combinations(range(n), 2) if pair[0] < seeds)


@pytest.mark.parametrize("n", range(2, 17))
def test_every_seed_meets_every_other_entrant_once_in_the_fewest_rounds(n: int) -> None:
    for seeds in range(1, n):
        schedule = gauntlet(n, seeds)
        _check(n, seeds, schedule)
        assert len(schedule) == _fewest_rounds(n, seeds), (n, seeds)
        assert gauntlet(n, seeds) == schedule


def test_the_fewest_rounds() -> None:
    # One seed: its n - 1 matches, one a round.
    assert gauntlet(6, 1) == [[(0, e)] for e in range(1, 6)]
    assert len(gauntlet(7, 1)) == 6
    # An even n: n - 1 rounds, as a round robin, whatever the seeds.
    assert [len(gauntlet(8, s)) for s in range(1, 8)] == [7] * 7
    # An odd n with few others needs n rounds: 5 entrants, 3 seeds: 3 + 6 = 9 matches, at
    # most 2 a round, so 5 rounds. With 4 others (7 entrants, 3 seeds: 3 + 12 = 15 matches,
    # 3 a round), 6 rounds do.
    assert len(gauntlet(5, 3)) == 5
    assert len(gauntlet(7, 3)) == 6
    # All but one entrant seeded: a round robin, 5 rounds for 5 entrants as the circle has.
    assert len(gauntlet(5, 4)) == len(round_robin(5)) == 5


def test_a_larger_field() -> None:
    for n, seeds in ((33, 5), (40, 12), (31, 30)):
        schedule = gauntlet(n, seeds)
        _check(n, seeds, schedule)
        assert len(schedule) == _fewest_rounds(n, seeds)


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="at least 2 entrants"):
        gauntlet(1, 1)
    with pytest.raises(ValueError, match="a gauntlet of 4 entrants needs 1 to 3 seeds, not 0"):
        gauntlet(4, 0)
    with pytest.raises(ValueError, match="a gauntlet of 4 entrants needs 1 to 3 seeds, not 4"):
        gauntlet(4, 4)
    with pytest.raises(ValueError, match="not -1"):
        gauntlet(4, -1)
