"""A seat's deadline is read by its own time: the time since its request was sent less the
time the event loop was held by anyone but its own policy.

Every game of a process shares one trio event loop, and a task holds it until its next
checkpoint. An honest seat whose answer was ready in time must not forfeit because another
game's work held the loop (it used to: the deadline kept running); and a policy whose own
synchronous work holds the loop past its deadline must forfeit (it used to get away with it:
by the time the coordinator could look, its answer was there). A hold is modelled with the
mock clock jumping while a task runs (``MockClock.jump`` inside a policy's ``decide``), and
once in real time with small figures (a 0.5 s block under a 0.05 s deadline).
"""

from __future__ import annotations

import re
import time

import trio
import trio.testing

from spellstack.actors import (
    GameResult,
    HeldTime,
    SeatClock,
    SeatConfig,
    loop_lag,
    play_game,
    play_one_game,
)
from spellstack.bots import RandomBot
from spellstack.rules import Decision, PlayerView, Reply
from spellstack.testing import deck_game

NAMES = ("alice", "bob")
HOLD = 0.4
"""Seconds a hogging policy holds the loop at each decision."""
DECKS = ("gruul", "orzhov", "dimir")
SHORT = 0.3
"""The honest seats' deadline, shorter than one hold."""


class Hog:
    """A RandomBot whose synchronous ``decide`` holds the loop for ``hold`` seconds at every
    decision (the mock clock jumps while it runs, as if it computed that long)."""

    def __init__(self, seed: int, clock: trio.testing.MockClock, hold: float = HOLD) -> None:
        self.inner = RandomBot(seed)
        self.clock = clock
        self.hold = hold
        self.decided = 0

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.clock.jump(self.hold)
        self.decided += 1
        return self.inner.decide(view, decision)


class AsyncHog(Hog):
    """The same, as an ``async`` policy that holds the loop after its first wait."""

    async def decide(self, view: PlayerView, decision: Decision) -> Reply:  # type: ignore[override]
        await trio.sleep(0)
        return Hog.decide(self, view, decision)


def _summary(result: GameResult) -> tuple[str | None, str, int, str]:
    return result.winner, result.reason, result.turns, result.final_hash


async def test_honest_seats_beside_a_game_that_holds_the_loop_keep_their_deadlines(
        autojump_clock: trio.testing.MockClock) -> None:
    honest = [SeatConfig(timeout=SHORT)] * 2
    alone = {}
    for i in range(1, 4):
        game = deck_game(DECKS[i % 3], DECKS[(i + 1) % 3], names=NAMES, seed=40 + i)
        alone[i] = await play_game(game, [RandomBot(2 * i), RandomBot(2 * i + 1)], configs=honest)
        assert alone[i].forfeits == []
    hogs = [Hog(1, autojump_clock), Hog(2, autojump_clock)]
    together: dict[int, GameResult] = {}

    async def one(i: int) -> None:
        if i == 0:  # the hogs have time enough for their own holding
            game = deck_game(DECKS[0], DECKS[1], names=NAMES, seed=40)
            together[i] = await play_game(game, hogs, configs=[SeatConfig(timeout=10.0)] * 2,
                                          game_id="g0")
        else:
            game = deck_game(DECKS[i % 3], DECKS[(i + 1) % 3], names=NAMES, seed=40 + i)
            together[i] = await play_game(game, [RandomBot(2 * i), RandomBot(2 * i + 1)],
                                          configs=honest, game_id=f"g{i}")

    async with trio.open_nursery() as nursery:
        for i in range(4):
            nursery.start_soon(one, i)
    assert sum(h.decided for h in hogs) > 20  # the loop was held, often, for longer than SHORT
    assert together[0].forfeits == []
    for i in range(1, 4):
        assert together[i].forfeits == [], f"game {i}"
        assert _summary(together[i]) == _summary(alone[i]), f"game {i}"


async def test_a_policy_that_holds_the_loop_past_its_deadline_forfeits(
        autojump_clock: trio.testing.MockClock) -> None:
    configs = [SeatConfig(timeout=SHORT), SeatConfig(timeout=SHORT)]
    _, result = await play_one_game(["gruul", "orzhov"], [Hog(1, autojump_clock), RandomBot(2)],
                                    3, names=list(NAMES), configs=configs)
    assert len(result.forfeits) == 1
    who, reason = result.forfeits[0]
    assert who == "alice"
    assert re.fullmatch(r"answered after 0\.4\d s, over its 0\.3 s deadline", reason), reason
    assert result.winner == "bob"


async def test_an_async_policy_s_own_holding_counts_against_it(
        autojump_clock: trio.testing.MockClock) -> None:
    configs = [SeatConfig(timeout=SHORT), SeatConfig(timeout=SHORT)]
    _, result = await play_one_game(["gruul", "orzhov"],
                                    [AsyncHog(1, autojump_clock), RandomBot(2)], 3,
                                    names=list(NAMES), configs=configs)
    assert [who for who, _ in result.forfeits] == ["alice"]
    assert re.fullmatch(r"answered after 0\.4\d s, over its 0\.3 s deadline",
                        result.forfeits[0][1]), result.forfeits


async def test_a_policy_holding_the_loop_within_its_deadline_plays_on(
        autojump_clock: trio.testing.MockClock) -> None:
    configs = [SeatConfig(timeout=1.0), SeatConfig(timeout=SHORT)]
    hog = Hog(1, autojump_clock, hold=0.6)
    _, result = await play_one_game(["gruul", "orzhov"], [hog, RandomBot(2)], 3,
                                    names=list(NAMES), configs=configs)
    assert result.forfeits == []  # bob's deadline is shorter than alice's holds: not his time
    assert hog.decided > 10


class Blocker:
    """A RandomBot whose synchronous ``decide`` blocks the thread (``time.sleep``) for
    ``block`` seconds at its first decision."""

    def __init__(self, seed: int, block: float) -> None:
        self.inner = RandomBot(seed)
        self.block = block

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        if self.block:
            time.sleep(self.block)  # real time: a thread blocked for 0.5 s, which no mock clock can see
            self.block = 0.0
        return self.inner.decide(view, decision)


async def test_a_blocking_synchronous_policy_is_held_to_its_deadline_in_real_time() -> None:
    configs = [SeatConfig(timeout=0.05), SeatConfig(timeout=5.0)]
    _, result = await play_one_game(["gruul", "orzhov"], [Blocker(1, 0.5), RandomBot(2)], 3,
                                    names=list(NAMES), configs=configs)
    assert [who for who, _ in result.forfeits] == ["alice"], result.forfeits
    reason = result.forfeits[0][1]
    assert re.fullmatch(r"answered after 0\.5\d s, over its 0\.05 s deadline", reason), reason
    assert result.winner == "bob"


def test_the_lag_monitor_measures_a_hold() -> None:
    clock = trio.testing.MockClock()
    seen: list[float] = []

    async def main() -> None:
        lag = loop_lag(0.2)
        mine = HeldTime()
        seat = SeatClock.begin(0.2, lag, mine)
        clock.jump(5.0)  # the loop held for 5 s by this task: read before the monitor runs
        seen.append(seat.charged(lag, mine))
        await trio.sleep(0)
        seen.append(seat.charged(lag, mine))
        mine.own += 5.0  # the same, charged as the seat's own
        seen.append(seat.charged(lag, mine))

    trio.run(main, clock=clock)
    assert seen[0] < 0.02 and seen[1] < 0.02
    assert 4.99 < seen[2] <= 5.0
