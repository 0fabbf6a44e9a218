"""``spellstack replay FILE``: play a traced game again from its trace and check every line."""

from __future__ import annotations

import argparse
from pathlib import Path

import orjson
import trio

from .._printable import printable
from ..trace import ReplayCheck, ReplayError, TraceError, check_replay
from ._errors import CommandError
from ._trace_file import load_trace, note_cut

__all__ = ["add_parser", "render_check"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay", help="play a traced game again and check it against its trace",
        description="Play the game of a trace again from its header and what each player sent "
                    "only, and compare every line with the trace (a trace cut short: every "
                    "line up to its last record). Exit 0 if the replay is identical, 1 at the "
                    "first line that differs (both versions are shown), "
                    "2 if the file is missing or not a trace.")
    p.add_argument("file", type=Path, metavar="FILE", help="a trace (spellstack play --trace FILE)")
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


def run(args: argparse.Namespace) -> int:
    trace = load_trace(args.file)
    try:
        check = trio.run(check_replay, trace)
    except ReplayError as err:
        raise CommandError(str(err)) from None
    except TraceError as err:  # a recorded answer that doesn't decode as its kind
        raise CommandError(f"not a trace: {err}") from None
    for line in render_check(check):
        print(printable(line))
    note_cut(trace, args.file)
    return 0 if check.identical else 1
