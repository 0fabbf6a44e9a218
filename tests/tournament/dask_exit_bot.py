"""A bot for the Dask tests: it ends the Dask worker process it plays in (exit code 3) at its
first decision, as a crashing bot or engine would, every time its game is played."""

from __future__ import annotations

import multiprocessing
import os

from spellstack.rules import Decision, PlayerView, Reply

DASK_WORKER = "Dask Worker process"
"""How a Dask nanny's worker process names itself (``multiprocessing``)."""


class DaskExitBot:
    """Ends the Dask worker process it plays in; refuses to play anywhere else (the test's own
    process must live)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        """Its seed (unused)."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """Exit the worker process, code 3."""
        if multiprocessing.current_process().name.startswith(DASK_WORKER):
            os._exit(3)
        raise RuntimeError("DaskExitBot ends Dask worker processes only")
