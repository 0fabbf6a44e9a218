"""Player policies: the Bot API and the built-in bots (a seeded random bot)."""

from ._api import Bot
from ._random import RandomBot

__all__ = ["Bot", "RandomBot"]
