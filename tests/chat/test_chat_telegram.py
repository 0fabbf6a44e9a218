"""The example python-telegram-bot adapter, driven by fakes of the platform's update, message,
chat, user and bot objects (the attributes the adapter reads): no network. A user starts a game
with /play, is sent its first question, types commands, and concedes."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from spellstack.chat import GameHost, TelegramChat, _game_host, build_application, to_telegram_html

pytest.importorskip("telegram")


@dataclass
class FakeMessage:
    """A Telegram message as the adapter reads it: its text, and ``reply_text``."""

    text: str
    replies: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    async def reply_text(self, text: str, **kwargs: Any) -> None:
        self.replies.append((text, kwargs))


@dataclass
class FakeBot:
    """``context.bot``: what ``send_message`` was given."""

    sent: list[tuple[int, str]] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> None:
        assert kwargs.get("parse_mode") == "HTML"
        self.sent.append((chat_id, text))
        self.arrived.set()


@dataclass
class Id:
    id: int


@dataclass
class User:
    username: str
    id: int = 1


@dataclass
class FakeUpdate:
    effective_chat: Id
    effective_user: User
    effective_message: FakeMessage


@dataclass
class FakeContext:
    bot: FakeBot
    args: list[str] = field(default_factory=list)


def update(text: str, chat: int = 42) -> FakeUpdate:
    return FakeUpdate(Id(chat), User("alice"), FakeMessage(text))


async def _until(bot: FakeBot, test: Any) -> None:
    while not test():
        bot.arrived.clear()
        await asyncio.wait_for(bot.arrived.wait(), 30)


def test_a_game_by_telegram_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    # The host draws each game's seed in secret; the replies below are those of one game (with
    # about one seed in sixty, alice's first question is a choice of cards, which a word that
    # is no command answers otherwise), so the draw gives a fixed seed here.
    monkeypatch.setattr(_game_host, "secrets", SimpleNamespace(randbits=lambda bits: 1))

    async def main() -> tuple[FakeBot, list[FakeUpdate], str]:
        async with GameHost() as host:
            chat = TelegramChat(host)
            bot = FakeBot()
            context = FakeContext(bot, ["random"])
            play = update("/play random")
            await chat.on_play(play, context)
            # The first question arrives as its own message, the view in a <pre> block.
            await _until(bot, lambda: any("<pre>" in t for _, t in bot.sent))
            again = update("/play")
            await chat.on_play(again, context)
            sent = [update(t) for t in ("hand", "nonsense words", "help")]
            for u in sent:
                await chat.on_text(u, context)
            quit_ = update("/concede")
            await chat.on_concede(quit_, context)
            info = await host.wait(chat.seats[42, 1].game_id)
            await _until(bot, lambda: any("Game over" in t for _, t in bot.sent))
            other = update("hand", chat=7)
            await chat.on_text(other, context)
            return bot, [play, again, *sent, quit_, other], info.reason

    bot, updates, reason = asyncio.run(main())
    play, again, hand, nonsense, help_, quit_, other = updates
    assert play.effective_message.replies[0][0].startswith("Game tg-")
    assert ": alice against random-bot" in play.effective_message.replies[0][0]
    assert all(chat == 42 for chat, _ in bot.sent)
    assert again.effective_message.replies[0][0].startswith("A game is already running")
    hand_reply, options = hand.effective_message.replies[0]
    assert options == {"parse_mode": "HTML"} and hand_reply.startswith("<pre>")
    assert nonsense.effective_message.replies[0][0] == (
        "Unknown command &#x27;nonsense&#x27;: type `help` for the commands.")
    assert "cast" in help_.effective_message.replies[0][0]
    assert quit_.effective_message.replies[0][0] == "You concede (104.3a)."
    assert reason == "random-bot wins: alice conceded (104.3a)"
    assert other.effective_message.replies[0][0] == "No game in this chat: /play starts one."


def test_a_fenced_view_becomes_an_escaped_pre_block() -> None:
    text = "OK.\n```\nalice 20 <life> & more\n```\nafter"
    assert to_telegram_html(text) == "OK.\n<pre>alice 20 &lt;life&gt; &amp; more</pre>\nafter"


def test_the_application_is_built_with_the_adapters_handlers() -> None:
    # Building needs no network: the token is checked only when the bot runs.
    app = build_application("123456:TEST-TOKEN", GameHost())
    handlers = [h for group in app.handlers.values() for h in group]
    assert {type(h).__name__ for h in handlers} == {"CommandHandler", "MessageHandler"}
    assert isinstance(app.bot_data["spellstack_chat"], TelegramChat)
    assert {c for h in handlers for c in getattr(h, "commands", ())} == {"play", "concede"}
