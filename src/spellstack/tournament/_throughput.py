"""``spellstack bench --tournament``: tournament throughput in one process and in worker
processes, and what games in flight at once cost in memory.

The tournament is a round robin of best-of-one matches between random bots playing the bench's
two decks, so that its games compare with ``spellstack bench``'s; its results database is a
temporary file, deleted after.
"""

from __future__ import annotations

import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import trio

from .._memory import peak_kb, resident_kb
from ..cards import load_cards
from ..seats import Entrant, parse_entrant
from ._executors import InProcess
from ._games import Contestant, GameRow, GameSpec, play_spec, untimed
from ._play import play_tournament
from ._run import Played, TournamentSettings, run_tournament
from ._store import ResultsStore

__all__ = ["Pace", "TournamentRun", "bench_entrants", "bench_memory", "bench_tournament",
           "time_tournament"]


def bench_entrants(games: int, decks: tuple[str, str]) -> tuple[Entrant, ...]:
    """The fewest random entrants whose round robin of best-of-one matches has at least
    ``games`` games (k entrants: k (k - 1) / 2 games), playing ``decks`` (the bench's) in turn."""
    k = max(2, math.ceil((1 + math.sqrt(1 + 8 * games)) / 2))
    cards = load_cards()
    return tuple(parse_entrant(f"t{i + 1}=random@{decks[i % 2]}", cards)
                 for i in range(k))


@dataclass(frozen=True, slots=True)
class TournamentRun:
    """One timed tournament."""

    jobs: int
    """Worker processes (1: in the tournament's own process)."""
    concurrency: int
    """Games at once per process."""
    games: int
    """Games played."""
    seconds: float
    """Wall-clock seconds, start to end (worker processes' start-up included)."""
    decisions: int
    """Decisions the bots answered."""
    rows: tuple[GameRow, ...]
    """The games, timings cleared (to compare runs)."""

    @property
    def games_per_second(self) -> float:
        """Throughput."""
        return self.games / self.seconds


def time_tournament(entrants: Sequence[Entrant], seed: int, jobs: int, concurrency: int) -> TournamentRun:
    """Play the bench's tournament once, timed, into a temporary results database."""
    settings = TournamentSettings(tuple(entrants), "round-robin", 1, seed)
    with tempfile.TemporaryDirectory(prefix="spellstack-bench-") as folder:
        began = time.perf_counter()
        played = trio.run(lambda: play_tournament(settings, db=Path(folder) / "bench.db",
                                                  jobs=jobs, concurrency=concurrency))
        seconds = time.perf_counter() - began
    return TournamentRun(jobs, concurrency, len(played.rows), seconds,
                         sum(r.decisions for r in played.rows),
                         tuple(untimed(r) for r in played.rows))


class _Counting:
    """An ``InProcess`` executor that counts its games in flight."""

    def __init__(self, inner: InProcess, sample: Callable[[], None]) -> None:
        self.inner = inner
        self.capacity = inner.capacity
        self.sample = sample
        self.now = 0
        self.peak = 0

    async def play(self, spec: GameSpec) -> GameRow:
        self.now += 1
        self.peak = max(self.peak, self.now)
        try:
            return await self.inner.play(spec)
        finally:
            self.now -= 1
            self.sample()

    async def aclose(self) -> None:
        await self.inner.aclose()


def bench_memory(games: int, seed: int, concurrency: int, decks: tuple[str, str],
                 out: list[str]) -> None:
    """Up to ``concurrency`` tournament games in flight at once in this process, their rows
    written to a results database: the most resident memory while they ran (sampled as each
    game ends and every 50 ms), and the process's peak."""
    entrants = bench_entrants(games, decks)
    settings = TournamentSettings(entrants, "round-robin", 1, seed)
    before = resident_kb()
    most = [before]

    def sample() -> None:
        most[0] = max(most[0], resident_kb())

    counting = _Counting(InProcess([Contestant(e.name, e.deck, e.factory) for e in entrants],
                                   concurrency), sample)

    async def run(db: Path) -> Played:
        store = ResultsStore(db)
        try:
            store.open_tournament(settings.as_dict(), tuple(e.name for e in entrants), resume=False,
                                  key=settings.secret(), explicit=True)
            async with trio.open_nursery() as nursery:
                async def every_50_ms() -> None:
                    while True:
                        sample()
                        await trio.sleep(0.05)
                nursery.start_soon(every_50_ms)
                played = await run_tournament(settings, counting, {}, store.record)
                nursery.cancel_scope.cancel()
            return played
        finally:
            store.close()

    with tempfile.TemporaryDirectory(prefix="spellstack-bench-") as folder:
        began = time.perf_counter()
        played = trio.run(run, Path(folder) / "bench.db")
        seconds = time.perf_counter() - began
    out.append(f"tournament memory: {len(played.rows)} games ({len(entrants)} random entrants, "
               f"round robin of best-of-one matches), up to {concurrency} at once in one "
               f"process, {seconds:.1f} s, {len(played.rows) / seconds:.1f} games/s")
    out.append(f"games in flight at most: {counting.peak}; resident memory: "
               f"{most[0] / 1024:.1f} MB at most while they ran, {before / 1024:.1f} MB before; "
               f"process peak (ru_maxrss) {peak_kb() / 1024:.1f} MB (target: 1,000 games in "
               "flight under 200 MB)")


@dataclass(frozen=True, slots=True)
class Pace:
    """How fast some games went."""

    games: int
    """Games played."""
    seconds: float
    """Wall-clock seconds."""
    decisions: int
    """Decisions the bots answered."""
    turns: int
    """Turns, summed over the games."""

    @property
    def games_per_second(self) -> float:
        """Games per second."""
        return self.games / self.seconds

    @property
    def decisions_per_second(self) -> float:
        """Decisions per second."""
        return self.decisions / self.seconds


def _spec_of(row: GameRow) -> GameSpec:
    """The spec a tournament played ``row`` from (a match's first game: the generator chose)."""
    return GameSpec(row.game_id, row.round, row.match, row.number, row.seed, row.entrants,
                    row.bot_seeds, None if row.number == 1 else row.chooser)


def _one_after_another(rows: Sequence[GameRow], entrants: Sequence[Entrant]) -> Pace:
    """The tournament's own games, one after another the bench's way (``play_spec``, which
    is ``play_one_game``): no runner, no results database, no games at once."""
    seats = [Contestant(e.name, e.deck, e.factory) for e in entrants]

    async def play() -> list[GameRow]:
        return [await play_spec(_spec_of(row), seats) for row in rows]

    began = time.perf_counter()
    again = trio.run(play)
    seconds = time.perf_counter() - began
    assert [untimed(r) for r in again] == [untimed(r) for r in rows], "not the same games"
    return Pace(len(again), seconds, sum(r.decisions for r in again), sum(r.turns for r in again))


def bench_tournament(games: int, seed: int, jobs: int, repeat: int, out: list[str], *,
                     decks: tuple[str, str], bench_games: Callable[[range], Pace]) -> None:
    """The bench's tournament (random entrants on ``decks``) in one process and in ``jobs``
    worker processes (8 games at once in each), ``repeat`` times each, alternating with
    ``spellstack bench``'s games one after another (``bench_games`` of their seeds: the
    harness plays them) and the tournament's own games one after another, in the same sitting;
    medians."""
    entrants = bench_entrants(games, decks)
    count = len(entrants) * (len(entrants) - 1) // 2
    bench: list[Pace] = []
    alone: list[Pace] = []
    ones: list[TournamentRun] = []
    manys: list[TournamentRun] = []
    for i in range(repeat):
        say = f"  round {i + 1}/{repeat}:"
        print(f"{say} bench's games", file=sys.stderr, flush=True)
        bench.append(bench_games(range(seed, seed + count)))
        print(f"{say} tournament in 1 process", file=sys.stderr, flush=True)
        ones.append(time_tournament(entrants, seed, 1, 8))
        print(f"{say} the tournament's games one after another", file=sys.stderr, flush=True)
        alone.append(_one_after_another(ones[-1].rows, entrants))
        print(f"{say} tournament in {jobs} worker processes", file=sys.stderr, flush=True)
        manys.append(time_tournament(entrants, seed, jobs, 8))
    same = all(r.rows == ones[0].rows for r in ones + manys)

    def median(paces: Sequence[Pace | TournamentRun], per: str) -> float:
        return float(statistics.median(float(getattr(p, per)) for p in paces))

    b_games, b_dec = median(bench, "games_per_second"), median(bench, "decisions_per_second")
    a_games = median(alone, "games_per_second")
    one = median(ones, "games_per_second")
    one_dec = statistics.median(r.decisions / r.seconds for r in ones)
    many = median(manys, "games_per_second")
    played = ones[0].games
    turns = sum(r.turns for r in ones[0].rows) / played
    out.append(f"tournament: {played} games ({len(entrants)} random entrants on "
               f"{' and '.join(decks)}, round robin of best-of-one matches, seed "
               f"{seed}), 8 at once per process; medians of {repeat}")
    out.append(f"spellstack bench's games, one after another: {b_games:.2f} games/s, "
               f"{b_dec:.0f} decisions/s ({count} games, {bench[0].turns / count:.1f} turns "
               "a game)")
    out.append(f"the tournament's games, one after another: {a_games:.2f} games/s "
               f"({turns:.1f} turns a game: a round robin has mirror matches, which last longer)")
    out.append(f"tournament in 1 process: {one:.2f} games/s = {one / a_games:.2f}x its games "
               f"one after another, {one / b_games:.2f}x bench's games/s; {one_dec:.0f} "
               f"decisions/s = {one_dec / b_dec:.2f}x bench's (target: within 15%, >= 0.85x)")
    out.append(f"tournament in {jobs} worker processes: {many:.2f} games/s = {many / one:.2f}x "
               f"1 process, worker start-up included (target on 2 cores: >= 1.8x); "
               f"{os.cpu_count()} cores")
    out.append(f"same games in every run: {'yes' if same else 'NO'}")
