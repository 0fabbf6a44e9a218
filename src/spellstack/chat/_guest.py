"""``GuestRun``: a trio run as a guest of the running asyncio loop (``trio.lowlevel.start_guest_run``),
for the chat hosts' asyncio methods: one thread, both loops taking turns, so that trio code and
asyncio code share objects without locks."""

from __future__ import annotations

import asyncio
from typing import Any

import trio

__all__ = ["GuestRun", "NotRunning"]


class NotRunning(Exception):
    """The trio run is not going (not started yet, or stopped)."""


class GuestRun:
    """A trio run inside the running asyncio loop, with one nursery for its tasks."""

    def __init__(self) -> None:
        self.token: trio.lowlevel.TrioToken | None = None
        """The run's token, while it runs (``run_sync_soon`` calls into it)."""
        self.nursery: trio.Nursery | None = None
        """The nursery its tasks run in, while it runs."""
        self.loop: asyncio.AbstractEventLoop | None = None
        """The asyncio loop it is a guest of."""
        self._finished: asyncio.Future[Any] | None = None

    async def start(self) -> None:
        """Start the run as a guest of the running asyncio loop (``NotRunning`` never: an error
        starting it is raised)."""
        if self.token is not None:
            raise RuntimeError("the trio run has started already")
        loop = asyncio.get_running_loop()
        self.loop = loop
        started: asyncio.Future[None] = loop.create_future()
        finished: asyncio.Future[Any] = loop.create_future()
        self._finished = finished

        def done(outcome: Any) -> None:
            if not finished.done():
                finished.set_result(outcome)

        trio.lowlevel.start_guest_run(
            self._main, started,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            run_sync_soon_not_threadsafe=loop.call_soon,
            done_callback=done, host_uses_signal_set_wakeup_fd=True)
        await asyncio.wait([started, finished], return_when=asyncio.FIRST_COMPLETED)
        if not started.done():
            finished.result().unwrap()  # the trio run failed to start: raise its error

    async def _main(self, started: asyncio.Future[None]) -> None:
        self.token = trio.lowlevel.current_trio_token()
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            started.set_result(None)
            await trio.sleep_forever()

    async def stop(self) -> None:
        """Cancel every task of the run and wait for it to end (nothing if it is not running)."""
        token, nursery, finished = self.token, self.nursery, self._finished
        if token is None or nursery is None or finished is None:
            return
        token.run_sync_soon(nursery.cancel_scope.cancel)
        await finished
        self.token = self.nursery = None

    def require(self) -> tuple[trio.lowlevel.TrioToken, trio.Nursery]:
        """The run's token and nursery; ``NotRunning`` if it is not running."""
        if self.token is None or self.nursery is None:
            raise NotRunning("the trio run is not going")
        return self.token, self.nursery
