"""``spellstack bench --tournament``: tournament throughput in one process and in worker
processes, where the time goes in worker processes, and what games in flight at once cost in
memory.

The tournament is a round robin of best-of-one matches between random bots playing the bench's
two decks, so that its games compare with ``spellstack bench``'s; its results database is a
temporary file, deleted after.

Where the time goes (``Losses``): J workers would take 1/J of one process's time; what they
take beyond that is, exactly, the sum of a worker's start-up, the tournament's own process
(the parent: handing out games, reading rows, writing them), the games' CPU time beyond one
process's, and cores left idle (the tail: every game handed out, a worker done while another
still plays), each per core. CPU times come from ``getrusage``: the parent's own
(``RUSAGE_SELF``), the workers' once they have exited (``RUSAGE_CHILDREN``).
"""

from __future__ import annotations

import math
import os
import resource
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
from ._ipc import WorkerEntrant
from ._play import play_tournament
from ._run import Played, RunningTournament, TournamentSettings, run_tournament
from ._store import ResultsStore
from ._workers import Processes

__all__ = ["Losses", "Pace", "TournamentRun", "bench_entrants", "bench_memory", "bench_tournament",
           "load_average", "time_tournament", "worker_start_up"]


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
    parent_cpu: float = 0.0
    """CPU seconds of the tournament's own process (the parent), start to end: with workers,
    handing out games, reading their rows and writing them; in one process, the games too."""
    workers_cpu: float = 0.0
    """CPU seconds of the worker processes, start-up included (0 in one process)."""
    handed_out: float = 0.0
    """Seconds from the start until every game was handed out (done or in flight): after
    it, the workers run down (the tail)."""
    load: str = ""
    """The machine's load averages (1, 5, 15 minutes: ``/proc/loadavg``) just before the run."""

    @property
    def games_per_second(self) -> float:
        """Throughput."""
        return self.games / self.seconds

    @property
    def parent_share(self) -> float:
        """The parent's CPU time over the wall-clock time: the share of one core it took."""
        return self.parent_cpu / self.seconds


def load_average() -> str:
    """The machine's load averages over 1, 5 and 15 minutes, or ``?`` where not known."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def _cpu(who: int) -> float:
    """User and system CPU seconds of this process (``RUSAGE_SELF``) or of its children that
    have exited (``RUSAGE_CHILDREN``)."""
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


def time_tournament(entrants: Sequence[Entrant], seed: int, jobs: int, concurrency: int) -> TournamentRun:
    """Play the bench's tournament once, timed, into a temporary results database; the CPU
    time of this process and of the workers, and when every game was handed out."""
    settings = TournamentSettings(tuple(entrants), "round-robin", 1, seed)
    running = RunningTournament()
    handed = [0.0]

    async def watch(began: float) -> None:
        """Note when every game is done or in flight (a look every 20 ms: cheap)."""
        while True:
            await trio.sleep(0.02)
            now = running.statistics()
            if now.games_played and now.games_played + now.games_in_flight >= now.games_at_most:
                handed[0] = time.perf_counter() - began
                return

    async def run(db: Path, began: float) -> Played:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(watch, began)
            played = await play_tournament(settings, db=db, jobs=jobs, concurrency=concurrency,
                                           running=running)
            nursery.cancel_scope.cancel()
        return played

    load = load_average()
    with tempfile.TemporaryDirectory(prefix="spellstack-bench-") as folder:
        parent, workers = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        played = trio.run(run, Path(folder) / "bench.db", began)
        seconds = time.perf_counter() - began
        parent, workers = _cpu(resource.RUSAGE_SELF) - parent, _cpu(resource.RUSAGE_CHILDREN) - workers
    return TournamentRun(jobs, concurrency, len(played.rows), seconds,
                         sum(r.decisions for r in played.rows),
                         tuple(untimed(r) for r in played.rows), parent, workers,
                         handed[0] or seconds, load)


def worker_start_up(entrants: Sequence[Entrant], jobs: int) -> tuple[float, float]:
    """``jobs`` worker processes started at once with the tournament's setup and stopped with
    no game: the CPU seconds each took (a mean: imports, the cards, the setup, the exit) and
    the wall-clock seconds they took together."""
    shipped = [WorkerEntrant(e.name, e.bot, e.deck) for e in entrants]

    async def start_and_stop() -> None:
        workers = Processes(shipped, jobs, 8)
        try:
            await workers.start()
        finally:
            await workers.aclose()

    before = _cpu(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    trio.run(start_and_stop)
    return (_cpu(resource.RUSAGE_CHILDREN) - before) / jobs, time.perf_counter() - began


@dataclass(frozen=True, slots=True)
class Losses:
    """What ``jobs`` worker processes took beyond 1/``jobs`` of one process's time, in
    wall-clock seconds; the four parts add up to ``total`` exactly."""

    total: float
    """Their time less one process's over ``jobs``."""
    start_up: float
    """A worker's start-up, CPU seconds (each core starts one worker)."""
    parent: float
    """The parent's CPU seconds over ``jobs``: its share of every core."""
    games: float
    """The workers' CPU seconds beyond their start-up and one process's CPU seconds, over
    ``jobs`` (negative: they played the games in less CPU time than one process, which also
    wrote the rows)."""
    idle: float
    """Core-seconds no process of the tournament used, beyond one process's own, over
    ``jobs``: the tail (a worker done while another plays on), waits on pipes, and the
    machine's other load."""

    @classmethod
    def of(cls, one: TournamentRun, many: TournamentRun, start_up: float) -> Losses:
        """Where ``many`` (in workers) lost against ``one`` (one process) over the same games,
        given a worker's start-up CPU seconds: ``jobs x many.seconds = parent + workers +
        idle``, and ``one.seconds = one.parent_cpu + its idle``."""
        j = many.jobs
        idle = j * many.seconds - many.parent_cpu - many.workers_cpu
        idle_one = one.seconds - one.parent_cpu
        return cls(total=many.seconds - one.seconds / j, start_up=start_up,
                   parent=many.parent_cpu / j,
                   games=(many.workers_cpu - j * start_up - one.parent_cpu) / j,
                   idle=(idle - idle_one) / j)


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
    harness plays them), the tournament's own games one after another and a worker's start-up
    alone, in the same sitting; medians, the parent's share of the time, and where the time
    beyond one process's over ``jobs`` went (``Losses``)."""
    entrants = bench_entrants(games, decks)
    count = len(entrants) * (len(entrants) - 1) // 2
    bench: list[Pace] = []
    alone: list[Pace] = []
    ones: list[TournamentRun] = []
    manys: list[TournamentRun] = []
    starts: list[tuple[float, float]] = []
    for i in range(repeat):
        say = f"  round {i + 1}/{repeat}:"
        print(f"{say} bench's games", file=sys.stderr, flush=True)
        bench.append(bench_games(range(seed, seed + count)))
        print(f"{say} tournament in 1 process", file=sys.stderr, flush=True)
        ones.append(time_tournament(entrants, seed, 1, 8))
        print(f"{say} the tournament's games one after another", file=sys.stderr, flush=True)
        alone.append(_one_after_another(ones[-1].rows, entrants))
        print(f"{say} {jobs} worker processes started and stopped", file=sys.stderr, flush=True)
        starts.append(worker_start_up(entrants, jobs))
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
    workers = f"{jobs} worker process{'es' if jobs > 1 else ''}"
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
    rounds = [o.seconds / m.seconds for o, m in zip(ones, manys, strict=True)]
    out.append(f"tournament in {workers}: {many:.2f} games/s = {many / one:.2f}x 1 process, "
               f"worker start-up included (each round: {', '.join(f'{r:.2f}x' for r in rounds)}; "
               f"target on 2 cores: >= 1.9x for 2 workers); {os.cpu_count()} cores")
    # The round whose speed-up is the median: its parts add up exactly.
    k = sorted(range(repeat), key=lambda i: rounds[i])[(repeat - 1) // 2]
    m, cpu_each, wall_all = manys[k], *starts[k]
    lost = Losses.of(ones[k], m, cpu_each)
    out.append(f"the parent's share (the tournament's own process, CPU time over wall-clock "
               f"time: handing out games, reading their rows, writing them in batches): "
               f"{m.parent_share:.1%} of one core, {1000 * m.parent_cpu / m.games:.2f} ms a game "
               f"(round {k + 1}, the median); in 1 process, "
               f"{1000 * ones[k].parent_cpu / ones[k].games:.1f} ms a game, games included")
    out.append(f"worker start-up: {cpu_each:.2f} s CPU each (imports, cards, setup), "
               f"{wall_all:.2f} s wall-clock for {jobs} at once")
    out.append(f"where the time goes (round {k + 1}): {m.seconds:.2f} s in {workers} against "
               f"{ones[k].seconds:.2f} s / {jobs} = {ones[k].seconds / jobs:.2f} s; "
               f"{lost.total:+.2f} s = start-up {lost.start_up:+.2f} s + the parent "
               f"{lost.parent:+.2f} s + the games' CPU beyond 1 process's {lost.games:+.2f} s "
               f"+ idle cores {lost.idle:+.2f} s (every game handed out at {m.handed_out:.2f} s: "
               f"a tail of {m.seconds - m.handed_out:.2f} s)")
    busy = statistics.median(o.parent_cpu * jobs / (m.parent_cpu + m.workers_cpu)
                             for o, m in zip(ones, manys, strict=True))
    out.append(f"with no core idle (CPU time alone: 1 process's x {jobs} over the parent's and "
               f"the workers', start-up included): {busy:.2f}x, medians; what a machine of "
               f"{jobs} free cores would give, less the tail")
    out.append(f"load average before each run (1, 5, 15 min): 1 process "
               f"{'; '.join(r.load for r in ones)}; {workers} {'; '.join(r.load for r in manys)}")
    out.append(f"same games in every run: {'yes' if same else 'NO'}")
