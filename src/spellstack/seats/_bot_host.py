"""A Python class bot in a process of its own: ``python -m spellstack.seats._bot_host SPEC``
speaks the stdio bot protocol (``_stdio``) for the class ``SPEC`` names (``module:Class`` or
``path/to/file.py:Class``), so that a tournament runs such bots out of its own processes unless
told to trust them. ``--check SPEC`` only loads the class and builds one bot, as ``load_bot``
does, and exits: 0 if it loads, 2 with the reason on stderr if not.

It reads the hello, builds the bot with the hello's seed, says it is ready, and runs the engine's own player
actor for it, over stdin and stdout instead of channels: the bot sees exactly what it would see
in process (the rebuilt full view, its ``notify``, its ``stops``), and a bot that raises
forfeits with the same reason. Its stdout carries frames only: anything else printing there
(the bot's ``print``) goes to stderr instead.

The process runs under the bot's memory limit (set by its supervisor, ``_supervisor``). A bot
that runs out of memory (a ``MemoryError`` from building it, ``decide`` or ``notify``) ends
the process at once, saying ``MemoryError`` on stderr, which the relay reads as the limit
reached: the forfeit's reason names the limit, not the bot's exception. Any other exception
of the bot's, ``SystemExit`` and ``KeyboardInterrupt`` included, forfeits its seat as in
process (a constructor's at the first request); whatever else stops the host (a signal) is
said in one line on stderr, which the relay quotes.
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Awaitable
from typing import Any, NoReturn

import msgpack  # type: ignore[import-untyped]  # ships no type information
import trio

from ..actors import Link, Wire, error_text, player_actor, raise_unless_policys
from ..bots import Bot
from ._entrants import BotFactory, EntrantError, load_bot
from ._frames import FrameError, FrameReader, frame
from ._seat import unbuilt
from ._stdio import HELLO_VERSION, READY, ProcessBot

__all__ = ["main"]

BAD_SETUP = 2
"""The exit code when the bot can't be loaded or the hello can't be read."""
OUT_OF_MEMORY = 1
"""The exit code when the bot ran out of memory (as Python's own for an uncaught error)."""
STOPPED = 1
"""The exit code when something the player actor does not catch stopped the host (a signal's
``KeyboardInterrupt``): said in one line on stderr, as Python's own exit code for it."""
_MAX_FRAME = 16 * 1024 * 1024
"""The largest frame read from the engine (a full view of a big game is far smaller)."""


def main(argv: list[str] | None = None) -> None:
    """Host the bot ``argv`` names on stdin and stdout."""
    args = sys.argv[1:] if argv is None else argv
    check = args[:1] == ["--check"]
    if check:
        args = args[1:]
    if len(args) != 1:
        print("usage: python -m spellstack.seats._bot_host [--check] MODULE:CLASS",
              file=sys.stderr)
        sys.exit(BAD_SETUP)
    frames_in, frames_out = os.dup(0), os.dup(1)
    os.dup2(2, 1)  # a bot's print goes to stderr: stdout is the frames'
    try:
        factory = load_bot(args[0], trust=True)
    except EntrantError as err:
        print(err, file=sys.stderr)
        sys.exit(BAD_SETUP)
    if isinstance(factory, ProcessBot):  # a command: it is a process already
        print(f"bot {args[0]!r}: not a Python class (a stdio: bot runs as it is)", file=sys.stderr)
        sys.exit(BAD_SETUP)
    if check:
        sys.exit(0)
    try:
        code = trio.run(_serve, factory, frames_in, frames_out)
    except BaseException as err:  # one line naming it (the relay quotes it), not a traceback
        print(f"spellstack bot host: stopped by {error_text(_first(err))}", file=sys.stderr)
        code = STOPPED
    sys.exit(code)


def _first(err: BaseException) -> BaseException:
    """The first exception of a group of them (nested groups opened), or ``err``."""
    while isinstance(err, BaseExceptionGroup) and err.exceptions:
        err = err.exceptions[0]
    return err


async def _next(frames: FrameReader) -> bytes | None:
    """The next frame from the engine; None once the stream ends (or is cut, or sends a frame
    over ``_MAX_FRAME``, which the engine never does: said on stderr)."""
    try:
        return await frames.receive_payload()
    except FrameError as err:
        print(f"spellstack bot host: {err}", file=sys.stderr)
        return None


def _hello(data: bytes | None) -> dict[str, object] | None:
    """The hello frame's map, if it is one of ``HELLO_VERSION``."""
    if data is None:
        return None
    try:
        hello = msgpack.unpackb(data, raw=False)
    except Exception:  # msgpack raises several kinds of error for bad bytes
        return None
    if not isinstance(hello, dict) or hello.get("v") != HELLO_VERSION or type(hello.get("seed")) is not int:
        return None
    return hello


async def _serve(factory: BotFactory, frames_in: int, frames_out: int) -> int:
    """Read the hello, then play the seat until its game is over; the exit code."""
    frames = FrameReader(trio.lowlevel.FdStream(frames_in), _MAX_FRAME)
    stdout = trio.lowlevel.FdStream(frames_out)
    hello = _hello(await _next(frames))
    if hello is None:
        print(f"spellstack bot host: the first frame is not a hello of version {HELLO_VERSION}",
              file=sys.stderr)
        return BAD_SETUP
    seed = hello["seed"]
    assert isinstance(seed, int)
    bot: Bot | None = None
    try:
        bot = _Guarded(factory(seed))
    except MemoryError:
        _out_of_memory()
    except BaseException as err:  # the seat forfeits, as in process, with the reason
        raise_unless_policys(err)
        stand_in = unbuilt(err)
    # Built (or not: its stand-in forfeits at the first request, as in process): ready.
    await stdout.send_all(frame(msgpack.packb(READY)))
    players, seat = hello.get("players"), hello.get("seat")
    name = (players[seat] if isinstance(players, list) and type(seat) is int and 0 <= seat < len(players)
            else "bot")
    to_actor, inbox = trio.open_memory_channel[bytes](1)
    out, from_actor = trio.open_memory_channel[bytes](1)
    # The engine's messages are validated (``trusted=False``), as any client should.
    link = Link(Wire(str(hello.get("game", "")), None), f"player:{name}", "coordinator", out, inbox)

    async def read_in() -> None:
        async with to_actor:
            while (data := await _next(frames)) is not None:
                await to_actor.send(data)

    async def play() -> None:
        async with out:
            try:
                if bot is None:
                    await stand_in.play(link)
                else:
                    await player_actor(bot, link)
            except trio.EndOfChannel:  # the engine went away without a GameOver
                pass

    async with trio.open_nursery() as nursery:
        nursery.start_soon(read_in)
        nursery.start_soon(play)
        async with from_actor:
            async for data in from_actor:
                await stdout.send_all(frame(data))
        # Everything the actor sent is written and it has stopped: the game is over.
        nursery.cancel_scope.cancel()
    return 0


def _out_of_memory() -> NoReturn:
    """End the process for want of memory, saying so on stderr (without allocating)."""
    os.write(2, b"spellstack bot host: MemoryError: the bot ran out of memory\n")
    os._exit(OUT_OF_MEMORY)


class _Guarded:
    """The bot, each of its calls ending the process if it runs out of memory (a
    ``MemoryError`` is the memory limit reached, not a bug of the bot's to report). Its
    attributes read through: the player actor sees the bot's own ``stops`` and ``notify``."""

    def __init__(self, bot: Bot) -> None:
        self._bot = bot

    @property
    def stops(self) -> Any:
        return getattr(self._bot, "stops", None)

    @property
    def notify(self) -> Any:
        notify = self._bot.notify  # type: ignore[attr-defined]  # AttributeError: none, as for the bot
        if notify is None:
            return None

        def guarded(msg: Any) -> Any:
            try:
                return notify(msg)
            except MemoryError:
                _out_of_memory()

        return guarded

    def decide(self, view: Any, decision: Any) -> Any:
        try:
            reply = self._bot.decide(view, decision)
        except MemoryError:
            _out_of_memory()
        if inspect.isawaitable(reply):
            return _guarded(reply)
        return reply


async def _guarded(reply: Awaitable[Any]) -> Any:
    """An async ``decide``'s answer, ending the process if it runs out of memory."""
    try:
        return await reply
    except MemoryError:
        _out_of_memory()


if __name__ == "__main__":
    main()
