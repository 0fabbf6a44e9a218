"""``spellstack bench --kernel``: the bench's games played by driving the kernel directly in one
thread, without actors, channels or encoding, while still building everything a player would
be sent (its view and the view delta, the decision with its action list) and checking every
answer as the coordinator does. It plays the same games as the actors (``tests/cli/test_bench_kernel.py``)."""

from __future__ import annotations

import inspect
from collections.abc import Sequence

from ..actors import MAX_REJECTIONS, GameResult, GameSetup
from ..bots import Bot, RandomBot
from ..protocol import ViewDelta, ViewTracker
from ..rules import (
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
    PlayerView,
    Proc,
    Procedure,
    Reply,
    RunResolve,
    RunSBA,
    SBASkipped,
    ViewMemo,
    check_answer,
    default_answer,
    perform,
    resolve_top,
    state_based_actions,
    view_for,
)

__all__ = ["BENCH_DECKS", "KernelDriver", "bench_bots", "new_bench_game", "play_kernel"]

BENCH_DECKS = ("gruul", "orzhov")
"""The bench's decks, also its players' names."""


def bench_bots(seed: int) -> list[Bot]:
    """The bench's two seeded random bots for the game of ``seed``."""
    return [RandomBot(2 * seed + 1), RandomBot(2 * seed + 2)]


def new_bench_game(seed: int) -> Game:
    """The bench's game of ``seed``, set up as ``play_one_game`` sets it up."""
    return GameSetup(BENCH_DECKS, seed, BENCH_DECKS).build()


class KernelDriver(LoopDriver[object]):
    """The coordinator's game loop (``GameLoop``) without channels (a ``LoopDriver``): the same
    requests in the same order, performed in place, each request's view built, answers checked with
    ``check_answer`` (actions by the loop's ``take_action``)."""

    def __init__(self, game: Game, bots: Sequence[Bot]) -> None:
        self.game = game
        self.bots = list(bots)
        self.result = GameResult(None, "", 0, seed=game.state.seed)
        self.views = 0
        """Views built (one per request a player receives)."""
        self.last_delta: ViewDelta | None = None
        """The delta the last request would have carried."""
        self._memos = [ViewMemo() for _ in self.bots]
        self._trackers = [ViewTracker() for _ in self.bots]
        self._priority_views = [getattr(b, "views_at_priority", True) is not False for b in self.bots]
        """Whether each seat is sent its view with a priority request (``SeatConfig.priority_views``)."""
        self._rejections: dict[int, int] = {}
        self.loop = GameLoop(game, [True] * len(self.bots))
        """The game loop whose requests this performs."""

    def run(self) -> GameResult:
        """Play the game to its end; returns the result (``messages`` stays 0). The order is
        ``GameLoop``'s, as in the coordinator; this performs its requests in place."""
        st = self.game.state
        loop = self.loop
        request = loop.next()
        while request is not None:
            request = loop.next(perform(self, request))
        winner = st.players[st.winner].name if st.winner >= 0 else None
        self.result.winner = winner
        self.result.reason = st.end_reason
        self.result.turns = st.turn
        self.result.final_hash = st.state_hash()
        return self.result

    # ------------------------------------------------------------------ LoopDriver

    def auto_passes(self, request: AutoPasses) -> None:
        self.result.auto_passes += len(request.seats)

    def run_sba(self, request: RunSBA) -> int:
        events = self._drive(state_based_actions(self.game))
        assert isinstance(events, tuple)
        return len(events)

    def sba_skipped(self, request: SBASkipped) -> None:
        """Nothing to record: the driver writes no trace."""

    def ask_priority(self, request: AskPriority) -> Reply:
        return self._priority(request.decision)

    def action_outcome(self, request: ActionOutcome) -> None:
        self._outcome(request.decision.player, request.error is None)

    def ask(self, request: Ask) -> Answer:
        return self._answer(request.decision)

    def run_resolve(self, request: RunResolve) -> None:
        self._drive(resolve_top(self.game))

    def no_stop_pass(self, request: NoStopPass) -> None:
        raise AssertionError("kernel driver: the bench's seats have no stops")

    def begin_task(self, request: BeginTask) -> None:
        raise AssertionError("kernel driver: its loop is not stepwise")

    def build_view(self, seat: int) -> PlayerView:
        """What the coordinator sends ``seat`` with a request, built as it builds it (the one
        place the driver does, to follow the protocol's views): the seat's view, from its memo,
        and the delta against the last view it was sent. The bot is handed the view (what the
        player actor rebuilds from the delta)."""
        self.views += 1
        memo = self._memos[seat]
        view = view_for(self.game, seat, memo)
        self.last_delta = self._trackers[seat].update(view, memo)
        return view

    def _drive(self, proc: Proc[object]) -> object:
        """Run a kernel procedure to its end (``Procedure``), each question asked as the
        coordinator asks it."""
        run = Procedure(proc)
        question = run.question
        while question is not None:
            question = run.answer(self._answer(question))
        return run.value

    def _answer(self, decision: Decision) -> Answer:
        """A non-priority question, asked until the answer is legal (as the coordinator)."""
        seat = decision.player
        rejections = 0
        while not self.game.state.players[seat].lost:
            view = self.build_view(seat)
            reply = self._decide(seat, view, decision)
            try:
                answer = check_answer(decision, reply)
            except (IllegalActionError, InvalidMessageError):
                rejections += 1
                if rejections >= MAX_REJECTIONS:
                    self._forfeit(seat, f"{rejections} illegal answers in a row")
                continue
            self.result.decisions += 1
            return answer
        fallback = default_answer(decision)
        assert isinstance(fallback, Answer)
        return fallback

    def _decide(self, seat: int, view: PlayerView, decision: Decision) -> Reply:
        reply = self.bots[seat].decide(view, decision)
        # An action or an answer (nearly every reply) is no awaitable: only another type is
        # asked (``isawaitable`` is an abstract class's check, costly at every decision).
        if type(reply) is not Action and type(reply) is not Answer and inspect.isawaitable(reply):
            raise TypeError("the kernel driver has no event loop: its bots must answer at once")
        return reply

    def _priority(self, decision: Decision) -> Reply:
        """The seat's reply to a priority decision (it could do more than pass). A bot that
        reads no view then (``views_at_priority``) is given the last one, as the player actor
        gives it, and none is built (the coordinator sends none)."""
        seat = decision.player
        last = self._trackers[seat].view
        view = self.build_view(seat) if last is None or self._priority_views[seat] else last
        reply = self._decide(seat, view, decision)
        self.result.decisions += 1
        return reply

    def _outcome(self, seat: int, taken: bool) -> None:
        """Count a refused action (``MAX_REJECTIONS`` in a row forfeit), as the coordinator."""
        if taken:
            self._rejections[seat] = 0
            return
        self._rejections[seat] = self._rejections.get(seat, 0) + 1
        if self._rejections[seat] >= MAX_REJECTIONS:
            self._forfeit(seat, f"{MAX_REJECTIONS} illegal actions in a row")

    def _forfeit(self, seat: int, reason: str) -> None:
        self.result.forfeits.append((self.game.state.players[seat].name, reason))
        self.loop.leave(seat, reason)


def play_kernel(seed: int) -> tuple[KernelDriver, GameResult]:
    """Play the bench's game of ``seed`` through the kernel driver."""
    driver = KernelDriver(new_bench_game(seed), bench_bots(seed))
    return driver, driver.run()
