"""``spellstack trace show --as bob`` never tells bob what was hidden from him at that point:
no name of a card of alice's that bob had not been shown, no object id bob was never shown,
no number from the trace's own sequence. What bob had been shown is worked out here from the
raw JSON lines, independently of ``spellstack.trace``: the account of the trace cut after any
record must hold nothing hidden from bob at that record."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.trace.trace_helpers import BOB, GAMES, Run, cut_trace, hidden_from_bob, leaked, raw_records


def _numbers(out: str) -> list[int]:
    return [int(m.group(1)) for m in re.finditer(r"^\s*(\d+)(?:-\d+)?  ", out, flags=re.M)]


@settings(max_examples=25, deadline=None)
@given(game=st.integers(0, len(GAMES) - 1), where=st.floats(0.0, 1.0))
@pytest.mark.slow
def test_as_bob_shows_nothing_hidden_from_bob(cli: Run, traces: list[Path], game: int,
                                              where: float) -> None:
    path = traces[game]
    seq, hidden, ids_seen = hidden_from_bob(path, where)
    messages = [r for r in raw_records(path) if r["event"] == "message"]
    kinds = sorted({r["kind"] for r in messages[:seq]})
    with tempfile.TemporaryDirectory() as folder:
        cut = cut_trace(path, seq, Path(folder))
        code, told, err = cli("trace", "show", str(cut), "--as", "bob")
        assert code == 0, err
        # every record bob may see, the engine's messages between its actors included
        code, everything, err = cli("trace", "show", str(cut), "--as", "bob",
                                    *(a for k in kinds for a in ("--kind", k)))
        assert code == 0, err
    for out in (told, everything):
        assert not leaked(hidden, out), f"seq {seq}: {leaked(hidden, out)}"
        ids = {int(i) for i in re.findall(r"#(\d+)", out)}
        decisions = {int(i) for i in re.findall(r"(?:Request|answers|answer to|asks for the full view "
                                                r"again \(|: ) ?#(\d+)", out)}
        assert ids - decisions <= ids_seen, f"seq {seq}: {ids - decisions - ids_seen}"
        numbers = _numbers(out)
        assert numbers == list(range(1, len(numbers) + 1))


def test_bob_is_told_his_own_draws_and_not_alices(cli: Run, traces: list[Path]) -> None:
    path = traces[0]
    messages = [r for r in raw_records(path) if r["event"] == "message"]
    _, told, _ = cli("trace", "show", str(path), "--as", "bob")
    private = [r["payload"] for r in messages
               if r["kind"] == "GameEvent" and r["payload"]["private_to"]]
    bobs = [p["text"] for p in private if p["private_to"] == [BOB]]
    alices = [p["text"] for p in private if p["private_to"] == [0]]
    assert bobs and alices
    assert all(t in told for t in bobs)
    assert not any(t in told for t in alices)
    # the same records, shown to everybody, tell both
    _, all_told, _ = cli("trace", "show", str(path))
    assert all(t in all_told for t in bobs + alices)
    assert orjson.loads(path.read_bytes().splitlines()[0])["players"] == ["alice", "bob"]
