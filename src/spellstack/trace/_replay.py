"""Replaying a trace: each seat sends again exactly what its player sent, where it sent it.

A seat of a replay is a ``ReplaySeat``: a client (``actors.Client``) that plays its seat from
the trace's record of it (``SeatScript``), not a policy. For each message the trace records
from its player, in order, it first receives as many messages from the coordinator as the
trace shows sent to that player before it, and then sends it: decoded and sent again, or, for
a message that could not be read (a ``malformed`` event with its ``bytes``), the bytes as they
came, so that the coordinator judges each one as it did. A player's answers, its refused and
malformed messages, its settings (``SetStops``), its requests for a full view and its forfeits
are all replayed alike. Where the player said nothing, the seat says nothing: a seat the
coordinator forfeited for time is silent again, and forfeited again.

With game clocks, each answer taken is sent after the time its player took over it, as the
requests' clock readings tell it (a seat's time left falls by that, less its increment, from
one decision to the next; the last from the result's ``clock_left``), so that the replay shows
the same readings. A seat that lost on time while silent is silent again and loses again; one
whose reply came too late holds the loop past its time left before sending it again.

What a seat sent once it had left the game (forfeited, conceded, out of time: a reply on its
way as the coordinator declared it out) the trace has after the game's last message, where the
game's wire numbers it whenever it came (``actors.Wire.leave``): it is sent again as the game
ends, and numbered there again.

The replay runs in a trio run of its own on a clock that jumps whenever every task waits
(``trio.testing.MockClock``), so that waiting out a silent seat's deadline costs nothing and
no deadline depends on how fast the machine replaying is: a replay is played by the trace's
record alone.
"""

from __future__ import annotations

import functools
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import trio

from .._version import __version__
from ..actors import ON_TIME, Client, GameResult, Link, SeatConfig, play_one_game
from ..bots import Bot
from ..cards import Deck
from ..protocol import DecisionRequest, Message, PriorityRequest, Stops, SubmitAction, SubmitAnswer
from ..rules import CONCEDED, Decision, Game, PlayerView, Reply
from ._read import ReplayMismatchError, Trace, TraceHeader, TraceMessage

__all__ = ["ReplayBot", "ReplaySeat", "ScriptBuilder", "SeatScript", "SeatStep", "play_scripts", "replay_trace",
           "seat_script"]

_LATE = re.compile(r"answered after (\d+(?:\.\d+)?) s, over its (\d+(?:\.\d+)?(?:e[-+]?\d+)?) s deadline")
"""A seat channel's forfeit of a seat whose answer came after its deadline: a policy that held
the event loop that long (``SeatChannel._late``)."""
_UNREAD = "did not read its messages within "
"""How a seat channel's forfeit of a seat that stopped reading begins (``SeatChannel.send``)."""


@dataclass(frozen=True, slots=True)
class SeatStep:
    """One message a player sent in the trace, as its replay seat sends it again."""

    after: int
    """How many messages the player had received from the coordinator when it sent it."""
    line: int
    """Its line in the trace (for bytes that could not be read: their ``malformed`` event's)."""
    message: Message | None
    """The message, sent again as it is; None: ``data``."""
    data: bytes = b""
    """The bytes of a message that could not be read, sent again as they came."""
    hold: float = 0.0
    """Seconds the player held the event loop before sending it: an answer that came after its
    deadline, or after its game clock ran out, by that long (0: none)."""
    wait: float = 0.0
    """Seconds of its own time the player took before sending it, waiting (not holding the
    loop): the time an answer taken cost its game clock (0: none, or no clock)."""
    at_end: bool = False
    """It came after its seat had left the game (forfeited, conceded, out of time), so the
    trace has it after the game's last message: it is sent again as the game ends
    (``ReplaySeat``)."""


@dataclass(frozen=True, slots=True)
class SeatScript:
    """What one player did in a trace, in the order it did it."""

    player: str
    """The player's name."""
    steps: tuple[SeatStep, ...]
    """What it sent, in order."""
    received: int
    """How many messages the coordinator sent it."""
    reads: int | None = None
    """For a player forfeited for not reading its messages: how many it read before it
    stopped; None: it read everything."""


class ScriptBuilder:
    """Builds one player's ``SeatScript`` from what happened to its seat, told in the order it
    happened: each message it was sent (``receive``), each it sent (``sent``), the bytes it
    sent that could not be read (``unreadable``) and the coordinator's forfeits of it
    (``forfeited``). ``seat_script`` tells it a trace; a record tells it the same
    (``record_scripts``)."""

    def __init__(self, player: str) -> None:
        self.player = player
        """The player's name."""
        self.received = 0
        """Messages it was sent so far."""
        self.steps: list[SeatStep] = []
        """What it sent so far."""
        self.late: dict[int, float] = {}
        """Steps sent after their deadline, by index: how long the player held the loop."""
        self.reads: int | None = None
        """How many messages it read before it stopped reading (None: it read them all)."""
        self.last_sent = -1
        """The index of the last message it sent (-1: none)."""
        self.left = False
        """It has left the game (forfeited, conceded, out of time): what it sends from now on
        the trace has after the game's last message, where its replay sends it too."""
        self.clocks = _ClockReadings()
        """Its game clock's readings (a trace's requests carry them; a record gives each
        answer's time instead: ``timed``)."""

    def receive(self, count: int = 1, *, reading: TraceMessage | None = None) -> None:
        """It was sent a message (``count`` messages); ``reading``: that message, whose clock
        reading (a request's) tells how long the answer before it took."""
        self.received += count
        if reading is not None:
            self.clocks.received(reading, self.received, self.steps)

    def sent(self, line: int, message: Message, *, at_end: bool = False) -> None:
        """It sent ``message`` (at ``line`` of its trace); ``at_end``: after it had left the
        game, numbered once the game was over (as it is, too, once it has ``left``)."""
        self.steps.append(SeatStep(self.received, line, message, at_end=at_end or self.left))
        self.last_sent = len(self.steps) - 1

    def unreadable(self, line: int, data: bytes) -> None:
        """It sent ``data``, which could not be read (its ``malformed`` event at ``line``)."""
        self.steps.append(SeatStep(self.received, line, None, data))

    def forfeited(self, reason: str) -> None:
        """The coordinator forfeited it for ``reason``: for an answer after its deadline, the
        answer is held as long again; for not reading, it stops reading where it did. It has
        left the game."""
        self.left = True
        if (found := _LATE.fullmatch(reason)) and self.last_sent >= 0:
            # Held just past the deadline at least: the reason's time is rounded.
            spent, limit = float(found[1]), float(found[2])
            self.late[self.last_sent] = max(spent, limit + 0.001)
        elif reason.startswith(_UNREAD):
            # The message it could not be sent waited behind one in the link's buffer.
            self.reads = max(self.received - 2, 0)

    def timed(self, spent_ms: int, *, late: bool) -> None:
        """The message it sent last took ``spent_ms`` of its game clock (as its record says):
        an answer taken is sent after as long, waiting; the reply that came too late
        (``late``: past the time it had left) holds the loop as long."""
        if late:
            self.late[self.last_sent] = spent_ms / 1000
        else:
            self.clocks.spent(self.last_sent, spent_ms)

    def lost(self, reason: str) -> None:
        """It lost the game for ``reason`` (its ``lose`` event's text): by concession or on
        time, it has left the game; on time, with its reply to the last request too late
        (past, or within the last half millisecond of, the time it had left), the reply is
        held past that time."""
        clocks = self.clocks
        if reason.endswith(_CONCEDED):
            self.left = True
        if _ON_TIME not in reason:
            return
        self.left = True
        if (self.last_sent >= 0 and clocks.left_ms >= 0
                and self.steps[self.last_sent].after >= clocks.asked):
            self.late[self.last_sent] = (clocks.left_ms + 1) / 1000

    def script(self) -> SeatScript:
        """The player's script."""
        late, waits = self.late, self.clocks.waits
        held = [SeatStep(s.after, s.line, s.message, s.data, late.get(i, 0.0), waits.get(i, 0.0), s.at_end)
                for i, s in enumerate(self.steps)]
        # The coordinator reads a seat's messages in the order they were sent. One that could
        # not be read is recorded when it is read, a message when it is sent: of two sent after
        # the same message received, unreadable bytes read before the reply to them came went
        # first.
        held.sort(key=lambda s: (s.after, s.message is not None, s.line))
        return SeatScript(self.player, tuple(held), self.received, self.reads)


def seat_script(trace: Trace, player: str) -> SeatScript:
    """``player``'s part of ``trace``; ``TraceRecordError`` for a message of its that doesn't
    decode as its kind."""
    actor = f"player:{player}"
    seat = trace.header.players.index(player)
    build = ScriptBuilder(player)
    for m in trace.messages:
        if m.receiver == actor:
            build.receive(reading=m)
        elif m.sender == actor:
            build.sent(m.line, m.decode(trace.source))
        elif m.kind == "GameEvent" and m.payload.get("player") == seat:
            kind = m.payload.get("kind")
            if kind == "malformed" and m.data:
                build.unreadable(m.line, m.data)
            elif kind == "forfeit":
                build.forfeited(str(m.payload.get("text", "")))
            elif kind == "lose":
                build.lost(str(m.payload.get("text", "")))
    if trace.result is not None and seat < len(trace.result.clock_left):
        build.clocks.ended(trace.result.clock_left[seat])
    return build.script()

_ON_TIME = f": {ON_TIME} (clock "
"""What the ``lose`` event of a seat whose game clock ran out says (``GameClock.loss``)."""
_CONCEDED = f": {CONCEDED}"
"""How the ``lose`` event of a seat that conceded ends."""


class _ClockReadings:
    """A seat's game clock as its requests in a trace show it, read message by message: how
    long each answer taken took (``waits``, by step), from the reading before it and the next."""

    def __init__(self) -> None:
        self.left_ms = -1
        """The last request's reading of the time left, in milliseconds (-1: no clock)."""
        self.increment_ms = 0
        """Its increment, in milliseconds."""
        self.asked = 0
        """How many messages the seat had received when its last request came."""
        self.waits: dict[int, float] = {}
        """Seconds to wait before each answer taken, by its step's index."""
        self._taken: tuple[int, int, int] | None = None
        """An answer taken whose time is not known yet: its step, the time left before it and
        the increment (milliseconds), until the next reading (or the end) tells it."""

    def received(self, m: TraceMessage, count: int, steps: list[SeatStep]) -> None:
        """The seat received ``m``, its ``count``-th message, after sending ``steps``."""
        if m.kind in ("PriorityRequest", "DecisionRequest"):
            self.asked = count
            clock = m.payload.get("clock")
            if isinstance(clock, dict):
                left, increment = clock.get("left"), clock.get("increment")
                if isinstance(left, int | float) and isinstance(increment, int | float):
                    self._read(round(left * 1000))
                    self.left_ms, self.increment_ms = round(left * 1000), round(increment * 1000)
        elif m.kind == "Accepted" and self.left_ms >= 0:
            decision = m.payload.get("decision_id")
            for i in range(len(steps) - 1, -1, -1):
                if _decision_of(steps[i].message) == decision:
                    self._taken = (i, self.left_ms, self.increment_ms)
                    break

    def ended(self, left: float) -> None:
        """The game ended with ``left`` seconds on the seat's clock."""
        if math.isfinite(left):
            self._read(round(left * 1000))

    def _read(self, left_ms: int) -> None:
        """A reading of ``left_ms``: the time of the answer taken before it, if any."""
        if self._taken is None:
            return
        step, before, increment = self._taken
        self._taken = None
        self.spent(step, before + increment - left_ms)

    def spent(self, step: int, spent_ms: int) -> None:
        """The answer of ``step`` cost ``spent_ms`` of the seat's clock: it waits as long."""
        if spent_ms > 0:
            # Just under the time spent: it rounds to the same millisecond, and stays within
            # a limit it was within.
            self.waits[step] = (spent_ms - 0.4) / 1000


def _decision_of(message: Message | None) -> int | None:
    """The decision a step's message answers (None: it answers none)."""
    if isinstance(message, SubmitAction):
        return message.decision_id
    if isinstance(message, SubmitAnswer):
        return message.answer.decision_id
    return None


class ReplaySeat:
    """A seat played from its trace's record (``SeatScript``): sends what its player sent,
    each message once it has received what the player had received then (``play``). Raises
    ``ReplayMismatchError`` when sent more messages than the trace records."""

    def __init__(self, script: SeatScript) -> None:
        self.script = script
        """What to replay."""
        self.sent = 0
        """Steps sent so far."""
        self.received = 0
        """Messages received from the coordinator so far."""

    def client(self, entrant: str) -> Client:
        """The seat as a game's client: it sends what its player sent before the game's first
        request before the game begins (``Client.starts``), as a bot process does."""
        return Client(self.play, starts=True, entrant=entrant)

    async def play(self, link: Link, ready: Callable[[], None] = lambda: None) -> None:
        """Play the seat over the player's end of its link until cancelled (once the game is
        over, it reads on: a message after the ones recorded is a mismatch)."""
        script = self.script
        await self._send_due(link)
        ready()
        recorded = script.received
        try:
            while True:
                if script.reads is not None and self.received >= script.reads:
                    await trio.sleep_forever()  # the player stopped reading here
                msg = await link.receive()
                self.received += 1
                if self.received > recorded:
                    what = (f"decision {msg.decision.id} ({msg.decision.kind})"
                            if isinstance(msg, PriorityRequest | DecisionRequest) else msg.KIND)
                    raise ReplayMismatchError(f"{script.player} was sent {what} after all {recorded} "
                                              "messages the trace records sent to it")
                await self._send_due(link)
        except trio.Cancelled:
            self._send_at_end(link)
            raise

    def _send_at_end(self, link: Link) -> None:
        """The game is over (its players are cancelled): what the player sent after it had
        left the game goes on the wire now, which numbers it after everything the game did,
        as in the trace (``Wire.leave``; the coordinator, done with the seat, reads none of
        it)."""
        steps = self.script.steps
        while self.sent < len(steps) and steps[self.sent].at_end:
            message = steps[self.sent].message
            self.sent += 1
            if message is not None:
                link.wire.record(link.me, link.peer, message)

    async def _send_due(self, link: Link) -> None:
        """Send every step due now, having received what the player had received (not one
        sent at the game's end: ``_send_at_end``)."""
        steps = self.script.steps
        while self.sent < len(steps) and steps[self.sent].after <= self.received:
            step = steps[self.sent]
            if step.at_end:
                return
            self.sent += 1  # once it is on the wire, it is in the replay's trace
            if step.wait:
                await trio.sleep(step.wait)
            if step.hold:
                _hold(link, step.hold)
            if step.message is not None:
                await link.send(step.message)
            else:
                await link.send_bytes(step.data)


def _hold(link: Link, seconds: float) -> None:
    """Hold the event loop ``seconds``, charged to the seat as its policy's holding is: on a
    mock clock by moving it on, on a real one by waiting."""
    from trio.testing import MockClock  # here: trio.testing imports pytest, which no command needs

    clock = trio.lowlevel.current_clock()
    if isinstance(clock, MockClock):
        clock.jump(seconds)
    else:
        time.sleep(seconds)
    link.held.own += seconds


class ReplayBot:
    """A policy that answers with a recorded list of replies, in order (and declares the
    recorded stops); raises ``ReplayMismatchError`` when asked more than was recorded. It
    replays a player's answers only: ``replay_trace`` replays everything a seat sent
    (``ReplaySeat``)."""

    def __init__(self, replies: Sequence[Reply], stops: Stops | None = None) -> None:
        self.replies = list(replies)
        """The replies to give, in order."""
        self.used = 0
        """How many it has given."""
        self.stops = stops
        """The stops to declare with its first reply (None: none)."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """The next recorded reply."""
        if self.used >= len(self.replies):
            raise ReplayMismatchError(f"asked decision {decision.id} ({decision.kind}) after "
                                      f"all {len(self.replies)} recorded replies")
        reply = self.replies[self.used]
        self.used += 1
        return reply


async def play_scripts(header: TraceHeader, scripts: Sequence[SeatScript], *,
                       decks: Sequence[str | Deck] | None = None,
                       configs: Sequence[SeatConfig] | None = None,
                       trace_path: Path | None = None) -> tuple[Game, GameResult, list[ReplaySeat]]:
    """Play the game ``header`` sets up again, each seat played from its script
    (``ReplaySeat``, in seat order), in a trio run of its own on a mock clock (see
    ``replay_trace``); returns the game, its result and the seats (what each sent). Checks
    nothing: its callers compare with what they recorded."""
    players = header.players
    chosen: Sequence[str | Deck] = (decks if decks is not None else
                                    [Deck(header.decks[p], header.decklists[p]) for p in players])
    seats = [ReplaySeat(s) for s in scripts]
    clients: list[Bot | Client] = [s.client(header.entrants[p]) for s, p in zip(seats, players, strict=True)]
    play = functools.partial(play_one_game, chosen, clients, header.seed, names=players,
                             trace_path=trace_path,
                             configs=configs if configs is not None else list(header.seats),
                             start=header.start, game_id=header.game, turn_limit=header.turn_limit,
                             entrants=[header.entrants[p] for p in players])
    from trio.testing import MockClock  # here: trio.testing imports pytest, which no command needs

    game, result = await trio.to_thread.run_sync(
        functools.partial(trio.run, play, clock=MockClock(autojump_threshold=0)))
    return game, result, seats


async def replay_trace(trace: Trace, *, decks: Sequence[str] | None = None,
                       configs: Sequence[SeatConfig] | None = None,
                       trace_path: Path | None = None) -> tuple[Game, GameResult]:
    """Play the trace's game again (same seed, decks and players), each seat sending exactly
    the messages its player sent, where it sent them (``ReplaySeat``); returns the game and its
    result, after checking that the final state hash is the recorded one and every recorded
    message was sent (``ReplayMismatchError``, which also names a seat sent more messages than
    recorded). ``TraceRecordError``, before the game starts, for a recorded message that
    doesn't decode.

    A trace cut short (no result line) is played up to its cut: the game stops at the first
    message to a seat that the trace doesn't record (its result is then an engine error
    naming it), and only whether every recorded message was sent again is checked here
    (``check_replay`` compares the lines).

    Everything else comes from the trace's header: the decklists (so a game played from deck
    files replays without them), each seat's settings, the turn limit, how the game started.
    ``decks`` and ``configs`` override the header's decklists and seat settings.
    ``trace_path``: trace the replay to this file.

    The game is played in a trio run of its own, in a worker thread, on a mock clock that
    jumps whenever every task waits: a seat that was forfeited for time is forfeited again at
    no cost in time, and nothing in the replay depends on the caller's clock. With game clocks,
    each seat takes over each answer the time its player took (as the trace's readings tell
    it), and a loss on time is a loss on time again.
    """
    header = trace.header
    players = header.players
    game, result, seats = await play_scripts(header, [seat_script(trace, p) for p in players],
                                             decks=decks, configs=configs, trace_path=trace_path)
    recorded = trace.result
    problems = []
    if recorded is not None:
        if isinstance(result.error, ReplayMismatchError):
            problems.append(str(result.error))
        if result.final_hash != recorded.final_hash:
            problems.append(f"final state hash {result.final_hash}, recorded {recorded.final_hash} "
                            f"(ended: {result.reason!r}; recorded: {recorded.reason!r})")
    # A trace cut short ends nowhere in particular: its seats stop the replay at the first
    # message it doesn't record (a ReplayMismatchError of theirs, expected), and what was
    # recorded must all have been sent again.
    problems += [f"{p} sent {s.sent} of its {len(s.script.steps)} recorded messages"
                 for p, s in zip(players, seats, strict=True) if s.sent != len(s.script.steps)]
    if problems:
        if trace.header.engine != __version__:
            problems.append(f"the trace was written by spellstack {trace.header.engine}, this "
                            f"is {__version__}")
        raise ReplayMismatchError("the replay differs from the trace: " + "; ".join(problems))
    return game, result
