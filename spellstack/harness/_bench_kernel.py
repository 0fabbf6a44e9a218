"""``spellstack bench --kernel``: the bench's games played by driving the kernel directly in one
thread, without actors, channels or encoding, while still building everything a player would
be sent (its view and the view delta, the decision with its action list) and checking every
answer as the coordinator does. It plays the same games as the actors (``tests/cli/test_bench_kernel.py``)."""

from __future__ import annotations

import inspect
from collections.abc import Sequence

from ..actors import MAX_REJECTIONS, GameResult
from ..bots import Bot, RandomBot
from ..cards import load_cards, load_deck
from ..protocol import ViewDelta, ViewTracker
from ..rules import (
    Action,
    Answer,
    Decision,
    Game,
    IllegalActionError,
    InvalidMessageError,
    PlayerView,
    Proc,
    Reply,
    ViewMemo,
    after_sba,
    after_triggers,
    automatic_pass,
    check_answer,
    default_answer,
    lose_game,
    new_game,
    next_task,
    place_triggers,
    priority_decision,
    resolve_top,
    run_automatic,
    state_based_actions,
    take_action,
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
    cards = load_cards()
    loaded = [load_deck(d, cards) for d in BENCH_DECKS]
    return new_game(cards, [(nm, d.cards) for nm, d in zip(BENCH_DECKS, loaded, strict=True)], seed)


class KernelDriver:
    """The coordinator's loop without channels: the same tasks in the same order, each
    request's view built, answers checked with ``check_answer``/``take_action``."""

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
        self._rejections: dict[int, int] = {}

    def run(self) -> GameResult:
        """Play the game to its end; returns the result (``messages`` stays 0)."""
        game = self.game
        st = game.state
        auto = (True,) * len(self.bots)
        while True:
            task = next_task(game)
            if task == "priority" or task == "advance" or task == "end_turn":
                # As the coordinator: the automatic passes and quiet step changes in one call.
                run = run_automatic(game, auto, task)
                self.result.auto_passes += len(run.passed)
                if run.rest is not None:
                    assert run.decision is not None
                    self._drive(run.rest, run.decision)
                    continue
                task = run.task
                if task == "priority":
                    self._priority(run.can_act)
                    continue
            if task == "game_over":
                break
            if task == "check_sba":
                events = self._drive(state_based_actions(game))
                assert isinstance(events, tuple)
                after_sba(game, len(events))
            elif task == "place_triggers":
                placed = self._drive(place_triggers(game))
                after_triggers(game, bool(placed))
            elif task == "resolve":
                self._drive(resolve_top(game))
        winner = st.players[st.winner].name if st.winner >= 0 else None
        self.result.winner = winner
        self.result.reason = st.end_reason
        self.result.turns = st.turn
        self.result.final_hash = st.state_hash()
        return self.result

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

    def _drive(self, proc: Proc[object], decision: Decision | None = None) -> object:
        """Run a kernel procedure to its end (``decision``: its first question, already asked)."""
        try:
            if decision is None:
                decision = next(proc)
            while True:
                decision = proc.send(self._answer(decision))
        except StopIteration as stop:
            return stop.value

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
        if inspect.isawaitable(reply):
            raise TypeError("the kernel driver has no event loop: its bots must answer at once")
        return reply

    def _priority(self, can_act: bool = False) -> None:
        """A grant of priority (``can_act``: ``run_automatic`` found the seat can act)."""
        game = self.game
        seat = game.state.priority
        if not can_act and automatic_pass(game, seat):  # as the coordinator does
            self.result.auto_passes += 1
            return
        decision = priority_decision(game)
        if len(decision.actions) == 1:
            self.result.auto_passes += 1
            take_action(game, seat, Action("pass"))
            return
        view = self.build_view(seat)
        reply = self._decide(seat, view, decision)
        self.result.decisions += 1
        try:
            if not isinstance(reply, Action):
                raise InvalidMessageError(f"expected an Action, got {type(reply).__name__}")
            take_action(game, seat, reply)
        except (IllegalActionError, InvalidMessageError):
            self._rejections[seat] = self._rejections.get(seat, 0) + 1
            if self._rejections[seat] >= MAX_REJECTIONS:
                self._forfeit(seat, f"{MAX_REJECTIONS} illegal actions in a row")
            return
        self._rejections[seat] = 0

    def _forfeit(self, seat: int, reason: str) -> None:
        st = self.game.state
        self.result.forfeits.append((st.players[seat].name, reason))
        lose_game(self.game, seat, f"forfeited: {reason}")
        st.dirty = True


def play_kernel(seed: int) -> tuple[KernelDriver, GameResult]:
    """Play the bench's game of ``seed`` through the kernel driver."""
    driver = KernelDriver(new_bench_game(seed), bench_bots(seed))
    return driver, driver.run()
