"""``spellstack replay FILE``: play a game again from its trace or its record, and check it."""

from __future__ import annotations

import argparse
from pathlib import Path

import orjson
import trio

from .._printable import printable
from ..actors import RecordedResult
from ..trace import (
    RecordCheck,
    RecordError,
    ReplayCheck,
    ReplayError,
    TraceError,
    check_record,
    check_replay,
    is_record,
    parse_record,
)
from ._errors import CommandError
from ._trace_file import check_output_path, load_trace, note_cut

__all__ = ["add_parser", "render_check", "render_record_check"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay", help="play a game again from its trace or its record, and check it",
        description="Play the game of a trace or a record again from what each player sent "
                    "only. A trace: compare every line with the trace (a trace cut short: every "
                    "line up to its last record). A record: compare the result and the final "
                    "state hash. Exit 0 if the replay is identical, 1 if it differs (for a "
                    "trace, at the first line that differs: both versions are shown), "
                    "2 if the file is missing or neither a trace nor a record.")
    p.add_argument("file", type=Path, metavar="FILE",
                   help="a trace (spellstack play --trace FILE) or a record (--record FILE), "
                        "told apart by their content")
    p.add_argument("--trace", type=Path, default=None, metavar="OUT",
                   help="write the replay's trace here: for a record, the trace of its game, "
                        "as --trace wrote it")
    p.set_defaults(run=run)


def _line(record: object) -> str:
    return "(none)" if record is None else orjson.dumps(record, option=orjson.OPT_SORT_KEYS).decode()


def render_check(check: ReplayCheck) -> list[str]:
    """The report's lines."""
    d = check.divergence
    if d is None and check.cut_after:
        return [f"identical up to record {check.cut_after}; the trace has no result line"]
    if d is None:
        return [f"identical: {check.compared} message lines and the result line",
                f"final state hash {check.final_hash}"]
    where = f"seq {d.seq}" if d.seq is not None else "the result line"
    lines = [f"divergence at {where}, after {check.compared} identical message lines",
             f"recorded: {_line(d.recorded)}", f"replayed: {_line(d.replayed)}"]
    if check.error:
        lines.append(f"replay: {check.error}")
    recorded = check.recorded_hash or "none: the trace has no result line"
    lines.append(f"final state hash {check.final_hash or '(none: the replay has no result line)'}"
                 f" (recorded {recorded})")
    return lines


def _ended(result: RecordedResult) -> str:
    return f"{result.reason} (turn {result.turns})"


def render_record_check(check: RecordCheck) -> list[str]:
    """The report's lines for a record."""
    r, mine = check.recorded, check.replayed
    if check.identical and mine is not None:
        return [f"identical: {check.messages} recorded messages replayed, the same result and "
                "final state",
                f"result: {_ended(mine)}",
                f"final state hash {mine.final_hash}"]
    return [f"the replay differs from the record: {'; '.join(check.problems)}",
            f"result: {_ended(mine) if mine is not None else '(none: the game was not played)'} "
            f"(recorded: {_ended(r)})",
            f"final state hash {mine.final_hash if mine is not None else '(none)'} "
            f"(recorded {r.final_hash})"]


def run(args: argparse.Namespace) -> int:
    path: Path = args.file
    out: Path | None = args.trace
    if out is not None:
        check_output_path(out, "--trace")
    if not path.is_file():
        raise CommandError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    if out is not None and out.resolve() == path.resolve():
        raise CommandError(f"--trace {str(out)!r} is the file replayed; name another")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise CommandError(f"{path}: {err.strerror or err}") from None
    try:
        return _replay_record(path, data, out) if is_record(data) else _replay_trace(path, out)
    except OSError as err:  # the replay's trace can't be written
        raise CommandError(f"--trace {str(out)!r}: {err.strerror or err}") from None


def _report(lines: list[str], out: Path | None) -> None:
    for line in lines:
        print(printable(line))
    if out is not None:
        print(printable(f"trace written to {out}"))


def _replay_record(path: Path, data: bytes, out: Path | None) -> int:
    try:
        record = parse_record(data, str(path))
    except RecordError as err:
        raise CommandError(f"not a record: {err}") from None
    check = trio.run(lambda: check_record(record, trace_path=out))
    _report(render_record_check(check), out)
    return 0 if check.identical else 1


def _replay_trace(path: Path, out: Path | None) -> int:
    trace = load_trace(path)
    try:
        check = trio.run(lambda: check_replay(trace, trace_path=out))
    except ReplayError as err:
        raise CommandError(str(err)) from None
    except TraceError as err:  # a recorded answer that doesn't decode as its kind
        raise CommandError(f"not a trace: {err}") from None
    _report(render_check(check), out)
    note_cut(trace, path)
    return 0 if check.identical else 1
