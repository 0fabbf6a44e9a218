"""Swiss pairings: score groups, pair-downs at the least cost (a matching, checked against every
pairing), no avoidable rematch, byes, seeds, the same in every process."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from spellstack.tournament import MatchResult, Pairing, Standing, standings, swiss_pairings, swiss_rounds

ROOT = Path(__file__).resolve().parents[2]


def won(round_no: int, a: int, b: int, a_wins: int = 2, b_wins: int = 0, draws: int = 0) -> MatchResult:
    return MatchResult(round=round_no, a=a, b=b, a_wins=a_wins, b_wins=b_wins, draws=draws)


def bye(round_no: int, a: int) -> MatchResult:
    return MatchResult(round=round_no, a=a, b=None, a_wins=0, b_wins=0, draws=0)


def seated(pairs: list[Pairing]) -> list[int]:
    return sorted(e for pair in pairs for e in pair if e is not None)


def test_round_one_is_random_from_the_seed() -> None:
    first = swiss_pairings(8, [], 1, 7, 2)
    assert swiss_pairings(8, [], 1, 7, 2) == first
    assert seated(first) == list(range(8))
    assert len({tuple(swiss_pairings(8, [], 1, seed, 2)) for seed in range(10)}) > 1
    odd = swiss_pairings(7, [], 1, 7, 2)
    assert seated(odd) == list(range(7))
    assert [b for _, b in odd].count(None) == 1 and odd[-1][1] is None


def test_the_same_pairings_in_every_process() -> None:
    # The lot must not depend on the per-process hash() of strings, nor the matching on the
    # order of a set: a whole Swiss of nine (byes, pair-downs, rematches late on) and the
    # example below, paired in processes with different hash seeds.
    code = """
import random
from spellstack.tournament import MatchResult, swiss_pairings
rng = random.Random("every process")
results = []
for round_no in range(1, 9):
    pairs = swiss_pairings(9, results, round_no, "night", 2)
    print(pairs)
    for a, b in pairs:
        wins = (2, 0) if b is None else rng.choice([(2, 0), (2, 1), (1, 2), (0, 2), (1, 1)])
        results.append(MatchResult(round_no, a, b, *wins, int(wins == (1, 1))))
print(swiss_pairings(6, [MatchResult(r, a, b, 2, 0, 0) for r, a, b in EXAMPLE], 4, 3, 2))
""".replace("EXAMPLE", repr(EXAMPLE))
    printed = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT)))}
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              timeout=60, check=True)
        printed.add(done.stdout)
    assert len(printed) == 1
    [out] = printed
    lines = out.splitlines()
    assert len(lines) == 9 and lines[0] == str(swiss_pairings(9, [], 1, "night", 2))
    assert lines[-1] == str(swiss_pairings(6, [won(r, a, b) for r, a, b in EXAMPLE], 4, 3, 2))


EXAMPLE = [(1, 0, 4), (1, 3, 1), (1, 5, 2), (2, 5, 0), (2, 3, 2), (2, 1, 4), (3, 0, 3), (3, 2, 1), (3, 4, 5)]
"""Three rounds of six entrants (round, winner 2-0, loser): 0, 3 and 5 on 6 points, 1, 2 and 4
on 3; they have met as 0-3, 0-4, 0-5, 1-2, 1-3, 1-4, 2-3, 2-5 and 4-5."""


def _cost(pairs: Sequence[tuple[int, int]], points: dict[int, int],
          met: Counter[frozenset[int]]) -> tuple[int, int]:
    """Rematches (a pair met twice counts two), then the sum of squared point differences."""
    return (sum(met[frozenset(pair)] for pair in pairs),
            sum((points[a] - points[b]) ** 2 for a, b in pairs))


def _place(row: Standing) -> tuple[int, Fraction, Fraction, Fraction]:
    """A row's place in the standings, best first (MTR 3.1): points, OMW%, GW%, OGW%."""
    return (-row.points, -row.omw, -row.gw, -row.ogw)


def _every_pairing(entrants: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``entrants`` (even length): 15 of six, 105 of eight."""
    if not entrants:
        yield []
        return
    first, rest = entrants[0], entrants[1:]
    for i, other in enumerate(rest):
        for tail in _every_pairing([*rest[:i], *rest[i + 1:]]):
            yield [(first, other), *tail]


def _least(n: int, bye: int | None, points: dict[int, int], met: Counter[frozenset[int]]) -> tuple[int, int]:
    """The least cost of every pairing of entrants 0..n-1 but the bye."""
    return min(_cost(m, points, met) for m in _every_pairing([e for e in range(n) if e != bye]))


def test_pair_downs_cost_the_least_not_what_top_down_gives() -> None:
    # The top-down search paired 0-2, 5-1, 3-4 here: three pairs across the groups, squared
    # cost 3 x 9 = 27 (0 has met all of its group, so it pairs down; then 3 and 5, who have
    # not met, were split). The least: 3-5 in the 6-point group, 0-1 and 2-4 (1-4 and 2-3
    # have met, so not 0-2 or 0-4): one pair across, cost 9, and no rematch.
    results = [won(r, a, b) for r, a, b in EXAMPLE]
    points = {row.entrant: row.points for row in standings(6, results, 2)}
    assert points == {0: 6, 3: 6, 5: 6, 1: 3, 2: 3, 4: 3}
    met = Counter(frozenset((r.a, r.b)) for r in results)
    for seed in range(10):
        pairs = swiss_pairings(6, results, 4, seed, 2)
        assert {frozenset(pair) for pair in pairs} == {frozenset((3, 5)), frozenset((0, 1)), frozenset((2, 4))}
        assert _cost([(a, b) for a, b in pairs if b is not None], points, met) == (0, 9)


@pytest.mark.parametrize("n", [6, 7, 8])
def test_every_round_costs_the_least_of_every_pairing(n: int) -> None:
    # Seeded random Swiss tournaments of n - 1 rounds (the late ones can force rematches):
    # each round's pairing has the fewest rematches, then the least sum of squared point
    # differences, of every pairing of the entrants without the bye. The bye is the lowest
    # of those with the fewest byes unless only a higher one avoids every rematch.
    forced = cross = 0  # rounds with a rematch, with a pair across groups
    for trial in range(40):
        rng = random.Random(f"least:{n}:{trial}")
        results: list[MatchResult] = []
        for round_no in range(1, n):
            pairs = swiss_pairings(n, results, round_no, trial, 2)
            rows = sorted(standings(n, results, 2), key=lambda row: row.rank)
            points = {row.entrant: row.points for row in rows}
            met = Counter(frozenset((r.a, r.b)) for r in results if r.b is not None)
            tables = [(a, b) for a, b in pairs if b is not None]
            byes = [a for a, b in pairs if b is None]
            assert len(byes) == n % 2 and seated(pairs) == list(range(n))
            cost = _cost(tables, points, met)
            assert cost == _least(n, byes[0] if byes else None, points, met)
            if byes:
                fewest = min(row.byes for row in rows)
                candidates = [row for row in rows if row.byes == fewest]
                [given] = [row for row in rows if row.entrant == byes[0]]
                assert given in candidates
                # Those ranked below it (on points and tiebreakers: exact ties are ordered
                # by lot) are passed over only if each forces a rematch.
                below = [row.entrant for row in candidates if _place(row) > _place(given)]
                assert all(_least(n, e, points, met)[0] > 0 for e in below)
                if cost[0]:
                    assert below == [] and all(_least(n, row.entrant, points, met)[0] > 0 for row in candidates)
            forced += cost[0] > 0
            cross += cost[1] > 0
            for a, b in pairs:
                wins = (2, 0) if b is None else rng.choice([(2, 0), (2, 1), (1, 2), (0, 2), (1, 1)])
                results.append(MatchResult(round_no, a, b, *wins, int(wins == (1, 1))))
    print(f"{n} entrants, {40 * (n - 1)} rounds: {cross} with a pair-down, {forced} with a rematch")
    assert cross > 0 and forced > 0


def test_winners_meet_winners_in_tiebreaker_order() -> None:
    # Round 1 (best of three): 0 beats 1 2-0, 2 beats 3 2-1, 4 beats 5 2-0, 6 beats 7 2-1.
    # The 3-point group {0, 2, 4, 6}: every OMW% is 0.33 (each opponent has 0 points, floored);
    # GW% 0 and 4: 6/6 = 1, 2 and 6: 6/9 = 2/3. So the order is {0, 4} (a tie: by lot), {2, 6}.
    # The 0-point group {1, 3, 5, 7}: OMW% 1 each; GW% 1: 0 -> 0.33, 3: 3/9 = 1/3 (above the
    # floor of 0.33), 5 and 7 as 1 and 3: {3, 7} (1/3) rank above {1, 5} (0.33).
    # Top down: 0-4, 2-6, 3-7, 1-5 (each pair's order by lot).
    results = [won(1, 0, 1), won(1, 2, 3, 2, 1), won(1, 4, 5), won(1, 6, 7, 2, 1)]
    for seed in range(5):
        pairs = swiss_pairings(8, results, 2, seed, 2)
        assert [set(pair) for pair in pairs] == [{0, 4}, {2, 6}, {3, 7}, {1, 5}]


def test_an_odd_group_pairs_down() -> None:
    # Round 1: 0 beats 1 2-0, 2 beats 3 2-0, 4 beats 5 2-1: three entrants on 3 points.
    # Order: {0, 2} (GW% 1 each), then 4 (GW% 6/9 = 2/3); then 5 (GW% 3/9 = 1/3, above the
    # floor of 0.33), then {1, 3} (GW% 0, floored to 0.33; OGW% 1 each; every OMW% is 1).
    # 0 and 2 meet; 4 pairs down past 5 (a rematch) to the higher of {1, 3}; the other meets 5.
    results = [won(1, 0, 1), won(1, 2, 3), won(1, 4, 5, 2, 1)]
    downs = set()
    for seed in range(20):
        pairs = swiss_pairings(6, results, 2, seed, 2)
        assert set(pairs[0]) == {0, 2}
        assert pairs[1][0] == 4 and pairs[1][1] in (1, 3)
        other = ({1, 3} - {pairs[1][1]}).pop()
        assert pairs[2] == (5, other)
        downs.add(pairs[1][1])
    assert downs == {1, 3}  # which of the tied two pairs down is the seeded lot


def test_a_rematch_is_avoided_where_the_top_down_choice_would_force_one() -> None:
    # Six entrants, three rounds (2-0 wins, 1-1-1 draws):
    #   r1: 3 beats 5, 4 beats 2, 1 beats 0
    #   r2: 3 draws 2, 0 beats 5, 4 beats 1
    #   r3: 1 beats 3, 4 beats 0, 5 draws 2
    # Points: 4: 9, 1: 6, 3: 4, 0: 3, 2: 2, 5: 1, all different, so the order is 4 1 3 0 2 5.
    # Met: 4: 2 1 0; 1: 0 4 3; 3: 5 2 1; 0: 1 5 4; 2: 4 3 5; 5: 3 0 2.
    # 4 has met 1, so it meets 3 or 5. After 4-3, 1 can meet 2 or 5: 1-2 leaves 0-5, a
    # rematch of round 2, so 1-5 and 0-2: cost 25 + 25 + 1 = 51. After 4-5 (64), 1-2 and
    # 0-3 cost 16 + 1 more: 81. Of the two pairings without a rematch, the first is the least.
    results = [won(1, 3, 5), won(1, 4, 2), won(1, 1, 0),
               won(2, 3, 2, 1, 1, 1), won(2, 0, 5), won(2, 4, 1),
               won(3, 1, 3), won(3, 4, 0), won(3, 5, 2, 1, 1, 1)]
    assert swiss_pairings(6, results, 4, 7, 2) == [(4, 3), (1, 5), (0, 2)]


def test_the_bye_goes_to_the_lowest_without_one() -> None:
    # Five entrants: r1: 0 beats 1, 2 beats 3 (2-0 each), 4 has the bye.
    #                r2: 0 beats 4 2-0, 1 beats 2 2-1, 3 has the bye.
    # Points: 0: 6; 1, 2, 3, 4: 3 each. MW% 0: 1, the others 1/2.
    # OMW% (byes ignored): 4: mw0 = 1; 1: (mw0 + mw2)/2 = 3/4; 2: (mw3 + mw1)/2 = 1/2; 3: mw2 = 1/2.
    # GW% 2: (6 + 3) / 15 = 3/5; 3: (0 + 6 for the bye) / 12 = 1/2. Order: 0 4 1 2 3.
    # The lowest, 3, had a bye in round 2, so the bye goes to 2. Then top down: 0 has met 4
    # and 1, so 0-3; and 4-1.
    results = [won(1, 0, 1), won(1, 2, 3), bye(1, 4), won(2, 0, 4), won(2, 1, 2, 2, 1), bye(2, 3)]
    assert swiss_pairings(5, results, 3, 7, 2) == [(0, 3), (4, 1), (2, None)]


def test_the_bye_moves_up_when_the_lowest_would_force_a_rematch() -> None:
    # Entrant 4 entered in round 2. r1: 0 beats 1, 3 beats 2; r2: 0 beats 2, 1 beats 4, 3 bye;
    # r3: 0 beats 3, 2 beats 4, 1 bye (every win 2-0). Points: 0: 9; 1, 3: 6; 2: 3; 4: 0.
    # No bye yet: 4, 2, 0 (lowest first). With the bye on 4, entrant 0 has met 1, 2 and 3:
    # no pairing avoids a rematch. So the bye moves up to 2: then 0 meets 4 (new), and 1
    # and 3 (6 points each, tied on every tiebreaker: the lot orders them) have not met.
    results = [won(1, 0, 1), won(1, 3, 2), won(2, 0, 2), won(2, 1, 4), bye(2, 3),
               won(3, 0, 3), won(3, 2, 4), bye(3, 1)]
    pairs = swiss_pairings(5, results, 4, 7, 2)
    assert pairs[0] == (0, 4) and set(pairs[1]) == {1, 3} and pairs[2] == (2, None)


def test_the_lowest_gets_the_bye_when_it_has_none() -> None:
    # r1: 0 beats 1 2-0, 2 has the bye. Round 2: 1 (0 points) is lowest and has had no bye.
    # 0 and 2 have 3 points each; 0's OMW% is 0.33 (1's MW% 0, floored), 2's is 0 (a bye is
    # no opponent), so 0 is first.
    assert swiss_pairings(3, [won(1, 0, 1), bye(1, 2)], 2, 7, 2) == [(0, 2), (1, None)]


def test_rematches_only_when_nothing_avoids_them() -> None:
    assert swiss_pairings(2, [won(1, 1, 0)], 2, 7, 2) == [(1, 0)]
    # Three entrants after a full round robin (each 1-1 with one bye): everyone has met and
    # had a bye, so the pairing repeats a match and gives someone a second bye.
    results = [won(1, 1, 2), bye(1, 0), won(2, 2, 0), bye(2, 1), won(3, 0, 1), bye(3, 2)]
    pairs = swiss_pairings(3, results, 4, 7, 2)
    assert seated(pairs) == [0, 1, 2]
    assert len(pairs) == 2 and pairs[1][1] is None


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 12, 16, 17])
def test_a_whole_swiss_never_repeats_a_match_or_a_bye(n: int) -> None:
    rng = random.Random(f"whole:{n}")
    results: list[MatchResult] = []
    for round_no in range(1, swiss_rounds(n) + 1):
        pairs = swiss_pairings(n, results, round_no, n, 2)
        assert seated(pairs) == list(range(n))
        for a, b in pairs:
            if b is None:
                results.append(bye(round_no, a))
            else:
                a_wins, b_wins = rng.choice([(2, 0), (2, 1), (1, 2), (0, 2), (1, 1)])
                results.append(won(round_no, a, b, a_wins, b_wins, 1 if a_wins == b_wins else 0))
    meetings = Counter(frozenset((r.a, r.b)) for r in results if r.b is not None)
    assert max(meetings.values()) == 1
    byes = Counter(r.a for r in results if r.b is None)
    assert all(count == 1 for count in byes.values())
    assert sum(byes.values()) == (swiss_rounds(n) if n % 2 else 0)


def test_bad_input() -> None:
    with pytest.raises(ValueError, match="at least 2 entrants"):
        swiss_pairings(1, [], 1, 7, 2)
    with pytest.raises(ValueError, match=r"names entrant 6, but the entrants are 0\.\.5"):
        swiss_pairings(6, [won(1, 0, 6)], 2, 7, 2)
    with pytest.raises(ValueError, match="names entrant 9"):
        swiss_pairings(6, [bye(1, 9)], 2, 7, 2)
    with pytest.raises(ValueError, match="rounds count from 1"):
        swiss_pairings(6, [], 0, 7, 2)
    with pytest.raises(ValueError, match=r"pairing round 2, but .* is from round 2"):
        swiss_pairings(6, [won(2, 0, 1)], 2, 7, 2)
