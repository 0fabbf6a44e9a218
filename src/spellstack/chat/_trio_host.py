"""``TrioGameHost``: ``GameHost`` for a program that runs trio itself (``spellstack serve`` hosts
chat games with it): the same games, texts and commands, its methods trio coroutines."""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import Any

import trio

from ._game_host import Answered, ChatError, Done, GameHost, Outbox, TextHook

__all__ = ["TrioGameHost"]


class _TrioOutbox:
    """A player's texts, in a trio memory channel."""

    def __init__(self) -> None:
        self._send, self._receive = trio.open_memory_channel[str | None](math.inf)

    def put_nowait(self, item: str | None) -> None:
        self._send.send_nowait(item)

    async def get(self) -> str | None:
        return await self._receive.receive()


class _TrioAnswer:
    """An answer a trio task waits for."""

    def __init__(self) -> None:
        self._set = trio.Event()
        self._result = ""

    def done(self) -> bool:
        return self._set.is_set()

    def set_result(self, result: str, /) -> None:
        self._result = result
        self._set.set()

    async def _wait(self) -> str:
        await self._set.wait()
        return self._result

    def __await__(self) -> Generator[Any, None, str]:
        return self._wait().__await__()


class TrioGameHost(GameHost):
    """A ``GameHost`` whose games run in its caller's trio run: start it with
    ``await nursery.start(host.run)``; cancelling that (or ``stop``) ends every game, each
    player told. Every other method is ``GameHost``'s, called from trio."""

    def __init__(self, *, on_text: TextHook | None = None) -> None:
        super().__init__(on_text=on_text)
        self._running: tuple[trio.lowlevel.TrioToken, trio.Nursery] | None = None

    async def run(self, *, task_status: trio.TaskStatus[TrioGameHost] = trio.TASK_STATUS_IGNORED) -> None:
        """Host games until cancelled (``nursery.start``: started once it can)."""
        if self._running is not None:
            raise ChatError("the host is running already")
        try:
            async with trio.open_nursery() as nursery:
                self._running = (trio.lowlevel.current_trio_token(), nursery)
                task_status.started(self)
                await trio.sleep_forever()
        finally:
            self._running = None

    async def start(self) -> None:
        """Refused: a trio program starts the host in a nursery of its own (``run``)."""
        raise ChatError("a TrioGameHost runs in its caller's trio run: `await nursery.start(host.run)`")

    async def stop(self) -> None:
        """End every game (its players are told); ``run`` returns."""
        if self._running is not None:
            self._running[1].cancel_scope.cancel()

    def _require(self) -> tuple[trio.lowlevel.TrioToken, trio.Nursery]:
        if self._running is None:
            raise ChatError("the host is not running: `await nursery.start(host.run)` first")
        return self._running

    def _queue(self) -> Outbox:
        return _TrioOutbox()

    def _future(self) -> Answered:
        return _TrioAnswer()

    def _event(self) -> Done:
        return trio.Event()
