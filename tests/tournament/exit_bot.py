"""A bot for the worker tests: it ends its worker process (exit code 3) at its first decision,
as a crashing bot or engine would, every time its game is played."""

from __future__ import annotations

import os
import sys

from spellstack.rules import Decision, PlayerView, Reply
from spellstack.tournament._workers import WORKER_MODULE


class ExitBot:
    """Ends the worker process it plays in; refuses to play anywhere else (the test's own
    process must live)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        """Its seed (unused)."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """Exit the worker process, code 3."""
        main_spec = getattr(sys.modules["__main__"], "__spec__", None)
        if main_spec is not None and main_spec.name == WORKER_MODULE:
            os._exit(3)
        raise RuntimeError("ExitBot ends worker processes only")
