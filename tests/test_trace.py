"""Reading traces into records and replaying them (``spellstack.trace``): a replay rebuilds the
recorded final state, and each kind of broken file is refused naming its line and the fault."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from spellstack import RandomBot, play_one_game, read_trace, replay_trace
from spellstack.actors import TRACE_FORMAT
from spellstack.rules import Action, Answer
from spellstack.trace import (
    ReplayMismatchError,
    Trace,
    TraceError,
    TraceFormatError,
    TraceHeaderError,
    TraceNotJSONError,
    TraceRecordError,
    TraceTruncatedError,
    parse_trace,
)

DECKS = ["gruul", "orzhov"]
NAMES = ["alice", "bob"]


async def _traced(path: Path, seed: int, decks: list[str] = DECKS) -> None:
    await play_one_game(decks, [RandomBot(2 * seed), RandomBot(2 * seed + 1)], seed, names=NAMES,
                        trace_path=path)


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("trace") / "t.jsonl"
    trio.run(_traced, path, 1)
    return path


def _lines(path: Path) -> list[str]:
    return path.read_text("utf-8").splitlines(keepends=True)


def _write(tmp_path: Path, lines: list[str]) -> Path:
    out = tmp_path / "broken.jsonl"
    out.write_text("".join(lines), "utf-8")
    return out


# --------------------------------------------------------------------------- reading and replaying


@pytest.mark.parametrize("seed", [1, 2, 7])
async def test_a_replayed_trace_reaches_the_recorded_final_state(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "t.jsonl"
    await _traced(path, seed)
    trace = read_trace(path)
    assert trace.header.seed == seed and trace.header.players == tuple(NAMES)
    game, result = await replay_trace(trace)
    assert result.final_hash == trace.result.final_hash == game.state.state_hash()
    assert (result.winner, result.reason, result.turns) == (
        trace.result.winner, trace.result.reason, trace.result.turns)


async def test_replaying_to_a_file_writes_the_same_trace(tmp_path: Path, traced: Path) -> None:
    again = tmp_path / "again.jsonl"
    await replay_trace(read_trace(traced), trace_path=again)
    assert again.read_bytes() == traced.read_bytes()


def test_the_records_are_the_lines_of_the_file(traced: Path) -> None:
    trace = read_trace(traced)
    lines = _lines(traced)
    assert trace.header.format == TRACE_FORMAT
    assert dict(trace.header.decks) == dict(zip(NAMES, DECKS, strict=True))
    assert len(trace.messages) == len(lines) - 2
    assert [m.seq for m in trace.messages] == list(range(1, len(lines) - 1))
    assert [m.line for m in trace.messages] == list(range(2, len(lines)))
    assert trace.result.winner in NAMES and trace.result.seed == 1
    assert trace.source == str(traced)
    assert all(m.decode().KIND == m.kind for m in trace.messages)


def test_each_players_replies_are_its_submitted_actions_and_answers(traced: Path) -> None:
    trace = read_trace(traced)
    for name in NAMES:
        replies = trace.replies(name)
        sent = [m for m in trace.messages
                if m.sender == f"player:{name}" and m.kind in ("SubmitAction", "SubmitAnswer")]
        assert len(replies) == len(sent) > 0
        assert all(isinstance(r, Action | Answer) for r in replies)
        assert trace.stops(name) is None


async def test_a_changed_answer_is_a_mismatch(traced: Path) -> None:
    trace = read_trace(traced)
    lines = _lines(traced)
    # alice's first land drop becomes a pass: the game goes another way.
    i = next(k for k, line in enumerate(lines) if '"sender":"player:alice"' in line
             and '"kind":"play"' in line)
    lines[i] = lines[i].replace('"kind":"play"', '"kind":"pass"', 1)
    changed = parse_trace(lines, "changed")
    assert changed.replies("alice") != trace.replies("alice")
    with pytest.raises(ReplayMismatchError, match=r"final state hash|recorded replies"):
        await replay_trace(changed)


async def test_a_game_played_from_a_deck_file_replays_from_its_trace_alone(tmp_path: Path) -> None:
    deck = tmp_path / "mono.toml"
    deck.write_text('name = "Mono Mountains"\n[cards]\nMountain = 20\n"Grizzly Bears" = 20\n',
                    "utf-8")
    path = tmp_path / "t.jsonl"
    await _traced(path, 3, [str(deck), "orzhov"])
    deck.unlink()  # the header's decklists are enough
    trace = read_trace(path)
    assert trace.header.decks["alice"] == "Mono Mountains"
    assert sorted(set(trace.header.decklists["alice"])) == ["Grizzly Bears", "Mountain"]
    _, result = await replay_trace(trace)
    assert result.final_hash == trace.result.final_hash
    # Decks given override the header's: another deck is another game.
    with pytest.raises(ReplayMismatchError, match="the replay differs from the trace"):
        await replay_trace(trace, decks=["gruul", "orzhov"])


# --------------------------------------------------------------------------- broken files


def _refused(tmp_path: Path, lines: list[str], error: type[TraceError]) -> TraceError:
    path = _write(tmp_path, lines)
    with pytest.raises(error) as caught:
        read_trace(path)
    assert str(caught.value).startswith(f"{path}: line {caught.value.line}: ")
    return caught.value


def test_a_line_that_is_not_json(tmp_path: Path, traced: Path) -> None:
    lines = _lines(traced)
    lines[4] = "this is not JSON\n"
    err = _refused(tmp_path, lines, TraceNotJSONError)
    assert err.line == 5 and err.problem.startswith("not JSON")


def test_a_file_that_is_not_utf8(tmp_path: Path, traced: Path) -> None:
    path = tmp_path / "bytes.jsonl"
    data = traced.read_bytes().split(b"\n")
    data[2] = b"\xff\xfe" + data[2]
    path.write_bytes(b"\n".join(data))
    with pytest.raises(TraceNotJSONError, match=r"line 3: not UTF-8 text"):
        read_trace(path)


def test_a_missing_header(tmp_path: Path, traced: Path) -> None:
    err = _refused(tmp_path, _lines(traced)[1:], TraceHeaderError)
    assert err.line == 1
    assert err.problem == "the first line must be a header (event 'header'), got event 'message'"


def test_an_empty_file(tmp_path: Path) -> None:
    err = _refused(tmp_path, [], TraceHeaderError)
    assert (err.line, err.problem) == (1, "the file is empty; a trace starts with a header line")


def test_an_unknown_format_version(tmp_path: Path, traced: Path) -> None:
    lines = _lines(traced)
    lines[0] = lines[0].replace(f'"format":{TRACE_FORMAT}', '"format":99')
    err = _refused(tmp_path, lines, TraceFormatError)
    assert (err.line, err.problem) == (1, "trace format 99; this version reads formats 5, 6, 7, 8 and 9")


def test_a_trace_of_format_4_is_refused_naming_the_formats_read(tmp_path: Path, traced: Path) -> None:
    # Format 4 had no decklists or seat settings in its header, nor GameEvents: a reader of it
    # could not replay a game from deck files or with its stops, so a format-4 trace is
    # refused rather than read as a later format. (Format 5 is read: its only difference, the
    # events its replies carried again, reads as their count; tests/trace_format.)
    assert TRACE_FORMAT == 9
    lines = _lines(traced)
    lines[0] = lines[0].replace('"format":9', '"format":4')
    err = _refused(tmp_path, lines, TraceFormatError)
    assert (err.line, err.problem) == (1, "trace format 4; this version reads formats 5, 6, 7, 8 and 9")
    assert str(err).endswith("broken.jsonl: line 1: trace format 4; this version reads formats 5, 6, 7, 8 and 9")


@pytest.mark.parametrize(("line", "old", "new", "problem"), [
    (0, '"clock":null', '"clock":{"base":0,"increment":1}',
     "field 'seats': invalid game clock: BASE must be more than 0 seconds, got 0"),
    (0, '"clock":null', '"clock":"60+1"',
     "field 'seats': a seat's clock has a 'base' and an 'increment', got '60+1'"),
    (0, '"clock":null,', "", "field 'seats': each seat has a 'clock' (null for none), got "),
    (-1, '"event":"result"', '"clock_left":[1,"a"],"event":"result"',
     "field 'clock_left': expected a number of seconds (or null) for each seat, got [1, 'a']"),
])
def test_a_bad_game_clock_is_refused_naming_the_field(tmp_path: Path, traced: Path, line: int, old: str,
                                                      new: str, problem: str) -> None:
    lines = _lines(traced)
    assert old in lines[line]
    lines[line] = lines[line].replace(old, new, 1)
    err = _refused(tmp_path, lines, TraceRecordError)
    assert err.problem.startswith(problem), err.problem


def test_a_file_without_its_result_line_is_read_without_a_result(tmp_path: Path, traced: Path) -> None:
    lines = _lines(traced)[:-1]
    trace = read_trace(_write(tmp_path, lines))
    assert trace.result is None and trace.cut_line == 0
    assert trace.messages == read_trace(traced).messages
    assert trace.last_seq == len(lines) - 1


def test_a_file_cut_in_the_middle_of_a_line_is_read_up_to_the_line_before(tmp_path: Path, traced: Path) -> None:
    lines = _lines(traced)[:10]
    lines[-1] = lines[-1][:40]
    trace = read_trace(_write(tmp_path, lines))
    assert (trace.result, trace.cut_line, trace.last_seq) == (None, 10, 8)
    assert trace.messages == read_trace(traced).messages[:8]


def test_a_header_cut_in_the_middle_is_refused(tmp_path: Path, traced: Path) -> None:
    err = _refused(tmp_path, [_lines(traced)[0][:40]], TraceTruncatedError)
    assert err.line == 1 and err.problem.startswith("the file ends in the middle of this line")


def test_only_the_last_line_may_be_cut_off(traced: Path) -> None:
    # Lines given without their newlines: one that is not JSON is cut off only if it is last.
    lines = [line.rstrip("\n") for line in _lines(traced)[:10]]
    lines[5] = lines[5][:40]
    with pytest.raises(TraceNotJSONError, match=r"^given: line 6: not JSON"):
        parse_trace(lines, "given")
    assert parse_trace(lines[:6], "given").cut_line == 6


async def test_a_trace_cut_short_replays_up_to_its_cut(tmp_path: Path, traced: Path) -> None:
    lines = _lines(traced)
    for cut in (lines[:-1], lines[:200]):
        trace = read_trace(_write(tmp_path, cut))
        again = tmp_path / "again.jsonl"
        await replay_trace(trace, trace_path=again)  # no mismatch: it stops past the cut
        assert again.read_text("utf-8").splitlines(keepends=True)[:len(cut)] == cut


@pytest.mark.parametrize(("line", "edit", "problem"), [
    (3, lambda s: s.replace(',"seq":2', ""), "missing field 'seq'"),
    (3, lambda s: s.replace('"seq":2', '"seq":"2"'), "field 'seq': expected an integer, got a string '2'"),
    (3, lambda s: s.replace('"kind":"SBABatch"', '"kind":"Telegram"'), "unknown message kind 'Telegram'"),
    (3, lambda s: s.replace('"event":"message"', '"event":"gossip"'),
     "'event' must be 'message' or 'result', got 'gossip'"),
    (4, lambda s: "[1, 2]\n", "expected a JSON object, got a list"),
])
def test_a_record_of_the_wrong_shape(tmp_path: Path, traced: Path, line: int, edit: object,
                                     problem: str) -> None:
    lines = _lines(traced)
    assert callable(edit)
    lines[line - 1] = edit(lines[line - 1])
    err = _refused(tmp_path, lines, TraceRecordError)
    assert (err.line, err.problem) == (line, problem)


def test_a_line_after_the_result(tmp_path: Path, traced: Path) -> None:
    lines = _lines(traced)
    err = _refused(tmp_path, [*lines, lines[1]], TraceRecordError)
    assert (err.line, err.problem) == (len(lines) + 1, "a line after the result line")


def test_a_payload_that_does_not_decode_names_its_line(traced: Path) -> None:
    lines = _lines(traced)
    i = next(k for k, line in enumerate(lines) if '"kind":"SubmitAction"' in line)
    lines[i] = lines[i].replace('"decision_id":', '"decision":', 1)
    trace: Trace = parse_trace(lines, "edited")
    with pytest.raises(TraceRecordError, match=rf"^edited: line {i + 1}: SubmitAction: "):
        trace.replies(trace.messages[i - 1].sender.removeprefix("player:"))
