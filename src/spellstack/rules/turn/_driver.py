"""The game loop, written once: what the game needs next and the order it is done in.

``next_task`` names what a game needs now: state-based actions and triggers before any player
receives priority (117.5, 704.3, 603.3b), priority (117.1), resolving when all players pass in
succession (117.4, 608.1), moving to the next step (500.2, 514.3). ``GameLoop`` performs those
tasks in that order, sans-IO: it yields a ``LoopRequest`` for everything it does not do itself (a
state-based action check, a resolution, a question for a seat, an outcome to report, automatic
passes to record) and is resumed with the answer. It never calls ``state_based_actions`` or
``resolve_top``: whoever drives it runs them (in the actors, the SBA checker and the stack
actor, by message). The coordinator, the kernel bench's driver, the fuzz (through the
coordinator) and ``play_sync`` all drive this one loop, each as a ``LoopDriver``: one method
per request kind, called by the one dispatch over the kinds (``perform``).

``Procedure`` drives a kernel procedure (a generator yielding ``Decision``) one answer at a
time; it is the only place a procedure is resumed.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Final, Generic, Literal, Protocol, TypeVar, assert_never

from ..base import IllegalActionError, InvalidMessageError
from ..casting import legal_actions, only_pass_possible
from ..ending import CONCEDED, draw_game, lose_game
from ..game import Game
from ..resolution import resolve_top
from ..sba import state_based_actions
from ..state import Action, Decision, Proc, Reply
from ..triggers import place_triggers
from ._loop_driver import LoopDriver
from ._loops import WATCH_AFTER, LoopWatch
from ._passing import (
    after_sba,
    after_triggers,
    automatic_pass,
    living_count,
    pass_priority,
    priority_decision,
    record_pass,
)
from ._priority import check_answer, take_action
from ._setup import start_game
from ._turn import advance_steps, end_turn_steps

__all__ = [
    "SBA_SKIPPED",
    "ActionOutcome",
    "Ask",
    "AskPriority",
    "AutoPasses",
    "AutoRun",
    "BeginTask",
    "GameLoop",
    "LoopDriver",
    "LoopRequest",
    "NoStopPass",
    "Procedure",
    "RunResolve",
    "RunSBA",
    "SBASkipped",
    "StopRule",
    "Task",
    "next_task",
    "perform",
    "play_sync",
    "run_automatic",
    "run_proc",
]

Task = Literal["start_game", "check_sba", "place_triggers", "priority", "resolve", "advance",
               "end_turn", "game_over"]
T = TypeVar("T")
R = TypeVar("R")


def next_task(game: Game) -> Task:
    """What must happen next."""
    st = game.state
    if st.game_over:
        return "game_over"
    if st.cycle == "check":
        sba = st.sba  # ``bool(st.sba)``, read inline: this runs before every task
        if sba.everything or sba.due or sba.board or sba.players or sba.objects or sba.tokens:
            return "check_sba"  # 704.3: something a state-based action reads changed
        if st.pending_triggers:
            return "place_triggers"
        if st.step == "cleanup" and not st.cleanup_acted:
            return "end_turn"
        if st.passes and st.passes >= living_count(st.players):
            # 800.4a/800.4j: everyone still in the game has passed in succession since a
            # player who held priority left: the top object resolves or the step ends.
            return "resolve" if st.stack else "advance"
        return "priority"
    if st.cycle in ("priority", "resolve", "advance", "end_turn"):
        return st.cycle  # type: ignore[return-value]
    if st.cycle == "start":
        return "start_game"  # 103: a game of a match starts with decisions (``start_game``)
    raise AssertionError(f"unknown cycle {st.cycle!r}")


# ---------------------------------------------------------------------- driving a procedure


class Procedure(Generic[T]):
    """A kernel procedure being driven: ``question`` is the decision it waits for (None once it
    has ended, with ``value`` its result); ``answer`` resumes it with the reply."""

    __slots__ = ("_proc", "question", "value")

    def __init__(self, proc: Proc[T], question: Decision | None = None) -> None:
        """Start ``proc``; ``question``: its first decision, when it was started already."""
        self._proc = proc
        self.value: T | None = None
        """The procedure's result, once it has ended."""
        if question is None:
            try:
                question = next(proc)
            except StopIteration as stop:
                self.value = stop.value
        self.question: Decision | None = question
        """The decision it waits for; None once it has ended."""

    def answer(self, reply: Reply) -> Decision | None:
        """Resume it with ``reply`` to ``question``; returns its next question (None: it ended)."""
        try:
            question: Decision | None = self._proc.send(reply)
        except StopIteration as stop:
            question = None
            self.value = stop.value
        self.question = question
        return question


def run_proc(proc: Proc[T], answer: Callable[[Decision], Reply]) -> T | None:
    """Drive a kernel procedure synchronously to its end, answering each decision with
    ``answer`` (checked with ``check_answer``); returns its result."""
    run = Procedure(proc)
    question = run.question
    while question is not None:
        question = run.answer(check_answer(question, answer(question)))
    return run.value


# ---------------------------------------------------------------------- automatic passes


# What ``run_automatic`` returns and the loop's requests: made at every task, so plain slotted
# dataclasses with their constructors written out (compiled code; see ``game.SeatBoard``).


@dataclass(slots=True)
class AutoRun:
    """What ``run_automatic`` did, and the task the game waits for now."""

    passed: tuple[int, ...]
    """The seats that passed automatically, in order: one grant of priority each."""
    task: Task
    """The task it stopped at, not performed: ``priority`` for a seat its caller must deal with
    (one not in its ``auto``, or one that can act), ``check_sba``, ``place_triggers``,
    ``resolve`` or ``game_over``; ``advance`` or ``end_turn`` when ``rest`` asks something."""
    can_act: bool = False
    """``task`` is ``priority`` and the seat holding it can do more than pass
    (``only_pass_possible`` said no): its priority decision follows without that test again."""
    rest: Proc[None] | None = None
    """The rest of a step change that asks a player something, started: ``decision`` is its
    first question; the caller answers and drives it to its end before anything else."""
    decision: Decision | None = None
    """``rest``'s first question."""

    def __init__(self, passed: tuple[int, ...], task: Task, can_act: bool = False, rest: Proc[None] | None = None,
                 decision: Decision | None = None) -> None:
        self.passed = passed
        self.task = task
        self.can_act = can_act
        self.rest = rest
        self.decision = decision




SKIPPED_CHECK: Final = " (no state-based action check needed: nothing one reads changed)"
"""Said in a trace of a grant of priority made without the state-based action check before it
(704.3: nothing one reads had changed since the last)."""


def run_automatic(game: Game, auto: Sequence[bool], task: Task, *, once: bool = False,
                  first_skipped: bool = False) -> AutoRun:
    """Perform, from ``task`` (what ``next_task`` says now) on, every task that needs nobody:
    117.3d automatic passes for the seats whose ``auto`` is true while passing is all they can
    do (``automatic_pass``), and the step changes that follow all players passing with an empty
    stack (117.4, 500.2; ``advance``) or a cleanup step in which nothing happened (514.3,
    ``end_turn``), until a task needs someone: a player to be asked, a state-based action
    check (704.3: a turn-based action may have changed what one reads), triggers to put on the
    stack (603.3), a resolution, or a question a turn-based action asks. Each pass is a grant
    of priority its caller records, in order (``AutoRun.passed``); no check is needed between
    two of them, a pass changes nothing a state-based action or trigger reads. ``once``: stop
    after one step change (a caller that looks at the game between tasks).

    Traced (``Game.trace_log``), each pass is recorded as it is made, among the step changes
    around it, as an ``auto_pass`` (amount 1: its grant had no state-based action check,
    ``first_skipped`` for the first, always for the others)."""
    st = game.state
    passed: list[int] = []
    traced = game.trace_log is not None
    while True:
        if task == "priority":
            seat = st.priority
            if not auto[seat]:
                break
            if not only_pass_possible(game, seat):
                return AutoRun(tuple(passed), task, True, None, None)
            # ``pass_priority`` without its checks: ``next_task`` said ``seat`` holds priority.
            looked = st.cycle == "check"
            st.cycle = "priority"
            record_pass(st, seat)
            if traced:
                skipped = bool(passed) or first_skipped
                game.trace("auto_pass", f"{st.players[seat].name} can only pass"
                           + (SKIPPED_CHECK if skipped else ""), player=seat, amount=int(skipped))
            passed.append(seat)
            if looked and st.cycle == "check":
                # ``next_task`` found no state-based action to check, no trigger waiting, no
                # cleanup to end, before this pass; a pass changes none of these, and not all
                # players have passed (``record_pass``): the next in turn order gets priority.
                continue
        elif task == "advance" or task == "end_turn":
            rest = advance_steps(game) if task == "advance" else end_turn_steps(game)
            if rest is not None:
                try:
                    decision = next(rest)
                except StopIteration:
                    pass
                else:
                    return AutoRun(tuple(passed), task, False, rest, decision)
            if once:
                return AutoRun(tuple(passed), next_task(game), False, None, None)
        else:
            break
        task = next_task(game)
    return AutoRun(tuple(passed), task, False, None, None)


# ---------------------------------------------------------------------- the loop's requests


@dataclass(frozen=True, slots=True)
class RunSBA:
    """704.3: check state-based actions now (``state_based_actions``, by the SBA checker in
    the actors). Reply: how many events the check performed."""


@dataclass(slots=True)
class RunResolve:
    """608.1: resolve the top of the stack (``resolve_top``, by the stack actor). Reply: None."""

    object_id: int
    """The object on top of the stack."""

    def __init__(self, object_id: int) -> None:
        self.object_id = object_id


@dataclass(slots=True)
class Ask:
    """A question of trigger placement (603.3b) or a turn-based action for
    ``decision.player``. Reply: a legal ``Answer`` (one ``check_answer`` accepted)."""

    decision: Decision
    """The question."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision


@dataclass(slots=True)
class AskPriority:
    """117.1: ``decision.player`` holds priority and may do more than pass. Reply: the
    ``Action`` the seat sent (the loop takes it with ``take_action``), or None when nothing
    naming this decision came (a malformed message, a forfeit): the loop then goes on."""

    decision: Decision
    """The priority decision."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision


@dataclass(slots=True)
class ActionOutcome:
    """What ``take_action`` made of the reply to an ``AskPriority``. Reply: None."""

    decision: Decision
    """The priority decision it answered."""
    error: IllegalActionError | InvalidMessageError | None
    """Why it was refused (the state is as it was), or None: it was taken."""

    def __init__(self, decision: Decision, error: IllegalActionError | InvalidMessageError | None) -> None:
        self.decision = decision
        self.error = error


@dataclass(slots=True)
class AutoPasses:
    """117.3d: the engine passed for these seats because passing was all they could do, one
    grant of priority each, in order. Reply: None."""

    seats: tuple[int, ...]
    """The seats, in order."""
    skip_first: bool
    """Whether the first grant also had its state-based action check skipped (704.3: nothing a
    state-based action reads changed); every later one had."""
    traced: bool = False
    """The passes are in the trace already (``run_automatic`` records each as it makes it);
    the caller only counts them. False: the caller records them."""

    def __init__(self, seats: tuple[int, ...], skip_first: bool, traced: bool = False) -> None:
        self.seats = seats
        self.skip_first = skip_first
        self.traced = traced


@dataclass(slots=True)
class NoStopPass:
    """117.3d: the engine passes for ``seat``, which has no stop in this step (it does so
    after this request). Reply: None."""

    seat: int
    """The seat."""

    def __init__(self, seat: int) -> None:
        self.seat = seat


@dataclass(frozen=True, slots=True)
class SBASkipped:
    """704.3: a player is about to receive priority and nothing a state-based action reads
    changed since the last check, so none is made. Reply: None."""


@dataclass(slots=True)
class BeginTask:
    """A stepwise loop is about to perform ``task`` (``GameLoop(stepwise=True)``). Reply:
    None; a caller that wants to stop there stops driving."""

    task: Task
    """What ``next_task`` says."""

    def __init__(self, task: Task) -> None:
        self.task = task


LoopRequest = RunSBA | RunResolve | Ask | AskPriority | ActionOutcome | AutoPasses | NoStopPass | SBASkipped | BeginTask
"""Everything ``GameLoop`` asks of its driver."""

RUN_SBA: Final = RunSBA()
SBA_SKIPPED: Final = SBASkipped()


def perform(driver: LoopDriver[R], request: LoopRequest) -> R:
    """Hand ``request`` to the ``driver``'s method for its kind; returns what that returns.
    The one dispatch over the kinds of ``LoopRequest`` (the most frequent first)."""
    match request:
        case AutoPasses():
            return driver.auto_passes(request)
        case RunSBA():
            return driver.run_sba(request)
        case SBASkipped():
            return driver.sba_skipped(request)
        case AskPriority():
            return driver.ask_priority(request)
        case ActionOutcome():
            return driver.action_outcome(request)
        case Ask():
            return driver.ask(request)
        case RunResolve():
            return driver.run_resolve(request)
        case NoStopPass():
            return driver.no_stop_pass(request)
        case BeginTask():
            return driver.begin_task(request)
        case _:
            assert_never(request)


class StopRule(Protocol):
    """A seat's stops, as the loop reads them (the protocol's ``Stops``)."""

    def wants(self, step: str, own_turn: bool, stack_empty: bool) -> bool:
        """Whether the seat wants priority now."""
        ...


# ---------------------------------------------------------------------- the loop


LOOP_DRAW: Final = ("the game came back to a position it held, with nothing any player chose in between: "
             "a loop of mandatory actions that never ends (104.4b)")
"""The end reason of a game drawn by 104.4b (after ``draw: ``)."""


class GameLoop:
    """One game's priority cycle (117, 704.3, 603.3b, 608.1), sans-IO: ``next`` returns the
    next ``LoopRequest`` (None once the game is over) and takes the reply to the previous one.

    Per seat: ``auto_pass`` (the engine passes for it when passing is all it can do), its
    stops (``set_stops``: outside them the engine passes for it whatever it could do) and
    whether it has lost and left (by forfeit, ``leave``; by concession, ``concede``; for a
    reason of its driver's, ``lose``: it is asked nothing more and passes).
    ``stepwise``: a ``BeginTask`` before every task, and one step change at a time."""

    def __init__(self, game: Game, auto_pass: Sequence[bool],
                 stops: Sequence[StopRule | None] | None = None, *, stepwise: bool = False) -> None:
        n = len(game.state.players)
        self.game = game
        self.auto_pass = list(auto_pass)
        """Per seat: pass for it when passing is the only legal action (117.3d)."""
        self.stops: list[StopRule | None] = list(stops) if stops is not None else [None] * n
        """Per seat: its stops, or None (it is asked whenever it could do more than pass)."""
        self.gone: set[int] = set()
        """Seats that lost and left (``leave``, ``concede``, ``lose``)."""
        self.stepwise = stepwise
        self.watch = LoopWatch()
        """104.4b: told of each check and resolution, it finds a loop of mandatory actions."""
        self._auto = [False] * n
        for seat in range(n):
            self._refresh(seat)
        self._steps = self._run()

    def next(self, reply: object = None) -> LoopRequest | None:
        """The reply to the last request (None for the first call); returns the next request,
        or None: the game is over."""
        try:
            return self._steps.send(reply)
        except StopIteration:
            return None

    def set_stops(self, seat: int, stops: StopRule | None) -> None:
        """The seat's stops from now on."""
        self.stops[seat] = stops
        self._refresh(seat)

    def lose(self, seat: int, reason: str) -> None:
        """The seat loses the game for ``reason``, which reads after its name (``lost on time
        (clock 60+0.5)``: the game's end reads ``bob wins: alice lost on time (clock 60+0.5)``),
        and is asked nothing more. ``leave`` and ``concede`` are the two losses every driver
        knows; this is for a driver's own (a game clock that runs out)."""
        self.gone.add(seat)
        self._refresh(seat)
        lose_game(self.game, seat, reason)
        self.game.state.dirty = True

    def leave(self, seat: int, reason: str) -> None:
        """The seat loses by forfeit (104.3a-like) and is asked nothing more."""
        self.lose(seat, f"forfeited: {reason}")

    def concede(self, seat: int) -> None:
        """The seat concedes (104.3a: a player can concede the game at any time, even while it
        is asked something other than priority) and is asked nothing more."""
        self.lose(seat, CONCEDED)

    def _refresh(self, seat: int) -> None:
        """Whether ``run_automatic`` passes for ``seat``: no stops, ``auto_pass``, not gone."""
        self._auto[seat] = self.stops[seat] is None and self.auto_pass[seat] and seat not in self.gone

    def _run(self) -> Generator[LoopRequest, object, None]:
        """The loop: each task in ``next_task``'s order, with the SBA check's skip recorded
        before each grant of priority that had none (704.3)."""
        game = self.game
        st = game.state
        stepwise = self.stepwise
        checked = False  # an SBA check made, or its skip recorded, since the last other task
        can_act = False
        while True:
            task = next_task(game)
            if stepwise:
                if task == "game_over":
                    return
                yield BeginTask(task)
            if task == "priority" or task == "advance" or task == "end_turn":
                # The grants of priority where passing is all the seat can do, and the step
                # changes that ask nobody, at kernel speed in one call; each automatic pass is
                # recorded, after its SBA check's recorded skip.
                run = run_automatic(game, self._auto, task, once=stepwise,
                                    first_skipped=task != "priority" or not checked)
                if run.passed:
                    yield AutoPasses(run.passed, task != "priority" or not checked,
                                     game.trace_log is not None)
                if run.passed or task != "priority":
                    checked = False
                if run.rest is not None:  # a turn-based action asks a player something
                    yield from self._procedure(run.rest, run.decision)
                    continue
                if stepwise and (task != "priority" or run.passed):
                    continue  # one task at a time
                task = run.task
                can_act = run.can_act
            if task == "game_over":
                return
            if task == "start_game":
                yield from self._procedure(start_game(game))
                continue
            if task == "check_sba" or task == "resolve":
                watch = self.watch
                watch.ticks += 1
                if watch.ticks >= WATCH_AFTER and watch.looping(game):
                    draw_game(game, LOOP_DRAW)
                    continue
            if task == "check_sba":
                events = yield RUN_SBA
                after_sba(game, events)  # type: ignore[arg-type]
                checked = True
                continue
            if task == "priority" and not checked:
                yield SBA_SKIPPED
            checked = False
            if task == "place_triggers":
                placed = yield from self._procedure(place_triggers(game))
                after_triggers(game, bool(placed))
            elif task == "priority":
                yield from self._priority(can_act)
            elif task == "resolve":
                yield RunResolve(st.stack[-1])

    def _procedure(self, proc: Proc[T], question: Decision | None = None
                   ) -> Generator[LoopRequest, object, T | None]:
        """Drive a procedure the loop owns (trigger placement, turn-based actions) to its end,
        each question an ``Ask``."""
        run = Procedure(proc, question)
        question = run.question
        while question is not None:
            question = run.answer((yield Ask(question)))  # type: ignore[arg-type]
        return run.value

    def _priority(self, can_act: bool) -> Generator[LoopRequest, object, None]:
        """A grant of priority (``can_act``: ``run_automatic`` found that the seat can act)."""
        game = self.game
        st = game.state
        seat = st.priority
        gone = seat in self.gone
        stops = self.stops[seat]
        if stops is not None and not gone and not stops.wants(st.step, st.active == seat, not st.stack):
            yield NoStopPass(seat)  # outside the seat's stops: 117.3d on its behalf
            self.watch.chosen += 1  # not a loop of mandatory actions (104.4b): its stops chose
            pass_priority(game, seat)
            return
        auto_pass = self.auto_pass[seat] and not gone
        if not can_act and auto_pass and automatic_pass(game, seat):
            # The exact quick test settles the grant without building the list of actions.
            yield AutoPasses((seat,), False, False)
            return
        if gone:
            pass_priority(game, seat)  # asked nothing: no decision, no id
            return
        actions = legal_actions(game, seat)
        if auto_pass and len(actions) == 1:
            yield AutoPasses((seat,), False, False)  # passing is all they could do
            pass_priority(game, seat)
            return
        # Numbered only now: a seat's decision ids count the decisions it is asked.
        decision = priority_decision(game, actions)
        if len(actions) == 1:
            self.watch.forced += 1  # passing is all it can do: no choice (104.4b)
        reply = yield AskPriority(decision)
        if reply is None:
            return
        try:
            rest = take_action(game, seat, reply)  # type: ignore[arg-type]  # it refuses a non-Action
        except (IllegalActionError, InvalidMessageError) as err:
            yield ActionOutcome(decision, err)
            return
        yield ActionOutcome(decision, None)
        if rest is not None:  # the action taken asks as it ends (614.12): nothing comes between
            yield from self._procedure(rest)


class _SyncDriver:
    """``play_sync``'s driver (a ``LoopDriver``): every request performed in place, every
    question answered by ``answer``."""

    def __init__(self, game: Game, answer: Callable[[Decision], Reply],
                 on_action: Callable[[Game], None] | None, max_tasks: int,
                 until: Callable[[Game, Task], bool] | None) -> None:
        self.game = game
        self.answer = answer
        self.on_action = on_action
        self.max_tasks = max_tasks
        self.until = until
        self.tasks = 0
        """Tasks begun."""
        self.stop: Literal["", "until", "limit"] = ""
        """Why driving stops before the game's end: ``until`` said so, or more than
        ``max_tasks`` tasks; empty while it goes on."""

    def begin_task(self, request: BeginTask) -> None:
        if self.tasks and self.on_action is not None:
            self.on_action(self.game)
        if self.until is not None and self.until(self.game, request.task):
            self.stop = "until"
            return
        self.tasks += 1
        if self.tasks > self.max_tasks:
            self.stop = "limit"

    def run_sba(self, request: RunSBA) -> int:
        events = run_proc(state_based_actions(self.game), self.answer)
        assert isinstance(events, tuple)
        return len(events)

    def run_resolve(self, request: RunResolve) -> None:
        run_proc(resolve_top(self.game), self.answer)

    def ask(self, request: Ask) -> Reply:
        return check_answer(request.decision, self.answer(request.decision))

    def ask_priority(self, request: AskPriority) -> Reply:
        reply = self.answer(request.decision)
        assert isinstance(reply, Action)
        return reply

    def action_outcome(self, request: ActionOutcome) -> None:
        if request.error is not None:
            raise request.error

    def auto_passes(self, request: AutoPasses) -> None:
        """Nobody is passed for (``auto_pass`` is off for every seat); the loop's quick test
        settles nothing."""

    def no_stop_pass(self, request: NoStopPass) -> None:
        """No seat has stops."""

    def sba_skipped(self, request: SBASkipped) -> None:
        """Nothing to record."""


def play_sync(game: Game, answer: Callable[[Decision], Reply],
              on_action: Callable[[Game], None] | None = None, max_tasks: int = 1_000_000,
              *, until: Callable[[Game, Task], bool] | None = None) -> None:
    """Play a game to its end without actors (tests): ``GameLoop`` stepwise, nobody passed for,
    every question answered by ``answer`` (answers checked; an illegal action raises).
    ``on_action`` is called after each task; ``until``: stop before performing the first task
    for which it returns True."""
    loop = GameLoop(game, [False] * len(game.state.players), stepwise=True)
    driver = _SyncDriver(game, answer, on_action, max_tasks, until)
    request = loop.next()
    while request is not None:
        reply = perform(driver, request)
        if driver.stop:
            break
        request = loop.next(reply)
    else:
        if driver.tasks and on_action is not None:
            on_action(game)
        return
    if driver.stop == "until":
        return
    raise RuntimeError(f"game did not end within {max_tasks} tasks"
                       + (" or reach the stop condition" if until is not None else ""))
