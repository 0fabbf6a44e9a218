"""How often the cyclic garbage collector runs in a process that plays games
(``tune_collector``): the command line, a tournament's workers and the bench's."""

from __future__ import annotations

import gc

__all__ = ["COLLECTOR_THRESHOLDS", "tune_collector"]

COLLECTOR_THRESHOLDS: tuple[int, int, int] = (10_000, 10, 10)
"""The collector's thresholds (``gc.set_threshold``): a young collection after 10,000 more
containers made than freed, where Python's default is 700.

A game makes and drops tuples, lists and records by the thousand each turn, nearly all freed
at once by reference counting; what survives (the state's objects, the caches' entries) is
walked by each young collection and again by each older one it reaches. At 700 the bench's
games spent about 5% of their time in the collector; at 10,000, about half that, for a few
hundred kilobytes more garbage waiting at most (a collection frees what is in cycles, and a
game makes few). The older generations keep Python's defaults: a full collection still comes
after ten of the middle ones."""


def tune_collector() -> None:
    """Set this process's collector thresholds to ``COLLECTOR_THRESHOLDS``: done once by a
    process's entry point (a library never changes what its host process does)."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
