"""A tournament from start to end: its results database opened (or resumed), its games played
in this process, in worker processes or on a Dask cluster, each recorded as it ends."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from ..seats import with_memory
from ._dask import ClusterError, Dask
from ._executors import Executor, InProcess
from ._games import Contestant, GameRow, lost_on_time, untimed
from ._ipc import WorkerEntrant
from ._keys import new_key
from ._row_writer import BATCH_SECONDS, RowWriter
from ._run import Played, RunningTournament, TournamentSettings, run_tournament
from ._sprt import SprtResult
from ._store import DEFAULT_DB, ResultsStore, StoreError
from ._workers import Processes, WorkerSetupError

__all__ = ["BACKENDS", "play_tournament"]

BACKENDS = ("local", "dask")
"""Where games may be played: ``local`` (this process, or ``jobs`` worker processes) or
``dask`` (a Dask cluster: ``_dask``)."""


async def play_tournament(settings: TournamentSettings, *, db: Path | str = DEFAULT_DB,
                          resume: bool = False, jobs: int = 1, concurrency: int = 8,
                          trace_dir: Path | None = None,
                          progress: Callable[[int, int, GameRow | None], None] | None = None,
                          backend: str = "local", scheduler: str | None = None,
                          running: RunningTournament | None = None,
                          resuming: Callable[[int], None] | None = None,
                          interim: Callable[[Sequence[GameRow], SprtResult | None], None] | None = None,
                          interval: int = 0, record_dir: Path | None = None,
                          batch_seconds: float = BATCH_SECONDS) -> Played:
    """Play ``settings``'s tournament, every game written to the results database ``db`` soon
    after it ends (in batches: ``RowWriter``); returns what it came to.

    ``resume``: the database holds this tournament already (it was stopped, or killed): only
    the games it lacks are played. Without it, every game is played; one the database holds
    already is checked against it (``Played.checked``, and ``Played.mismatched`` for any that
    came out differently: the recorded row is kept), the others are recorded. ``jobs``:
    worker processes (1: the games are played in this process). ``concurrency``: games at
    once in each process. ``trace_dir``: each game's trace, as ``GAME_ID.jsonl``.
    ``progress(done, total, game)``: called after each game (``run_tournament``).
    ``backend="dask"``: the games are played on the Dask cluster whose scheduler is at
    ``scheduler`` (such as ``tcp://10.0.0.5:8786``) or, without one, on a local cluster of
    ``jobs`` worker processes that it starts and stops (``Dask``); the results are the same.
    ``running``: a handle whose ``statistics()`` follow the tournament while it is played
    (``RunningTournament``). ``resuming(n)``: with ``resume``, called once before any game is
    played, with the number of games the database holds of the tournament. ``interim`` and
    ``interval``: the report of the games so far in schedule order (``run_tournament``).
    ``record_dir``: each game's compact record, as ``GAME_ID.json``. ``batch_seconds``: how
    long after a write the games that end may wait for the next (``RowWriter``; 0: each game
    written as it ends); ``progress`` is told of a game once it is written.
    The tournament's key: the one the database holds for it; for a new one, ``settings.key``,
    else the seed's, else a fresh secret key (``new_key``). ``Played.settings`` carries it.
    Raises ``StoreError`` for a database that can't be used as asked (or a write to it that
    failed), ``ClusterError`` for a Dask cluster that can't be, ``OSError`` for a trace that
    can't be written.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (backends: {', '.join(BACKENDS)})")
    if scheduler is not None and backend != "dask":
        raise ValueError("a scheduler is for the dask backend")
    names = tuple(e.name for e in settings.entrants)
    # Resuming only reads a file that holds results: none is made for a tournament it lacks.
    store = ResultsStore(Path(db), create=not resume)
    try:
        explicit = bool(settings.key) or settings.seed is not None
        proposed = settings.secret() if explicit else new_key()
        held, key = store.open_tournament(settings.as_dict(), names, resume=resume,
                                          key=proposed, explicit=explicit)
        settings = replace(settings, key=key)
        recorded = {row.game_id: row for row in held}
        mismatched: list[tuple[GameRow, GameRow]] = []
        unchecked: list[str] = []
        writer = RowWriter(store.record_many, seconds=batch_seconds)

        def told(done: int, total: int, row: GameRow | None) -> None:
            """``progress``, once the games so far are written: a game shown done is in the database."""
            if progress is not None:
                writer.after(lambda: progress(done, total, row))

        if resume:
            done, record = recorded, writer.record
            if resuming is not None:
                resuming(len(recorded))
        else:
            # Played again from the start: a game the database holds already is checked
            # against it (the same seed must give the same game), the others are recorded.
            done = {}

            def record(row: GameRow) -> None:
                before = recorded.get(row.game_id)
                if before is None:
                    writer.record(row)
                elif lost_on_time(before) or lost_on_time(row):
                    unchecked.append(row.game_id)  # the machine's speed decided it
                elif untimed(before) != untimed(row):
                    mismatched.append((before, row))
        executor: Executor
        if backend == "dask":
            executor = await Dask.start(_shipped(settings), scheduler=scheduler, jobs=jobs,
                                        concurrency=concurrency, trace_dir=trace_dir,
                                        deadline=settings.deadline)
        elif jobs == 1:
            executor = InProcess([Contestant(e.name, e.deck, with_memory(e.factory, settings.bot_memory))
                                  for e in settings.entrants],
                                 concurrency, trace_dir, settings.deadline)
        else:
            executor = Processes(_shipped(settings), jobs, concurrency, trace_dir,
                                 deadline=settings.deadline)
        try:
            try:
                played = await run_tournament(settings, executor, done, record,
                                              None if progress is None else told, running=running,
                                              interim=interim, interval=interval, record_dir=record_dir)
            except BaseException:
                # Stopped (Ctrl-C, a failure): the games that ended are kept all the same,
                # unless writing them is what failed.
                with contextlib.suppress(StoreError):
                    writer.flush()
                raise
            writer.flush()
        except BaseExceptionGroup as group:
            # Every match's game failed the same way when the workers refused their setup (or
            # the cluster went): the caller is told that once, not in a group of as many matches.
            # A write that failed (the database, a trace) ends every match the same way too.
            refused, others = group.split((WorkerSetupError, ClusterError, StoreError, OSError,
                                           sqlite3.Error))
            if refused is not None and others is None:
                raise _first(refused) from None
            raise
        finally:
            await executor.aclose()
        if not resume:
            played.checked = sum(1 for row in played.rows if row.game_id in recorded)
        played.mismatched = mismatched
        played.unchecked = unchecked
        if isinstance(executor, Processes):
            played.replayed = executor.replayed
            played.workers = executor.started
        elif isinstance(executor, Dask):
            played.workers = executor.workers
        return played
    finally:
        store.close()


def _shipped(settings: TournamentSettings) -> list[WorkerEntrant]:
    """The entrants as another process rebuilds them."""
    return [WorkerEntrant(e.name, e.bot, e.deck, settings.trust, settings.bot_memory)
            for e in settings.entrants]


def _first(group: BaseExceptionGroup[Exception]) -> Exception:
    """The first exception of a group of them (nested groups opened)."""
    first: BaseException = group
    while isinstance(first, BaseExceptionGroup):
        first = first.exceptions[0]
    assert isinstance(first, Exception)
    return first
