"""The coordinator's automatic passes, made many at a time by ``run_automatic``: each is still a
grant of priority recorded as a coordinator event (``test_actors_trace``: after its SBA check or
the check's recorded skip), and only for the seats the engine passes for. Traced, every record
is numbered; untraced, nothing builds the trace-only events, and the game is the same."""

from __future__ import annotations

import math
from collections.abc import Sequence

import trio

from spellstack.actors import SeatConfig, TraceRecord, play_game
from spellstack.actors._run import _Containment, _play_game
from spellstack.harness import bench_bots, new_bench_game
from spellstack.protocol import GameEvent, PriorityRequest, decode_trusted


async def _traced(seed: int, configs: Sequence[SeatConfig] | None = None) -> list[TraceRecord]:
    send, receive = trio.open_memory_channel[TraceRecord](math.inf)
    await play_game(new_bench_game(seed), bench_bots(seed), configs=configs, trace=send)
    send.close()
    async with receive:
        return [rec async for rec in receive]


def _event(rec: TraceRecord) -> GameEvent | None:
    msg = rec.decoded() if rec.kind == "GameEvent" else None
    return msg if isinstance(msg, GameEvent) else None


async def test_a_traced_game_numbers_every_record_and_an_untraced_one_plays_the_same() -> None:
    for seed in (3, 8):
        send, receive = trio.open_memory_channel[TraceRecord](math.inf)
        traced = await play_game(new_bench_game(seed), bench_bots(seed), trace=send)
        send.close()
        async with receive:
            records = [rec async for rec in receive]
        result, coordinator = await _play_game(new_bench_game(seed), bench_bots(seed), None, None,
                                               "g1", _Containment())
        assert [r.seq for r in records] == list(range(1, len(records) + 1))
        events = [e for e in map(_event, records) if e is not None]
        assert result.auto_passes == sum(e.kind == "auto_pass" for e in events) > 100
        # Untraced, the events are neither built nor numbered (no seat is sent the sequence
        # number): the wire numbers only the messages, the same ones in the same order.
        assert coordinator.wire.seq == result.messages == len(records) - len(events)
        assert (traced.winner, traced.reason, traced.turns, traced.decisions, traced.auto_passes,
                traced.messages, traced.final_hash) == (
            result.winner, result.reason, result.turns, result.decisions, result.auto_passes,
            result.messages, result.final_hash)


async def test_a_seat_without_automatic_passes_is_asked_every_time() -> None:
    configs = [SeatConfig(auto_pass=False), SeatConfig()]
    records = await _traced(4, configs)
    events = [e for e in map(_event, records) if e is not None]
    passes = [e.player for e in events if e.kind == "auto_pass"]
    assert passes and set(passes) == {1}
    asked = [decode_trusted(r.data) for r in records
             if r.kind == "PriorityRequest" and r.receiver == "player:gruul"]
    # 117.1: gruul is asked at its grants where passing is all it can do too.
    only_pass = [m for m in asked if isinstance(m, PriorityRequest) and len(m.decision.actions) == 1]
    assert len(only_pass) > 10
