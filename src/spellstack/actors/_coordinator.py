"""The priority coordinator: owns the game state and the turn, serializes everything.

The order is the kernel's game loop (``rules.GameLoop``); the coordinator is the async I/O
around it, a ``LoopDriver``: it performs each request over the channels (a state-based action
check by the SBA checker, a resolution by the stack actor, a question for a player through its
``SeatChannel``, the reply to an action, automatic passes and skipped checks recorded as
coordinator events). How each seat is talked to (its deadline, strikes, resync, stops and
forfeits) is its channel's. Exactly one message of the game is in flight at any time.
``statistics()`` counts what it did.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Final

from ..protocol import (
    AskPlayer,
    CheckSBA,
    GameOver,
    Message,
    PlayerReply,
    Resolve,
    Resolved,
    SBABatch,
    Stops,
)
from ..rules import (
    SKIPPED_CHECK,
    Action,
    ActionOutcome,
    Answer,
    Ask,
    AskPriority,
    AutoPasses,
    BeginTask,
    Decision,
    Game,
    GameLoop,
    IllegalActionError,
    InvalidMessageError,
    LoopDriver,
    NoStopPass,
    RunResolve,
    RunSBA,
    SBASkipped,
    check_answer,
    default_answer,
    perform,
)
from ..rules.base import builder
from ._clock import GameClock
from ._deadlines import run_deadlines
from ._lag import loop_lag
from ._seat_channel import SeatChannel
from ._wire import Link

__all__ = ["ENGINE_ERROR", "GAME_OVER_GRACE", "Coordinator", "CoordinatorStatistics", "GameResult", "SeatConfig"]

# Made by ``builder``, faster than the frozen classes' own ``__init__``: sent at every check and
# every resolution.
_CHECK_SBA: Final = builder(CheckSBA)
_RESOLVE: Final = builder(Resolve)

ENGINE_ERROR = "engine error"
"""How the end reason of a game stopped by an unexpected exception in one of its actors starts."""
GAME_OVER_GRACE = 1.0
"""Seconds each seat is given to take its GameOver after an engine error (best effort)."""


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
    clock: GameClock | None = None
    """The seat's time for the whole game, counted as ``timeout`` counts it and gaining its
    increment after each answer taken; running out loses the game on time (``timeout`` still
    bounds each decision). None: no game clock (``docs/protocol.md``, "Game clocks")."""
    priority_views: bool = True
    """Whether a priority request carries the seat's view. False for a policy that acts without
    reading it (``Bot.views_at_priority``): the view is not built, sent or rebuilt then, and
    the seat's next question (or a ``RequestFullView``) brings it up to date."""

    def __post_init__(self) -> None:
        if self.stops is not None:
            problem = self.stops.problem() if isinstance(self.stops, Stops) else "not a Stops"
            if problem:
                raise ValueError(f"invalid stops: {problem}")
        if self.clock is not None and not isinstance(self.clock, GameClock):
            raise ValueError(f"invalid clock: not a GameClock: {self.clock!r}")
        if type(self.priority_views) is not bool:
            raise ValueError(f"invalid priority_views: not a bool: {self.priority_views!r}")


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
    clock_left: tuple[float, ...] = ()
    """Each seat's time left on its game clock at the end, in seconds to the millisecond, by
    seat (0 for a seat that lost on time; ``inf`` for a seat without a clock beside seats with
    one); empty when no seat had a clock."""
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


@dataclass(slots=True)
class _Counts:
    """What the coordinator counts itself (its seat channels count the rest)."""

    sent: int = 0
    """Messages sent to the stack actor and the SBA checker."""
    received: int = 0
    """Messages received from them."""
    taken: int = 0
    """Actions taken."""
    refused: int = 0
    """Actions refused."""
    checked: int = 0
    """Answers checked."""
    answers_refused: int = 0
    """Answers refused."""


class Coordinator(LoopDriver[Awaitable[object]]):
    """Runs one game's priority cycle over real channels."""

    channel_class: type[SeatChannel] = SeatChannel
    """What each seat's channel is built with (a subclass may change how seats are talked to)."""

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
        self.channels = [self.channel_class(seat, link, config.timeout, game, self.loop, self.result.forfeits,
                                            config.clock)
                         for seat, (link, config) in enumerate(zip(seats, configs, strict=True))]
        """Each seat's channel: how it is asked, and its deadline, strikes and forfeits."""
        for channel, config in zip(self.channels, configs, strict=True):
            channel.priority_views = config.priority_views
        self._counts = _Counts()
        self._check_skipped = False
        """The state-based action check before the next grant of priority was skipped (704.3):
        the trace records it with that grant."""

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
        counts = self._counts
        seats = [c.statistics() for c in self.channels]
        return CoordinatorStatistics(
            messages_sent=counts.sent + sum(s.messages_sent for s in seats),
            messages_received=counts.received + sum(s.messages_received for s in seats),
            decisions_asked=sum(s.decisions_asked for s in seats),
            actions_taken=counts.taken,
            actions_refused=counts.refused,
            answers_checked=counts.checked,
            answers_refused=counts.answers_refused,
            automatic_passes=self.result.auto_passes,
            strikes=sum(s.strikes for s in seats),
        )

    async def run(self) -> GameResult:
        """Play the game to its end; returns the result. The order is ``GameLoop``'s; this
        performs its requests over the channels (``perform``: one method per request kind)."""
        # Measured finely enough for the shortest deadline, or game clock if shorter.
        lag = loop_lag(min(min(c.timeout, c.clock.base if c.clock is not None else c.timeout)
                           for c in self.configs))
        deadlines = run_deadlines()
        for channel in self.channels:
            channel.start(lag, deadlines)
        loop = self.loop
        request = loop.next()
        while request is not None:
            request = loop.next(await perform(self, request))
        await self._finish()
        return self.result

    # ------------------------------------------------------------------ the loop's requests

    async def auto_passes(self, request: AutoPasses) -> None:
        self._passes_recorded(request.seats, request.skip_first, request.traced)

    async def run_sba(self, request: RunSBA) -> int:
        batch = await self._call(self.sba, _CHECK_SBA(), SBABatch)
        assert isinstance(batch, SBABatch)
        return batch.count

    async def sba_skipped(self, request: SBASkipped) -> None:
        # 704.3/117.5: nothing a state-based action reads changed since the last check
        # (``GameState.sba`` is empty), so the round trip is skipped, and recorded with the
        # grant of priority it comes before.
        self._check_skipped = True

    async def ask_priority(self, request: AskPriority) -> Action | None:
        """117.1: ask the seat holding priority for an action (it could do more than pass);
        None if no SubmitAction naming the decision came (a malformed or out-of-place message,
        a forfeit): the loop then asks again or goes on."""
        decision = request.decision
        seat = decision.player
        if self.wire.trace is not None:
            self._grant_event("priority", seat, f"{self.game.state.players[seat].name} receives priority")
        action = await self.channels[seat].action(decision)
        if action is None:
            return None
        self.result.decisions += 1
        if action.kind == "pass" and self.wire.trace is not None:
            self._note("pass", seat, f"{self.game.state.players[seat].name} passes")
        return action

    async def action_outcome(self, request: ActionOutcome) -> None:
        """Tell the seat what ``take_action`` made of its action: accepted, or refused (and
        after ``MAX_REJECTIONS`` refusals in a row, a forfeit)."""
        channel = self.channels[request.decision.player]
        if request.error is not None:
            self._counts.refused += 1
            await channel.refuse(request.decision, request.error, action=True)
            return
        self._counts.taken += 1
        await channel.accept(request.decision, action=True)

    async def ask(self, request: Ask) -> Answer:
        return await self._answer(request.decision)

    async def run_resolve(self, request: RunResolve) -> None:
        await self._call(self.stack, _RESOLVE(request.object_id), Resolved)

    async def no_stop_pass(self, request: NoStopPass) -> None:
        seat = request.seat
        st = self.game.state
        self.result.auto_passes += 1
        self.channels[seat].passed_for()
        self._grant_event("auto_pass", seat, f"{st.players[seat].name} has no stop here ({st.step})")

    async def begin_task(self, request: BeginTask) -> None:
        raise AssertionError("coordinator: its loop is not stepwise")

    # ------------------------------------------------------------------ the end

    def _clocks_left(self) -> None:
        """Each seat's time left on its game clock, into the result (if any seat has one)."""
        times = [channel.time for channel in self.channels]
        if any(t is not None for t in times):
            self.result.clock_left = tuple(math.inf if t is None else t.left for t in times)

    async def _finish(self) -> None:
        st = self.game.state
        winner = st.players[st.winner].name if st.winner >= 0 else None
        self.result.winner = winner
        self.result.reason = st.end_reason
        self.result.turns = st.turn
        self.result.final_hash = st.state_hash()
        self._clocks_left()
        losers = tuple(p.name for p in st.players if p.lost)
        for channel in self.channels:
            channel.decision_over()  # no decision is open any more
        for channel in self.channels:
            if not channel.gone:
                await channel.send(GameOver(winner or "", losers, st.end_reason))
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
        self._clocks_left()
        try:
            self.result.final_hash = st.state_hash()
        except Exception as err:  # a state left half-changed may not even hash
            self.result.final_hash = ""
            self.result.reason += f"; the state could not be hashed: {type(err).__name__}"
        losers = tuple(p.name for p in st.players if p.lost)
        told = GameOver("", losers, f"{ENGINE_ERROR} ({actor})")
        for seat, channel in enumerate(self.channels):
            if seat in self.gone or seat in skip:
                continue
            await channel.tell(told, GAME_OVER_GRACE)
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
        self.wire.note_event(self.game, kind, seat, text, refs=refs, amount=amount)

    # ------------------------------------------------------------------ kernel actors

    async def _call(self, link: Link, request: Message, reply_type: type) -> Message:
        """Hand the state to the stack actor or SBA checker and wait for it back, answering
        the decisions it needs on the way."""
        counts = self._counts
        counts.sent += 1
        await link.send(request)
        while True:
            msg = await link.receive()
            counts.received += 1
            if isinstance(msg, reply_type):
                return msg
            if isinstance(msg, AskPlayer):
                answer = await self._answer(msg.decision)
                counts.sent += 1
                await link.send(PlayerReply(answer))
                continue
            raise RuntimeError(f"coordinator: unexpected {msg.KIND} from {link.peer}")

    # ------------------------------------------------------------------ players

    async def _answer(self, decision: Decision) -> Answer:
        """Ask a player a non-priority question until the answer is legal."""
        seat = decision.player
        channel = self.channels[seat]
        counts = self._counts
        while not channel.gone and not self.game.state.players[seat].lost:
            reply = await channel.answer(decision)
            if reply is None:
                continue  # a strike (asked again) or a forfeit
            counts.checked += 1
            try:
                answer = check_answer(decision, reply.answer)
            except (IllegalActionError, InvalidMessageError) as err:
                counts.answers_refused += 1
                await channel.refuse(decision, err, action=False)
                continue
            self.result.decisions += 1
            if decision.kind == "order" and self.wire.trace is not None:
                self._ordered(decision, answer)
            await channel.accept(decision, action=False)
            return answer
        channel.decision_over()
        fallback = default_answer(decision)
        assert isinstance(fallback, Answer)
        return fallback
