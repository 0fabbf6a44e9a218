"""A batch of a tournament's games as one plain function call: ``play_batch(Batch)`` plays
them in a trio run of its own and returns their rows. Everything it takes and returns is plain,
picklable data, so any process that has spellstack can run it: a cluster's worker (``_dask``),
a thread pool, or this process.

A game's row depends only on its spec, so a batch played again (its worker died), split, or
played beside other batches gives the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import trio

from .._version import __version__
from ._games import DEFAULT_DEADLINE, Contestant, GameRow, GameSpec, play_spec
from ._ipc import WorkerEntrant, seats_of
from ._workers import WorkerSetupError

__all__ = ["Batch", "play_batch"]


@dataclass(frozen=True, slots=True)
class Batch:
    """Games to play together, with everything needed to play them."""

    entrants: tuple[WorkerEntrant, ...]
    """Every entrant of the tournament, by index (each bot loaded again from its spec)."""
    specs: tuple[GameSpec, ...]
    """The games, in the order their rows come back."""
    concurrency: int = 8
    """How many of them are played at once."""
    trace_dir: Path | None = None
    """Where each game's trace goes (on the machine that plays it; created if missing), or None."""
    deadline: float = DEFAULT_DEADLINE
    """Seconds each seat has for each decision."""
    version: str = field(default=__version__)
    """The spellstack version that made the batch: another version refuses to play it."""


def play_batch(batch: Batch) -> list[GameRow]:
    """Play ``batch``'s games, up to its ``concurrency`` at once, in a trio run of their own;
    their rows, in the order of its specs.

    Raises ``WorkerSetupError`` if this process cannot play them: another spellstack version,
    or a bot spec that does not load here. A bot that fails loses only its own game."""
    if batch.version != __version__:
        raise WorkerSetupError(f"this process has spellstack {__version__}, the tournament "
                               f"{batch.version}: install the same version everywhere")
    if batch.concurrency < 1:
        raise ValueError(f"a batch's concurrency must be at least 1, got {batch.concurrency}")
    try:
        seats = seats_of(batch.entrants)
    except ValueError as exc:  # EntrantError, a bot spec that does not load here
        raise WorkerSetupError(str(exc)) from None
    if batch.trace_dir is not None:
        batch.trace_dir.mkdir(parents=True, exist_ok=True)
    return trio.run(_play_all, batch, seats)


async def _play_all(batch: Batch, seats: Sequence[Contestant]) -> list[GameRow]:
    """Every game of the batch, ``concurrency`` at a time; rows by spec."""
    rows: list[GameRow | None] = [None] * len(batch.specs)
    limiter = trio.CapacityLimiter(batch.concurrency)

    async def play(i: int, spec: GameSpec) -> None:
        async with limiter:
            rows[i] = await play_spec(spec, seats, trace_dir=batch.trace_dir, deadline=batch.deadline)

    async with trio.open_nursery() as nursery:
        for i, spec in enumerate(batch.specs):
            nursery.start_soon(play, i, spec)
    return [row for row in rows if row is not None]
