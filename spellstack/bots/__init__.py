"""Player policies: the Bot API, a seeded random bot, and the scripted policy of scenarios."""

from ._api import Bot
from ._random import RandomBot

__all__ = ["Bot", "RandomBot"]
