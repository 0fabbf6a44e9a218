"""Where a tournament's games are played: ``Executor`` is what the runner asks to play a game;
``InProcess`` plays them in the tournament's own trio run (``--jobs 1``). Worker processes
(``--jobs J``) are in ``_workers``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from ._games import DEFAULT_DEADLINE, Contestant, GameRow, GameSpec, play_spec

__all__ = ["Executor", "InProcess"]


class Executor(Protocol):
    """Plays games. The runner never has more than ``capacity`` games in flight with it, and
    every game it is given is played to its end (a game whose process died is played again
    from its seed), so ``play`` returns the game's row unless the run is cancelled."""

    capacity: int
    """How many games it plays at once."""

    async def play(self, spec: GameSpec) -> GameRow:
        """Play one game; its row."""
        ...

    async def aclose(self) -> None:
        """Stop whatever it started (worker processes); games in flight are abandoned."""
        ...


class InProcess:
    """Plays each game in this process's trio run, ``capacity`` at a time."""

    def __init__(self, seats: Sequence[Contestant], concurrency: int, trace_dir: Path | None = None,
                 deadline: float = DEFAULT_DEADLINE) -> None:
        self.seats = tuple(seats)
        """Every entrant of the tournament, by index."""
        self.capacity = concurrency
        """Games in flight at once (``--concurrency``)."""
        self.trace_dir = trace_dir
        """Where each game's trace goes, or None."""
        self.deadline = deadline
        """Seconds each seat has for each decision."""

    async def play(self, spec: GameSpec) -> GameRow:
        """Play the game here."""
        return await play_spec(spec, self.seats, trace_dir=self.trace_dir, deadline=self.deadline)

    async def aclose(self) -> None:
        """Nothing to stop."""
