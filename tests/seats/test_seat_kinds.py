"""Every kind of seat passes one set of tests, through the one seat protocol (``Seat``): a game
to its end, a forfeit, a resync.

The kinds: a bot in the engine's process (``PolicySeat``), a Python class hosted in a bot
process of its own, a program speaking the stdio protocol, the chat's human seat played by a
scripted person typing commands, the harness's hostile client, and a remote seat
(``RemoteSeat``) played by a random bot over a WebSocket on the loopback address. Each plays gruul against a
random bot's dimir. What the seat sends to the coordinator passes through the coordinator's
end of its link (``Tampered``), which can turn a submission into bytes that are not msgpack:

- one such message: the coordinator refuses it (an ``ErrorReply``, a strike) and asks the same
  question again with the full view (a resync), and the seat must answer it and play on;
- every such message: three in a row forfeit the seat, and the game ends with the other's win.

The bot processes make those kinds' tests take real time (each starts a process; a hosted
class's imports the engine, about a second); nothing waits on a deadline or a clock.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

import msgpack
import pytest
import trio
from trio_websocket import WebSocketRequest, open_websocket_url, serve_websocket

from spellstack.actors import Client, GameResult, GameSetup, Link, SeatConfig, Wire, player_actor
from spellstack.bots import RandomBot
from spellstack.chat._commands import parse_command
from spellstack.chat._render import Numbering
from spellstack.chat._seats import HumanSeat, Session
from spellstack.harness import HostileSeat, HostileStream
from spellstack.protocol import (
    Accepted,
    DecisionRequest,
    ErrorReply,
    PriorityRequest,
    Seated,
    decode_from_server,
    decode_trusted,
)
from spellstack.seats import HOST_MODULE, PolicySeat, ProcessBot, Seat, SeatHello, hellos, play_seats
from spellstack.server import Connection, RemoteSeat
from tests.chat._driver import User

ROOT = Path(__file__).resolve().parents[2]
SETUP = GameSetup(["gruul", "dimir"], 8, ["seat", "random"], turn_limit=12,
                  configs=[SeatConfig(timeout=20.0), SeatConfig()])
"""The game every kind plays: the seat under test first. The deadline is generous (a bot
process on a busy machine); no test waits it out."""
LinkMaker = Callable[[Wire, str, str], tuple[Link, Link]]
"""What makes a seat's link (``Client.link``)."""
NOT_MSGPACK = b"\xc1"
"""A byte msgpack never uses: what a corrupted submission becomes."""


# --------------------------------------------------------------------- the coordinator's end


@dataclass
class Tamper:
    """Watches a seat's link at the coordinator's end, and corrupts the seat's submissions
    (``SubmitAction``, ``SubmitAnswer``) from number ``first`` on, ``count`` of them, each
    only while the seat has no strike (so that one corruption alone never forfeits it)."""

    first: int = 0
    """The first submission (from 1) to corrupt; 0: none."""
    count: int = 0
    """How many to corrupt."""
    submissions: int = 0
    """Submissions the seat sent."""
    corrupted: list[int] = field(default_factory=list)
    """The decision each corrupted submission answered."""
    next_asked: list[int] = field(default_factory=list)
    """For each corruption, the index in ``asked`` of the next request the seat was sent."""
    strikes: int = 0
    """Error replies to the seat since its last accepted message."""
    asked: list[tuple[int, bool]] = field(default_factory=list)
    """Each request the seat was sent: its decision, and whether its view was full."""
    after: list[int] = field(default_factory=list)
    """For each corruption, the submissions the seat sent after it."""

    def on_receive(self, data: bytes) -> bytes:
        try:
            kind = msgpack.unpackb(data, raw=False).get("k")
        except Exception:  # a hostile seat's bytes need not be msgpack, nor a map
            kind = None
        if kind not in ("SubmitAction", "SubmitAnswer"):
            return data
        self.submissions += 1
        self.after = [n + 1 for n in self.after]
        due = self.first and self.submissions >= self.first and len(self.corrupted) < self.count
        if due and (self.strikes == 0 or self.count > 1):
            self.corrupted.append(self.asked[-1][0])
            self.next_asked.append(len(self.asked))
            self.after.append(0)
            return NOT_MSGPACK
        return data

    def on_send(self, data: bytes) -> None:
        msg = decode_trusted(data)
        if isinstance(msg, PriorityRequest | DecisionRequest):
            self.asked.append((msg.decision.id, msg.view.full))
        elif isinstance(msg, ErrorReply):
            self.strikes += 1
        elif isinstance(msg, Accepted):
            self.strikes = 0

    def pair(self, make: LinkMaker) -> LinkMaker:
        """``make``'s link with its coordinator's end watched."""

        def made(wire: Wire, me: str, peer: str) -> tuple[Link, Link]:
            mine, theirs = make(wire, me, peer)
            return Watched(mine.wire, mine.me, mine.peer, mine.out, mine.inbox, mine.trusted, mine.held, self), theirs

        return made


@dataclass(slots=True)
class Watched(Link):
    """The coordinator's end of a seat's link, seen through a ``Tamper``."""

    tamper: Tamper | None = None

    async def receive_bytes(self) -> bytes:
        data = await Link.receive_bytes(self)
        assert self.tamper is not None
        return self.tamper.on_receive(data)

    async def send_bytes(self, data: bytes) -> None:
        assert self.tamper is not None
        self.tamper.on_send(data)
        await Link.send_bytes(self, data)


@dataclass(frozen=True)
class Tampered:
    """A seat whose link's coordinator end a ``Tamper`` watches: a client keeps its own play,
    a policy is played by the engine's player actor as ``play_game`` would."""

    seat: Seat
    tamper: Tamper

    def player(self, hello: SeatHello) -> Client:
        made = self.seat.player(hello)
        if isinstance(made, Client):
            return replace(made, link=self.tamper.pair(made.link))
        return Client(partial(player_actor, made), self.tamper.pair(Link.pair))


# --------------------------------------------------------------------- the kinds


class Person:
    """A scripted person at a human seat: each time the seat is asked something (shown, or
    asked again after a refusal), they type the command ``tests.chat._driver.User`` would."""

    def __init__(self) -> None:
        self.asked_send, self.asked = trio.open_memory_channel[None](1000)
        self.session = Session("g1", 0, HumanSeat("seat", time_limit=20.0), None,  # type: ignore[arg-type]
                               lambda session, text: self.told.append(text),
                               lambda session: self.asked_send.send_nowait(None))
        self.told: list[str] = []
        self.typed: list[str] = []
        self.user = User(self, "g1", "seat")  # type: ignore[arg-type]  # self stands in for the host

    def numbering(self, game: str, name: str) -> Numbering:
        return self.session.numbering

    async def play(self) -> None:
        async for _ in self.asked:
            # The seat's question is set once its policy waits for the answer: this task runs then.
            s, decision, view = self.session, self.session.decision, self.session.view
            if decision is None or view is None:
                continue
            command = self.user.command(view, decision)
            parsed = parse_command(command, view, decision, s.numbering)
            assert not parsed.error and not parsed.local, (command, parsed.error)
            self.typed.append(command)
            s.decision = None  # one reply per question, as the host does
            s.deliver(decision.id, parsed.reply)


@dataclass(frozen=True)
class Kind:
    """One kind of seat, as the tests meet it."""

    name: str
    seat: Callable[[], tuple[Seat, Callable[[], object] | None]]
    """A fresh seat, and the task (if any) that plays its side: a human's person."""


def _in_process() -> tuple[Seat, None]:
    return PolicySeat(RandomBot), None


def _hosted_class() -> tuple[Seat, None]:
    return ProcessBot((sys.executable, "-m", HOST_MODULE, "spellstack.bots:RandomBot")), None


def _stdio_program() -> tuple[Seat, None]:
    return ProcessBot((sys.executable, str(ROOT / "examples" / "stdio_bot.py"))), None


def _human() -> tuple[Seat, Callable[[], object]]:
    person = Person()
    return person.session, person.play


def _hostile() -> tuple[Seat, None]:
    return HostileSeat(HostileStream(5)), None


def _remote() -> tuple[Seat, Callable[[], object]]:
    seat = RemoteSeat(hellos(SETUP)[0], grace=20.0, after_game=1.0)

    async def attach(request: WebSocketRequest) -> None:
        await seat.attach(Connection(await request.accept(), "the test's client"))

    async def client() -> None:  # a random bot in the engine's player actor, over a WebSocket
        async with trio.open_nursery() as nursery:
            listening = await nursery.start(serve_websocket, attach, "127.0.0.1", 0, None)
            async with open_websocket_url(f"ws://127.0.0.1:{listening.port}") as ws:
                seated = decode_from_server(await ws.get_message())  # type: ignore[arg-type]
                assert isinstance(seated, Seated)
                to_player, from_server = trio.open_memory_channel[bytes](1)
                to_server, from_player = trio.open_memory_channel[bytes](1)

                async def down() -> None:
                    while True:
                        data = await ws.get_message()
                        assert isinstance(data, bytes)
                        await to_player.send(data)

                async def up() -> None:
                    async for data in from_player:
                        await ws.send_message(data)

                nursery.start_soon(down)
                nursery.start_soon(up)
                await player_actor(RandomBot(seated.seed), Link(Wire("client", None), "player:seat", "coordinator",
                                                                to_server, from_server))
            nursery.cancel_scope.cancel()

    return seat, client


KINDS = [Kind("in-process bot", _in_process), Kind("hosted class", _hosted_class),
         Kind("stdio program", _stdio_program), Kind("human", _human), Kind("hostile client", _hostile),
         Kind("remote seat", _remote)]


async def _play(kind: Kind, tamper: Tamper) -> GameResult:
    seat, side = kind.seat()
    async with trio.open_nursery() as nursery:
        if side is not None:
            nursery.start_soon(side)
        _, result = await play_seats(SETUP, [Tampered(seat, tamper), PolicySeat(RandomBot)])
        nursery.cancel_scope.cancel()
    assert result.error is None and not result.reason.startswith("engine error"), result.reason
    return result


# --------------------------------------------------------------------- the tests


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
async def test_a_game_to_its_end(kind: Kind) -> None:
    tamper = Tamper()
    result = await _play(kind, tamper)
    assert result.forfeits == [], result.forfeits
    assert result.winner is not None or result.reason.startswith("draw"), result.reason
    assert tamper.submissions > 5  # the seat played its side


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
async def test_a_forfeit(kind: Kind) -> None:
    tamper = Tamper(first=2, count=100)
    result = await _play(kind, tamper)
    [(who, why)] = result.forfeits
    assert who == "seat" and why.startswith("3 malformed messages in a row: "), why
    assert result.winner == "random" and len(tamper.corrupted) == 3


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
async def test_a_resync(kind: Kind) -> None:
    tamper = Tamper(first=3, count=1)
    result = await _play(kind, tamper)
    [decision] = tamper.corrupted
    # The same question was asked again, with the full view; the seat answered it and played on
    # to the game's end.
    assert tamper.asked[tamper.next_asked[0]] == (decision, True)
    assert tamper.after[0] > 5
    assert result.forfeits == [], result.forfeits
