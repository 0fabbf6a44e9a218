"""Bots in processes of their own, speaking the player protocol over their stdin and stdout.

A bot process is started for each game it plays. Its stdin carries frames from the engine, its
stdout frames to it; a frame is a 4-byte big-endian length and then that many bytes. The first
frame it reads is the hello (``hello_message``: a msgpack map with its game, seat, the players'
names, the protocol version, its deadline, its start-up time and its seed), and the first it
writes is its answer, ``{"t": "ready"}``, once it has started up: the game's first request
waits for it (``Client.starts``), so that no decision's deadline pays for starting a process.
Every later frame it reads is a protocol message exactly as the coordinator sent it to the seat
(``PriorityRequest``, ``DecisionRequest``, ``Accepted``, ``Rejected``, ``ErrorReply``,
``StopsSet``, ``GameOver``). What it writes are the messages a player sends (``SubmitAction``,
``SubmitAnswer``, ``SetStops``, ``RequestFullView``, ``Forfeit``). ``docs/stdio-bots.md`` is
the full description.

The relay (``ProcessSeat``) is a seat of the game (``actors.Client``) and a thin one: what the
bot writes reaches the coordinator, which judges it as it judges any player's message
(malformed messages, illegal actions and deadlines are the coordinator's to count). The relay
itself only refuses what it can't pass on: a frame over the player's message limit (a length
that large is how noise on stdout shows), a stream that ends inside a frame, a process that
can't start, exits or is killed, a bot not ready within its start-up time
(``SeatHello.startup``) or whose first frame is not the ready frame. Each of those forfeits the
bot's game with a reason naming it. Whatever happens, the process is killed when the game is
over for it, and at once when it is cancelled (a bot over its deadline is forfeited by the
coordinator and then killed).

Containment: the bot is started by a supervisor of its own (``_supervisor``), which holds the
read end of a pipe (the lifeline) whose write end only the relay holds. When the bot exits, or
the relay closes the lifeline (the game is over for it), or the process playing the game dies
(by any signal: the pipe ends with it), the supervisor kills the bot and, on Linux, every
process it started, wherever it went (the supervisor is their subreaper); elsewhere the bot's
process group. Each bot process runs under a memory limit (``RLIMIT_DATA``, inherited by what
it starts); a bot that fails for want of memory forfeits with a reason naming the limit.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import msgpack  # type: ignore[import-untyped]  # ships no type information
import trio

from .._printable import printable, short_value
from ..actors import Client, Link
from ..protocol import MAX_PLAYER_MESSAGE_BYTES, PROTOCOL_VERSION, Forfeit, decode_from_player
from ..rules import InvalidMessageError
from ._frames import FrameError, FrameReader, frame
from ._hello import SeatHello
from ._supervisor import CANT_START, CANT_START_SAYS

__all__ = ["DEFAULT_BOT_MEMORY", "EXIT_GRACE", "HELLO_VERSION", "MIN_BOT_MEMORY", "READY", "STDERR_KEPT",
           "ProcessBot", "ProcessSeat", "hello_message", "supervised"]

HELLO_VERSION = 2
"""The hello frame's ``v``: what a bot process can expect of the frames it is sent, and must
answer (2: the ready frame)."""
READY = {"t": "ready"}
"""The frame a bot process answers the hello with once it has started up."""
EXIT_GRACE = 2.0
"""Seconds a bot process is given to exit by itself after its game is over (its stdin
closed); then it is killed."""
STDERR_KEPT = 2048
"""Bytes of a bot process's stderr kept (the last ones), to quote in a forfeit's reason."""
_REASON_STDERR = 120
"""Characters of the bot's last stderr line quoted in a reason."""
DEFAULT_BOT_MEMORY = 1 << 30
"""A bot process's memory limit in bytes unless the tournament says otherwise (``--bot-memory``)."""
MIN_BOT_MEMORY = 64 << 20
"""The smallest memory limit a bot process may be given (an interpreter needs some to start)."""
STOP_GRACE = 2.0
"""Seconds the supervisor has to kill the bot and all it started, once told, before it is
killed itself (with the bot's process group)."""
SUPERVISOR = Path(__file__).with_name("_supervisor.py")
"""The supervisor's script, run by path (it needs nothing but the standard library)."""
_OUT_OF_MEMORY = (b"memoryerror", b"out of memory", b"cannot allocate memory", b"bad_alloc",
                  b"outofmemory", b"memory allocation of", b"failed to allocate")
"""What a process that failed for want of memory writes on stderr (Python, C, C++, Rust, Go,
Java...), lower-cased: how a bot that went over its limit is told from one that failed
otherwise (a limit per process is not reported by the kernel)."""

_GAME_OVER = b"\x83" + msgpack.packb("k") + msgpack.packb("GameOver")
"""How the engine's encoding of a ``GameOver`` begins (a map of three, its kind first)."""


def hello_message(hello: SeatHello) -> dict[str, object]:
    """The hello frame's contents."""
    return {"t": "hello", "v": HELLO_VERSION, "protocol": PROTOCOL_VERSION, "game": hello.game,
            "seat": hello.seat, "players": list(hello.players), "deadline": float(hello.deadline),
            "startup": float(hello.startup), "seed": hello.seed}


@dataclass(frozen=True, slots=True)
class ProcessBot:
    """A bot that runs as a process of its own, one per game: an executable speaking the
    protocol on stdio (``stdio:COMMAND``), or a Python class hosted by ``bot_host``."""

    command: tuple[str, ...]
    """The process's command line."""
    memory: int = DEFAULT_BOT_MEMORY
    """Its memory limit in bytes (``RLIMIT_DATA`` of each process it runs as; 0: none)."""

    def player(self, hello: SeatHello) -> Client:
        """What plays its seat in the game ``hello`` describes: a relay between the game and a
        process started for it (``Seat``)."""
        return Client(ProcessSeat(self.command, hello, self.memory).play, starts=True)


class _Gone(Exception):
    """The relay must stop: the bot's game is lost with this reason (or over: no reason)."""

    def __init__(self, reason: str | None) -> None:
        super().__init__(reason or "")
        self.reason = reason


class ProcessSeat:
    """One game's relay between the coordinator and a bot process."""

    def __init__(self, command: Sequence[str], hello: SeatHello, memory: int = DEFAULT_BOT_MEMORY) -> None:
        self.command = tuple(command)
        """The process's command line."""
        self.hello = hello
        """What it is told first."""
        self.memory = memory
        """Its memory limit in bytes (0: none)."""
        self.lifeline: int | None = None
        """The write end of the supervisor's lifeline, until closed (which stops the bot)."""
        self.stderr: deque[bytes | bytearray] = deque()
        """The end of what it wrote on stderr (at most ``STDERR_KEPT`` bytes)."""
        self._stderr_size = 0
        self.process: trio.Process | None = None
        """The bot's process, once started."""
        self.over = False
        """The game is over for the bot (its ``GameOver`` was passed on): however it exits
        now, it is not forfeited (the coordinator has finished)."""

    async def play(self, link: Link, ready: Callable[[], None] = lambda: None) -> None:
        """Start the process, tell it the hello and wait for its ready frame (then call
        ``ready``: the game may begin), relay both ways until the game is over for the bot, and
        see the process gone however this ends. A bot that can't start, or isn't ready in time,
        forfeits (``ready`` is called first, so that the game is there to be told)."""
        # Both ends are close-on-exec: only the supervisor gets the read end (``pass_fds``).
        lifeline, self.lifeline = os.pipe()
        try:
            process = await trio.lowlevel.open_process(
                supervised(self.command, lifeline, self.memory), stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                pass_fds=(lifeline,))
        except OSError as err:
            self._cut_lifeline()
            ready()
            await link.send(Forfeit(_fit(f"bot process can't start: {err.strerror or err} "
                                         f"({self.command[0]!r})")))
            return
        except BaseException:
            self._cut_lifeline()
            raise
        finally:
            os.close(lifeline)
        self.process = process
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._drain_stderr, process)
                assert process.stdout is not None
                frames = FrameReader(process.stdout, MAX_PLAYER_MESSAGE_BYTES)
                reason = await self._start_up(process, frames)
                ready()
                if reason is None:
                    nursery.start_soon(self._to_bot, process, link, nursery.cancel_scope)
                    reason = await self._from_bot(process, frames, link)
                nursery.cancel_scope.cancel()
            if reason is not None and not self.over:
                await link.send(Forfeit(_fit(reason)))
        finally:
            with trio.CancelScope(shield=True):
                await self._stop(process)

    async def _start_up(self, process: trio.Process, frames: FrameReader) -> str | None:
        """Send the hello and read the bot's ready frame, within its start-up time; the forfeit
        reason if it does not come (None: ready)."""
        stdin = process.stdin
        assert stdin is not None
        # A bot that already exited is told by its stdout ending, below.
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await stdin.send_all(frame(msgpack.packb(hello_message(self.hello), use_bin_type=True)))
        limit = self.hello.startup
        with trio.move_on_after(limit):
            try:
                payload = await frames.receive_payload()
            except FrameError as err:
                if err.size is not None:
                    return _noise(err.head, err.size, frames.limit)
                return await self._ended(process, err.partial)
            if payload is None:
                return await self._ended(process, b"")
            try:
                first = msgpack.unpackb(payload, raw=False)
            except Exception:  # msgpack raises several kinds of error for bad bytes
                first = None
            if first == READY:
                return None
            return (f"bot process answered the hello with {_quoted(payload)}, not the ready "
                    f"frame {{'t': 'ready'}}")
        return (f"bot process was not ready within {limit:g} s of its start (it answers the "
                f"hello with the ready frame {{'t': 'ready'}})")

    async def _to_bot(self, process: trio.Process, link: Link, everything: trio.CancelScope) -> None:
        """Every message the coordinator sends the seat, each as a frame; after ``GameOver``
        the bot's stdin is closed, and it has ``EXIT_GRACE`` to exit."""
        stdin = process.stdin
        assert stdin is not None
        try:
            while True:
                data = await link.receive_bytes()
                if data.startswith(_GAME_OVER):
                    self.over = True
                    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                        await stdin.send_all(frame(data))
                    break
                await stdin.send_all(frame(data))
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            # It stopped reading (it exited, or closed stdin): what it wrote, and how it
            # exited, tell why; the reading side says so.
            return
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await stdin.aclose()
        with trio.move_on_after(EXIT_GRACE):
            await process.wait()
        everything.cancel()

    async def _from_bot(self, process: trio.Process, frames: FrameReader, link: Link) -> str | None:
        """Pass every frame the bot writes to the coordinator; the forfeit reason when the
        stream can't go on (None: the game was over for it)."""
        while True:
            try:
                payload = await frames.receive_payload()
            except FrameError as err:
                if err.size is not None:
                    return _noise(err.head, err.size, frames.limit)
                return await self._ended(process, err.partial)
            if payload is None:
                return await self._ended(process, b"")
            await self._pass_on(payload, link)

    async def _pass_on(self, payload: bytes, link: Link) -> None:
        """One message of the bot's to the coordinator: decoded and sent again (so that it is
        numbered and traced like any message), or, if it can't be decoded, the bytes as they
        came, which the coordinator refuses with an ``ErrorReply`` naming what is wrong."""
        try:
            msg = decode_from_player(payload)
        except InvalidMessageError:
            await link.send_bytes(payload)
            return
        await link.send(msg)

    async def _ended(self, process: trio.Process, rest: bytes) -> str:
        """Why a bot whose stdout ended loses: how it exited (given ``EXIT_GRACE`` to), and a
        frame it left unfinished."""
        with trio.move_on_after(EXIT_GRACE):
            await process.wait()
        code = process.returncode
        failed = self._cant_start() if code == CANT_START else None
        if failed is not None:
            return f"bot process can't start: {failed}"
        if code is None:
            how = "closed its stdout"
        elif code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            how = f"was killed by {name}"
        else:
            how = f"exited with code {code}"
        if code != 0 and self.memory and self._out_of_memory():
            how = f"went over its memory limit of {self.memory / (1 << 20):g} MiB and {how}"
        cut = ""
        if len(rest) >= 4:
            cut = (f" inside a frame (its length says {int.from_bytes(rest[:4], 'big')} bytes, "
                   f"{len(rest) - 4} came)")
        elif rest:
            cut = f" inside a frame's length ({len(rest)} of its 4 bytes came)"
        said = self._last_stderr_line()
        return f"bot process {how}{cut}" + (f"; its stderr ended: {said}" if said else "")

    async def _drain_stderr(self, process: trio.Process) -> None:
        """Read the bot's stderr as it comes (so that it never blocks writing it), keeping
        the last ``STDERR_KEPT`` bytes."""
        stderr = process.stderr
        assert stderr is not None
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            while chunk := await stderr.receive_some(65536):
                self.stderr.append(chunk)
                self._stderr_size += len(chunk)
                while self._stderr_size - len(self.stderr[0]) >= STDERR_KEPT:
                    self._stderr_size -= len(self.stderr.popleft())

    def _last_stderr_line(self) -> str:
        """The last line the bot wrote on stderr, cut to fit a reason."""
        text = b"".join(self.stderr).decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if not lines:
            return ""
        # Escaped here, where the reason is made: it is stored, and printed on terminals.
        last = printable(" ".join(lines[-1].split()))
        return last if len(last) <= _REASON_STDERR else last[:_REASON_STDERR - 3] + "..."

    def _cant_start(self) -> str | None:
        """Why the supervisor could not start the bot's command, if its stderr says so."""
        text = b"".join(self.stderr).decode("utf-8", "replace")
        at = text.rfind(CANT_START_SAYS)
        if at == -1:
            return None
        said = "".join(c if c.isprintable() else "?" for c in text[at + len(CANT_START_SAYS):].split("\n")[0])
        return said[:_REASON_STDERR] or None

    def _out_of_memory(self) -> bool:
        """Whether the end of the bot's stderr says it ran out of memory."""
        kept = b"".join(self.stderr).lower()
        return any(mark in kept for mark in _OUT_OF_MEMORY)

    def _cut_lifeline(self) -> None:
        """Close the lifeline's write end: the supervisor stops the bot and all it started."""
        if self.lifeline is not None:
            os.close(self.lifeline)
            self.lifeline = None

    async def _stop(self, process: trio.Process) -> None:
        """See the bot gone, with everything it started, and its supervisor reaped: the
        lifeline is cut (the supervisor kills them all and exits, on Linux); then the
        supervisor's process group, which the bot started in, is killed (what is left of it:
        on macOS the bot's children; anywhere the bot, if it killed its supervisor), and the
        supervisor if it has not exited within ``STOP_GRACE``."""
        self._cut_lifeline()
        with trio.move_on_after(STOP_GRACE):
            await process.wait()
        # The group outlives its leader while any member is left: killed even after the
        # supervisor exited (which is how a bot that exits leaves its game).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        with trio.move_on_after(10):
            await process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(Exception):
                    await stream.aclose()


def supervised(command: Sequence[str], lifeline: int, memory: int) -> list[str]:
    """The command line that runs ``command`` under a supervisor watching the file descriptor
    ``lifeline``, with a memory limit of ``memory`` bytes (0: none)."""
    return [sys.executable, "-I", "-S", str(SUPERVISOR), str(lifeline), str(memory), *command]


def _noise(head: bytes, size: int, limit: int) -> str:
    """Why a frame of ``size`` bytes is refused: over the limit, and if its length's bytes are
    text, that it looks like something printed on stdout."""
    if all(32 <= b < 127 or b in (9, 10, 13) for b in head):
        return (f"bot process printed text on stdout ({head.decode('ascii')!r}...), which carries "
                f"frames only: print to stderr (read as a frame's length, {size} bytes, over "
                f"the limit of {limit} for a player's message)")
    return f"bot process sent a frame of {size} bytes, over the limit of {limit} for a player's message"


def _quoted(payload: bytes) -> str:
    """A frame a bot wrote, for a reason: what it decodes to if it is msgpack (else its bytes),
    cut short."""
    try:
        return short_value(msgpack.unpackb(payload, raw=False))
    except Exception:  # msgpack raises several kinds of error for bad bytes
        return f"bytes {short_value(payload)}"


def _fit(reason: str) -> str:
    """A reason cut to a length any ``Forfeit`` may have."""
    limit = 400
    return reason if len(reason) <= limit else reason[:limit - 3] + "..."

