"""A file that is not a record, or a record this version can't replay, is refused in one line
naming the file and what is wrong, with exit status 2, before anything is played."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack import RandomBot, __version__
from spellstack.actors import play_one_game
from spellstack.cli import main
from spellstack.trace import RecordError, RecordFormatError, read_record
from tests.records.record_games import Played

Edit = Callable[[dict[str, Any]], None]


def _set(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(raw: dict[str, Any]) -> None:
        target: Any = raw
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return edit


def _drop(path: tuple[Any, ...]) -> Edit:
    def edit(raw: dict[str, Any]) -> None:
        target: Any = raw
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return edit


EDITS = [
    pytest.param(_set(("format",), 2), "record format 2; this version reads record format 1", id="format"),
    pytest.param(_set(("engine",), "0.0.1"), f"written by spellstack 0.0.1; this is spellstack {__version__}",
                 id="engine"),
    pytest.param(_drop(("seed",)), "missing key 'seed'", id="missing-seed"),
    pytest.param(_drop(("result", "final_hash")), "missing key 'result.final_hash'", id="missing-hash"),
    pytest.param(_set(("surprise",), 1), "unknown key 'surprise'", id="unknown-key"),
    pytest.param(_set(("seed",), "6"), "seed: expected an integer, got a string '6'", id="seed-text"),
    pytest.param(_set(("turn_limit",), True), "turn_limit: expected an integer, got true or false True",
                 id="limit-bool"),
    pytest.param(_set(("seats", 0, "cards", 0), ["Mountain", 0]),
                 "seats[0].cards[0]: expected [card name, count of 1 or more], got ['Mountain', 0]",
                 id="count-zero"),
    pytest.param(_set(("seats", 1, "deadline"), -1), "seats[1].deadline: expected seconds above 0, got -1",
                 id="deadline"),
    pytest.param(_set(("seats", 1, "name"), "alice"), "seats: two seats have the same name", id="same-name"),
    pytest.param(_set(("clock",), {"base": 60}), "missing key 'clock.increment'", id="clock-increment"),
    pytest.param(_set(("clock",), {"base": 0, "increment": 1}),
                 "clock: invalid game clock: BASE must be more than 0 seconds, got 0", id="clock-base"),
    pytest.param(_set(("clock",), [{"base": 60, "increment": 0}]),
                 "clock: expected a clock (or null) for each of the 2 seats", id="clock-seats"),
    pytest.param(_set(("clock",), {"base": 60, "increment": 0}), "missing key 'result.clock_left'",
                 id="clock-left-missing"),
    pytest.param(_set(("result", "clock_left"), [1.0, 1.0]), "unknown key 'result.clock_left'",
                 id="clock-left-unclocked"),
    pytest.param(_set(("messages", 0), [0, 1, "SubmitAction", {"action": {"kind": "pass"}, "decision_id": 1}, 5]),
                 "messages[0]: a time on a game clock, but seat 0 has none", id="time-unclocked"),
    pytest.param(_set(("start",), {"chooser": 2, "mulligans": True}),
                 "start.chooser: expected null or a seat from 0 to 1, got 2", id="chooser"),
    pytest.param(_set(("messages", 0, 0), 5), "messages[0]: the seat must be from 0 to 1, got 5", id="seat"),
    pytest.param(_set(("messages", 0, 2), "GameOver"), "messages[0]: unknown kind 'GameOver'", id="kind"),
    pytest.param(_set(("messages", 0, 3), {"action": {"kind": None}, "decision_id": 1}),
                 "messages[0]: SubmitAction: payload.action.kind: expected str, got None", id="payload"),
    pytest.param(_set(("messages", 0), [0, 1, "bytes", "c1zz"]),
                 "messages[0]: bytes: expected hexadecimal digits, got 'c1zz'", id="hex"),
    pytest.param(_set(("seats", 0, "cards"), [["Mountain", 10**9]]), "seats[0].cards: more than 10000 cards",
                 id="huge-deck"),
    pytest.param(_set(("messages", 1, 1), 0), "messages[1]: seat 0 had received 1 messages by an earlier entry, "
                 "this one says 0", id="after-decreases"),
    pytest.param(_set(("result", "received"), [1, 1]),
                 "result.received: seat 0 was sent 1 messages, but an entry says it had received", id="received"),
]


def _refused(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(("edit", "problem"), EDITS)
def test_a_broken_record_is_refused_in_one_line_naming_what_is_wrong(
        edit: Edit, problem: str, seed1: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = json.loads(seed1.record.read_bytes())
    edit(raw)
    path = tmp_path / "edited.json"
    path.write_bytes(json.dumps(raw).encode())
    line = _refused(capsys, path)
    assert line.startswith(f"spellstack replay: not a record: {path}: "), line
    assert problem in line, line
    with pytest.raises(RecordFormatError if "spellstack 0" in problem or "format 2" in problem else RecordError,
                       match="^" + str(path)):
        read_record(path)


def test_a_record_cut_short_is_not_json(seed1: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cut.json"
    path.write_bytes(seed1.record.read_bytes()[:500])
    line = _refused(capsys, path)
    assert line.startswith(f"spellstack replay: not a record: {path}: not JSON ("), line


def test_a_json_value_that_is_neither_is_read_as_a_trace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"event": "something"}\n', "utf-8")
    assert "not a trace" in _refused(capsys, path)


def test_a_missing_record_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _refused(capsys, tmp_path / "none.json") == f"spellstack replay: {tmp_path / 'none.json'}: no such file"


def test_a_trace_out_in_a_missing_folder_is_refused_before_the_replay(
        seed1: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(seed1.record), "--trace", str(tmp_path / "no" / "out.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err == (f"spellstack replay: --trace '{tmp_path / 'no' / 'out.jsonl'}': the folder "
                   f"'{tmp_path / 'no'}' does not exist\n")


def test_the_replay_s_trace_may_not_overwrite_the_file_replayed(
        seed1: Played, capsys: pytest.CaptureFixture[str]) -> None:
    before = seed1.record.read_bytes()
    assert main(["replay", str(seed1.record), "--trace", str(seed1.record)]) == 2
    assert capsys.readouterr().err == (f"spellstack replay: --trace '{seed1.record}' is the file "
                                       "replayed; name another\n")
    assert seed1.record.read_bytes() == before


@pytest.mark.parametrize("where", ["folder", "missing", "same"])
def test_play_refuses_a_record_path_it_can_t_write_before_playing(
        where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = {"folder": tmp_path, "missing": tmp_path / "no" / "r.json", "same": tmp_path / "g.jsonl"}[where]
    extra = ["--trace", str(tmp_path / "g.jsonl")] if where == "same" else []
    assert main(["play", "--record", str(path), *extra]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert "--record" in captured.err
    assert not (tmp_path / "g.jsonl").exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a disk always full)")
def test_a_record_that_can_t_be_written_ends_the_game_as_an_engine_error() -> None:
    _, result = trio.run(lambda: play_one_game(["gruul", "orzhov"], [RandomBot(1), RandomBot(2)], 1,
                                               turn_limit=3, record_path=Path("/dev/full")))
    assert result.winner is None
    assert result.reason.startswith("engine error: recorder: OSError"), result.reason
