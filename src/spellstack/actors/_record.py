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
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from .._version import __version__
from ..cards import Deck
from ..protocol import GameEvent, Message, decode_trusted, from_plain, to_plain
from ..rules import InvalidMessageError, StartSettings
from ._coordinator import GameResult, SeatConfig
from ._wire import TraceRecord

__all__ = [
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
    clock: None = None
    """The game clock's settings: none yet, kept as null."""


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
    """An entry as the record's JSON holds it: ``[seat, after, KIND, payload]`` for a message,
    ``[seat, after, "bytes", HEX]``, ``[seat, after, "forfeited", REASON]``."""
    if entry.message is not None:
        return [entry.seat, entry.after, entry.message.KIND, _compact(entry.message)]
    if entry.forfeit:
        return [entry.seat, entry.after, FORFEITED, entry.forfeit]
    return [entry.seat, entry.after, UNREADABLE, entry.data.hex()]


def _seat_json(seat: RecordedSeat) -> dict[str, Any]:
    config = seat.config
    return {"name": seat.name, "entrant": seat.entrant, "bot_seed": seat.bot_seed,
            "deck": seat.deck, "cards": [list(run) for run in seat.cards],
            "deadline": config.timeout, "auto_pass": config.auto_pass,
            "stops": None if config.stops is None else to_plain(config.stops)}


def encode_record(record: GameRecord) -> bytes:
    """The record as its file holds it: one JSON object, keys sorted, and a newline."""
    start = record.start
    result = record.result
    body = {
        "event": RECORD_EVENT, "format": record.format, "engine": record.engine,
        "game": record.game, "seed": record.seed,
        "seats": [_seat_json(s) for s in record.seats],
        "start": None if start is None else {"chooser": start.chooser, "mulligans": start.mulligans}
        # A game pair's fixed start and library seeds, only when set.
        | ({} if start.starting is None else {"starting": start.starting})
        | ({"library_seeds": list(start.library_seeds)} if start.library_seeds else {}),
        "turn_limit": record.turn_limit, "clock": record.clock,
        "messages": [record_entry(m) for m in record.messages],
        "result": {"winner": result.winner, "reason": result.reason, "turns": result.turns,
                   "final_hash": result.final_hash, "received": list(result.received)},
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

    @classmethod
    def of(cls, *, game: str, seed: int, names: Sequence[str], entrants: Sequence[str],
           bot_seeds: Sequence[int], decks: Sequence[Deck], configs: Sequence[SeatConfig],
           start: StartSettings | None, turn_limit: int) -> GameRecorder:
        """A recorder for a game of these seats, by seat."""
        seats = [RecordedSeat(n, e, b, d.name, deck_runs(d.cards), c)
                 for n, e, b, d, c in zip(names, entrants, bot_seeds, decks, configs, strict=True)]
        return cls(game=game, seed=seed, seats=seats, start=start, turn_limit=turn_limit)

    def message(self, rec: TraceRecord) -> None:
        """Take one traced record: a message to a seat is counted, a message from one kept;
        of the events, a seat's unreadable bytes and its forfeits are kept."""
        seat = self._actor.get(rec.receiver)
        if seat is not None:
            self._received[seat] += 1
            return
        seat = self._actor.get(rec.sender)
        if seat is not None:
            self._messages.append(RecordedMessage(seat, self._received[seat], decode_trusted(rec.data)))
            return
        ev = rec.message
        if not isinstance(ev, GameEvent) or not 0 <= ev.player < len(self._seats):
            return
        if ev.kind == "malformed" and rec.data:
            self._messages.append(RecordedMessage(ev.player, self._received[ev.player], data=rec.data))
        elif ev.kind == "forfeit":
            self._messages.append(RecordedMessage(ev.player, self._received[ev.player], forfeit=ev.text))

    def finish(self, result: GameResult) -> GameRecord:
        """The record of the game, ended with ``result``."""
        return GameRecord(RECORD_FORMAT, __version__, self._game, self._seed, self._seats,
                          self._start, self._turn_limit, tuple(self._messages),
                          RecordedResult(result.winner, result.reason, result.turns, result.final_hash,
                                         tuple(self._received)))

