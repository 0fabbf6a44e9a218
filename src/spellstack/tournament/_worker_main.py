"""A tournament's worker process, run as ``python -m spellstack.tournament._worker_main`` by
``Processes``: it reads the setup and then games from its stdin, plays up to the setup's
``concurrency`` of them at once in one trio run, and writes each game's row to its stdout
(frames: ``_ipc``). It exits when its stdin ends (the tournament closed it, or died), so a
worker never outlives its tournament; games still in flight then are abandoned.

Its stdout carries frames only: anything else printing there (a bot's ``print``) goes to
stderr instead. Ctrl-C is the tournament's to handle: a worker ignores SIGINT and stops when
the tournament closes its stdin.

It also exits at once, from a thread of its own, when its lifeline ends (the tournament
died), even while a game holds its event loop; the bot processes it started then end with it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Sequence

import trio

from .._collector import tune_collector
from ..cards import load_cards
from ._games import Contestant, GameSpec, play_spec
from ._ipc import (
    FrameError,
    FrameReader,
    Setup,
    decode_game,
    decode_setup,
    encode_frame,
    refused_message,
    row_message,
    seats_of,
)
from ._workers import LIFELINE_ENV

__all__ = ["main"]

SETUP_FAILED = 2
"""The exit code of a worker whose setup frame it could not use."""
TOURNAMENT_GONE = 3
"""The exit code of a worker whose tournament died (its lifeline ended)."""


def main() -> None:
    """Serve one tournament on stdin and stdout; exit when stdin ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    tune_collector()
    lifeline = os.environ.pop(LIFELINE_ENV, None)  # popped: its bots don't inherit it
    if lifeline is not None and lifeline.isdigit():
        threading.Thread(target=_watch_lifeline, args=(int(lifeline),), daemon=True,
                         name="spellstack lifeline").start()
    frames_in, frames_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    sys.exit(trio.run(_serve, frames_in, frames_out))


def _watch_lifeline(fd: int) -> None:
    """Exit the process when the tournament's end of the pipe ``fd`` closes."""
    os.set_inheritable(fd, False)
    while True:
        try:
            if not os.read(fd, 4096):
                break
        except InterruptedError:
            continue
        except OSError:
            break
    os._exit(TOURNAMENT_GONE)


async def _serve(frames_in: int, frames_out: int) -> int:
    """Read the setup, then play every game that comes until stdin ends; the exit code."""
    reader = FrameReader(trio.lowlevel.FdStream(frames_in))
    out = trio.lowlevel.FdStream(frames_out)
    first = await reader.receive()
    if first is None:
        return 0
    try:
        setup = decode_setup(first)
        seats = seats_of(setup.entrants)
    except (FrameError, ValueError) as exc:
        # Said on stdout too, so the tournament stops rather than playing each game again.
        print(f"spellstack worker: bad setup: {exc}", file=sys.stderr)
        with contextlib.suppress(trio.BrokenResourceError):
            await out.send_all(encode_frame(refused_message(str(exc))))
        return SETUP_FAILED
    load_cards()
    limiter = trio.CapacityLimiter(setup.concurrency)
    sending = trio.Lock()
    async with trio.open_nursery() as nursery:
        while (message := await reader.receive()) is not None:
            ticket, spec = decode_game(message)
            nursery.start_soon(_play, ticket, spec, seats, setup, limiter, sending, out,
                               nursery.cancel_scope)
        nursery.cancel_scope.cancel()
    return 0


async def _play(ticket: int, spec: GameSpec, seats: Sequence[Contestant], setup: Setup,
                limiter: trio.CapacityLimiter, sending: trio.Lock, out: trio.lowlevel.FdStream,
                everything: trio.CancelScope) -> None:
    """Play one game when the limiter lets it and send its row; if the tournament has gone
    (the pipe is broken), stop everything."""
    async with limiter:
        row = await play_spec(spec, seats, trace_dir=setup.trace_dir, deadline=setup.deadline)
    frame = encode_frame(row_message(ticket, row))
    async with sending:
        try:
            await out.send_all(frame)
        except trio.BrokenResourceError:
            everything.cancel()


if __name__ == "__main__":
    main()
