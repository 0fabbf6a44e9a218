"""A rating list that lasts: every finished game in one or more results databases, rated together.

The games are read from the databases (``read_list_games``), each game once, and entrants are
matched across tournaments by name, bot and deck list. ``rating_list`` then gives each entrant:

- an Elo rating: the maximum-likelihood fit of the Bradley-Terry model (the model Ordo and
  BayesElo fit), in which entrant i beats j with probability 1 / (1 + 10^((r_j - r_i) / 400))
  and a draw counts as half a win and half a loss. The ratings are found with
  ``scipy.optimize.minimize`` on the negative log-likelihood. Only differences are fitted: the
  average is set (0, or ``average``), or one entrant is fixed (``anchor``);
- its 95% interval, from a seeded bootstrap: the games are drawn again with replacement
  ``resamples`` times (the two games of a pair together, in a tournament played in pairs), the
  ratings fitted to each draw by the same rules as the games themselves, and the interval is
  the 2.5% and 97.5% quantiles; ``+/- X`` is half its width, as the pair lines give it;
- openskill's Plackett-Luce mu, sigma and ordinal, every game rated in order.

Where a finite fit does not exist, it says so. Entrants with no chain of games between them are
rated group by group, each group with its own average. Inside a group, a set of entrants that
won every game it played against the rest (or lost every one) is infinitely far from it: such
sets are rated apart, and an entrant alone in such a set (one that won every game, or lost
every game) has no finite rating: ``unbounded``.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._printable import printable
from .._suggest import closest
from ._games import GameRow
from ._ratings import ratings
from ._store import ResultsStore

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "BOOTSTRAP_SEED",
    "RESAMPLES",
    "EntrantRating",
    "ListEntrant",
    "ListGame",
    "ListGames",
    "RatingList",
    "RatingListError",
    "format_rating_list",
    "rating_list",
    "rating_list_csv",
    "rating_list_json",
    "read_list_games",
]

RESAMPLES = 1000
"""Bootstrap resamples for the Elo intervals."""

BOOTSTRAP_SEED = 1
"""The bootstrap's seed: the same games give the same intervals."""

_ELO = 400.0 / math.log(10.0)
"""Elo points per unit of the logistic model's natural scale."""

_PLACES = 4
"""Decimal places of the scores and openskill numbers in the CSV and JSON files."""

_ELO_PLACES = 2
"""Decimal places of the Elo ratings and margins in the CSV and JSON files."""


class RatingListError(Exception):
    """The rating list can't be made as asked: no games, an ``--anchor`` that names no entrant
    or one with no finite rating, a tournament whose entrants or games can't be read."""


@dataclass(frozen=True, slots=True)
class ListEntrant:
    """An entrant of the rating list: the same name, bot and deck list in every tournament."""

    name: str
    """Its name in the list: the entrants' own name, with `` (2)``, `` (3)``... for each later
    entrant of that name with another bot or deck list."""
    bot: str
    """Its bot, as the tournament named it (``random``, ``path/bot.py:Class``, ...)."""
    deck: str
    """Its deck's name, as first recorded."""
    cards: tuple[str, ...]
    """Its deck list, sorted (the order of a deck's cards is not part of it)."""


@dataclass(frozen=True, slots=True)
class ListGame:
    """One game the list rates."""

    a: int
    """The first seat's entrant (an index into ``ListGames.entrants``)."""
    b: int
    """The second seat's entrant."""
    score: float
    """``a``'s score: 1 a win, 0.5 a draw, 0 a loss."""
    unit: int
    """What the bootstrap draws: the two games of a pair share one, other games each have one."""


@dataclass(frozen=True, slots=True)
class ListGames:
    """The games a rating list is made of, in rating order, each game once."""

    entrants: tuple[ListEntrant, ...]
    """The entrants, in the order their first game was found."""
    games: tuple[ListGame, ...]
    """The games: databases in the order given, tournaments in the order they started (a
    tournament found in several databases where it was first found), games by round, match and
    number."""
    tournaments: int = 0
    """Tournaments the games came from."""
    duplicates: int = 0
    """Games found more than once (the same tournament, game id and seed), counted once."""
    notes: tuple[str, ...] = ()
    """Why entrants of one name are listed apart."""


@dataclass(frozen=True, slots=True)
class EntrantRating:
    """One line of the rating list."""

    rank: int
    """Its place in its group, 1 the best."""
    group: int
    """Its group: entrants linked by a chain of games (1 for all of them when every entrant is)."""
    entrant: ListEntrant
    """The entrant."""
    wins: int
    """Games won."""
    losses: int
    """Games lost."""
    draws: int
    """Games drawn (an engine error counts as a draw, as in the standings)."""
    elo: float | None
    """The Elo rating; None when it has no finite value (``unbounded``)."""
    elo_margin: float | None
    """Half the width of the 95% interval; None when the interval (or the rating) is unbounded."""
    elo_limit: str | None
    """For a rating with no finite value: ``+inf`` (it won every game) or ``-inf`` (it lost
    every game); None otherwise."""
    mu: float
    """openskill's estimated skill."""
    sigma: float
    """openskill's uncertainty of ``mu``."""
    ordinal: float
    """openskill's ordinal, mu - 3 sigma."""

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        """The score fraction: (wins + draws / 2) / games."""
        return (self.wins + 0.5 * self.draws) / self.games


@dataclass(frozen=True, slots=True)
class RatingList:
    """The rating list: a line per entrant listed, and the notes under it."""

    lines: tuple[EntrantRating, ...]
    """The entrants listed, group by group, best first."""
    notes: tuple[str, ...]
    """What the numbers are, and what the list had to leave open."""
    games: int
    """Games rated."""
    groups: int
    """Groups of entrants with no chain of games between them."""
    average: float = 0.0
    """The average Elo of each set of entrants rated together (but the anchor's)."""
    anchor: tuple[str, float] | None = None
    """The entrant whose rating is fixed, and at what, or None."""
    resamples: int = RESAMPLES
    """Bootstrap resamples behind the intervals."""
    seed: int = BOOTSTRAP_SEED
    """The bootstrap's seed."""
    left_out: int = 0
    """Entrants left out of the list for having fewer than ``min_games`` games."""
    paired: bool = False
    """Whether some games were played in pairs (each pair drawn whole by the bootstrap)."""


# --- Reading the databases ---------------------------------------------------------------------


@dataclass(slots=True)
class _Tournament:
    """A tournament as found in the databases: where first found, and its games so far."""

    path: Path
    key: str
    entrants: list[tuple[str, str, str, tuple[str, ...]]]
    paired: bool
    games: dict[tuple[str, int], GameRow] = field(default_factory=dict)


def _entrants(path: Path, key: str, settings: Any) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """A tournament's entrants from its settings, as (name, bot, deck, sorted cards)."""
    listed = settings.get("entrants") if isinstance(settings, dict) else None
    out = []
    for e in listed if isinstance(listed, list) else [None]:
        if not isinstance(e, dict):
            raise RatingListError(f"{path}: tournament {key}: its settings don't list its entrants")
        name, bot, deck, cards = e.get("name"), e.get("bot"), e.get("deck", ""), e.get("cards")
        if not (isinstance(name, str) and isinstance(bot, str) and isinstance(deck, str)
                and isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
            raise RatingListError(f"{path}: tournament {key}: an entrant's name, bot or deck list "
                                  "can't be read from its settings")
        out.append((name, bot, deck, tuple(sorted(cards))))
    return out


def _differs(new: ListEntrant, first: ListEntrant) -> str:
    """What sets ``new`` apart from the first entrant of its name."""
    parts = []
    if new.bot != first.bot:
        parts.append(f"another bot ({printable(new.bot)}, not {printable(first.bot)})")
    if new.cards != first.cards:
        parts.append(f"another deck list ({printable(new.deck)})" if new.deck != first.deck
                     else f"another deck list under the same deck name ({printable(new.deck)})")
    return " and ".join(parts)


def read_list_games(paths: Sequence[Path]) -> ListGames:
    """Every finished game of every tournament in the results databases ``paths``, each once.

    A game found twice (the same tournament settings, game id and game seed, as in a copied
    database) counts once. Entrants are the same across tournaments when their name, bot and
    deck list are; another entrant of a name already seen is named ``NAME (2)`` (then ``(3)``),
    with a note saying why. StoreError for a file that can't be read as a results database
    (missing, not one, of a newer schema, a row that can't be read); RatingListError for a
    tournament whose entrants or games can't be read, or no game at all.
    """
    tournaments: dict[str, _Tournament] = {}
    duplicates = 0
    for path in paths:
        store = ResultsStore(path, read=True)
        try:
            held = store.every_game()
        finally:
            store.close()
        for stored, rows in held:
            found = tournaments.get(stored.key)
            if found is None:
                found = tournaments[stored.key] = _Tournament(
                    path, stored.key, _entrants(path, stored.key, stored.settings),
                    stored.settings.get("game_pairs") is True)  # TournamentSettings.as_dict
            for row in rows:
                if (row.game_id, row.seed) in found.games:
                    duplicates += 1
                else:
                    found.games[(row.game_id, row.seed)] = row
    index: dict[tuple[str, str, tuple[str, ...]], int] = {}
    entrants: list[ListEntrant] = []
    first_of: dict[str, ListEntrant] = {}
    taken: dict[str, int] = {}
    notes: list[str] = []
    units: dict[tuple[object, ...], int] = {}
    games: list[ListGame] = []

    def entrant(name: str, bot: str, deck: str, cards: tuple[str, ...]) -> int:
        known = index.get((name, bot, cards))
        if known is not None:
            return known
        taken[name] = taken.get(name, 0) + 1
        shown = name if taken[name] == 1 else f"{name} ({taken[name]})"
        new = ListEntrant(shown, bot, deck, cards)
        if name in first_of:
            notes.append(f"{printable(shown)} is not {printable(name)}: the same name, "
                         f"{_differs(new, first_of[name])}")
        else:
            first_of[name] = new
        index[(name, bot, cards)] = len(entrants)
        entrants.append(new)
        return len(entrants) - 1

    for t in tournaments.values():
        for row in sorted(t.games.values(), key=lambda r: (r.round, r.match, r.number, r.seed, r.game_id)):
            seats = row.entrants
            if (len(seats) != 2 or seats[0] == seats[1]
                    or not all(0 <= s < len(t.entrants) for s in seats) or row.winner not in (-1, 0, 1)):
                raise RatingListError(f"{t.path}: tournament {t.key}: game {printable(row.game_id)}: "
                                      "its players or winner can't be read as a game of two entrants")
            a, b = (entrant(*t.entrants[s]) for s in seats)
            unit_key: tuple[object, ...] = ((t.key, row.round, row.match, row.seed) if t.paired
                                            else (t.key, row.game_id, row.seed))
            unit = units.setdefault(unit_key, len(units))
            games.append(ListGame(a, b, 1.0 if row.winner == 0 else 0.0 if row.winner == 1 else 0.5,
                                  unit))
    if not games:
        told = ", ".join(str(p) for p in paths)
        raise RatingListError(f"no games: {told} hold{'s' if len(paths) == 1 else ''} no finished game")
    return ListGames(tuple(entrants), tuple(games), len(tournaments), duplicates, tuple(notes))


# --- The fit -----------------------------------------------------------------------------------


def _strong_components(n: int, first: npt.NDArray[np.intp], second: npt.NDArray[np.intp],
                       score: npt.NDArray[np.float64], games: npt.NDArray[np.float64]) -> list[int]:
    """Each entrant's set: the strongly connected components of the graph in which i -> j when
    i took a point from j (a win, or half of one in a draw), each numbered by its least entrant.
    A set of two or more has a finite fit on its games among themselves; between sets, every
    game went one way."""
    import numpy as np
    from scipy.sparse import csr_matrix  # type: ignore[import-untyped]
    from scipy.sparse.csgraph import connected_components  # type: ignore[import-untyped]

    took, gave = score > 0, games - score > 0
    rows = np.concatenate((first[took], second[gave]))
    cols = np.concatenate((second[took], first[gave]))
    graph = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    _, found = connected_components(graph, directed=True, connection="strong")
    least: dict[int, int] = {}
    for i, c in enumerate(found.tolist()):
        least.setdefault(c, i)
    return [least[c] for c in found.tolist()]


@dataclass(frozen=True, slots=True)
class _Set:
    """Entrants rated together, and their games among themselves by pair of entrants."""

    members: list[int]
    """Entrant indexes, in order; a member's local index is its place here."""
    first: npt.NDArray[np.intp]
    """Each pair's first member (local index)."""
    second: npt.NDArray[np.intp]
    """Each pair's second member (local index)."""
    games: npt.NDArray[np.intp]
    """The set's games: indexes into the list's games."""
    pair: npt.NDArray[np.intp]
    """Each of those games' pair."""
    score: npt.NDArray[np.float64]
    """Each of those games' score for its pair's first member."""

    @classmethod
    def of(cls, members: list[int], games: Sequence[ListGame]) -> _Set:
        """The set of ``members``, with their games among themselves."""
        import numpy as np

        local = {e: k for k, e in enumerate(members)}
        pairs: dict[tuple[int, int], int] = {}
        index, pair, score = [], [], []
        for k, g in enumerate(games):
            if g.a in local and g.b in local:
                ends, s = ((local[g.a], local[g.b]), g.score) if local[g.a] < local[g.b] else \
                    ((local[g.b], local[g.a]), 1.0 - g.score)
                index.append(k)
                pair.append(pairs.setdefault(ends, len(pairs)))
                score.append(s)
        return cls(members, np.array([i for i, _ in pairs], dtype=np.intp),
                   np.array([j for _, j in pairs], dtype=np.intp), np.array(index, dtype=np.intp),
                   np.array(pair, dtype=np.intp), np.array(score, dtype=float))

    def totals(self, weight: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Each pair's score (for its first member) and games, each game counted ``weight`` times
        (a weight per game of the set)."""
        import numpy as np

        n = len(self.first)
        return (np.bincount(self.pair, weight * self.score, n).astype(float),
                np.bincount(self.pair, weight, n).astype(float))

    def resampled(self, score: npt.NDArray[np.float64], games: npt.NDArray[np.float64],
                  start: npt.NDArray[np.float64], anchor: int | None,
                  rating: float) -> npt.NDArray[np.float64]:
        """The members' Elo ratings from a resample's totals, by the rule the whole list follows:
        when the resample splits the set (a member won or lost all its games in it), the
        largest part (the first of equals) is fitted on its own games and averages ``rating``
        (or holds the anchor at it), a member alone that won all its games is +inf and one that
        lost all -inf; the rest (another part, a member with no game or a mixed record, or every
        other member when the anchor is not in the largest part) is NaN: not known."""
        import numpy as np

        m = len(self.members)
        label = _strong_components(m, self.first, self.second, score, games)
        if max(label) == 0:
            return _place(_fit(m, self.first, self.second, score, games, start), anchor, rating)
        sizes = {c: label.count(c) for c in label}
        main = max(sizes, key=lambda c: (sizes[c], -c))
        out = np.full(m, np.nan)
        took = np.bincount(self.first, score, m) + np.bincount(self.second, games - score, m)
        gave = np.bincount(self.first, games - score, m) + np.bincount(self.second, score, m)
        for k in range(m):
            if sizes[label[k]] == 1 and took[k] + gave[k] > 0:
                out[k] = np.inf if gave[k] == 0 else -np.inf if took[k] == 0 else np.nan
        inside = [k for k in range(m) if label[k] == main]
        if sizes[main] > 1 and (anchor is None or anchor in inside):
            local = np.full(m, -1, dtype=np.intp)
            local[inside] = np.arange(len(inside))
            keep = (local[self.first] >= 0) & (local[self.second] >= 0)
            theta = _fit(len(inside), local[self.first[keep]], local[self.second[keep]], score[keep],
                         games[keep], start[inside] - start[inside[0]])
            out[inside] = _place(theta, None if anchor is None else inside.index(anchor), rating)
        if anchor is not None:
            out[anchor] = rating  # fixed by definition
        return out


def _fit(m: int, first: npt.NDArray[np.intp], second: npt.NDArray[np.intp],
         score: npt.NDArray[np.float64], games: npt.NDArray[np.float64],
         start: npt.NDArray[np.float64] | None = None) -> npt.NDArray[np.float64]:
    """The maximum-likelihood Bradley-Terry strengths (natural scale, the first at 0) of ``m``
    entrants whose pairs (``first[k]``, ``second[k]``) scored ``score`` (for the first) in
    ``games``. The graph of who took a point from whom must be strongly connected: then the
    negative log-likelihood is strictly convex (with the first held at 0) and its minimum
    unique and finite."""
    import numpy as np

    # scipy ships no type hints (and the project no scipy-stubs): its calls are Any.
    from scipy.optimize import minimize  # type: ignore[import-untyped]

    lost = games - score

    def unpack(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return np.concatenate(([0.0], x))

    def nll(x: npt.NDArray[np.float64]) -> tuple[float, npt.NDArray[np.float64]]:
        d = (lambda theta: theta[first] - theta[second])(unpack(x))
        # -log p = log(1 + e^-d) for the first member's points, -log(1 - p) = log(1 + e^d).
        value = float(np.sum(score * np.logaddexp(0.0, -d) + lost * np.logaddexp(0.0, d)))
        slope = games * np.exp(-np.logaddexp(0.0, -d)) - score  # expected points - points
        grad = np.asarray(np.bincount(first, slope, m) - np.bincount(second, slope, m), dtype=float)
        return value, grad[1:]

    def hess(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        d = (lambda theta: theta[first] - theta[second])(unpack(x))
        w = games * np.exp(-np.logaddexp(0.0, -d) - np.logaddexp(0.0, d))  # games p (1 - p)
        cells = np.concatenate((first * m + first, second * m + second, first * m + second,
                                second * m + first))
        h = np.asarray(np.bincount(cells, np.concatenate((w, w, -w, -w)), m * m), dtype=float)
        return h.reshape(m, m)[1:, 1:]

    x0 = np.zeros(m - 1) if start is None else start[1:]
    found = minimize(nll, x0, jac=True, hess=hess, method="trust-exact", options={"gtol": 1e-9})
    return unpack(np.asarray(found.x, dtype=float))


def _place(theta: npt.NDArray[np.float64], anchor: int | None, rating: float) -> npt.NDArray[np.float64]:
    """Strengths as Elo ratings: the anchor (a local index) at ``rating``, else averaging it."""
    elo = theta * _ELO
    zero = float(elo[anchor]) if anchor is not None else float(elo.mean())
    return elo - zero + rating


def _margin(values: npt.NDArray[np.float64]) -> float | None:
    """Half the width of the 95% interval of the bootstrap ``values``; a NaN (a resample the set
    could not be fitted in) counts as below the lower end and above the upper one. None when an
    end is not finite."""
    import numpy as np

    with np.errstate(invalid="ignore"):  # an infinite end: inf - inf is NaN, said as None below
        low = float(np.quantile(np.where(np.isnan(values), -np.inf, values), 0.025))
        high = float(np.quantile(np.where(np.isnan(values), np.inf, values), 0.975))
    if not (math.isfinite(low) and math.isfinite(high)):
        return None
    return (high - low) / 2.0


def _join(names: Sequence[str]) -> str:
    """Names as a sentence lists them."""
    shown = [printable(n) for n in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


@dataclass(slots=True)
class _Record:
    """One entrant's games, and how they place it."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    beat: list[int] = field(default_factory=list)
    """Entrants of other sets it won every game against."""
    beaten_by: list[int] = field(default_factory=list)
    """Entrants of other sets it lost every game against."""

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


def _unbounded(e: int, records: Sequence[_Record], names: Sequence[str]) -> str:
    """Why an entrant alone in its set has no finite rating."""
    r = records[e]
    if r.losses == 0:
        return f"won all {r.wins} of its games"
    if r.wins == 0:
        return f"lost all {r.losses} of its games"
    return (f"won every game against {_join([names[x] for x in r.beat])} and lost every game "
            f"against {_join([names[x] for x in r.beaten_by])}")


def rating_list(games: ListGames, *, anchor: tuple[str, float] | None = None, average: float = 0.0,
                min_games: int = 0, resamples: int = RESAMPLES,
                seed: int = BOOTSTRAP_SEED) -> RatingList:
    """The rating list of ``games``.

    Elo: the Bradley-Terry maximum-likelihood fit (a draw half a win), each set of entrants
    rated together averaging ``average``, or, for the set of ``anchor`` (an entrant's name in
    the list, and a rating), with that entrant at that rating. The 95% interval comes from
    ``resamples`` bootstrap draws of the games (of the pairs, in a tournament played in pairs),
    seeded by ``seed``, each draw rated by the same rule as the games themselves
    (``_Set.resampled``): a member that won (lost) all its games in a draw is +inf (-inf) in it
    and the others average without it; a rating the draw leaves unknown widens the interval at
    both ends. An end past which more than 2.5% of the draws lie at infinity is unbounded.
    openskill's Plackett-Luce ratings: every game in the order given.

    ``min_games`` leaves out of the list the entrants with fewer games; their games still
    count in every rating. RatingListError for an anchor that names no entrant (naming the
    nearest) or one with no finite rating, or ``resamples`` under 1.
    """
    import numpy as np

    if resamples < 1:
        raise RatingListError(f"resamples must be at least 1, not {resamples}")
    if not games.games:
        raise RatingListError("no games to rate")
    names = [e.name for e in games.entrants]
    n = len(names)
    fixed: int | None = None
    if anchor is not None:
        if anchor[0] not in names:
            near = closest(anchor[0], names)
            hint = f" (did you mean {near!r}?)" if near is not None else ""
            raise RatingListError(f"--anchor {anchor[0]!r}: no entrant of that name{hint}")
        fixed = names.index(anchor[0])
    records = [_Record() for _ in range(n)]
    tally: dict[tuple[int, int], list[float]] = {}  # (i, j), i < j: [i's points, games]
    linked = list(range(n))  # union-find: the groups linked by games

    def group_root(i: int) -> int:
        while linked[i] != i:
            linked[i] = linked[linked[i]]
            i = linked[i]
        return i

    for g in games.games:
        for who, points in ((g.a, g.score), (g.b, 1.0 - g.score)):
            rec = records[who]
            rec.wins += points == 1.0
            rec.losses += points == 0.0
            rec.draws += points == 0.5
        i, j, points = (g.a, g.b, g.score) if g.a < g.b else (g.b, g.a, 1.0 - g.score)
        t = tally.setdefault((i, j), [0.0, 0.0])
        t[0] += points
        t[1] += 1
        ri, rj = group_root(i), group_root(j)
        linked[max(ri, rj)] = min(ri, rj)
    roots = [group_root(i) for i in range(n)]
    group_of = [sorted(set(roots)).index(root) + 1 for root in roots]
    groups = max(group_of)
    ends = np.array(list(tally), dtype=np.intp).reshape(-1, 2)
    totals = np.array(list(tally.values()), dtype=float).reshape(-1, 2)
    label = _strong_components(n, ends[:, 0], ends[:, 1], totals[:, 0], totals[:, 1])
    for (i, j), (points, _) in tally.items():
        if label[i] != label[j]:  # every game between them went one way
            winner, loser = (i, j) if points > 0 else (j, i)
            records[winner].beat.append(loser)
            records[loser].beaten_by.append(winner)
    members_of: dict[int, list[int]] = {}
    for i in range(n):
        members_of.setdefault(label[i], []).append(i)
    if fixed is not None and len(members_of[label[fixed]]) == 1:
        raise RatingListError(f"--anchor {names[fixed]!r}: {_unbounded(fixed, records, names)}, so "
                              "it has no finite rating to fix")

    # Each set of two or more is fitted on its games among its members, then bootstrapped.
    sets = [_Set.of(m, games.games) for m in members_of.values() if len(m) > 1]
    at = [(s.members.index(fixed), anchor[1]) if fixed in s.members and anchor is not None
          else (None, average) for s in sets]
    elo: list[float | None] = [None] * n
    margin: list[float | None] = [None] * n
    thetas = []
    for s, (here, rating) in zip(sets, at, strict=True):
        theta = _fit(len(s.members), s.first, s.second, *s.totals(np.ones(len(s.games))))
        thetas.append(theta)
        for k, e in enumerate(s.members):
            elo[e] = float(_place(theta, here, rating)[k])
    units = np.array([g.unit for g in games.games], dtype=np.intp)
    count = int(units.max()) + 1
    rng = np.random.Generator(np.random.PCG64(seed))
    drawn = [np.full((resamples, len(s.members)), np.nan) for s in sets]
    # Few games give few distinct resamples: each is fitted once.
    known: dict[tuple[int, bytes], npt.NDArray[np.float64]] = {}
    for r in range(resamples):
        weight = np.bincount(rng.integers(0, count, count), None, count).astype(float)
        for k, (s, (here, rating), theta, out) in enumerate(zip(sets, at, thetas, drawn, strict=True)):
            score, played = s.totals(weight[units[s.games]])
            seen = (k, score.tobytes() + played.tobytes())
            if seen not in known:
                known[seen] = s.resampled(score, played, theta, here, rating)
            out[r] = known[seen]
    for s, out in zip(sets, drawn, strict=True):
        for k, e in enumerate(s.members):
            margin[e] = _margin(out[:, k])

    # Group by group; inside one, the sets in the order their games went (below every set that
    # won every game against it), then by rating; ties by first appearance.
    depth: dict[int, int] = {}

    def level(c: int) -> int:
        if c not in depth:
            depth[c] = 1 + max((level(label[w]) for e in members_of[c] for w in records[e].beaten_by),
                               default=-1)
        return depth[c]

    order = sorted(range(n), key=lambda e: (group_of[e], level(label[e]), -(elo[e] or 0.0), e))
    openskill = {r.entrant: (r.mu, r.sigma, r.ordinal)
                 for r in ratings(((g.a, g.b, g.score) for g in games.games), names)}
    listed: list[EntrantRating] = []
    rank = [0] * (groups + 1)
    for e in order:
        rec = records[e]
        if rec.games < min_games:
            continue
        rank[group_of[e]] += 1
        limit = None if elo[e] is not None else "+inf" if rec.losses == 0 else "-inf" if rec.wins == 0 else None
        listed.append(EntrantRating(rank[group_of[e]], group_of[e], games.entrants[e], rec.wins,
                                    rec.losses, rec.draws, elo[e], margin[e], limit, *openskill[e]))

    notes = list(games.notes)
    if groups > 1:
        told = "; ".join(f"group {k}: {_join([names[e] for e in range(n) if group_of[e] == k])}"
                         for k in range(1, groups + 1))
        notes.append(f"{groups} groups of entrants have no chain of games between them, so each is "
                     f"rated on its own and ranked apart ({told})")
    for c, members in members_of.items():
        if len(members) == 1:
            notes.append(f"{printable(names[c])} {_unbounded(c, records, names)}: its Elo is "
                         "unbounded, and its games are left out of the others' fit")
    for s in sets:
        if sum(1 for other in sets if group_of[other.members[0]] == group_of[s.members[0]]) > 1:
            notes.append(f"{_join([names[e] for e in s.members])}: rated on their own (every game "
                         "between them and the rest of their group went one way), their ratings "
                         "not comparable with the rest's")
    left_out = sum(1 for r in records if r.games < min_games)
    if left_out:
        notes.append(f"{left_out} entrant{'s' if left_out != 1 else ''} with fewer than {min_games} "
                     "games left out of the list; their games count in every rating")
    return RatingList(tuple(listed), tuple(notes), len(games.games), groups, average, anchor,
                      resamples, seed, left_out, count < len(games.games))


# --- Output ------------------------------------------------------------------------------------


def _method(rl: RatingList) -> str:
    """The note that says what the Elo numbers are."""
    if rl.anchor is not None:
        zero = f"{printable(rl.anchor[0])} fixed at {rl.anchor[1]:g}"
        if rl.groups > 1 or rl.average != 0.0:
            zero += f", other groups averaging {rl.average:g}"
    else:
        zero = f"average {rl.average:g}"
    return (f"Elo: maximum-likelihood Bradley-Terry fit (a draw half a win), {zero}; +/- is half "
            f"the 95% interval from {rl.resamples:,} bootstrap resamples of the games"
            f"{' (a pair of games drawn whole)' if rl.paired else ''}, seed {rl.seed}")


_OPENSKILL = ("mu, sigma, ordinal: openskill's Plackett-Luce model, every game in order; "
              "ordinal = mu - 3 sigma")


def _elo_text(line: EntrantRating) -> tuple[str, str]:
    """The Elo and margin columns of a line."""
    if line.elo is None:
        return "unbounded", ""
    return f"{line.elo:.1f}", "unbounded" if line.elo_margin is None else f"{line.elo_margin:.1f}"


def format_rating_list(rl: RatingList) -> str:
    """The rating list as a text table, columns sized to the longest name, then its notes.
    Names are escaped (``printable``): they come from entrants and deck files."""
    names = [printable(line.entrant.name) for line in rl.lines]
    width = max(len("entrant"), *(len(n) for n in names)) if names else len("entrant")
    group = rl.groups > 1
    texts = [_elo_text(line) for line in rl.lines]
    elo_w = max(len("Elo"), *(len(t[0]) for t in texts)) if texts else 3
    margin_w = max(len("+/-"), *(len(t[1]) for t in texts)) if texts else 3
    wlds = [f"{line.wins}-{line.losses}-{line.draws}" for line in rl.lines]
    wld_w = max(len("W-L-D"), *(len(t) for t in wlds)) if wlds else 5
    head = f"{'rank':>4}  " + (f"{'group':>5}  " if group else "")
    rows = [head + f"{'entrant':<{width}}  {'games':>5}  {'W-L-D':>{wld_w}}  {'score':>5}  "
                   f"{'Elo':>{elo_w}}  {'+/-':>{margin_w}}  {'mu':>6}  {'sigma':>5}  {'ordinal':>7}"]
    for line, name, wld, (elo, margin) in zip(rl.lines, names, wlds, texts, strict=True):
        rows.append(f"{line.rank:>4}  " + (f"{line.group:>5}  " if group else "")
                    + f"{name:<{width}}  {line.games:>5}  {wld:>{wld_w}}  {line.score:>5.3f}  "
                    f"{elo:>{elo_w}}  {margin:>{margin_w}}  {line.mu:>6.2f}  {line.sigma:>5.2f}  "
                    f"{line.ordinal:>7.2f}")
    rows.append("")
    rows.extend([_method(rl), _OPENSKILL, *rl.notes])
    return "\n".join(rows) + "\n"


def _record(line: EntrantRating) -> dict[str, Any]:
    """A line as the CSV and JSON files give it."""
    e = line.entrant
    return {
        "rank": line.rank, "group": line.group, "entrant": e.name, "bot": e.bot, "deck": e.deck,
        "games": line.games, "wins": line.wins, "losses": line.losses, "draws": line.draws,
        "score": round(line.score, _PLACES),
        "elo": None if line.elo is None else round(line.elo, _ELO_PLACES),
        "elo_margin": None if line.elo_margin is None else round(line.elo_margin, _ELO_PLACES),
        # JSON has no infinity: the sign of an entrant that won or lost every game, as text.
        "elo_limit": line.elo_limit,
        "mu": round(line.mu, _PLACES), "sigma": round(line.sigma, _PLACES),
        "ordinal": round(line.ordinal, _PLACES),
    }


def rating_list_csv(rl: RatingList) -> str:
    """The list as CSV: a header row, then a row per entrant listed (an empty cell for None)."""
    out = io.StringIO()
    records = [_record(line) for line in rl.lines]
    columns = list(_record(rl.lines[0]).keys()) if rl.lines else ["rank", "group", "entrant"]
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for r in records:
        writer.writerow(["" if r[c] is None else r[c] for c in columns])
    return out.getvalue()


def rating_list_json(rl: RatingList, games: ListGames, databases: Sequence[str] = ()) -> str:
    """The list as JSON: the games and method, a record per entrant listed, and the notes."""
    doc = {
        "databases": list(databases),
        "tournaments": games.tournaments,
        "games": rl.games,
        "duplicates": games.duplicates,
        "elo": {"model": "Bradley-Terry, maximum likelihood", "average": rl.average,
                "anchor": None if rl.anchor is None else {"entrant": rl.anchor[0], "rating": rl.anchor[1]},
                "interval": 0.95, "resamples": rl.resamples, "seed": rl.seed},
        "openskill": "Plackett-Luce",
        "groups": rl.groups,
        "left_out": rl.left_out,
        "entrants": [_record(line) for line in rl.lines],
        "notes": list(rl.notes),
    }
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
