"""spellstack: a Magic: The Gathering rules engine run as an actor-based async simulation.

The front door for a program that embeds it: play a game between bots (``play_one_game``, or
a ``GameSetup`` played by ``play_setup``; its ``GameResult``, ``SeatConfig``, a seat's
``GameClock`` and ``parse_clock``), write a bot
(``Bot``, ``RandomBot``: what it is given, ``PlayerView`` (with its ``ClockState``) and
``Decision`` with its ``ActionOption``s, and what it returns, a ``Reply``: an ``Action`` or an ``Answer``;
``default_answer``, ``player_ref``; its ``Stops``), load cards and decks (``load_cards``,
``load_deck``, ``Deck``, ``DECKS``), read and replay traces (``read_trace``, ``replay_trace``,
``Trace`` and its records and errors) and game records (``read_record``, ``check_record``,
``GameRecord``, ``RecordError``), run a tournament (``play_tournament``,
``TournamentSettings``, ``parse_entrant``), host games inside an asyncio program played by
text, for a chat bot (``GameHost``, ``HumanSeat``, ``BotSeat``). The packages below
(``spellstack.rules``, ``protocol``, ``actors``, ``seats``, ``bots``, ``cards``, ``trace``,
``tournament``, ``chat``) hold the rest.

The names are loaded when first used, so that importing one layer (``spellstack.rules``,
which is sans-IO) does not import the others with this package.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_names
from ._version import __version__

if TYPE_CHECKING:
    from .actors import GameClock, GameRecord, GameResult, GameSetup, SeatConfig, parse_clock, play_one_game, play_setup
    from .bots import Bot, RandomBot
    from .cards import DECKS, Deck, load_cards, load_deck
    from .chat import BotSeat, GameHost, HumanSeat
    from .protocol import Stops
    from .rules import (
        Action,
        ActionOption,
        Answer,
        ClockState,
        Decision,
        PlayerView,
        Reply,
        default_answer,
        player_ref,
    )
    from .seats import parse_entrant
    from .tournament import TournamentSettings, play_tournament
    from .trace import (
        RecordError,
        ReplayError,
        ReplayMismatchError,
        Trace,
        TraceError,
        TraceHeader,
        TraceMessage,
        TraceResult,
        check_record,
        read_record,
        read_trace,
        replay_trace,
    )

_HOMES = {
    "spellstack.actors": ("GameClock", "GameRecord", "GameResult", "GameSetup", "SeatConfig", "parse_clock",
                          "play_one_game", "play_setup"),
    "spellstack.bots": ("Bot", "RandomBot"),
    "spellstack.cards": ("DECKS", "Deck", "load_cards", "load_deck"),
    "spellstack.chat": ("BotSeat", "GameHost", "HumanSeat"),
    "spellstack.protocol": ("Stops",),
    "spellstack.rules": ("Action", "ActionOption", "Answer", "ClockState", "Decision", "PlayerView", "Reply",
                         "default_answer", "player_ref"),
    "spellstack.seats": ("parse_entrant",),
    "spellstack.trace": ("RecordError", "ReplayError", "ReplayMismatchError", "Trace", "TraceError",
                         "TraceHeader", "TraceMessage", "TraceResult", "check_record", "read_record",
                         "read_trace", "replay_trace"),
    "spellstack.tournament": ("TournamentSettings", "play_tournament"),
}

__all__ = [
    "DECKS",
    "Action",
    "ActionOption",
    "Answer",
    "Bot",
    "BotSeat",
    "ClockState",
    "Decision",
    "Deck",
    "GameClock",
    "GameHost",
    "GameRecord",
    "GameResult",
    "GameSetup",
    "HumanSeat",
    "PlayerView",
    "RandomBot",
    "RecordError",
    "ReplayError",
    "ReplayMismatchError",
    "Reply",
    "SeatConfig",
    "Stops",
    "TournamentSettings",
    "Trace",
    "TraceError",
    "TraceHeader",
    "TraceMessage",
    "TraceResult",
    "__version__",
    "check_record",
    "default_answer",
    "load_cards",
    "load_deck",
    "parse_clock",
    "parse_entrant",
    "play_one_game",
    "play_setup",
    "play_tournament",
    "player_ref",
    "read_record",
    "read_trace",
    "replay_trace",
]


_HOME_OF, __getattr__, __dir__ = lazy_names(__name__, _HOMES, globals(), __all__)
