"""The trace format: every event kind registered, the header holds what a replay needs, each
GameEvent names its turn and step and the details of its kind, each event is carried once, the
same seed gives the same file, alone or beside fifty other games, which replays to the recorded
state, and traces of the previous formats (5, 6 and 7) are read and replay too."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack.actors import TRACE_FORMAT, SeatConfig, play_one_game
from spellstack.bots import RandomBot
from spellstack.cli import main
from spellstack.protocol import GAME_EVENT_KINDS, Stops
from spellstack.rules import STEPS, Action
from spellstack.trace import TraceRecordError, check_replay, read_trace, record_json, replay_trace
from tests.viewing_bots import ViewingRandomBot

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["alice", "bob"]


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def _events(path: Path) -> list[dict[str, Any]]:
    return [r for r in _lines(path) if r.get("kind") == "GameEvent"]



async def _traced(path: Path, seed: int, **options: Any) -> None:
    kind = ViewingRandomBot if options.pop("views", False) else RandomBot
    bots = options.pop("bots", None) or [kind(seed * 2 + 1), kind(seed * 2 + 2)]
    await play_one_game(["gruul", "orzhov"], bots, seed, names=NAMES, trace_path=path, **options)


def test_every_kind_the_engine_logs_is_registered() -> None:
    logged: set[str] = set()
    for path in [*(ROOT / "src" / "spellstack" / "rules").rglob("*.py"),
                 ROOT / "src" / "spellstack" / "actors" / "_coordinator.py",
                 ROOT / "src" / "spellstack" / "actors" / "_seat_channel.py"]:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("log", "_note") and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                logged.add(node.args[0].value)
    # Zone changes are logged under their cause when they have one (``move_object``'s cause).
    logged |= {"draw", "mulligan"}
    assert len(logged) > 30  # the scan found the calls
    assert logged - set(GAME_EVENT_KINDS) == set()


async def test_every_event_names_its_turn_step_and_a_registered_kind(tmp_path: Path) -> None:
    for seed in range(1, 6):
        path = tmp_path / f"{seed}.jsonl"
        await _traced(path, seed)
        events = _events(path)
        assert len(events) > 100
        for e in events:
            p = e["payload"]
            assert p["kind"] in GAME_EVENT_KINDS
            assert p["step"] in STEPS and p["turn"] >= 0
            assert e["receiver"] == "tracer" and e["sender"] in ("coordinator", "stack", "sba")
        turns = [e["payload"]["turn"] for e in events]
        assert turns == sorted(turns)  # numbered as they happened


async def test_the_kinds_carry_their_details(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    await _traced(path, 1)
    lines = _lines(path)
    events = [r["payload"] for r in lines if r.get("kind") == "GameEvent"]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        by_kind.setdefault(e["kind"], []).append(e)
    for e in by_kind["damage"]:
        source, recipient = e["refs"]
        assert e["amount"] > 0 and source >= 100 and recipient > 0
    for e in by_kind["zone"]:
        left, entered = e["zones"]
        assert left != entered and "to " in e["text"]
    for e in by_kind["attack"] + by_kind["block"]:
        assert len(e["refs"]) == 2 and e["subject"] == e["refs"][0]
    assert [e["player"] for e in by_kind["turn"]][:4] in ([0, 1, 0, 1], [1, 0, 1, 0])
    # Each automatic pass says which step it was made in, and each grant of priority comes
    # just before its request (nothing else between them).
    assert all(e["step"] for e in by_kind["auto_pass"])
    for i, r in enumerate(lines):
        if r.get("kind") == "PriorityRequest":
            before = lines[i - 1]
            assert before["kind"] == "GameEvent" and before["payload"]["kind"] == "priority"
            assert NAMES[before["payload"]["player"]] == r["receiver"].removeprefix("player:")
    # Every pass a player made itself is recorded.
    passes = [r for r in lines if r.get("kind") == "SubmitAction" and r["payload"]["action"]["kind"] == "pass"]
    assert len(passes) == len(by_kind["pass"]) > 0
    # A draw names the card only to the drawer.
    named = [e for e in by_kind["draw"] if e["private_to"]]
    assert named and all(len(e["private_to"]) == 1 for e in named)


class _RefusedOnce(RandomBot):
    """Plays a land that isn't there at its first priority, then plays as the random bot."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.tried = False

    def decide(self, view: Any, decision: Any) -> Any:
        if decision.kind == "priority" and not self.tried:
            self.tried = True
            return Action("play", 999_999)
        return super().decide(view, decision)


async def test_refusals_and_forfeits_are_events_with_their_reasons(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    await _traced(path, 2, bots=[_RefusedOnce(5), RandomBot(6)])
    refused = [e["payload"] for e in _events(path) if e["payload"]["kind"] == "refused"]
    assert len(refused) == 1 and refused[0]["player"] == 0
    assert refused[0]["text"].startswith("alice's action is refused: ") and "999999" in refused[0]["text"]

    class Crashes(RandomBot):
        def decide(self, view: Any, decision: Any) -> Any:
            raise RuntimeError("boom")

    path = tmp_path / "f.jsonl"
    await _traced(path, 2, bots=[RandomBot(5), Crashes(6)])
    forfeits = [e["payload"] for e in _events(path) if e["payload"]["kind"] == "forfeit"]
    assert [(f["player"], f["text"]) for f in forfeits] == [(1, "policy raised RuntimeError: boom")]


async def test_the_header_holds_decklists_entrants_and_seat_settings(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    stops = Stops(my_turn=("precombat_main",))
    await _traced(path, 3, configs=[SeatConfig(timeout=12.5, stops=stops), SeatConfig()], turn_limit=90,
                  game_id="match-7")
    header = _lines(path)[0]
    assert header["format"] == TRACE_FORMAT == 9 and header["game"] == "match-7" and header["turn_limit"] == 90
    assert sorted(header["decklists"]) == NAMES and len(header["decklists"]["alice"]) == 60
    assert header["entrants"] == {n: "spellstack.bots._random.RandomBot" for n in NAMES}
    assert header["seats"] == [
        {"name": "alice", "deadline": 12.5, "auto_pass": True,
         "stops": {"my_turn": ["precombat_main"], "opponents_turns": [], "stack": True}, "clock": None,
         "priority_views": False},
        {"name": "bob", "deadline": 30.0, "auto_pass": True, "stops": None, "clock": None,
         "priority_views": False}]
    read = read_trace(path)
    assert read.header.seats[0].stops == stops and read.header.turn_limit == 90
    assert [s.priority_views for s in read.header.seats] == [False, False]
    _, result = await replay_trace(read)
    assert result.final_hash == read.result.final_hash


@pytest.mark.slow
def test_no_clock_in_the_lines_unless_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain, stamped = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["play", "--seed", "4", "--trace", str(plain)]) == 0
    assert main(["play", "--seed", "4", "--trace", str(stamped), "--timestamps"]) == 0
    assert not any("timestamp" in r for r in _lines(plain))
    rows = _lines(stamped)
    assert all(r["timestamp"].endswith("Z") for r in rows)
    assert [{k: v for k, v in r.items() if k != "timestamp"} for r in rows] == _lines(plain)
    assert main(["play", "--timestamps"]) == 2
    assert "--timestamps is for the trace" in capsys.readouterr().err


@pytest.mark.slow
def test_play_trace_twice_gives_the_same_file_for_100_seeds(tmp_path: Path) -> None:
    for seed in range(100):
        a, b = tmp_path / f"{seed}a.jsonl", tmp_path / f"{seed}b.jsonl"
        assert main(["play", "--seed", str(seed), "--trace", str(a)]) == 0
        assert main(["play", "--seed", str(seed), "--trace", str(b)]) == 0
        assert a.read_bytes() == b.read_bytes(), seed


@pytest.mark.slow
async def test_fifty_at_a_time_give_the_same_lines_and_each_replays(tmp_path: Path) -> None:
    alone, together = tmp_path / "alone", tmp_path / "together"
    alone.mkdir()
    together.mkdir()
    seeds = range(100, 150)
    for seed in seeds:
        await _traced(alone / f"{seed}.jsonl", seed)
    async with trio.open_nursery() as nursery:
        for seed in seeds:
            nursery.start_soon(_traced, together / f"{seed}.jsonl", seed)
    for seed in seeds:
        path = together / f"{seed}.jsonl"
        assert path.read_bytes() == (alone / f"{seed}.jsonl").read_bytes(), seed
        trace = read_trace(path)
        _, result = await replay_trace(trace)
        assert result.final_hash == trace.result.final_hash


# ---------------------------------------------------------------------- each event once

_EVENT_FIELDS = ("kind", "player", "text", "subject", "amount", "private_to")
"""What an event carried inside a reply had (``rules.Event``); a ``GameEvent`` has these too."""
_KERNEL_ACTORS = ("stack", "sba")
_COUNTED = ("Resolved", "SBABatch")


def carried_again(records: list[dict[str, Any]]) -> int:
    """How many events a message other than their ``GameEvent`` carries again: every map in a
    payload with an event's fields that equals one of the trace's ``GameEvent``s."""
    events = {tuple(json.dumps(r["payload"][k]) for k in _EVENT_FIELDS)
              for r in records if r.get("kind") == "GameEvent"}
    again = 0
    todo = [r["payload"] for r in records[1:-1] if r["kind"] != "GameEvent"]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if all(k in node for k in _EVENT_FIELDS):
                again += tuple(json.dumps(node[k]) for k in _EVENT_FIELDS) in events
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return again


def as_format_5(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A format-6 trace as format 5 wrote the same game: each ``Resolved`` and ``SBABatch`` with
    the events of its actor since the request (its ``GameEvent``s) again, in place of the count."""
    out = [dict(records[0], format=5)]
    batch: list[dict[str, Any]] = []
    for r in records[1:-1]:
        r = dict(r)
        if r["kind"] in ("Resolve", "CheckSBA"):
            batch = []
        elif r["kind"] == "GameEvent" and r["sender"] in _KERNEL_ACTORS:
            batch.append({k: r["payload"][k] for k in _EVENT_FIELDS})
        elif r["kind"] in _COUNTED:
            payload = {k: v for k, v in r["payload"].items() if k != "count"}
            assert r["payload"]["count"] == len(batch), r
            r["payload"] = {**payload, "events": batch}
        out.append(r)
    return [*out, records[-1]]


def _write(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r, separators=(",", ":"), sort_keys=True) + "\n" for r in records),
                    "utf-8")


def as_format_8(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A format-9 trace whose seats were all sent every view, as format 8 wrote it: seats
    without their ``priority_views``."""
    header = dict(records[0], format=8)
    assert all(seat["priority_views"] is True for seat in header["seats"])
    header["seats"] = [{k: v for k, v in seat.items() if k != "priority_views"} for seat in header["seats"]]
    assert all(r["payload"]["view"] is not None for r in records[1:-1]
               if r["kind"] in ("PriorityRequest", "DecisionRequest"))
    return [header, *records[1:]]


async def test_a_format_8_trace_is_read_as_format_9_and_replays_line_for_line(tmp_path: Path) -> None:
    path, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    await _traced(path, 4, views=True)
    records = _lines(path)
    _write(old, as_format_8(records))
    new_trace, old_trace = read_trace(path), read_trace(old)
    assert (new_trace.header.format, old_trace.header.format) == (9, 8)
    assert old_trace.header.seats == new_trace.header.seats
    assert all(s.priority_views for s in old_trace.header.seats)
    assert [record_json(m) for m in old_trace.messages] == [record_json(m) for m in new_trace.messages]
    check = await check_replay(old_trace)
    assert check.identical and check.compared == len(records) - 2


async def test_a_format_9_seat_without_priority_views_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    await _traced(path, 4)
    records = _lines(path)
    records[0]["seats"][1] = {k: v for k, v in records[0]["seats"][1].items() if k != "priority_views"}
    _write(path, records)
    with pytest.raises(TraceRecordError, match="each seat has a true or false 'priority_views'"):
        read_trace(path)


def as_format_7(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A format-8 trace of a game without game clocks as format 7 wrote it: seats and requests
    without their ``clock``."""
    header = dict(records[0], format=7)
    assert all(seat["clock"] is None for seat in header["seats"])
    header["seats"] = [{k: v for k, v in seat.items() if k != "clock"} for seat in header["seats"]]
    out = [header]
    for r in records[1:-1]:
        if r["kind"] in ("PriorityRequest", "DecisionRequest"):
            assert r["payload"]["clock"] is None
            r = {**r, "payload": {k: v for k, v in r["payload"].items() if k != "clock"}}
        out.append(r)
    assert "clock_left" not in records[-1]
    return [*out, records[-1]]


async def test_a_format_7_trace_is_read_as_format_9_and_replays_line_for_line(tmp_path: Path) -> None:
    path, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    await _traced(path, 5, views=True)
    records = _lines(path)
    _write(old, as_format_7(as_format_8(records)))
    assert '"clock"' in path.read_text("utf-8") and '"clock"' not in old.read_text("utf-8")
    new_trace, old_trace = read_trace(path), read_trace(old)
    assert (new_trace.header.format, old_trace.header.format) == (9, 7)
    assert old_trace.header.seats == new_trace.header.seats
    assert [record_json(m) for m in old_trace.messages] == [record_json(m) for m in new_trace.messages]
    check = await check_replay(old_trace)
    assert check.identical and check.compared == len(records) - 2


async def test_a_format_6_trace_is_read_as_format_9_and_replays_line_for_line(tmp_path: Path) -> None:
    path, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    await _traced(path, 3, views=True)
    records = _lines(path)
    _write(old, as_format_6(as_format_7(as_format_8(records))))
    assert '"marks"' in path.read_text("utf-8") and '"marks"' not in old.read_text("utf-8")
    new_trace, old_trace = read_trace(path), read_trace(old)
    assert (new_trace.header.format, old_trace.header.format) == (9, 6)
    assert [record_json(m) for m in old_trace.messages] == [record_json(m) for m in new_trace.messages]
    check = await check_replay(old_trace)
    assert check.identical and check.compared == len(records) - 2


async def test_each_event_is_carried_once(tmp_path: Path) -> None:
    """The game of ``spellstack play --seed 1``: each event is in the trace once, as its
    ``GameEvent``; the replies of the stack actor and the SBA checker count their events."""
    path = tmp_path / "seed1.jsonl"
    await _traced(path, 1)
    records = _lines(path)
    assert carried_again(records) == 0
    replies = [r for r in records[1:-1] if r["kind"] in _COUNTED]
    assert replies and all(set(r["payload"]) <= {"object_id", "name", "count"} for r in replies)
    counted = sum(r["payload"]["count"] for r in replies)
    from_actors = sum(r["kind"] == "GameEvent" and r["sender"] in _KERNEL_ACTORS for r in records[1:-1])
    assert counted == from_actors > 0
    # The same game as format 5 wrote it carried 94 of them twice: the check sees them.
    assert carried_again(as_format_5(records)) == 94


def as_format_6(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A format-7 trace of a game with no marked permanent and no dungeon as format 6 wrote it:
    object views without ``marks``, players in views without their dungeon."""
    out = [dict(records[0], format=6)]
    for r in records[1:-1]:
        view = r["payload"].get("view")
        if view is not None:
            assert all(o["marks"] is None for o in view["objects"])
            view = {**view, "objects": [{k: v for k, v in o.items() if k != "marks"} for o in view["objects"]],
                    "players": [{k: v for k, v in p.items() if k not in ("dungeon", "room", "completed_dungeons")}
                                for p in view["players"]]}
            r = {**r, "payload": {**r["payload"], "view": view}}
        out.append(r)
    return [*out, records[-1]]


async def test_a_format_5_trace_is_read_as_format_9_and_replays_line_for_line(tmp_path: Path) -> None:
    path, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    await _traced(path, 2, views=True)
    records = _lines(path)
    _write(old, as_format_5(as_format_6(as_format_7(as_format_8(records)))))
    assert '"events":[{' in old.read_text("utf-8")  # the replies carry their events
    assert '"marks"' not in old.read_text("utf-8")
    new_trace, old_trace = read_trace(path), read_trace(old)
    assert (new_trace.header.format, old_trace.header.format) == (9, 5)
    assert [record_json(m) for m in old_trace.messages] == [record_json(m) for m in new_trace.messages]
    check = await check_replay(old_trace)
    assert check.identical and check.compared == len(records) - 2


DOC = ROOT / "docs" / "trace-format.md"


def test_the_page_lists_every_event_kind_with_its_meaning() -> None:
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| (.+) \|$", DOC.read_text("utf-8"), re.M))
    assert {k: rows.get(k) for k in GAME_EVENT_KINDS} == dict(GAME_EVENT_KINDS)


def test_the_pages_excerpt_is_lines_of_the_game_it_names(tmp_path: Path) -> None:
    """The page's JSON lines are, verbatim, lines of the counterspell war the page plays."""
    text = DOC.read_text("utf-8")
    excerpt = re.search(r"## An excerpt.*?```text\n(.*?)```", text, re.S)
    assert excerpt is not None
    shown = excerpt.group(1).splitlines()
    trace = tmp_path / "war.jsonl"
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "counterspell_war.py"), "--seed", "1",
                           "--trace", str(trace)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    lines = trace.read_text("utf-8").splitlines()
    assert len(shown) == 4 and all(line in lines for line in shown)
