"""Finished games written to the results database in batches (``RowWriter``), so that the
tournament's process spends one transaction on many games rather than one on each.

A row is written at once when the last batch went at least ``seconds`` ago: a tournament whose
games end seldom has each written the moment it ends, as before batches. When games end
faster, the rows that end within ``seconds`` of the last batch wait for the next one, which
goes with the first game to end after that (or when ``rows`` are waiting, or at the end).
A batch is one transaction (``ResultsStore.record_many``): the database holds all of it or
none of it. A process killed with rows waiting loses only those rows, complete games that
``--resume`` plays again from their seeds, to the same rows. What is said once a game is safe
(``after``: the tournament's progress) waits for its batch, so a game shown done is in the
database.

Writing happens in the tournament's own process between games, while the worker processes
go on playing the games they hold: none of them waits on a write.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ._games import GameRow

__all__ = ["BATCH_ROWS", "BATCH_SECONDS", "RowWriter"]

BATCH_ROWS = 256
"""The most rows a batch waits for before it is written."""

BATCH_SECONDS = 1.0
"""A row waits at most until the first game to end this long after the last batch."""


class RowWriter:
    """Collects finished games' rows and gives them to ``write`` in batches (each batch's rows
    in the order they ended)."""

    def __init__(self, write: Callable[[Sequence[GameRow]], None], *, rows: int = BATCH_ROWS,
                 seconds: float = BATCH_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        if rows < 1:
            raise ValueError(f"a batch holds at least 1 row, not {rows}")
        if seconds < 0:
            raise ValueError(f"a batch's seconds can't be negative, got {seconds}")
        self.write = write
        """Writes one batch (``ResultsStore.record_many``)."""
        self.rows = rows
        """The most rows a batch waits for."""
        self.seconds = seconds
        """How long after a batch the next one may wait."""
        self.clock = clock
        """The time, in seconds."""
        self.waiting: list[GameRow] = []
        """Rows not written yet."""
        self.batches = 0
        """Batches written so far."""
        self.written = 0
        """Rows written so far."""
        self._last: float | None = None  # when the last batch went (None: none yet)
        self._then: list[Callable[[], None]] = []  # to call once the rows waiting are written

    def record(self, row: GameRow) -> None:
        """Take a finished game's row: written now with those waiting, if the last batch went
        ``seconds`` ago or ``rows`` are waiting; else it waits. Raises what ``write`` raises
        (the rows it failed to write then wait still)."""
        self.waiting.append(row)
        if (len(self.waiting) >= self.rows or self._last is None
                or self.clock() - self._last >= self.seconds):
            self.flush()

    def after(self, call: Callable[[], None]) -> None:
        """Call ``call`` once every row taken so far is written: now if none waits, else after
        the batch that writes them (calls keep their order)."""
        if self.waiting or self._then:
            self._then.append(call)
        else:
            call()

    def flush(self) -> None:
        """Write every row waiting, as one batch, then make the calls that waited for them."""
        if self.waiting:
            batch = tuple(self.waiting)
            self.write(batch)
            del self.waiting[:len(batch)]
            self._last = self.clock()
            self.batches += 1
            self.written += len(batch)
        calls, self._then = self._then, []
        for call in calls:
            call()
