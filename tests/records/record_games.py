"""Games for the record tests: each played once with both a trace and a record, so that the
record's replay can be compared with the trace byte for byte. The misbehaving seats (a bot that
hangs, one that holds the event loop past its deadline, one that stops reading, one that sends
bytes that can't be read, asks for full views, tries an illegal action and sets its stops, one
that concedes), the seats on a game clock (one that thinks, one that holds the loop, one
whose reply comes after its loss), and the seats whose reply comes after they left the game or
just as their time ran out, play on a mock clock, as ``spellstack replay`` does."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import trio
import trio.testing

from spellstack import Action, RandomBot, default_answer
from spellstack.actors import Client, GameClock, Link, SeatConfig, Wire, play_one_game
from spellstack.bots import Bot
from spellstack.cli import main
from spellstack.protocol import (
    Concede,
    DecisionRequest,
    GameOver,
    Message,
    PriorityRequest,
    RequestFullView,
    SetStops,
    Stops,
    SubmitAction,
    SubmitAnswer,
)
from spellstack.rules import Decision, PlayerView, Reply, StartSettings

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 30.0
"""The seats' deadline in the in-process games: a replay that waited for real would take half
a minute per silent seat."""


@dataclass(frozen=True, slots=True)
class Played:
    """One game's files."""

    trace: Path
    """Its trace (``--trace``)."""
    record: Path
    """Its record (``--record``)."""


def play_cli(folder: Path, *args: str) -> Played:
    """``spellstack play ARGS --trace ... --record ...`` into ``folder``."""
    played = Played(folder / "game.jsonl", folder / "game.json")
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["play", *args, "--trace", str(played.trace), "--record", str(played.record)]) == 0
    return played


def play_mock(folder: Path, policies: Sequence[Bot | Client], *, turn_limit: int = 0,
              start: StartSettings | None = None) -> Played:
    """One game of the given seats (ann then ben) on a mock clock, traced and recorded."""
    played = Played(folder / "game.jsonl", folder / "game.json")
    configs = [SeatConfig(auto_pass=False, timeout=DEADLINE), SeatConfig(timeout=DEADLINE)]
    trio.run(lambda: play_one_game(["gruul", "dimir"], policies, 5, names=["ann", "ben"],
                                   trace_path=played.trace, record_path=played.record,
                                   configs=configs, turn_limit=turn_limit, start=start),
             clock=trio.testing.MockClock(autojump_threshold=0))
    return played


class HangsAtThirdPriority:
    """Plays as a random bot, but never answers its third priority decision."""

    def __init__(self, seed: int) -> None:
        self.random = RandomBot(seed)
        self.asked = 0

    async def decide(self, view: PlayerView, decision: Decision) -> Reply:
        if decision.kind == "priority":
            self.asked += 1
            if self.asked == 3:
                await trio.sleep_forever()
        return self.random.decide(view, decision)


class HoldsAtThirdPriority(RandomBot):
    """Holds the event loop past its deadline at its third priority decision (on the mock
    clock: it moves it on without yielding), then answers."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked = 0

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        if decision.kind == "priority":
            self.asked += 1
            if self.asked == 3:
                clock = trio.lowlevel.current_clock()
                assert isinstance(clock, trio.testing.MockClock)
                clock.jump(DEADLINE + 7.25)
        return super().decide(view, decision)


async def stops_reading(link: Link) -> None:
    """Asks for its stops twice at its first request, and never reads again: the second
    acknowledgement can't be sent."""
    await link.receive()
    stops = SetStops(Stops(my_turn=("precombat_main",)))
    await link.send(stops)
    await link.send(stops)
    await trio.sleep_forever()


def misbehaving(*, concede_at: int | None = None) -> Callable[[Link], Awaitable[None]]:
    """A client that plays the default answers, and at given requests (counted from 1, each
    sent again counted too, but for one answered already) misbehaves first: bytes that can't be
    read (2), a request for the full view (4), an illegal action (6), new stops (8), bytes that
    can't be read sent with the answer, before the error reply to them comes (10); concedes at
    ``concede_at`` if given."""

    async def client(link: Link) -> None:
        n = 0
        answered = False
        while True:
            msg = await link.receive()
            if isinstance(msg, GameOver):
                return
            if not isinstance(msg, PriorityRequest | DecisionRequest):
                continue
            if answered:  # the request sent again after the error reply: answered already
                answered = False
                continue
            n += 1
            decision = msg.decision
            reply = default_answer(decision)
            answer = (SubmitAction(decision.id, reply) if isinstance(reply, Action)
                      else SubmitAnswer(reply))
            if n == 2:
                await link.send_bytes(b"\x91\xc1")
                continue
            if n == 4 and not msg.view.full:
                await link.send(RequestFullView(decision.id))
                continue
            if n == 6 and isinstance(msg, PriorityRequest):
                await link.send(SubmitAction(decision.id, Action("cast", object_id=999_999)))
                continue
            if n == 8:
                await link.send(SetStops(Stops(my_turn=("precombat_main", "declare_attackers"))))
            if n == 10:
                await link.send_bytes(b"\xc1")
                await link.send(answer)
                answered = True
                continue
            if n == concede_at:
                await link.send(Concede())
                continue
            await link.send(answer)

    return client


misbehaves = misbehaving(concede_at=14)
"""The misbehaving client of the record tests: it concedes at its 14th request."""


class Thinks(RandomBot):
    """Plays at random, taking ``think`` seconds of its own time over each decision (waiting,
    as a bot that thinks elsewhere: an ``async decide`` that sleeps)."""

    def __init__(self, seed: int, think: float) -> None:
        super().__init__(seed)
        self.think = think

    async def decide(self, view: PlayerView, decision: Decision) -> Reply:  # type: ignore[override]
        await trio.sleep(self.think)
        return super().decide(view, decision)


class HoldsTheLoop(RandomBot):
    """Plays at random, holding the event loop ``hold`` seconds over each decision (on the mock
    clock: it moves it on without yielding, as if it computed that long)."""

    def __init__(self, seed: int, hold: float) -> None:
        super().__init__(seed)
        self.hold = hold

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        clock = trio.lowlevel.current_clock()
        assert isinstance(clock, trio.testing.MockClock)
        clock.jump(self.hold)
        return super().decide(view, decision)


def play_on_clock(folder: Path, policies: Sequence[Bot | Client], clock: GameClock | None, *, seed: int = 4,
                  turn_limit: int = 0) -> Played:
    """One game of the given seats (ann then ben), each on ``clock`` (None: none) with a 1 s
    deadline, on a mock clock, traced and recorded."""
    played = Played(folder / "game.jsonl", folder / "game.json")
    configs = [SeatConfig(timeout=1.0, clock=clock)] * 2
    trio.run(lambda: play_one_game(["gruul", "orzhov"], policies, seed, names=["ann", "ben"],
                                   trace_path=played.trace, record_path=played.record,
                                   configs=configs, turn_limit=turn_limit),
             clock=trio.testing.MockClock(autojump_threshold=0))
    return played


def answers_after_its_loss(at: int) -> list[Client]:
    """Two seats answering with the default answers: ben at once, ann after 0.3 s of her own
    time each, except her ``at``-th request, which she answers only once ben is told the game
    is over (her reply comes after she lost on time, as a reply on its way when the clock ran
    out does)."""
    over = trio.Event()

    async def ann(link: Link) -> None:
        asked = 0
        while True:
            msg = await link.receive()
            if isinstance(msg, PriorityRequest | DecisionRequest):
                asked += 1
                await (over.wait() if asked == at else trio.sleep(0.3))
                await link.send(_reply(msg))

    async def ben(link: Link) -> None:
        while not isinstance(msg := await link.receive(), GameOver):
            if isinstance(msg, PriorityRequest | DecisionRequest):
                await link.send(_reply(msg))
        over.set()

    return [Client(ann), Client(ben)]


def _reply(msg: PriorityRequest | DecisionRequest) -> SubmitAction | SubmitAnswer:
    """The default answer to a request."""
    answer = default_answer(msg.decision)
    return SubmitAction(msg.decision.id, answer) if isinstance(answer, Action) else SubmitAnswer(answer)


@dataclass(slots=True)
class LateReply:
    """Seats that answer with the default answers after ``THINK`` s of their own time each, but
    the first (ann), whose ``at``-th request she answers only once she has left the game (by a
    forfeit for time, a loss on time, or conceding at once, ``concedes``): once another seat is
    told the game is over (``late`` None), or ``late`` s after the request, the game going on
    (three seats or more)."""

    at: int
    """Her request answered late (counted from 1)."""
    late: float | None
    """Seconds after it that she answers it; None: once the game is over for another seat."""
    concedes: bool = False
    """She concedes as she is asked it, and answers it all the same."""
    sent_at: int = -1
    """How many lines the wire had numbered when she sent her late reply (-1: not yet)."""

    THINK = 0.3
    """Seconds each other answer takes."""

    def clients(self, seats: int) -> list[Client]:
        """The seats' clients, ann first."""
        over = trio.Event()

        async def ann(link: Link) -> None:
            asked = 0
            while True:
                msg = await link.receive()
                if isinstance(msg, PriorityRequest | DecisionRequest):
                    asked += 1
                    if asked != self.at:
                        await trio.sleep(self.THINK)
                    else:
                        if self.concedes:
                            await link.send(Concede())
                        await (over.wait() if self.late is None else trio.sleep(self.late))
                        self.sent_at = link.wire.seq
                    await link.send(_reply(msg))

        async def other(link: Link) -> None:
            while not isinstance(msg := await link.receive(), GameOver):
                if isinstance(msg, PriorityRequest | DecisionRequest):
                    await trio.sleep(self.THINK)
                    await link.send(_reply(msg))
            over.set()

        return [Client(ann)] + [Client(other) for _ in range(seats - 1)]


def play_late(folder: Path, late: LateReply, seats: int, *, clock: GameClock | None = None) -> Played:
    """One game of ``late``'s seats (ann, ben, cid: gruul, orzhov, dimir), each with a 1 s
    deadline, ann on ``clock`` too, to turn 12 at most, on a mock clock, traced and recorded."""
    played = Played(folder / "game.jsonl", folder / "game.json")
    configs = [SeatConfig(timeout=1.0, clock=clock)] + [SeatConfig(timeout=1.0)] * (seats - 1)
    trio.run(lambda: play_one_game(["gruul", "orzhov", "dimir"][:seats], late.clients(seats), 4,
                                   names=["ann", "ben", "cid"][:seats], trace_path=played.trace,
                                   record_path=played.record, configs=configs, turn_limit=12),
             clock=trio.testing.MockClock(autojump_threshold=0))
    return played


@dataclass(slots=True)
class _LetsInOnTimeOut(Link):
    """The coordinator's end of a seat's link: when its wait for the seat's reply is cancelled
    (the deadline fired), the reply the seat has ready (``ready``) lands first, sent from the
    seat's end, before the coordinator runs on: a reply sent just as the deadline woke the
    coordinator, as a bot that thinks up to its deadline may send one under load."""

    ready: list[tuple[Link, Message]] = field(default_factory=list)
    """The seat's end, and the reply it has ready (at most one)."""

    async def receive_bytes(self) -> bytes:
        try:
            return await Link.receive_bytes(self)
        except trio.Cancelled:
            for end, msg in self.ready:
                end.out.send_nowait(end.wire.record(end.me, end.peer, msg))
            self.ready.clear()
            raise


def replies_as_the_deadline_fires(at: int) -> list[Client]:
    """Two seats answering with the default answers, ann after 0.25 s of her own time each (a
    time a float holds exactly, so that her deadline's time is too), ben at once; ann's
    ``at``-th reply is sent just as her time for it runs out, once the deadline has woken the
    coordinator but before it has run on (``_LetsInOnTimeOut``)."""
    mine: list[_LetsInOnTimeOut] = []

    def link(wire: Wire, me: str, peer: str) -> tuple[Link, Link]:
        coordinators, players = Link.pair(wire, me, peer)
        mine.append(_LetsInOnTimeOut(coordinators.wire, coordinators.me, coordinators.peer, coordinators.out,
                                     coordinators.inbox, coordinators.trusted, coordinators.held))
        return mine[-1], players

    async def ann(link: Link) -> None:
        asked = 0
        while True:
            msg = await link.receive()
            if isinstance(msg, PriorityRequest | DecisionRequest):
                asked += 1
                if asked == at:
                    mine[0].ready.append((link, _reply(msg)))
                    continue
                await trio.sleep(0.25)
                await link.send(_reply(msg))

    async def ben(link: Link) -> None:
        while not isinstance(msg := await link.receive(), GameOver):
            if isinstance(msg, PriorityRequest | DecisionRequest):
                await link.send(_reply(msg))

    return [Client(ann, link), Client(ben)]
