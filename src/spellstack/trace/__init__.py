"""Traces: reading a game's trace (``--trace FILE``, JSON Lines; ``docs/trace-format.md``),
replaying what each player sent, and the tools that show what it holds.

``read_trace`` turns a file into a ``Trace`` of typed records, or raises a ``TraceError``
naming the line and what is wrong with it. ``replay_trace`` plays the same game again from the
header and what each player sent only (``ReplaySeat``), and checks that it reaches the recorded
state; ``check_replay`` compares the replay with the trace line by line. A game's record
(``--record FILE``, one JSON object; ``docs/records.md``) is read by ``read_record`` and played
again by ``check_record``, which compares the result and the final state hash. ``trace_html``
makes one self-contained HTML page of a game (``spellstack trace html``). ``explain`` says why
an object resolved, didn't, or was countered, or why a step ended (``spellstack trace why``)."""

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
from ._record import (
    RecordCheck,
    RecordError,
    RecordFormatError,
    check_record,
    is_record,
    parse_record,
    read_record,
    record_header,
    record_scripts,
    replay_record,
)
from ._replay import ReplayBot, ReplaySeat, ScriptBuilder, SeatScript, SeatStep, play_scripts, replay_trace, seat_script
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
    "RecordCheck",
    "RecordError",
    "RecordFormatError",
    "ReplayBot",
    "ReplayCheck",
    "ReplayError",
    "ReplayMismatchError",
    "ReplaySeat",
    "ScriptBuilder",
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
    "check_record",
    "check_replay",
    "explain",
    "explain_object",
    "explain_seq",
    "format_show",
    "format_stats",
    "format_view",
    "is_record",
    "page_data",
    "parse_record",
    "parse_trace",
    "play_scripts",
    "priority_flow",
    "read_record",
    "read_trace",
    "record_header",
    "record_json",
    "record_scripts",
    "replay_record",
    "replay_trace",
    "seat_script",
    "show_trace",
    "trace_html",
    "trace_stats",
    "view_at",
]
