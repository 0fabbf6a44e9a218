"""A game clock per seat (``SeatConfig.clock``): BASE seconds for the whole game, INC more
after each answer, counted as the deadline counts a decision's time. A seat that runs out loses
on time, not by forfeit; each request shows the seat its time left; the trace records the loss
as the coordinator saw it, and a replay reproduces it.

Time is the event loop's (``autojump_clock``): a bot that thinks awaits ``trio.sleep`` (its own
time, waiting), or jumps the clock inside its ``decide`` (holding the loop)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio
import trio.testing

from spellstack.actors import GameClock, GameResult, SeatConfig, parse_clock, play_one_game
from spellstack.bots import RandomBot
from spellstack.rules import ClockState, Decision, PlayerView, Reply
from spellstack.trace import check_replay, read_trace, replay_trace

NAMES = ["alice", "bob"]
DECKS = ["gruul", "orzhov"]
DEADLINE = 1.0
"""Each decision's deadline: every think below is well within it."""


class Pondering(RandomBot):
    """Plays at random, taking ``think`` seconds of its own time over each decision (waiting:
    an ``async decide`` that sleeps), and notes the clock each request showed it."""

    def __init__(self, seed: int, think: float) -> None:
        super().__init__(seed)
        self.think = think
        self.seen: list[tuple[str, ClockState | None]] = []

    async def decide(self, view: PlayerView, decision: Decision) -> Reply:  # type: ignore[override]
        self.seen.append((decision.kind, view.clock))
        await trio.sleep(self.think)
        return super().decide(view, decision)


class Hogging(RandomBot):
    """Plays at random, holding the event loop ``hold`` seconds over each decision (the mock
    clock jumps while its synchronous ``decide`` runs, as if it computed that long)."""

    def __init__(self, seed: int, hold: float, clock: trio.testing.MockClock) -> None:
        super().__init__(seed)
        self.hold = hold
        self.clock = clock

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.clock.jump(self.hold)
        return super().decide(view, decision)


async def _play(alice: RandomBot, clock: GameClock | None, trace: Path | None = None,
                seed: int = 4) -> GameResult:
    configs = [SeatConfig(timeout=DEADLINE, clock=clock)] * 2
    _, result = await play_one_game(DECKS, [alice, RandomBot(9)], seed, names=NAMES, configs=configs,
                                    trace_path=trace)
    return result


async def test_a_bot_that_uses_up_its_clock_loses_on_time(autojump_clock: trio.testing.MockClock) -> None:
    alice = Pondering(1, think=0.3)
    result = await _play(alice, GameClock(2.0, 0.0))
    # Seven decisions at 0.3 s each, every one within the 1 s deadline: 2 s runs out in the 7th.
    assert [clock.left for _, clock in alice.seen if clock is not None] == [2.0, 1.7, 1.4, 1.1, 0.8, 0.5, 0.2]
    assert result.winner == "bob"
    assert result.reason == "bob wins: alice lost on time (clock 2+0)"
    assert result.forfeits == []
    assert result.clock_left == (0.0, 2.0)  # bob answers at once: nothing off his


async def test_the_same_bot_without_a_clock_plays_its_game_out(autojump_clock: trio.testing.MockClock) -> None:
    alice = Pondering(1, think=0.3)
    result = await _play(alice, None)
    assert "lost on time" not in result.reason and result.forfeits == []
    assert len(alice.seen) > 7 and all(clock is None for _, clock in alice.seen)
    assert result.clock_left == ()


async def test_a_bot_reads_its_time_left_fall_and_gain_the_increment(
        autojump_clock: trio.testing.MockClock) -> None:
    alice = Pondering(1, think=0.3)
    # 0.3 s per decision, 0.2 s back after each: 0.1 s less at each request, until it runs out.
    result = await _play(alice, parse_clock("1.05+0.2"), seed=5)
    readings = [clock for _, clock in alice.seen]
    assert all(c is not None and c.increment == 0.2 for c in readings)
    assert [c.left for c in readings if c is not None] == [1.05, 0.95, 0.85, 0.75, 0.65, 0.55, 0.45, 0.35, 0.25]
    assert result.reason == "bob wins: alice lost on time (clock 1.05+0.2)"
    assert result.clock_left[0] == 0.0


async def test_requests_of_both_kinds_show_the_clock(tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    trace = tmp_path / "t.jsonl"
    result = await _play(Pondering(1, think=0.01), GameClock(60, 0.5), trace)
    records = [json.loads(line) for line in trace.read_text("utf-8").splitlines()]
    shown = {r["kind"] for r in records[1:-1] if r.get("payload", {}).get("clock") is not None}
    assert shown == {"PriorityRequest", "DecisionRequest"}
    assert [s["clock"] for s in records[0]["seats"]] == [{"base": 60, "increment": 0.5}] * 2
    assert records[-1]["clock_left"] == list(result.clock_left)
    assert read_trace(trace).result.clock_left == result.clock_left  # type: ignore[union-attr]


async def test_a_loss_on_time_is_traced_and_replayed(tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    trace = tmp_path / "t.jsonl"
    result = await _play(Pondering(1, think=0.3), GameClock(2.0, 0.1), trace)
    assert result.reason == "bob wins: alice lost on time (clock 2+0.1)"
    read = read_trace(trace)
    assert read.result is not None and read.result.reason == result.reason
    assert read.header.seats[0].clock == GameClock(2.0, 0.1)
    lost = [m.payload["text"] for m in read.messages if m.kind == "GameEvent" and m.payload["kind"] == "lose"]
    assert lost == ["alice loses the game: lost on time (clock 2+0.1)"]
    _, replayed = await replay_trace(read)
    assert (replayed.reason, replayed.final_hash, replayed.clock_left) == (
        result.reason, result.final_hash, result.clock_left)
    check = await check_replay(read)
    assert check.identical, check.divergence


async def test_a_reply_held_past_the_time_left_loses_on_time_and_replays(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    trace = tmp_path / "t.jsonl"
    result = await _play(Hogging(1, 0.3, autojump_clock), GameClock(2.0, 0.0), trace)
    # Its 7th answer arrives after 0.3 s of its own holding, with 0.2 s left: too late.
    assert result.reason == "bob wins: alice lost on time (clock 2+0)" and result.forfeits == []
    read = read_trace(trace)
    last_answer = max(m.seq for m in read.messages if m.sender == "player:alice")
    lost = [m.seq for m in read.messages if m.kind == "GameEvent" and m.payload["kind"] == "lose"]
    assert lost and last_answer < lost[0]  # the reply is traced, then the loss
    check = await check_replay(read)
    assert check.identical, check.divergence


async def test_each_game_of_seeded_clocked_play_replays_line_for_line(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    # Times that round to whole milliseconds and a seat that thinks an odd amount each time.
    for seed, think in ((6, 0.0123), (7, 0.0456789)):
        trace = tmp_path / f"{seed}.jsonl"
        result = await _play(Pondering(seed, think=think), GameClock(0.5, 0.0107), trace, seed=seed)
        check = await check_replay(read_trace(trace))
        assert check.identical, (seed, check.divergence)
        assert result.clock_left == read_trace(trace).result.clock_left  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "problem"), [
    ("0", "clock '0': BASE must be more than 0 seconds, got 0"),
    ("-5+1", "clock '-5+1': BASE must be more than 0 seconds, got -5"),
    ("60+-0.5", "clock '60+-0.5': INC must be 0 or more seconds, got -0.5"),
    ("sixty", "clock 'sixty': expected BASE+INC in seconds (60+0.5; 60 for 60+0)"),
    ("", "clock '': expected BASE+INC in seconds (60+0.5; 60 for 60+0)"),
    ("60+", "clock '60+': expected BASE+INC in seconds (60+0.5; 60 for 60+0)"),
    ("nan", "clock 'nan': BASE must be a finite number of seconds, got nan"),
    ("60+inf", "clock '60+inf': INC must be a finite number of seconds, got inf"),
    ("0.0001", "clock '0.0001': BASE must be at least 0.001 seconds (a clock counts milliseconds), got 0.0001"),
])
def test_parse_clock_refuses_bad_input_in_one_line(text: str, problem: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_clock(text)
    assert str(caught.value) == problem


def test_parse_clock_reads_base_and_increment() -> None:
    assert parse_clock("60+0.5") == GameClock(60.0, 0.5)
    assert parse_clock("60") == GameClock(60.0, 0.0)
    assert str(parse_clock("60")) == "60+0" and str(GameClock(90, 1.25)) == "90+1.25"
    assert GameClock(60, 0.5).loss == "lost on time (clock 60+0.5)"
    with pytest.raises(ValueError, match="invalid game clock: INC must be 0 or more"):
        GameClock(60, -1)
    with pytest.raises(ValueError, match="invalid clock: not a GameClock"):
        SeatConfig(clock="60+0")  # type: ignore[arg-type]
