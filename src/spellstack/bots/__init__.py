"""Player policies: the Bot API and the built-in bots (a seeded random bot, a heuristic bot)."""

from ._api import Bot
from ._heuristic import HeuristicBot
from ._random import RandomBot

__all__ = ["Bot", "HeuristicBot", "RandomBot"]
