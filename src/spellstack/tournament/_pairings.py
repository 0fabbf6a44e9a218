"""Round robin and gauntlet schedules, and Swiss pairings, byes included.

Entrants are indexes 0..n-1 and a pairing is ``(a, b)``, with ``b`` None for a bye. Every
function is pure: the same arguments give the same pairings in every Python process (the
only randomness is a ``random.Random`` seeded with a string, which Python hashes with
SHA-512, not with the per-process ``hash()``; a Swiss round's matching has integer nodes and
one least-cost pairing, so neither the order of a set nor how the algorithm breaks ties can
change it).

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

__all__ = ["FORMATS", "PAIRING_VERSION", "Pairing", "gauntlet", "round_robin", "swiss_pairings", "swiss_rounds"]

FORMATS = ("round-robin", "swiss", "gauntlet")
"""The formats a tournament can have (``run_tournament`` plays each)."""

Pairing = tuple[int, int | None]
"""Two entrants' indexes, or an entrant and None: a bye."""

PAIRING_VERSION = 2
"""The rule ``swiss_pairings`` pairs by: 1 was a greedy top-down search, 2 is a minimum-cost
matching. A Swiss tournament's settings hold it, so a tournament paired by another rule is
never resumed by this one."""


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


def _balanced_colouring(size: int, colours: int) -> list[list[tuple[int, int]]]:
    """Every pair of ``size`` entrants in one of ``colours`` rounds, each entrant at most once
    a round, the rounds' match counts differing by at most one (``colours`` >= the rounds a
    round robin of ``size`` needs).

    From the circle method's rounds (and empty ones), a largest round gives a match to a
    smallest until they are level: the two rounds' matches form paths and cycles that
    alternate between them, and some path has one match more of the larger round; swapping
    that path's rounds moves one match and keeps every entrant at most once a round.
    """
    classes = [[(a, b) for a, b in matches if b is not None] for matches in round_robin(size)] if size > 1 else []
    classes += [[] for _ in range(colours - len(classes))]
    while True:
        sizes = [len(c) for c in classes]
        big, small = sizes.index(max(sizes)), sizes.index(min(sizes))
        if sizes[big] - sizes[small] <= 1:
            return [sorted((min(p), max(p)) for p in c) for c in classes]
        in_big = {e: o for a, b in classes[big] for e, o in ((a, b), (b, a))}
        in_small = {e: o for a, b in classes[small] for e, o in ((a, b), (b, a))}
        for start in sorted(set(in_big) - set(in_small)):
            path: list[tuple[int, int, bool]] = []
            here, through_big = start, True
            while here in (in_big if through_big else in_small):
                there = (in_big if through_big else in_small)[here]
                path.append((here, there, through_big))
                here, through_big = there, not through_big
            if len(path) % 2:  # starts and ends in the larger round: one more of its matches
                break
        else:
            raise AssertionError("a larger round always has such a path")
        moved = {frozenset((a, b)) for a, b, _ in path}
        classes[big], classes[small] = (
            [p for p in classes[big] if frozenset(p) not in moved] + [(a, b) for a, b, on in path if not on],
            [p for p in classes[small] if frozenset(p) not in moved] + [(a, b) for a, b, on in path if on])


def _bipartite_colouring(edges: Sequence[tuple[int, int]], labels: int) -> dict[tuple[int, int], int]:
    """A label in 0..labels-1 for each edge (u, v) of a bipartite graph (u and v from two
    disjoint sets of integers), no two edges at a vertex alike; ``labels`` at least the most
    edges at any vertex (Kőnig: that many always do). Each edge in turn takes a label free at
    u; if it is taken at v, the path from v alternating it with a label free at v is swapped
    first (in a bipartite graph that path never reaches u)."""
    at: dict[int, dict[int, int]] = {}
    for u, v in edges:
        at_u, at_v = at.setdefault(u, {}), at.setdefault(v, {})
        alpha = next(label for label in range(labels) if label not in at_u)
        if alpha in at_v:
            beta = next(label for label in range(labels) if label not in at_v)
            path, here, label = [], v, alpha
            while label in at[here]:
                there = at[here][label]
                path.append((here, there, label))
                here, label = there, beta if label == alpha else alpha
            for x, y, old in path:
                del at[x][old], at[y][old]
            for x, y, old in path:
                new = beta if old == alpha else alpha
                at[x][new], at[y][new] = y, x
        at_u[alpha], at_v[alpha] = v, u
    return {(u, v): label for u, labels_at in at.items() for label, v in labels_at.items()}


def gauntlet(n: int, seeds: int) -> list[list[Pairing]]:
    """Each of the first ``seeds`` entrants meets every other entrant once; the others don't
    meet each other. Returns the rounds, as few as can be, each a list of pairs with no
    entrant twice and no byes (an entrant not in a round sits it out).

    The fewest rounds: a seed meets n - 1 entrants, one a round, and a round holds at most
    n // 2 matches, so at least max(n - 1, ceil(matches / (n // 2))) rounds; that many
    always do (n - 1, except for an odd n with few non-seeds, n). Built in two steps: the
    seeds' matches among themselves spread over the rounds as evenly as can be, then the
    seeds free in each round meet the others by a bipartite edge colouring (rounds x
    seeds, the others as colours). A pair is (seed, other), or two seeds, lower first,
    and a round's pairs are in order. Raises ValueError if n < 2 or seeds is not 1 to n - 1.
    """
    _check_n(n)
    if not 1 <= seeds < n:
        raise ValueError(f"a gauntlet of {n} entrants needs 1 to {n - 1} seeds, not {seeds}")
    others = n - seeds
    matches = seeds * (seeds - 1) // 2 + seeds * others
    count = max(n - 1, -(-matches // (n // 2)))
    among = _balanced_colouring(seeds, count)
    # Seed g is node g, round r node seeds + r; the labels 0..others-1 are the other entrants
    # (so a seed meets them in order where it can), and a label past them a round the seed
    # sits out (with n rounds, one per seed).
    free = [(g, r) for g in range(seeds) for r, pairs in enumerate(among) if all(g not in pair for pair in pairs)]
    label = _bipartite_colouring([(g, seeds + r) for g, r in free], count - seeds + 1)
    rounds = [[*pairs] for pairs in among]
    for g, r in free:
        if label[g, seeds + r] < others:
            rounds[r].append((g, seeds + label[g, seeds + r]))
    return [[*sorted(pairs)] for pairs in rounds]


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


def _matching(order: Sequence[int], points: Sequence[int],
              met: Counter[frozenset[int]]) -> tuple[list[tuple[int, int]], int]:
    """Pair ``order`` (even length) at the least cost; the pairs, top down, and their rematches.

    A minimum-cost perfect matching, found as ``networkx.max_weight_matching`` (the blossom
    algorithm) of weights ``top - cost``. A pair's cost has three tiers, each worth more than
    the whole of the tiers below it, so the matching minimises them in turn:

    1. the times the two have met (so no rematch if any pairing avoids one, and otherwise
       the fewest);
    2. the square of their difference in match points (a pair-down of 3 points costs 9, of
       6 points 36: one long pair-down costs more than two short ones);
    3. the top-down preference: among pairings tied on both, the one where the highest
       entrant meets the highest opponent it can, then the next highest, and so on. It
       makes the least-cost pairing unique, so the result does not depend on how the
       algorithm breaks ties: within a match-point group, first meets second, third meets
       fourth; an odd group's lowest pairs down to the highest of the group below.

    The weights are Python integers, which the matching keeps exact; the nodes are the
    positions in ``order``, added with their edges in a fixed order.
    """
    import networkx as nx  # type: ignore[import-untyped]  # only Swiss needs it; ships no types

    m = len(order)
    # Tier 3: pairing position i with j (i < j) costs (j - i - 1) units of m ** (m - 1 - i).
    # A unit at position i is worth more than every later position's choices together, so
    # the sum orders pairings as the top-down pass would; the whole tier is below m ** m.
    unit = [m ** (m - 1 - i) for i in range(m)]
    tier2 = m ** m
    spread = max(points[e] for e in order) - min(points[e] for e in order)
    tier1 = tier2 * ((m // 2) * spread * spread + 1)
    costs: dict[tuple[int, int], int] = {}
    for i in range(m):
        for j in range(i + 1, m):
            a, b = order[i], order[j]
            gap = points[a] - points[b]
            costs[i, j] = met[frozenset((a, b))] * tier1 + gap * gap * tier2 + (j - i - 1) * unit[i]
    top = max(costs.values()) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(m))
    graph.add_weighted_edges_from((i, j, top - cost) for (i, j), cost in costs.items())
    chosen = sorted(tuple(sorted(edge)) for edge in nx.max_weight_matching(graph, maxcardinality=True))
    assert len(chosen) == m // 2, "a complete graph of even order has a perfect matching"
    pairs = [(order[i], order[j]) for i, j in chosen]
    return pairs, sum(met[frozenset(pair)] for pair in pairs)


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
    3. The others are paired by a minimum-cost perfect matching (``_matching``): no rematch
       if any pairing avoids one, then the least sum of squared differences in match points
       (so as few and as short pair-downs as can be), then top down in the order (the
       highest entrant meets the highest opponent it can). When every pairing of the others
       repeats a match, the bye moves up to the next entrant among those with the fewest
       byes. So there is no rematch if any pairing, with any bye step 2 allows, avoids one;
       a second bye is never given to avoid a rematch.
    4. Only if every such choice repeats a match are rematches allowed: the bye as in
       step 2, and the fewest rematches (counting a pair that has met twice as two), then
       the least cost as in step 3.

    This is pairing rule ``PAIRING_VERSION`` 2. Rule 1 paired greedily from the top down,
    backtracking only to avoid a rematch, which could leave more or longer pair-downs than
    needed.

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
    points = [row.points for row in rows]
    bye_candidates: list[int | None] = [None]
    if n % 2:
        fewest = min(row.byes for row in rows)
        bye_candidates = [e for e in reversed(order) if rows[e].byes == fewest]
    best: list[Pairing] = []
    for bye in bye_candidates:
        pairs, rematches = _matching([e for e in order if e != bye], points, met)
        tables: list[Pairing] = [*pairs] if bye is None else [*pairs, (bye, None)]
        if not rematches:
            return tables
        best = best or tables  # every choice repeats a match: the bye stays where step 2 put it
    return best
