"""A game's record (``--record FILE``): small, the same bytes for the same game, and enough to
play the game again, to its result and final state, and to write its trace byte for byte."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from spellstack import RandomBot
from spellstack.actors import RECORD_FORMAT, Client, GameSetup, SeatConfig, deck_runs, encode_record, sparse
from spellstack.bots import Bot
from spellstack.cli import main
from spellstack.protocol import SubmitAction, SubmitAnswer
from spellstack.rules import Action, Answer, StartSettings
from spellstack.seats import PolicySeat, play_seats
from spellstack.trace import ReplayMismatchError, check_record, is_record, parse_record, read_record, replay_record
from tests.records.record_games import (
    DEADLINE,
    HangsAtThirdPriority,
    HoldsAtThirdPriority,
    Played,
    misbehaves,
    play_cli,
    play_mock,
    stops_reading,
)

SIZE_LIMIT = 30_000
"""The most bytes the seed-6 game's record may take (its trace takes about 1.4 MB)."""


def _replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["replay", *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _result(trace: Path) -> dict[str, object]:
    last: dict[str, object] = json.loads(trace.read_text("utf-8").splitlines()[-1])
    return last


def _same_trace(played: Played, out: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Replaying the record to ``out`` writes the game's trace, byte for byte."""
    code, text = _replay(capsys, str(played.record), "--trace", str(out))
    assert code == 0, text
    assert out.read_bytes() == played.trace.read_bytes()


# --------------------------------------------------------------------------- size, content


def test_the_seed_6_game_s_record_is_under_30000_bytes(seed6: Played) -> None:
    size = seed6.record.stat().st_size
    assert _result(seed6.trace)["turns"] == 80
    assert seed6.trace.stat().st_size > 1_000_000
    assert size < SIZE_LIMIT, size


def test_a_record_holds_the_set_up_the_answers_and_the_result(seed6: Played) -> None:
    raw = json.loads(seed6.record.read_bytes())
    header = json.loads(seed6.trace.read_text("utf-8").splitlines()[0])
    assert raw["event"] == "record" and raw["format"] == RECORD_FORMAT
    assert raw["engine"] == header["engine"] and raw["seed"] == 6 and raw["game"] == "g1"
    assert [s["name"] for s in raw["seats"]] == ["alice", "bob"]
    assert [s["bot_seed"] for s in raw["seats"]] == [13, 14]  # 2 * seed + 1 + seat
    assert [s["deck"] for s in raw["seats"]] == ["orzhov", "dimir"]
    for seat in raw["seats"]:
        cards = [name for name, count in seat["cards"] for _ in range(count)]
        assert cards == header["decklists"][seat["name"]]
    assert raw["start"] is None and raw["turn_limit"] == 300 and raw["clock"] is None
    # Every answer the players sent, and nothing else: no forfeit, no unreadable bytes.
    sent = [r for r in map(json.loads, seed6.trace.read_text("utf-8").splitlines())
            if str(r.get("sender", "")).startswith("player:")]
    assert len(raw["messages"]) == len(sent) == 158
    assert [m[2] for m in raw["messages"]] == [r["kind"] for r in sent]
    result = _result(seed6.trace)
    assert raw["result"]["winner"] == result["winner"] == "alice"
    assert raw["result"]["final_hash"] == result["final_hash"]


def test_a_message_keeps_only_the_fields_that_are_not_their_defaults() -> None:
    assert sparse(SubmitAction(7, Action("pass"))) == {"decision_id": 7, "action": {"kind": "pass"}}
    assert sparse(SubmitAnswer(Answer(4, keys=(7,)))) == {"answer": {"decision_id": 4, "keys": [7]}}


def test_a_deck_is_kept_as_runs_of_one_name_in_its_order() -> None:
    assert deck_runs(["A", "A", "B", "A"]) == (("A", 2), ("B", 1), ("A", 1))
    assert deck_runs([]) == ()


# --------------------------------------------------------------------------- replay


def test_replaying_the_record_gives_the_trace_s_final_hash(seed6: Played,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, text = _replay(capsys, str(seed6.record))
    final = _result(seed6.trace)["final_hash"]
    assert code == 0, text
    assert text.splitlines() == [
        "identical: 158 recorded messages replayed, the same result and final state",
        "result: alice wins: bob drew from an empty library (704.5b) (turn 80)",
        f"final state hash {final}",
    ]


@pytest.mark.parametrize("game", ["seed1", "seed6"])
def test_the_record_s_replay_writes_the_game_s_trace_byte_for_byte(
        game: str, request: pytest.FixtureRequest, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    _same_trace(request.getfixturevalue(game), tmp_path / "out.jsonl", capsys)


def test_the_same_game_gives_the_same_record_with_or_without_a_trace(seed1: Played, tmp_path: Path) -> None:
    again = tmp_path / "again.json"
    assert main(["play", "--seed", "1", "--record", str(again)]) == 0
    assert again.read_bytes() == seed1.record.read_bytes()


def test_a_record_reads_back_as_it_was_written(seed6: Played) -> None:
    record = read_record(seed6.record)
    assert encode_record(record) == seed6.record.read_bytes()


def test_a_pretty_printed_record_is_a_record_all_the_same(seed1: Played, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    pretty = tmp_path / "pretty.txt"
    pretty.write_text(json.dumps(json.loads(seed1.record.read_bytes()), indent=2), "utf-8")
    assert is_record(pretty.read_bytes()) and not is_record(seed1.trace.read_bytes())
    code, text = _replay(capsys, str(pretty))
    assert code == 0, text


def test_a_changed_answer_is_a_difference(seed1: Played, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    raw = json.loads(seed1.record.read_bytes())
    i = next(i for i, m in enumerate(raw["messages"]) if m[2] == "SubmitAction"
             and m[3]["action"]["kind"] == "cast")
    raw["messages"][i][3]["action"] = {"kind": "pass"}
    edited = tmp_path / "edited.json"
    edited.write_bytes(json.dumps(raw).encode())
    code, text = _replay(capsys, str(edited))
    lines = text.splitlines()
    assert code == 1, text
    assert lines[0].startswith("the replay differs from the record: ")
    assert lines[-1].endswith(f"(recorded {raw['result']['final_hash']})")


def test_a_changed_final_hash_is_a_difference_naming_both(seed1: Played, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    raw = json.loads(seed1.record.read_bytes())
    real = raw["result"]["final_hash"]
    raw["result"]["final_hash"] = "0" * 32
    edited = tmp_path / "edited.json"
    edited.write_bytes(json.dumps(raw).encode())
    code, text = _replay(capsys, str(edited))
    assert code == 1
    assert text.splitlines() == [
        f"the replay differs from the record: final state hash {real}, recorded {'0' * 32}",
        f"result: {raw['result']['reason']} (turn {raw['result']['turns']}) "
        f"(recorded: {raw['result']['reason']} (turn {raw['result']['turns']}))",
        f"final state hash {real} (recorded {'0' * 32})",
    ]


def test_replay_record_raises_on_a_difference(seed1: Played) -> None:
    record = read_record(seed1.record)
    game, result = trio.run(lambda: replay_record(record))
    assert result.final_hash == game.state.state_hash() == record.result.final_hash
    raw = json.loads(seed1.record.read_bytes())
    raw["result"]["turns"] += 1
    changed = parse_record(json.dumps(raw).encode())
    with pytest.raises(ReplayMismatchError, match="the replay differs from the record: ended "):
        trio.run(lambda: replay_record(changed))


# --------------------------------------------------------------------------- forfeits, misbehaviour


def test_a_game_lost_by_a_bot_that_raised_replays_from_its_record(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    bot = Path(__file__).resolve().parents[1] / "tournament" / "hostile_class_bots.py"
    played = play_cli(tmp_path, "--trust", "--entrant", f"r={bot}:Raises@gruul", "--entrant", "random@gruul")
    raw = json.loads(played.record.read_bytes())
    assert [m[2:] for m in raw["messages"] if m[2] in ("Forfeit", "forfeited")] == [
        ["Forfeit", {"reason": "policy raised RuntimeError: this bot has a bug"}],
        ["forfeited", "policy raised RuntimeError: this bot has a bug"],
    ]
    _same_trace(played, tmp_path / "out.jsonl", capsys)


@pytest.mark.parametrize(("seats", "forfeit"), [
    (lambda: [HangsAtThirdPriority(1), RandomBot(2)], f"no answer within {DEADLINE:g} s"),
    (lambda: [HoldsAtThirdPriority(1), RandomBot(2)],
     f"answered after {DEADLINE + 7.25:.2f} s, over its {DEADLINE:g} s deadline"),
    (lambda: [Client(stops_reading), RandomBot(2)], f"did not read its messages within {DEADLINE:g} s"),
], ids=["hangs", "holds", "stops-reading"])
def test_a_seat_forfeited_for_time_replays_from_its_record(seats: Callable[[], list[Bot | Client]],
                                                           forfeit: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    played = play_mock(tmp_path, seats())
    raw = json.loads(played.record.read_bytes())
    assert [m[3] for m in raw["messages"] if m[2] == "forfeited"] == [forfeit]
    _same_trace(played, tmp_path / "out.jsonl", capsys)


def test_malformed_bytes_full_views_refusals_stops_and_a_concession_replay_from_the_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = play_mock(tmp_path, [Client(misbehaves), RandomBot(2)], turn_limit=10)
    kinds = [m[2] for m in json.loads(played.record.read_bytes())["messages"]]
    for kind in ("bytes", "RequestFullView", "SetStops", "Concede"):
        assert kind in kinds
    assert "concede" in str(_result(played.trace)["reason"])
    _same_trace(played, tmp_path / "out.jsonl", capsys)


def test_a_game_started_as_a_match_s_replays_from_its_record(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    played = play_mock(tmp_path, [RandomBot(1), RandomBot(101)], turn_limit=4,
                       start=StartSettings(chooser=1))
    assert json.loads(played.record.read_bytes())["start"] == {"chooser": 1, "mulligans": True}
    _same_trace(played, tmp_path / "out.jsonl", capsys)


def test_check_record_reports_what_each_seat_was_sent(seed1: Played) -> None:
    record = read_record(seed1.record)
    check = trio.run(lambda: check_record(record))
    assert check.identical and check.replayed == record.result


def test_a_tournament_s_game_played_by_its_seats_records_its_id_and_bot_seeds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    setup = GameSetup(["gruul", "orzhov"], 41, ["ann", "ben"], StartSettings(chooser=None), turn_limit=12,
                      configs=[SeatConfig(timeout=DEADLINE)] * 2, bot_seeds=(7, 8), game_id="r1-m2-g1")
    played = Played(tmp_path / "r1-m2-g1.jsonl", tmp_path / "r1-m2-g1.json")
    trio.run(lambda: play_seats(setup, [PolicySeat(RandomBot)] * 2, trace_path=played.trace,
                                record_path=played.record))
    raw = json.loads(played.record.read_bytes())
    assert raw["game"] == "r1-m2-g1" and [s["bot_seed"] for s in raw["seats"]] == [7, 8]
    assert raw["start"] == {"chooser": None, "mulligans": True} and raw["turn_limit"] == 12
    _same_trace(played, tmp_path / "out.jsonl", capsys)


def test_replay_writes_a_trace_s_replay_too(seed1: Played, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    code, text = _replay(capsys, str(seed1.trace), "--trace", str(out))
    assert code == 0, text
    assert text.splitlines()[-1] == f"trace written to {out}"
    assert out.read_bytes() == seed1.trace.read_bytes()


@pytest.mark.slow
def test_the_same_game_gives_the_same_record_in_another_process(seed1: Played, tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    for hash_seed in ("1", "2"):
        out = tmp_path / f"hash{hash_seed}.json"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed,
               "PYTHONPATH": os.pathsep.join((str(root / "src"), str(root)))}
        subprocess.run([sys.executable, "-m", "spellstack", "play", "--seed", "1", "--record", str(out)],
                       env=env, check=True, capture_output=True)
        assert out.read_bytes() == seed1.record.read_bytes()
