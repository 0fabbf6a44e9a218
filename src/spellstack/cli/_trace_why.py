"""``spellstack trace why FILE --seq N | --object NAME``: why it resolved, fizzled, was
countered, or why a step ended, from the trace alone."""

from __future__ import annotations

import argparse
from pathlib import Path

from .._printable import printable
from ..trace import Explanation, TraceError, WhyError, explain
from ._errors import CommandError
from ._trace_file import load_trace, note_cut

__all__ = ["add_parser", "render_explanation"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "why", help="why an object resolved, fizzled or was countered, or why a step ended",
        description="Explain, from the trace alone, why a spell or ability resolved, didn't "
                    "resolve (every target illegal) or was countered, or why a step ended: the "
                    "rule, the record that caused it and the passes that let it happen.")
    p.add_argument("file", type=Path, metavar="FILE", help="a trace (spellstack play --trace FILE)")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--seq", type=int, metavar="N",
                       help="the record to explain: a cast, a resolution, a counter, a step")
    which.add_argument("--object", metavar="NAME",
                       help="every spell or ability of that name that was on the stack")
    p.set_defaults(run=run)


def render_explanation(e: Explanation) -> list[str]:
    """An explanation's lines."""
    lines = [f"{e.subject}: {e.outcome} (record {e.seq})",
             f"  rule {e.rule or '-'}: {e.text}",
             f"  cause: record {e.cause_seq if e.cause_seq is not None else '(none recorded)'}"]
    if e.caster:
        lines.append(f"  countered by a spell cast by {e.caster}")
    for t in e.targets:
        lines.append(f"  target {t.target}: {t.text}" + (f" (record {t.seq})" if t.seq else ""))
    if e.passed:
        lines.append("  passed in succession: " + ", ".join(
            f"{p.player} {p.seq}{' (automatic)' if p.automatic else ''}" for p in e.passed))
    return lines


def run(args: argparse.Namespace) -> int:
    trace = load_trace(args.file)
    try:
        found = explain(trace, seq=args.seq, name=args.object)
    except WhyError as err:
        raise CommandError(str(err)) from None
    except TraceError as err:  # a record that doesn't decode as its kind
        raise CommandError(f"not a trace: {err}") from None
    for i, e in enumerate(found):
        if i:
            print()
        for line in render_explanation(e):
            print(printable(line))
    note_cut(trace, args.file)
    return 0
