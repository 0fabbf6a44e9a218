"""The priority coordinator: owns the game state and the turn, serializes everything.

It asks the kernel what the game needs next (``next_task``) and performs it: a state-based
action check by the SBA checker, putting triggers on the stack (asking players in APNAP
order), a grant of priority, a resolution by the stack actor, or the move to the next step.
Exactly one message of the game is in flight at any time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import trio

from ..protocol import (
    Accepted,
    AskPlayer,
    CheckSBA,
    CoordinatorEvent,
    DecisionRequest,
    ErrorReply,
    Forfeit,
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
    decode,
)
from ..rules import (
    Action,
    Answer,
    Decision,
    Game,
    IllegalActionError,
    InvalidMessageError,
    Proc,
    ViewMemo,
    after_sba,
    after_triggers,
    automatic_pass,
    check_answer,
    default_answer,
    lose_game,
    next_task,
    pass_priority,
    place_triggers,
    priority_decision,
    run_automatic,
    take_action,
    view_for,
)
from ._wire import Link

__all__ = ["ENGINE_ERROR", "GAME_OVER_GRACE", "Coordinator", "GameResult", "SeatConfig"]

MAX_STRIKES = 3
"""Malformed messages a seat may send in a row before it forfeits."""
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
    its answer arrives, error replies and requests sent again included."""
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
    error: Exception | None = field(default=None, compare=False, repr=False)
    """For a game ended by an engine error: the exception itself (with its traceback), for a
    caller that reports it; not part of comparisons."""


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
        self.gone: set[int] = set()
        """Seats that forfeited; they are asked nothing more."""
        self._rejections: dict[int, int] = {}
        self._strikes: dict[int, int] = {}
        self.stops: list[Stops | None] = [c.stops for c in configs]
        """Each seat's stops now (``SetStops`` changes them)."""
        self._views = [ViewTracker() for _ in seats]
        """Each seat's last view sent, that the next request's view delta is against."""
        self._memos = [ViewMemo() for _ in seats]

    # ------------------------------------------------------------------ the loop

    async def run(self) -> GameResult:
        """Play the game to its end; returns the result."""
        game = self.game
        st = game.state
        checked = False  # an SBA check made, or its skip recorded, since the last other task
        can_act = False
        while True:
            task = next_task(game)
            if task == "priority" or task == "advance" or task == "end_turn":
                # The grants of priority where passing is all the seat can do, and the step
                # changes that ask nobody, at kernel speed in one call; each automatic pass is
                # recorded as before, after its SBA check's recorded skip.
                run = run_automatic(game, self._auto(), task)
                if run.passed:
                    self._passes_recorded(run.passed, task != "priority" or not checked)
                if run.passed or task != "priority":
                    checked = False
                if run.rest is not None:  # a turn-based action asks a player something
                    await self._drive(run.rest, run.decision)
                    continue
                task = run.task
                can_act = run.can_act
            if task == "game_over":
                break
            if task == "check_sba":
                batch = await self._call(self.sba, CheckSBA(), SBABatch)
                assert isinstance(batch, SBABatch)
                after_sba(game, len(batch.events))
                checked = True
                continue
            if task == "priority" and not checked:
                # 704.3/117.5: nothing a state-based action reads changed since the last check
                # (``GameState.sba`` is empty), so the round trip is skipped, and recorded.
                self._note("sba_skipped", -1, "no SBA-relevant change since the last check")
            checked = False
            if task == "place_triggers":
                placed = await self._drive(place_triggers(game))
                after_triggers(game, bool(placed))
            elif task == "priority":
                await self._priority(can_act)
            elif task == "resolve":
                await self._call(self.stack, Resolve(st.stack[-1]), Resolved)
        await self._finish()
        return self.result

    async def _finish(self) -> None:
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
                    await link.send(told)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass  # that seat's actor is gone already
        self.result.messages = self.wire.sent
        return self.result

    def _auto(self) -> list[bool]:
        """Per seat: whether the engine passes for it whenever passing is all it can do (no
        stops, ``auto_pass`` set, not forfeited), as ``run_automatic`` reads it."""
        gone = self.gone
        return [stops is None and config.auto_pass and seat not in gone
                for seat, (stops, config) in enumerate(zip(self.stops, self.configs, strict=True))]

    def _passes_recorded(self, passed: tuple[int, ...], skip_first: bool) -> None:
        """Count and record ``run_automatic``'s automatic passes in order, each grant of priority
        after its state-based action check's recorded skip (704.3: nothing a state-based action
        reads changed; for the first grant only if ``skip_first``: no check was made just
        before it). Untraced, only the numbers are given, as ``_note`` gives them."""
        wire = self.wire
        if wire.trace is None:
            self.result.auto_passes += len(passed)
            wire.seq += 2 * len(passed) - (not skip_first)
            return
        for i, seat in enumerate(passed):
            if i or skip_first:
                self._note("sba_skipped", -1, "no SBA-relevant change since the last check")
            self._only_pass_recorded(seat)

    def _only_pass_recorded(self, seat: int) -> None:
        """Count and record an automatic pass the engine made because passing was all ``seat``
        could do (the event's text is built only when there is a tracer to read it)."""
        self.result.auto_passes += 1
        if self.wire.trace is None:
            self.wire.seq += 1
        else:
            self._note("auto_pass", seat, f"{self.game.state.players[seat].name} can only pass")

    def _note(self, kind: str, seat: int, detail: str) -> None:
        """A coordinator event for the trace (not sent to anyone but the tracer)."""
        wire = self.wire
        if wire.trace is None:
            wire.seq += 1  # numbered as when traced (``Wire.note``), nothing to build
        else:
            wire.note("coordinator", CoordinatorEvent(kind, seat, detail))

    # ------------------------------------------------------------------ kernel actors

    async def _call(self, link: Link, request: Message, reply_type: type) -> Message:
        """Hand the state to the stack actor or SBA checker and wait for it back, answering
        the decisions it needs on the way."""
        await link.send(request)
        while True:
            msg = await link.receive()
            if isinstance(msg, reply_type):
                return msg
            if isinstance(msg, AskPlayer):
                answer = await self._answer(msg.decision)
                await link.send(PlayerReply(answer))
                continue
            raise RuntimeError(f"coordinator: unexpected {msg.KIND} from {link.peer}")

    async def _drive(self, proc: Proc[object], decision: Decision | None = None) -> object:
        """Run a kernel procedure the coordinator owns (triggers, turn-based actions) to its
        end; ``decision``: its first question, when it was started already."""
        try:
            if decision is None:
                decision = next(proc)
            while True:
                decision = proc.send(await self._answer(decision))
        except StopIteration as stop:
            return stop.value

    # ------------------------------------------------------------------ players

    async def _answer(self, decision: Decision) -> Answer:
        """Ask a player a non-priority question until the answer is legal."""
        seat = decision.player
        rejections = 0
        while seat not in self.gone and not self.game.state.players[seat].lost:
            msg = await self._ask(seat, DecisionRequest(decision, self._view(seat)))
            if msg is None:
                break
            if not isinstance(msg, SubmitAnswer):
                await self._strike(seat, f"expected SubmitAnswer for decision {decision.id}, "
                                   f"got {msg.KIND}")
                continue
            try:
                answer = check_answer(decision, msg.answer)
            except (IllegalActionError, InvalidMessageError) as err:
                rejections += 1
                await self._send(seat, Rejected(decision.id, str(err)))
                if rejections >= MAX_REJECTIONS:
                    await self._forfeit(seat, f"{rejections} illegal answers in a row")
                continue
            self.result.decisions += 1
            self._strikes[seat] = 0
            await self._send(seat, Accepted(decision.id))
            return answer
        reply = default_answer(decision)
        assert isinstance(reply, Answer)
        return reply

    async def _priority(self, can_act: bool = False) -> None:
        """A grant of priority (``can_act``: ``run_automatic`` found that the seat can act)."""
        game = self.game
        seat = game.state.priority
        stops = self.stops[seat]
        if stops is not None and seat not in self.gone:
            st = game.state
            if not stops.wants(st.step, st.active == seat, not st.stack):
                # Outside the seat's stops: 117.3d on its behalf, whatever it could do.
                self.result.auto_passes += 1
                self._note("auto_pass", seat, f"{st.players[seat].name} has no stop here ({st.step})")
                pass_priority(game, seat)
                return
        if (not can_act and self.configs[seat].auto_pass and seat not in self.gone
                and automatic_pass(game, seat)):
            # The exact quick test settles the grant without building the list of actions.
            self._only_pass_recorded(seat)
            return
        decision = priority_decision(game)
        if seat in self.gone:
            take_action(game, seat, Action("pass"))
            return
        if self.configs[seat].auto_pass and len(decision.actions) == 1:
            # 117.3d on the player's behalf: passing is all they could do.
            self._only_pass_recorded(seat)
            pass_priority(game, seat)
            return
        msg = await self._ask(seat, PriorityRequest(decision, self._view(seat)))
        if msg is None:
            return
        if not isinstance(msg, SubmitAction):
            await self._strike(seat, f"expected SubmitAction for decision {decision.id}, got "
                               f"{msg.KIND}")
            return
        if msg.decision_id != decision.id:
            await self._strike(seat, f"SubmitAction names decision {msg.decision_id}, but "
                               f"decision {decision.id} is pending")
            return
        self.result.decisions += 1
        self._strikes[seat] = 0
        try:
            take_action(game, seat, msg.action)
        except (IllegalActionError, InvalidMessageError) as err:
            self._rejections[seat] = self._rejections.get(seat, 0) + 1
            await self._send(seat, Rejected(decision.id, str(err)))
            if self._rejections[seat] >= MAX_REJECTIONS:
                await self._forfeit(seat, f"{MAX_REJECTIONS} illegal actions in a row")
            return
        self._rejections[seat] = 0
        await self._send(seat, Accepted(decision.id))

    async def _ask(self, seat: int, request: PriorityRequest | DecisionRequest) -> Message | None:
        """Send a request and wait for a well-formed reply; None if the seat forfeited.

        One deadline covers the whole decision: sending the request, error replies and
        requests sent again, settings (``SetStops``, answered by ``StopsSet`` or an error
        reply, after which the request is still open) and receiving the answer. A seat that
        misses it forfeits, for not reading or for not answering, whichever it was doing."""
        link = self.seats[seat]
        timeout = self.configs[seat].timeout
        receiving = False
        settings = 0
        with trio.move_on_after(timeout):
            if not await self._send(seat, request):
                return None
            while True:
                receiving = True
                data = await link.receive_bytes()
                receiving = False
                try:
                    msg = decode(data)
                except InvalidMessageError as err:
                    # Sent again with the full view: the seat may not have taken the delta.
                    request = self._resync(seat, request)
                    if not await self._strike(seat, str(err)) or not await self._send(seat, request):
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
                        if not await self._send(seat, request):
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
                    self.stops[seat] = msg.stops
                    if not await self._send(seat, StopsSet(msg.stops)):
                        return None
        if seat not in self.gone:
            await self._forfeit(seat, f"no answer within {timeout:g} s" if receiving
                                else f"did not read its messages within {timeout:g} s")
        return None

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

    async def _send(self, seat: int, msg: Message, *, last_word: bool = False) -> bool:
        """Send to a player; a player that stops reading forfeits. Returns whether the seat is
        still in the game. ``last_word``: a final message to a seat that has just forfeited.

        A send the channel takes at once needs no time limit; one that must wait gets the
        seat's time limit (inside ``_ask`` the decision's deadline, which is earlier, applies)."""
        if seat in self.gone and not last_word:
            return False
        link = self.seats[seat]
        room = link.out.statistics()
        if room.tasks_waiting_receive or room.current_buffer_used < room.max_buffer_size:
            await link.send(msg)  # it cannot block: no time limit needed
            return seat not in self.gone
        with trio.move_on_after(self.configs[seat].timeout):
            await link.send(msg)
            return seat not in self.gone
        if seat not in self.gone:
            await self._forfeit(seat, f"did not read its messages within {self.configs[seat].timeout:g} s")
        return False

    async def _strike(self, seat: int, why: str) -> bool:
        """A malformed or out-of-place message: an error reply, and after MAX_STRIKES in a row
        a forfeit (decided before the reply goes out, so the reply is the seat's last message).
        Returns whether the seat is still in the game."""
        self._strikes[seat] = self._strikes.get(seat, 0) + 1
        if self._strikes[seat] >= MAX_STRIKES:
            await self._forfeit(seat, f"{self._strikes[seat]} malformed messages in a row: {why}")
            await self._send(seat, ErrorReply(why), last_word=True)
            return False
        return await self._send(seat, ErrorReply(why))

    async def _forfeit(self, seat: int, reason: str, told: bool = False) -> None:
        """The seat loses the game by forfeit (104.3a-like); nothing else is affected."""
        st = self.game.state
        name = st.players[seat].name
        self.gone.add(seat)
        self.result.forfeits.append((name, reason))
        self._note("forfeit", seat, reason)
        lose_game(self.game, seat, f"forfeited: {reason}")
        st.dirty = True

