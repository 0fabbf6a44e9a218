"""Reading a game's record (``--record FILE``) and playing its game again from it.

A record (``actors.GameRecord``; ``docs/records.md``) is one JSON object whose ``event`` is
``record``; a trace is JSON Lines whose first line's is ``header``. ``is_record`` tells them
apart by their content. ``parse_record`` reads a record, checking every key, and refuses one
of another record format or engine version (``RecordFormatError``); ``check_record`` plays its
game again, each seat sending what its player sent (the trace's replay, ``play_scripts``, fed
from the record: ``record_scripts``), and compares the result and the final state hash.
Traced (``trace_path``), the replay writes the very trace the game wrote.

A game on game clocks replays by the record's times, never by the replaying machine's: each
answer taken is sent after the milliseconds its clock was charged, and a reply that came too
late holds the loop past the time its seat had left, as a trace's replay does from the trace's
clock readings (``record_scripts``). A message that came after its seat had left the game
(``after loss``, on a clock or not) is sent as the game ends.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from .._version import __version__
from ..actors import (
    AFTER_LOSS,
    FORFEITED,
    RECORD_EVENT,
    RECORD_FORMAT,
    TRACE_FORMAT,
    UNREADABLE,
    GameClock,
    GameRecord,
    GameResult,
    RecordedMessage,
    RecordedResult,
    RecordedSeat,
    SeatConfig,
)
from ..cards import MAX_DECK_SIZE, short_value
from ..protocol import MESSAGE_TYPES, PLAYER_KINDS, Stops, from_plain
from ..rules import Game, SpellstackError, StartSettings
from ._read import ReplayMismatchError, TraceHeader
from ._replay import ScriptBuilder, SeatScript, play_scripts

__all__ = [
    "RecordCheck",
    "RecordError",
    "RecordFormatError",
    "check_record",
    "is_record",
    "parse_record",
    "read_record",
    "record_header",
    "record_scripts",
    "replay_record",
]

_KEYS = frozenset(("event", "format", "engine", "game", "seed", "seats", "start", "turn_limit",
                   "clock", "messages", "result"))
"""A record's keys, every one required."""
_SEAT_KEYS = frozenset(("name", "entrant", "bot_seed", "deck", "cards", "deadline", "auto_pass", "stops"))
"""A seat's keys, every one required (and ``priority_views``, false, for a seat whose priority
requests carried no view; without it, true)."""
_RESULT_KEYS = frozenset(("winner", "reason", "turns", "final_hash", "received"))
"""The result's keys, every one required (and ``clock_left``, required with game clocks and
only then)."""
_CLOCK_KEYS = frozenset(("base", "increment"))
"""A game clock's keys, both required."""
_BROKEN_RECORD = re.compile(rb'"event"\s*:\s*"record"')
"""How a record that is not JSON (cut short, edited) still shows what it was meant to be."""


class RecordError(ValueError):
    """A file that is not a record: names the file and what is wrong (``where: problem``)."""

    def __init__(self, source: str, problem: str) -> None:
        super().__init__(f"{source}: {problem}")
        self.source = source
        """The file (or the name given to ``parse_record``)."""
        self.problem = problem
        """What is wrong with it."""


class RecordFormatError(RecordError):
    """A record of another record format or written by another version of spellstack."""


def is_record(data: bytes) -> bool:
    """Whether ``data`` is meant as a record rather than a trace: one JSON object whose
    ``event`` is ``record`` (or, not JSON, a first line that says so: a record cut short)."""
    if data.lstrip()[:1] != b"{":
        return False
    try:
        whole = orjson.loads(data)
    except orjson.JSONDecodeError:
        first = data.split(b"\n", 1)[0]
        try:
            orjson.loads(first)
        except orjson.JSONDecodeError:
            return _BROKEN_RECORD.search(data[:65536]) is not None
        return False  # a whole first line, more after it: a trace's lines
    return isinstance(whole, dict) and whole.get("event") == RECORD_EVENT


def read_record(path: str | Path) -> GameRecord:
    """Read a record file (``parse_record``)."""
    path = Path(path)
    return parse_record(path.read_bytes(), str(path))


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", int: "an integer",
            float: "a number", bool: "true or false", type(None): "null"}.get(type(value), type(value).__name__)


class _Reader:
    """Checks one record's values, naming where each is (``seats[0].cards``)."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> RecordError:
        return RecordError(self.source, f"{where}: {problem}")

    def get(self, record: Mapping[str, Any], key: str, where: str, *types: type, null: bool = False) -> Any:
        """``record[key]``, of one of ``types`` (true and false are no integers); ``null``: or
        None."""
        name = f"{where}.{key}" if where else key
        if key not in record:
            raise RecordError(self.source, f"missing key {name!r}")
        value = record[key]
        if value is None and null:
            return None
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            want = " or ".join(_kind(t()) for t in types) + (" or null" if null else "")
            raise self.fail(name, f"expected {want}, got {_kind(value)} {short_value(value)}")
        return value

    def keys(self, record: Mapping[str, Any], expected: frozenset[str], where: str) -> None:
        """Every key of ``expected`` there, and no other."""
        missing = sorted(expected - record.keys())
        if missing:
            name = f"{where}.{missing[0]}" if where else missing[0]
            raise RecordError(self.source, f"missing key {name!r}")
        extra = sorted(record.keys() - expected)
        if extra:
            name = f"{where}.{extra[0]}" if where else extra[0]
            raise RecordError(self.source, f"unknown key {name!r}")

    def seat(self, raw: Any, where: str) -> RecordedSeat:
        if not isinstance(raw, dict):
            raise self.fail(where, f"expected an object, got {_kind(raw)}")
        self.keys(raw, _SEAT_KEYS | (raw.keys() & {"priority_views"}), where)
        cards = self.get(raw, "cards", where, list)
        runs = []
        for i, run in enumerate(cards):
            if (not isinstance(run, list) or len(run) != 2 or not isinstance(run[0], str)
                    or type(run[1]) is not int or run[1] < 1):
                raise self.fail(f"{where}.cards[{i}]", f"expected [card name, count of 1 or more], "
                                f"got {short_value(run)}")
            runs.append((run[0], run[1]))
        if sum(count for _, count in runs) > MAX_DECK_SIZE:
            raise self.fail(f"{where}.cards", f"more than {MAX_DECK_SIZE} cards")
        deadline = self.get(raw, "deadline", where, float, int)
        if deadline <= 0:
            raise self.fail(f"{where}.deadline", f"expected seconds above 0, got {deadline}")
        stops_raw = self.get(raw, "stops", where, dict, null=True)
        try:
            stops = None if stops_raw is None else from_plain(Stops, stops_raw, "stops")
            config = SeatConfig(auto_pass=self.get(raw, "auto_pass", where, bool),
                                timeout=float(deadline), stops=stops,
                                priority_views=self.get(raw, "priority_views", where, bool)
                                if "priority_views" in raw else True)
        except (SpellstackError, ValueError) as err:
            raise self.fail(f"{where}.stops", str(err)) from None
        return RecordedSeat(self.get(raw, "name", where, str), self.get(raw, "entrant", where, str),
                            self.get(raw, "bot_seed", where, int), self.get(raw, "deck", where, str),
                            tuple(runs), config)

    def start(self, raw: Any, seats: int) -> StartSettings | None:
        if raw is None:
            return None
        if not isinstance(raw, dict):
            raise self.fail("start", f"expected an object or null, got {_kind(raw)}")
        required = frozenset(("chooser", "mulligans"))
        self.keys(raw, required | (raw.keys() & {"starting", "library_seeds"}), "start")
        chooser = self.get(raw, "chooser", "start", int, null=True)
        if chooser is not None and not 0 <= chooser < seats:
            raise self.fail("start.chooser", f"expected null or a seat from 0 to {seats - 1}, got {chooser}")
        starting = self.get(raw, "starting", "start", int) if "starting" in raw else None
        if starting is not None and not 0 <= starting < seats:
            raise self.fail("start.starting", f"expected a seat from 0 to {seats - 1}, got {starting}")
        seeds = self.get(raw, "library_seeds", "start", list) if "library_seeds" in raw else []
        if seeds and (len(seeds) != seats or any(type(x) is not int for x in seeds)):
            raise self.fail("start.library_seeds", f"expected {seats} whole numbers, got {short_value(seeds)}")
        return StartSettings(chooser, self.get(raw, "mulligans", "start", bool), starting, tuple(seeds))

    def clock(self, raw: Any, where: str) -> GameClock | None:
        """A game clock, ``{"base": SECONDS, "increment": SECONDS}``, or null."""
        if raw is None:
            return None
        if not isinstance(raw, dict):
            raise self.fail(where, f"expected an object or null, got {_kind(raw)}")
        self.keys(raw, _CLOCK_KEYS, where)
        try:
            return GameClock(self.get(raw, "base", where, float, int),
                             self.get(raw, "increment", where, float, int))
        except ValueError as err:
            raise self.fail(where, str(err)) from None

    def clocks(self, raw: Any, seats: int) -> tuple[GameClock | None, ...]:
        """The record's ``clock``: null, the clock of every seat, or each seat's (a list)."""
        if not isinstance(raw, list):
            return (self.clock(raw, "clock"),) * seats
        if len(raw) != seats:
            raise self.fail("clock", f"expected a clock (or null) for each of the {seats} seats, "
                            f"got {short_value(raw)}")
        return tuple(self.clock(c, f"clock[{i}]") for i, c in enumerate(raw))

    def entry(self, raw: Any, where: str, clocks: tuple[GameClock | None, ...]) -> RecordedMessage:
        seats = len(clocks)
        if not isinstance(raw, list) or len(raw) not in (4, 5):
            raise self.fail(where, f"expected [seat, messages received, kind, what] (and milliseconds "
                            f"on a game clock), got {short_value(raw)}")
        seat, after, kind, body = raw[:4]
        if type(seat) is not int or not 0 <= seat < seats:
            raise self.fail(where, f"the seat must be from 0 to {seats - 1}, got {short_value(seat)}")
        if type(after) is not int or after < 0:
            raise self.fail(where, f"messages received must be 0 or more, got {short_value(after)}")
        if len(raw) == 5:
            spent = raw[4]
            if kind == UNREADABLE or kind == FORFEITED:
                raise self.fail(where, f"{kind}: expected 4 items, got 5 (only a message takes time)")
            if spent == AFTER_LOSS:  # a seat on a clock or not
                return dataclasses.replace(self.entry(raw[:4], where, clocks), after_loss=True)
            if clocks[seat] is None:
                raise self.fail(where, f"a time on a game clock, but seat {seat} has none")
            entry = self.entry(raw[:4], where, clocks)
            if type(spent) is not int or spent < 0:
                raise self.fail(where, f"the time on the clock must be a whole number of milliseconds, "
                                f"0 or more, or {AFTER_LOSS!r}, got {short_value(spent)}")
            return dataclasses.replace(entry, clock_ms=spent)
        if kind == UNREADABLE or kind == FORFEITED:
            if not isinstance(body, str):
                raise self.fail(where, f"{kind}: expected a string, got {_kind(body)}")
            if kind == FORFEITED:
                return RecordedMessage(seat, after, forfeit=body)
            try:
                return RecordedMessage(seat, after, data=bytes.fromhex(body))
            except ValueError:
                raise self.fail(where, f"bytes: expected hexadecimal digits, got {short_value(body)}") from None
        if kind not in PLAYER_KINDS:
            raise self.fail(where, f"unknown kind {short_value(kind)}: expected a message a player "
                            f"sends ({', '.join(sorted(PLAYER_KINDS))}), {UNREADABLE!r} or {FORFEITED!r}")
        try:
            return RecordedMessage(seat, after, from_plain(MESSAGE_TYPES[kind], body, "payload"))
        except SpellstackError as err:
            raise self.fail(where, f"{kind}: {err}") from None

    def result(self, raw: Any, messages: tuple[RecordedMessage, ...], clocks: tuple[GameClock | None, ...]
               ) -> RecordedResult:
        seats = len(clocks)
        if not isinstance(raw, dict):
            raise self.fail("result", f"expected an object, got {_kind(raw)}")
        timed = any(c is not None for c in clocks)
        self.keys(raw, _RESULT_KEYS | ({"clock_left"} if timed else set()), "result")
        received = self.get(raw, "received", "result", list)
        if len(received) != seats or not all(type(n) is int for n in received):
            raise self.fail("result.received", f"expected a count of messages for each of the {seats} "
                            f"seats, got {short_value(received)}")
        for m in messages:
            if m.after > received[m.seat]:
                raise self.fail("result.received", f"seat {m.seat} was sent {received[m.seat]} messages, "
                                f"but an entry says it had received {m.after}")
        return RecordedResult(self.get(raw, "winner", "result", str, null=True),
                              self.get(raw, "reason", "result", str),
                              self.get(raw, "turns", "result", int),
                              self.get(raw, "final_hash", "result", str), tuple(received),
                              self.clock_left(raw, clocks) if timed else ())

    def clock_left(self, raw: Mapping[str, Any], clocks: tuple[GameClock | None, ...]) -> tuple[float, ...]:
        """``result.clock_left``: each seat's seconds left, null for a seat without a clock."""
        left = self.get(raw, "clock_left", "result", list)
        if len(left) != len(clocks) or not all(
                (t is None) if c is None else (isinstance(t, int | float) and not isinstance(t, bool) and t >= 0)
                for t, c in zip(left, clocks, strict=True)):
            raise self.fail("result.clock_left", f"expected the seconds left (0 or more) on each of the "
                            f"{len(clocks)} seats' clocks, null for a seat without one, got {short_value(left)}")
        return tuple(math.inf if t is None else float(t) for t in left)


def parse_record(data: bytes, source: str = "<record>") -> GameRecord:
    """Read a record from its bytes; ``source`` names it in errors. ``RecordFormatError`` for
    one of another record format or engine version (naming both), ``RecordError`` for
    anything else that is not a record: not JSON, a key missing, unknown or of another type,
    a message that doesn't decode as its kind."""
    try:
        raw = orjson.loads(data)
    except orjson.JSONDecodeError as err:
        raise RecordError(source, f"not JSON ({err})") from None
    if not isinstance(raw, dict):
        raise RecordError(source, f"expected a JSON object, got {_kind(raw)}")
    read = _Reader(source)
    if raw.get("event") != RECORD_EVENT:
        raise RecordError(source, f"'event' must be {RECORD_EVENT!r}, got {short_value(raw.get('event'))}")
    fmt = read.get(raw, "format", "", int)
    if fmt != RECORD_FORMAT:
        raise RecordFormatError(source, f"record format {fmt}; this version reads record format {RECORD_FORMAT}")
    engine = read.get(raw, "engine", "", str)
    if engine != __version__:
        raise RecordFormatError(source, f"written by spellstack {engine}; this is spellstack {__version__}, "
                                "and a record replays only on the version that wrote it")
    read.keys(raw, _KEYS, "")
    seats = tuple(read.seat(s, f"seats[{i}]") for i, s in enumerate(read.get(raw, "seats", "", list)))
    names = [s.name for s in seats]
    if len(seats) < 2:
        raise read.fail("seats", f"a game has two seats or more, got {len(seats)}")
    if len(set(names)) != len(names):
        raise read.fail("seats", f"two seats have the same name: {names}")
    clocks = read.clocks(raw["clock"], len(seats))
    seats = tuple(dataclasses.replace(s, config=dataclasses.replace(s.config, clock=c))
                  for s, c in zip(seats, clocks, strict=True))
    turn_limit = read.get(raw, "turn_limit", "", int)
    if turn_limit < 0:
        raise read.fail("turn_limit", f"expected 0 (none) or more, got {turn_limit}")
    messages = tuple(read.entry(m, f"messages[{i}]", clocks)
                     for i, m in enumerate(read.get(raw, "messages", "", list)))
    received = [0] * len(seats)
    for i, m in enumerate(messages):
        if m.after < received[m.seat]:
            raise read.fail(f"messages[{i}]", f"seat {m.seat} had received {received[m.seat]} messages by an "
                            f"earlier entry, this one says {m.after}")
        received[m.seat] = m.after
    return GameRecord(fmt, engine, read.get(raw, "game", "", str), read.get(raw, "seed", "", int), seats,
                      read.start(raw["start"], len(seats)), turn_limit, messages,
                      read.result(raw["result"], messages, clocks))


def record_header(record: GameRecord) -> TraceHeader:
    """The header of the trace of the record's game (what ``--trace`` wrote for it)."""
    seats = record.seats
    return TraceHeader(TRACE_FORMAT, record.engine, record.seed, {s.name: s.deck for s in seats},
                       tuple(s.name for s in seats), record.start, record.game,
                       {s.name: s.decklist for s in seats}, {s.name: s.entrant for s in seats},
                       tuple(s.config for s in seats), record.turn_limit)


def record_scripts(record: GameRecord) -> list[SeatScript]:
    """Each seat's script (``ScriptBuilder``), in seat order: what it sent, when, and the
    coordinator's forfeits of it, as a trace of the game tells them. On a game clock, each
    message the record gives a time takes that time (``ScriptBuilder.timed``): one within the
    time its seat had left was an answer taken, which that time less the increment comes off;
    one past it, the reply that came too late. One that came after its seat had left the game
    (a forfeit, a concession, a loss on time) is sent as the game ends."""
    builders = [ScriptBuilder(s.name) for s in record.seats]
    clocks = record.clocks
    left = [0 if c is None else round(c.base * 1000) for c in clocks]
    for line, entry in enumerate(record.messages, start=1):
        build = builders[entry.seat]
        # The entries say how many messages each seat had received (never fewer than an
        # earlier entry of the seat: ``parse_record``); the script counts them.
        build.receive(entry.after - build.received)
        if entry.message is not None:
            build.sent(line, entry.message, at_end=entry.after_loss)
            clock = clocks[entry.seat]
            if entry.clock_ms is not None and clock is not None:  # a time only on a clock
                late = entry.clock_ms >= left[entry.seat]
                build.timed(entry.clock_ms, late=late)
                if not late:
                    left[entry.seat] += round(clock.increment * 1000) - entry.clock_ms
        elif entry.forfeit:
            build.forfeited(entry.forfeit)
        else:
            build.unreadable(line, entry.data)
    for build, total in zip(builders, record.result.received, strict=True):
        build.receive(max(total - build.received, 0))
    return [b.script() for b in builders]


@dataclass(frozen=True, slots=True)
class RecordCheck:
    """What ``check_record`` found."""

    recorded: RecordedResult
    """How the record says the game ended."""
    replayed: RecordedResult | None
    """How the replay ended; None if it could not be played."""
    problems: tuple[str, ...]
    """Each way the replay differs from the record; empty: none."""
    messages: int
    """The record's entries (messages the players sent, and forfeits)."""

    @property
    def identical(self) -> bool:
        """Whether the replay ended as recorded, in the same final state."""
        return not self.problems


@dataclass(frozen=True, slots=True)
class _Replayed:
    """A record's game played again."""

    game: Game | None
    """The game (its final state); None if it could not be set up."""
    result: RecordedResult | None
    """How it ended, and what each seat was sent; None if it was not played."""
    full: GameResult | None
    """Its result as played."""
    problems: list[str]
    """How it differs from the record."""


def _times(names: list[str], left: tuple[float, ...]) -> str:
    """Each seat's time left, as ``spellstack play`` says it: ``ann 1.250 s, ben 0.000 s``
    (none: no clock, or none kept)."""
    return ", ".join(f"{n} {'no clock' if math.isinf(t) else f'{t:.3f} s'}"
                     for n, t in zip(names, left, strict=False)) or "none"


async def _play(record: GameRecord, trace_path: Path | None) -> _Replayed:
    """Play the record's game again and compare."""
    try:
        game, result, seats = await play_scripts(record_header(record), record_scripts(record),
                                                 trace_path=trace_path)
    except SpellstackError as err:  # the game can't be set up again (an unknown card)
        return _Replayed(None, None, None, [str(err)])
    problems = []
    if isinstance(result.error, ReplayMismatchError):
        problems.append(str(result.error))
    r = record.result
    if (result.winner, result.reason, result.turns) != (r.winner, r.reason, r.turns):
        problems.append(f"ended {result.reason!r} on turn {result.turns}; recorded: {r.reason!r} on "
                        f"turn {r.turns}")
    if result.final_hash != r.final_hash:
        problems.append(f"final state hash {result.final_hash}, recorded {r.final_hash}")
    if tuple(result.clock_left) != r.clock_left:
        names = [s.name for s in record.seats]
        problems.append(f"time left at the end {_times(names, result.clock_left)}; recorded "
                        f"{_times(names, r.clock_left)}")
    problems += [f"{s.script.player} sent {s.sent} of its {len(s.script.steps)} recorded messages"
                 for s in seats if s.sent != len(s.script.steps)]
    mine = RecordedResult(result.winner, result.reason, result.turns, result.final_hash,
                          tuple(s.received for s in seats), tuple(result.clock_left))
    return _Replayed(game, mine, result, problems)


async def check_record(record: GameRecord, *, trace_path: Path | None = None) -> RecordCheck:
    """Play the record's game again, each seat sending what its player sent, where it sent it
    (as ``replay_trace`` does), and compare how it ends (winner, reason, turn) and its final
    state hash with the record's. ``trace_path``: trace the replay there (the game's trace,
    byte for byte)."""
    played = await _play(record, trace_path)
    return RecordCheck(record.result, played.result, tuple(played.problems), len(record.messages))


async def replay_record(record: GameRecord, *, trace_path: Path | None = None) -> tuple[Game, GameResult]:
    """Play the record's game again (``check_record``); returns the game and its result, or
    raises ``ReplayMismatchError`` naming how the replay differs from the record."""
    played = await _play(record, trace_path)
    if played.problems or played.game is None or played.full is None:
        raise ReplayMismatchError("the replay differs from the record: " + "; ".join(played.problems))
    return played.game, played.full
