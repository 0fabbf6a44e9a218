"""A game's record: the compact account of one game that plays it again (``--record FILE``).

A trace holds everything that crossed a channel; a record holds only what a replay needs and
can't compute: the set-up (seed, seats, decks, how the game started), each message every
player sent, in order, with how many messages it had received when it sent it, the bytes of
messages that could not be read, and the coordinator's forfeits of a seat (a forfeit for time
is replayed from them), then the result. It is a projection of the trace: ``GameRecorder``
builds it from the very records the tracer is handed (``TraceRecord``), so that anything that
plays a traced game can record it, with or without a trace file (``play_setup``).

It is one JSON object (``encode_record``; ``docs/records.md``): its keys sorted, no spaces, no
clock's reading, so the same game gives the same bytes. A message is kept in its named form
without the fields that hold their defaults (``sparse``), which is what makes it small: a
priority pass is ``{"action":{"kind":"pass"},"decision_id":7}``.

A game on game clocks is played by time as well as by answers, so its record also holds the
clocks and, for each answer a clocked seat had taken, the milliseconds its clock was charged;
for the reply that came too late, just more than the seat had left. That is what its replay
takes over each answer, so that every request shows the time left it showed and a loss on
time is lost again. The times are read off the requests' clock readings, as a trace's replay
reads them (``_SeatTimes``). A game without clocks gives the same record as before clocks were
recorded.

A message a seat sent once it had lost and left the game (forfeited, conceded, out of time: a
reply on its way as it left) is marked so (``AFTER_LOSS``), on a clock or not: the trace has it
after the game's last message, and the replay sends it as the game ends.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgpack  # type: ignore[import-untyped]  # ships no type information
import orjson

from .._version import __version__
from ..cards import Deck
from ..protocol import (
    Accepted,
    GameEvent,
    Message,
    SubmitAction,
    SubmitAnswer,
    decode_trusted,
    from_plain,
    to_plain,
)
from ..rules import InvalidMessageError, StartSettings
from ._clock import GameClock
from ._coordinator import GameResult, SeatConfig
from ._wire import TraceRecord

__all__ = [
    "AFTER_LOSS",
    "FORFEITED",
    "RECORD_EVENT",
    "RECORD_FORMAT",
    "UNREADABLE",
    "GameRecord",
    "GameRecorder",
    "RecordedMessage",
    "RecordedResult",
    "RecordedSeat",
    "deck_runs",
    "encode_record",
    "record_entry",
    "sparse",
]

RECORD_FORMAT = 1
"""Version of the record format (``docs/records.md``)."""
AFTER_LOSS = "after loss"
"""What a record's entry holds in place of a time for a message that came after its seat had
lost and left the game (forfeited, conceded, out of time): the game's trace has it after the
game's last message, and a replay sends it as the game ends."""
RECORD_EVENT = "record"
"""A record's ``event``: what tells a record from a trace, whose lines have ``header``,
``message`` and ``result``."""
UNREADABLE = "bytes"
"""The kind of a record's entry holding bytes a player sent that could not be read."""
FORFEITED = "forfeited"
"""The kind of a record's entry holding the coordinator's forfeit of a seat."""


@dataclass(frozen=True, slots=True)
class RecordedSeat:
    """One seat of a recorded game: who played it, with what, under which settings."""

    name: str
    """The player's name."""
    entrant: str
    """Who played it (a bot's class), as a trace's header names it."""
    bot_seed: int
    """The seed the seat's bot was given (``GameSetup.bot_seed``)."""
    deck: str
    """The deck's name."""
    cards: tuple[tuple[str, int], ...]
    """The deck, in its order, as runs of one card name: (name, count)."""
    config: SeatConfig
    """The seat's settings (deadline, automatic passes, stops)."""

    @property
    def decklist(self) -> tuple[str, ...]:
        """Every card of the deck, one entry per copy, in order."""
        return tuple(name for name, count in self.cards for _ in range(count))


@dataclass(frozen=True, slots=True)
class RecordedMessage:
    """One entry of a record: a message a player sent, bytes it sent that could not be read,
    or the coordinator's forfeit of its seat, in the order of the game."""

    seat: int
    """The seat it concerns."""
    after: int
    """How many messages the seat had received from the coordinator by then."""
    message: Message | None = None
    """The message sent; None for the two other kinds."""
    data: bytes = b""
    """Bytes the player sent that could not be read (a ``malformed`` event's)."""
    forfeit: str = ""
    """The coordinator's forfeit of the seat: its reason, as the trace's ``forfeit`` event."""
    clock_ms: int | None = None
    """For a message of a seat on a game clock: the milliseconds of its time it took, as the
    clock measured them. An answer taken: what its clock was charged for it (less than it had
    left); the reply that came too late: one more than it had left. None: neither, or no
    clock."""
    after_loss: bool = False
    """A message that came after its seat had lost and left the game (forfeited, conceded,
    out of time): numbered after the game's last message (``Wire.leave``), it is sent by a
    replay as the game ends."""


@dataclass(frozen=True, slots=True)
class RecordedResult:
    """How a recorded game ended."""

    winner: str | None
    """The winner's name, or None for a draw or an engine error."""
    reason: str
    """Why it ended."""
    turns: int
    """The turn it ended on."""
    final_hash: str
    """The hash of the final game state."""
    received: tuple[int, ...]
    """How many messages the coordinator sent each seat, by seat (a replay's seat is sent no
    more)."""
    clock_left: tuple[float, ...] = ()
    """Each seat's time left on its game clock at the end, in seconds, by seat
    (``GameResult.clock_left``: 0 for a seat that lost on time, ``inf`` for a seat without a
    clock beside seats with one); empty when no seat had a clock."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game's record (``docs/records.md``)."""

    format: int
    """The record format (``RECORD_FORMAT``)."""
    engine: str
    """The version of spellstack that wrote it."""
    game: str
    """The game's id."""
    seed: int
    """The game's seed."""
    seats: tuple[RecordedSeat, ...]
    """The seats, in seat order."""
    start: StartSettings | None
    """How a game started as a game of a match does (103.1, 103.5); None: the first seat
    plays first and everyone keeps seven cards."""
    turn_limit: int
    """The turn after which the game is a draw (0: none)."""
    messages: tuple[RecordedMessage, ...]
    """What the players sent, and the coordinator's forfeits, in order."""
    result: RecordedResult
    """How it ended."""

    @property
    def clocks(self) -> tuple[GameClock | None, ...]:
        """Each seat's game clock, by seat (None: it had none)."""
        return tuple(s.config.clock for s in self.seats)


def deck_runs(cards: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """A deck's cards as runs of one name, in order: a deck file's table gives each name once,
    so this is its name → count, and the runs give the order back exactly."""
    runs: list[tuple[str, int]] = []
    for name in cards:
        if runs and runs[-1][0] == name:
            runs[-1] = (name, runs[-1][1] + 1)
        else:
            runs.append((name, 1))
    return tuple(runs)


def sparse(obj: Any) -> Any:
    """``obj`` in the named form (``to_plain``) without the dataclass fields that hold their
    defaults, which reading it back fills in (``from_plain``)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            if f.default is not dataclasses.MISSING and value == f.default:
                continue
            if f.default_factory is not dataclasses.MISSING and value == f.default_factory():
                continue
            out[str(f.metadata.get("key", f.name))] = sparse(value)
        return out
    if isinstance(obj, list | tuple):
        return [sparse(x) for x in obj]
    return to_plain(obj)


def _compact(msg: Message) -> Any:
    """The message's payload as a record keeps it: sparse where that reads back the same."""
    payload = sparse(msg)
    try:
        same = from_plain(type(msg), payload) == msg
    except InvalidMessageError:
        same = False
    return payload if same else to_plain(msg)


def record_entry(entry: RecordedMessage) -> list[Any]:
    """An entry as the record's JSON holds it: ``[seat, after, KIND, payload]`` for a message
    (``[seat, after, KIND, payload, MS]`` with its time on a game clock, ``[seat, after, KIND,
    payload, "after loss"]`` once its seat had lost and left the game), ``[seat, after, "bytes",
    HEX]``, ``[seat, after, "forfeited", REASON]``."""
    if entry.message is not None:
        sent = [entry.seat, entry.after, entry.message.KIND, _compact(entry.message)]
        if entry.after_loss:
            sent.append(AFTER_LOSS)
        elif entry.clock_ms is not None:
            sent.append(entry.clock_ms)
        return sent
    if entry.forfeit:
        return [entry.seat, entry.after, FORFEITED, entry.forfeit]
    return [entry.seat, entry.after, UNREADABLE, entry.data.hex()]


def _seat_json(seat: RecordedSeat) -> dict[str, Any]:
    config = seat.config
    return {"name": seat.name, "entrant": seat.entrant, "bot_seed": seat.bot_seed,
            "deck": seat.deck, "cards": [list(run) for run in seat.cards],
            "deadline": config.timeout, "auto_pass": config.auto_pass,
            "stops": None if config.stops is None else to_plain(config.stops),
            # Only when off: the records of seats sent every view stay as they were.
            **({} if config.priority_views else {"priority_views": False})}


def _clock_json(clock: GameClock | None) -> dict[str, float] | None:
    """A game clock as a record (and a trace's header) holds it: ``base`` and ``increment``."""
    return None if clock is None else {"base": clock.base, "increment": clock.increment}


def _clocks_json(clocks: Sequence[GameClock | None]) -> Any:
    """A record's ``clock``: null (no seat has one), the clock every seat has, or each seat's
    (object or null) when they differ."""
    if all(c is None for c in clocks):
        return None
    if all(c == clocks[0] for c in clocks):
        return _clock_json(clocks[0])
    return [_clock_json(c) for c in clocks]


def encode_record(record: GameRecord) -> bytes:
    """The record as its file holds it: one JSON object, keys sorted, and a newline."""
    start = record.start
    result = record.result
    # The time left at the end only where there were clocks (a seat without one: null).
    clock_left = {"clock_left": [t if math.isfinite(t) else None for t in result.clock_left]
                  } if result.clock_left else {}
    body = {
        "event": RECORD_EVENT, "format": record.format, "engine": record.engine,
        "game": record.game, "seed": record.seed,
        "seats": [_seat_json(s) for s in record.seats],
        "start": None if start is None else {"chooser": start.chooser, "mulligans": start.mulligans}
        # A game pair's fixed start and library seeds, only when set.
        | ({} if start.starting is None else {"starting": start.starting})
        | ({"library_seeds": list(start.library_seeds)} if start.library_seeds else {}),
        "turn_limit": record.turn_limit, "clock": _clocks_json(record.clocks),
        "messages": [record_entry(m) for m in record.messages],
        "result": {"winner": result.winner, "reason": result.reason, "turns": result.turns,
                   "final_hash": result.final_hash, "received": list(result.received), **clock_left},
    }
    return orjson.dumps(body, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE)


class GameRecorder:
    """Builds a game's record from the records the tracer is handed (``message``, as a
    ``TraceWriter`` takes them), then its result (``finish``)."""

    def __init__(self, *, game: str, seed: int, seats: Sequence[RecordedSeat],
                 start: StartSettings | None, turn_limit: int) -> None:
        self._game = game
        self._seed = seed
        self._seats = tuple(seats)
        self._start = start
        self._turn_limit = turn_limit
        self._actor = {f"player:{s.name}": i for i, s in enumerate(self._seats)}
        self._received = [0] * len(self._seats)
        self._messages: list[RecordedMessage] = []
        self._times = [None if s.config.clock is None else _SeatTimes(s.config.clock) for s in self._seats]
        """Each seat's game clock as its requests show it (None: it has none)."""
        self.message: Callable[[TraceRecord], None] = (
            self._take if all(t is None for t in self._times) else self._take_on_clock)
        """Take one traced record (``TraceSink.message``): a message to a seat is counted, a
        message from one kept; of the events, a seat's unreadable bytes and its forfeits are
        kept. With game clocks, what a clocked seat is sent is read for its clock too (chosen
        once: a game without clocks pays nothing for them)."""

    @classmethod
    def of(cls, *, game: str, seed: int, names: Sequence[str], entrants: Sequence[str],
           bot_seeds: Sequence[int], decks: Sequence[Deck], configs: Sequence[SeatConfig],
           start: StartSettings | None, turn_limit: int) -> GameRecorder:
        """A recorder for a game of these seats, by seat."""
        seats = [RecordedSeat(n, e, b, d.name, deck_runs(d.cards), c)
                 for n, e, b, d, c in zip(names, entrants, bot_seeds, decks, configs, strict=True)]
        return cls(game=game, seed=seed, seats=seats, start=start, turn_limit=turn_limit)

    def _take(self, rec: TraceRecord) -> None:
        """``message`` (see there)."""
        seat = self._actor.get(rec.receiver)
        if seat is not None:
            self._received[seat] += 1
            return
        seat = self._actor.get(rec.sender)
        if seat is not None:
            self._messages.append(RecordedMessage(seat, self._received[seat], decode_trusted(rec.data),
                                                  after_loss=rec.left))
            return
        ev = rec.message
        if not isinstance(ev, GameEvent) or not 0 <= ev.player < len(self._seats):
            return
        if ev.kind == "malformed" and rec.data:
            self._messages.append(RecordedMessage(ev.player, self._received[ev.player], data=rec.data))
        elif ev.kind == "forfeit":
            self._messages.append(RecordedMessage(ev.player, self._received[ev.player], forfeit=ev.text))

    def _take_on_clock(self, rec: TraceRecord) -> None:
        """``message`` in a game with game clocks: a request to a clocked seat shows its time
        left (the time the answer taken before it cost), and an ``Accepted`` names the answer
        taken."""
        self._take(rec)
        seat = self._actor.get(rec.receiver)
        if seat is None:
            return
        times = self._times[seat]
        if times is None:
            return
        if rec.kind in _REQUESTS:
            times.asked = self._received[seat]
            # Read off the unpacked request, without building the message and its view.
            shown = msgpack.unpackb(rec.data, raw=False)["b"].get("clock")
            if shown is not None:
                times.reading(round(shown["left"] * 1000))
        elif rec.kind == _ACCEPTED:
            accepted = decode_trusted(rec.data)
            assert isinstance(accepted, Accepted)
            for i in range(len(self._messages) - 1, -1, -1):
                entry = self._messages[i]
                if entry.seat == seat and _decision_of(entry.message) == accepted.decision_id:
                    times.taken(i)
                    break

    def finish(self, result: GameResult) -> GameRecord:
        """The record of the game, ended with ``result``."""
        messages = self._messages
        spent: dict[int, int] = {}
        for seat, times in enumerate(self._times):
            if times is None:
                continue
            left = result.clock_left[seat] if seat < len(result.clock_left) else math.inf
            if left == 0:  # it lost on time, at its last request's reading
                times.lost(seat, messages)
            if math.isfinite(left):
                times.reading(round(left * 1000))
            spent |= times.spent
        if spent:
            messages = [dataclasses.replace(m, clock_ms=spent[i]) if i in spent else m
                        for i, m in enumerate(messages)]
        return GameRecord(RECORD_FORMAT, __version__, self._game, self._seed, self._seats,
                          self._start, self._turn_limit, tuple(messages),
                          RecordedResult(result.winner, result.reason, result.turns, result.final_hash,
                                         tuple(self._received), tuple(result.clock_left)))


_REQUESTS = frozenset(("PriorityRequest", "DecisionRequest"))
"""The messages that show a seat its game clock."""
_ACCEPTED = Accepted.KIND


def _decision_of(message: Message | None) -> int | None:
    """The decision a message answers (None: it answers none)."""
    if isinstance(message, SubmitAction):
        return message.decision_id
    if isinstance(message, SubmitAnswer):
        return message.answer.decision_id
    return None


class _SeatTimes:
    """One seat's game clock as the requests it is sent show it, and what each of its answers
    taken cost it: the time left falls by that, less the increment, from the reading before
    the answer to the next one (or to the end's time left). A trace's replay reads a trace's
    requests the same way."""

    __slots__ = ("_taken", "asked", "increment_ms", "left_ms", "spent")

    def __init__(self, clock: GameClock) -> None:
        self.left_ms = round(clock.base * 1000)
        """The last reading of the time left, in milliseconds."""
        self.increment_ms = round(clock.increment * 1000)
        """What each answer taken adds, in milliseconds."""
        self.asked = 0
        """How many messages the seat had been sent when its last request came."""
        self.spent: dict[int, int] = {}
        """Milliseconds each answer taken cost, and the reply too late, by record entry."""
        self._taken: tuple[int, int] | None = None
        """An answer taken whose cost the next reading tells: its entry, and the time left
        before it."""

    def taken(self, entry: int) -> None:
        """The answer of record entry ``entry`` was taken, at the last reading."""
        self._taken = (entry, self.left_ms)

    def reading(self, left_ms: int) -> None:
        """A reading of ``left_ms`` left: the cost of the answer taken before it, if any."""
        if self._taken is not None:
            entry, before = self._taken
            self._taken = None
            self.spent[entry] = before + self.increment_ms - left_ms
        self.left_ms = left_ms

    def lost(self, seat: int, messages: Sequence[RecordedMessage]) -> None:
        """The seat lost on time: if its last message (before it lost) answered its last
        request, that reply came too late, past the ``left_ms`` it had (a seat silent to the
        end sent none)."""
        for i in range(len(messages) - 1, -1, -1):
            entry = messages[i]
            if entry.seat == seat and entry.message is not None and not entry.after_loss:
                if entry.after >= self.asked:
                    self.spent[i] = self.left_ms + 1
                return
