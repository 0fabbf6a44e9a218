"""Playing a tournament's games in worker processes (``--jobs J``): ``Processes``.

Each worker is ``python -m spellstack.tournament._worker_main``, spoken to over its stdin and
stdout in frames (``_ipc``). A game goes to the live worker with the fewest games in flight.
A worker that dies (its stdout ends, its stdin's pipe breaks, it sends a malformed frame)
loses only its games in flight: each is played again from its spec on another worker, which
gives the same row, since a game depends only on its spec. A game is played at most three
times: if its worker died each time, its row says so. A game played again is a suspect (it
may be what killed the worker), and no worker plays two suspects at once, so a game that
kills every worker it meets costs each game beside it one life, not all three.

A worker also watches a pipe from the tournament (its lifeline, named by ``LIFELINE_ENV``)
in a thread of its own, and exits at once when it ends: a tournament killed by any signal
takes its workers with it even while one is stuck (a ``--trust`` bot spinning on its event
loop keeps it from reading its stdin), and with them every bot process they started.

No task runs in the background: a game's own ``play`` call reads its worker's stdout, or
waits while another game's call does. One call at a time reads from a worker; when it has its
row it hands the reading to another game in flight on that worker.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import trio

from ._games import DEFAULT_DEADLINE, GameRow, GameSpec
from ._ipc import FrameError, FrameReader, WorkerEntrant, decode_row, encode_frame, game_message, setup_message

__all__ = ["EXIT_GRACE", "LIFELINE_ENV", "MAX_DEATHS", "WORKER_MODULE", "Processes", "WorkerEntrant",
           "WorkerSetupError", "died_row"]

WORKER_MODULE = "spellstack.tournament._worker_main"
"""The module a worker process runs (``python -m``)."""

LIFELINE_ENV = "SPELLSTACK_WORKER_LIFELINE"
"""The environment variable that gives a worker the file descriptor of its lifeline's read end."""

MAX_DEATHS = 3
"""How many times a game's worker may die while playing it before the game is given up."""

EXIT_GRACE = 5.0
"""Seconds a worker has to exit by itself (after its stdout ended, or its stdin was closed)
before it is killed."""


class WorkerSetupError(RuntimeError):
    """A worker process refused the tournament's setup (say, a bot spec that loads in the
    tournament's process but not in a fresh one): no game can be played in workers."""


def died_row(spec: GameSpec, deaths: int, last: str) -> GameRow:
    """The row of a game given up after its worker died ``deaths`` times playing it, the last
    time as ``last`` says: a draw by engine error, nothing played."""
    return GameRow(spec.game_id, spec.round, spec.match, spec.number, spec.seed, spec.entrants,
                   spec.bot_seeds, -1 if spec.chooser is None else spec.chooser, -1,
                   (0,) * len(spec.entrants), -1,
                   f"engine error: worker process died {deaths} times playing this game (last: {last})",
                   0, 0, "")


def _exit_description(returncode: int) -> str:
    """How a process ended, from its return code."""
    if returncode >= 0:
        return f"exit code {returncode}"
    try:
        return f"signal {signal.Signals(-returncode).name}"
    except ValueError:
        return f"signal {-returncode}"


class _Slot:
    """One game sent to one worker, until its row comes or its worker dies."""

    def __init__(self, ticket: int, spec: GameSpec, suspect: bool) -> None:
        self.ticket = ticket
        """The game's number on the wire (unique among everything sent by its ``Processes``)."""
        self.spec = spec
        """The game."""
        self.suspect = suspect
        """A worker died playing this game before (it may be what kills workers)."""
        self.wake = trio.Event()
        """Set when ``row`` or ``death`` is, or when the slot's call is to read its worker."""
        self.row: GameRow | None = None
        """The game's row, once it came."""
        self.death: str | None = None
        """How its worker died while playing it, if it did."""
        self.sent = False
        """Its frame went to the worker (or broke the pipe trying): a death now counts."""
        self.abandoned = False
        """Its call was cancelled: the row, if it comes, is dropped."""

    @property
    def settled(self) -> bool:
        """The row came or the worker died."""
        return self.row is not None or self.death is not None


class _Worker:
    """One worker process and the games in flight on it."""

    def __init__(self, process: trio.Process) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process = process
        """The process."""
        self.stdin: trio.abc.SendStream = process.stdin
        """Its stdin: frames to it."""
        self.frames = FrameReader(process.stdout)
        """Its stdout: frames from it."""
        self.sending = trio.Lock()
        """Held while a frame is written to its stdin."""
        self.pending: dict[int, _Slot] = {}
        """Games in flight on it, by ticket."""
        self.reader: _Slot | None = None
        """The game whose call reads its stdout now, if any."""
        self.suspect: _Slot | None = None
        """The suspect game in flight on it, if any (never more than one)."""
        self.dead = False
        """No more games go to it (it died, or is being killed)."""
        self.buried = False
        """It has been reaped and its games in flight told."""
        self.lifeline: int | None = None
        """The write end of its lifeline, until it is reaped."""

    def cut_lifeline(self) -> None:
        """Close the lifeline's write end (the worker is gone: nothing to tell it)."""
        if self.lifeline is not None:
            os.close(self.lifeline)
            self.lifeline = None

    async def send(self, frame: bytes, slot: _Slot) -> bool:
        """Write ``frame``, the game of ``slot`` (in ``pending`` already); False, and the
        slot out of ``pending``, if the worker died first. A broken pipe kills the process:
        its stdout then ends and the reading call buries it. Once begun, a write is not
        cancelled (half a frame would break the stream): frames are small and a worker always
        reads its stdin."""
        async with self.sending:
            if self.dead or slot.settled:
                self.pending.pop(slot.ticket, None)
                return False
            slot.sent = True
            with trio.CancelScope(shield=True):
                try:
                    await self.stdin.send_all(frame)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    self.dead = True
                    self.process.kill()
        return True


class Processes:
    """Plays games in ``jobs`` worker processes, ``concurrency`` at a time in each.

    Workers start with the first game. ``entrants`` are the tournament's, by index, as
    plain data: each worker rebuilds them (``load_bot`` of the bot spec), so a bot spec must
    load the same in a fresh process. ``command`` is how to start a worker, by default this
    Python running ``WORKER_MODULE``.
    """

    def __init__(self, entrants: Sequence[WorkerEntrant], jobs: int, concurrency: int,
                 trace_dir: Path | None = None, *, command: Sequence[str] | None = None,
                 deadline: float = DEFAULT_DEADLINE) -> None:
        if jobs < 1 or concurrency < 1:
            raise ValueError(f"jobs and concurrency must be at least 1 (got {jobs} and {concurrency})")
        self.entrants = tuple(entrants)
        """Every entrant of the tournament, by index."""
        self.jobs = jobs
        """Worker processes (``--jobs``)."""
        self.concurrency = concurrency
        """Games in flight at once in each worker (``--concurrency``)."""
        self.capacity = jobs * concurrency
        """Games in flight at once in all."""
        self.trace_dir = None if trace_dir is None else Path(os.path.abspath(trace_dir))
        """Where each game's trace goes (absolute: workers may start elsewhere), or None."""
        self.command = tuple(command) if command is not None else (sys.executable, "-m", WORKER_MODULE)
        """The worker's command line."""
        self.started = 0
        """Worker processes started so far, replacements of dead ones included."""
        self.replayed = 0
        """Times a game was sent again because its worker died playing it."""
        self.deadline = deadline
        """Seconds each seat has for each decision."""
        self._setup = encode_frame(setup_message(self.entrants, concurrency, self.trace_dir, deadline))
        self._workers: list[_Worker | None] = [None] * jobs
        self._everyone: list[_Worker] = []
        self._starting = trio.Lock()
        self._tickets = itertools.count()
        self._closed = False
        self._refused: str | None = None
        self._suspect_left = trio.Event()

    def pids(self) -> list[int]:
        """The process ids of the live workers."""
        return [w.process.pid for w in self._workers if w is not None and not w.dead]

    def in_flight(self) -> dict[int, int]:
        """Games in flight on each live worker, by its process id."""
        return {w.process.pid: len(w.pending) for w in self._workers if w is not None and not w.dead}

    async def play(self, spec: GameSpec) -> GameRow:
        """Play the game in a worker; its row (``died_row`` if its worker died playing it
        ``MAX_DEATHS`` times). ``trio.ClosedResourceError`` once ``aclose`` has begun;
        ``WorkerSetupError`` if a worker refused the setup."""
        deaths = 0
        while True:
            slot = _Slot(next(self._tickets), spec, suspect=deaths > 0)
            worker = await self._worker(slot)
            await self._play_on(worker, slot)
            if slot.row is not None:
                return slot.row
            self._check_usable()
            if slot.death is not None and slot.sent:
                deaths += 1
                if deaths >= MAX_DEATHS:
                    return died_row(spec, deaths, slot.death)
                self.replayed += 1

    async def aclose(self) -> None:
        """Close every worker's stdin, give them ``EXIT_GRACE`` seconds to exit, kill the
        rest; games in flight are abandoned (their calls raise ``trio.ClosedResourceError``)."""
        self._closed = True
        with trio.CancelScope(shield=True):
            async with self._starting:
                running = [w for w in self._everyone if w.process.returncode is None]
                for w in running:
                    await w.stdin.aclose()
                with trio.move_on_after(EXIT_GRACE):
                    for w in running:
                        await w.process.wait()
                for w in self._everyone:
                    if w.process.returncode is None:
                        w.process.kill()
                    await w.process.wait()
                    w.cut_lifeline()
                    await w.stdin.aclose()
                    await w.frames.stream.aclose()

    async def start(self) -> None:
        """Start the workers now, rather than with the first game (a worker's start-up, mostly
        imports and loading the cards, then overlaps with whatever comes next)."""
        await self._live()

    def _check_usable(self) -> None:
        """Raise if no more games may be played: closed, or the setup was refused."""
        if self._closed:
            raise trio.ClosedResourceError("the tournament's worker processes are closed")
        if self._refused is not None:
            raise WorkerSetupError(f"a worker process refused the tournament: {self._refused}")

    async def _live(self) -> list[_Worker]:
        """The live workers, starting a new one in place of each that is missing or dead."""
        async with self._starting:
            self._check_usable()
            for i, worker in enumerate(self._workers):
                if worker is None or worker.dead:
                    self._workers[i] = await self._start()
            return [w for w in self._workers if w is not None]

    async def _worker(self, slot: _Slot) -> _Worker:
        """The live worker with the fewest games in flight, ``slot`` now in flight there (at
        once: a game choosing next must count it). A suspect game waits for a worker with no
        other suspect: a game that kills its worker every time then takes each game it meets
        down with it once at most, never three times."""
        while True:
            live = await self._live()
            choices = [w for w in live if w.suspect is None] if slot.suspect else live
            if choices:
                worker = min(choices, key=lambda w: len(w.pending))
                worker.pending[slot.ticket] = slot
                if slot.suspect:
                    worker.suspect = slot
                return worker
            await self._suspect_left.wait()

    async def _start(self) -> _Worker:
        """A new worker process, its setup sent."""
        # Both ends are close-on-exec: only this worker gets the read end (``pass_fds``).
        lifeline, keep = os.pipe()
        try:
            process = await trio.lowlevel.open_process(
                list(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                pass_fds=(lifeline,), env={**os.environ, LIFELINE_ENV: str(lifeline)})
        except BaseException:
            os.close(keep)
            raise
        finally:
            os.close(lifeline)
        worker = _Worker(process)
        worker.lifeline = keep
        self._everyone.append(worker)
        self.started += 1
        async with worker.sending:
            with trio.CancelScope(shield=True):
                # A worker that is gone already breaks the pipe again with its first game,
                # which then counts the death.
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await worker.stdin.send_all(self._setup)
        return worker

    async def _play_on(self, worker: _Worker, slot: _Slot) -> None:
        """Send the game to ``worker`` and wait until its slot is settled, reading the worker's
        stdout whenever no other call is; returns unsettled, or settled but not sent, if the
        worker died before the game went."""
        try:
            if not await worker.send(encode_frame(game_message(slot.ticket, slot.spec)), slot):
                return
            while not slot.settled:
                if worker.reader is None and not worker.buried:
                    worker.reader = slot
                if worker.reader is slot:
                    await self._read(worker, slot)
                else:
                    await slot.wake.wait()
                    slot.wake = trio.Event()
        finally:
            if not slot.sent:
                worker.pending.pop(slot.ticket, None)
            elif not slot.settled:
                slot.abandoned = True
            if worker.reader is slot:
                self._hand_over(worker)
            if worker.suspect is slot:
                worker.suspect = None
                self._suspect_left.set()
                self._suspect_left = trio.Event()

    async def _read(self, worker: _Worker, slot: _Slot) -> None:
        """Read ``worker``'s rows, settling their slots, until ``slot`` is settled."""
        while not slot.settled:
            try:
                message = await worker.frames.receive()
                if message is None:
                    await self._bury(worker, None)
                    return
                if message.get("t") == "refused":
                    self._refused = str(message.get("reason"))
                    await self._bury(worker, f"refused the setup: {self._refused}")
                    return
                ticket, row = decode_row(message)
                found = worker.pending.get(ticket)
                if found is None or found.spec.game_id != row.game_id:
                    raise FrameError(f"a row of game {row.game_id!r} under ticket {ticket}, not in flight there")
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                await self._bury(worker, None)
                return
            except FrameError as exc:
                worker.dead = True
                worker.process.kill()
                await self._bury(worker, f"malformed frame: {exc}")
                return
            del worker.pending[ticket]
            found.row = row
            found.wake.set()

    def _hand_over(self, worker: _Worker) -> None:
        """The reading call is leaving: another game's call in flight there reads next."""
        worker.reader = None
        if worker.buried:
            return
        for other in worker.pending.values():
            if not other.abandoned:
                worker.reader = other
                other.wake.set()
                return

    async def _bury(self, worker: _Worker, cause: str | None) -> None:
        """``worker`` died (as ``cause`` says, else as its exit status says): reap it, killing
        it if it does not exit within ``EXIT_GRACE``, and settle every game in flight on it."""
        worker.dead = True
        if worker.buried:
            return
        with trio.CancelScope(shield=True):
            with trio.move_on_after(EXIT_GRACE):
                await worker.process.wait()
            if worker.process.returncode is None:
                worker.process.kill()
            returncode = await worker.process.wait()
            worker.cut_lifeline()
            await worker.stdin.aclose()
            await worker.frames.stream.aclose()
        worker.buried = True
        death = cause if cause is not None else _exit_description(returncode)
        for slot in worker.pending.values():
            slot.death = death
            slot.wake.set()
        worker.pending.clear()
        worker.reader = None
