"""The priority coordinator: owns the game state and the turn, serializes everything.

The order is the kernel's game loop (``rules.GameLoop``); the coordinator is the async I/O
around it: it performs each request over the channels (a state-based action check by the SBA
checker, a resolution by the stack actor, a question for a player, the reply to an action,
automatic passes and skipped checks recorded as coordinator events). Exactly one message of
the game is in flight at any time. ``statistics()`` counts what it did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import trio

from .._printable import printable
from ..protocol import (
    Accepted,
    AskPlayer,
    CheckSBA,
    DecisionRequest,
    ErrorReply,
    Forfeit,
    GameEvent,
    GameOver,
    Message,
    PlayerReply,
    PriorityRequest,
    Rejected,
    RequestFullView,
    Resolve,
    Resolved,
    SBABatch,
    SetStops,
    Stops,
    StopsSet,
    SubmitAction,
    SubmitAnswer,
    ViewDelta,
    ViewTracker,
    decode_from_player,
)
from ..rules import (
    SKIPPED_CHECK,
    Action,
    ActionOutcome,
    Answer,
    Ask,
    AskPriority,
    AutoPasses,
    Decision,
    Game,
    GameLoop,
    IllegalActionError,
    InvalidMessageError,
    NoStopPass,
    RunResolve,
    RunSBA,
    SBASkipped,
    ViewMemo,
    check_answer,
    default_answer,
    view_for,
)
from ._lag import LoopLag, SeatClock, loop_lag
from ._wire import Link

__all__ = ["ENGINE_ERROR", "GAME_OVER_GRACE", "Coordinator", "CoordinatorStatistics", "GameResult", "SeatConfig"]

MAX_STRIKES = 3
"""Malformed messages a seat may send in a row before it forfeits: only an accepted action or
answer ends the run (a refused one does not)."""
MAX_REJECTIONS = 50
"""Illegal actions a seat may submit in a row before it forfeits (a lying bot can't stall)."""
ENGINE_ERROR = "engine error"
"""How the end reason of a game stopped by an unexpected exception in one of its actors starts."""
GAME_OVER_GRACE = 1.0
"""Seconds each seat is given to take its GameOver after an engine error (best effort)."""
MAX_SETTINGS = 4
"""``SetStops`` a seat may send while one request is open; more count as malformed messages."""


@dataclass(frozen=True, slots=True)
class SeatConfig:
    """How the coordinator treats one seat."""

    auto_pass: bool = True
    """Pass on the player's behalf when passing is the only legal action."""
    timeout: float = 30.0
    """Seconds the player has for each decision: from the moment its request is sent until
    its answer arrives, error replies and requests sent again included (a grant of priority
    asked again after a refused action included), less the time the event loop was held by
    anything but the seat's own policy (``docs/protocol.md``, "Deadlines")."""
    stops: Stops | None = None
    """The seat's stops at the start (the player may change them with ``SetStops``); None:
    no stops, the seat is asked whenever it could do more than pass."""

    def __post_init__(self) -> None:
        if self.stops is not None:
            problem = self.stops.problem() if isinstance(self.stops, Stops) else "not a Stops"
            if problem:
                raise ValueError(f"invalid stops: {problem}")


@dataclass(slots=True)
class GameResult:
    """How a game ended, and what it cost."""

    winner: str | None
    """The winner's name, or None for a draw."""
    reason: str
    """Why it ended."""
    turns: int
    """The turn it ended on."""
    decisions: int = 0
    """Decisions answered by policies."""
    auto_passes: int = 0
    """Passes the engine made on a player's behalf."""
    messages: int = 0
    """Messages that crossed channels (trace-only coordinator events not counted)."""
    forfeits: list[tuple[str, str]] = field(default_factory=list)
    """(player, reason) for each forfeit."""
    final_hash: str = ""
    """The state hash at the end."""
    seed: int | None = None
    """The seed the game was started from (``GameState.seed``), to replay it; None if it was
    built another way."""
    chooser: str | None = None
    """103.1: for a game that started the way a game of a match does, the player who chose who
    takes the first turn; None for other games."""
    starting_player: str | None = None
    """That game's starting player (None for other games, or if it ended before the choice)."""
    mulligans: tuple[int, ...] = ()
    """103.5: that game's mulligans taken, by seat (empty for other games)."""
    error: Exception | None = field(default=None, compare=False, repr=False)
    """For a game ended by an engine error: the exception itself (with its traceback), for a
    caller that reports it; not part of comparisons."""


@dataclass(frozen=True, slots=True)
class CoordinatorStatistics:
    """A coordinator's counters (``Coordinator.statistics``), from the start of its game."""

    messages_sent: int
    """Messages it sent (to players, the stack actor and the SBA checker)."""
    messages_received: int
    """Messages it received, malformed ones included."""
    decisions_asked: int
    """Requests it sent a player for a decision (priority or another question), each request
    sent again (after a malformed reply, for a full view) counted once more."""
    actions_taken: int
    """Actions players sent that ``take_action`` took."""
    actions_refused: int
    """Actions players sent that ``take_action`` refused."""
    answers_checked: int
    """Answers players sent that ``check_answer`` was asked about (accepted or refused)."""
    answers_refused: int
    """Of those, the answers it refused."""
    automatic_passes: int
    """Passes the engine made on a player's behalf (117.3d)."""
    strikes: int
    """Malformed or out-of-place messages answered with an ``ErrorReply``."""


class Coordinator:
    """Runs one game's priority cycle over real channels."""

    def __init__(self, game: Game, seats: list[Link], configs: list[SeatConfig], stack: Link,
                 sba: Link) -> None:
        self.game = game
        self.seats = seats
        self.configs = configs
        self.stack = stack
        self.sba = sba
        self.wire = stack.wire
        self.result = GameResult(None, "", 0, seed=game.state.seed)
        self.loop = GameLoop(game, [c.auto_pass for c in configs], [c.stops for c in configs])
        """The game loop whose requests this performs (it holds the seats' stops and who left)."""
        self._rejections: dict[int, int] = {}
        self._strikes: dict[int, int] = {}
        self._check_skipped = False
        """The state-based action check before the next grant of priority was skipped (704.3):
        the trace records it with that grant."""
        self._sent = self._received = self._asked = self._taken = self._refused = 0
        self._checked = self._answers_refused = self._strike_count = 0
        self._views = [ViewTracker() for _ in seats]
        """Each seat's last view sent, that the next request's view delta is against."""
        self._memos = [ViewMemo() for _ in seats]
        self._lag: LoopLag | None = None
        """The trio run's lag monitor (found when the game starts)."""
        self._grant: tuple[int, SeatClock] | None = None
        """The seat whose grant of priority is still open after a refused action or a
        malformed reply, and its clock: asked again, it goes on with the time that remains."""
        self._open: tuple[int, SeatClock] | None = None
        """The seat asked the decision in progress, and its clock: what is sent to that seat
        meanwhile (error replies, refusals, the request again) has the decision's deadline."""

    # ------------------------------------------------------------------ the loop

    @property
    def stops(self) -> list[Stops | None]:
        """Each seat's stops now (``SetStops`` changes them)."""
        return self.loop.stops  # type: ignore[return-value]  # only Stops are given it

    @property
    def gone(self) -> set[int]:
        """Seats that forfeited; they are asked nothing more."""
        return self.loop.gone

    def statistics(self) -> CoordinatorStatistics:
        """The coordinator's counters so far (as trio's objects give theirs)."""
        return CoordinatorStatistics(self._sent, self._received, self._asked, self._taken,
                                     self._refused, self._checked, self._answers_refused,
                                     self.result.auto_passes, self._strike_count)

    async def run(self) -> GameResult:
        """Play the game to its end; returns the result. The order is ``GameLoop``'s; this
        performs its requests over the channels."""
        self._lag = loop_lag(min(c.timeout for c in self.configs))
        loop = self.loop
        request = loop.next()
        while request is not None:
            kind = type(request)
            if kind is AutoPasses:
                assert isinstance(request, AutoPasses)
                self._passes_recorded(request.seats, request.skip_first, request.traced)
                request = loop.next()
            elif kind is RunSBA:
                batch = await self._call(self.sba, CheckSBA(), SBABatch)
                assert isinstance(batch, SBABatch)
                request = loop.next(len(batch.events))
            elif kind is SBASkipped:
                # 704.3/117.5: nothing a state-based action reads changed since the last check
                # (``GameState.sba`` is empty), so the round trip is skipped, and recorded with
                # the grant of priority it comes before.
                self._check_skipped = True
                request = loop.next()
            elif kind is AskPriority:
                assert isinstance(request, AskPriority)
                request = loop.next(await self._priority(request.decision))
            elif kind is ActionOutcome:
                assert isinstance(request, ActionOutcome)
                await self._outcome(request.decision, request.error)
                request = loop.next()
            elif kind is Ask:
                assert isinstance(request, Ask)
                request = loop.next(await self._answer(request.decision))
            elif kind is RunResolve:
                assert isinstance(request, RunResolve)
                await self._call(self.stack, Resolve(request.object_id), Resolved)
                request = loop.next()
            elif kind is NoStopPass:
                assert isinstance(request, NoStopPass)
                st = self.game.state
                self.result.auto_passes += 1
                self._grant_event("auto_pass", request.seat,
                            f"{st.players[request.seat].name} has no stop here ({st.step})")
                request = loop.next()
            else:
                raise AssertionError(f"coordinator: no handling of {request!r}")
        await self._finish()
        return self.result

    async def _finish(self) -> None:
        self._open = None  # no decision is open any more
        st = self.game.state
        winner = st.players[st.winner].name if st.winner >= 0 else None
        self.result.winner = winner
        self.result.reason = st.end_reason
        self.result.turns = st.turn
        self.result.final_hash = st.state_hash()
        losers = tuple(p.name for p in st.players if p.lost)
        for seat in range(len(self.seats)):
            if seat not in self.gone:
                await self._send(seat, GameOver(winner or "", losers, st.end_reason))
        self.wire.flush_events("coordinator")  # what happened after the last message
        self.result.messages = self.wire.sent

    async def abort(self, actor: str, fault: str, *, skip: frozenset[int] = frozenset(),
                    error: Exception | None = None) -> GameResult:
        """End the game after an unexpected exception in ``actor`` (``fault`` says what it was):
        no winner, end reason ``engine error: ...``, the final hash of the state as it was left.
        Every seat still in the game but those in ``skip`` (a player actor that failed) is sent
        GameOver if it takes it within ``GAME_OVER_GRACE`` seconds. The reason sent to the seats
        names only the actor: an exception's text could name a card hidden from them (400.2);
        the full text is in the state, the result and the trace's result line."""
        st = self.game.state
        st.game_over = True
        st.winner = -1
        st.end_reason = f"{ENGINE_ERROR}: {fault}"
        self.result.winner = None
        self.result.reason = st.end_reason
        self.result.error = error
        self.result.turns = st.turn
        try:
            self.result.final_hash = st.state_hash()
        except Exception as err:  # a state left half-changed may not even hash
            self.result.final_hash = ""
            self.result.reason += f"; the state could not be hashed: {type(err).__name__}"
        losers = tuple(p.name for p in st.players if p.lost)
        told = GameOver("", losers, f"{ENGINE_ERROR} ({actor})")
        for seat, link in enumerate(self.seats):
            if seat in self.gone or seat in skip:
                continue
            with trio.move_on_after(min(self.configs[seat].timeout, GAME_OVER_GRACE)):
                try:
                    self._sent += 1
                    await link.send(told)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass  # that seat's actor is gone already
        self.result.messages = self.wire.sent
        return self.result

    def _passes_recorded(self, passed: tuple[int, ...], skip_first: bool, traced: bool) -> None:
        """Count and record automatic passes (``AutoPasses``) in order, each grant of priority
        with its state-based action check's skip (704.3: nothing a state-based action reads
        changed; for the first grant only if ``skip_first`` or a skip was recorded just before
        it). ``traced``: the kernel recorded them already, each as it made it, among the step
        changes around it (``run_automatic``): only counted. Untraced, they are only counted."""
        self.result.auto_passes += len(passed)
        if self.wire.trace is None or traced:
            # The kernel's first pass carried any skip recorded before it (``first_skipped``).
            self._check_skipped = False
            return
        names = self.game.state.players
        for i, seat in enumerate(passed):
            if i or skip_first:
                self._check_skipped = True
            self._grant_event("auto_pass", seat, f"{names[seat].name} can only pass")

    def _ordered(self, decision: Decision, answer: Answer) -> None:
        """603.3b: the order a player chose for simultaneous triggers (or anything else put in
        order), who chose it, and the objects in that order, for the trace."""
        chosen = {c.key: c for c in decision.choices}
        order = [chosen[k] for k in answer.keys if k in chosen]
        name = self.game.state.players[decision.player].name
        self._note("ordered", decision.player,
                   f"{name} puts them in order ({decision.prompt}): " + ", ".join(c.name for c in order),
                   refs=tuple(c.ref for c in order))

    def _grant_event(self, kind: str, seat: int, text: str) -> None:
        """A grant of priority for the trace (``priority``: the seat is asked; ``auto_pass``:
        the engine passes for it), with amount 1 if no state-based action check was made
        before it because nothing one reads had changed (704.3, ``SBASkipped``)."""
        skipped, self._check_skipped = self._check_skipped, False
        if skipped:
            text += SKIPPED_CHECK
        self._note(kind, seat, text, amount=int(skipped))

    def _note(self, kind: str, seat: int, text: str, *, refs: tuple[int, ...] = (), amount: int = 0) -> None:
        """A coordinator event for the trace (not sent to anyone but the tracer; untraced,
        nothing is built), stamped with the turn and step."""
        if self.wire.trace is not None:
            st = self.game.state
            self.wire.note("coordinator", GameEvent(st.turn, st.step, kind, seat, text, amount=amount, refs=refs))

    # ------------------------------------------------------------------ kernel actors

    async def _call(self, link: Link, request: Message, reply_type: type) -> Message:
        """Hand the state to the stack actor or SBA checker and wait for it back, answering
        the decisions it needs on the way."""
        self._sent += 1
        await link.send(request)
        while True:
            msg = await link.receive()
            self._received += 1
            if isinstance(msg, reply_type):
                return msg
            if isinstance(msg, AskPlayer):
                answer = await self._answer(msg.decision)
                self._sent += 1
                await link.send(PlayerReply(answer))
                continue
            raise RuntimeError(f"coordinator: unexpected {msg.KIND} from {link.peer}")

    # ------------------------------------------------------------------ players

    async def _answer(self, decision: Decision) -> Answer:
        """Ask a player a non-priority question until the answer is legal."""
        seat = decision.player
        rejections = 0
        clock = self._clock(seat)  # one deadline for the decision, however often it is asked
        while seat not in self.gone and not self.game.state.players[seat].lost:
            msg = await self._ask(seat, DecisionRequest(decision, self._view(seat)), clock)
            if msg is None:
                break
            if not isinstance(msg, SubmitAnswer):
                await self._strike(seat, f"expected SubmitAnswer for decision {decision.id}, "
                                   f"got {msg.KIND}")
                continue
            self._checked += 1
            try:
                answer = check_answer(decision, msg.answer)
            except (IllegalActionError, InvalidMessageError) as err:
                self._answers_refused += 1
                rejections += 1
                self._note("refused", seat, f"{self.game.state.players[seat].name}'s answer is refused: {err}")
                await self._send(seat, Rejected(decision.id, str(err)))
                if rejections >= MAX_REJECTIONS:
                    await self._forfeit(seat, f"{rejections} illegal answers in a row")
                continue
            self.result.decisions += 1
            self._strikes[seat] = 0
            if decision.kind == "order" and self.wire.trace is not None:
                self._ordered(decision, answer)
            await self._send(seat, Accepted(decision.id))
            self._open = None
            return answer
        self._open = None
        reply = default_answer(decision)
        assert isinstance(reply, Answer)
        return reply

    async def _priority(self, decision: Decision) -> Action | None:
        """117.1: ask the seat holding priority for an action (it could do more than pass);
        None if no SubmitAction naming the decision came (a malformed or out-of-place message,
        a forfeit): the loop then asks again or goes on."""
        seat = decision.player
        grant = self._grant
        # Asked again after a refused action or a malformed reply (nothing has changed: the
        # same grant), the seat goes on with the time that remains: one deadline per grant.
        clock = grant[1] if grant is not None and grant[0] == seat else self._clock(seat)
        self._grant = (seat, clock)
        if self.wire.trace is not None:
            self._grant_event("priority", seat, f"{self.game.state.players[seat].name} receives priority")
        msg = await self._ask(seat, PriorityRequest(decision, self._view(seat)), clock)
        if msg is None:
            return None
        if not isinstance(msg, SubmitAction):
            await self._strike(seat, f"expected SubmitAction for decision {decision.id}, got "
                               f"{msg.KIND}")
            return None
        if msg.decision_id != decision.id:
            await self._strike(seat, f"SubmitAction names decision {msg.decision_id}, but "
                               f"decision {decision.id} is pending")
            return None
        self.result.decisions += 1
        if msg.action.kind == "pass" and self.wire.trace is not None:
            self._note("pass", seat, f"{self.game.state.players[seat].name} passes")
        return msg.action

    async def _outcome(self, decision: Decision, error: Exception | None) -> None:
        """Tell the seat what ``take_action`` made of its action: accepted, or refused (and
        after ``MAX_REJECTIONS`` refusals in a row, a forfeit)."""
        seat = decision.player
        if error is not None:
            self._refused += 1
            self._rejections[seat] = self._rejections.get(seat, 0) + 1
            self._note("refused", seat, f"{self.game.state.players[seat].name}'s action is refused: {error}")
            await self._send(seat, Rejected(decision.id, str(error)))
            if self._rejections[seat] >= MAX_REJECTIONS:
                await self._forfeit(seat, f"{MAX_REJECTIONS} illegal actions in a row")
            self._open = None
            return
        self._taken += 1
        self._rejections[seat] = 0
        self._strikes[seat] = 0  # only an accepted message ends a run of malformed ones
        self._grant = None  # the grant is over
        await self._send(seat, Accepted(decision.id))
        self._open = None

    def _clock(self, seat: int) -> SeatClock:
        """A decision's clock for ``seat``, started now (``run`` found the lag monitor)."""
        assert self._lag is not None
        return SeatClock.begin(self.configs[seat].timeout, self._lag, self.seats[seat].held)

    def _in_time(self, seat: int, clock: SeatClock) -> bool:
        """At the clock's ``due`` time: whether the seat still has time, by its own time (the
        loop held by others meanwhile does not count); if so, ``due`` moves on."""
        assert self._lag is not None
        return clock.extend(self._lag, self.seats[seat].held)

    async def _ask(self, seat: int, request: PriorityRequest | DecisionRequest,
                   clock: SeatClock | None = None) -> Message | None:
        """Send a request and wait for a well-formed reply; None if the seat forfeited.

        One deadline covers the whole decision (``clock``, which the caller may have started
        for an earlier request of the same decision): sending the request, error replies and
        requests sent again, settings (``SetStops``, answered by ``StopsSet`` or an error
        reply, after which the request is still open) and receiving the answer. It is the
        seat's own time: when it runs out by the clock, the time the event loop was held by
        anything but the seat's own policy is given back and waited out. A seat that misses it
        forfeits, for not reading or for not answering, whichever it was doing; so does one
        whose message arrives once its own time is past the deadline (a policy that blocked
        the loop)."""
        link = self.seats[seat]
        if clock is None:
            clock = self._clock(seat)
        self._open = (seat, clock)
        settings = 0
        if not await self._send_request(seat, request):
            return None
        while True:
            data = None
            while data is None:
                with trio.move_on_at(clock.due):
                    data = await link.receive_bytes()
                if data is None and not self._in_time(seat, clock):
                    if seat not in self.gone:
                        await self._forfeit(seat, f"no answer within {clock.limit:g} s")
                    return None
            self._received += 1
            if trio.current_time() > clock.due and not self._in_time(seat, clock):
                await self._late(seat, clock)
                return None
            try:
                msg = decode_from_player(data)
            except InvalidMessageError as err:
                # Sent again with the full view: the seat may not have taken the delta.
                request = self._resync(seat, request)
                if not await self._strike(seat, str(err)) or not await self._send_request(seat, request):
                    return None
                continue
            if isinstance(msg, Forfeit):
                await self._forfeit(seat, msg.reason, told=True)
                return None
            if isinstance(msg, RequestFullView):
                problem = (f"RequestFullView names decision {msg.decision_id}, but decision "
                           f"{request.decision.id} is pending" if msg.decision_id != request.decision.id
                           else "the full view was sent already" if request.view.full else "")
                if problem:  # the request stays open, as after an invalid SetStops
                    if not await self._strike(seat, problem):
                        return None
                else:
                    request = self._resync(seat, request)
                    if not await self._send_request(seat, request):
                        return None
                continue
            if not isinstance(msg, SetStops):
                return msg
            settings += 1
            problem = msg.stops.problem() or (
                f"more than {MAX_SETTINGS} SetStops for one request" if settings > MAX_SETTINGS else "")
            if problem:
                if not await self._strike(seat, f"invalid SetStops: {problem}"):
                    return None
            else:
                self.loop.set_stops(seat, msg.stops)
                if not await self._send(seat, StopsSet(msg.stops)):
                    return None

    async def _late(self, seat: int, clock: SeatClock) -> None:
        """A message that arrived after the seat's own time ran out: a policy that held the
        event loop past its deadline (the coordinator could not even look until it let go)."""
        assert self._lag is not None
        spent = clock.charged(self._lag, self.seats[seat].held)
        await self._forfeit(seat, f"answered after {spent:.2f} s, over its {clock.limit:g} s "
                            "deadline")

    def _view(self, seat: int) -> ViewDelta:
        """The seat's view now, as a delta against the last view it was sent."""
        memo = self._memos[seat]
        return self._views[seat].update(view_for(self.game, seat, memo), memo)

    def _resync(self, seat: int, request: PriorityRequest | DecisionRequest
                ) -> PriorityRequest | DecisionRequest:
        """The same request with the seat's view in full (the client rebuilds it from nothing)."""
        if request.view.full:
            return request
        return type(request)(request.decision, self._views[seat].full())

    async def _send_request(self, seat: int, request: PriorityRequest | DecisionRequest) -> bool:
        """``_send`` a request for a decision (counted as asked)."""
        self._asked += 1
        return await self._send(seat, request)

    async def _send(self, seat: int, msg: Message, *, last_word: bool = False) -> bool:
        """Send to a player; a player that stops reading forfeits. Returns whether the seat is
        still in the game. ``last_word``: a final message to a seat that has just forfeited.

        A send the channel takes at once needs no time limit; one that must wait gets the
        seat's time limit, by the seat's own time (during a decision asked of that seat, the
        decision's deadline, which is earlier)."""
        if seat in self.gone and not last_word:
            return False
        self._sent += 1
        link = self.seats[seat]
        room = link.out.statistics()
        if room.tasks_waiting_receive or room.current_buffer_used < room.max_buffer_size:
            await link.send(msg)  # it cannot block: no time limit needed
            return seat not in self.gone
        open_ = self._open
        clock = open_[1] if open_ is not None and open_[0] == seat else self._clock(seat)
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
                return seat not in self.gone
            if not self._in_time(seat, clock):
                break
        if seat not in self.gone:
            await self._forfeit(seat, f"did not read its messages within {clock.limit:g} s")
        return False

    async def _strike(self, seat: int, why: str) -> bool:
        """A malformed or out-of-place message: an error reply, and after MAX_STRIKES in a row
        a forfeit (decided before the reply goes out, so the reply is the seat's last message).
        Returns whether the seat is still in the game."""
        self._strikes[seat] = self._strikes.get(seat, 0) + 1
        self._strike_count += 1
        self._note("malformed", seat, f"{self.game.state.players[seat].name}'s message is refused: {why}")
        if self._strikes[seat] >= MAX_STRIKES:
            await self._forfeit(seat, f"{self._strikes[seat]} malformed messages in a row: {why}")
            await self._send(seat, ErrorReply(why), last_word=True)
            return False
        return await self._send(seat, ErrorReply(why))

    async def _forfeit(self, seat: int, reason: str, told: bool = False) -> None:
        """The seat loses the game by forfeit (104.3a-like); nothing else is affected. The
        reason may quote a bot (its own ``Forfeit``'s words): escaped here, so that what is
        recorded and printed is one line of printable text."""
        reason = printable(reason)
        name = self.game.state.players[seat].name
        self.result.forfeits.append((name, reason))
        self._note("forfeit", seat, reason)
        self.loop.leave(seat, reason)

