"""The bench's default games stay the same games: for seeds 0..49 (gruul vs orzhov, the
bench's two seeded random bots) the winner, end reason, turns, decisions answered, automatic
passes and final state hash match a table recorded on 391b4ea, before the performance work
of issue 7. A change that makes the engine faster must not make it play differently.

Regenerate (only for a deliberate rules change, saying why in the commit):
``python tests/cli/test_bench_games.py > tests/cli/bench_games.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack.actors import play_one_game
from spellstack.bots import RandomBot
from spellstack.harness import BENCH_DECKS as DECKS

TABLE = Path(__file__).with_name("bench_games.json")
SEEDS = range(50)


async def record(seed: int) -> dict[str, Any]:
    """One bench game, as the table records it."""
    _, result = await play_one_game(DECKS, [RandomBot(2 * seed + 1), RandomBot(2 * seed + 2)],
                                 seed, names=list(DECKS))
    return {"seed": seed, "winner": result.winner, "reason": result.reason,
            "turns": result.turns, "decisions": result.decisions,
            "auto_passes": result.auto_passes, "final_hash": result.final_hash}


def _table() -> dict[int, dict[str, Any]]:
    return {row["seed"]: row for row in json.loads(TABLE.read_text(encoding="utf-8"))}


def test_table_covers_fifty_seeds() -> None:
    assert sorted(_table()) == list(SEEDS)


@pytest.mark.parametrize("seed", list(SEEDS))
async def test_bench_game_unchanged(seed: int) -> None:
    assert await record(seed) == _table()[seed]


async def _main() -> None:
    rows = [await record(s) for s in SEEDS]
    json.dump(rows, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    trio.run(_main)
