"""``spellstack trace show --as bob`` never tells bob what was hidden from him at that point:
no name of a card of alice's that bob had not been shown, no object id bob was never shown,
no number from the trace's own sequence. What bob had been shown is worked out here from the
raw JSON lines, independently of ``spellstack.trace``: the account of the trace cut after any
record must hold nothing hidden from bob at that record."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st
from trace_helpers import GAMES, Run, raw_records

BOB = 1


def _shown_to_bob(records: list[dict[str, Any]], names: set[str]) -> tuple[set[str], set[int]]:
    """The card names and object ids bob had been shown in ``records``."""
    seen_names: set[str] = set()
    seen_ids: set[int] = set()

    def text(t: str) -> None:
        seen_names.update(n for n in names if n in t)

    for r in records:
        p = r["payload"]
        if r["kind"] == "GameEvent" and (not p["private_to"] or BOB in p["private_to"]):
            text(p["text"])
            seen_ids.update([p["subject"], *p["refs"]])
        elif r["kind"] in ("Resolved", "SBABatch"):
            for e in p["events"]:
                if not e["private_to"] or BOB in e["private_to"]:
                    text(e["text"])
                    seen_ids.add(e["subject"])
        elif r["receiver"] == "player:bob" and "view" in p:
            v, d = p["view"], p["decision"]
            seen_names.update(o["name"] for o in v["objects"])
            seen_names.update(s["name"] for s in v["stack"] or ())
            seen_names.update(c["name"] for c in d["choices"])
            seen_names.update(a["name"] for a in d["actions"])
            seen_ids.update(o["id"] for o in v["objects"])
            seen_ids.update(s["id"] for s in v["stack"] or ())
            seen_ids.update(c["ref"] for c in d["choices"])
            for a in d["actions"]:
                seen_ids.add(a["object_id"])
                seen_ids.update(c for t in a["targets"] for c in t["candidates"])
    return seen_names, seen_ids


def _cut(path: Path, seq: int, folder: Path) -> Path:
    """The trace of ``path`` up to record ``seq``, with its result line."""
    lines = path.read_bytes().splitlines(keepends=True)
    out = folder / "cut.jsonl"
    out.write_bytes(b"".join(lines[: seq + 1] + lines[-1:]))
    return out


def _numbers(out: str) -> list[int]:
    return [int(m.group(1)) for m in re.finditer(r"^\s*(\d+)(?:-\d+)?  ", out, flags=re.M)]


@settings(max_examples=25, deadline=None)
@given(game=st.integers(0, len(GAMES) - 1), where=st.floats(0.0, 1.0))
def test_as_bob_shows_nothing_hidden_from_bob(cli: Run, traces: list[Path], game: int,
                                              where: float) -> None:
    path = traces[game]
    records = raw_records(path)
    header, messages = records[0], [r for r in records if r["event"] == "message"]
    seq = max(1, round(where * len(messages)))
    names = set(header["decklists"]["alice"]) | set(header["decklists"]["bob"])
    names_seen, ids_seen = _shown_to_bob(messages[:seq], names)
    hidden = set(header["decklists"]["alice"]) - set(header["decklists"]["bob"]) - names_seen
    kinds = sorted({r["kind"] for r in messages[:seq]})
    with tempfile.TemporaryDirectory() as folder:
        cut = _cut(path, seq, Path(folder))
        code, told, err = cli("trace", "show", str(cut), "--as", "bob")
        assert code == 0, err
        # every record bob may see, the engine's messages between its actors included
        code, everything, err = cli("trace", "show", str(cut), "--as", "bob",
                                    *(a for k in kinds for a in ("--kind", k)))
        assert code == 0, err
    for out in (told, everything):
        leaked = {n for n in hidden if re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", out)}
        assert not leaked, f"seq {seq}: {leaked}"
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
