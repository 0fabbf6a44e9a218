"""Traces: reading a game's trace (``--trace FILE``, JSON Lines; ``docs/trace-format.md``),
replaying its recorded answers, and the tools that show what it holds.

``read_trace`` turns a file into a ``Trace`` of typed records, or raises a ``TraceError``
naming the line and what is wrong with it. ``replay_trace`` plays the same game again from the
header and each seat's recorded answers only, and checks that it reaches the recorded state.
"""

from ._read import (
    ReplayBot,
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
    replay_trace,
)

__all__ = [
    "ReplayBot",
    "ReplayError",
    "ReplayMismatchError",
    "Trace",
    "TraceError",
    "TraceFormatError",
    "TraceHeader",
    "TraceHeaderError",
    "TraceMessage",
    "TraceNotJSONError",
    "TraceRecordError",
    "TraceResult",
    "TraceTruncatedError",
    "parse_trace",
    "read_trace",
    "replay_trace",
]
