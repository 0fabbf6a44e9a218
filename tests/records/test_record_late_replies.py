"""A reply that comes after its seat has left the game: the coordinator declared the seat out
(no answer within its deadline, or its game clock ran out) while the reply was on its way. The
coordinator reads nothing more of a seat that left, so the game's wire numbers what it still
sends after the game's last message, wherever it came (``Wire.leave``): the trace and the record
are the same whenever it came, and both replay line for line, the reply sent again as the game
ends. A reply sent just as the deadline woke the coordinator, before it ran on, is on the wire
already: it is read, and too late.

Every game plays on a mock clock, as ``spellstack replay`` does: a second of the seats' time
costs nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack.actors import GameClock
from spellstack.cli import main
from spellstack.trace import check_record, read_record
from tests.records.record_games import LateReply, Played, play_late, play_on_clock, replies_as_the_deadline_fires

CLOCK = GameClock(2.0, 0.0)
"""Ann's game clock in the games she loses on time, at her 7th request (0.2 s left after six
answers of 0.3 s, 0.5 s after six of 0.25 s)."""


def _lines(trace: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in trace.read_text("utf-8").splitlines()]


def _replays_line_for_line(played: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The trace replays line for line, and the record replays to the trace, byte for byte."""
    code = main(["replay", str(played.trace)])
    text = capsys.readouterr()
    assert code == 0, text
    again = tmp_path / "again.jsonl"
    check = trio.run(lambda: check_record(read_record(played.record), trace_path=again))
    assert check.identical, check.problems
    assert again.read_bytes() == played.trace.read_bytes()


def _left(lines: list[dict[str, Any]], reason: str) -> int:
    """The index of ann's loss among ``lines`` (its ``lose`` event, whose text is ``reason``)."""
    return next(i for i, r in enumerate(lines) if r.get("kind") == "GameEvent"
                and r["payload"]["kind"] == "lose" and r["payload"]["text"] == reason)


@pytest.mark.parametrize(("seats", "clock", "concedes", "reason"), [
    (2, None, False, "forfeited: no answer within 1 s"),
    (3, None, False, "forfeited: no answer within 1 s"),
    (3, CLOCK, False, "lost on time (clock 2+0)"),
    (3, None, True, "conceded (104.3a)"),
], ids=["deadline-2-players", "deadline-3-players", "on-time-3-players", "conceded-3-players"])
def test_a_reply_after_its_seat_left_is_traced_after_the_game_and_replays_line_for_line(
        seats: int, clock: GameClock | None, concedes: bool, reason: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    # Two seats: the game is over as ann leaves, and her reply comes once ben is told so.
    # Three: the game goes on, and her reply comes 1.45 s after her request, as ben and cid
    # play on (0.3 s an answer), well before the game's end.
    late = LateReply(7, None if seats == 2 else 1.45, concedes)
    played = play_late(tmp_path, late, seats, clock=clock)
    _replays_line_for_line(played, tmp_path, capsys)
    lines = _lines(played.trace)
    gone = _left(lines, f"ann loses the game: {reason}")
    over = next(i for i, r in enumerate(lines) if r.get("kind") == "GameOver")
    assert late.sent_at >= 0
    if seats == 3:  # sent mid-game: others' messages were numbered after it
        assert lines[gone]["seq"] < late.sent_at < lines[over]["seq"]
        assert any(r.get("sender") == "player:ben" for r in lines[gone:over])
    # Wherever it came, it is the game's last message, after the seats still in the game
    # were told it is over.
    assert lines[-2]["sender"] == "player:ann" and lines[-2]["kind"] in ("SubmitAction", "SubmitAnswer")
    assert lines[-3]["kind"] == "GameOver"
    assert all(r.get("sender") != "player:ann" for r in lines[gone:-2])
    raw = json.loads(played.record.read_bytes())
    assert raw["messages"][-1][0] == 0 and raw["messages"][-1][4] == "after loss"


@pytest.mark.parametrize(("clock", "reason"), [
    (None, "forfeited: answered after 1.00 s, over its 1 s deadline"),
    (CLOCK, "lost on time (clock 2+0)"),
], ids=["deadline", "on-time"])
def test_a_reply_sent_as_the_deadline_woke_the_coordinator_is_read_too_late_and_replays(
        clock: GameClock | None, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = play_on_clock(tmp_path, replies_as_the_deadline_fires(7), clock)
    _replays_line_for_line(played, tmp_path, capsys)
    lines = _lines(played.trace)
    gone = _left(lines, f"ann loses the game: {reason}")
    # Her reply is on the wire before her loss: the coordinator read it, too late.
    ann = [i for i, r in enumerate(lines) if r.get("sender") == "player:ann"]
    assert ann[-1] < gone and lines[ann[-1]]["kind"] in ("SubmitAction", "SubmitAnswer")
    assert lines[-1]["reason"] == f"ben wins: ann {reason}"
