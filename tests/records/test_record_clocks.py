"""A record of a game on game clocks (``--clock``) holds the clocks and what each answer cost
its seat's clock, so that its replay shows every request the time left it showed, ends the
game as it ended (a loss on time included), and writes its trace byte for byte, by the
record's times, not the replaying machine's. A record of a game without clocks is as it was.

The games on a clock play on a mock clock (``play_on_clock``), as ``spellstack replay`` does;
the ``play`` and tournament ones take real time, with small figures."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
import trio

from spellstack.actors import GameClock, encode_record
from spellstack.bots import RandomBot
from spellstack.cli import main
from spellstack.tournament import ResultsStore
from spellstack.trace import check_record, read_record
from tests.records.record_games import (
    HoldsTheLoop,
    Played,
    Thinks,
    answers_after_its_loss,
    play_cli,
    play_on_clock,
)

BEFORE_CLOCKS = Path(__file__).parent / "before_clocks.json"
"""A record written before records held clocks: ann (gruul) and ben (dimir), seed 11, random
bots seeded 3 and 4, ben choosing who plays first, a draw at the 6-turn limit."""


def _replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["replay", *args])
    captured = capsys.readouterr()
    return code, (captured.out + captured.err).splitlines()


def _same_trace(played: Played, out: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """Replaying the record to ``out`` writes the game's trace, byte for byte; the report."""
    code, lines = _replay(capsys, str(played.record), "--trace", str(out))
    assert code == 0, lines
    assert out.read_bytes() == played.trace.read_bytes()
    return lines


def _result(trace: Path) -> dict[str, object]:
    last: dict[str, object] = json.loads(trace.read_text("utf-8").splitlines()[-1])
    return last


def test_a_game_on_the_clock_replays_from_its_record_to_its_trace_byte_for_byte(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # An odd time per answer, and an increment: each request shows another time left.
    played = play_on_clock(tmp_path, [Thinks(1, 0.0123), RandomBot(9)], GameClock(60, 0.5), turn_limit=8)
    raw = json.loads(played.record.read_bytes())
    assert raw["clock"] == {"base": 60, "increment": 0.5}
    ann = [m for m in raw["messages"] if m[0] == 0]
    # Each answer took 12.3 ms of ann's own time: 12 ms came off her clock.
    assert ann and {m[4] for m in ann} == {12}
    assert raw["result"]["clock_left"] == _result(played.trace)["clock_left"]
    assert raw["result"]["clock_left"][0] == 60 + len(ann) * (0.5 - 0.012)
    _same_trace(played, tmp_path / "out.jsonl", capsys)


def test_play_records_a_game_on_the_clock_and_replay_writes_its_trace(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = play_cli(tmp_path, "--seed", "2", "--clock", "60+0.5")
    raw = json.loads(played.record.read_bytes())
    assert raw["clock"] == {"base": 60.0, "increment": 0.5}
    assert all(len(m) == 5 for m in raw["messages"])  # every answer taken, and each has its time
    lines = _same_trace(played, tmp_path / "out.jsonl", capsys)
    assert lines[-2] == f"final state hash {_result(played.trace)['final_hash']}"


@pytest.mark.parametrize(("ann", "late"), [
    # Silent once its time runs out (0.3 s a decision, 0.2 s left at its 7th).
    (lambda: Thinks(1, 0.3), None),
    # Its 7th reply holds the loop 0.3 s with 0.2 s left: too late, by a millisecond at least.
    (lambda: HoldsTheLoop(1, 0.3), 201),
], ids=["silent", "held"])
def test_a_game_lost_on_time_is_lost_again_from_its_record(
        ann: type[RandomBot], late: int | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = play_on_clock(tmp_path, [ann(), RandomBot(9)], GameClock(2.0, 0.0))
    raw = json.loads(played.record.read_bytes())
    reason = "ben wins: ann lost on time (clock 2+0)"
    assert raw["result"]["reason"] == reason and raw["result"]["clock_left"][0] == 0.0
    times = [m[4] for m in raw["messages"] if m[0] == 0]
    assert times == [300] * 6 + ([] if late is None else [late])
    lines = _same_trace(played, tmp_path / "out.jsonl", capsys)
    assert lines[:2] == [f"identical: {len(raw['messages'])} recorded messages replayed, the same result "
                         "and final state", f"result: {reason} (turn {raw['result']['turns']})"]


def test_a_reply_that_came_after_its_seat_lost_on_time_comes_again_as_the_game_ends(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = play_on_clock(tmp_path, answers_after_its_loss(7), GameClock(2.0, 0.0))
    raw = json.loads(played.record.read_bytes())
    assert raw["result"]["reason"] == "ben wins: ann lost on time (clock 2+0)"
    lines = played.trace.read_text("utf-8").splitlines()
    # Her reply is on the wire after ben's GameOver, the last line before the result.
    assert [json.loads(line)["kind"] for line in lines[-3:-1]] == ["GameOver", "SubmitAction"]
    assert raw["messages"][-1][0] == 0 and raw["messages"][-1][4] == "after loss"
    assert [m[4] for m in raw["messages"] if m[0] == 0][:-1] == [300] * 6
    _same_trace(played, tmp_path / "out.jsonl", capsys)
    code, text = _replay(capsys, str(played.trace))
    assert code == 0, text


def test_a_changed_time_is_a_difference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = play_on_clock(tmp_path, [Thinks(1, 0.0123), RandomBot(9)], GameClock(60, 0.5), turn_limit=8)
    raw = json.loads(played.record.read_bytes())
    ann, ben = raw["result"]["clock_left"]
    next(m for m in raw["messages"] if m[0] == 0)[4] = 112  # 0.1 s more off ann's clock
    edited = tmp_path / "edited.json"
    edited.write_bytes(json.dumps(raw).encode())
    code, lines = _replay(capsys, str(edited))
    assert code == 1
    assert lines[0] == (f"the replay differs from the record: time left at the end ann {ann - 0.1:.3f} s, "
                        f"ben {ben:.3f} s; recorded ann {ann:.3f} s, ben {ben:.3f} s")


def test_a_tournament_s_records_on_the_clock_replay_to_their_rows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records, traces, db = tmp_path / "records", tmp_path / "traces", tmp_path / "t.db"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["tournament", "--seed", "1", "--best-of", "1", "--clock", "0.02", "--db", str(db),
                     "--record-dir", str(records), "--trace-dir", str(traces), "--quiet"]) == 0
    [(_, rows)] = ResultsStore(db, read=True).every_game()
    assert rows and any("lost on time (clock 0.02+0)" in row.reason for row in rows)
    for row in rows:
        record = read_record(records / f"{row.game_id}.json")
        check = trio.run(lambda: check_record(record))  # noqa: B023  (run here, at once)
        assert check.identical, check.problems
        assert check.replayed is not None
        assert (check.replayed.reason, check.replayed.final_hash) == (row.reason, row.final_hash)
        assert check.replayed.clock_left == row.clock_left
        _same_trace(Played(traces / f"{row.game_id}.jsonl", records / f"{row.game_id}.json"),
                    tmp_path / "out.jsonl", capsys)


def test_a_record_written_before_records_held_clocks_still_replays(capsys: pytest.CaptureFixture[str]) -> None:
    record = read_record(BEFORE_CLOCKS)
    assert record.clocks == (None, None) and record.result.clock_left == ()
    assert all(m.clock_ms is None for m in record.messages)
    # A game without clocks is written as it was, byte for byte.
    assert encode_record(record) == BEFORE_CLOCKS.read_bytes()
    code, lines = _replay(capsys, str(BEFORE_CLOCKS))
    assert code == 0, lines
    assert lines == ["identical: 18 recorded messages replayed, the same result and final state",
                     "result: drawn: turn limit 6 reached (turn 6)",
                     "final state hash f0702c08a36caffa71f7ceed7d2121dc"]
