"""Player policies: the Bot API, a seeded random bot, a hostile client, and the scripted policy
of scenarios."""

from ._api import Bot
from ._hostile import (
    HOSTILE_KINDS,
    RAW_KINDS,
    ForfeitGuard,
    HostileBot,
    HostileStream,
    Outgoing,
    run_hostile_seat,
)
from ._random import RandomBot

__all__ = [
    "HOSTILE_KINDS", "RAW_KINDS", "Bot", "ForfeitGuard", "HostileBot", "HostileStream",
    "Outgoing", "RandomBot", "run_hostile_seat",
]
