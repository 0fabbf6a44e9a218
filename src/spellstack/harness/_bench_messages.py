"""``spellstack bench --messages``: what the design's messages cost by themselves.

Each bench game is played once through the actors with every message copied aside (as the
tracer receives them); then its messages are sent again, in the same order, between the same
actors over the same kind of links (``Link``: encoded, numbered, sent over a trio memory
channel, received and decoded, validated wherever a player sends), by tasks that do
nothing else: no rules, no views, no bots. The time this replay takes per bot decision is the
part of a decision's cost that the message cycle of ``../shared/spec/design.md`` accounts for
on this workload, measured in the same run as the floor and the full games.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import trio

from ..actors import GameResult, Link, TraceRecord, Wire, play_game
from ..protocol import Message, decode_trusted
from ._bench_kernel import bench_bots, new_bench_game
from ._bench_modes import Outcome, Progress, describe, play_actor_games

__all__ = ["RecordedGame", "Replay", "bench_messages", "record_game", "replay_messages"]


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """One bench game and the messages that crossed its channels, in order."""

    result: GameResult
    """How the game went."""
    records: tuple[TraceRecord, ...]
    """Its messages as the tracer would receive them, trace-only coordinator events left out
    (an untraced game sends them nowhere)."""


async def record_game(seed: int) -> RecordedGame:
    """Play the bench's game of ``seed`` through the actors, keeping a copy of every message."""
    send, receive = trio.open_memory_channel[TraceRecord](math.inf)
    result = await play_game(new_bench_game(seed), bench_bots(seed), trace=send)
    send.close()
    records = []
    async with receive:
        async for rec in receive:
            if rec.receiver != "tracer":
                records.append(rec)
    return RecordedGame(result, tuple(records))


class Replay:
    """A game's messages made ready to be sent again: the links, each message decoded, and
    each actor's part (made before timing starts: a game has all of this already)."""

    def __init__(self, records: Sequence[TraceRecord], *, check: bool = False) -> None:
        """``check``: compare each message received with the one recorded (AssertionError if
        one differs); off when timing."""
        self.records = records
        self.check = check
        self.wire = Wire("replay", None)
        ends: dict[tuple[str, str], Link] = {}
        for rec in records:
            if (rec.sender, rec.receiver) not in ends:
                a, b = Link.pair(self.wire, rec.sender, rec.receiver)
                ends[(rec.sender, rec.receiver)], ends[(rec.receiver, rec.sender)] = a, b
        self.messages: list[Message] = [decode_trusted(rec.data) for rec in records]
        # Each actor's part, in the game's order: (sending, its end of the link, message number).
        self.parts: dict[str, list[tuple[bool, Link, int]]] = {}
        for k, rec in enumerate(records):
            self.parts.setdefault(rec.sender, []).append(
                (True, ends[(rec.sender, rec.receiver)], k))
            self.parts.setdefault(rec.receiver, []).append(
                (False, ends[(rec.receiver, rec.sender)], k))

    async def run(self) -> int:
        """Send the messages, one task per actor; returns the number sent. Once only."""
        async with trio.open_nursery() as nursery:
            for steps in self.parts.values():
                nursery.start_soon(self._actor, steps)
        return self.wire.sent

    async def _actor(self, steps: list[tuple[bool, Link, int]]) -> None:
        messages = self.messages
        for sending, link, k in steps:
            if sending:
                await link.send(messages[k])
            else:
                got = await link.receive()
                if self.check and got != messages[k]:
                    raise AssertionError(f"message {k} ({self.records[k].kind}) came back as "
                                         f"{got!r}")


async def replay_messages(records: Sequence[TraceRecord], *, check: bool = False) -> int:
    """Send ``records``' messages again, in order, between tasks standing for their actors,
    over ``Link`` pairs made as a game makes them; returns the number of messages sent.

    Every message is encoded again from its decoded form on the sending side and decoded on
    the receiving side, as in a game. ``check``: as for ``Replay``.
    """
    return await Replay(records, check=check).run()


async def _measure(seeds: Sequence[int], progress: bool) -> tuple[list[RecordedGame], float,
                                                                  list[Outcome], float]:
    recorded = []
    ticks = Progress(len(seeds), progress, "recording games")
    for s in seeds:
        recorded.append(await record_game(s))
        ticks.tick()
    replays = [Replay(game.records) for game in recorded]
    ticks = Progress(len(seeds), progress, "replaying games")
    start = time.perf_counter()
    for replay in replays:
        await replay.run()
        ticks.tick()
    replayed = time.perf_counter() - start
    start = time.perf_counter()
    outcomes = await play_actor_games(seeds, Progress(len(seeds), progress, "playing games"))
    full = time.perf_counter() - start
    return recorded, replayed, outcomes, full


def bench_messages(seeds: Sequence[int], floor: Callable[[], Awaitable[float]], out: list[str],
                   progress: bool = True) -> None:
    """``--messages``: the bench's games' messages replayed alone, against the full games and
    the floor (``floor()``: round trips per second), all measured in this run."""
    recorded, replayed, outcomes, full = trio.run(_measure, seeds, progress)
    floor_us = 1e6 / trio.run(floor)
    if [Outcome.of(s, g.result).game() for s, g in zip(seeds, recorded, strict=True)] != [
            o.game() for o in outcomes]:
        raise AssertionError("the recorded games differ from the same seeds played untraced")
    decisions = sum(o.decisions for o in outcomes)
    count = sum(len(g.records) for g in recorded)
    per_decision = 1e6 * replayed / decisions
    full_per_decision = 1e6 * full / decisions
    out.append(f"messages: {describe(seeds)}: {count} messages ({count / decisions:.1f} per bot "
               f"decision, {decisions} decisions), sent again in order over the actors' links "
               f"(encode, channel, decode, validation where a player sends; no rules, "
               f"views or bots) in {replayed:.2f} s")
    out.append(f"floor: {floor_us:.1f} us per msgpack round trip over a trio memory channel")
    out.append(f"message cycle alone: {per_decision:.1f} us per decision = "
               f"{per_decision / floor_us:.1f}x the floor ({1e6 * replayed / count:.1f} us per "
               f"message)")
    out.append(f"full games: {full_per_decision:.1f} us per decision = "
               f"{full_per_decision / floor_us:.1f}x the floor; the messages are "
               f"{100 * per_decision / full_per_decision:.0f}% of it")
    left = 10 * floor_us - per_decision
    budget = f"{left:.1f} us per decision" if left > 0 else "nothing: the messages alone exceed it"
    out.append(f"left for the rules, views, bots and actors' own work within the 10x target: "
               f"{budget} (they take {full_per_decision - per_decision:.1f} us now)")
