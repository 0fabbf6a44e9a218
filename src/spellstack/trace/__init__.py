"""Traces: reading a game's trace (``--trace FILE``, JSON Lines; ``docs/trace-format.md``),
replaying what each player sent, and the tools that show what it holds.

``read_trace`` turns a file into a ``Trace`` of typed records, or raises a ``TraceError``
naming the line and what is wrong with it. ``replay_trace`` plays the same game again from the
header and what each player sent only (``ReplaySeat``), and checks that it reaches the recorded
state; ``check_replay`` compares the replay with the trace line by line. ``trace_html`` makes
one self-contained HTML page of a game (``spellstack trace html``). ``explain`` says why an
object resolved, didn't, or was countered, or why a step ended (``spellstack trace why``).
"""

from ._check import Divergence, ReplayCheck, check_replay, record_json
from ._html import trace_html
from ._page import PageData, page_data
from ._read import (
    MAX_DEPTH,
    READ_FORMATS,
    ReplayError,
    ReplayMismatchError,
    Trace,
    TraceError,
    TraceFormatError,
    TraceHeader,
    TraceHeaderError,
    TraceMessage,
    TraceNotJSONError,
    TraceRecordError,
    TraceResult,
    TraceTruncatedError,
    parse_trace,
    read_trace,
)
from ._replay import ReplayBot, ReplaySeat, SeatScript, SeatStep, replay_trace, seat_script
from ._show import ShowLine, ShowOptions, TraceQueryError, format_show, format_view, show_trace, view_at
from ._stats import PlayerDecisions, StepPasses, TraceStats, format_stats, trace_stats
from ._why import (
    Explanation,
    Pass,
    TargetLoss,
    WhyError,
    explain,
    explain_object,
    explain_seq,
    priority_flow,
)

__all__ = [
    "MAX_DEPTH",
    "READ_FORMATS",
    "Divergence",
    "Explanation",
    "PageData",
    "Pass",
    "PlayerDecisions",
    "ReplayBot",
    "ReplayCheck",
    "ReplayError",
    "ReplayMismatchError",
    "ReplaySeat",
    "SeatScript",
    "SeatStep",
    "ShowLine",
    "ShowOptions",
    "StepPasses",
    "TargetLoss",
    "Trace",
    "TraceError",
    "TraceFormatError",
    "TraceHeader",
    "TraceHeaderError",
    "TraceMessage",
    "TraceNotJSONError",
    "TraceQueryError",
    "TraceRecordError",
    "TraceResult",
    "TraceStats",
    "TraceTruncatedError",
    "WhyError",
    "check_replay",
    "explain",
    "explain_object",
    "explain_seq",
    "format_show",
    "format_stats",
    "format_view",
    "page_data",
    "parse_trace",
    "priority_flow",
    "read_trace",
    "record_json",
    "replay_trace",
    "seat_script",
    "show_trace",
    "trace_html",
    "trace_stats",
    "view_at",
]
