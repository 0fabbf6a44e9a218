"""A trace cut short (its game killed: no result line, perhaps a last line cut in the middle) is
read up to its last complete record by every tool: ``trace show``, ``stats``, ``why``,
``html`` and ``replay`` say where it ends, a line cut off is named and skipped; what is not a
trace at all is still refused in one line. The cuts are made as ``head -c`` and a dropped
result line make them, from the trace of ``spellstack play --seed 1``."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from spellstack.trace import read_trace
from tests.trace.trace_helpers import Run, raw_records

TOOLS = (("trace", "show"), ("trace", "stats"), ("trace", "why", "--seq", "5"),
         ("trace", "html", "-o", "PAGE"), ("replay",))
"""Every command that reads a trace (``PAGE``: a page to write)."""


def _argv(tool: tuple[str, ...], path: Path) -> list[str]:
    """``tool`` run on ``path``, its page written beside it."""
    page = str(path.with_suffix(".html"))
    return [*tool[:2], str(path), *(page if a == "PAGE" else a for a in tool[2:])] if tool[0] == "trace" \
        else [*tool, str(path)]


def _without_result(game: Path, folder: Path) -> Path:
    """The trace with its result line dropped (``head -n -1``)."""
    out = folder / "noresult.jsonl"
    out.write_bytes(b"".join(game.read_bytes().splitlines(keepends=True)[:-1]))
    return out


def _cut(game: Path, folder: Path, size: int = 300_000) -> Path:
    """The trace's first ``size`` bytes (``head -c SIZE``)."""
    out = folder / "cut.jsonl"
    out.write_bytes(game.read_bytes()[:size])
    return out


def _last_seq(path: Path) -> int:
    """The last complete record's seq, read here from the raw bytes."""
    lines = path.read_bytes().split(b"\n")
    return int(orjson.loads(lines[-2])["seq"])  # the last line is b"" or cut off


@pytest.mark.slow
def test_the_reader_keeps_every_complete_line_and_names_the_one_cut_off(game: Path, tmp_path: Path) -> None:
    whole = read_trace(game)
    dropped = read_trace(_without_result(game, tmp_path))
    assert dropped.result is None and dropped.cut_line == 0
    assert dropped.messages == whole.messages and dropped.last_seq == whole.last_seq
    cut = _cut(game, tmp_path)
    complete = cut.read_bytes().count(b"\n")
    assert not cut.read_bytes().endswith(b"\n")  # the cut falls inside a line
    trace = read_trace(cut)
    assert trace.result is None and trace.cut_line == complete + 1
    assert trace.messages == whole.messages[:complete - 1]
    assert trace.last_seq == _last_seq(cut) == complete - 1


def test_a_cut_inside_a_character_is_a_cut_line_not_a_file_that_is_not_utf8(game: Path, tmp_path: Path) -> None:
    lines = game.read_bytes().splitlines(keepends=True)[:10]
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"".join(lines) + '{"event":"message","game":"é'.encode()[:-1])
    trace = read_trace(path)
    assert (trace.cut_line, trace.last_seq, trace.result) == (11, 9, None)


@pytest.mark.parametrize("how", ["no result line", "cut mid-line"])
def test_show_stats_and_why_read_up_to_the_cut(cli: Run, game: Path, tmp_path: Path, how: str) -> None:
    path = _without_result(game, tmp_path) if how == "no result line" else _cut(game, tmp_path)
    last = _last_seq(path)
    note = "" if how == "no result line" else \
        f"note: {path}: line {last + 2} is cut off; read up to line {last + 1}\n"
    records = raw_records(game)[1:last + 1]
    turns = max(r["payload"]["turn"] for r in records if r["kind"] == "GameEvent")

    code, out, err = cli("trace", "show", str(path))
    assert (code, err) == (0, note)
    whole = cli("trace", "show", str(game))[1].splitlines()
    shown = out.splitlines()
    assert shown[-1] == f"-- the trace ends here without a result (cut after record {last}) --"
    # every line before the end is the whole trace's (the numbers' column may be narrower)
    assert [ln.strip() for ln in shown[:-2]] == [ln.strip() for ln in whole[:len(shown) - 2]]
    # ... and it stops at the cut: the whole trace's next numbered line starts after it (a step
    # change cut off with nothing after it is a heading, shown with what follows it)
    numbered = [ln for ln in whole[len(shown) - 1:] if re.match(r"\s*\d", ln)]
    assert not numbered or int(re.match(r"\s*(\d+)", numbered[0]).group(1)) > last  # type: ignore[union-attr]
    assert re.match(r"\s*(\d+-)?(\d+)  ", shown[-2])

    code, out, err = cli("trace", "stats", str(path))
    assert (code, err) == (0, note)
    assert out.splitlines()[1:3] == [f"result: none (cut after record {last})", f"turns: {turns}"]

    changes = [r["seq"] for r in records if r["kind"] == "GameEvent"
               and r["payload"]["kind"] in ("step", "turn", "resolve")]
    for seq in (changes[0], changes[-1]):  # the first step change, the last one or resolution
        code, out, err = cli("trace", "why", str(path), "--seq", str(seq))
        assert (code, err) == (0, note) and out == cli("trace", "why", str(game), "--seq", str(seq))[1]
    # A question the trace can't answer is one line, the note left out: bad input says why only.
    code, _, err = cli("trace", "why", str(path), "--seq", str(last + 1))
    assert (code, err) == (2, f"spellstack trace: no record numbered {last + 1} (the trace's records go "
                              f"from 1 to {last})\n")


def test_show_as_a_player_ends_at_its_own_last_line(cli: Run, game: Path, tmp_path: Path) -> None:
    # A player's lines are numbered from 1, so that no number tells how many records it was
    # not shown: the cut is told in its numbers, filtered or not.
    path = _cut(game, tmp_path)
    _, out, _ = cli("trace", "show", str(path), "--as", "bob")
    lines = out.splitlines()
    n = int(lines[-2].split()[0])
    assert lines[-1] == f"-- the trace ends here without a result (cut after record {n}) --"
    assert str(_last_seq(path)) not in lines[-1]
    _, out, _ = cli("trace", "show", str(path), "--as", "bob", "--turn", "1")
    assert out.splitlines()[-1] == lines[-1]


@pytest.mark.parametrize("how", ["no result line", "cut mid-line"])
@pytest.mark.slow
def test_the_page_says_where_the_trace_ends(cli: Run, game: Path, tmp_path: Path, how: str) -> None:
    path = _without_result(game, tmp_path) if how == "no result line" else _cut(game, tmp_path)
    page = tmp_path / "page.html"
    for viewer, last in ((), _last_seq(path)), (("--as", "bob"), None):
        code, _, _ = cli("trace", "html", str(path), "-o", str(page), *viewer)
        assert code == 0
        found = re.search(r'id="trace-data">(.*?)</script>', page.read_text("utf-8"), re.S)
        assert found is not None
        data = orjson.loads(found.group(1))
        if last is None:  # bob's page: its own last line
            last = len(data["lines"])
        assert data["result"]["cut"] == last and data["result"]["reason"] == ""
        turns = max(r["payload"]["turn"] for r in raw_records(game)[1:_last_seq(path) + 1]
                    if r["kind"] == "GameEvent")
        assert data["result"]["turns"] == turns
    code, _, _ = cli("trace", "html", str(game), "-o", str(page))
    found = re.search(r'id="trace-data">(.*?)</script>', page.read_text("utf-8"), re.S)
    assert found is not None and orjson.loads(found.group(1))["result"]["cut"] is None


@pytest.mark.parametrize("how", ["no result line", "cut mid-line"])
def test_replay_checks_every_line_up_to_the_cut(cli: Run, game: Path, tmp_path: Path, how: str) -> None:
    path = _without_result(game, tmp_path) if how == "no result line" else _cut(game, tmp_path)
    code, out, _ = cli("replay", str(path))
    assert (code, out) == (0, f"identical up to record {_last_seq(path)}; the trace has no result line\n")


def test_replay_of_a_cut_trace_still_finds_a_line_that_differs(cli: Run, game: Path, tmp_path: Path) -> None:
    path = _cut(game, tmp_path)
    lines = path.read_bytes().split(b"\n")
    # a recorded line the replay can't reproduce: the text of an event near the cut
    i = max(k for k, line in enumerate(lines[:-1]) if b'"kind":"step"' in line)
    seq = orjson.loads(lines[i])["seq"]
    lines[i] = lines[i].replace(b'"text":"', b'"text":"edited ', 1)
    path.write_bytes(b"\n".join(lines))
    code, out, _ = cli("replay", str(path))
    assert code == 1 and out.startswith(f"divergence at seq {seq}, after {seq - 1} identical message lines\n")
    assert "(recorded none: the trace has no result line)" in out


@pytest.mark.parametrize("data, problem", [
    (b"", "line 1: the file is empty"),
    (b"\x00\x01\xff\xfe binary", "line 1: not UTF-8 text (byte 2)"),
    (b'{"event":"message","seq":1}\n', "line 1: the first line must be a header"),
    (b'{"decklists":{"alice":["Mountain"', "line 1: the file ends in the middle of this line"),
])
def test_what_is_not_a_trace_is_still_refused_by_every_tool(cli: Run, tmp_path: Path, data: bytes,
                                                           problem: str) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(data)
    for tool in TOOLS:
        code, out, err = cli(*_argv(tool, path))
        assert (code, out) == (2, ""), tool
        assert err.count("\n") == 1 and re.match(r"spellstack \w+: not a trace: ", err), err
        assert f"x.jsonl: {problem}" in err, (tool, err)


def test_a_folder_is_still_refused_by_every_tool(cli: Run, tmp_path: Path) -> None:
    for tool in TOOLS:
        code, out, err = cli(*_argv(tool, tmp_path))
        assert (code, out) == (2, "") and err.endswith(f"{tmp_path}: not a file\n"), (tool, err)


def _step_changes(path: Path) -> list[int]:
    """The seqs of the step changes and resolutions among the file's complete lines."""
    lines = path.read_bytes().split(b"\n")[1:-1]  # the header; the last line: b"" or cut off
    records = [orjson.loads(line) for line in lines]
    return [r["seq"] for r in records if r.get("kind") == "GameEvent"
            and r["payload"]["kind"] in ("step", "turn", "resolve")]


def _every_tool_reads_up_to_the_cut(cli: Run, path: Path, whole: Path | None = None) -> None:
    """``trace show``, ``stats``, ``why`` (on the last step change present: the whole trace's
    answer, if ``whole`` is given), ``html`` and ``replay`` on the cut trace ``path``: each exits
    0 and says where the trace ends."""
    last = _last_seq(path)
    data = path.read_bytes()
    note = "" if data.endswith(b"\n") else \
        f"note: {path}: line {last + 2} is cut off; read up to line {last + 1}\n"
    end = f"cut after record {last}"

    code, out, err = cli("trace", "show", str(path))
    assert (code, err) == (0, note) and out.splitlines()[-1] == f"-- the trace ends here without a result ({end}) --"
    code, out, err = cli("trace", "stats", str(path))
    assert (code, err) == (0, note) and out.splitlines()[1] == f"result: none ({end})"
    seq = _step_changes(path)[-1]
    code, out, err = cli("trace", "why", str(path), "--seq", str(seq))
    assert (code, err) == (0, note) and out.splitlines()[0].endswith(f"(record {seq})"), out
    if whole is not None:
        assert out == cli("trace", "why", str(whole), "--seq", str(seq))[1]
    page = path.with_suffix(".html")
    code, _, err = cli("trace", "html", str(path), "-o", str(page))
    assert (code, err) == (0, note)
    found = re.search(r'id="trace-data">(.*?)</script>', page.read_text("utf-8"), re.S)
    assert found is not None and orjson.loads(found.group(1))["result"]["cut"] == last
    code, out, err = cli("replay", str(path))
    assert (code, out) == (0, f"identical up to record {last}; the trace has no result line\n"), err


@pytest.mark.slow
def test_a_play_killed_mid_game_leaves_a_trace_every_tool_reads(cli: Run, tmp_path: Path) -> None:
    # The 80-turn game; killed with SIGKILL once its trace holds some 300 KB (of about 1.4 MB).
    path = tmp_path / "k.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "spellstack", "play", "--deck", "orzhov", "--deck", "dimir",
                             "--seed", "6", "--trace", str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while (not path.exists() or path.stat().st_size < 300_000) and proc.poll() is None:
            assert time.monotonic() < deadline, "the trace did not grow to 300 KB within 60 s"
            time.sleep(0.05)
        assert proc.poll() is None, f"the game ended before it was killed: {proc.stderr.read() if proc.stderr else ''}"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=30)
        if proc.stderr is not None:
            proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    assert b'"event":"result"' not in path.read_bytes()
    _every_tool_reads_up_to_the_cut(cli, path)


def _cuts(game: Path) -> list[int]:
    """Ten sizes to cut ``game`` to: five at the end of a line, five inside one (the middle of
    the next line), spread over the game past its first steps."""
    data = game.read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")][:-1]  # not the result line's
    chosen = [ends[len(ends) * k // 11] for k in range(1, 11)]
    return [end if k % 2 == 0 else (end + ends[ends.index(end) + 1]) // 2 for k, end in enumerate(chosen)]


@pytest.mark.slow
def test_a_trace_cut_at_ten_points_is_read_by_every_tool_at_each(cli: Run, game: Path, tmp_path: Path) -> None:
    data = game.read_bytes()
    cuts = _cuts(game)
    assert len(set(cuts)) == 10
    assert sum(data[:size].endswith(b"\n") for size in cuts) == 5  # five at a line's end, five inside one
    for size in cuts:
        path = tmp_path / f"cut{size}.jsonl"
        path.write_bytes(data[:size])
        _every_tool_reads_up_to_the_cut(cli, path, whole=game)
