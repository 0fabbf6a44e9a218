"""A python-telegram-bot adapter for ``GameHost``: the platform's messages in, host calls, text out.

Optional: ``pip install 'spellstack[telegram]'``. Kept thin on purpose: ``TelegramChat`` maps a
Telegram chat to one game seat and forwards text both ways; every rule, check and rendering is
the host's. Commands:

- ``/play [random|heuristic] [DECK] [BOT_DECK]``: a new game in this chat against a built-in bot
  (default: heuristic, gruul against dimir). A deck is named, never a path: a built-in deck, or
  a deck file of the operator's ``deck_dir`` (``DeckShelf``); any other word gets one fixed
  reply listing the names, and nothing is opened;
- ``/concede``: concede the game of this chat;
- any other text: a command of the text language (``cast bolt targeting bob``, ``2``, ``hand``).

What the player should be told (each question with their view, the event feed, the end of the
game) is sent to the chat as it comes. Views are monospace blocks: the host's text, fenced for
Discord-style markdown, is sent as an HTML ``<pre>`` block.
"""

from __future__ import annotations

import asyncio
import html
import os
import secrets
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..cards import Deck, load_cards
from ._decks import DeckRefused, DeckShelf, log
from ._game_host import GameHost
from ._seats import BotSeat, HumanSeat

__all__ = ["TelegramChat", "build_application", "to_telegram_html"]

_FENCE = "```"
_BOTS = ("random", "heuristic")


def to_telegram_html(text: str) -> str:
    """The host's text for Telegram's HTML mode: a fenced block becomes ``<pre>``, everything
    escaped (a card name may hold ``<`` or ``&``)."""
    out: list[str] = []
    parts = text.split(_FENCE)
    for i, part in enumerate(parts):
        if i % 2:  # inside a fence
            out.append(f"<pre>{html.escape(part.strip(chr(10)))}</pre>")
        else:
            out.append(html.escape(part))
    return "".join(out).strip()


class _Bot(Protocol):
    def send_message(self, chat_id: int, text: str, *args: Any, **kwargs: Any) -> Awaitable[Any]: ...


@dataclass(slots=True)
class _ChatGame:
    """The game a chat plays, its player's name, and the task forwarding their messages."""

    game_id: str
    """The host's game id."""
    player: str
    """The player's name in that game."""
    forward: asyncio.Task[None] | None = None
    """The task sending ``GameHost.messages`` to the chat."""


class TelegramChat:
    """One Telegram bot's games on one ``GameHost``: each chat plays at most one game at a time,
    as the Telegram user who started it, against a built-in bot.

    ``deck_dir``: a folder of the operator's deck files a player may name (``DeckShelf``);
    ``decks``: the default decks' names (the player's, then the bot's). Each game's seed is
    drawn by the host from the operating system (``GameInfo.seed``, never told to a player);
    a game id is ``tg-`` and 12 random hex digits."""

    def __init__(self, host: GameHost, *, decks: Sequence[str] = ("gruul", "dimir"),
                 seat_time: float = 300.0,
                 deck_dir: str | os.PathLike[str] | None = None) -> None:
        self.host = host
        """The host the games run on (started and stopped by the caller)."""
        self.shelf = DeckShelf(deck_dir)
        """The decks a player may name."""
        if len(decks) != 2:
            raise ValueError(f"decks: give two deck names, got {len(decks)}")
        for name in decks:
            if not self.shelf.known(name):
                raise ValueError(f"decks: {name!r} is not a deck name (one of: "
                                 f"{', '.join(self.shelf.names())})")
        self.decks = tuple(decks)
        """The default decks: the player's, then the bot's."""
        self.seat_time = seat_time
        """Seconds a player has for each decision."""
        self.seats: dict[int, _ChatGame] = {}
        """Telegram chat id -> its game."""

    async def on_play(self, update: Any, context: Any) -> None:
        """``/play [random|heuristic] [DECK] [BOT_DECK]``."""
        chat, message = update.effective_chat.id, update.effective_message
        args = [str(a) for a in (getattr(context, "args", None) or [])]
        if chat in self.seats and self.host.info(self.seats[chat].game_id).running:
            await message.reply_text("A game is already running in this chat: /concede it first.")
            return
        bot = args.pop(0) if args and args[0] in _BOTS else "heuristic"
        if len(args) > 2:
            await message.reply_text(self.shelf.refusal())
            return
        # Every word is checked before any deck is read: a refused word opens nothing.
        if not all(self.shelf.known(word) for word in args):
            await message.reply_text(self.shelf.refusal())
            return
        words = [*args, *self.decks[len(args):]]
        cards = load_cards()
        try:
            decks: list[Deck] = [self.shelf.resolve(word, cards) for word in words]
        except DeckRefused as refused:
            await message.reply_text(str(refused))
            return
        player = _player_name(update)
        try:
            game_id = await self.host.create_game(
                [HumanSeat(player, time_limit=self.seat_time), BotSeat(f"{bot}-bot", bot)],
                decks, game_id=self._new_id())
        except Exception:  # the host's own trouble: the log has it, the player a plain reply
            log.exception("a Telegram game could not start")
            await message.reply_text("Can't start a game just now: try again later.")
            return
        seat = self.seats[chat] = _ChatGame(game_id, player)
        seat.forward = asyncio.create_task(self._forward(context.bot, chat, seat))
        await message.reply_text(f"Game {game_id}: {player} against {bot}-bot. Type help for "
                                 "the commands.")

    def _new_id(self) -> str:
        """A game id that says nothing of the game: ``tg-`` and 12 random hex digits."""
        taken = {info.game_id for info in self.host.games()}
        while True:
            gid = f"tg-{secrets.token_hex(6)}"
            if gid not in taken:
                return gid

    async def on_concede(self, update: Any, context: Any) -> None:
        """``/concede``."""
        seat = self.seats.get(update.effective_chat.id)
        if seat is None:
            await update.effective_message.reply_text("No game in this chat: /play starts one.")
            return
        await update.effective_message.reply_text(
            to_telegram_html(await self.host.concede(seat.game_id, seat.player)), parse_mode="HTML")

    async def on_text(self, update: Any, context: Any) -> None:
        """Any other text: one command of the text language."""
        message = update.effective_message
        seat = self.seats.get(update.effective_chat.id)
        if seat is None:
            await message.reply_text("No game in this chat: /play starts one.")
            return
        answer = await self.host.submit(seat.game_id, seat.player, message.text or "")
        await message.reply_text(to_telegram_html(answer), parse_mode="HTML")

    async def _forward(self, bot: _Bot, chat: int, seat: _ChatGame) -> None:
        async for text in self.host.messages(seat.game_id, seat.player):
            await bot.send_message(chat, to_telegram_html(text), parse_mode="HTML")

    def handlers(self) -> list[Any]:
        """The python-telegram-bot handlers: ``/play``, ``/concede``, and plain text."""
        from telegram.ext import CommandHandler, MessageHandler, filters

        return [CommandHandler("play", self.on_play), CommandHandler("concede", self.on_concede),
                MessageHandler(filters.TEXT & ~filters.COMMAND, self.on_text)]


def _player_name(update: Any) -> str:
    user = update.effective_user
    name = getattr(user, "username", None) or getattr(user, "first_name", None) or "player"
    return str(name)


def build_application(token: str, host: GameHost, **options: Any) -> Any:
    """A python-telegram-bot ``Application`` for ``token`` whose handlers play on ``host``,
    starting and stopping the host with the application (``post_init``/``post_shutdown``).
    ``options``: for ``TelegramChat`` (``decks``, ``seat_time``, ``deck_dir``). Run it with
    ``application.run_polling()``."""
    from telegram.ext import ApplicationBuilder

    chat = TelegramChat(host, **options)

    async def start(_: Any) -> None:
        await host.start()

    async def stop(_: Any) -> None:
        await host.stop()

    app = ApplicationBuilder().token(token).post_init(start).post_shutdown(stop).build()
    app.add_handlers(chat.handlers())
    app.bot_data["spellstack_chat"] = chat
    return app
