"""A python-telegram-bot adapter for ``GameHost``: the platform's messages in, host calls, text out.

Optional: ``pip install 'spellstack[telegram]'``. Kept thin on purpose: ``TelegramChat`` maps a
Telegram chat to one game seat and forwards text both ways; every rule, check and rendering is
the host's (a ``ChatHost``: ``GameHost``, or ``RemoteGameHost`` for games on a server).
Commands:

- ``/play [random|heuristic] [DECK] [BOT_DECK]``: a new game in this chat against a built-in bot
  (default: heuristic, gruul against dimir), played by the user who sent it. A deck is named,
  never a path: a built-in deck, or a deck file of the operator's ``deck_dir`` (``DeckShelf``);
  any other word gets one fixed reply listing the names, and nothing is opened;
- ``/concede``: concede the sender's game in this chat;
- any other text: a command of the text language (``cast bolt targeting bob``, ``2``, ``hand``).

A game is the chat's and its player's: in a group chat, only the user who started a game plays
or concedes it; anyone else is told whose game it is, once per game.

What the player should be told (each question with their view, the event feed, the end of the
game) is sent to the chat as it comes. Views are monospace blocks: the host's text, fenced for
Discord-style markdown, is sent as an HTML ``<pre>`` block. ``build_application`` sends through
python-telegram-bot's ``AIORateLimiter``, which keeps within Telegram's flood limits and retries
after ``RetryAfter``; any other send error is logged and the next message is tried, and after
``SEND_FAILURES`` in a row the game ends with that reason.
"""

from __future__ import annotations

import asyncio
import html
import os
import secrets
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Protocol

from ..cards import Deck, load_cards
from ._chat_host import ChatHost
from ._decks import DeckRefused, DeckShelf, log
from ._game_host import ChatError
from ._seats import BotSeat, HumanSeat

__all__ = ["SEND_FAILURES", "TelegramChat", "TelegramMissing", "build_application", "to_telegram_html"]

_FENCE = "```"
_BOTS = ("random", "heuristic")
INSTALL = "pip install 'spellstack[telegram]'"
SEND_FAILURES = 5
"""Messages to a player's chat failing to send in a row that end their game: they can no longer
be told anything."""
MAX_RETRIES = 3
"""Times the rate limiter sends a message again after Telegram's ``RetryAfter``."""


class TelegramMissing(ImportError):
    """python-telegram-bot, or its rate limiter, is not installed (``spellstack[telegram]``)."""


def _telegram_ext() -> Any:
    """``telegram.ext``, with the rate limiter's library; ``TelegramMissing`` if either is not
    installed."""
    try:
        ext = import_module("telegram.ext")
    except ImportError:
        raise TelegramMissing(f"the Telegram adapter needs python-telegram-bot: {INSTALL}") from None
    try:
        import_module("aiolimiter")
    except ImportError:
        raise TelegramMissing("the Telegram adapter needs python-telegram-bot's rate limiter "
                              f"(aiolimiter): {INSTALL}") from None
    return ext


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
    """A game a chat plays, its player's name, and the task forwarding their messages."""

    game_id: str
    """The host's game id."""
    player: str
    """The player's name in that game."""
    forward: asyncio.Task[None] | None = None
    """The task sending ``GameHost.messages`` to the chat."""
    told: set[int | None] = field(default_factory=set)
    """The other users of the chat told that this game is not theirs."""


_Key = tuple[int, int | None]
"""A game's chat id and the Telegram user id of its player (None: a post with no user)."""


class TelegramChat:
    """One Telegram bot's games on one host (``GameHost`` in this process, or ``RemoteGameHost``
    on a server): each user of a chat plays at most one game in it at a time, against a
    built-in bot; only they play it.

    ``deck_dir``: a folder of the operator's deck files a player may name (``DeckShelf``);
    ``decks``: the default decks' names (the player's, then the bot's). Each game's seed is
    drawn by the host from the operating system (``GameInfo.seed``, never told to a player);
    a game id is ``tg-`` and 12 random hex digits."""

    def __init__(self, host: ChatHost, *, decks: Sequence[str] = ("gruul", "dimir"),
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
        self.seats: dict[_Key, _ChatGame] = {}
        """(Telegram chat id, user id) -> that user's game in that chat."""

    async def on_play(self, update: Any, context: Any) -> None:
        """``/play [random|heuristic] [DECK] [BOT_DECK]``."""
        chat, message = update.effective_chat.id, update.effective_message
        key = (chat, _user_id(update))
        args = [str(a) for a in (getattr(context, "args", None) or [])]
        if key in self.seats and self.host.info(self.seats[key].game_id).running:
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
        seat = self.seats[key] = _ChatGame(game_id, player)
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
        seat = await self._own_game(update)
        if seat is not None:
            await update.effective_message.reply_text(
                to_telegram_html(await self.host.concede(seat.game_id, seat.player)), parse_mode="HTML")

    async def on_text(self, update: Any, context: Any) -> None:
        """Any other text: one command of the text language."""
        message = update.effective_message
        seat = await self._own_game(update)
        if seat is not None:
            answer = await self.host.submit(seat.game_id, seat.player, message.text or "")
            await message.reply_text(to_telegram_html(answer), parse_mode="HTML")

    async def _own_game(self, update: Any) -> _ChatGame | None:
        """The sender's game in this chat, or None once they have been answered: a game of
        another user running in the chat is named to them (once per game), else they are told
        there is no game."""
        chat, user = update.effective_chat.id, _user_id(update)
        own = self.seats.get((chat, user))
        if own is not None and self.host.info(own.game_id).running:
            return own
        others = [seat for (c, u), seat in self.seats.items()
                  if c == chat and u != user and self.host.info(seat.game_id).running]
        if others:
            latest = others[-1]
            if user not in latest.told:  # once: a group's chatter gets no reply per message
                latest.told.add(user)
                await update.effective_message.reply_text(
                    f"This is {latest.player}'s game; /play starts your own.")
            return None
        if own is None:
            await update.effective_message.reply_text("No game in this chat: /play starts one.")
        return own

    async def _forward(self, bot: _Bot, chat: int, seat: _ChatGame) -> None:
        """Send the player's messages to the chat as they come. A send that fails is logged and
        the next message tried (the rate limiter, if any, has retried it already); after
        ``SEND_FAILURES`` in a row the game ends, as its player can't be told anything."""
        failures = 0
        async for text in self.host.messages(seat.game_id, seat.player):
            try:
                await bot.send_message(chat, to_telegram_html(text), parse_mode="HTML")
            except Exception as err:  # one message lost; asyncio's cancellation passes on
                failures += 1
                what = _one_line(f"{type(err).__name__}: {err}")
                log.warning("game %s: a message to Telegram chat %s failed to send (%d in a row): %s",
                            seat.game_id, chat, failures, what)
                if failures == SEND_FAILURES:
                    reason = f"{failures} messages in a row to {seat.player}'s chat failed to send (the last: {what})"
                    try:
                        await self.host.end_game(seat.game_id, reason)
                    except ChatError:  # the host has stopped: the game is over already
                        pass
            else:
                failures = 0

    def handlers(self) -> list[Any]:
        """The python-telegram-bot handlers: ``/play``, ``/concede``, and plain text."""
        ext = _telegram_ext()
        return [ext.CommandHandler("play", self.on_play), ext.CommandHandler("concede", self.on_concede),
                ext.MessageHandler(ext.filters.TEXT & ~ext.filters.COMMAND, self.on_text)]


def _user_id(update: Any) -> int | None:
    user = update.effective_user
    uid = getattr(user, "id", None)
    return None if uid is None else int(uid)


def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _player_name(update: Any) -> str:
    user = update.effective_user
    name = getattr(user, "username", None) or getattr(user, "first_name", None) or "player"
    return str(name)


def build_application(token: str, host: ChatHost, **options: Any) -> Any:
    """A python-telegram-bot ``Application`` for ``token`` whose handlers play on ``host``,
    starting and stopping the host with the application (``post_init``/``post_shutdown``).
    ``options``: for ``TelegramChat`` (``decks``, ``seat_time``, ``deck_dir``). Messages go
    through python-telegram-bot's ``AIORateLimiter`` (``MAX_RETRIES`` after a ``RetryAfter``).
    Run it with ``application.run_polling()``. ``TelegramMissing`` if python-telegram-bot or
    its rate limiter is not installed."""
    ext = _telegram_ext()
    chat = TelegramChat(host, **options)

    async def start(_: Any) -> None:
        await host.start()

    async def stop(_: Any) -> None:
        await host.stop()

    app = (ext.ApplicationBuilder().token(token).rate_limiter(ext.AIORateLimiter(max_retries=MAX_RETRIES))
           .post_init(start).post_shutdown(stop).build())
    app.add_handlers(chat.handlers())
    app.bot_data["spellstack_chat"] = chat
    return app
