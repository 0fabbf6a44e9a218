"""How long the event loop was held: the measure a seat's deadline is read against.

All of a process's games share one trio event loop, and a task runs until its next
checkpoint: while one task computes, no other task runs, and every deadline keeps running.
``LoopLag`` is one small system task per trio run that sleeps ``LAG_PERIOD`` at a time and adds
up how late each wake was: the time the loop was held by someone (its period is a small
fraction of the shortest deadline of the run's games, at most ``LAG_PERIOD``). A seat's time (``SeatClock``)
is the time since its request was sent less what the loop was held meanwhile by others; its
own policy's holding (``HeldTime``, charged by its player actor) counts against it.

Times are ``trio.current_time()``, so a ``MockClock`` jumped by a task that holds the loop
is measured as held.
"""

from __future__ import annotations

from dataclasses import dataclass

import trio

__all__ = ["LAG_FRACTION", "LAG_PERIOD", "HeldTime", "LoopLag", "SeatClock", "loop_lag"]

LAG_PERIOD = 0.05
"""The longest the lag monitor sleeps between wakes, in seconds."""
LAG_FRACTION = 20
"""The monitor's period is at most the shortest deadline of the run's games divided by this:
a hold shorter than a period may go unmeasured, so a seat's time can be overstated by at most
one period per hold, a twentieth of its deadline."""
_SHORTEST_PERIOD = 0.0005

_now = trio.current_time


class LoopLag:
    """The time the event loop of this trio run was held, added up since it started
    (``held_now``)."""

    __slots__ = ("_sleep", "held", "period", "wake")

    def __init__(self) -> None:
        self.held = 0.0
        """Lateness of the wakes so far: the loop was held that long (at least)."""
        self.period = LAG_PERIOD
        """Seconds between wakes (``need`` shortens it)."""
        self.wake = _now() + self.period
        """When the monitor is due to wake next."""
        self._sleep: trio.CancelScope | None = None

    def need(self, deadline: float) -> None:
        """A game with seats whose deadline is ``deadline`` seconds has started: measure
        finely enough for it (the period never grows back within a run)."""
        period = max(deadline / LAG_FRACTION, _SHORTEST_PERIOD)
        if period < self.period:
            self.period = period
            wake = _now() + period
            if wake < self.wake:  # the monitor wakes sooner
                self.wake = wake
                if self._sleep is not None:
                    self._sleep.deadline = wake

    def held_now(self) -> float:
        """The time held so far, including the current hold if the monitor is overdue: a
        deadline that fires after a long hold may be read before the monitor has run again."""
        late = _now() - self.wake
        return self.held + late if late > 0 else self.held

    async def run(self) -> None:
        """Sleep and measure, for ever (a system task: cancelled when the run ends)."""
        now = _now
        while True:
            with trio.CancelScope(deadline=self.wake) as self._sleep:
                await trio.sleep_forever()
            woke = now()
            late = woke - self.wake
            if late > 0:
                self.held += late
            self.wake = woke + self.period


_MONITOR: trio.lowlevel.RunVar[LoopLag] = trio.lowlevel.RunVar("spellstack_loop_lag")


def loop_lag(deadline: float = LAG_PERIOD * LAG_FRACTION) -> LoopLag:
    """This trio run's lag monitor, started on first use, measuring finely enough for seats
    with ``deadline`` (``LoopLag.need``)."""
    try:
        lag = _MONITOR.get()
    except LookupError:
        lag = LoopLag()
        _MONITOR.set(lag)
        trio.lowlevel.spawn_system_task(lag.run, name="spellstack loop lag monitor")
    lag.need(deadline)
    return lag


class HeldTime:
    """The time one seat's policy held the event loop (its synchronous ``decide`` and
    ``notify``, and each step of an ``async`` one), added up by its player actor and read by
    the coordinator: engine code on both ends, never the bot's own report."""

    __slots__ = ("own",)

    def __init__(self) -> None:
        self.own = 0.0
        """Seconds held so far."""


@dataclass(slots=True)
class SeatClock:
    """One decision's time: from its request being sent to its answer arriving, less what the
    loop was held meanwhile by anyone but the seat's own policy (``charged``)."""

    limit: float
    """The seat's deadline, in seconds of its own time."""
    start: float
    """When the decision's first request was sent (``trio.current_time()``)."""
    held: float
    """``LoopLag.held_now()`` then."""
    own: float
    """The seat's ``HeldTime.own`` then."""
    due: float
    """When the deadline is next looked at: the time at which the seat's time would reach
    ``limit`` if the loop were not held from the last look on."""
    on_clock: bool = False
    """``limit`` is the time left on the seat's game clock, no more than its deadline: running
    out loses the game on time, not by forfeit."""

    @classmethod
    def begin(cls, limit: float, lag: LoopLag, mine: HeldTime, *, on_clock: bool = False) -> SeatClock:
        """A decision's clock, started now (``on_clock``: ``limit`` is the game clock's)."""
        now = _now()
        return cls(limit, now, lag.held_now(), mine.own, now + limit, on_clock)

    def charged(self, lag: LoopLag, mine: HeldTime) -> float:
        """The seat's time so far."""
        others = (lag.held_now() - self.held) - (mine.own - self.own)
        elapsed = _now() - self.start
        return elapsed - others if others > 0 else elapsed

    def extend(self, lag: LoopLag, mine: HeldTime) -> bool:
        """At ``due``: whether the seat still has time (then ``due`` moves to when it would run
        out, at least a lag period on, so that the monitor runs before the next look)."""
        left = self.limit - self.charged(lag, mine)
        if left <= 0:
            return False
        self.due = _now() + max(left, lag.period)
        return True
