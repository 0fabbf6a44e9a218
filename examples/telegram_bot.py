"""A Telegram bot that hosts spellstack games: /play starts a game against a built-in bot in
the chat, every other message is a command of the text language, /concede ends it.

    pip install 'spellstack[telegram]'
    TELEGRAM_TOKEN=123456:ABC... python examples/telegram_bot.py

The token comes from Telegram's @BotFather. Games live in memory: they end when this program
stops.
"""

from __future__ import annotations

import os
import sys

from spellstack import GameHost
from spellstack.chat import build_application


def main() -> int:
    token = os.environ.get("TELEGRAM_TOKEN")
    if not token:
        print("set TELEGRAM_TOKEN to your bot's token (from @BotFather)", file=sys.stderr)
        return 2
    build_application(token, GameHost()).run_polling()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
