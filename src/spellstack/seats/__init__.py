"""Seats: who plays each seat of a game, whatever it is, behind one protocol (``Seat``).

A bot is named by a spec (``load_bot``): a built-in bot (``random``, ``heuristic``), a Python
class (``module:Class`` or ``path/to/file.py:Class``), played in the engine's process or in a
bot process of its own that hosts it (``_bot_host``), or any program speaking the stdio
protocol (``stdio:COMMAND``, ``ProcessBot``, relayed by ``ProcessSeat``), or a client connecting
over the network (``remote``, whose seat a server makes); an entrant is a bot and a deck,
``[NAME=]BOT@DECK`` (``parse_entrant``). ``spellstack play``, ``spellstack chat``
and ``spellstack tournament`` seat the same bots.

It sits above the actors (which play a game between the players it makes) and below the
packages that seat players: the tournament, the chat, the harness.
"""

from ._entrants import (
    BUILT_IN_BOTS,
    HOST_MODULE,
    REMOTE,
    STDIO,
    AnyBot,
    BotFactory,
    Entrant,
    EntrantError,
    built_in_entrants,
    load_bot,
    parse_entrant,
    with_memory,
)
from ._frames import FrameError, FrameReader, frame
from ._hello import DEFAULT_STARTUP, SeatHello
from ._seat import BuiltBot, PolicySeat, Seat, hellos, play_seats, seat_of, unbuilt
from ._stdio import (
    DEFAULT_BOT_MEMORY,
    EXIT_GRACE,
    HELLO_VERSION,
    MIN_BOT_MEMORY,
    READY,
    STDERR_KEPT,
    ProcessBot,
    ProcessSeat,
    hello_message,
    supervised,
)

__all__ = [
    "BUILT_IN_BOTS",
    "DEFAULT_BOT_MEMORY",
    "DEFAULT_STARTUP",
    "EXIT_GRACE",
    "HELLO_VERSION",
    "HOST_MODULE",
    "MIN_BOT_MEMORY",
    "READY",
    "REMOTE",
    "STDERR_KEPT",
    "STDIO",
    "AnyBot",
    "BotFactory",
    "BuiltBot",
    "Entrant",
    "EntrantError",
    "FrameError",
    "FrameReader",
    "PolicySeat",
    "ProcessBot",
    "ProcessSeat",
    "Seat",
    "SeatHello",
    "built_in_entrants",
    "frame",
    "hello_message",
    "hellos",
    "load_bot",
    "parse_entrant",
    "play_seats",
    "seat_of",
    "supervised",
    "unbuilt",
    "with_memory",
]
