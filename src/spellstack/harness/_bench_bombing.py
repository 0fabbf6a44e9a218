"""``spellstack bench --bombing KIND``: honest games' throughput beside a game whose seat bombs
the coordinator, against the same games alone.

Each round plays one bombing game and nine honest ones (two seeded RandomBots each) in one
trio run, then the nine honest games alone. The bombing seat answers every other request with
a bomb (``BOMB_KINDS``, or any mutation kind of the fuzz's stream, ``RAW_KINDS``) and the next
with the legal reply, so it stays in its game and bombs all game long. The figure is the honest
games' decisions per second beside the bomber over their decisions per second alone.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import msgpack  # type: ignore[import-untyped]  # ships no type information
import trio

from ..actors import Client, GameResult, GameSetup, Link, SeatConfig, play_game
from ..bots import Bot, RandomBot
from ..protocol import PROTOCOL_VERSION, DecisionRequest, GameOver, PriorityRequest, encode
from ..rules import GameRandom
from ._hostile import NO_VIEW, RAW_KINDS, HostileStream, submission
from ._hostile_seat import decode_incoming

__all__ = ["BOMB_KINDS", "bench_bombing", "bomb_kinds"]

BOMB_KINDS: dict[str, str] = {
    "string": "a submission with a string of 1,000,000 characters in one field",
    "objects": "a submission whose targets are a list of 500,000 small ints (500 kB)",
    "maps": "a submission whose body holds 100,000 one-entry maps",
}
"""The bombs of this benchmark (besides the fuzz's mutation kinds)."""
HONEST = 9
"""Honest games per round."""


def bomb_kinds() -> tuple[str, ...]:
    """Every kind ``--bombing`` takes."""
    return (*BOMB_KINDS, *RAW_KINDS)


def _bomb(kind: str, legal: bytes) -> bytes:
    """A bomb of ``kind`` built around the legal submission ``legal``."""
    envelope: dict[str, Any] = msgpack.unpackb(legal, raw=False)
    body = envelope["b"]
    if kind == "string":
        body["bomb"] = "x" * 1_000_000
    elif kind == "objects":
        body["targets"] = [0] * 500_000
    else:
        body["extra"] = [{"a": 1} for _ in range(100_000)]
    envelope["v"] = PROTOCOL_VERSION
    data: bytes = msgpack.packb(envelope, use_bin_type=True)
    return data


def _bomber(kind: str, seed: int) -> Client:
    """A raw seat that sends a bomb for every other request and the legal reply otherwise. A
    bomb of this benchmark's own is built once, around the first legal reply (a real bomber
    pays for its bombs in its own process; here it would share the honest games' thread)."""
    stream = HostileStream(seed, rate=1.0, kinds=(kind,)) if kind in RAW_KINDS else None
    legal_bot = RandomBot(seed ^ 0xB0B)
    built: list[bytes] = []

    async def play(link: Link) -> None:
        bomb = True
        while True:
            msg = decode_incoming(await link.inbox.receive(), full=False)
            if isinstance(msg, GameOver):
                return
            if not isinstance(msg, PriorityRequest | DecisionRequest):
                continue
            if bomb and stream is not None:
                data = stream.next_message(msg, True).data
            else:
                data = encode(submission(msg, legal_bot.decide(NO_VIEW, msg.decision)))
                if bomb:
                    if not built:
                        built.append(_bomb(kind, data))
                    data = built[0]
            bomb = not bomb
            await link.out.send(data)

    return Client(play)


def _game(seed: int) -> Any:
    rng = GameRandom.from_seed(seed)
    decks = [rng.choice(("gruul", "orzhov", "dimir")) for _ in range(2)]
    return GameSetup(decks, seed, ("alice", "bob")).build()


async def _round(seeds: Sequence[int], kind: str | None) -> tuple[float, list[GameResult]]:
    """The honest games of ``seeds`` (beside a bomber of ``kind``, if given): seconds from the
    start to the last honest game's end, and their results."""
    results: dict[int, GameResult] = {}
    last = [0.0]

    async def honest(i: int, seed: int) -> None:
        results[i] = await play_game(_game(seed), [RandomBot(seed ^ 1), RandomBot(seed ^ 2)],
                                     configs=[SeatConfig(timeout=1.0)] * 2, game_id=f"h{i}")
        last[0] = time.perf_counter()

    async def bomber(seed: int) -> None:
        assert kind is not None
        seats: list[Bot | Client] = [_bomber(kind, seed), RandomBot(seed ^ 3)]
        await play_game(_game(seed), seats, game_id="bomber")

    start = time.perf_counter()
    async with trio.open_nursery() as nursery:
        if kind is not None:
            nursery.start_soon(bomber, seeds[0] ^ 0xB0B)
        for i, seed in enumerate(seeds):
            nursery.start_soon(honest, i, seed)
    return last[0] - start, [results[i] for i in range(len(seeds))]


def bench_bombing(seeds: Sequence[int], kind: str, out: list[str]) -> float:
    """``--bombing KIND``: rounds of one bombing game beside nine honest ones (``seeds``, nine
    at a time), each round's honest games also alone; reports and returns the honest games'
    throughput beside the bomber over their throughput alone."""
    beside = alone = 0.0
    decisions = forfeits = mismatches = 0
    rounds = max(1, len(seeds) // HONEST)
    for r in range(rounds):
        chunk = list(seeds[r * HONEST:(r + 1) * HONEST]) or list(seeds)
        # Alternate the order, so that neither run always has the warmer process.
        if r % 2:
            t_alone, solo = trio.run(_round, chunk, None)
            t_beside, with_bomber = trio.run(_round, chunk, kind)
        else:
            t_beside, with_bomber = trio.run(_round, chunk, kind)
            t_alone, solo = trio.run(_round, chunk, None)
        beside += t_beside
        alone += t_alone
        decisions += sum(g.decisions for g in solo)
        forfeits += sum(len(g.forfeits) for g in with_bomber)
        mismatches += sum((a.winner, a.reason, a.final_hash) != (b.winner, b.reason, b.final_hash)
                          for a, b in zip(solo, with_bomber, strict=True))
    ratio = alone / beside if beside else 0.0
    what = BOMB_KINDS.get(kind, f"the fuzz's {kind!r} mutation")
    out.append(f"bombing: {rounds} rounds of 1 bombing game ({what}, every other request) beside "
               f"{HONEST} honest games (1 s deadlines), and the honest games alone")
    out.append(f"honest decisions: {decisions}; {decisions / beside:.0f} decisions/s beside the "
               f"bomber, {decisions / alone:.0f} alone: {ratio:.2f}x (target: at least 0.80x)")
    out.append(f"honest forfeits beside the bomber: {forfeits}; games whose end differs from "
               f"alone: {mismatches}")
    return ratio
