"""What a tournament and its worker processes say to each other over the worker's stdin and
stdout: frames of msgpack, each a 4-byte big-endian length and then that many bytes.

The tournament's first frame is the setup (``{"t": "setup", ...}``: every entrant as its name,
bot spec, deck name and card names, how many games the worker plays at once, the trace
folder); then one frame per game to play (``{"t": "game", "n": ticket, "spec": {...}}``).
The worker answers each game with ``{"t": "row", "n": ticket, "row": {...}}``, the ticket
the tournament gave the game, in the order the games end; a worker that cannot use its setup
(a bot spec it cannot load) says ``{"t": "refused", "reason": ...}`` and exits. Specs and rows are maps of
``GameSpec``'s and ``GameRow``'s fields by name. A frame that is not one of these, or a
stream that ends inside a frame, is a ``FrameError``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import msgpack  # type: ignore[import-untyped]  # ships no type information
import trio

from ..actors import GameClock
from ..cards import Deck
from ..seats import DEFAULT_BOT_MEMORY, FrameError, frame, load_bot, with_memory
from ..seats import FrameReader as _Frames
from ._games import DEFAULT_DEADLINE, Contestant, GameRow, GameSpec

__all__ = [
    "MAX_FRAME",
    "WIRE_VERSION",
    "FrameError",
    "FrameReader",
    "Message",
    "Setup",
    "WorkerEntrant",
    "decode_game",
    "decode_row",
    "decode_setup",
    "encode_frame",
    "game_message",
    "refused_message",
    "row_message",
    "seats_of",
    "setup_message",
]

WIRE_VERSION = 3
"""The setup frame's ``v``: a worker refuses a setup of another version."""

MAX_FRAME = 16 * 1024 * 1024
"""The largest frame either side reads, in bytes (a setup of many big decks is far smaller)."""

Message = dict[str, object]
"""One decoded frame: a map with at least ``t``, the message's type."""


@dataclass(frozen=True, slots=True)
class WorkerEntrant:
    """An entrant as a worker process rebuilds it: plain data, no bot object."""

    name: str
    """The entrant's name."""
    bot: str
    """Its bot spec, as ``load_bot`` takes it (the worker loads it again)."""
    deck: Deck
    """Its deck."""
    trusted: bool = False
    """Whether a Python class bot runs in the worker's own process (``--trust``) rather than
    in a bot process of its own (``load_bot``)."""
    memory: int = DEFAULT_BOT_MEMORY
    """A bot process's memory limit in bytes."""


def seats_of(entrants: Sequence[WorkerEntrant]) -> tuple[Contestant, ...]:
    """The entrants as games need them, each bot loaded again from its spec (``load_bot``:
    ``EntrantError`` if one can't be)."""
    return tuple(Contestant(e.name, e.deck, with_memory(load_bot(e.bot, trust=e.trusted), e.memory))
                 for e in entrants)


@dataclass(frozen=True, slots=True)
class Setup:
    """A worker's setup: the first frame it reads."""

    entrants: tuple[WorkerEntrant, ...]
    """Every entrant of the tournament, by index."""
    concurrency: int
    """How many games the worker plays at once."""
    trace_dir: Path | None
    """Where each game's trace goes, or None."""
    deadline: float = DEFAULT_DEADLINE
    """Seconds each seat has for each decision."""


def encode_frame(message: Mapping[str, object]) -> bytes:
    """``message`` as one frame: its length, then its msgpack."""
    return frame(msgpack.packb(message, use_bin_type=True))


class FrameReader:
    """Reads the messages of a tournament's frames from a byte stream (``_frames``: at most
    ``MAX_FRAME`` bytes each). Cancelling ``receive`` loses nothing."""

    def __init__(self, stream: trio.abc.ReceiveStream) -> None:
        self.stream = stream
        """The stream it reads."""
        self.frames = _Frames(stream, MAX_FRAME)
        """The frames on it."""

    async def receive(self) -> Message | None:
        """The next frame's message, or None if the stream ended between frames."""
        payload = await self.frames.receive_payload()
        return None if payload is None else _decode(payload)


def _decode(payload: bytes) -> Message:
    """One frame's payload as a message."""
    try:
        value = msgpack.unpackb(payload, raw=False)
    except Exception as exc:  # msgpack raises several kinds of error for bad bytes
        raise FrameError(f"not msgpack: {exc}") from exc
    if not isinstance(value, dict) or not isinstance(value.get("t"), str):
        raise FrameError(f"not a message (a map with a type 't'): {value!r:.200}")
    return value


def setup_message(entrants: Sequence[WorkerEntrant], concurrency: int, trace_dir: Path | None,
                  deadline: float = DEFAULT_DEADLINE) -> Message:
    """The setup frame's message."""
    return {"t": "setup", "v": WIRE_VERSION, "concurrency": concurrency,
            "trace_dir": None if trace_dir is None else str(trace_dir), "deadline": float(deadline),
            "entrants": [{"name": e.name, "bot": e.bot, "deck": e.deck.name, "cards": list(e.deck.cards),
                          "trusted": e.trusted, "memory": e.memory} for e in entrants]}


def game_message(ticket: int, spec: GameSpec) -> Message:
    """A game to play, under the tournament's ticket for it."""
    return {"t": "game", "n": ticket, "spec": {
        "game_id": spec.game_id, "round": spec.round, "match": spec.match, "number": spec.number,
        "seed": spec.seed, "entrants": list(spec.entrants), "bot_seeds": list(spec.bot_seeds),
        "chooser": spec.chooser, "starting": spec.starting,
        "library_seeds": list(spec.library_seeds), "turn_limit": spec.turn_limit,
        "record_path": spec.record_path,
        "clock": None if spec.clock is None else [spec.clock.base, spec.clock.increment]}}


def row_message(ticket: int, row: GameRow) -> Message:
    """A finished game's row, under the ticket its game came with."""
    return {"t": "row", "n": ticket, "row": {
        "game_id": row.game_id, "round": row.round, "match": row.match, "number": row.number,
        "seed": row.seed, "entrants": list(row.entrants), "bot_seeds": list(row.bot_seeds),
        "chooser": row.chooser, "starting": row.starting, "mulligans": list(row.mulligans),
        "winner": row.winner, "reason": row.reason, "turns": row.turns, "decisions": row.decisions,
        "final_hash": row.final_hash, "seconds": row.seconds,
        "clock_left": [float(t) for t in row.clock_left]}}


def refused_message(reason: str) -> Message:
    """A worker's answer to a setup it cannot use (it then exits)."""
    return {"t": "refused", "reason": reason}


def decode_setup(message: Message) -> Setup:
    """A setup message's contents."""
    _expect(message, "setup")
    if message.get("v") != WIRE_VERSION:
        raise FrameError(f"setup of wire version {message.get('v')!r}, this worker speaks {WIRE_VERSION}")
    entrants = []
    for item in _list(message, "entrants"):
        entrant = _map(item, "an entrant")
        cards = tuple(_str_item(c, "a card name") for c in _list(entrant, "cards"))
        trusted = entrant.get("trusted")
        if type(trusted) is not bool:
            raise FrameError(f"setup: an entrant's trusted {trusted!r:.200}")
        memory = entrant.get("memory")
        if type(memory) is not int or memory < 0:
            raise FrameError(f"setup: an entrant's memory {memory!r:.200}")
        entrants.append(WorkerEntrant(_str(entrant, "name"), _str(entrant, "bot"),
                                      Deck(_str(entrant, "deck"), cards), trusted, memory))
    trace_dir = message.get("trace_dir")
    if trace_dir is not None and not isinstance(trace_dir, str):
        raise FrameError(f"setup: trace_dir {trace_dir!r}")
    concurrency = _int(message, "concurrency")
    if concurrency < 1:
        raise FrameError(f"setup: concurrency {concurrency}")
    deadline = message.get("deadline")
    if type(deadline) is not float or not deadline > 0:
        raise FrameError(f"setup: deadline {deadline!r:.200}")
    return Setup(tuple(entrants), concurrency, None if trace_dir is None else Path(trace_dir), deadline)


def decode_game(message: Message) -> tuple[int, GameSpec]:
    """A game message's ticket and spec."""
    _expect(message, "game")
    spec = _map(message.get("spec"), "a spec")
    chooser = spec.get("chooser")
    if chooser is not None and type(chooser) is not int:
        raise FrameError(f"spec: chooser {chooser!r}")
    starting = spec.get("starting")
    if starting is not None and type(starting) is not int:
        raise FrameError(f"spec: starting {starting!r}")
    return _int(message, "n"), GameSpec(
        _str(spec, "game_id"), _int(spec, "round"), _int(spec, "match"), _int(spec, "number"),
        _int(spec, "seed"), _ints(spec, "entrants"), _ints(spec, "bot_seeds"), chooser, starting,
        _ints(spec, "library_seeds"), _int(spec, "turn_limit"), _str(spec, "record_path"),
        _clock(spec.get("clock")))


def _clock(value: object) -> GameClock | None:
    """A spec's clock: null or [base, increment]."""
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != 2
            or not all(type(v) is float for v in value)):
        raise FrameError(f"spec: clock {value!r:.200}")
    try:
        return GameClock(value[0], value[1])
    except ValueError as err:
        raise FrameError(f"spec: {err}") from None


def decode_row(message: Message) -> tuple[int, GameRow]:
    """A row message's ticket and row."""
    _expect(message, "row")
    row = _map(message.get("row"), "a row")
    seconds = row.get("seconds")
    if type(seconds) is not float:
        raise FrameError(f"row: seconds {seconds!r}")
    return _int(message, "n"), GameRow(
        _str(row, "game_id"), _int(row, "round"), _int(row, "match"), _int(row, "number"),
        _int(row, "seed"), _ints(row, "entrants"), _ints(row, "bot_seeds"), _int(row, "chooser"),
        _int(row, "starting"), _ints(row, "mulligans"), _int(row, "winner"), _str(row, "reason"),
        _int(row, "turns"), _int(row, "decisions"), _str(row, "final_hash"), seconds,
        _seconds_left(row.get("clock_left")))


def _seconds_left(value: object) -> tuple[float, ...]:
    """A row's ``clock_left``: a list of numbers."""
    if not isinstance(value, list) or not all(type(v) is float for v in value):
        raise FrameError(f"row: clock_left {value!r:.200}")
    return tuple(value)


def _expect(message: Message, kind: str) -> None:
    """``message`` is of type ``kind``."""
    if message.get("t") != kind:
        raise FrameError(f"expected a {kind!r} message, got {message.get('t')!r}")


def _map(value: object, what: str) -> Mapping[str, object]:
    """``value`` as a map."""
    if not isinstance(value, dict):
        raise FrameError(f"{what}: not a map: {value!r:.200}")
    return value


def _list(message: Mapping[str, object], key: str) -> list[object]:
    """``message[key]`` as a list."""
    value = message.get(key)
    if not isinstance(value, list):
        raise FrameError(f"{key}: not a list: {value!r:.200}")
    return value


def _int(message: Mapping[str, object], key: str) -> int:
    """``message[key]`` as an int (not a bool)."""
    value = message.get(key)
    if type(value) is not int:
        raise FrameError(f"{key}: not an integer: {value!r:.200}")
    return value


def _ints(message: Mapping[str, object], key: str) -> tuple[int, ...]:
    """``message[key]`` as a tuple of ints."""
    items = _list(message, key)
    if not all(type(v) is int for v in items):
        raise FrameError(f"{key}: not a list of integers: {items!r:.200}")
    return tuple(v for v in items if isinstance(v, int))


def _str(message: Mapping[str, object], key: str) -> str:
    """``message[key]`` as a string."""
    return _str_item(message.get(key), key)


def _str_item(value: object, what: str) -> str:
    """``value`` as a string."""
    if not isinstance(value, str):
        raise FrameError(f"{what}: not a string: {value!r:.200}")
    return value
