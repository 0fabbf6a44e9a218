"""A Telegram bot that hosts spellstack games: /play starts a game against a built-in bot in
the chat, every other message is a command of the text language, /concede ends it.

    pip install 'spellstack[telegram]'
    TELEGRAM_TOKEN=123456:ABC... python examples/telegram_bot.py
    TELEGRAM_TOKEN=123456:ABC... SPELLSTACK_DECK_DIR=my-decks python examples/telegram_bot.py
    TELEGRAM_TOKEN=123456:ABC... SPELLSTACK_SERVER=ws://127.0.0.1:8765 python examples/telegram_bot.py

The token comes from Telegram's @BotFather. Players name their decks: a built-in deck, or (with
SPELLSTACK_DECK_DIR) a deck file of that folder, ``burn.toml`` or ``burn.txt`` for ``burn``;
a player's words are never read as paths. Games live in memory: they end when this program
stops. With SPELLSTACK_SERVER, the games are hosted on that spellstack server (spellstack
serve) instead of in this program.
"""

from __future__ import annotations

import logging
import os
import sys

from spellstack import GameHost
from spellstack.chat import RemoteGameHost, TelegramMissing, build_application


def main() -> int:
    token = os.environ.get("TELEGRAM_TOKEN")
    if not token:
        print("set TELEGRAM_TOKEN to your bot's token (from @BotFather)", file=sys.stderr)
        return 2
    deck_dir = os.environ.get("SPELLSTACK_DECK_DIR") or None
    if deck_dir is not None and not os.path.isdir(deck_dir):
        print(f"SPELLSTACK_DECK_DIR {deck_dir!r}: not a folder", file=sys.stderr)
        return 2
    # Why a deck file of the folder failed to load goes to this log, never to the player.
    # (Not INFO: the HTTP library logs each request's address there, and it holds the token.)
    logging.basicConfig(level=logging.WARNING)
    server = os.environ.get("SPELLSTACK_SERVER") or None
    host = RemoteGameHost(server) if server else GameHost()
    try:
        application = build_application(token, host, deck_dir=deck_dir)
    except TelegramMissing as missing:  # pip install 'spellstack[telegram]'
        print(missing, file=sys.stderr)
        return 2
    application.run_polling()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
