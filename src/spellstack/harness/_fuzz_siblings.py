"""The fuzz's policy games and its siblings mode.

A policy game (``policy_game``) seats a hostile policy (``_hostile_policies``) played by a real
player actor against a RandomBot: its seat must forfeit as the engine's rules say (at once,
with a bounded reason, for a bot's error; by its own time, for a blocking bot) and the game
must end normally, never as an engine error.

``--siblings N`` (``beside``) plays N honest games (two seeded RandomBots each) in the same
trio run as each hostile game, then the same N games alone: each must end exactly as alone
(winner, reason, final hash), no honest seat may forfeit, and their throughput beside the
hostile game is reported against their throughput alone.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

import trio

from ..actors import REASON_LIMIT, Coordinator, GameResult, GameSetup, SeatConfig, play_game
from ..bots import Bot, RandomBot
from ..rules import GameRandom
from ._fuzz_report import Failure, FuzzReport, PolicyCounts
from ._hostile_policies import BlockingBot, RaisingBot, expected_reason, policy_kind

__all__ = ["DEFAULT_BLOCK", "SIBLING_TIMEOUT", "beside", "policy_game"]

DEFAULT_BLOCK = 0.2
"""The longest a blocking policy blocks, in seconds (``--block``)."""
SIBLING_TIMEOUT = 1.0
"""The honest siblings' deadline, in seconds: a block of a hostile game beside them may be
longer than the time they need, never longer than the deadline by their own time."""
_DECKS = ("gruul", "orzhov", "dimir")
_NAMES = ("alice", "bob", "carol", "dave")


def _fail(report: FuzzReport, game_no: int, kind: str, what: str, siblings: int) -> None:
    report.failure_count += 1
    report.failures.append(Failure(report.seed, game_no, 0, 0, kind, what, b"", 0,
                                   report.players, siblings))


def _table(gseed: int, players: int) -> tuple[GameRandom, list[str]]:
    rng = GameRandom.from_seed(gseed)
    return rng, [rng.choice(_DECKS) for _ in range(players)]


async def policy_game(report: FuzzReport, game_no: int, gseed: int, *, block: float,
                      players: int = 2, coordinator: type[Coordinator] = Coordinator,
                      siblings: int = 0) -> None:
    """Play policy game ``game_no`` (its hostile policy is ``POLICY_KINDS`` in turn), adding
    its counts and failures to ``report``."""
    kind = policy_kind(game_no)
    _, decks = _table(gseed ^ 0x9011C7, players)
    seat = (game_no + 1) % players
    game = GameSetup(decks, gseed ^ 0x9011C7, _NAMES[:players]).build()
    hostile: RaisingBot | BlockingBot
    configs = [SeatConfig()] * players
    if kind == "block":
        hostile = BlockingBot(gseed ^ 0xB1, block)
        configs[seat] = SeatConfig(timeout=hostile.deadline)
    else:
        hostile = RaisingBot(kind, gseed ^ 0xB2)
    seats: list[Bot] = [hostile if i == seat else RandomBot((gseed ^ 0xB0B) + i)
                        for i in range(players)]
    result = await play_game(game, seats, configs=configs, game_id=f"p{game_no}",
                             coordinator=coordinator)
    counts = report.policies.setdefault(kind, PolicyCounts())
    counts.games += 1
    tag = f"policy:{kind}"
    if result.error is not None or result.reason.startswith("engine error"):
        _fail(report, game_no, tag, f"the game ended with an engine error: {result.reason[:200]}",
              siblings)
        return
    name = _NAMES[seat]
    mine = [why for who, why in result.forfeits if who == name]
    for who, why in result.forfeits:
        if who != name:
            _fail(report, game_no, tag, f"{who} (a legal bot) forfeited: {why[:200]}", siblings)
    due = hostile.big if isinstance(hostile, BlockingBot) else hostile.failed
    if isinstance(hostile, BlockingBot):
        counts.blocked += hostile.blocked
    if not due:
        if mine:
            _fail(report, game_no, tag, f"forfeit nothing called for: {mine!r}", siblings)
        return
    start = expected_reason(kind)
    if len(mine) != 1 or not mine[0].startswith(start) or len(mine[0]) > REASON_LIMIT:
        _fail(report, game_no, tag, f"the seat should have forfeited with a reason of at most "
              f"{REASON_LIMIT} characters starting {start!r}, but the forfeits are "
              f"{[m[:200] for m in mine]!r}", siblings)
        return
    counts.forfeits += 1


def _sibling_seed(gseed: int, j: int) -> int:
    return (gseed * 31 + 0x51B + j * 104_729) & ((1 << 64) - 1)


async def _honest(gseed: int, j: int, out: dict[int, GameResult], ends: dict[int, float]) -> None:
    """Honest sibling ``j`` of the hostile game of seed ``gseed``."""
    seed = _sibling_seed(gseed, j)
    _, decks = _table(seed, 2)
    game = GameSetup(decks, seed, _NAMES[:2]).build()
    out[j] = await play_game(game, [RandomBot(seed ^ 1), RandomBot(seed ^ 2)],
                             configs=[SeatConfig(timeout=SIBLING_TIMEOUT)] * 2, game_id=f"s{j}")
    ends[j] = time.perf_counter()


async def beside(report: FuzzReport, game_no: int, gseed: int, n: int,
                 hostile: Callable[[], Awaitable[None]]) -> None:
    """Play ``hostile`` (a hostile game) with ``n`` honest sibling games in one nursery, then
    the siblings alone; compare and time them (``report.siblings``)."""
    if n <= 0:
        await hostile()
        return
    together: dict[int, GameResult] = {}
    ends: dict[int, float] = {}
    start = time.perf_counter()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(hostile)
        for j in range(n):
            nursery.start_soon(_honest, gseed, j, together, ends)
    beside_s = max(ends.values()) - start
    alone: dict[int, GameResult] = {}
    ends = {}
    start = time.perf_counter()
    async with trio.open_nursery() as nursery:
        for j in range(n):
            nursery.start_soon(_honest, gseed, j, alone, ends)
    alone_s = max(ends.values()) - start
    counts = report.siblings
    counts.games += n
    counts.beside += beside_s
    counts.alone += alone_s
    for j in range(n):
        a, b = alone[j], together[j]
        counts.decisions += a.decisions
        for who, why in b.forfeits:
            _fail(report, game_no, "sibling", f"honest sibling {j}: {who} forfeited: {why[:200]}",
                  n)
        if (a.winner, a.reason, a.final_hash) != (b.winner, b.reason, b.final_hash):
            _fail(report, game_no, "sibling", f"honest sibling {j} ended {b.winner!r}, "
                  f"{b.reason[:100]!r}, {b.final_hash[:12]} beside the hostile game, but "
                  f"{a.winner!r}, {a.reason[:100]!r}, {a.final_hash[:12]} alone", n)
