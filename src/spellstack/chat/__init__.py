"""Chat: spellstack games hosted inside an asyncio program (a chat bot), played by text.

``GameHost`` runs the trio engine as a guest of the asyncio loop; ``RemoteGameHost`` has the
same methods for games hosted on a spellstack server, and ``TrioGameHost`` is ``GameHost`` for
a program that runs trio itself (the server); ``ChatHost`` is what a front end asks of any of
them. ``HumanSeat`` and ``BotSeat`` say who plays each seat; the text command language is
``parse_command`` (``help_text``); views and the pending question render to chat-sized text
with ``render_view``. See ``docs/chat.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:
    from ._chat_host import ChatHost
    from ._commands import LOCAL_COMMANDS, PRIORITY_VERBS, Parsed, help_text, parse_command
    from ._decks import DeckRefused, DeckShelf
    from ._feed import FEED_KINDS, feed_lines
    from ._game_host import Answered, ChatError, Done, GameHost, GameInfo, HostStatistics, Outbox, TextHook
    from ._remote_host import CONNECTION_LOST, RemoteGameHost
    from ._render import (
        MESSAGE_LIMIT,
        Numbering,
        render_board,
        render_hand,
        render_question,
        render_stack,
        render_view,
    )
    from ._seats import HUMAN_STOPS, BotSeat, HumanSeat, SeatTimeout
    from ._telegram import SEND_FAILURES, TelegramChat, TelegramMissing, build_application, to_telegram_html
    from ._trio_host import TrioGameHost

# Loaded when first used: the command line and the server name a few of these, and only
# `spellstack chat` and a server's chat games need the rest (asyncio, trio-websocket, Telegram).
_HOMES = {
    "._chat_host": ("ChatHost",),
    "._commands": ("LOCAL_COMMANDS", "PRIORITY_VERBS", "Parsed", "help_text", "parse_command"),
    "._decks": ("DeckRefused", "DeckShelf"),
    "._feed": ("FEED_KINDS", "feed_lines"),
    "._game_host": ("Answered", "ChatError", "Done", "GameHost", "GameInfo", "HostStatistics", "Outbox",
                   "TextHook"),
    "._remote_host": ("CONNECTION_LOST", "RemoteGameHost"),
    "._render": ("MESSAGE_LIMIT", "Numbering", "render_board", "render_hand", "render_question",
                "render_stack", "render_view"),
    "._seats": ("HUMAN_STOPS", "BotSeat", "HumanSeat", "SeatTimeout"),
    "._telegram": ("SEND_FAILURES", "TelegramChat", "TelegramMissing", "build_application", "to_telegram_html"),
    "._trio_host": ("TrioGameHost",),
}

__all__ = [
    "CONNECTION_LOST",
    "FEED_KINDS",
    "HUMAN_STOPS",
    "LOCAL_COMMANDS",
    "MESSAGE_LIMIT",
    "PRIORITY_VERBS",
    "SEND_FAILURES",
    "Answered",
    "BotSeat",
    "ChatError",
    "ChatHost",
    "DeckRefused",
    "DeckShelf",
    "Done",
    "GameHost",
    "GameInfo",
    "HostStatistics",
    "HumanSeat",
    "Numbering",
    "Outbox",
    "Parsed",
    "RemoteGameHost",
    "SeatTimeout",
    "TelegramChat",
    "TelegramMissing",
    "TextHook",
    "TrioGameHost",
    "build_application",
    "feed_lines",
    "help_text",
    "parse_command",
    "render_board",
    "render_hand",
    "render_question",
    "render_stack",
    "render_view",
    "to_telegram_html",
]


_HOME_OF, __getattr__, __dir__ = lazy_names(__name__, _HOMES, globals(), __all__)
