"""One seat's channel, as the coordinator uses it: the transport between the game and a player.

A ``SeatChannel`` owns everything about talking with one seat that is not the game's loop: the
request and its view (a delta, or the full view again when the seat asks or sent what can't be
read), the decision's deadline by the seat's own time (``SeatClock``), the seat's game clock if
it has one (``SeatTime``: each decision's limit is its deadline or the time left, whichever is
shorter), settings sent meanwhile (``SetStops``), malformed messages (strikes), refusals in a
row, and the forfeits and losses on time all of these lead to. It answers the coordinator with
return values (the action or answer, whether the seat is still in the game) and never calls
it: what it changes in the game is the seat's part of the game loop (``GameLoop.set_stops``,
``GameLoop.leave``, ``GameLoop.lose``), and each forfeit is also recorded in the list it was
given (the game result's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import trio

from .._printable import printable
from ..protocol import (
    Accepted,
    Concede,
    DecisionRequest,
    ErrorReply,
    Forfeit,
    Message,
    PriorityRequest,
    Rejected,
    RequestFullView,
    SetStops,
    Stops,
    StopsSet,
    SubmitAction,
    SubmitAnswer,
    ViewDelta,
    ViewTracker,
    decode_from_player,
)
from ..rules import Action, ClockState, Decision, Game, GameLoop, InvalidMessageError, ViewMemo, view_for
from ..rules.base import builder
from ._clock import GameClock, SeatTime
from ._deadlines import Deadlines
from ._lag import LoopLag, SeatClock
from ._mailbox import Mailbox
from ._wire import Link

__all__ = ["MAX_REJECTIONS", "MAX_SETTINGS", "MAX_STRIKES", "ChannelStatistics", "SeatChannel"]

# Made by ``builder``, faster than the frozen classes' own ``__init__``: sent at every priority
# decision.
_PRIORITY_REQUEST: Final = builder(PriorityRequest)
_ACCEPTED: Final = builder(Accepted)

MAX_STRIKES = 3
"""Malformed messages a seat may send in a row before it forfeits: only an accepted action or
answer ends the run (a refused one does not)."""
MAX_REJECTIONS = 50
"""Illegal actions a seat may submit in a row before it forfeits (a lying bot can't stall)."""
MAX_SETTINGS = 4
"""``SetStops`` a seat may send while one request is open; more count as malformed messages."""


@dataclass(frozen=True, slots=True)
class ChannelStatistics:
    """One seat channel's counters (``SeatChannel.statistics``), from the start of its game."""

    messages_sent: int
    """Messages sent to the seat."""
    messages_received: int
    """Messages received from it, malformed ones included."""
    decisions_asked: int
    """Requests sent for a decision, each request sent again (after a malformed reply, for a
    full view) counted once more."""
    strikes: int
    """Malformed or out-of-place messages answered with an ``ErrorReply``."""


class SeatChannel:
    """The coordinator's side of one seat: requests with their deadline, replies, forfeits."""

    def __init__(self, seat: int, link: Link, timeout: float, game: Game, loop: GameLoop,
                 forfeits: list[tuple[str, str]], clock: GameClock | None = None) -> None:
        self.seat = seat
        """The seat's number."""
        self.link = link
        """The coordinator's end of the seat's link."""
        self.timeout = timeout
        """Seconds the seat has for each decision (``SeatConfig.timeout``)."""
        self.game = game
        self.loop = loop
        """The game loop: the seat's stops are set there, and a forfeit leaves the game there."""
        self.forfeits = forfeits
        """Where each forfeit is recorded, (player, reason), in order with the other seats'."""
        self.time = SeatTime(clock) if clock is not None else None
        """The seat's game clock while the game runs (``SeatConfig.clock``); None: it has none."""
        self._spent = 0.0
        """The seat's time, by the decision's clock, when its last reply arrived: what the
        game clock is charged when that reply is taken (``accept``)."""
        self.sent = self.received = self.asked = self.struck = 0
        self._lag: LoopLag | None = None
        """The trio run's lag monitor (``start``)."""
        self._deadlines: Deadlines | None = None
        """What ends the trio run's waits at their deadlines (``start``)."""
        self._strikes = 0
        """Malformed messages in a row."""
        self._refused_actions = 0
        """Actions refused in a row."""
        self._refused_answers = 0
        """Answers to the current question refused in a row."""
        self._question = 0
        """The id of the question being answered (0: none), whose clock is ``_answer_clock``."""
        self._answer_clock: SeatClock | None = None
        self._grant: SeatClock | None = None
        """The clock of the seat's grant of priority still open after a refused action or a
        malformed reply: asked again, it goes on with the time that remains."""
        self._open: SeatClock | None = None
        """The clock of the decision in progress: what is sent to the seat meanwhile (error
        replies, refusals, the request again) has the decision's deadline."""
        self._view = ViewTracker()
        """The seat's last view sent, that the next request's view delta is against."""
        self.priority_views = True
        """Whether priority requests carry the seat's view (``SeatConfig.priority_views``);
        its first request always does."""
        self._memo = ViewMemo()

    @property
    def gone(self) -> bool:
        """Whether the seat has forfeited (it is asked nothing more)."""
        return self.seat in self.loop.gone

    def start(self, lag: LoopLag, deadlines: Deadlines) -> None:
        """The game starts, in the trio run whose lag monitor is ``lag`` and whose waits
        ``deadlines`` ends."""
        self._lag = lag
        self._deadlines = deadlines

    def statistics(self) -> ChannelStatistics:
        """The channel's counters so far."""
        return ChannelStatistics(messages_sent=self.sent, messages_received=self.received,
                                 decisions_asked=self.asked, strikes=self.struck)

    # ------------------------------------------------------------------ decisions

    async def action(self, decision: Decision) -> Action | None:
        """117.1: ask for an action; None if no ``SubmitAction`` naming the decision came (a
        malformed or out-of-place message, answered with a strike, or a forfeit)."""
        # Asked again after a refused action or a malformed reply (nothing has changed: the
        # same grant), the seat goes on with the time that remains: one deadline per grant.
        clock = self._grant
        if clock is None:
            clock = self._grant = self._decision_clock()
        view = self._delta() if self.priority_views or self._view.number == 0 else None
        msg = await self._ask(_PRIORITY_REQUEST(decision, view, self._reading()), clock)
        if msg is None:
            return None
        if not isinstance(msg, SubmitAction):
            await self.strike(f"expected SubmitAction for decision {decision.id}, got {msg.KIND}")
            return None
        if msg.decision_id != decision.id:
            await self.strike(f"SubmitAction names decision {msg.decision_id}, but decision "
                              f"{decision.id} is pending")
            return None
        return msg.action

    async def answer(self, decision: Decision) -> SubmitAnswer | None:
        """Ask a question other than priority; None if no ``SubmitAnswer`` came (a malformed or
        out-of-place message, answered with a strike, or a forfeit). The same question asked
        again has the time that remains of its one deadline."""
        if self._question != decision.id or self._answer_clock is None:
            self._question = decision.id
            self._answer_clock = self._decision_clock()
            self._refused_answers = 0
        msg = await self._ask(DecisionRequest(decision, self._delta(), self._reading()), self._answer_clock)
        if msg is None:
            return None
        if not isinstance(msg, SubmitAnswer):
            await self.strike(f"expected SubmitAnswer for decision {decision.id}, got {msg.KIND}")
            return None
        return msg

    async def accept(self, decision: Decision, *, action: bool) -> None:
        """The seat's ``action`` (or answer) was taken: ``Accepted``; its runs of malformed
        messages (and of refused actions) end, and so does its decision (and grant). A game
        clock is charged the decision's time, to the reply's arrival, and gains its increment."""
        self._strikes = 0
        if self.time is not None:
            self.time.spend(self._spent)
        if action:
            self._refused_actions = 0
            self._grant = None  # the grant is over
        await self.send(_ACCEPTED(decision.id))
        self.decision_over()

    async def refuse(self, decision: Decision, error: Exception, *, action: bool) -> None:
        """The seat's ``action`` (or answer) was illegal: ``Rejected``, and after
        ``MAX_REJECTIONS`` in a row a forfeit."""
        name = self.game.state.players[self.seat].name
        self._note("refused", f"{name}'s {'action' if action else 'answer'} is refused: {error}")
        await self.send(Rejected(decision.id, str(error)))
        if action:
            self._refused_actions += 1
            if self._refused_actions >= MAX_REJECTIONS:
                await self.forfeit(f"{MAX_REJECTIONS} illegal actions in a row")
            self.decision_over()
        else:
            self._refused_answers += 1
            if self._refused_answers >= MAX_REJECTIONS:
                await self.forfeit(f"{self._refused_answers} illegal answers in a row")

    def decision_over(self) -> None:
        """No decision of the seat's is in progress any more (a question ends with it)."""
        self._open = None
        self._question = 0
        self._answer_clock = None

    def passed_for(self) -> None:
        """The engine passed for the seat (outside its stops): its grant of priority is over."""
        self._grant = None
        self.decision_over()

    # ------------------------------------------------------------------ deadlines

    def _clock(self) -> SeatClock:
        """A clock of the seat's deadline, started now (``start`` gave the lag monitor)."""
        assert self._lag is not None
        return SeatClock.begin(self.timeout, self._lag, self.link.held)

    def _decision_clock(self) -> SeatClock:
        """A decision's clock, started now: its deadline, or the time left on the seat's game
        clock if that is no longer (then running out loses the game on time)."""
        time = self.time
        if time is not None and time.left <= self.timeout:
            assert self._lag is not None
            return SeatClock.begin(time.left, self._lag, self.link.held, on_clock=True)
        return self._clock()

    def _reading(self) -> ClockState | None:
        """The seat's game clock as its requests show it now (None: it has none)."""
        time = self.time
        return time.reading if time is not None else None

    def _in_time(self, clock: SeatClock) -> bool:
        """At the clock's ``due`` time: whether the seat still has time, by its own time (the
        loop held by others meanwhile does not count); if so, ``due`` moves on."""
        assert self._lag is not None
        return clock.extend(self._lag, self.link.held)

    async def _ask(self, request: PriorityRequest | DecisionRequest, clock: SeatClock) -> Message | None:
        """Send a request and wait for a well-formed reply; None if the seat forfeited.

        One deadline covers the whole decision (``clock``, which may have been started for an
        earlier request of the same decision): sending the request, error replies and requests
        sent again, settings (``SetStops``, answered by ``StopsSet`` or an error reply, after
        which the request is still open) and receiving the answer. It is the seat's own time:
        when it runs out by the clock, the time the event loop was held by anything but the
        seat's own policy is given back and waited out. A seat that misses it forfeits, for not
        reading or for not answering, whichever it was doing; so does one whose message arrives
        once its own time is past the deadline (a policy that blocked the loop), or that was sent
        as the deadline woke the coordinator (it is on the wire already: read, and late)."""
        link = self.link
        deadlines = self._deadlines
        assert deadlines is not None
        self._open = clock
        settings = 0
        if not await self._send_request(request):
            return None
        while True:
            data = None
            while data is None:
                data = await link.receive_bytes_before(clock.due, deadlines)
                if data is None and not self._in_time(clock):
                    if self.gone:
                        return None
                    if link.receive_waiting() is not None:
                        # Sent as the time ran out, once the deadline had woken the coordinator
                        # but before it ran: it is on the wire (and in the trace) already, so it
                        # is read, and too late, as one that came later would be.
                        self.received += 1
                        await self._late(clock)
                        return None
                    if clock.on_clock:
                        self.out_of_time()
                    else:
                        await self.forfeit(f"no answer within {clock.limit:g} s")
                    return None
            self.received += 1
            if trio.current_time() > clock.due and not self._in_time(clock):
                await self._late(clock)
                return None
            time = self.time
            if time is not None:
                assert self._lag is not None
                self._spent = clock.charged(self._lag, link.held)
                if time.over(self._spent):  # within the last half millisecond it had
                    self.out_of_time()
                    return None
            try:
                msg = decode_from_player(data)
            except InvalidMessageError as err:
                # Sent again with the full view: the seat may not have taken the delta.
                request = self._resync(request)
                if not await self.strike(str(err), data) or not await self._send_request(request):
                    return None
                continue
            if isinstance(msg, Forfeit):
                await self.forfeit(msg.reason)
                return None
            if isinstance(msg, Concede):
                self.loop.concede(self.seat)
                self._left()
                return None
            if isinstance(msg, RequestFullView):
                problem = (f"RequestFullView names decision {msg.decision_id}, but decision "
                           f"{request.decision.id} is pending" if msg.decision_id != request.decision.id
                           else "the full view was sent already" if request.view is not None
                           and request.view.full else "")
                if problem:  # the request stays open, as after an invalid SetStops
                    if not await self.strike(problem):
                        return None
                else:
                    request = self._resync(request)
                    if not await self._send_request(request):
                        return None
                continue
            if not isinstance(msg, SetStops):
                return msg
            settings += 1
            problem = msg.stops.problem() or (
                f"more than {MAX_SETTINGS} SetStops for one request" if settings > MAX_SETTINGS else "")
            if problem:
                if not await self.strike(f"invalid SetStops: {problem}"):
                    return None
            else:
                self._set_stops(msg.stops)
                if not await self.send(StopsSet(msg.stops)):
                    return None

    def _set_stops(self, stops: Stops) -> None:
        """The seat's stops from now on (the loop reads them)."""
        self.loop.set_stops(self.seat, stops)

    async def _late(self, clock: SeatClock) -> None:
        """A message that arrived after the seat's own time ran out: a policy that held the
        event loop past its deadline, or past the time left on its game clock (the
        coordinator could not even look until it let go), or one sent just as the time ran
        out, after the deadline had woken the coordinator."""
        if clock.on_clock:
            self.out_of_time()
            return
        assert self._lag is not None
        spent = clock.charged(self._lag, self.link.held)
        await self.forfeit(f"answered after {spent:.2f} s, over its {clock.limit:g} s deadline")

    # ------------------------------------------------------------------ views

    def _delta(self) -> ViewDelta:
        """The seat's view now, as a delta against the last view it was sent."""
        memo = self._memo
        return self._view.update(view_for(self.game, self.seat, memo), memo)

    def _resync(self, request: PriorityRequest | DecisionRequest) -> PriorityRequest | DecisionRequest:
        """The same request with the seat's view in full (the client rebuilds it from nothing);
        a priority request sent without a view gets the view as it is now."""
        if request.view is None:
            self._delta()  # the tracker's view brought up to now; it is sent in full
        elif request.view.full:
            return request
        return type(request)(request.decision, self._view.full(), request.clock)

    # ------------------------------------------------------------------ sending

    async def _send_request(self, request: PriorityRequest | DecisionRequest) -> bool:
        """``send`` a request for a decision (counted as asked)."""
        self.asked += 1
        return await self.send(request)

    async def send(self, msg: Message, *, last_word: bool = False) -> bool:
        """Send to the seat; a seat that stops reading forfeits. Returns whether the seat is
        still in the game. ``last_word``: a final message to a seat that has just forfeited.

        A send the channel takes at once needs no time limit; one that must wait gets the
        seat's time limit, by the seat's own time (during a decision asked of the seat, the
        decision's deadline, which is earlier)."""
        gone = self.loop.gone
        seat = self.seat
        if seat in gone and not last_word:
            return False
        self.sent += 1
        link = self.link
        out = link.out
        if isinstance(out, Mailbox):
            takes = out.takes_now()
        else:  # a trio channel (or a test's): its statistics say
            room = out.statistics()
            takes = bool(room.tasks_waiting_receive) or room.current_buffer_used < room.max_buffer_size
        if takes:
            await link.send(msg)  # it cannot block: no time limit needed
            return seat not in gone
        clock = self._open if self._open is not None else self._clock()
        data = link.wire.record(link.me, link.peer, msg)
        sent = False
        first = True
        while True:
            with trio.move_on_at(clock.due):
                if first:  # the link's own send once (it counts it); then the channel alone
                    first = False
                    await link.send_bytes(data)
                else:
                    await link.out.send(data)
                sent = True
            if sent:
                return seat not in gone
            if not self._in_time(clock):
                break
        if seat not in gone:
            await self.forfeit(f"did not read its messages within {clock.limit:g} s")
        return False

    async def tell(self, msg: Message, grace: float) -> None:
        """Send ``msg`` if the seat takes it within ``grace`` seconds (or its own time limit,
        if shorter), best effort: after an engine error, nothing is owed."""
        with trio.move_on_after(min(self.timeout, grace)):
            try:
                self.sent += 1
                await self.link.send(msg)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass  # the seat's actor is gone already

    # ------------------------------------------------------------------ strikes, forfeits

    async def strike(self, why: str, data: bytes = b"") -> bool:
        """A malformed or out-of-place message: an error reply, and after MAX_STRIKES in a row
        a forfeit (decided before the reply goes out, so the reply is the seat's last message).
        Returns whether the seat is still in the game. ``data``: the message's bytes, if they
        could not be read (a message that was read is in the trace already): the trace keeps
        them with the ``malformed`` event, so that a replay can send them again."""
        self._strikes += 1
        self.struck += 1
        self._note("malformed", f"{self.game.state.players[self.seat].name}'s message is refused: {why}",
                   data)
        if self._strikes >= MAX_STRIKES:
            await self.forfeit(f"{self._strikes} malformed messages in a row: {why}")
            await self.send(ErrorReply(why), last_word=True)
            return False
        return await self.send(ErrorReply(why))

    async def forfeit(self, reason: str) -> None:
        """The seat loses the game by forfeit (104.3a-like); nothing else is affected. The
        reason may quote a bot (its own ``Forfeit``'s words): escaped here, so that what is
        recorded and printed is one line of printable text. (A coroutine, so that the callers
        in a decision keep one shape; it sends nothing.)"""
        reason = printable(reason)
        self.forfeits.append((self.game.state.players[self.seat].name, reason))
        self._note("forfeit", reason)
        self.loop.leave(self.seat, reason)
        self._left()

    def out_of_time(self) -> None:
        """The seat's game clock ran out: it loses the game on time (``GameClock.loss``: the
        game's end reads ``bob wins: alice lost on time (clock 60+0.5)``), not by forfeit."""
        time = self.time
        assert time is not None
        time.run_out()
        self.loop.lose(self.seat, time.clock.loss)
        self._left()

    def _left(self) -> None:
        """The seat has left the game (forfeited, conceded, out of time): nothing it sends is
        read any more, and what it still sends (a reply on its way) is numbered once the game
        is over, after everything else (``Wire.leave``), wherever it came."""
        self.link.wire.leave(self.link.peer)

    def _note(self, kind: str, text: str, data: bytes = b"") -> None:
        """A coordinator event about the seat, for the trace (nothing without a tracer)."""
        wire = self.link.wire
        if wire.trace is not None:
            wire.note_event(self.game, kind, self.seat, text, data=data)
