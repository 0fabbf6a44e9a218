"""A bot for the worker tests: the random bot, printing to stdout (a worker's frame channel,
were it not moved out of the way) at its first decision."""

from __future__ import annotations

from spellstack.bots import RandomBot
from spellstack.rules import Decision, PlayerView, Reply


class ChattyBot:
    """Decides as ``RandomBot(seed)`` does; prints a line first."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        """The bot it decides as."""
        self.quiet = False
        """It has printed its line."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """``RandomBot``'s answer, after one line on stdout."""
        if not self.quiet:
            print("\x00\x00\x00\x05 hello from a bot", flush=True)
            self.quiet = True
        return self.inner.decide(view, decision)
