"""The tracer: writes every message of a game, in order, as JSON Lines through structlog."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TextIO

import msgpack  # type: ignore[import-untyped]
import orjson
import trio

from .._version import __version__
from ..protocol import MESSAGE_TYPES, named_from_wire, to_plain
from ._wire import TraceRecord

__all__ = ["TRACE_FORMAT", "TraceSink", "TraceWriter", "tracer_actor"]

TRACE_FORMAT = 9
"""Version of the trace format (2: requests carry view deltas; payloads in the named form;
3: decision ids are numbered per seat, and automatic passes take none; 4: a game that starts the
way a game of a match does, 103.1 and 103.5, says so in its header's ``start``; 5: the header
holds the decklists, the entrants and each seat's settings, and ``GameEvent`` records tell what
happened, each with its turn and step; 6: each event is carried once, as its ``GameEvent``:
``Resolved`` and ``SBABatch`` give the count of their events, not the events again;
7: views show a permanent's marks and each player's dungeon; 8: game clocks, in each seat's
settings, each request and the result; 9: each seat's ``priority_views``, and priority requests
without a view for a seat that reads none; ``docs/trace-format.md``)."""


class TraceSink(Protocol):
    """What the tracer hands each record to: a ``TraceWriter``, a game's recorder."""

    def message(self, rec: TraceRecord) -> None:
        """Take one record."""
        ...


class _LineLogger:
    """A structlog logger writing each rendered line to a stream, without flushing it per line
    (``structlog.WriteLogger`` flushes every line: a system call per message); the stream's
    own buffering applies, and its owner flushes or closes it."""

    __slots__ = ("_write",)

    def __init__(self, stream: TextIO) -> None:
        self._write = stream.write

    def msg(self, message: str) -> None:
        """Write one line."""
        self._write(message + "\n")

    info = msg


_JSON_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def _dumps(obj: Any, default: Any = None) -> str:
    """One JSON line: keys sorted (the same game gives the same bytes), UTF-8 text as is.
    orjson renders a traced message several times faster than the standard library, and the
    tracer renders ~20 lines per bot decision."""
    return orjson.dumps(obj, default=default, option=_JSON_OPTIONS).decode()


class TraceWriter:
    """Renders trace lines deterministically (sorted keys, no clocks), so the same game gives
    the same bytes."""

    def __init__(self, stream: TextIO, *, timestamps: bool = False) -> None:
        """``timestamps``: each line gets a ``timestamp`` (UTC, ISO 8601; structlog's
        ``TimeStamper``), so two traces of the same game differ; without it, no line holds a
        clock's reading."""
        # Imported here, not with the module: structlog brings rich and pygments (about 7 MB
        # resident), which a process that plays games without tracing them need not load.
        import structlog

        stamp: list[Any] = [structlog.processors.TimeStamper(fmt="iso", utc=True)] if timestamps else []
        # Bound once: the lazy proxy ``wrap_logger`` returns would bind a new logger per line.
        self._log = structlog.wrap_logger(
            _LineLogger(stream),
            processors=[*stamp, structlog.processors.JSONRenderer(serializer=_dumps)],
        ).bind()

    def header(self, seed: int, decks: Mapping[str, str], **extra: Any) -> None:
        """The first line: format and engine versions, seed, decks."""
        self._log.info("header", format=TRACE_FORMAT, engine=__version__, seed=seed,
                       decks=dict(decks), **extra)

    def message(self, rec: TraceRecord) -> None:
        """One message with its game, number, sender, receiver, kind and decoded payload, in
        the readable named form (every record a map of field names, ``from_plain`` reads it)
        whatever its wire form; a ``malformed`` event also has the unreadable bytes it is
        about, in hex (``bytes``)."""
        if rec.message is not None:  # a trace-only record, never encoded
            payload = to_plain(rec.message)
            if rec.data:  # a malformed event, with the bytes it is about
                self._log.info("message", game=rec.game, seq=rec.seq, sender=rec.sender,
                               receiver=rec.receiver, kind=rec.kind, payload=payload,
                               bytes=rec.data.hex())
                return
        else:
            # The engine encoded it: rewritten to the named form without validation, or objects.
            body = msgpack.unpackb(rec.data, raw=False)
            payload = named_from_wire(MESSAGE_TYPES[body["k"]], body["b"])
        self._log.info("message", game=rec.game, seq=rec.seq, sender=rec.sender,
                       receiver=rec.receiver, kind=rec.kind, payload=payload)

    def footer(self, **fields: Any) -> None:
        """The last line: how the game ended."""
        self._log.info("result", **fields)


async def tracer_actor(inbox: trio.MemoryReceiveChannel[TraceRecord], writer: TraceSink) -> None:
    """Write records until the channel closes. Each time it is scheduled it writes every record
    already waiting (senders never wait on it: ``Wire.record`` uses ``send_nowait``), so a
    game's messages cost it one wake-up per batch rather than a scheduling round each."""
    async with inbox:
        async for rec in inbox:
            writer.message(rec)
            while True:
                try:
                    rec = inbox.receive_nowait()
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
                writer.message(rec)
