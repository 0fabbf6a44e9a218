"""The server's load benchmark (``spellstack bench --serve``): a ``spellstack serve`` process
on the loopback address, and remote random bots in this process, each on a connection of its
own, playing many games at once; the games' and decisions' rate, each decision's round trip as
a client sees it, and the server's peak resident memory (``LoadReport``).

Every game is created with a seed (``seed``, ``seed + 1``, ...) between two remote seats on
gruul and orzhov; each seat is played by the engine's random bot in its own player actor,
relayed over its WebSocket as ``tests``' remote bots are. A decision's round trip runs from the
moment a client sends its answer (``SubmitAction``, ``SubmitAnswer``) to the moment the
coordinator's reply to it (``Accepted``, ``Rejected``, ``ErrorReply``) arrives: the network both
ways, the server's relay, the coordinator's judgement and whatever else the server was doing.
Traffic goes to the loopback address only; the run stops by itself, and so does the server.
"""

from __future__ import annotations

import math
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import msgpack  # type: ignore[import-untyped]  # ships no type information
import trio
from trio_websocket import WebSocketConnection, open_websocket_url

from ..actors import Link, Wire, player_actor
from ..bots import RandomBot
from ..protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    CreateGame,
    GameCreated,
    Goodbye,
    Hello,
    JoinSeat,
    Seated,
    SeatSpec,
    SessionMessage,
    Welcome,
    decode_from_server,
    encode_session,
)
from ._server import GameServer
from ._settings import ServerSettings

__all__ = ["LOAD_DECKS", "LoadReport", "bench_load"]

LOAD_DECKS = ("gruul", "orzhov")
"""The decks of every game of the benchmark (the default bench's)."""
_DEADLINE = 120.0
"""Each decision's deadline: far beyond any round trip, so that a loaded server forfeits nobody
(the report counts forfeits all the same)."""
_STARTUP = 60.0
"""Seconds the server process has to start listening."""
_LISTENING = re.compile(rb"listening on ws://127\.0\.0\.1:(\d+)")


def _kind(kind: str) -> bytes:
    """How the encoding of a message of ``kind`` begins (a map of three, its kind first)."""
    prefix: bytes = b"\x83" + msgpack.packb("k") + msgpack.packb(kind)
    return prefix


_ANSWERS = (_kind("SubmitAction"), _kind("SubmitAnswer"))
_REPLIES = (_kind("Accepted"), _kind("Rejected"), _kind("ErrorReply"))
_GAME_OVER = _kind("GameOver")


@dataclass(frozen=True, slots=True)
class LoadReport:
    """What one run of the load benchmark measured."""

    games: int
    """Games played to their end."""
    connections: int
    """Remote bot connections at once (two per game in flight)."""
    seconds: float
    """Wall time from the first game's creation to the last game's end."""
    decisions: int
    """Answers the bots sent (``SubmitAction``, ``SubmitAnswer``)."""
    round_trip_p50: float
    """The median decision round trip, in seconds."""
    round_trip_p99: float
    """The 99th percentile decision round trip, in seconds."""
    peak_kb: int
    """The server process's peak resident memory, in kB (0 where it can't be read)."""
    forfeits: int
    """Games that ended by a forfeit (none but on a machine too loaded for the deadline)."""

    @property
    def games_per_second(self) -> float:
        """Games played a second."""
        return self.games / self.seconds

    @property
    def decisions_per_second(self) -> float:
        """Decisions answered a second, over every game at once."""
        return self.decisions / self.seconds

    def lines(self, seed: int) -> list[str]:
        """The report, as ``spellstack bench --serve`` prints it."""
        return [
            f"bench --serve: {self.games} games (seeds {seed}..{seed + self.games - 1}, {' vs '.join(LOAD_DECKS)}, "
            f"random bots), {self.connections} remote bot connections at once ({self.connections // 2} games), "
            "the server a process of its own on 127.0.0.1",
            f"{self.games_per_second:.2f} games/s, {self.decisions_per_second:.0f} decisions/s "
            f"({self.decisions} decisions in {self.seconds:.2f} s)",
            f"decision round trip: p50 {self.round_trip_p50 * 1000:.2f} ms, p99 {self.round_trip_p99 * 1000:.2f} ms",
            f"server peak resident memory: {self.peak_kb / 1024:.1f} MB",
            f"games ended by a forfeit: {self.forfeits}",
        ]


def _percentile(ordered: list[float], share: float) -> float:
    """The nearest-rank percentile of sorted values (0 if there are none)."""
    if not ordered:
        return 0.0
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


class _Tally:
    """What the clients measured."""

    def __init__(self) -> None:
        self.round_trips: list[float] = []
        self.decisions = 0
        self.forfeits = 0


async def _say(ws: WebSocketConnection, msg: SessionMessage) -> SessionMessage:
    """Send a session message; the server's answer."""
    await ws.send_message(encode_session(msg))
    data = await ws.get_message()
    assert isinstance(data, bytes)
    answer = decode_from_server(data)
    if not isinstance(answer, (Welcome, GameCreated, Seated)):
        raise RuntimeError(f"the server refused the benchmark's {msg.KIND}: {answer}")
    return answer


async def _play_seat(url: str, token: str, tally: _Tally, ended: list[bytes]) -> None:
    """Join a seat and play it to its game's end with a random bot, timing each answer's
    round trip; its ``GameOver`` goes to ``ended``."""
    async with open_websocket_url(url, max_message_size=MAX_MESSAGE_BYTES) as ws:
        await _say(ws, Hello(PROTOCOL_VERSION))
        seated = await _say(ws, JoinSeat(token))
        assert isinstance(seated, Seated)
        to_player, from_server = trio.open_memory_channel[bytes](1)
        to_server, from_player = trio.open_memory_channel[bytes](1)
        link = Link(Wire("client", None), f"player:{seated.players[seated.seat]}", "coordinator", to_server,
                    from_server)
        sent_at = 0.0

        async def down() -> None:
            while True:
                data = await ws.get_message()
                assert isinstance(data, bytes)
                if data.startswith(_REPLIES) and sent_at:
                    tally.round_trips.append(time.perf_counter() - sent_at)
                elif data.startswith(_GAME_OVER):
                    ended.append(data)
                await to_player.send(data)

        async def up() -> None:
            nonlocal sent_at
            async for data in from_player:
                if data.startswith(_ANSWERS):
                    tally.decisions += 1
                    sent_at = time.perf_counter()
                await ws.send_message(data)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(down)
            nursery.start_soon(up)
            await player_actor(RandomBot(seated.seed), link)
            nursery.cancel_scope.cancel()
        await ws.send_message(encode_session(Goodbye()))


def _peak_kb(status: str) -> int:
    """A live process's peak resident memory in kB, from its ``/proc`` status file (Linux's
    VmHWM); 0 if it can't be read."""
    try:
        with open(status, encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _settings(connections: int, games: int) -> ServerSettings:
    """The benchmark server's settings: room for the run (every connection is from this
    machine; one connection creates every game, as fast as it can, and waits a game's length
    between two)."""
    return ServerSettings(host="127.0.0.1", port=0, max_games=games, max_connections_per_address=connections + 8,
                          max_spectators=0, hello_timeout=3600.0, max_messages_per_second=max(20.0, 2.0 * games))


def _serve_command(settings: ServerSettings) -> list[str]:
    """``spellstack serve`` with ``settings``."""
    s = settings
    return [sys.executable, "-m", "spellstack", "serve", "--host", s.host, "--port", str(s.port),
            "--max-games", str(s.max_games), "--max-connections-per-address", str(s.max_connections_per_address),
            "--max-spectators", str(s.max_spectators), "--hello-timeout", f"{s.hello_timeout:g}",
            "--max-messages-per-second", f"{s.max_messages_per_second:g}"]


@asynccontextmanager
async def _server_process(settings: ServerSettings) -> AsyncIterator[tuple[int, Callable[[], int]]]:
    """A ``spellstack serve`` process: its port, and what reads its peak resident memory in kB
    (0 where it can't be read). Stopped at the end as by Ctrl-C."""
    with tempfile.TemporaryFile() as log:
        process = await trio.lowlevel.open_process(_serve_command(settings), stdout=subprocess.PIPE, stderr=log)
        try:
            assert process.stdout is not None
            seen = b""
            found = None
            with trio.move_on_after(_STARTUP):
                while (found := _LISTENING.search(seen)) is None:
                    chunk = await process.stdout.receive_some()
                    if not chunk:
                        break
                    seen += chunk
            if found is None:
                log.seek(0)
                said = log.read().decode("utf-8", "replace").strip().splitlines()[-1:]
                raise RuntimeError(f"the server process did not start listening{': ' if said else ''}"
                                   f"{''.join(said)}")
            yield int(found.group(1)), lambda: _peak_kb(f"/proc/{process.pid}/status")
        finally:
            process.send_signal(signal.SIGINT)  # as Ctrl-C: the server stops cleanly
            with trio.move_on_after(10):
                await process.wait()
            if process.returncode is None:
                process.kill()
                await process.wait()


@asynccontextmanager
async def _server_here(settings: ServerSettings) -> AsyncIterator[tuple[int, Callable[[], int]]]:
    """A server in this process (its memory is the process's, the bots' included)."""
    async with trio.open_nursery() as nursery:
        server: GameServer = await nursery.start(GameServer(settings).run)
        assert server.port is not None
        yield server.port, lambda: _peak_kb("/proc/self/status")
        nursery.cancel_scope.cancel()


async def bench_load(connections: int, games: int, seed: int, *, in_process: bool = False,
                     progress: Callable[[str], object] = lambda line: None) -> LoadReport:
    """Play ``games`` games from ``seed`` on a fresh server, ``connections // 2`` of them at once
    (two remote bot connections each), and measure them. The server is a ``spellstack serve``
    process of its own, whose memory is measured; ``in_process``: it runs in this process
    instead (quicker to start; the memory measured is then the whole process's).

    Raises:
        ValueError: ``connections`` is not an even number of 2 or more, or ``games`` is under 1.
        RuntimeError: The server could not be started, or refused the benchmark's games.
    """
    if connections < 2 or connections % 2:
        raise ValueError(f"connections {connections}: an even number, at least 2")
    if games < 1:
        raise ValueError(f"games {games}: at least 1")
    at_once = connections // 2
    tally = _Tally()
    async with (_server_here if in_process else _server_process)(_settings(connections, at_once)) as (port, peak_kb):
        began = time.perf_counter()
        await _play_games(f"ws://127.0.0.1:{port}", games, seed, at_once, tally, progress)
        seconds = time.perf_counter() - began
        peak = peak_kb()
    if not peak and not in_process:  # no /proc: the largest waited-for child's, the server's
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // (1024 if sys.platform == "darwin" else 1)
    ordered = sorted(tally.round_trips)
    return LoadReport(games, connections, seconds, tally.decisions, _percentile(ordered, 0.5),
                      _percentile(ordered, 0.99), peak, tally.forfeits)


async def _play_games(url: str, games: int, seed: int, at_once: int, tally: _Tally,
                      progress: Callable[[str], object]) -> None:
    """Create the games over one connection, ``at_once`` in flight, each played by two remote bots."""
    seats = tuple(SeatSpec(f"p{n}", deck) for n, deck in enumerate(LOAD_DECKS))
    async with open_websocket_url(url) as admin:
        await _say(admin, Hello(PROTOCOL_VERSION))
        slots = trio.Semaphore(at_once)

        async def play(created: GameCreated) -> None:
            ended: list[bytes] = []
            async with trio.open_nursery() as nursery:
                for seat in created.seats:
                    nursery.start_soon(_play_seat, url, seat.token, tally, ended)
            tally.forfeits += any(b"forfeited" in data for data in ended)
            slots.release()

        async with trio.open_nursery() as nursery:
            for n in range(games):
                await slots.acquire()
                created = await _say(admin, CreateGame(seats, deadline=_DEADLINE, seed=seed + n))
                assert isinstance(created, GameCreated)
                nursery.start_soon(play, created)
                if n % at_once == at_once - 1:
                    progress(f"{n + 1} games created")
        await admin.send_message(encode_session(Goodbye()))
