"""``spellstack trace``: tools that read a game's trace (``play --trace FILE``): ``show`` tells
it line by line, ``stats`` counts what it holds, ``html`` writes a page to browse it."""

from __future__ import annotations

import argparse
from pathlib import Path

from .._printable import printable
from ..trace import (
    ShowLine,
    ShowOptions,
    Trace,
    TraceError,
    TraceQueryError,
    format_show,
    format_stats,
    format_view,
    show_trace,
    trace_html,
    trace_stats,
    view_at,
)
from . import _trace_why
from ._errors import CommandError
from ._trace_file import load_trace, note_cut

__all__ = ["add_parser", "run_html", "run_show", "run_stats"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("trace", help="read a game's trace: show it, count it, ask why",
                       description="Read a trace written by `spellstack play --trace FILE`.")
    tools = p.add_subparsers(dest="tool", required=True, metavar="TOOL")
    _add_show(tools)
    _add_stats(tools)
    _add_html(tools)
    _trace_why.add_parser(tools)


def _add_show(tools: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = tools.add_parser(
        "show", help="tell the game line by line",
        description="Tell the game one line per record worth reading (numbered by its place "
                    "in the trace), with a heading at each turn and step (a step's with the "
                    "record number of its step change); runs of automatic passes and skipped "
                    "state-based-action checks fold into one line (--unfold: a line each).")
    p.add_argument("file", type=Path, metavar="FILE", help="the trace (JSON Lines)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER", default=None,
                   help="only what PLAYER could see at the time, lines numbered from 1")
    p.add_argument("--priority", action="store_true",
                   help="only the flow of priority: grants, passes, actions, resolutions")
    p.add_argument("--player", metavar="PLAYER", default=None,
                   help="only the records concerning PLAYER")
    p.add_argument("--turn", type=int, metavar="N", default=None, help="only turn N (0: before the game)")
    p.add_argument("--kind", action="append", default=[], metavar="KIND",
                   help="only records of this message kind or game event kind (repeatable)")
    p.add_argument("--unfold", action="store_true",
                   help="each automatic pass on its own line, not folded into a run")
    p.add_argument("--view", type=int, metavar="N", default=None,
                   help="print instead the full view the request at line N carried (N: its seq; "
                        "with --as, its line in the listing the other options give)")
    p.set_defaults(run=run_show)


def _add_stats(tools: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = tools.add_parser("stats", help="count what the trace holds",
                         description="Count records per message kind and event kind, passes "
                                     "per step, decisions per player; the deepest stack, the "
                                     "turns, the result.")
    p.add_argument("file", type=Path, metavar="FILE", help="the trace (JSON Lines)")
    p.set_defaults(run=run_stats)


def _add_html(tools: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = tools.add_parser(
        "html", help="write one self-contained HTML page to browse the game",
        description="Write the game as one HTML page that opens by itself in a browser (no "
                    "network, no other file): a timeline by turn and step with a lane per "
                    "player, each line's payload and the board at that point, a chart of the "
                    "life totals; j/k or the arrow keys step through the lines.")
    p.add_argument("file", type=Path, metavar="FILE", help="the trace (JSON Lines)")
    p.add_argument("-o", "--output", type=Path, metavar="PAGE", required=True,
                   help="the page to write (HTML)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER", default=None,
                   help="only what PLAYER could see at the time: nothing else is in the page")
    p.set_defaults(run=run_html)


def run_show(args: argparse.Namespace) -> int:
    """Print the account (or, with ``--view``, one request's full view); exit 0."""
    trace = load_trace(args.file)
    try:
        options = ShowOptions(as_player=args.as_player, priority=args.priority,
                              player=args.player, turn=args.turn, kinds=tuple(args.kind),
                              unfold=args.unfold)
        if args.view is not None:
            print("\n".join(map(printable, format_view(view_at(trace, args.view, options)))))
            note_cut(trace, args.file)
            return 0
        lines = show_trace(trace, options)
    except TraceQueryError as err:
        raise CommandError(str(err)) from None
    except TraceError as err:  # a record that doesn't decode as its kind
        raise CommandError(f"not a trace: {err}") from None
    if lines:
        print("\n".join(map(printable, format_show(lines))))
    else:
        print("no record matches")
    r = trace.result
    if r is None:
        print(f"-- the trace ends here without a result (cut after record {_cut_after(trace, options, lines)}) --")
    else:
        print(f"result: {printable(r.reason)} (turn {r.turns})")
    note_cut(trace, args.file)
    return 0


def _cut_after(trace: Trace, options: ShowOptions, lines: list[ShowLine]) -> int:
    """The last record of a trace cut short, as the account numbers it: its ``seq``, or, shown
    as a player, the last line of that player's whole account (a ``seq`` would tell how many
    records were hidden from it)."""
    if options.as_player is None:
        return trace.last_seq
    if options != ShowOptions(as_player=options.as_player):  # filtered: the whole account's end
        lines = show_trace(trace, ShowOptions(as_player=options.as_player))
    return lines[-1].number if lines else 0


def run_stats(args: argparse.Namespace) -> int:
    """Print the figures; exit 0."""
    trace = load_trace(args.file)
    try:
        stats = trace_stats(trace)
    except TraceError as err:  # a record that doesn't decode as its kind
        raise CommandError(f"not a trace: {err}") from None
    print("\n".join(map(printable, format_stats(trace, stats))))
    note_cut(trace, args.file)
    return 0


def run_html(args: argparse.Namespace) -> int:
    """Write the page; exit 0."""
    trace = load_trace(args.file)
    out: Path = args.output
    if out.is_dir():
        raise CommandError(f"{out}: is a folder")
    if not out.parent.is_dir():
        raise CommandError(f"{out}: no such folder {out.parent}")
    try:
        page = trace_html(trace, args.as_player)
    except TraceQueryError as err:
        raise CommandError(str(err)) from None
    except TraceError as err:  # a record that doesn't decode as its kind
        raise CommandError(f"not a trace: {err}") from None
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as err:
        raise CommandError(f"{out}: {err.strerror or err}") from None
    print(f"wrote {out} ({len(page.encode()) // 1024} KiB)")
    note_cut(trace, args.file)
    return 0
