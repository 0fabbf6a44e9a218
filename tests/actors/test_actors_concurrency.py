"""Many games as sibling nurseries in one process give the same results as one at a time:
nothing depends on how trio interleaves them."""

from __future__ import annotations

import pytest
import trio

from spellstack.actors import GameResult, play_one_game
from spellstack.bots import RandomBot

SEEDS = range(40, 46)
DECKS = [("gruul", "orzhov"), ("dimir", "gruul"), ("orzhov", "dimir")]


async def _one(seed: int) -> GameResult:
    decks = DECKS[seed % len(DECKS)]
    _, result = await play_one_game(decks, [RandomBot(2 * seed), RandomBot(2 * seed + 1)], seed)
    return result


def _key(r: GameResult) -> tuple[object, ...]:
    return (r.winner, r.reason, r.turns, r.decisions, r.auto_passes, r.messages, r.final_hash)


@pytest.mark.slow
async def test_concurrent_games_match_sequential_games() -> None:
    alone = {seed: _key(await _one(seed)) for seed in SEEDS}
    together: dict[int, tuple[object, ...]] = {}

    async def run(seed: int) -> None:
        together[seed] = _key(await _one(seed))

    async with trio.open_nursery() as nursery:
        for seed in reversed(SEEDS):  # started in the other order on purpose
            nursery.start_soon(run, seed)
    assert together == alone
    assert len({k[-1] for k in alone.values()}) == len(SEEDS)  # different seeds, different games
