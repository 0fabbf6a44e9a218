"""Running a tournament: rounds of matches, each match's games one after another, as many games
at once as the executor plays, every finished game recorded before anything else happens.

Round robin: every round is known from the start, so every match may be played at once. Swiss
(MTR appendix: pairings from the standings): a round is paired when the one before has ended.
Either way what is played depends only on the settings and the games' own outcomes, never on
the order games finish in, so the results are the same whatever runs them, in how many
processes, how many at a time, and whether the tournament was stopped and resumed.

The games between two entrants don't depend on who else entered: a match's seats
(``seat_order``) and its games' seeds come from the tournament's key, the two entrants' names
and which meeting of the two it is, so adding entrants (or changing the format) changes when two entrants meet
and their games' ids, never the games their matches play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import trio

from ..actors import GameClock
from ..rules import DEFAULT_TURN_LIMIT
from ..seats import DEFAULT_BOT_MEMORY, Entrant
from ._executors import Executor
from ._games import DEFAULT_DEADLINE, GameRow
from ._in_order import sprt_of
from ._keys import key_from_seed, keyed_seed
from ._match import (
    MatchSpec,
    Score,
    knockout_score,
    match_score,
    next_game,
    next_pair_game,
    pair_score,
    seat_order,
)
from ._pairings import FORMATS, PAIRING_VERSION, gauntlet, round_robin, swiss_pairings, swiss_rounds
from ._sprt import SprtResult, SprtSettings
from ._standings import MatchResult, standings

__all__ = ["FORMATS", "TOP_CUTS", "KnockoutResult", "Played", "RunningTournament", "TournamentSettings",
           "TournamentStatistics", "run_tournament"]

TOP_CUTS: dict[int, tuple[tuple[int, int], ...]] = {
    2: ((1, 2),),
    4: ((1, 4), (2, 3)),
    8: ((1, 8), (4, 5), (2, 7), (3, 6)),
}
"""A top cut's first round by seed (1: first after the Swiss rounds), as a Magic event's top 8
is played: the winners of neighbouring matches meet next, so seeds 1 and 2 can meet only in
the final."""

_STAGES = {4: "quarterfinal", 2: "semifinal", 1: "final"}
"""A top cut round's name by its number of matches."""


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """Everything a tournament's results depend on: the settings that identify it in the results
    database (``as_dict``), and its secret key."""

    entrants: tuple[Entrant, ...]
    """The entrants, by index."""
    format: str
    """``round-robin``, ``swiss`` or ``gauntlet``."""
    best_of: int
    """Games a match is the best of."""
    seed: int | None = None
    """``--seed``: the key comes from it (``key_from_seed``), so anyone who knows it can work
    out every game; None: the key is secret (``key``, else drawn when the tournament starts)."""
    rounds: int = 0
    """Swiss rounds (0: ``swiss_rounds`` of the entrants); a round robin has as many as its
    schedule needs."""
    repeat: int = 1
    """A round robin: times its whole schedule is played, so each pair meets this often
    (seats swapped at each meeting); a Swiss tournament has 1."""
    deadline: float = DEFAULT_DEADLINE
    """Seconds each seat has for each decision (a bot over it forfeits the game)."""
    trust: bool = False
    """Python class bots run in the tournament's own processes (``--trust``) instead of a
    bot process each (``load_bot``); it changes where they run, not how games come out."""
    bot_memory: int = DEFAULT_BOT_MEMORY
    """Each bot process's memory limit in bytes (``--bot-memory``); a bot over it forfeits.
    Part of the settings that identify the tournament only when it is not the default (databases written before
    there was a limit hold tournaments played at the default)."""
    pairs: bool = False
    """``--pairs``: each meeting of two entrants is a game pair (the same deal played once
    from each side, ``next_pair_game``), not a best-of-N match; ``best_of`` is then 2."""
    turn_limit: int = DEFAULT_TURN_LIMIT
    """``--turn-limit``: a game still going after this many turns is drawn."""
    top: int = 0
    """``--top``: after the Swiss rounds, the first 2, 4 or 8 play single-elimination matches
    (``TOP_CUTS``); 0: none."""
    sprt: SprtSettings | None = None
    """``--sprt``: stop once a sequential probability ratio test decides between the first
    entrant leading by ``elo0`` and by ``elo1`` (two entrants; game pairs or single games)."""
    clock: GameClock | None = None
    """``--clock``: each seat's time for the whole game, and its increment; running out loses."""
    gauntlet: int = 1
    """A gauntlet: how many of the first entrants each meet every other entrant (the others
    don't meet each other: ``gauntlet``)."""
    key: bytes = field(default=b"", repr=False)
    """The secret every seed comes from (``keyed_seed``); empty: from ``seed``, or (with no
    seed) drawn when the tournament starts (``play_tournament``). Not part of the settings
    that identify the tournament (``as_dict``): the results database records it beside them."""

    def secret(self) -> bytes:
        """The key every seed comes from: ``key``, else the seed's; ValueError with neither."""
        if self.key:
            return self.key
        if self.seed is None:
            raise ValueError("a tournament without a seed needs a key (play_tournament draws one)")
        return key_from_seed(self.seed)

    def round_count(self) -> int:
        """The number of rounds it has."""
        n = len(self.entrants)
        if self.format == "round-robin":
            return len(round_robin(n)) * self.repeat
        if self.format == "gauntlet":
            return len(gauntlet(n, self.gauntlet)) * self.repeat
        return self.rounds or swiss_rounds(n)

    def as_dict(self) -> dict[str, Any]:
        """The settings as plain data: what the results database keys the tournament by (the
        key is not in them). A Swiss tournament's include the rule its rounds are paired by
        (``PAIRING_VERSION``); a round robin's don't, as it has no such rule."""
        return {
            "entrants": [{"name": e.name, "bot": e.bot, "deck": e.deck.name,
                          "cards": list(e.deck.cards)} for e in self.entrants],
            "format": self.format,
            "rounds": self.round_count(),
            "best_of": self.best_of,
            "seed": self.seed,
            "repeat": self.repeat,
            "deadline": self.deadline,
        } | ({} if self.bot_memory == DEFAULT_BOT_MEMORY else {"bot_memory": self.bot_memory}) \
          | ({"game_pairs": True} if self.pairs else {}) \
          | ({} if self.turn_limit == DEFAULT_TURN_LIMIT else {"turn_limit": self.turn_limit}) \
          | ({"top": self.top} if self.top else {}) \
          | ({"pairing": PAIRING_VERSION} if self.format == "swiss" else {}) \
          | ({"gauntlet": self.gauntlet} if self.format == "gauntlet" else {}) \
          | ({"clock": str(self.clock)} if self.clock is not None else {}) \
          | ({"sprt": self.sprt.as_dict()} if self.sprt is not None else {})


@dataclass(frozen=True, slots=True)
class KnockoutResult:
    """A top cut match, decided: it can't end drawn."""

    stage: str
    """``quarterfinal``, ``semifinal`` or ``final``."""
    seeds: tuple[int, int]
    """The two entrants' seeds (their places after the Swiss rounds), the higher first."""
    result: MatchResult
    """Its games, from the higher seed's side (``a``)."""
    winner: int
    """The entrant that goes through."""
    reason: str
    """Empty when it won on games; else why it went through (level after every game)."""


@dataclass(slots=True)
class Played:
    """What a tournament (or the part of it played so far) came to."""

    settings: TournamentSettings
    """Its settings."""
    rows: list[GameRow] = field(default_factory=list)
    """Every game, by round, match and number."""
    matches: list[tuple[MatchSpec | None, MatchResult]] = field(default_factory=list)
    """Every match (None for a Swiss bye) with its result, by round and match."""
    checked: int = 0
    """Games played again that the results database held already (a tournament run again
    without ``--resume``), each checked against the recorded one."""
    mismatched: list[tuple[GameRow, GameRow]] = field(default_factory=list)
    """Of those, (recorded, played now) for each that came out differently."""
    unchecked: list[str] = field(default_factory=list)
    """Of those, the games not compared because a clock ran out in one play or the other: a
    loss on time depends on the machine (their ids)."""
    replayed: int = 0
    """Games sent again because the worker process playing them died (``--jobs``)."""
    workers: int = 0
    """Worker processes started, replacements of dead ones included (0: in process)."""
    sprt: SprtResult | None = None
    """With ``TournamentSettings.sprt``: the test where it stopped (its decision), or after
    every game of the schedule (no decision)."""
    top_cut: list[tuple[MatchSpec, KnockoutResult]] = field(default_factory=list)
    """The top cut's matches (``TournamentSettings.top``), round by round."""
    sat_out: list[tuple[int, int]] = field(default_factory=list)
    """A round robin of an odd number of entrants: (round, entrant) for the one that sits
    each round out (no match, no points): each entrant once per time the schedule is played."""


@dataclass(frozen=True, slots=True)
class TournamentStatistics:
    """A running tournament's counters (``RunningTournament.statistics``)."""

    rounds_paired: int
    """Rounds whose matches are known: every round of a round robin at its start, a Swiss
    round once the one before it has ended."""
    matches_started: int
    """Matches begun (byes and rounds sat out are no matches)."""
    matches_done: int
    """Of those, the matches decided."""
    games_played: int
    """Games played by this run, each recorded as it ended."""
    games_held: int
    """Games the results database held already and that were not played again (resumed)."""
    games_in_flight: int
    """Games being played now."""
    games_at_most: int
    """The games the tournament has as it stands (the total ``progress`` is given): ``best_of``
    for each match not yet decided, and the games each decided match took."""


class RunningTournament:
    """A handle on a tournament while ``run_tournament`` (or ``play_tournament``) plays it:
    ``statistics`` says how far it has got. Make one and pass it in to watch from another task
    (or a ``progress`` callback); until the tournament starts, every count is 0."""

    def __init__(self) -> None:
        self.rounds_paired = self.matches_started = self.matches_done = 0
        self.games_played = self.games_held = self.games_in_flight = self.games_at_most = 0

    def statistics(self) -> TournamentStatistics:
        """The tournament's counters now (as trio's objects give theirs)."""
        return TournamentStatistics(rounds_paired=self.rounds_paired,
                                    matches_started=self.matches_started,
                                    matches_done=self.matches_done, games_played=self.games_played,
                                    games_held=self.games_held, games_in_flight=self.games_in_flight,
                                    games_at_most=self.games_at_most)


def _estimate(settings: TournamentSettings) -> int:
    """Games a tournament has at most if no game is drawn: ``best_of`` per match."""
    n = len(settings.entrants)
    return (settings.round_count() * (n // 2) + max(settings.top - 1, 0)) * settings.best_of


async def run_tournament(settings: TournamentSettings, executor: Executor,
                         done: Mapping[str, GameRow], record: Callable[[GameRow], None],
                         progress: Callable[[int, int, GameRow | None], None] | None = None,
                         *, running: RunningTournament | None = None,
                         interim: Callable[[Sequence[GameRow], SprtResult | None], None] | None = None,
                         interval: int = 0, record_dir: Path | None = None) -> Played:
    """Play the tournament's games that ``done`` (rows by game id, from the results database)
    does not hold, each one given to ``record`` as soon as it ends; returns everything.

    ``progress(games done, games in all, the game)`` is called after each game played (the
    games done count those in ``done`` too; the total is an upper bound that shrinks as matches
    end early), and with no game when the total changes. ``running``: the handle whose
    ``statistics`` follow the tournament as it is played.

    What is decided from results reads them in schedule order (``_in_order``): the games of
    the matches ended with none before them still going. With ``settings.sprt``, the test is
    updated match by match in that order and the run stops at the first match past a bound:
    no later match is begun, those under way finish and are recorded, and none of them is in
    the result. ``interim(games, sprt)``: called with the first k x ``interval`` games in
    schedule order, for each k, as they become known (``--rating-interval``). ``record_dir``:
    each game played writes its compact record there, as ``GAME_ID.json``."""
    n = len(settings.entrants)
    if n < 2:
        raise ValueError(f"a tournament needs at least 2 entrants, got {n}")
    if settings.repeat < 1:
        raise ValueError(f"a round robin is played at least once, not {settings.repeat} times")
    if settings.repeat != 1 and settings.format == "swiss":
        raise ValueError(f"repeat is for a round robin or a gauntlet, not {settings.format!r} (which has rounds)")
    if settings.format == "gauntlet" and not 1 <= settings.gauntlet < n:
        raise ValueError(f"a gauntlet's entrants are from 1 to one fewer than the entrants ({n - 1}), "
                         f"not {settings.gauntlet}")
    if settings.top and (settings.format != "swiss" or settings.top not in TOP_CUTS or settings.top > n):
        raise ValueError(f"a top cut of 2, 4 or 8 (at most the entrants) follows Swiss rounds, "
                         f"not a top {settings.top} of {n} after a {settings.format}")
    if settings.sprt is not None and (n != 2 or settings.format == "swiss"
                                      or not (settings.pairs or settings.best_of == 1)):
        raise ValueError("an SPRT needs exactly two entrants and games that stand alone: game "
                         "pairs, or matches of one game")
    if settings.pairs and (settings.format == "swiss" or settings.best_of != 2):
        raise ValueError("game pairs are played in a round robin, two games each (best_of 2), "
                         f"not {settings.format} best of {settings.best_of}")
    names = [e.name for e in settings.entrants]
    key = settings.secret()
    limiter = trio.CapacityLimiter(executor.capacity)
    played = Played(settings)
    by_match: dict[tuple[int, int], list[GameRow]] = {}
    results: list[MatchResult] = []
    count = [0, _estimate(settings)]
    run = running if running is not None else RunningTournament()
    run.games_at_most = count[1]

    order: list[tuple[int, int]] = []  # every match listed so far, in schedule order
    ended: set[tuple[int, int]] = set()
    in_order: list[GameRow] = []  # the games of ``order``'s ended prefix
    at = [0]  # how far into ``order`` that prefix reaches
    stop = [0]  # the SPRT decided after this round's match (0: not yet)

    def advance() -> None:
        """Take in the matches that ended with none before them still going."""
        while at[0] < len(order) and order[at[0]] in ended:
            place = order[at[0]]
            at[0] += 1
            if stop[0] and place[0] > stop[0]:
                continue  # played after the test decided: left out
            before = len(in_order)
            in_order.extend(by_match[place])
            if settings.sprt is not None and not stop[0]:
                played.sprt = sprt_of(settings.sprt, in_order, pairs=settings.pairs)
                if played.sprt.decision is not None:
                    stop[0] = place[0]
            if interim is not None and interval > 0:
                for k in range(before // interval + 1, len(in_order) // interval + 1):
                    shown = in_order[:k * interval]
                    interim(shown, None if settings.sprt is None else
                            sprt_of(settings.sprt, shown, pairs=settings.pairs))

    def tick(row: GameRow | None = None, shrink: int = 0) -> None:
        count[1] -= shrink
        run.games_at_most = count[1]
        if progress is not None:
            progress(count[0], count[1], row)

    # Under an SPRT, a match holds a place of its own while it is played, and places are given
    # in schedule order (trio runs waiting tasks in no set order, so the matches are started one
    # by one as places free): few are under way when the test decides, and each is played
    # through rather than its games queued behind every other match's first game.
    places = trio.Semaphore(executor.capacity) if settings.sprt is not None else None

    async def play_match(match: MatchSpec, knockout: bool = False) -> None:
        try:
            await play_games(match, knockout)
        finally:
            if places is not None:
                places.release()

    async def play_games(match: MatchSpec, knockout: bool) -> None:
        run.matches_started += 1
        rows = by_match.setdefault((match.round, match.match), [])
        while True:
            spec = (next_pair_game(key, match, rows, settings.turn_limit) if settings.pairs
                    else next_game(key, match, rows, settings.best_of, settings.turn_limit,
                                   knockout=knockout))
            if spec is None:
                break
            if record_dir is not None:
                spec = replace(spec, record_path=str(record_dir / f"{spec.game_id}.json"))
            if settings.clock is not None:
                spec = replace(spec, clock=settings.clock)
            row = done.get(spec.game_id)
            if row is None and not rows and stop[0] and match.round > stop[0]:
                break  # the SPRT decided before this match began
            if row is None:
                async with limiter:
                    if not rows and stop[0] and match.round > stop[0]:
                        break
                    run.games_in_flight += 1
                    try:
                        row = await executor.play(spec)
                    finally:
                        run.games_in_flight -= 1
                record(row)
                rows.append(row)
                count[0] += 1
                run.games_played += 1
                tick(row)
            else:
                rows.append(row)
                count[0] += 1
                run.games_held += 1
        run.matches_done += 1
        # Games it did not need (an early win) or needed more of (draws) than best_of.
        if len(rows) != settings.best_of:
            tick(shrink=settings.best_of - len(rows))
        ended.add((match.round, match.match))
        advance()

    def result_of(match: MatchSpec) -> MatchResult:
        rows = by_match[(match.round, match.match)]
        score: Score = (pair_score(rows, match) if settings.pairs
                        else match_score(rows, settings.best_of))
        a, b = match.entrants
        return MatchResult(match.round, a, b, score.wins[0], score.wins[1], score.draws)

    def bye(round_no: int, entrant: int) -> MatchResult:
        return MatchResult(round_no, entrant, None, settings.best_of // 2 + 1, 0, 0)

    met: Counter[frozenset[int]] = Counter()  # matches listed so far, by pair

    def listed(round_no: int, pairs: Sequence[tuple[int, int | None]]) -> list[tuple[MatchSpec | None, int]]:
        """A round's pairings as matches numbered from 1, each pair in ``seat_order`` for its
        next meeting (a bye: None and the entrant)."""
        out: list[tuple[MatchSpec | None, int]] = []
        number = 0
        run.rounds_paired += 1
        for a, b in pairs:
            if b is None:
                out.append((None, a))
                continue
            number += 1
            order.append((round_no, number))
            met[frozenset((a, b))] += 1
            meeting = met[frozenset((a, b))]
            first, second = seat_order(key, a, b, names, meeting)
            out.append((MatchSpec(round_no, number, (first, second),
                                  (names[first], names[second]), meeting), a))
        return out

    tick()
    if settings.format in ("round-robin", "gauntlet"):
        # A gauntlet is played as a round robin is, with its own schedule.
        schedule = round_robin(n) if settings.format == "round-robin" else gauntlet(n, settings.gauntlet)
        matches: list[list[tuple[MatchSpec | None, int]]] = []
        async with trio.open_nursery() as nursery:
            for r in range(1, settings.round_count() + 1):
                # With ``repeat``, the schedule over again: each pass meets every pair again.
                listed_now = listed(r, schedule[(r - 1) % len(schedule)])
                matches.append(listed_now)
                for spec, _ in listed_now:
                    if spec is None:
                        continue
                    if places is not None:
                        await places.acquire()
                        if stop[0] and r > stop[0]:  # decided: no later match is begun
                            places.release()
                            tick(shrink=settings.best_of)
                            continue
                    nursery.start_soon(play_match, spec)
        for r, round_matches in enumerate(matches, 1):
            if stop[0] and r > stop[0]:
                break  # after the SPRT's decision: neither played to the end nor counted
            for spec, entrant in round_matches:
                if spec is None:
                    # An odd number of entrants: each sits out one round. That is no match
                    # won (MTR's bye is a Swiss pairing's), so the standings leave it out.
                    played.sat_out.append((r, entrant))
                    continue
                result = result_of(spec)
                results.append(result)
                played.matches.append((spec, result))
    elif settings.format == "swiss":
        for r in range(1, settings.round_count() + 1):
            pairs = swiss_pairings(n, results, r, keyed_seed(key, "swiss"), settings.best_of // 2 + 1)
            listed_now = listed(r, pairs)  # a rematch: the pair's next meeting
            async with trio.open_nursery() as nursery:
                for spec, _ in listed_now:
                    if spec is not None:
                        nursery.start_soon(play_match, spec)
            for spec, entrant in listed_now:
                result = result_of(spec) if spec is not None else bye(r, entrant)
                results.append(result)
                played.matches.append((spec, result))
    else:
        raise ValueError(f"unknown format {settings.format!r} (formats: {', '.join(FORMATS)})")
    if settings.top:
        table = standings(n, results, settings.best_of // 2 + 1)
        seeded = [s.entrant for s in table[:settings.top]]  # seed k is seeded[k - 1]
        bracket = list(TOP_CUTS[settings.top])
        round_no = settings.round_count()
        while bracket:
            round_no += 1
            specs: list[tuple[MatchSpec, tuple[int, int]]] = []
            for number, (high, low) in enumerate(bracket, 1):
                high, low = min(high, low), max(high, low)
                a, b = seeded[high - 1], seeded[low - 1]  # the higher seed in seat 0
                order.append((round_no, number))
                met[frozenset((a, b))] += 1
                specs.append((MatchSpec(round_no, number, (a, b), (names[a], names[b]),
                                        met[frozenset((a, b))]), (high, low)))
            run.rounds_paired += 1
            async with trio.open_nursery() as nursery:
                for spec, _ in specs:
                    nursery.start_soon(play_match, spec, True)
            through: list[int] = []
            for spec, seeds in specs:
                rows = by_match[(spec.round, spec.match)]
                score = knockout_score(rows, settings.best_of)
                a, b = spec.entrants
                result = MatchResult(spec.round, a, b, score.wins[0], score.wins[1], score.draws)
                level = score.wins[0] == score.wins[1]
                winner = b if score.wins[1] > score.wins[0] else a
                reason = (f"level after {len(rows)} games: the higher seed goes through"
                          if level else "")
                played.top_cut.append((spec, KnockoutResult(_STAGES.get(len(specs), f"round of {2 * len(specs)}"),
                                                            seeds, result, winner, reason)))
                through.append(seeds[0] if winner == a else seeds[1])
            # Neighbouring matches' winners meet next; the final's winner is left alone.
            bracket = list(zip(through[::2], through[1::2], strict=True)) if len(through) > 1 else []
    played.rows = [row for place in sorted(by_match) for row in by_match[place]
                   if not (stop[0] and place[0] > stop[0])]
    return played

