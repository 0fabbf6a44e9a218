"""``spellstack trace why`` and ``spellstack replay`` on malformed traces: each run of either
ends in exit 0, 1 or 2, an exit 2 says why in one line on stderr, and nothing ends in a
traceback. The traces are mutations of a real one: one value replaced by a value of another
type, or the file cut short, or a record nested deeper than the reader allows."""

from __future__ import annotations

import contextlib
import copy
import io
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import trio

from spellstack.actors import SeatConfig, play_one_game
from spellstack.cli import main
from spellstack.trace import MAX_DEPTH
from tests.trace_why._trace_why_games import load_example

VALUES: tuple[Any, ...] = (
    None, [], {}, [1, "x"], {"x": 1}, {"kind": []},
    2**63 - 1, -(2**63), 2**64 - 1, -1, 0, 1.5, -0.0, 1e308,
    "", "x", "x" * 100_000, "a\nb\x1b[31m", True,
)
"""What a value is replaced with: null, lists, maps, huge and negative integers, floats, long
strings and strings with control characters."""

MUTATIONS = 2_100
"""Single-value mutations tried (each run through both commands)."""

_DEEP = "@@deep@@"
"""A placeholder string, replaced in the written line by brackets nested deep (a value the
JSON printers refuse to write)."""


@pytest.fixture(scope="module")
def short_war(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The counterspell war game to turn 7 (casts, a counter, attacks), as JSON records: a
    real trace small enough to replay thousands of times."""
    example = load_example()
    path = tmp_path_factory.mktemp("fuzz") / "war7.jsonl"
    trio.run(lambda: play_one_game([example.DECK, example.DECK], [example.Duelist(), example.Duelist()],
                                   1, names=["alice", "bob"], trace_path=path,
                                   configs=[SeatConfig(), SeatConfig()], turn_limit=7))
    records = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    kinds = {r["payload"]["kind"] for r in records if r.get("kind") == "GameEvent"}
    assert {"cast", "counter", "resolve", "step", "pass"} <= kinds  # what `trace why` reads
    return records


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in ``value``: itself, then each item of its lists and maps, depth first."""
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, (*path, key))


def _replaced(record: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of ``record`` with the value at ``path`` replaced by ``new``."""
    if not path:
        return new
    out = copy.deepcopy(record)
    inner = out
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = new
    return out


def _write(path: Path, records: list[Any], deep: int = 0) -> Path:
    text = b"".join(orjson.dumps(r) + b"\n" for r in records)
    path.write_bytes(text.replace(orjson.dumps(_DEEP), b"[" * deep + b"]" * deep))
    return path


def _run(*argv: str) -> tuple[int, str, str]:
    """``spellstack ARGV`` in this process: its exit status, stdout and stderr. An exception
    that escapes ``main`` is a traceback for the user: it fails the test here."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _commands(path: Path, seq: int) -> list[tuple[str, ...]]:
    p = str(path)
    return [("trace", "why", p, "--seq", str(seq)), ("trace", "why", p, "--object", "Counterspell"),
            ("trace", "why", p, "--object", "Nothing Of That Name"), ("replay", p)]


def _check(argv: tuple[str, ...], what: str) -> int:
    try:
        code, _, err = _run(*argv)
    except BaseException as exc:  # any escape is what this test looks for
        raise AssertionError(f"{what}: {' '.join(argv[:2])} raised {type(exc).__name__}: {exc}"[:500]) from exc
    assert code in (0, 1, 2), f"{what}: {argv[:2]} exited {code}"
    if code == 2:
        assert err.count("\n") == 1 and err.endswith("\n"), f"{what}: {argv[:2]} said {err[:300]!r}"
        assert len(err) <= 1_000, f"{what}: {argv[:2]} said {len(err)} characters"
    return code


@pytest.mark.slow
def test_single_value_mutations_end_in_0_1_or_2_with_one_line(short_war: list[dict[str, Any]],
                                                              tmp_path: Path) -> None:
    # Each record kind is as likely to be picked as any other: the few records `trace why`
    # and `replay` decode (Resolve, SubmitAnswer, the header) are hit as often as GameEvents.
    by_kind: dict[str, list[int]] = defaultdict(list)
    for i, record in enumerate(short_war):
        by_kind[record.get("kind", record["event"])].append(i)
    kinds = sorted(by_kind)
    rng = random.Random(32)
    codes: dict[int, int] = defaultdict(int)
    path = tmp_path / "mutated.jsonl"
    for n in range(MUTATIONS):
        i = rng.choice(by_kind[rng.choice(kinds)])
        where = rng.choice(list(_paths(short_war[i])))
        new = rng.choice(VALUES)
        records = [*short_war[:i], _replaced(short_war[i], where, new), *short_war[i + 1:]]
        _write(path, records)
        what = f"mutation {n}: line {i + 1} at {where} = {new!r}"[:200]
        for argv in _commands(path, int(short_war[i].get("seq", 1))):
            codes[_check(argv, what)] += 1
    # The mutations reach every outcome: an answer, a divergence, a refusal.
    assert codes[0] and codes[1] and codes[2], dict(codes)


@pytest.mark.slow
def test_structural_mutations_end_in_0_1_or_2_with_one_line(short_war: list[dict[str, Any]],
                                                            tmp_path: Path) -> None:
    text = _write(tmp_path / "whole.jsonl", short_war).read_bytes()
    rng = random.Random(7)
    cases: list[tuple[str, bytes]] = []
    for cut in [*rng.sample(range(1, len(text)), 40), 0, len(text) - 1]:  # cut short anywhere
        cases.append((f"cut at byte {cut}", text[:cut]))
    lines = text.splitlines(keepends=True)
    for i in rng.sample(range(len(lines)), 20):
        cases.append((f"line {i + 1} removed", b"".join(lines[:i] + lines[i + 1:])))
        cases.append((f"line {i + 1} twice", b"".join(lines[:i + 1] + lines[i:])))
    for depth in (MAX_DEPTH, MAX_DEPTH + 1, 254, 255, 256, 1_000, 1_023, 1_024, 1_025, 5_000):
        for i in (0, 1, 40, len(short_war) // 2, len(short_war) - 1):
            # In a payload (where `replay` prints a line that differs) or beside the header's fields.
            where = ("payload", "x") if "payload" in short_war[i] else ("x",)
            deep = _write(tmp_path / "deep.jsonl", [*short_war[:i], _replaced(short_war[i], where, _DEEP),
                                                    *short_war[i + 1:]], depth)
            cases.append((f"line {i + 1} nested {depth} deep", deep.read_bytes()))
    path = tmp_path / "mutated.jsonl"
    for what, data in cases:
        path.write_bytes(data)
        for argv in _commands(path, 40):
            _check(argv, what)


def _one_line(path: Path, *argv: str) -> str:
    code, out, err = _run(*argv, str(path)) if argv[0] == "replay" else _run(*argv[:2], str(path), *argv[2:])
    assert code == 2 and out == "" and err.count("\n") == 1, (code, err)
    return err


def _edited(records: list[dict[str, Any]], tmp_path: Path, pick: str, where: tuple[Any, ...],
            new: Any) -> Path:
    """The trace with the first record of kind ``pick`` (a message kind, or ``GameEvent:KIND``)
    changed at ``where``."""
    kind, _, event = pick.partition(":")
    i = next(i for i, r in enumerate(records) if r.get("kind") == kind
             and (not event or r["payload"]["kind"] == event))
    return _write(tmp_path / "edited.jsonl", [*records[:i], _replaced(records[i], where, new), *records[i + 1:]])


@pytest.mark.parametrize("pick, where, new, said", [
    ("GameEvent:cast", ("payload",), {}, r"GameEvent: payload\.turn: missing required field"),
    ("GameEvent:cast", ("payload", "kind"), [], r"GameEvent: payload\.kind: expected str, got list"),
    ("GameEvent:step", ("payload", "turn"), None, r"GameEvent: payload\.turn: expected int, got None"),
    ("Resolved", ("payload", "object_id"), "x", r"Resolved: payload\.object_id: expected int, got str 'x'"),
    ("Resolve", ("payload", "object_id"), [1], r"Resolve: payload\.object_id: expected int, got list"),
])
def test_trace_why_refuses_a_payload_that_does_not_decode_in_one_line(
        short_war: list[dict[str, Any]], tmp_path: Path, pick: str, where: tuple[Any, ...], new: Any,
        said: str) -> None:
    path = _edited(short_war, tmp_path, pick, where, new)
    for argv in (("trace", "why", "--seq", "40"), ("trace", "why", "--object", "Counterspell")):
        err = _one_line(path, *argv)
        assert err.startswith("spellstack trace: not a trace: ") and " line " in err
        assert re.search(said, err), err


@pytest.mark.parametrize("where, new", [
    (("payload", "action", "kind"), None),
    (("payload", "action", "targets"), 1.5),
    (("payload", "action"), {"x": 1}),
])
def test_replay_refuses_an_answer_that_does_not_decode_in_one_line(
        short_war: list[dict[str, Any]], tmp_path: Path, where: tuple[Any, ...], new: Any) -> None:
    path = _edited(short_war, tmp_path, "SubmitAction", where, new)
    err = _one_line(path, "replay")
    assert err.startswith("spellstack replay: not a trace: ") and "SubmitAction: payload.action" in err


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, 1_000])
def test_a_record_nested_deeper_than_the_limit_is_refused_naming_its_line(
        short_war: list[dict[str, Any]], tmp_path: Path, depth: int) -> None:
    # The record is level 1 and its payload level 2: lists nested MAX_DEPTH - 1 deep in a
    # field of the payload go past the limit; one level fewer is read.
    i = next(i for i, r in enumerate(short_war) if r.get("kind") == "GameEvent")
    path = _write(tmp_path / "deep.jsonl", [*short_war[:i], _replaced(short_war[i], ("payload", "x"), _DEEP),
                                            *short_war[i + 1:]], depth)
    for argv in (("replay",), ("trace", "why", "--seq", "1"), ("trace", "show")):
        err = _one_line(path, *argv)
        assert err.endswith(f": line {i + 1}: lists and objects nested more than {MAX_DEPTH} levels deep\n"), err
    _write(path, [*short_war[:i], _replaced(short_war[i], ("payload", "x"), _DEEP), *short_war[i + 1:]],
           MAX_DEPTH - 2)
    err = _one_line(path, "trace", "why", "--seq", "1")
    assert err.endswith(f": line {i + 1}: GameEvent: payload: unknown field 'x' for GameEvent\n"), err


def test_names_quoted_from_the_trace_are_escaped(short_war: list[dict[str, Any]], tmp_path: Path) -> None:
    i = next(i for i, r in enumerate(short_war) if r.get("kind") == "GameEvent" and r["payload"]["kind"] == "cast")
    text = short_war[i]["payload"]["text"].replace("casts ", "casts Bad\nName ")
    path = _write(tmp_path / "named.jsonl", [*short_war[:i], _replaced(short_war[i], ("payload", "text"), text),
                                             *short_war[i + 1:]])
    err = _one_line(path, "trace", "why", "--object", "Nothing")
    assert "'Bad\\nName" in err
