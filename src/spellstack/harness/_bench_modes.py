"""The bench's modes beside the default run: ``--kernel``, ``--trace``, ``--jobs`` and
``--concurrent``. Every mode plays the bench's default games (decks, bots, seeds), so what it
reports compares with the default run; each checks that it played the same games."""

from __future__ import annotations

import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.pool import Pool
from multiprocessing.synchronize import Barrier
from pathlib import Path

import trio

from .._collector import tune_collector
from .._memory import peak_kb, resident_kb
from ..actors import ENGINE_ERROR, GameResult, play_one_game
from ..cards import load_cards
from ._bench_kernel import BENCH_DECKS, bench_bots, play_kernel

__all__ = [
    "CARDS_READ",
    "Outcome",
    "Progress",
    "bench_concurrent",
    "bench_jobs",
    "bench_kernel",
    "bench_trace",
    "describe",
    "play_actor_games",
    "play_games",
    "play_kernel_games",
    "resident_kb",
    "worker_context",
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """One bench game as the modes compare it."""

    seed: int
    """The game's seed."""
    winner: str | None
    """The winner's name, or None."""
    reason: str
    """Why the game ended."""
    turns: int
    """The turn it ended on."""
    decisions: int
    """Decisions answered by the bots."""
    auto_passes: int
    """Passes made on a player's behalf."""
    messages: int
    """Messages that crossed channels (0 in the kernel driver)."""
    final_hash: str
    """The final state hash."""

    @classmethod
    def of(cls, seed: int, result: GameResult) -> Outcome:
        """The outcome of a game result."""
        return cls(seed, result.winner, result.reason, result.turns, result.decisions,
                   result.auto_passes, result.messages, result.final_hash)

    def game(self) -> tuple[object, ...]:
        """What makes it the same game (everything but the message count)."""
        return (self.seed, self.winner, self.reason, self.turns, self.decisions,
                self.auto_passes, self.final_hash)

    def label(self) -> str:
        """Its result: the winner, ``draw`` or ``engine error``."""
        if self.winner:
            return self.winner
        return "engine error" if self.reason.startswith(ENGINE_ERROR) else "draw"


class Progress:
    """Progress on stderr every tenth of the games (when asked for)."""

    def __init__(self, total: int, enabled: bool, what: str = "games") -> None:
        self.total = total
        self.enabled = enabled
        self.what = what
        self.done = 0
        self.step = max(1, total // 10)

    def tick(self) -> None:
        """One more game done."""
        self.done += 1
        if self.enabled and (self.done % self.step == 0 or self.done == self.total):
            print(f"  {self.done}/{self.total} {self.what}", file=sys.stderr, flush=True)


def _results(outcomes: Sequence[Outcome]) -> dict[str, int]:
    wins: dict[str, int] = {}
    for o in outcomes:
        wins[o.label()] = wins.get(o.label(), 0) + 1
    return dict(sorted(wins.items()))


def describe(seeds: Sequence[int]) -> str:
    """The games of ``seeds``, as the reports name them."""
    return (f"{len(seeds)} game{'s' if len(seeds) != 1 else ''} ({' vs '.join(BENCH_DECKS)}, "
            f"seeds {seeds[0]}..{seeds[-1]})")


async def play_actor_games(seeds: Sequence[int], progress: Progress | None = None,
                           trace_path: Path | None = None) -> list[Outcome]:
    """The bench's games one after another through the actors (``play_one_game``)."""
    out = []
    for s in seeds:
        _, result = await play_one_game(BENCH_DECKS, bench_bots(s), s, names=list(BENCH_DECKS),
                                     trace_path=trace_path)
        out.append(Outcome.of(s, result))
        if progress is not None:
            progress.tick()
    return out


def play_kernel_games(seeds: Sequence[int], progress: Progress | None = None
                      ) -> tuple[list[Outcome], int]:
    """The bench's games through the kernel driver; also the number of views built."""
    out = []
    views = 0
    for s in seeds:
        driver, result = play_kernel(s)
        views += driver.views
        out.append(Outcome.of(s, result))
        if progress is not None:
            progress.tick()
    return out, views


def play_games(seeds: Sequence[int], kernel: bool) -> list[Outcome]:
    """The bench's games of ``seeds`` in this process, through the actors or the kernel."""
    if kernel:
        return play_kernel_games(seeds)[0]
    return trio.run(play_actor_games, seeds)


def _totals(outcomes: Sequence[Outcome]) -> tuple[int, int, int]:
    return (sum(o.decisions for o in outcomes), sum(o.auto_passes for o in outcomes),
            sum(o.turns for o in outcomes))


# --------------------------------------------------------------------------- --kernel


CARDS_READ = "the card data read before the clock starts"
"""What the timed modes say of the card data: read once a process (``load_cards``), as its
modules are imported, and before the clock starts, so that a run's time is its games' alone
(read by the first game, they were about 4% of a 100-game kernel run)."""


def bench_kernel(seeds: Sequence[int], out: list[str], progress: bool = True) -> list[Outcome]:
    """``--kernel``: the games without actors, each request's view and action list built."""
    load_cards()  # ``CARDS_READ``
    start = time.perf_counter()
    outcomes, views = play_kernel_games(seeds, Progress(len(seeds), progress))
    elapsed = time.perf_counter() - start
    decisions, autos, turns = _totals(outcomes)
    dps = decisions / elapsed
    out.append(f"kernel: {describe(seeds)} without actors (every view and action list a "
               f"player is sent is built, every answer checked; {CARDS_READ}), {elapsed:.2f} s, results "
               f"{_results(outcomes)}")
    out.append(f"games/s: {len(seeds) / elapsed:.2f}   average turns: {turns / len(seeds):.1f}")
    out.append(f"decisions/s: {dps:.0f} (answered by bots: {decisions}; automatic passes, "
               f"not counted: {autos}; views built: {views})")
    out.append(f"per-decision cost: {1e6 / dps:.1f} us (target: >= 5,000 decisions/s, design "
               "target: 10,000)")
    return outcomes


# --------------------------------------------------------------------------- --trace


async def _trace_run(seeds: Sequence[int], folder: Path, progress: Progress
                     ) -> tuple[list[Outcome], list[Outcome], float, float, int]:
    plain: list[Outcome] = []
    traced: list[Outcome] = []
    t_plain = t_traced = 0.0
    size = 0
    path = folder / "bench.jsonl"
    # Alternating game by game spreads the machine's drift over both runs alike.
    for s in seeds:
        start = time.perf_counter()
        plain += await play_actor_games([s])
        t_plain += time.perf_counter() - start
        start = time.perf_counter()
        traced += await play_actor_games([s], trace_path=path)
        t_traced += time.perf_counter() - start
        size += path.stat().st_size
        progress.tick()
    return plain, traced, t_plain, t_traced, size


def bench_trace(seeds: Sequence[int], out: list[str], progress: bool = True
                ) -> tuple[list[Outcome], list[Outcome]]:
    """``--trace``: each game played untraced and traced (to a temporary file, deleted after),
    alternately; the overhead is the ratio of the two runs' times."""
    load_cards()  # ``CARDS_READ``: not in the first untraced game's time
    with tempfile.TemporaryDirectory(prefix="spellstack-bench-") as folder:
        plain, traced, t_plain, t_traced, size = trio.run(
            _trace_run, seeds, Path(folder), Progress(len(seeds), progress))
    decisions = _totals(plain)[0]
    same = [o.game() for o in plain] == [o.game() for o in traced]
    out.append(f"trace: {describe(seeds)}, each played untraced and traced to a temporary "
               f"file (deleted after), alternately; {CARDS_READ}")
    out.append(f"untraced: {t_plain:.2f} s, {decisions / t_plain:.0f} decisions/s")
    out.append(f"traced: {t_traced:.2f} s, {decisions / t_traced:.0f} decisions/s, "
               f"{size / len(seeds) / 1024:.0f} kB of trace per game "
               f"({size / max(sum(o.messages for o in traced), 1):.0f} bytes per message)")
    out.append(f"tracing overhead: {t_traced / t_plain:.2f}x the untraced run (target: < 2x); "
               f"same games: {'yes' if same else 'NO'}")
    return plain, traced


# --------------------------------------------------------------------------- --jobs


def _worker_start(barrier: Barrier, kernel: bool) -> None:
    """Warm a worker (imports, card data, caches) with one game; then wait for the others,
    so that no timed run includes a worker's start."""
    tune_collector()  # as in the command line that starts it
    play_games([0], kernel)
    barrier.wait()


def _worker_play(task: tuple[tuple[int, ...], bool]) -> tuple[list[Outcome], float]:
    """A worker's task: its games, and the CPU seconds it spent on them."""
    seeds, kernel = task
    cpu = time.process_time()
    outcomes = play_games(seeds, kernel)
    return outcomes, time.process_time() - cpu


def _ready(_: int) -> int:
    return os.getpid()


CHUNK = 1
"""Seeds handed to a worker at a time (the same whatever the number of workers)."""


def worker_context() -> multiprocessing.context.BaseContext:
    """forkserver where the platform has it, else spawn: never fork a process that may hold
    threads or a trio run."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _timed(pool: Pool, tasks: list[tuple[tuple[int, ...], bool]]
           ) -> tuple[float, float, list[Outcome]]:
    """One run: its wall time, the workers' CPU time, the outcomes in seed order."""
    start = time.perf_counter()
    chunks = pool.map(_worker_play, tasks, chunksize=1)
    elapsed = time.perf_counter() - start
    return elapsed, sum(cpu for _, cpu in chunks), [o for chunk, _ in chunks for o in chunk]


def bench_jobs(seeds: Sequence[int], jobs: int, repeat: int, kernel: bool, out: list[str],
               progress: bool = True) -> dict[int, list[list[Outcome]]]:
    """``--jobs J``: the games spread over J worker processes, and over 1 worker, ``repeat``
    times each, alternately; reports the medians and the speed-up. Returns each run's
    outcomes (in seed order) by number of workers."""
    ctx = worker_context()
    counts = [1] if jobs == 1 else [1, jobs]
    tasks = [(tuple(seeds[i:i + CHUNK]), kernel) for i in range(0, len(seeds), CHUNK)]
    times: dict[int, list[float]] = {n: [] for n in counts}
    cpus: dict[int, list[float]] = {n: [] for n in counts}
    runs: dict[int, list[list[Outcome]]] = {n: [] for n in counts}
    tick = Progress(repeat * len(counts), progress, "runs")
    pools: dict[int, Pool] = {}
    try:
        for n in counts:
            barrier = ctx.Barrier(n)
            pools[n] = ctx.Pool(n, initializer=_worker_start, initargs=(barrier, kernel))
            pools[n].map(_ready, range(n))
        for _ in range(repeat):
            for n in counts:
                elapsed, cpu, outcomes = _timed(pools[n], tasks)
                times[n].append(elapsed)
                cpus[n].append(cpu)
                runs[n].append(outcomes)
                tick.tick()
    finally:
        for pool in pools.values():
            pool.terminate()
            pool.join()
    first = [o.game() for o in runs[1][0]]
    same = all([o.game() for o in run] == first for n in counts for run in runs[n])
    decisions = _totals(runs[1][0])[0]
    how = "kernel driver" if kernel else "actors"
    out.append(f"jobs: {describe(seeds)} through the {how} in worker processes "
               f"({ctx.get_start_method()}, {CHUNK} seed{'s' if CHUNK > 1 else ''} per task, "
               "handed to whichever worker is free), "
               f"{jobs} worker{'s' if jobs > 1 else ''} against 1, median of {repeat} "
               f"run{'s' if repeat > 1 else ''} each; {os.cpu_count()} cores")
    medians = {}
    for n in counts:
        medians[n] = statistics.median(times[n])
        each = ", ".join(f"{t:.2f}" for t in times[n])
        # CPU over wall time: the cores the workers got (less than n on a busy machine).
        cores = statistics.median(c / t for c, t in zip(cpus[n], times[n], strict=True))
        out.append(f"jobs {n}: {medians[n]:.2f} s (runs: {each}): {len(seeds) / medians[n]:.2f} "
                   f"games/s, {decisions / medians[n]:.0f} decisions/s; cores obtained "
                   f"{cores:.2f}")
    best = min(times[1]) / min(times[counts[-1]])
    out.append(f"speed-up: {medians[1] / medians[counts[-1]]:.2f}x with {jobs} jobs against 1, "
               f"medians (target: >= 1.8x for 2 jobs; fastest runs: {best:.2f}x); same games "
               f"per seed in every run: {'yes' if same else 'NO'}")
    return runs


# --------------------------------------------------------------------------- --concurrent


@dataclass(slots=True)
class _Flight:
    """Games in flight, as the concurrent run counts them."""

    now: int = 0
    """Games started and not finished."""
    peak: int = 0
    """The most at once."""
    peak_rss: int = 0
    """The largest resident set seen when a game started or finished, in kB."""


async def _concurrent_run(seeds: Sequence[int], n: int, progress: Progress, flight: _Flight
                          ) -> list[Outcome]:
    limiter = trio.CapacityLimiter(n)
    found: dict[int, Outcome] = {}

    async def one(s: int) -> None:
        async with limiter:
            flight.now += 1
            flight.peak = max(flight.peak, flight.now)
            flight.peak_rss = max(flight.peak_rss, resident_kb())
            _, result = await play_one_game(BENCH_DECKS, bench_bots(s), s, names=list(BENCH_DECKS))
            flight.peak_rss = max(flight.peak_rss, resident_kb())
            flight.now -= 1
        found[s] = Outcome.of(s, result)
        progress.tick()

    async with trio.open_nursery() as nursery:
        for s in seeds:
            nursery.start_soon(one, s)
    return [found[s] for s in seeds]


def bench_concurrent(seeds: Sequence[int], n: int, out: list[str], progress: bool = True
                     ) -> tuple[list[Outcome], int]:
    """``--concurrent N``: the games in one trio run, N at a time (a nursery); reports
    throughput and resident memory. Returns the outcomes and the most games in flight."""
    flight = _Flight()
    before = resident_kb()
    start = time.perf_counter()
    outcomes = trio.run(_concurrent_run, seeds, n, Progress(len(seeds), progress), flight)
    elapsed = time.perf_counter() - start
    peak = peak_kb()
    decisions = _totals(outcomes)[0]
    out.append(f"concurrent: {describe(seeds)} in one trio run, up to {n} in flight; "
               f"{elapsed:.2f} s, results {_results(outcomes)}")
    out.append(f"games in flight at most: {flight.peak}   games/s: {len(seeds) / elapsed:.2f}   "
               f"decisions/s: {decisions / elapsed:.0f}")
    growth = flight.peak_rss - before
    out.append(f"resident memory: {flight.peak_rss / 1024:.1f} MB at most while the games ran, "
               f"{before / 1024:.1f} MB before: growth {growth / 1024:.1f} MB = "
               f"{growth / max(flight.peak, 1):.0f} kB per game in flight; process peak "
               f"(ru_maxrss) {peak / 1024:.1f} MB (target: 1,000 games in flight under 150 MB)")
    return outcomes, flight.peak
