"""Checking a trace by playing it again (``spellstack replay FILE``): the kernel and the actors
run from the header and what each seat sent only, and every line of the new trace is compared
with the recorded one, message by message, until the first that differs."""

from __future__ import annotations

import math
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from ..rules import SpellstackError
from ._read import ReplayError, Trace, TraceMessage
from ._replay import replay_trace

__all__ = ["Divergence", "ReplayCheck", "check_replay", "record_json"]

_RESULT_FIELDS = ("winner", "reason", "turns", "final_hash")
"""The result line's fields a replay must reproduce (and ``clock_left``, where there is one)."""


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first line where the replay and the trace differ."""

    seq: int | None
    """The message number, or None for the result line."""
    recorded: Mapping[str, Any] | None
    """The trace's line (None: the trace has no such line)."""
    replayed: Mapping[str, Any] | None
    """The replay's line (None: the replay has no such line)."""


@dataclass(frozen=True, slots=True)
class ReplayCheck:
    """What ``check_replay`` found."""

    compared: int
    """Message lines found identical before the first divergence (all of them if none)."""
    divergence: Divergence | None
    """The first difference, or None: the replay reproduces every line."""
    final_hash: str
    """The replayed game's final state hash ("" if its trace has no result line)."""
    recorded_hash: str
    """The trace's final state hash ("" if it has no result line)."""
    error: str = ""
    """Why the replay stopped early or ended differently (its ``ReplayMismatchError``), or ""."""
    cut_after: int = 0
    """For a trace cut short (no result line): its last record, up to which the replay was
    compared; 0: the trace is whole."""

    @property
    def identical(self) -> bool:
        """Whether the replay reproduced the trace line for line."""
        return self.divergence is None


def record_json(m: TraceMessage) -> dict[str, Any]:
    """A message line as the trace holds it (without its line number)."""
    line = {"event": "message", "game": m.game, "seq": m.seq, "sender": m.sender,
            "receiver": m.receiver, "kind": m.kind, "payload": dict(m.payload)}
    if m.data:
        line["bytes"] = m.data.hex()
    return line


_MESSAGE_FIELDS = ("event", "game", "seq", "sender", "receiver", "kind", "payload")
"""A message line's fields a replay must reproduce (and ``bytes``, where there are any)."""


def _replayed_lines(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The replay's message lines and its result line (None if it has none), read leniently:
    a replay stopped midway still has the lines it wrote."""
    messages: list[dict[str, Any]] = []
    result = None
    for raw in path.read_bytes().splitlines()[1:]:
        try:
            record = orjson.loads(raw)
        except orjson.JSONDecodeError:
            break  # a line cut short: what came before is all there is
        if record.get("event") == "message":
            line = {k: record.get(k) for k in _MESSAGE_FIELDS}
            if "bytes" in record:
                line["bytes"] = record["bytes"]
            messages.append(line)
        elif record.get("event") == "result":
            result = record
    return messages, result


async def check_replay(trace: Trace, *, trace_path: Path | None = None) -> ReplayCheck:
    """Play ``trace``'s game again from its header and what each seat sent (``replay_trace``),
    tracing the replay to a temporary file, and compare the two traces line by line: each
    message line by number (sender, receiver, kind, payload), then the result line. A trace
    cut short (no result line) is compared up to its last record (``ReplayCheck.cut_after``).
    ``ReplayError`` if the game can't be set up again; ``TraceRecordError`` (before anything is
    played) if a message a seat sent doesn't decode as its kind. ``trace_path``: keep the
    replay's trace there (otherwise it is written to a temporary file)."""
    error = ""
    with tempfile.TemporaryDirectory(prefix="spellstack-replay-") as folder:
        path = trace_path if trace_path is not None else Path(folder) / "replay.jsonl"
        try:
            await replay_trace(trace, trace_path=path)
        except ReplayError:
            raise
        except SpellstackError as err:  # ReplayMismatchError: the check below says where
            error = str(err)
        messages, result = _replayed_lines(path) if path.exists() else ([], None)
    recorded = [record_json(m) for m in trace.messages]
    final = str(result.get("final_hash", "")) if result is not None else ""
    r = trace.result
    recorded_hash = r.final_hash if r is not None else ""
    cut = trace.last_seq if r is None else 0
    for i, (mine, theirs) in enumerate(zip(recorded, messages, strict=False)):
        if mine != theirs:
            return ReplayCheck(i, Divergence(int(mine["seq"]), mine, theirs), final,
                               recorded_hash, error, cut)
    if len(recorded) < len(messages) and r is None:
        # Cut short: the replay went on past the last record (until a seat was sent what the
        # trace doesn't hold), and every line the trace has is the replay's.
        return ReplayCheck(len(recorded), None, final, "", "", cut)
    if len(recorded) != len(messages):
        n = min(len(recorded), len(messages))
        longer = recorded if len(recorded) > n else messages
        seq = int(longer[n]["seq"])
        return ReplayCheck(n, Divergence(seq, recorded[n] if len(recorded) > n else None,
                                         messages[n] if len(messages) > n else None),
                           final, recorded_hash, error, cut)
    if r is None:  # cut just before its result line: the replay ended where the trace does
        return ReplayCheck(len(recorded), None, final, "", error, cut)
    mine_result: dict[str, Any] = {"event": "result", "winner": r.winner, "reason": r.reason, "turns": r.turns,
                                   "final_hash": r.final_hash}
    theirs_result = None if result is None else {
        "event": "result", **{k: result.get(k) for k in _RESULT_FIELDS}}
    if r.clock_left and theirs_result is not None and result is not None:
        # The game clocks' time left (a seat without a clock: null), as the line holds it.
        mine_result["clock_left"] = [t if math.isfinite(t) else None for t in r.clock_left]
        theirs_result["clock_left"] = result.get("clock_left")
    if mine_result != theirs_result:
        return ReplayCheck(len(recorded), Divergence(None, mine_result, theirs_result), final,
                           r.final_hash, error)
    return ReplayCheck(len(recorded), None, final, r.final_hash, error)
