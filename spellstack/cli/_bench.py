"""``spellstack bench``: games, decisions and messages per second on one core, against the
floor of one msgpack round trip over a trio memory channel measured in the same run."""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import msgpack  # type: ignore[import-untyped]
import trio

from ..actors import ENGINE_ERROR, play_match
from ..bots import RandomBot
from ._errors import CommandError

__all__ = ["add_parser", "measure_floor"]

DECKS = ("gruul", "orzhov")


async def measure_floor(seconds: float = 1.0) -> float:
    """msgpack round trips per second over a pair of trio memory channels: encode, send,
    receive, decode, and back."""
    to_echo, echo_in = trio.open_memory_channel[bytes](1)
    to_main, main_in = trio.open_memory_channel[bytes](1)
    payload = {"k": "Accepted", "v": 1, "b": {"decision_id": 1}}

    async def echo() -> None:
        async for data in echo_in:
            await to_main.send(msgpack.packb(msgpack.unpackb(data)))

    count = 0
    async with trio.open_nursery() as nursery:
        nursery.start_soon(echo)
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            for _ in range(200):
                await to_echo.send(msgpack.packb(payload))
                msgpack.unpackb(await main_in.receive())
            count += 200
        nursery.cancel_scope.cancel()
    return count / seconds


async def bench(games: int, seed: int, out: list[str]) -> None:
    decisions = autos = messages = turns = 0
    wins: dict[str, int] = {}
    start = time.perf_counter()
    step = max(1, games // 10)
    for i in range(games):
        s = seed + i
        _, result = await play_match(DECKS, [RandomBot(2 * s + 1), RandomBot(2 * s + 2)], s,
                                     names=list(DECKS))
        decisions += result.decisions
        autos += result.auto_passes
        messages += result.messages
        turns += result.turns
        # A game stopped by an engine error is no draw: it is counted apart.
        outcome = result.winner or ("engine error" if result.reason.startswith(ENGINE_ERROR)
                                    else "draw")
        wins[outcome] = wins.get(outcome, 0) + 1
        if (i + 1) % step == 0:
            print(f"  {i + 1}/{games} games", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    floor = await measure_floor()
    dps = decisions / elapsed
    out.append(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
               f"{platform.python_version()}, {platform.system()}")
    out.append(f"games: {games} ({' vs '.join(DECKS)}, seeds {seed}..{seed + games - 1}), "
               f"{elapsed:.2f} s, results {dict(sorted(wins.items()))}")
    out.append(f"games/s: {games / elapsed:.2f}   average turns: {turns / games:.1f}")
    out.append(f"decisions/s: {dps:.0f} (answered by bots: {decisions}; automatic passes, "
               f"not counted: {autos})")
    out.append(f"messages/s: {messages / elapsed:.0f}   messages per decision: "
               f"{messages / max(decisions, 1):.1f}")
    out.append(f"floor: {floor:.0f} msgpack round trips/s over a trio memory channel "
               f"({1e6 / floor:.1f} us each)")
    out.append(f"per-decision cost: {1e6 / dps:.1f} us = {floor / dps:.1f}x the floor round "
               "trip (design target: <= 3x, >= 15,000 decisions/s)")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bench", help="measure games/s and decisions/s on one core")
    p.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, got {args.games}")
    out: list[str] = []
    trio.run(bench, args.games, args.seed, out)
    print("\n".join(out))
    return 0
