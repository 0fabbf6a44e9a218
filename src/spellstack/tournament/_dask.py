"""Playing a tournament's games on a Dask cluster (``--backend dask``): ``Dask``.

Games are sent in batches (``play_batch``, one call of a plain function per batch): the
games given to ``play`` wait until ``batch_size`` of them are waiting, or ``linger`` seconds
after the first one came, and then go as one task. The runner hands games over as earlier ones
end (a match's next game depends on its last), so the games of a batch that ends come back
together and leave together. A batch's rows depend only on its specs, so how games are batched
never changes a row.

A batch whose worker dies is run again by Dask elsewhere (up to the scheduler's
``allowed-failures``), and one whose games raised is tried ``RETRIES`` more times. A batch of
several games that fails for good so is split, each game sent alone, so that the game that
kills its workers is the only one given up: its row says ``engine error``, as ``Processes``
says it. A failure that is not the games' doing (a machine that can't even read the batch:
spellstack missing there, or another version) stops the tournament with a ``ClusterError``,
and nothing is recorded for its games.

Dask is imported only here, and only when a ``Dask`` starts: without it the tournament says
to install it (``pip install 'spellstack[dask]'``). The trio run never waits on Dask: a
batch's result is fetched in Dask's own callback thread and handed to trio through its token.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from importlib import import_module
from pathlib import Path
from typing import Any

import trio

from .._collector import tune_collector
from ._batches import Batch, play_batch
from ._games import DEFAULT_DEADLINE, GameRow, GameSpec
from ._ipc import WorkerEntrant
from ._workers import MAX_DEATHS, WorkerSetupError, died_row

# Much of distributed has no type hints: its client, cluster and futures are typed as Any here.
Client = Any
LocalCluster = Any
Future = Any

__all__ = ["CONNECT_TIMEOUT", "LINGER", "LOCAL_CLUSTER_CONFIG", "RETRIES", "WORKERS_TIMEOUT", "ClusterError", "Dask"]

CONNECT_TIMEOUT = 10.0
"""Seconds to reach a scheduler before giving up on it."""
WORKERS_TIMEOUT = 30.0
"""Seconds to wait for a scheduler's first worker."""
LINGER = 0.05
"""Seconds a batch waits, after its first game came, for more games before it goes."""
RETRIES = MAX_DEATHS - 1
"""Times a batch that raised is tried again (and the deaths a local cluster's scheduler allows
a batch's workers before it gives the batch up)."""
LOCAL_CLUSTER_CONFIG = {
    "distributed.scheduler.allowed-failures": RETRIES,
    "distributed.scheduler.worker-saturation": 1.0,
}
"""Dask's settings for the local cluster it starts (whose scheduler runs in this process): a
batch is given up after as many worker deaths as ``Processes`` allows a game
(``MAX_DEATHS``), and a worker holds no batch it is not playing, so that a batch is never
blamed for the death of a worker that was busy with another."""
INSTALL = "pip install 'spellstack[dask]'"
"""How to install what the Dask backend needs."""


class ClusterError(RuntimeError):
    """The Dask backend can't be used: Dask not installed, a scheduler that can't be reached
    or has no workers, a scheduler that dropped the tournament's games."""


class _Waiter:
    """One game given to ``play``, until its row (or the reason there is none) comes."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        """The game."""
        self.done = trio.Event()
        """Set when ``row`` or ``error`` is."""
        self.row: GameRow | None = None
        """Its row, once it came."""
        self.error: BaseException | None = None
        """Why ``play`` raises instead (the setup refused, the cluster gone or closed)."""

    def settle(self, row: GameRow | None = None, error: BaseException | None = None) -> None:
        """Give the game its row or its error (the first one given counts)."""
        if not self.done.is_set():
            self.row, self.error = row, error
            self.done.set()


class _Group:
    """The games waiting to go as the next batch."""

    def __init__(self) -> None:
        self.waiters: list[_Waiter] = []
        """Its games, in the order they came."""
        self.sent = trio.Event()
        """Set when it has gone."""


class Dask:
    """Plays games on a Dask cluster in batches of up to ``batch_size``, each played
    ``concurrency`` at a time on one worker; ``capacity`` is the workers the cluster had at
    the start times ``concurrency``. Make one with ``Dask.start``.

    ``entrants`` are the tournament's, by index, as plain data: each batch loads their bots
    again from their specs on its worker, so a bot spec must load there (a bot file at the
    same path on every worker machine)."""

    def __init__(self, client: Client, cluster: LocalCluster | None, address: str, workers: int,
                 entrants: Sequence[WorkerEntrant], concurrency: int, trace_dir: Path | None,
                 deadline: float, batch_size: int, linger: float) -> None:
        if concurrency < 1 or batch_size < 1:
            raise ValueError(f"concurrency and batch_size must be at least 1 (got {concurrency} "
                             f"and {batch_size})")
        self.client = client
        """The connection to the scheduler."""
        self.cluster = cluster
        """The local cluster it started (no ``--scheduler``), or None."""
        self.address = address
        """The scheduler's address."""
        self.entrants = tuple(entrants)
        """Every entrant of the tournament, by index."""
        self.concurrency = concurrency
        """Games at once in each batch (``--concurrency``)."""
        self.workers = workers
        """The cluster's workers when it started."""
        self.capacity = max(1, self.workers) * concurrency
        """Games in flight at once in all."""
        self.trace_dir = None if trace_dir is None else Path(os.path.abspath(trace_dir))
        """Where each game's trace goes (absolute, on the worker's machine), or None."""
        self.deadline = deadline
        """Seconds each seat has for each decision."""
        self.batch_size = batch_size
        """Games that make a batch go at once."""
        self.linger = linger
        """Seconds a batch with fewer games waits for more."""
        self.batches = 0
        """Batches sent so far (a game sent alone after its batch failed counts as one)."""
        self._token = trio.lowlevel.current_trio_token()
        self._open = _Group()
        self._in_flight: set[_Waiter] = set()
        self._futures: set[Future] = set()  # a future nobody holds is dropped by Dask
        self._closed = False

    @classmethod
    async def start(cls, entrants: Sequence[WorkerEntrant], *, scheduler: str | None = None,
                    jobs: int = 2, concurrency: int = 8, trace_dir: Path | None = None,
                    deadline: float = DEFAULT_DEADLINE, batch_size: int | None = None,
                    linger: float = LINGER) -> Dask:
        """Connect to the scheduler at ``scheduler`` (such as ``tcp://10.0.0.5:8786``) or,
        without one, start a local cluster of ``jobs`` worker processes; the executor, once
        the cluster has a worker. ``batch_size``: by default ``concurrency``.

        Raises ``ClusterError`` (naming the address) if Dask is not installed, the scheduler
        can't be reached within ``CONNECT_TIMEOUT`` or has no worker within
        ``WORKERS_TIMEOUT``."""
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1 (got {jobs})")
        client, cluster, address, workers = await trio.to_thread.run_sync(
            partial(_connect, scheduler, jobs), abandon_on_cancel=True)
        try:
            # Bot files given by a relative path are found from the working folder here.
            shipped = [replace(e, bot=_absolute(e.bot)) for e in entrants]
            return cls(client, cluster, address, workers, shipped, concurrency, trace_dir, deadline,
                       concurrency if batch_size is None else batch_size, linger)
        except BaseException:
            await trio.to_thread.run_sync(_close, client, cluster)
            raise

    async def play(self, spec: GameSpec) -> GameRow:
        """Play the game in a batch on the cluster; its row (an ``engine error`` row if it
        was given up). ``trio.ClosedResourceError`` once ``aclose`` has begun;
        ``WorkerSetupError`` if a worker could not play the tournament (another spellstack
        version, a bot spec that does not load there); ``ClusterError`` if the scheduler
        dropped the game."""
        if self._closed:
            raise trio.ClosedResourceError("the tournament's Dask client is closed")
        waiter = _Waiter(spec)
        group = self._open
        group.waiters.append(waiter)
        self._in_flight.add(waiter)
        try:
            if len(group.waiters) >= self.batch_size:
                self._flush()
            elif len(group.waiters) == 1:
                # The batch's first game waits a moment for others, then sends what came.
                with trio.move_on_after(self.linger):
                    await group.sent.wait()
                if self._open is group:
                    self._flush()
            await waiter.done.wait()
        finally:
            self._in_flight.discard(waiter)
            if self._open is group and waiter in group.waiters:
                # Cancelled before its batch went: the others go without it.
                group.waiters.remove(waiter)
                if group.waiters:
                    self._flush()
        if waiter.error is not None:
            raise waiter.error
        assert waiter.row is not None
        return waiter.row

    async def aclose(self) -> None:
        """Close the client (and the local cluster it started); games in flight are
        abandoned (their calls raise ``trio.ClosedResourceError``)."""
        if self._closed:
            return
        self._closed = True
        for waiter in [*self._open.waiters, *self._in_flight]:
            waiter.settle(error=trio.ClosedResourceError("the tournament's Dask client is closed"))
        self._open = _Group()
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(_close, self.client, self.cluster)

    def _flush(self) -> None:
        """Send the games waiting as one batch."""
        group, self._open = self._open, _Group()
        group.sent.set()
        self._submit(group.waiters)

    def _submit(self, group: list[_Waiter]) -> None:
        """Send ``group``'s games as a batch; each gets its row when the batch ends."""
        batch = Batch(self.entrants, tuple(w.spec for w in group), self.concurrency,
                      self.trace_dir, self.deadline)
        try:
            future = self.client.submit(_run_batch, batch, self.cluster is not None, pure=False,
                                        retries=RETRIES)
        except Exception as exc:
            lost = ClusterError(f"the Dask scheduler at {self.address} took no games: {exc}")
            for waiter in group:
                waiter.settle(error=lost)
            return
        self.batches += 1
        self._futures.add(future)
        future.add_done_callback(partial(self._ended, group))

    def _ended(self, group: list[_Waiter], future: Future) -> None:
        """In Dask's callback thread: fetch the batch's rows (or its failure) and hand them to
        the trio run."""
        outcome: list[GameRow] | BaseException
        while True:
            try:
                outcome = future.result(timeout=CONNECT_TIMEOUT)
            except TimeoutError as exc:
                # The batch ended, but its rows were lost with the worker that held them (a
                # game of another batch may have killed it): Dask computes it again and says
                # so ("pending"). Wait on for that, not give its games up.
                if future.status == "pending" and not self._closed:
                    continue
                outcome = exc
            except BaseException as exc:
                outcome = exc
            break
        with contextlib.suppress(trio.RunFinishedError):
            self._token.run_sync_soon(self._settle, group, future, outcome)

    def _settle(self, group: list[_Waiter], future: Future, outcome: list[GameRow] | BaseException) -> None:
        """In the trio run: give each game of a batch that ended its row, or deal with the
        batch's failure (never raises: it runs as a trio callback)."""
        self._futures.discard(future)
        try:
            if self._closed:
                return
            if not isinstance(outcome, BaseException):
                if [row.game_id for row in outcome] != [w.spec.game_id for w in group]:
                    raise ClusterError(f"a batch of {len(group)} games came back as {len(outcome)} "
                                       f"rows of other games")
                for waiter, row in zip(group, outcome, strict=True):
                    waiter.settle(row)
                return
            if isinstance(outcome, WorkerSetupError):
                refused = WorkerSetupError(f"a Dask worker refused the tournament: {outcome}")
                for waiter in group:
                    waiter.settle(error=refused)
                return
            if isinstance(outcome, asyncio.CancelledError):
                lost = ClusterError(f"the Dask scheduler at {self.address} dropped the "
                                    f"tournament's games ({outcome}); --resume plays the rest")
                for waiter in group:
                    waiter.settle(error=lost)
                return
            if not isinstance(outcome, _GameFailed | _killed_worker()):
                # Not the games' doing: the cluster can't run them (spellstack missing or
                # another version on a machine, the scheduler's included). Nothing is recorded.
                told = " ".join(f"{type(outcome).__name__}: {outcome}".split())
                broken = ClusterError(f"the Dask cluster at {self.address} can't play the "
                                      f"tournament's games (every machine, the scheduler's too, "
                                      f"needs this spellstack installed): {told}")
                for waiter in group:
                    waiter.settle(error=broken)
                return
            live = [w for w in group if not w.done.is_set()]
            if len(live) > 1:
                # Which game failed is not known: each goes again alone, so that only it is lost.
                for waiter in live:
                    self._submit([waiter])
                return
            for waiter in live:
                waiter.settle(_given_up(waiter.spec, outcome))
        except Exception as exc:
            for waiter in group:
                waiter.settle(error=exc)


def _given_up(spec: GameSpec, failure: BaseException) -> GameRow:
    """The row of a game whose batch (of it alone) failed for good: a draw by engine error."""
    if isinstance(failure, _killed_worker()):
        killed: Any = failure
        last = getattr(killed.last_worker, "address", killed.last_worker)
        return died_row(spec, int(killed.allowed_failures) + 1, f"Dask worker {last}")
    row = died_row(spec, RETRIES + 1, "")
    return replace(row, reason=f"engine error: playing this game raised {RETRIES + 1} times "
                               f"(last: {failure})")


def _killed_worker() -> type[Exception]:
    """Dask's exception for a task whose workers kept dying while they ran it."""
    killed: type[Exception] = import_module("distributed").KilledWorker
    return killed


def _absolute(bot: str) -> str:
    """A bot spec whose file (``path/to/file.py:Class``) is given by an absolute path."""
    where, colon, attr = bot.rpartition(":")
    if colon and where.endswith(".py") and not os.path.isabs(where):
        return f"{os.path.abspath(where)}:{attr}"
    return bot


class _GameFailed(RuntimeError):
    """A batch's own code raised (not Dask's, not the machine's): what it raised, as text."""


_stdout_moved = False
"""This process's stdout goes to its stderr (``_run_batch``)."""


def _run_batch(batch: Batch, quiet: bool) -> list[GameRow]:
    """On a worker: ``play_batch``, anything it raises but a refused setup as a
    ``_GameFailed`` (so that the tournament tells a failing game from a cluster that can't run
    games at all). ``quiet``: the worker is a local cluster's, whose stdout is the tournament's
    own; a bot that printed there would break the report, so it goes to stderr (and its
    collector is tuned as the command line's is; a remote cluster's workers are left as they
    are)."""
    global _stdout_moved
    if quiet and not _stdout_moved:
        sys.stdout.flush()
        os.dup2(2, 1)
        _stdout_moved = True
        tune_collector()  # the local cluster's workers are processes it started, as ours are
    try:
        return play_batch(batch)
    except WorkerSetupError:
        raise
    except Exception as exc:
        raise _GameFailed(f"{type(exc).__name__}: {exc}") from None


def _connect(scheduler: str | None, jobs: int) -> tuple[Client, LocalCluster | None, str, int]:
    """In a thread: a client of the scheduler at ``scheduler``, or of a local cluster of
    ``jobs`` workers it starts; the cluster started, if any, the scheduler's address and the
    workers it has."""
    try:
        dask: Any = import_module("dask")
        distributed: Any = import_module("distributed")
    except ImportError as exc:
        raise ClusterError(f"--backend dask needs Dask ({exc}): {INSTALL}") from None
    if scheduler is None:
        with dask.config.set(LOCAL_CLUSTER_CONFIG):
            cluster = distributed.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.ERROR)
        try:
            client = distributed.Client(cluster, set_as_default=False, timeout=CONNECT_TIMEOUT)
        except BaseException:
            cluster.close()
            raise
        return client, cluster, str(cluster.scheduler_address), len(client.nthreads())
    _probe(scheduler)
    try:
        client = distributed.Client(scheduler, set_as_default=False, timeout=CONNECT_TIMEOUT)
    except Exception as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler!r}: {exc}") from None
    try:
        client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
    except Exception:
        client.close()
        raise ClusterError(f"the Dask scheduler at {scheduler!r} has no workers after "
                           f"{WORKERS_TIMEOUT:g} s (start some: dask worker {scheduler})") from None
    return client, None, scheduler, len(client.nthreads())


def _probe(address: str) -> None:
    """Reach the scheduler at ``address`` once, within ``CONNECT_TIMEOUT`` (a client that
    fails to connect leaves noise behind when it is collected; a plain connection does not)."""
    comms: Any = import_module("distributed.comm")

    async def reach() -> None:
        comm = await comms.connect(address, timeout=CONNECT_TIMEOUT)
        await comm.close()

    try:
        asyncio.run(reach())
    except Exception as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address!r}: "
                           f"{str(exc) or type(exc).__name__}") from None


def _close(client: Client, cluster: LocalCluster | None) -> None:
    """In a thread: close the client, then the local cluster if one was started."""
    with contextlib.suppress(Exception):
        client.close()
    if cluster is not None:
        with contextlib.suppress(Exception):
            cluster.close()
