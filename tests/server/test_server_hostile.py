"""A thousand hostile connections beside ten honest games: each hostile one is closed with its
reason, and each honest game ends exactly as its seed plays in process (the same result, the
same final hash), as if nobody else were there.

The hostile connections come from 25 loopback addresses (127.0.0.2 to 127.0.0.26; the honest
ones from 127.0.0.1), 40 at most from each, the limit; first 60 from one address of their own,
20 over its limit. Each honest game is watched by two spectators that read nothing (slow
readers: a game's public events are tens of kB). Real time, small limits: the hello timeout 3 s,
a frame not taken 0.5 s, 4 KiB kept for each client; 20 messages a second, the default."""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
import trio
from trio_websocket import ConnectionClosed

from spellstack._version import __version__
from spellstack.actors import GameResult, GameSetup, SeatConfig, play_setup
from spellstack.bots import RandomBot
from spellstack.protocol import (
    PROTOCOL_VERSION,
    CreateGame,
    GameCreated,
    Goodbye,
    Hello,
    JoinSeat,
    SeatSpec,
    SessionError,
    Spectate,
    Watching,
    Welcome,
)
from spellstack.server import TOKEN_REFUSED, GameServer
from tests.server._clients import Remote, connect, create_game, loopback, play_remote, running_server
from tests.server._raw import connect_from, tcp_from

pytestmark = pytest.mark.slow

HONEST_SEEDS = (22, 26, 28, 29, 30, 31, 33, 34, 43, 44)
"""Games of 35 turns or more: their public events are more than a slow reader's buffers hold."""
DEADLINE = 60.0
"""The honest games' deadline: far beyond what the crowd delays a decision by."""
SETTINGS = {"hello_timeout": 3.0, "send_timeout": 0.5, "send_buffer_bytes": 4096,
            "max_connections_per_address": 40, "max_spectators": 3}
CROWDED = "127.0.0.200"
"""The address of 60 connections, 20 over the limit."""

Closed = tuple[str, list[object], int]
"""What a hostile connection was told, and its close code (0: a TCP connection closed unheard)."""


async def _told(remote: Remote) -> tuple[list[object], int]:
    got: list[object] = []
    while True:
        try:
            got.append(await remote.receive())
        except ConnectionClosed as closed:
            return got, closed.reason.code if closed.reason is not None else 0


async def _hello(remote: Remote) -> None:
    await remote.send(Hello(PROTOCOL_VERSION))
    assert isinstance(await remote.receive(), Welcome)


async def silent(port: int, address: str, bait: GameCreated) -> Closed:
    async with connect_from(port, address) as remote:
        return "silent", *await _told(remote)


async def no_websocket(port: int, address: str, bait: GameCreated) -> Closed:
    stream = await tcp_from(port, address)
    try:
        while await stream.receive_some():
            pass
    except trio.BrokenResourceError:  # reset rather than closed: closed all the same
        pass
    await stream.aclose()
    return "no websocket", [], 0


async def text(port: int, address: str, bait: GameCreated) -> Closed:
    async with connect_from(port, address) as remote:
        await _hello(remote)
        await remote.ws.send_message("Hello")
        return "text", *await _told(remote)


async def oversized(port: int, address: str, bait: GameCreated) -> Closed:
    async with connect_from(port, address) as remote:
        await _hello(remote)
        await remote.ws.send_message(secrets.token_bytes(9000))
        return "oversized", *await _told(remote)


async def garbage(port: int, address: str, bait: GameCreated) -> Closed:
    async with connect_from(port, address) as remote:
        await remote.ws.send_message(b"\xc1" + secrets.token_bytes(20))
        return "garbage", *await _told(remote)


async def flood(port: int, address: str, bait: GameCreated) -> Closed:
    async with connect_from(port, address) as remote:
        await _hello(remote)
        try:
            for _ in range(1000):  # reading nothing back
                await remote.send(CreateGame(()))
        except ConnectionClosed:
            pass
        # Its refusal may be lost: a client that reads nothing for the close's two seconds is
        # cut off, and the WebSocket library drops what it had not read. The log says why.
        await _told(remote)
        return "flood", [], 0


async def wrong_token(port: int, address: str, bait: GameCreated) -> Closed:
    async with connect_from(port, address) as remote:
        await _hello(remote)
        await remote.send(JoinSeat(secrets.token_urlsafe(32)))
        return "wrong token", *await _told(remote)


class Spectators:
    """The spectators of the bait game: the first three watch until every other is refused."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.all_refused = trio.Event()

    async def __call__(self, port: int, address: str, bait: GameCreated) -> Closed:
        async with connect_from(port, address) as remote:
            await _hello(remote)
            await remote.send(Spectate(bait.spectator))
            first = await remote.receive()
            if isinstance(first, Watching):
                await self.all_refused.wait()
                await remote.send(Goodbye())
                _, code = await _told(remote)  # the events watched, then the close
                return "spectator", [first], code
            got, code = await _told(remote)
            self.refusals -= 1
            if not self.refusals:
                self.all_refused.set()
            return "spectator", [first, *got], code


Attack = Callable[[int, str, GameCreated], Awaitable[Closed]]
KINDS: list[Attack] = [silent, no_websocket, text, oversized, garbage, flood, wrong_token]
PER_KIND = 115
"""Connections of each kind above, and spectators of the bait game: with the crowd of 60 and
the honest games' 20 slow readers, 1,000."""


class Crowd:
    """Connections from one address, 20 over its limit: those let in say hello and stay until
    every one has been let in or refused, then say goodbye."""

    def __init__(self, size: int) -> None:
        self.left = size
        self.settled = trio.Event()

    async def __call__(self, port: int, address: str, bait: GameCreated) -> Closed:
        async with connect_from(port, address) as remote:
            await remote.send(Hello(PROTOCOL_VERSION))
            first = await remote.receive()
            self.left -= 1
            if not self.left:
                self.settled.set()
            if isinstance(first, Welcome):
                await self.settled.wait()
                await remote.send(Goodbye())
            got, code = await _told(remote)
            return "crowd", [first, *got], code


async def _slow_reader(port: int, address: str, created: GameCreated, over: trio.Event, closed: list[Closed], *,
                       task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """A spectator of an honest game that reads nothing once it watches (started then)."""
    async with connect_from(port, address, receive_buffer=4096) as remote:
        await _hello(remote)
        await remote.send(Spectate(created.spectator))
        assert isinstance(await remote.receive(), Watching)
        task_status.started()
        await over.wait()  # the game is over: what it was sent before it was cut off, then the close
        _, code = await _told(remote)
        closed.append(("slow reader", [], code))


async def _honest(server: GameServer, seed: int, results: dict[int, tuple[str, GameResult | None]],
                  closed: list[Closed], *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """An honest game of two remote random bots, watched by two slow readers: started once all
    four are there."""
    assert server.port
    created = await create_game(server.port, seed=seed, deadline=DEADLINE)
    hosted = server.games[created.game]
    async with trio.open_nursery() as nursery:
        for n in range(2):
            await nursery.start(_slow_reader, server.port, f"127.0.0.{2 + (2 * seed + n) % 25}", created,
                                hosted.done, closed)
        for seat in created.seats:
            await nursery.start(play_remote, server.port, seat.token, RandomBot)
        task_status.started()
        await hosted.done.wait()
    results[seed] = created.game, hosted.result


async def test_a_thousand_hostile_connections_beside_ten_honest_games(tmp_path: Path,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="spellstack.server")
    closed: list[Closed] = []
    results: dict[int, tuple[str, GameResult | None]] = {}
    spectators = Spectators(PER_KIND - 3)
    async with running_server(loopback(trace_dir=tmp_path, **SETTINGS)) as server:
        assert server.port
        port = server.port
        # The bait: a watched game whose remote seat is played by a client that never answers.
        bait = await create_game(port, (SeatSpec("alice", "gruul"), SeatSpec("bob", "dimir", "random")),
                                 deadline=600.0)

        async def run(attack: Attack, address: str) -> None:
            with trio.fail_after(120):
                closed.append(await attack(port, address, bait))

        async with connect(port) as stalling:
            await stalling.send(JoinSeat(bait.seats[0].token))
            with trio.fail_after(300):
                async with trio.open_nursery() as nursery:
                    for seed in HONEST_SEEDS:  # seated before the crowd comes; then played beside it
                        await nursery.start(_honest, server, seed, results, closed)
                    crowd = Crowd(60)
                    for _ in range(60):
                        nursery.start_soon(run, crowd, CROWDED)
                    await crowd.settled.wait()
                    attacks = [*KINDS * PER_KIND, *[spectators] * PER_KIND]
                    for n, attack in enumerate(attacks):
                        nursery.start_soon(run, attack, f"127.0.0.{2 + n % 25}")
            await stalling.send(Goodbye())

    assert len(closed) == 1000
    told = Counter((kind, tuple(got), code) for kind, got, code in closed)
    assert told == {
        ("crowd", (Welcome(PROTOCOL_VERSION, __version__, 60.0),), 1000): 40,
        ("crowd", (CROWDED_OUT,), 1013): 20,
        ("silent", (SessionError("nothing came within 3 s"),), 1008): PER_KIND,
        ("no websocket", (), 0): PER_KIND,
        ("text", (SessionError("a text frame: each frame is one binary msgpack message"),), 1003): PER_KIND,
        ("oversized", (), 1009): PER_KIND,
        ("garbage", (SessionError(GARBAGE),), 1008): PER_KIND,
        ("flood", (), 0): PER_KIND,
        ("wrong token", (SessionError(TOKEN_REFUSED),), 1008): PER_KIND,
        ("spectator", (Watching(bait.game, ("alice", "bob")),), 1000): 3,
        ("spectator", (SessionError("this game has 3 spectators, its limit: try again later"),), 1013): PER_KIND - 3,
        ("slow reader", (), 1006): 20,  # cut off: no closing handshake
    }
    # What the server recorded: each fault in its log.
    faults = Counter(record.getMessage().split(" closed for ")[1].split(":")[0] for record in caplog.records
                     if " closed for " in record.getMessage())
    assert faults == {"a text frame": PER_KIND, "a frame over 8192 bytes": PER_KIND, "a flood": PER_KIND,
                      "a slow reader": 20}
    for seed in HONEST_SEEDS:
        game, result = results[seed]
        setup = GameSetup(["gruul", "orzhov"], seed, ["alice", "bob"], configs=[SeatConfig(timeout=DEADLINE)] * 2,
                          game_id=game)
        _, solo = await play_setup(setup, [RandomBot(setup.bot_seed(0)), RandomBot(setup.bot_seed(1))])
        assert result == solo, seed


CROWDED_OUT = SessionError("40 connections from this address at once, the limit: try again later")
GARBAGE = "invalid message: not msgpack (reserved byte 0xc1)"
