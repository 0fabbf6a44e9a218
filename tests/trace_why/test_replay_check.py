"""``spellstack replay FILE`` plays a traced game again from the trace alone and finds the first
line that differs: none for a trace as written, the first consequence of an edited answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack.actors import play_one_game
from spellstack.bots import RandomBot
from spellstack.cli import main
from spellstack.trace import ReplayMismatchError, check_replay, read_trace, replay_trace
from tests.trace_why._trace_why_games import DECK, raw_lines


def _write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in lines), "utf-8")
    return path


def _first_difference(recorded: Path, tmp_path: Path) -> int:
    """The first message number where a replay of ``recorded`` differs from it, found with
    ``replay_trace`` and a plain comparison of the two files' lines."""
    replayed = tmp_path / "independent.jsonl"
    try:
        trio.run(lambda: replay_trace(read_trace(recorded), trace_path=replayed))
    except ReplayMismatchError:  # a replay that ends differently still wrote its lines
        pass
    mine = [r for r in raw_lines(recorded) if r.get("event") == "message"]
    theirs = [r for r in raw_lines(replayed) if r.get("event") == "message"]
    for a, b in zip(mine, theirs, strict=False):
        if a != b:
            return int(a["seq"])
    raise AssertionError("no line differs")


@pytest.mark.parametrize("seed", [1, 2, 7])
@pytest.mark.slow
def test_a_replay_reproduces_every_line_and_the_final_hash(seed: int, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    trio.run(lambda: play_one_game(["gruul", "dimir"], [RandomBot(seed), RandomBot(seed + 50)], seed,
                                   names=["ann", "ben"], trace_path=path))
    check = trio.run(check_replay, read_trace(path))
    assert check.identical and check.error == ""
    assert check.final_hash == raw_lines(path)[-1]["final_hash"]
    assert check.compared == len(raw_lines(path)) - 2


def test_an_action_changed_to_a_pass_diverges_at_its_consequence(war_trace: Path, tmp_path: Path) -> None:
    lines = raw_lines(war_trace)
    i = next(i for i, r in enumerate(lines) if r.get("kind") == "SubmitAction"
             and r["payload"]["action"]["kind"] == "cast" and r["seq"] > 900)
    lines[i]["payload"]["action"].update(kind="pass", object_id=0, targets=[])
    edited = _write(tmp_path / "edited.jsonl", lines)
    expected = _first_difference(edited, tmp_path)
    assert expected > lines[i]["seq"]  # the edited line itself is what the replay sends

    check = trio.run(check_replay, read_trace(edited))

    assert check.divergence is not None and check.divergence.seq == expected
    assert check.divergence.recorded == next(r for r in lines if r.get("seq") == expected)
    assert check.divergence.replayed is not None
    assert check.divergence.replayed["payload"]["kind"] == "pass"


@pytest.mark.slow
def test_an_edited_answer_that_runs_out_of_replies_still_names_the_first_difference(
        war_trace: Path, tmp_path: Path) -> None:
    # No attack where the trace attacked: the game goes on differently until a seat is asked
    # more than it answered (ReplayMismatchError midway).
    lines = raw_lines(war_trace)
    i = next(i for i, r in enumerate(lines) if r.get("kind") == "SubmitAnswer"
             and r["payload"]["answer"]["pairs"])
    lines[i]["payload"]["answer"]["pairs"] = []
    edited = _write(tmp_path / "no-attack.jsonl", lines)
    expected = _first_difference(edited, tmp_path)

    check = trio.run(check_replay, read_trace(edited))

    assert check.divergence is not None and check.divergence.seq == expected
    assert "differs" in check.error or "recorded replies" in check.error


def test_a_game_from_a_deck_file_replays_without_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "duel.toml"
    counts: dict[str, int] = {}
    for card in DECK.cards:
        counts[card] = counts.get(card, 0) + 1
    deck.write_text('name = "duel"\n\n[cards]\n' + "".join(f'"{c}" = {n}\n' for c, n in counts.items()),
                    "utf-8")
    path = tmp_path / "from-file.jsonl"
    assert main(["play", "--seed", "4", "--deck", str(deck), "--deck", "gruul", "--trace", str(path)]) == 0
    deck.unlink()
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == f"final state hash {raw_lines(path)[-1]['final_hash']}"


def test_the_command_exits_1_on_a_divergence_and_2_on_bad_input(war_trace: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    lines = raw_lines(war_trace)
    i = next(i for i, r in enumerate(lines) if r.get("kind") == "SubmitAction"
             and r["payload"]["action"]["kind"] == "cast")
    lines[i]["payload"]["action"].update(kind="pass", object_id=0, targets=[])
    edited = _write(tmp_path / "edited.jsonl", lines)
    assert main(["replay", str(edited)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"divergence at seq {lines[i]['seq'] + 1}")
    assert out[1].startswith("recorded: {") and out[2].startswith("replayed: {")
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "not-a-trace.jsonl").write_text('{"event": "result"}\n', "utf-8")
    assert main(["replay", str(tmp_path / "not-a-trace.jsonl")]) == 2
