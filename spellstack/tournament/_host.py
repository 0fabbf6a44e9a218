"""A tournament from start to end: its results database opened (or resumed), its games played
in this process or in worker processes, each recorded as it ends."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ._executors import Executor, InProcess
from ._games import GameRow, Seat, untimed
from ._run import Played, TournamentSettings, run_tournament
from ._store import DEFAULT_DB, ResultsStore
from ._wire import WorkerEntrant
from ._workers import Processes, WorkerSetupError

__all__ = ["play_tournament"]


async def play_tournament(settings: TournamentSettings, *, db: Path | str = DEFAULT_DB,
                          resume: bool = False, jobs: int = 1, concurrency: int = 8,
                          trace_dir: Path | None = None,
                          progress: Callable[[int, int, GameRow | None], None] | None = None) -> Played:
    """Play ``settings``'s tournament, every game written to the results database ``db`` the
    moment it ends; returns what it came to.

    ``resume``: the database holds this tournament already (it was stopped, or killed): only
    the games it lacks are played. Without it, every game is played; one the database holds
    already is checked against it (``Played.checked``, and ``Played.mismatched`` for any that
    came out differently: the recorded row is kept), the others are recorded. ``jobs``:
    worker processes (1: the games are played in this process). ``concurrency``: games at
    once in each process. ``trace_dir``: each game's trace, as ``GAME_ID.jsonl``.
    ``progress(done, total, game)``: called after each game (``run_tournament``).
    Raises ``StoreError`` for a database that can't be used as asked.
    """
    names = tuple(e.name for e in settings.entrants)
    store = ResultsStore(Path(db))
    try:
        recorded = {row.game_id: row for row in
                    store.open_tournament(settings.as_dict(), names, resume=resume)}
        mismatched: list[tuple[GameRow, GameRow]] = []
        if resume:
            done, record = recorded, store.record
        else:
            # Played again from the start: a game the database holds already is checked
            # against it (the same seed must give the same game), the others are recorded.
            done = {}

            def record(row: GameRow) -> None:
                before = recorded.get(row.game_id)
                if before is None:
                    store.record(row)
                elif untimed(before) != untimed(row):
                    mismatched.append((before, row))
        executor: Executor
        if jobs == 1:
            executor = InProcess([Seat(e.name, e.deck, e.factory) for e in settings.entrants],
                                 concurrency, trace_dir, settings.deadline)
        else:
            executor = Processes([WorkerEntrant(e.name, e.bot, e.deck, settings.trust)
                                  for e in settings.entrants],
                                 jobs, concurrency, trace_dir, deadline=settings.deadline)
        try:
            played = await run_tournament(settings, executor, done, record, progress)
        except BaseExceptionGroup as group:
            # Every match's game failed the same way when the workers refused their setup:
            # the caller is told that once, not in a group of as many matches.
            refused, others = group.split(WorkerSetupError)
            if refused is not None and others is None:
                raise _first(refused) from None
            raise
        finally:
            await executor.aclose()
        if not resume:
            played.checked = sum(1 for row in played.rows if row.game_id in recorded)
        played.mismatched = mismatched
        if isinstance(executor, Processes):
            played.replayed = executor.replayed
            played.workers = executor.started
        return played
    finally:
        store.close()


def _first(group: BaseExceptionGroup[WorkerSetupError]) -> WorkerSetupError:
    """The first exception of a group of them (nested groups opened)."""
    first: BaseException = group
    while isinstance(first, BaseExceptionGroup):
        first = first.exceptions[0]
    assert isinstance(first, WorkerSetupError)
    return first
