"""``spellstack replay`` plays again a game in which a player misbehaved: each seat sends again
exactly what its player sent (forfeits, malformed bytes, illegal actions, settings, requests for
a full view), and stays silent where it was silent, so every such game replays line for line.

The in-process games run on a mock clock (``autojump``): a seat forfeited for time costs no
time, in the game as in its replay (which runs on a mock clock of its own). The games with bot
processes take real time, a fraction of a second each: the processes start, misbehave at their
first request and are forfeited."""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
import trio
import trio.testing

from spellstack import RandomBot
from spellstack.actors import Client, SeatConfig, play_one_game
from spellstack.bots import Bot
from spellstack.cli import main
from spellstack.trace import ReplayCheck, TraceRecordError, check_replay, read_trace
from tests.records.record_games import DEADLINE, HangsAtThirdPriority, HoldsAtThirdPriority, misbehaving, stops_reading
from tests.trace_why._trace_why_games import ROOT, raw_lines

HOSTILE = f"{sys.executable} {ROOT / 'tests' / 'tournament' / 'hostile_stdio_bot.py'}"
"""The misbehaving stdio bot, run by this Python (which has msgpack); its mode follows."""


def _check(path: Path) -> ReplayCheck:
    return trio.run(check_replay, read_trace(path))


def _play_cli(path: Path, *args: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["play", "--seed", "3", *args, "--trace", str(path)]) == 0


def _play(path: Path, policies: Sequence[Bot | Client], *, turn_limit: int = 0) -> None:
    """One game of the given seats (ann then ben) on a mock clock, traced to ``path``."""
    configs = [SeatConfig(auto_pass=False, timeout=DEADLINE), SeatConfig(timeout=DEADLINE)]
    trio.run(lambda: play_one_game(["gruul", "dimir"], policies, 5, names=["ann", "ben"],
                                   trace_path=path, configs=configs, turn_limit=turn_limit),
             clock=trio.testing.MockClock(autojump_threshold=0))


def _forfeits(path: Path) -> list[str]:
    return [r["payload"]["text"] for r in raw_lines(path)
            if r.get("kind") == "GameEvent" and r["payload"]["kind"] == "forfeit"]


def _identical(path: Path) -> None:
    check = _check(path)
    assert check.divergence is None, check
    assert check.error == ""
    assert check.compared == len(raw_lines(path)) - 2
    assert check.final_hash == raw_lines(path)[-1]["final_hash"]


# --------------------------------------------------------------------------- bot processes


@pytest.mark.parametrize(("entrant", "forfeit"), [
    ("stdio:/bin/false@gruul", "bot process exited with code 1"),
    (f"stdio:{HOSTILE} garbage@gruul", "3 malformed messages in a row"),
    (f"stdio:{HOSTILE} illegal@gruul", "50 illegal actions in a row"),
], ids=["cant-start", "garbage", "illegal"])
def test_a_game_whose_bot_process_misbehaved_replays_line_for_line(entrant: str, forfeit: str,
                                                                   tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    _play_cli(path, "--entrant", f"bad={entrant}", "--entrant", "random@gruul")
    assert len(_forfeits(path)) == 1 and forfeit in _forfeits(path)[0]
    _identical(path)


def test_a_game_whose_trusted_class_bot_raised_replays_line_for_line(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    bot = ROOT / "tests" / "tournament" / "hostile_class_bots.py"
    _play_cli(path, "--trust", "--entrant", f"r={bot}:Raises@gruul", "--entrant", "random@gruul")
    assert _forfeits(path) == ["policy raised RuntimeError: this bot has a bug"]
    _identical(path)


def test_the_bytes_of_a_malformed_message_are_in_the_trace(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    _play_cli(path, "--entrant", f"bad=stdio:{HOSTILE} garbage@gruul", "--entrant", "random@gruul")
    malformed = [r for r in raw_lines(path)
                 if r.get("kind") == "GameEvent" and r["payload"]["kind"] == "malformed"]
    assert [bytes.fromhex(r["bytes"]) for r in malformed] == [b"\xc1\xc1 not msgpack at all"] * 3
    # Without them (as a trace written before they were kept), the replay can't send them.
    stripped = tmp_path / "stripped.jsonl"
    stripped.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "bytes"}) + "\n"
                                for r in raw_lines(path)), "utf-8")
    check = _check(stripped)
    assert check.divergence is not None and check.divergence.seq == malformed[0]["seq"]


# --------------------------------------------------------------------------- in process


def test_a_seat_forfeited_for_time_is_silent_again_and_costs_no_time(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    _play(path, [HangsAtThirdPriority(1), RandomBot(2)])
    assert _forfeits(path) == [f"no answer within {DEADLINE:g} s"]
    start = time.perf_counter()
    _identical(path)
    # Measured, not waited for: a replay that waited out the deadline for real would take it.
    assert time.perf_counter() - start < DEADLINE / 2


def test_an_answer_after_the_deadline_is_held_as_long_again(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    _play(path, [HoldsAtThirdPriority(1), RandomBot(2)])
    assert _forfeits(path) == [f"answered after {DEADLINE + 7.25:.2f} s, over its {DEADLINE:g} s deadline"]
    _identical(path)


def test_a_seat_forfeited_for_not_reading_stops_reading_again(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    _play(path, [Client(stops_reading), RandomBot(2)])
    assert _forfeits(path) == [f"did not read its messages within {DEADLINE:g} s"]
    _identical(path)


def _misbehaving_game(path: Path) -> None:
    _play(path, [Client(misbehaving()), RandomBot(2)], turn_limit=6)
    kinds = [(r["kind"], r["payload"].get("kind")) for r in raw_lines(path) if r.get("event") == "message"]
    for seen in (("GameEvent", "malformed"), ("RequestFullView", None), ("Rejected", None),
                 ("StopsSet", None)):
        assert seen in kinds
    assert _forfeits(path) == []


def test_malformed_messages_illegal_actions_stops_and_full_views_replay_line_for_line(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    _misbehaving_game(path)
    _identical(path)


def test_a_changed_answer_after_misbehaviour_diverges_at_its_consequence(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    _misbehaving_game(path)
    lines = raw_lines(path)
    struck = max(r["seq"] for r in lines if r.get("kind") == "StopsSet")
    i = next(i for i, r in enumerate(lines) if r.get("kind") == "SubmitAction"
             and r["sender"] == "player:ann" and r["seq"] > struck)
    lines[i]["payload"]["action"].update(kind="cast", object_id=999_999)
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in lines), "utf-8")

    check = _check(edited)

    assert check.divergence is not None and check.divergence.seq == lines[i]["seq"] + 1
    replayed = check.divergence.replayed
    assert replayed is not None and replayed["payload"]["kind"] == "refused"
    assert "the replay differs from the trace" in check.error


def test_a_seat_sent_more_messages_than_recorded_is_a_mismatch_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    _play(path, [HangsAtThirdPriority(1), RandomBot(2)])
    lines = raw_lines(path)
    # Without ben's GameOver, the replay sends him one more message than the trace records.
    i = next(i for i, r in enumerate(lines) if r.get("kind") == "GameOver" and r["receiver"] == "player:ben")
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(json.dumps(r) + "\n" for k, r in enumerate(lines) if k != i), "utf-8")
    told = sum(1 for r in lines if r.get("receiver") == "player:ben") - 1

    check = _check(edited)

    assert check.divergence is not None and check.divergence.seq == lines[i]["seq"]
    assert f"ben was sent GameOver after all {told} messages the trace records sent to it" in check.error


def test_bytes_that_are_not_hexadecimal_are_refused_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    _play_cli(path, "--entrant", f"bad=stdio:{HOSTILE} garbage@gruul", "--entrant", "random@gruul")
    lines = raw_lines(path)
    i = next(i for i, r in enumerate(lines) if "bytes" in r)
    lines[i]["bytes"] = "c1zz"
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(json.dumps(r) + "\n" for r in lines), "utf-8")
    with pytest.raises(TraceRecordError, match=rf"line {i + 1}: field 'bytes': expected hexadecimal "
                                               r"digits, got 'c1zz'"):
        read_trace(edited)
