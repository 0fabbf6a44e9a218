"""Bots in processes of their own, speaking the player protocol over their stdin and stdout.

A bot process is started for each game it plays. Its stdin carries frames from the engine, its
stdout frames to it; a frame is a 4-byte big-endian length and then that many bytes. The first
frame it reads is the hello (``hello_message``: a msgpack map with its game, seat, the players'
names, the protocol version, its deadline and its seed); every later one is a protocol message
exactly as the coordinator sent it to the seat (``PriorityRequest``, ``DecisionRequest``,
``Accepted``, ``Rejected``, ``ErrorReply``, ``StopsSet``, ``GameOver``). What it writes are the
messages a player sends (``SubmitAction``, ``SubmitAnswer``, ``SetStops``, ``RequestFullView``,
``Forfeit``). ``docs/stdio-bots.md`` is the full description.

The relay (``ProcessSeat``) is a seat of the game (``actors.Seat``) and a thin one: what the
bot writes reaches the coordinator, which judges it as it judges any player's message
(malformed messages, illegal actions and deadlines are the coordinator's to count). The relay
itself only refuses what it can't pass on: a frame over the player's message limit (a length
that large is how noise on stdout shows), a stream that ends inside a frame, a process that
can't start, exits or is killed. Each of those forfeits the bot's game with a reason naming it.
Whatever happens, the process is killed when the game is over for it, and at once when it
is cancelled (a bot over its deadline is forfeited by the coordinator and then killed).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import msgpack  # type: ignore[import-untyped]  # ships no type information
import trio

from ..actors import Link, Seat
from ..protocol import MAX_PLAYER_MESSAGE_BYTES, PROTOCOL_VERSION, Forfeit, decode_from_player
from ..rules import InvalidMessageError
from ._frames import FrameError, FrameReader, frame

__all__ = ["EXIT_GRACE", "HELLO_VERSION", "STDERR_KEPT", "BotHello", "ProcessBot", "hello_message"]

HELLO_VERSION = 1
"""The hello frame's ``v``: what a bot process can expect of the frames it is sent."""
EXIT_GRACE = 2.0
"""Seconds a bot process is given to exit by itself after its game is over (its stdin
closed); then it is killed."""
STDERR_KEPT = 2048
"""Bytes of a bot process's stderr kept (the last ones), to quote in a forfeit's reason."""
_REASON_STDERR = 120
"""Characters of the bot's last stderr line quoted in a reason."""

_GAME_OVER = b"\x83" + msgpack.packb("k") + msgpack.packb("GameOver")
"""How the engine's encoding of a ``GameOver`` begins (a map of three, its kind first)."""


@dataclass(frozen=True, slots=True)
class BotHello:
    """What a bot process is told before its first request."""

    game: str
    """The game's id."""
    seat: int
    """The bot's seat, from 0."""
    players: tuple[str, ...]
    """Every player's name, by seat."""
    deadline: float
    """Seconds it has for each decision."""
    seed: int
    """Its own seed, for whatever it draws at random."""


def hello_message(hello: BotHello) -> dict[str, object]:
    """The hello frame's contents."""
    return {"t": "hello", "v": HELLO_VERSION, "protocol": PROTOCOL_VERSION, "game": hello.game,
            "seat": hello.seat, "players": list(hello.players), "deadline": float(hello.deadline),
            "seed": hello.seed}


@dataclass(frozen=True, slots=True)
class ProcessBot:
    """A bot that runs as a process of its own, one per game: an executable speaking the
    protocol on stdio (``stdio:COMMAND``), or a Python class hosted by ``bot_host``."""

    command: tuple[str, ...]
    """The process's command line."""

    def seat(self, hello: BotHello) -> Seat:
        """The game's seat for it: a relay between the game and a process started for it."""
        return Seat(ProcessSeat(self.command, hello).play)


class _Gone(Exception):
    """The relay must stop: the bot's game is lost with this reason (or over: no reason)."""

    def __init__(self, reason: str | None) -> None:
        super().__init__(reason or "")
        self.reason = reason


class ProcessSeat:
    """One game's relay between the coordinator and a bot process."""

    def __init__(self, command: Sequence[str], hello: BotHello) -> None:
        self.command = tuple(command)
        """The process's command line."""
        self.hello = hello
        """What it is told first."""
        self.stderr: deque[bytes | bytearray] = deque()
        """The end of what it wrote on stderr (at most ``STDERR_KEPT`` bytes)."""
        self._stderr_size = 0
        self.process: trio.Process | None = None
        """The bot's process, once started."""
        self.over = False
        """The game is over for the bot (its ``GameOver`` was passed on): however it exits
        now, it is not forfeited (the coordinator has finished)."""

    async def play(self, link: Link) -> None:
        """Start the process, relay both ways until the game is over for the bot, and see the
        process gone however this ends."""
        try:
            process = await trio.lowlevel.open_process(
                list(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True)
        except OSError as err:
            await link.send(Forfeit(_fit(f"bot process can't start: {err.strerror or err} "
                                         f"({self.command[0]!r})")))
            return
        self.process = process
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._drain_stderr, process)
                nursery.start_soon(self._to_bot, process, link, nursery.cancel_scope)
                reason = await self._from_bot(process, link)
                nursery.cancel_scope.cancel()
            if reason is not None and not self.over:
                await link.send(Forfeit(_fit(reason)))
        finally:
            with trio.CancelScope(shield=True):
                await self._stop(process)

    async def _to_bot(self, process: trio.Process, link: Link, everything: trio.CancelScope) -> None:
        """The hello, then every message the coordinator sends the seat, each as a frame; after
        ``GameOver`` the bot's stdin is closed, and it has ``EXIT_GRACE`` to exit."""
        stdin = process.stdin
        assert stdin is not None
        try:
            await stdin.send_all(frame(msgpack.packb(hello_message(self.hello), use_bin_type=True)))
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

    async def _from_bot(self, process: trio.Process, link: Link) -> str | None:
        """Pass every frame the bot writes to the coordinator; the forfeit reason when the
        stream can't go on (None: the game was over for it)."""
        stdout = process.stdout
        assert stdout is not None
        frames = FrameReader(stdout, MAX_PLAYER_MESSAGE_BYTES)
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
        last = " ".join(lines[-1].split())
        return last if len(last) <= _REASON_STDERR else last[:_REASON_STDERR - 3] + "..."

    async def _stop(self, process: trio.Process) -> None:
        """See the process gone: killed with its whole session (a shell's children too) if
        it is still there, and reaped."""
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        with trio.move_on_after(10):
            await process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(Exception):
                    await stream.aclose()


def _noise(head: bytes, size: int, limit: int) -> str:
    """Why a frame of ``size`` bytes is refused: over the limit, and if its length's bytes are
    text, that it looks like something printed on stdout."""
    if all(32 <= b < 127 or b in (9, 10, 13) for b in head):
        return (f"bot process printed text on stdout ({head.decode('ascii')!r}...), which carries "
                f"frames only: print to stderr (read as a frame's length, {size} bytes, over "
                f"the limit of {limit} for a player's message)")
    return f"bot process sent a frame of {size} bytes, over the limit of {limit} for a player's message"


def _fit(reason: str) -> str:
    """A reason cut to a length any ``Forfeit`` may have."""
    limit = 400
    return reason if len(reason) <= limit else reason[:limit - 3] + "..."

