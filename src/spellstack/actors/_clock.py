"""A game clock per seat: BASE seconds for the whole game, INC more after each answer.

``GameClock`` is the setting (``SeatConfig.clock``; ``parse_clock`` reads ``BASE+INC``, as
cutechess's ``tc=time+increment``), ``SeatTime`` one seat's clock while its game runs. A clock
counts whole milliseconds: each answer's time is rounded to the millisecond before it is taken
off, so that what a request shows is exactly what the seat has, and a replay that takes the
same time over each answer shows the same readings.

The seat's time for an answer is counted as its deadline counts it (``SeatClock``): from the
request being sent to the answer arriving, less the time the event loop was held by anything
but the seat's own policy.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..rules import ClockState

__all__ = ["ON_TIME", "GameClock", "SeatTime", "parse_clock"]

ON_TIME = "lost on time"
"""How the reason of a seat whose clock ran out begins (``GameClock.loss``)."""

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|[-+]?(?:nan|inf(?:inity)?)"
_CLOCK = re.compile(rf"(?P<base>{_NUMBER})(?:\+(?P<increment>{_NUMBER}))?", re.IGNORECASE)
"""``BASE`` or ``BASE+INC``: decimal numbers (the words nan and inf are read, to be refused by name)."""


def _seconds(value: float) -> str:
    """Seconds as written in a clock: to the millisecond, no trailing zeros (``60``, ``0.5``)."""
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _problem(base: object, increment: object) -> str:
    """What is wrong with a clock of ``base`` and ``increment`` seconds ("" if nothing)."""
    for name, value in (("BASE", base), ("INC", increment)):
        if not isinstance(value, int | float) or isinstance(value, bool):
            return f"{name} must be a number of seconds, got {value!r}"
        if not math.isfinite(value):
            return f"{name} must be a finite number of seconds, got {value}"
    assert isinstance(base, int | float) and isinstance(increment, int | float)
    if base <= 0:
        return f"BASE must be more than 0 seconds, got {base:g}"
    if round(base * 1000) < 1:
        return f"BASE must be at least 0.001 seconds (a clock counts milliseconds), got {base:g}"
    if increment < 0:
        return f"INC must be 0 or more seconds, got {increment:g}"
    return ""


@dataclass(frozen=True, slots=True)
class GameClock:
    """A seat's time for the whole game (``SeatConfig.clock``): running out loses the game."""

    base: float
    """Seconds the seat has for the whole game (more than 0; counted in milliseconds)."""
    increment: float = 0.0
    """Seconds added to its time after each answer taken (0 or more)."""

    def __post_init__(self) -> None:
        problem = _problem(self.base, self.increment)
        if problem:
            raise ValueError(f"invalid game clock: {problem}")

    def __str__(self) -> str:
        """``BASE+INC`` in seconds, as ``parse_clock`` reads it: ``60+0.5``, ``60+0``."""
        return f"{_seconds(self.base)}+{_seconds(self.increment)}"

    @property
    def loss(self) -> str:
        """The reason a seat whose clock ran out loses with: ``lost on time (clock 60+0.5)``
        (the game's end reads ``bob wins: alice lost on time (clock 60+0.5)``)."""
        return f"{ON_TIME} (clock {self})"


def parse_clock(text: str) -> GameClock:
    """A clock from ``BASE+INC`` in seconds (``60+0.5``; ``60`` means ``60+0``); ``ValueError``
    in one line naming the text and what is wrong with it."""
    shown = text if len(text) <= 40 else text[:37] + "..."
    found = _CLOCK.fullmatch(text)
    if found is None:
        raise ValueError(f"clock {shown!r}: expected BASE+INC in seconds (60+0.5; 60 for 60+0)")
    base = float(found["base"])
    increment = float(found["increment"]) if found["increment"] is not None else 0.0
    problem = _problem(base, increment)
    if problem:
        raise ValueError(f"clock {shown!r}: {problem}")
    return GameClock(base, increment)


class SeatTime:
    """One seat's game clock while its game runs, in whole milliseconds: its time left
    (``left_ms``), what its requests show (``reading``), and each answer's time taken off."""

    __slots__ = ("clock", "increment_ms", "left_ms", "reading")

    def __init__(self, clock: GameClock) -> None:
        self.clock = clock
        """The setting."""
        self.left_ms = round(clock.base * 1000)
        """Milliseconds left (0 once it has run out)."""
        self.increment_ms = round(clock.increment * 1000)
        """Milliseconds added after each answer taken."""
        self.reading = ClockState(self.left_ms / 1000, self.increment_ms / 1000)
        """What the seat's requests show now (it changes only as an answer is taken)."""

    @property
    def left(self) -> float:
        """Seconds left."""
        return self.left_ms / 1000

    def over(self, seconds: float) -> bool:
        """Whether an answer after ``seconds`` of the seat's time (rounded to the millisecond)
        came too late: nothing would be left."""
        return round(seconds * 1000) >= self.left_ms

    def spend(self, seconds: float) -> None:
        """An answer was taken after ``seconds`` of the seat's time (in time: not ``over``):
        they are taken off, and the increment added."""
        self.left_ms += self.increment_ms - round(seconds * 1000)
        self.reading = ClockState(self.left_ms / 1000, self.increment_ms / 1000)

    def run_out(self) -> None:
        """The clock ran out: nothing is left."""
        self.left_ms = 0
