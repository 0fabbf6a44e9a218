"""Bad policies lose their own game by forfeit, and nothing else is affected.

design.md, Player: "Per-decision time limits; a policy that crashes, hangs or answers garbage
loses that game by forfeit with a reason, and nothing else is affected." And: "Many games run
as sibling nurseries in one process."

Each bad bot plays well (as a RandomBot) for a few decisions, then misbehaves, so it fails in
the middle of a real game. Time is virtual (``autojump_clock``): a hanging bot costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import trio

from spellstack.actors import GameResult, SeatConfig, play_one_game
from spellstack.bots import RandomBot
from spellstack.rules import Action, Answer, Decision, PlayerView, Reply

DECKS = ["gruul", "orzhov"]
NAMES = ["alice", "bob"]
TIMEOUT = 2.0
GOOD_AFTER = 5
"""Decisions a bad bot answers well before it goes bad."""


class Turncoat:
    """A RandomBot for ``after`` decisions, then ``misbehave``."""

    def __init__(self, seed: int, after: int, misbehave: Callable[[Decision], Any],
                 when: Callable[[Decision], bool] = lambda d: True) -> None:
        self.inner = RandomBot(seed)
        self.after = after
        self.misbehave = misbehave
        self.when = when
        """Which decisions it misbehaves on, once it has gone bad."""
        self.asked = 0
        self.went_bad_at: Decision | None = None

    async def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.asked += 1
        if self.asked > self.after and self.when(decision):
            if self.went_bad_at is None:
                self.went_bad_at = decision
            out = self.misbehave(decision)
            if isinstance(out, _Hang):
                await trio.sleep_forever()
            return out  # type: ignore[no-any-return]
        return self.inner.decide(view, decision)


class _Hang:
    pass


def _raise(decision: Decision) -> Any:
    raise RuntimeError(f"boom at decision {decision.id}")


def _raise_key_error(decision: Decision) -> Any:
    table: dict[str, int] = {}
    return table["missing"]


def _hang(decision: Decision) -> Any:
    return _Hang()


def _banana(decision: Decision) -> Any:
    return "banana"


def _wrong_reply_type(decision: Decision) -> Any:
    """An Answer for priority, an Action for anything else."""
    if decision.kind == "priority":
        return Answer(decision.id, (0,))
    return Action("pass")


def _none(decision: Decision) -> Any:
    return None


def _unencodable(decision: Decision) -> Any:
    if decision.kind == "priority":
        return Action("pass", object_id=object())  # type: ignore[arg-type]
    return Answer(decision.id, keys=(object(),))  # type: ignore[arg-type]


def _ill_typed(decision: Decision) -> Any:
    """Encodable, but the coordinator can't decode it: a string where an int belongs."""
    if decision.kind == "priority":
        return Action("pass", object_id="seven")  # type: ignore[arg-type]
    return Answer(decision.id, keys=("seven",))  # type: ignore[arg-type]


# (misbehaviour, words the forfeit reason must contain)
BAD: dict[str, tuple[Callable[[Decision], Any], tuple[str, ...]]] = {
    "raises": (_raise, ("raised", "RuntimeError", "boom")),
    "raises-key-error": (_raise_key_error, ("raised", "KeyError", "missing")),
    "hangs": (_hang, (f"no answer within {TIMEOUT:g} s",)),
    "banana": (_banana, ("banana", "not an")),
    "wrong-reply-type": (_wrong_reply_type, ("answered a", "not an")),
    "none": (_none, ("None", "not an")),
    "unencodable": (_unencodable, ("can't be encoded",)),
    "ill-typed": (_ill_typed, ("malformed messages in a row", "expected int", "'seven'")),
}


async def _bad_game(name: str, bad_seat: int, seed: int = 3,
                    when: Callable[[Decision], bool] = lambda d: True
                    ) -> tuple[Turncoat, GameResult]:
    misbehave, _ = BAD[name]
    bot = Turncoat(10 + bad_seat, GOOD_AFTER, misbehave, when)
    policies: list[Any] = [RandomBot(20), RandomBot(21)]
    policies[bad_seat] = bot
    configs = [SeatConfig(timeout=TIMEOUT)] * 2
    _, result = await play_one_game(DECKS, policies, seed, names=NAMES, configs=configs)
    return bot, result


def _assert_forfeited(name: str, bad_seat: int, bot: Turncoat, result: GameResult) -> None:
    _, words = BAD[name]
    loser, winner = NAMES[bad_seat], NAMES[1 - bad_seat]
    assert bot.went_bad_at is not None, "the game ended before the bot went bad"
    assert result.winner == winner
    assert len(result.forfeits) == 1
    who, reason = result.forfeits[0]
    assert who == loser
    for w in words:
        assert w in reason, (w, reason)
    assert result.reason.startswith(f"{winner} wins: {loser} forfeited: ")
    assert reason in result.reason


@pytest.mark.parametrize("bad_seat", [0, 1])
@pytest.mark.parametrize("name", list(BAD))
async def test_a_bad_policy_loses_its_game_by_forfeit(autojump_clock: trio.abc.Clock, name: str,
                                                      bad_seat: int) -> None:
    bot, result = await _bad_game(name, bad_seat)
    _assert_forfeited(name, bad_seat, bot, result)


@pytest.mark.parametrize("bad_seat", [0, 1])
@pytest.mark.parametrize("name", list(BAD))
async def test_a_policy_that_goes_bad_on_a_non_priority_decision_forfeits(
        autojump_clock: trio.abc.Clock, name: str, bad_seat: int) -> None:
    bot, result = await _bad_game(name, bad_seat, when=lambda d: d.kind != "priority")
    _assert_forfeited(name, bad_seat, bot, result)
    assert bot.went_bad_at is not None
    assert bot.went_bad_at.kind != "priority"


@pytest.mark.parametrize("name", list(BAD))
async def test_a_policy_that_goes_bad_in_the_middle_of_a_resolution_forfeits(
        autojump_clock: trio.abc.Clock, name: str) -> None:
    """Mind Rot makes alice discard while it resolves (608.2d): the question goes from the
    stack actor through the coordinator to her player actor. Her forfeit there must not wedge
    the stack actor, which is waiting for her answer."""
    # The first seed whose game gives alice a discard choice while Mind Rot resolves (found by
    # playing, so the test doesn't depend on how one particular seed happens to play out).
    for seed in range(60):
        bot, result = await _bad_game(name, 0, seed=seed,
                                      when=lambda d: d.prompt.startswith("701.8"))
        if bot.went_bad_at is not None:
            break
    _assert_forfeited(name, 0, bot, result)
    assert bot.went_bad_at is not None
    assert bot.went_bad_at.kind == "choose"


async def test_a_hanging_policy_forfeits_after_exactly_its_timeout(
        autojump_clock: trio.abc.Clock) -> None:
    start = trio.current_time()
    bot, result = await _bad_game("hangs", 0)
    _assert_forfeited("hangs", 0, bot, result)
    assert trio.current_time() - start == pytest.approx(TIMEOUT)


async def test_a_slow_policy_within_its_time_limit_does_not_forfeit(
        autojump_clock: trio.abc.Clock) -> None:
    class Slow:
        def __init__(self, seed: int) -> None:
            self.inner = RandomBot(seed)

        async def decide(self, view: PlayerView, decision: Decision) -> Reply:
            await trio.sleep(TIMEOUT * 0.9)
            return self.inner.decide(view, decision)

    configs = [SeatConfig(timeout=TIMEOUT)] * 2
    policies: list[Any] = [Slow(1), RandomBot(2)]
    _, slow = await play_one_game(DECKS, policies, 1, names=NAMES, configs=configs)
    _, fast = await play_one_game(DECKS, [RandomBot(1), RandomBot(2)], 1, names=NAMES)
    assert slow.forfeits == []
    assert slow.final_hash == fast.final_hash


async def _good_game() -> GameResult:
    _, result = await play_one_game(DECKS, [RandomBot(1), RandomBot(2)], 1, names=NAMES)
    return result


async def test_bad_games_run_beside_a_good_one_leave_it_untouched(
        autojump_clock: trio.abc.Clock) -> None:
    alone = await _good_game()
    assert alone.forfeits == []

    good: list[GameResult] = []
    bad: dict[str, tuple[Turncoat, GameResult]] = {}

    async def run_good() -> None:
        good.append(await _good_game())

    async def run_bad(name: str) -> None:
        bad[name] = await _bad_game(name, 0)

    async with trio.open_nursery() as nursery:
        for name in ("raises", "hangs", "banana", "wrong-reply-type"):
            nursery.start_soon(run_bad, name)
        nursery.start_soon(run_good)
        for name in ("unencodable", "ill-typed"):
            nursery.start_soon(run_bad, name)

    assert len(good) == 1
    beside = good[0]
    assert beside.forfeits == []
    assert beside.final_hash == alone.final_hash
    assert (beside.winner, beside.reason, beside.turns, beside.decisions, beside.auto_passes,
            beside.messages) == (alone.winner, alone.reason, alone.turns, alone.decisions,
                                 alone.auto_passes, alone.messages)
    assert set(bad) == {"raises", "hangs", "banana", "wrong-reply-type", "unencodable",
                        "ill-typed"}
    for name, (bot, result) in bad.items():
        _assert_forfeited(name, 0, bot, result)


async def test_the_same_bad_game_alone_and_in_a_crowd_ends_the_same(
        autojump_clock: trio.abc.Clock) -> None:
    """A forfeit is part of the game's own story: it does not depend on its neighbours."""
    alone = {name: (await _bad_game(name, 1))[1] for name in ("raises", "hangs", "banana")}
    crowd: dict[str, GameResult] = {}

    async def run(name: str) -> None:
        crowd[name] = (await _bad_game(name, 1))[1]

    async with trio.open_nursery() as nursery:
        for name in alone:
            nursery.start_soon(run, name)
        nursery.start_soon(_good_game)
    assert crowd == alone
