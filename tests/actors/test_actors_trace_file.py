"""The JSON Lines trace of a real game as a file, and as a record of the game.

One traced game (gruul vs orzhov, seed 1, two RandomBots; the ``trace`` fixture, played once per
module) and its file: a header (format, engine, seed, decks), every message numbered 1 to n and
decoding as its kind, along the designed channels only, a footer with the result. Then the game
again: the same seed gives the same bytes, another seed another game, and replaying the recorded
answers reaches the same final state (with or without a trace file).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from traced_games import DECKS, NAMES, PLAYERS, SEED, Trace, _is_event, _play_traced

from spellstack import __version__
from spellstack.actors import TRACE_FORMAT, play_match
from spellstack.protocol import MESSAGE_TYPES, from_plain
from spellstack.rules import Action, Answer, Decision, PlayerView, Reply

# --------------------------------------------------------------------------- shape of the file


def test_the_game_ends_normally(trace: Trace) -> None:
    assert trace.result.winner in NAMES
    assert trace.result.forfeits == []
    assert trace.result.decisions > 0
    assert trace.result.auto_passes > 0


def test_first_line_is_a_header_with_format_engine_seed_and_decks(trace: Trace) -> None:
    h = trace.header
    assert h["event"] == "header"
    assert h["format"] == TRACE_FORMAT
    assert h["engine"] == __version__
    assert h["seed"] == SEED
    assert h["decks"] == dict(zip(NAMES, DECKS, strict=True))


def test_last_line_is_the_result(trace: Trace) -> None:
    f = trace.footer
    assert f["event"] == "result"
    assert f["winner"] == trace.result.winner
    assert f["reason"] == trace.result.reason
    assert f["turns"] == trace.result.turns
    assert f["final_hash"] == trace.result.final_hash


def test_sequence_numbers_are_1_to_n_consecutive(trace: Trace) -> None:
    seqs = [m["seq"] for m in trace.messages]
    assert seqs == list(range(1, len(seqs) + 1))
    # GameResult.messages counts what crossed channels; coordinator events are trace-only.
    crossed = [m for m in trace.messages if m["kind"] != "CoordinatorEvent"]
    assert trace.result.messages == len(crossed)
    assert all(m["receiver"] == "tracer" for m in trace.messages if m not in crossed)
    assert {m["event"] for m in trace.messages} == {"message"}
    assert {m["game"] for m in trace.messages} == {"g1"}


def test_every_payload_decodes_as_its_kind(trace: Trace) -> None:
    for m in trace.messages:
        cls = MESSAGE_TYPES[m["kind"]]
        assert from_plain(cls, m["payload"]).KIND == m["kind"]


def test_actors_talk_only_along_the_designed_channels(trace: Trace) -> None:
    allowed = {
        ("coordinator", "sba"): {"CheckSBA", "PlayerReply"},
        ("sba", "coordinator"): {"SBABatch", "AskPlayer"},
        ("coordinator", "stack"): {"Resolve", "PlayerReply"},
        ("stack", "coordinator"): {"Resolved", "AskPlayer"},
        ("coordinator", "tracer"): {"CoordinatorEvent"},
    }
    for p in PLAYERS:
        allowed[("coordinator", p)] = {"PriorityRequest", "DecisionRequest", "Accepted",
                                       "Rejected", "ErrorReply", "GameOver"}
        allowed[(p, "coordinator")] = {"SubmitAction", "SubmitAnswer", "Forfeit"}
    for m in trace.messages:
        assert m["kind"] in allowed.get((m["sender"], m["receiver"]), set()), m


def test_counts_agree_with_the_result(trace: Trace) -> None:
    msgs = trace.messages
    auto = sum(_is_event(m, "auto_pass") for m in msgs)
    assert auto == trace.result.auto_passes
    submitted = sum(m["kind"] in ("SubmitAction", "SubmitAnswer") for m in msgs)
    assert submitted == trace.result.decisions
    game_over = [m for m in msgs if m["kind"] == "GameOver"]
    assert sorted(m["receiver"] for m in game_over) == PLAYERS
    assert all(m["payload"]["winner"] == trace.result.winner for m in game_over)
    assert msgs[-2:] == game_over


# --------------------------------------------------------------------------- determinism


async def test_same_seed_gives_a_byte_identical_trace(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    ra = await _play_traced(a)
    rb = await _play_traced(b)
    assert a.read_bytes() == b.read_bytes()
    assert ra == rb


async def test_the_module_trace_is_reproduced_byte_for_byte(tmp_path: Path,
                                                            trace: Trace) -> None:
    again = tmp_path / "again.jsonl"
    await _play_traced(again)
    assert again.read_bytes() == trace.path.read_bytes()


async def test_a_different_seed_gives_a_different_game(tmp_path: Path, trace: Trace) -> None:
    other = tmp_path / "other.jsonl"
    result = await _play_traced(other, seed=SEED + 1)
    lines = other.read_text("utf-8").splitlines()
    original = trace.path.read_text("utf-8").splitlines()
    assert json.loads(lines[0])["seed"] == SEED + 1
    # Not only the header: the messages themselves differ.
    assert lines[1:] != original[1:]
    assert result.final_hash != trace.result.final_hash


# --------------------------------------------------------------------------- replay


class ReplayBot:
    """Answers with a recorded list of replies, in order, and says so if it runs out."""

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = replies
        self.used = 0

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        if self.used >= len(self.replies):
            raise AssertionError(f"replay ran out of replies at decision {decision.id}")
        reply = self.replies[self.used]
        self.used += 1
        return reply


def _recorded_replies(msgs: list[dict[str, Any]], player: str) -> list[Reply]:
    out: list[Reply] = []
    for m in msgs:
        if m["sender"] != player:
            continue
        if m["kind"] == "SubmitAction":
            out.append(from_plain(Action, m["payload"]["action"]))
        elif m["kind"] == "SubmitAnswer":
            out.append(from_plain(Answer, m["payload"]["answer"]))
    return out


async def test_replaying_the_recorded_answers_reaches_the_same_final_state(
        tmp_path: Path, trace: Trace) -> None:
    bots = [ReplayBot(_recorded_replies(trace.messages, p)) for p in PLAYERS]
    assert all(b.replies for b in bots)
    assert isinstance(bots[0].replies[0], Action | Answer)
    replay_path = tmp_path / "replay.jsonl"
    result = await _play_traced(replay_path, policies=bots)
    assert result.final_hash == trace.result.final_hash
    assert result.forfeits == []
    assert (result.winner, result.reason, result.turns) == (
        trace.result.winner, trace.result.reason, trace.result.turns)
    assert [b.used for b in bots] == [len(b.replies) for b in bots]
    # The replayed game's trace is the original, byte for byte.
    assert replay_path.read_bytes() == trace.path.read_bytes()


async def test_replay_without_a_trace_file_gives_the_same_hash(trace: Trace) -> None:
    bots = [ReplayBot(_recorded_replies(trace.messages, p)) for p in PLAYERS]
    _, result = await play_match(DECKS, bots, seed=SEED, names=NAMES)
    assert result.final_hash == trace.result.final_hash
