"""Ten games in one trio nursery, one of them with a hostile bot: the other nine are untouched.

Issue 5: one crafted action (a cast targeting player ref 3 in a two-player game) used to kill
the coordinator, and with it every game in the same nursery. Here the hostile game's bot sends
every kind of hostile action and answer the policy API allows (``harness.HOSTILE_KINDS``: player
refs of absent seats, ids from every zone and of objects that no longer exist, boundary and
out-of-range ints, values of the wrong type, stale decision ids, actions out of turn, answers
of the wrong shape), interleaved with legal play so that it keeps its seat. The nine honest
games must end exactly as they do when each runs alone, and the hostile game must end too.
Time is virtual (``autojump_clock``): no real time limit is waited out.
"""

from __future__ import annotations

from typing import Any

import pytest
import trio

from spellstack.actors import GameResult, SeatConfig, play_game
from spellstack.bots import RandomBot
from spellstack.harness import HOSTILE_KINDS, RAW_KINDS, FuzzReport, HostileBot, fuzz_game
from spellstack.rules import Game
from spellstack.testing import deck_game

DECKS = ("gruul", "orzhov", "dimir")
GAMES = 10
HOSTILE_GAME = 4


def _policies(i: int, game: Game) -> list[Any]:
    if i == HOSTILE_GAME:
        return [HostileBot(1, game=game), RandomBot(2 * i + 2)]
    return [RandomBot(2 * i + 1), RandomBot(2 * i + 2)]


def _summary(result: GameResult) -> tuple[str | None, str, int, str]:
    return result.winner, result.reason, result.turns, result.final_hash


@pytest.mark.slow
async def test_a_hostile_game_leaves_its_nine_siblings_untouched(
        autojump_clock: trio.abc.Clock) -> None:
    alone: dict[int, tuple[str | None, str, int, str]] = {}
    for i in range(GAMES):
        if i != HOSTILE_GAME:
            game = deck_game(DECKS[i % 3], DECKS[(i + 1) % 3], seed=100 + i)
            alone[i] = _summary(await play_game(game, _policies(i, game)))

    together: dict[int, GameResult] = {}
    bots: dict[int, list[Any]] = {}

    async def one(i: int) -> None:
        game = deck_game(DECKS[i % 3], DECKS[(i + 1) % 3], seed=100 + i)
        bots[i] = _policies(i, game)
        configs = [SeatConfig(auto_pass=False), SeatConfig()] if i == HOSTILE_GAME else None
        together[i] = await play_game(game, bots[i], configs=configs, game_id=f"g{i}")

    with trio.fail_after(3600):  # virtual time: a hang fails here instead of blocking CI
        async with trio.open_nursery() as nursery:
            for i in range(GAMES):
                nursery.start_soon(one, i)

    assert sorted(together) == list(range(GAMES))
    for i, expected in alone.items():
        assert _summary(together[i]) == expected, f"game {i}"
    assert len(set(alone.values())) == len(alone)  # nine different games, not one nine times

    hostile: HostileBot = bots[HOSTILE_GAME][0]
    result = together[HOSTILE_GAME]
    assert result.reason, "the hostile game has no end reason"
    assert 1 <= result.turns
    # It really was hostile, of every kind, for a whole game: not a quick forfeit.
    assert set(HOSTILE_KINDS) <= set(hostile.sent)
    bad = sum(n for kind, n in hostile.sent.items() if kind != "legal")
    assert bad >= 100, (hostile.sent, result)
    assert "engine error" not in result.reason
    assert [who for who, _ in result.forfeits] in ([], ["alice"])


@pytest.mark.slow
async def test_a_raw_hostile_seat_leaves_its_nine_siblings_untouched(
        autojump_clock: trio.abc.Clock) -> None:
    """The same with the fuzzer's raw seat (random bytes, truncations, envelopes, deep nesting,
    unsolicited messages and the rest of ``RAW_KINDS``) in the tenth game, checked by the
    fuzzer's own checks as it goes."""
    alone: dict[int, tuple[str | None, str, int, str]] = {}
    for i in range(GAMES - 1):
        game = deck_game(DECKS[i % 3], DECKS[(i + 1) % 3], seed=100 + i)
        alone[i] = _summary(await play_game(game, [RandomBot(2 * i + 1), RandomBot(2 * i + 2)]))

    together: dict[int, GameResult] = {}
    report = FuzzReport(seed=1)

    async def one(i: int) -> None:
        game = deck_game(DECKS[i % 3], DECKS[(i + 1) % 3], seed=100 + i)
        together[i] = await play_game(game, [RandomBot(2 * i + 1), RandomBot(2 * i + 2)],
                                      game_id=f"g{i}")

    with trio.fail_after(3600):
        async with trio.open_nursery() as nursery:
            for i in range(GAMES - 1):
                nursery.start_soon(one, i)
            nursery.start_soon(fuzz_game, report, 1)

    for i, expected in alone.items():
        assert _summary(together[i]) == expected, f"game {i}"
    assert report.games == 1
    assert report.failure_count == 0, report.failures
    assert set(RAW_KINDS) <= {k for k, c in report.kinds.items() if c.sent}
    reached = sum(c.take_action + c.check_answer for c in report.kinds.values())
    assert reached > report.messages / 2
