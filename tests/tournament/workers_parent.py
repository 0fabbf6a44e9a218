"""A tournament's process for the worker tests: it plays games in two worker processes, prints
the workers' pids once a game has finished, and waits to be killed."""

from __future__ import annotations

import trio

from spellstack.cards import load_cards, load_deck
from spellstack.tournament import GameSpec, keyed_seed
from spellstack.tournament._workers import Processes, WorkerEntrant

KEY = b"7" * 16
"""The tests' key."""


async def main() -> None:
    """Play games until killed; print the worker pids after the first row."""
    cards = load_cards()
    entrants = [WorkerEntrant("gruul", "random", load_deck("gruul", cards)),
                WorkerEntrant("dimir", "random", load_deck("dimir", cards))]
    executor = Processes(entrants, jobs=2, concurrency=2)
    first = trio.Event()

    async def one(k: int) -> None:
        game_id = f"r1-m{k}-g1"
        await executor.play(GameSpec(game_id, 1, k, 1, keyed_seed(KEY, game_id), (0, 1),
                                     (keyed_seed(KEY, game_id, 0), keyed_seed(KEY, game_id, 1)), None))
        first.set()

    async with trio.open_nursery() as nursery:
        for k in range(1, 41):
            nursery.start_soon(one, k)
        await first.wait()
        print(" ".join(str(pid) for pid in executor.pids()), flush=True)
        await trio.sleep_forever()


if __name__ == "__main__":
    trio.run(main)
