"""spellstack: a Magic: The Gathering rules engine run as an actor-based async simulation.

The front door for a program that embeds it: play a game between bots (``play_one_game``,
its ``GameResult``, ``SeatConfig``), write a bot (``Bot``, ``RandomBot``), load cards and
decks (``load_cards``, ``load_deck``, ``Deck``, ``DECKS``), read and replay traces
(``read_trace``, ``replay_trace``, ``Trace`` and its records and errors), run a tournament
(``play_tournament``, ``TournamentSettings``, ``parse_entrant``), host games inside an asyncio
program played by text, for a chat bot (``GameHost``, ``HumanSeat``, ``BotSeat``). The packages below
(``spellstack.rules``, ``protocol``, ``actors``, ``bots``, ``cards``, ``trace``,
``tournament``, ``chat``) hold the rest.

The names are loaded when first used, so that importing one layer (``spellstack.rules``,
which is sans-IO) does not import the others with this package.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._version import __version__

if TYPE_CHECKING:
    from .actors import GameResult, SeatConfig, play_one_game
    from .bots import Bot, RandomBot
    from .cards import DECKS, Deck, load_cards, load_deck
    from .chat import BotSeat, GameHost, HumanSeat
    from .tournament import TournamentSettings, parse_entrant, play_tournament
    from .trace import (
        ReplayError,
        ReplayMismatchError,
        Trace,
        TraceError,
        TraceHeader,
        TraceMessage,
        TraceResult,
        read_trace,
        replay_trace,
    )

_HOMES = {
    "spellstack.actors": ("GameResult", "SeatConfig", "play_one_game"),
    "spellstack.bots": ("Bot", "RandomBot"),
    "spellstack.cards": ("DECKS", "Deck", "load_cards", "load_deck"),
    "spellstack.chat": ("BotSeat", "GameHost", "HumanSeat"),
    "spellstack.trace": ("ReplayError", "ReplayMismatchError", "Trace", "TraceError",
                         "TraceHeader", "TraceMessage", "TraceResult", "read_trace",
                         "replay_trace"),
    "spellstack.tournament": ("TournamentSettings", "parse_entrant", "play_tournament"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}
"""The module each public name comes from."""

__all__ = [
    "DECKS",
    "Bot",
    "BotSeat",
    "Deck",
    "GameHost",
    "GameResult",
    "HumanSeat",
    "RandomBot",
    "ReplayError",
    "ReplayMismatchError",
    "SeatConfig",
    "TournamentSettings",
    "Trace",
    "TraceError",
    "TraceHeader",
    "TraceMessage",
    "TraceResult",
    "__version__",
    "load_cards",
    "load_deck",
    "parse_entrant",
    "play_one_game",
    "play_tournament",
    "read_trace",
    "replay_trace",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (PEP 562)."""
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'spellstack' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
