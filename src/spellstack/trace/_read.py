"""Reading a game's trace (``--trace FILE``, JSON Lines).

A trace is a header line (format and engine versions, seed, decks, players), one line per
message in the order the messages were numbered, and a result line with the final state hash.
``read_trace`` turns a file into a ``Trace`` of typed records, or raises a ``TraceError``
naming the line and what is wrong with it (``_replay`` plays one again).

A trace cut short (its game killed, its disk full) is read up to its last complete record: it
has no result (``Trace.result`` None), and a last line cut in the middle is skipped, its
number kept (``Trace.cut_line``). Every line before the last must still be whole.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ..actors import TRACE_FORMAT, GameClock, SeatConfig
from ..cards import short_value
from ..protocol import MESSAGE_TYPES, Message, SetStops, Stops, SubmitAction, SubmitAnswer, from_plain
from ..rules import Reply, SpellstackError, StartSettings

__all__ = [
    "MAX_DEPTH",
    "READ_FORMATS",
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
]


READ_FORMATS = (5, 6, 7, 8, TRACE_FORMAT)
"""The trace formats this version reads: its own; 8, whose seats all had views with every
request (each read as ``priority_views`` true); 7, which had no game clocks (each seat read
as without one, each request as showing none); 6, whose views also lacked the marks of a
permanent and a player's dungeon (read as none: a field a record leaves out takes its default);
and 5, whose ``Resolved`` and ``SBABatch`` records carried their events again (the ``GameEvent``
lines before them hold the same), each such list read as its count, as format 6 writes it."""

MAX_DEPTH = 64
"""How deep lists and objects may nest in one line. A trace as written nests 8 deep at most;
the JSON printer (orjson) can't print a value much past 255 levels, so a deeper record read
here could not be shown again (``replay`` prints the lines that differ)."""


# --------------------------------------------------------------------------- errors


class TraceError(ValueError):
    """A trace file that can't be read: names the file, the line (from 1) and the problem."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        super().__init__(f"{source}: line {line}: {problem}")
        self.source = source
        """The file (or the name given to ``parse_trace``)."""
        self.line = line
        """The line at fault, from 1."""
        self.problem = problem
        """What is wrong with it."""


class TraceNotJSONError(TraceError):
    """A line that is not JSON."""


class TraceHeaderError(TraceError):
    """The first line is not a trace header (or the file is empty)."""


class TraceFormatError(TraceError):
    """A header naming a trace format this version can't read."""


class TraceTruncatedError(TraceError):
    """The file ends in the middle of its header line (a trace cut later is read up to its
    last complete record)."""


class TraceRecordError(TraceError):
    """A line that is JSON but not a record of its place: a field missing or of the wrong type,
    an unknown message kind, a payload that doesn't decode, a line after the result."""


class ReplayError(SpellstackError):
    """A trace that can't be replayed as it stands (a deck that is not built in)."""


class ReplayMismatchError(SpellstackError):
    """The replayed game did not end as the trace records."""


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class TraceHeader:
    """The first line of a trace."""

    format: int
    """The trace format version (``actors.TRACE_FORMAT``)."""
    engine: str
    """The version of spellstack that wrote it."""
    seed: int
    """The game's seed."""
    decks: Mapping[str, str]
    """Each player's deck name, by player name."""
    players: tuple[str, ...]
    """The player names in seat order."""
    start: StartSettings | None = None
    """For a game that started the way a game of a match does (103.1, 103.5): how (who chose
    the starting player, None: the generator; whether mulligans were allowed); None otherwise."""
    game: str = "g1"
    """The game's id."""
    decklists: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each player's deck, every card in order, by player name: enough to play the game again
    without the deck files."""
    entrants: Mapping[str, str] = field(default_factory=dict)
    """Who played each seat (a bot's class), by player name."""
    seats: tuple[SeatConfig, ...] = ()
    """Each seat's settings (deadline, automatic passes, stops, game clock), in seat order."""
    turn_limit: int = 0
    """The turn after which the game is a draw (0: none)."""


@dataclass(frozen=True, slots=True)
class TraceMessage:
    """One message line: a message as it crossed its channel, or a coordinator event."""

    line: int
    """Its line in the file, from 1."""
    game: str
    """The game id."""
    seq: int
    """Its number in the game, from 1."""
    sender: str
    """The actor that sent it (``coordinator``, ``stack``, ``sba``, ``player:NAME``)."""
    receiver: str
    """The actor it went to (``tracer`` for a coordinator event)."""
    kind: str
    """The message kind (a key of ``protocol.MESSAGE_TYPES``)."""
    payload: Mapping[str, Any]
    """Its fields in the named form (every record a map of field names)."""
    data: bytes = b""
    """For a ``malformed`` event: the bytes the player sent that could not be read (the
    line's ``bytes``, in hex); empty otherwise, and in a trace written before they were kept."""

    def decode(self, source: str = "<trace>") -> Message:
        """The message as its protocol type; ``TraceRecordError`` (naming ``source`` and the
        line) if the payload doesn't fit it."""
        try:
            return from_plain(MESSAGE_TYPES[self.kind], self.payload, "payload")
        except SpellstackError as err:
            raise TraceRecordError(source, self.line, f"{self.kind}: {err}") from None


@dataclass(frozen=True, slots=True)
class TraceResult:
    """The last line of a trace: how the game ended."""

    winner: str | None
    """The winner's name, or None for a draw or an engine error."""
    reason: str
    """Why it ended."""
    turns: int
    """The turn it ended on."""
    final_hash: str
    """The state hash at the end (``GameState.state_hash``)."""
    seed: int | None
    """The seed the game was started from."""
    clock_left: tuple[float, ...] = ()
    """Each seat's time left on its game clock at the end, by seat (``inf``: a seat without
    one, beside seats with one); empty when no seat had a clock."""


@dataclass(frozen=True, slots=True)
class Trace:
    """A trace, read and checked line by line: whole, or cut short (no ``result``)."""

    header: TraceHeader
    """The header line."""
    messages: tuple[TraceMessage, ...]
    """The message lines, in order."""
    result: TraceResult | None
    """The result line; None: the file ends before it (the trace was cut short)."""
    source: str = "<trace>"
    """Where it was read from, for errors."""
    cut_line: int = 0
    """The file's last line, cut off in the middle and skipped (from 1); 0: none was."""

    @property
    def last_seq(self) -> int:
        """The number of the last message record (0: there is none)."""
        return self.messages[-1].seq if self.messages else 0

    def replies(self, player: str) -> list[Reply]:
        """What ``player`` answered, in order: each ``SubmitAction``'s action and each
        ``SubmitAnswer``'s answer."""
        actor = f"player:{player}"
        out: list[Reply] = []
        for m in self.messages:
            if m.sender != actor or m.kind not in ("SubmitAction", "SubmitAnswer"):
                continue
            decoded = m.decode(self.source)
            assert isinstance(decoded, SubmitAction | SubmitAnswer)
            out.append(decoded.action if isinstance(decoded, SubmitAction) else decoded.answer)
        return out

    def stops(self, player: str) -> Stops | None:
        """The stops ``player``'s policy declared (its first ``SetStops``), or None."""
        actor = f"player:{player}"
        for m in self.messages:
            if m.sender == actor and m.kind == "SetStops":
                decoded = m.decode(self.source)
                assert isinstance(decoded, SetStops)
                return decoded.stops
        return None


# --------------------------------------------------------------------------- reading


def read_trace(path: str | Path) -> Trace:
    """Read a trace file; ``TraceError`` (by cause) for a file that is not a trace. A trace
    cut short is read up to its last complete record (``Trace.result`` None)."""
    path = Path(path)
    data = path.read_bytes()
    # The bytes after the last newline are the last line: cut short, it may end inside a
    # character, which is no reason to refuse the whole lines before it.
    cut = data.rfind(b"\n") + 1
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        if not (cut and err.start >= cut and err.reason == "unexpected end of data"):
            line = data[: err.start].count(b"\n") + 1
            raise TraceNotJSONError(str(path), line, f"not UTF-8 text (byte {err.start})") from None
        text = data[: err.start].decode("utf-8") + "\ufffd"  # cut off: no longer JSON
    return parse_trace(text.splitlines(keepends=True), str(path))


def parse_trace(lines: Iterable[str], source: str = "<trace>") -> Trace:
    """Read a trace from its lines (as a file gives them, newlines kept or not); ``source``
    names it in errors. A last line without its newline that is not JSON was cut off: it is
    skipped (``Trace.cut_line``), unless it is the header."""
    header: TraceHeader | None = None
    messages: list[TraceMessage] = []
    result: TraceResult | None = None
    cut_line, cut_error = 0, ""
    for number, raw in enumerate(lines, start=1):
        if cut_line:  # not the last line after all (lines given without their newlines)
            raise TraceNotJSONError(source, cut_line, f"not JSON ({cut_error})")
        if result is not None:
            raise TraceRecordError(source, number, "a line after the result line")
        text = raw.rstrip("\r\n")
        try:
            record = orjson.loads(text)
        except orjson.JSONDecodeError as err:
            if raw.endswith("\n"):
                raise TraceNotJSONError(source, number, f"not JSON ({err})") from None
            if header is None:
                raise TraceTruncatedError(source, number, f"the file ends in the middle of this "
                                          f"line ({err})") from None
            cut_line, cut_error = number, str(err)
            continue
        # Each opening bracket may nest one level deeper: fewer than the limit need no walk.
        if text.count("[") + text.count("{") > MAX_DEPTH and _too_deep(record):
            raise TraceRecordError(source, number, f"lists and objects nested more than "
                                   f"{MAX_DEPTH} levels deep")
        if not isinstance(record, dict):
            raise TraceRecordError(source, number, f"expected a JSON object, got {_kind(record)}")
        if header is None:
            header = _header(source, number, record)
            continue
        event = record.get("event")
        if event == "message":
            messages.append(_message(source, number, record, header.format))
        elif event == "result":
            result = _result(source, number, record)
        else:
            raise TraceRecordError(source, number, f"'event' must be 'message' or 'result', got "
                                   f"{short_value(event)}")
    if header is None:
        raise TraceHeaderError(source, 1, "the file is empty; a trace starts with a header line")
    return Trace(header, tuple(messages), result, source, cut_line)


def _too_deep(record: Any) -> bool:
    """Whether lists and objects nest more than ``MAX_DEPTH`` deep in ``record`` (walked
    without recursion: the record may nest as deep as the JSON parser allows)."""
    stack: list[tuple[Any, int]] = [(record, 1)]
    while stack:
        value, depth = stack.pop()
        inner = value.values() if type(value) is dict else value if type(value) is list else ()
        for item in inner:
            if type(item) is dict or type(item) is list:
                if depth >= MAX_DEPTH:
                    return True
                stack.append((item, depth + 1))
    return False


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", int: "an integer",
            float: "a number", bool: "a boolean", type(None): "null"}.get(type(value), type(value).__name__)


def _field(source: str, number: int, record: Mapping[str, Any], name: str, *types: type,
           optional: bool = False) -> Any:
    """``record[name]``, checked against ``types`` (bool is no int); None if optional and null."""
    if name not in record:
        raise TraceRecordError(source, number, f"missing field {name!r}")
    value = record[name]
    if value is None and optional:
        return None
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        want = " or ".join(_kind(t()) for t in types)
        raise TraceRecordError(source, number, f"field {name!r}: expected {want}, got "
                               f"{_kind(value)} {short_value(value)}")
    return value


def _header(source: str, number: int, record: Mapping[str, Any]) -> TraceHeader:
    if record.get("event") != "header":
        raise TraceHeaderError(source, number, f"the first line must be a header (event "
                               f"'header'), got event {short_value(record.get('event'))}")
    fmt = _field(source, number, record, "format", int)
    if fmt not in READ_FORMATS:
        raise TraceFormatError(source, number, f"trace format {fmt}; this version reads formats "
                               f"{', '.join(map(str, READ_FORMATS[:-1]))} and {READ_FORMATS[-1]}")
    decks = _field(source, number, record, "decks", dict)
    if not all(isinstance(v, str) for v in decks.values()):
        raise TraceRecordError(source, number, "field 'decks': every deck must be a name")
    players = _field(source, number, record, "players", list)
    if not all(isinstance(p, str) for p in players):
        raise TraceRecordError(source, number, "field 'players': expected a list of names")
    if sorted(players) != sorted(decks):
        raise TraceRecordError(source, number, f"players {players} and decks {sorted(decks)} "
                               "name different players")
    start = _field(source, number, record, "start", dict, optional=True) if "start" in record else None
    decklists = _field(source, number, record, "decklists", dict)
    if sorted(decklists) != sorted(players) or not all(
            isinstance(cards, list) and all(isinstance(c, str) for c in cards) for cards in decklists.values()):
        raise TraceRecordError(source, number, "field 'decklists': a list of card names for each "
                               f"player ({', '.join(players)})")
    entrants = _field(source, number, record, "entrants", dict)
    if sorted(entrants) != sorted(players) or not all(isinstance(v, str) for v in entrants.values()):
        raise TraceRecordError(source, number, "field 'entrants': a description for each player")
    seats = _field(source, number, record, "seats", list)
    if len(seats) != len(players):
        raise TraceRecordError(source, number, f"field 'seats': {len(seats)} seats for "
                               f"{len(players)} players")
    return TraceHeader(fmt, _field(source, number, record, "engine", str),
                       _field(source, number, record, "seed", int), dict(decks), tuple(players),
                       None if start is None else _start(source, number, start, len(players)),
                       _field(source, number, record, "game", str),
                       {p: tuple(cards) for p, cards in decklists.items()}, dict(entrants),
                       tuple(_seat(source, number, s, fmt) for s in seats),
                       _field(source, number, record, "turn_limit", int))


def _seat(source: str, number: int, record: object, fmt: int) -> SeatConfig:
    """One of the header's ``seats``: ``deadline``, ``auto_pass``, ``stops`` (or null), from
    format 8 ``clock`` (``base`` and ``increment``, or null), and from format 9
    ``priority_views`` (true or false; before, always true)."""
    if not isinstance(record, dict):
        raise TraceRecordError(source, number, f"field 'seats': expected maps, got {short_value(record)}")
    deadline = record.get("deadline")
    auto_pass = record.get("auto_pass")
    if not isinstance(deadline, int | float) or isinstance(deadline, bool) or type(auto_pass) is not bool:
        raise TraceRecordError(source, number, "field 'seats': each seat has a number 'deadline' "
                               f"and a true or false 'auto_pass', got {short_value(record)}")
    stops = record.get("stops")
    if fmt >= 8 and "clock" not in record:
        raise TraceRecordError(source, number, f"field 'seats': each seat has a 'clock' (null for "
                               f"none), got {short_value(record)}")
    clock = record.get("clock")
    views = record.get("priority_views", True)
    if fmt >= 9 and type(record.get("priority_views")) is not bool:
        raise TraceRecordError(source, number, f"field 'seats': each seat has a true or false "
                               f"'priority_views', got {short_value(record)}")
    try:
        parsed = None if stops is None else from_plain(Stops, stops, "stops")
        timed = None if clock is None else _clock(clock)
        return SeatConfig(auto_pass=auto_pass, timeout=float(deadline), stops=parsed, clock=timed,
                          priority_views=views)
    except (SpellstackError, ValueError) as err:
        raise TraceRecordError(source, number, f"field 'seats': {err}") from None


def _clock(record: object) -> GameClock:
    """A seat's ``clock``: ``base`` and ``increment`` in seconds (``ValueError`` if not)."""
    if not isinstance(record, dict) or record.keys() != {"base", "increment"}:
        raise ValueError(f"a seat's clock has a 'base' and an 'increment', got {short_value(record)}")
    return GameClock(record["base"], record["increment"])


def _start(source: str, number: int, record: Mapping[str, Any], players: int) -> StartSettings:
    """The header's ``start``: ``chooser`` (a seat, or null) and ``mulligans`` (true or false);
    in a game pair's games also ``starting`` (a seat) and ``library_seeds`` (one per seat)."""
    chooser = record.get("chooser")
    mulligans = record.get("mulligans")
    starting = record.get("starting")
    seeds = record.get("library_seeds", [])
    if starting is not None and (type(starting) is not int or not 0 <= starting < players):
        raise TraceRecordError(source, number, f"field 'start': 'starting' must be a seat from 0 "
                               f"to {players - 1}, got {short_value(starting)}")
    if (type(seeds) is not list or any(type(s) is not int for s in seeds)
            or len(seeds) not in (0, players)):
        raise TraceRecordError(source, number, f"field 'start': 'library_seeds' must be a list of "
                               f"{players} whole numbers, got {short_value(seeds)}")
    if chooser is not None and (type(chooser) is not int or not 0 <= chooser < players):
        raise TraceRecordError(source, number, f"field 'start': 'chooser' must be null or a seat "
                               f"from 0 to {players - 1}, got {short_value(chooser)}")
    if type(mulligans) is not bool:
        raise TraceRecordError(source, number, f"field 'start': 'mulligans' must be true or "
                               f"false, got {short_value(mulligans)}")
    return StartSettings(chooser, mulligans, starting, tuple(seeds))


def _message(source: str, number: int, record: Mapping[str, Any], fmt: int) -> TraceMessage:
    kind = _field(source, number, record, "kind", str)
    if kind not in MESSAGE_TYPES:
        raise TraceRecordError(source, number, f"unknown message kind {short_value(kind)}")
    payload = _field(source, number, record, "payload", dict)
    if fmt == 5 and kind in _COUNTED:
        payload = _counted(payload)
    if fmt < 7 and "view" in payload:
        payload = _marked(payload)
    if fmt < 8 and kind in _REQUESTS:
        payload = {**payload, "clock": None}
    data = b""
    if "bytes" in record:  # optional: a malformed event's unreadable bytes
        text = _field(source, number, record, "bytes", str)
        try:
            data = bytes.fromhex(text)
        except ValueError:
            raise TraceRecordError(source, number, f"field 'bytes': expected hexadecimal digits, "
                                   f"got {short_value(text)}") from None
    return TraceMessage(number, _field(source, number, record, "game", str),
                        _field(source, number, record, "seq", int),
                        _field(source, number, record, "sender", str),
                        _field(source, number, record, "receiver", str), kind, payload, data)


_REQUESTS = frozenset({"PriorityRequest", "DecisionRequest"})
"""The messages that show the seat's game clock from format 8 on (null: none)."""
_COUNTED = frozenset({"Resolved", "SBABatch"})
"""The replies that carried their events in format 5, and give their count from format 6 on."""


def _counted(payload: dict[str, Any]) -> dict[str, Any]:
    """A format-5 ``Resolved`` or ``SBABatch`` payload as format 6 writes it: its ``events``
    list replaced by their ``count`` (anything else is left for decoding to refuse)."""
    events = payload.get("events")
    if not isinstance(events, list):
        return payload
    out = {k: v for k, v in payload.items() if k != "events"}
    out["count"] = len(events)
    return out


_OBJECT_KEYS = frozenset(("id", "name", "owner", "controller", "types", "tapped", "damage",
                          "power", "toughness", "counters", "attached_to", "sick", "attacking",
                          "blocking"))
"""An object view's fields before format 7 added its ``marks``."""
_PLAYER_ADDED = {"dungeon": "", "room": "", "completed_dungeons": []}
"""The fields format 7 added to a player in a view, as a player with no dungeon has them."""


def _marked(payload: dict[str, Any]) -> dict[str, Any]:
    """A payload carrying a view, written before format 7, as format 7 writes it: each object
    view with ``marks`` null, each player with no dungeon, as those formats showed every object
    and player (a replay of such a game with a battle, a sector, a merged permanent or a
    dungeon shows them in its views, which then differ from the trace's)."""
    view = payload.get("view")
    if not isinstance(view, dict):
        return payload
    view = dict(view)
    objects = view.get("objects")
    if isinstance(objects, list):
        view["objects"] = [{**o, "marks": None} if isinstance(o, dict) and o.keys() == _OBJECT_KEYS
                           else o for o in objects]
    players = view.get("players")
    if isinstance(players, list):
        view["players"] = [{**p, **_PLAYER_ADDED} if isinstance(p, dict) and "hand_count" in p
                           and "dungeon" not in p else p for p in players]
    return {**payload, "view": view}


def _result(source: str, number: int, record: Mapping[str, Any]) -> TraceResult:
    left: tuple[float, ...] = ()
    if "clock_left" in record:  # only where there were game clocks
        times = _field(source, number, record, "clock_left", list)
        if not all(t is None or (isinstance(t, int | float) and not isinstance(t, bool)) for t in times):
            raise TraceRecordError(source, number, "field 'clock_left': expected a number of "
                                   f"seconds (or null) for each seat, got {short_value(times)}")
        left = tuple(math.inf if t is None else float(t) for t in times)
    return TraceResult(_field(source, number, record, "winner", str, optional=True),
                       _field(source, number, record, "reason", str),
                       _field(source, number, record, "turns", int),
                       _field(source, number, record, "final_hash", str),
                       _field(source, number, record, "seed", int, optional=True), left)
