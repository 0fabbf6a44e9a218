"""Fakes of the python-telegram-bot objects the Telegram adapter reads (update, message, chat,
user, context and bot), recording everything sent, so tests drive it with no network."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any


@dataclass
class FakeMessage:
    """A Telegram message as the adapter reads it: its text, and ``reply_text``."""

    text: str
    replies: list[str] = field(default_factory=list)

    async def reply_text(self, text: str, **kwargs: Any) -> None:
        self.replies.append(text)


@dataclass
class FakeBot:
    """``context.bot``: what ``send_message`` was given, by chat."""

    sent: dict[int, list[str]] = field(default_factory=dict)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> None:
        self.sent.setdefault(chat_id, []).append(text)
        self.arrived.set()


@dataclass
class FakeChat:
    id: int


@dataclass
class FakeUser:
    username: str
    id: int = 1


@dataclass
class FakeUpdate:
    effective_chat: FakeChat
    effective_user: FakeUser
    effective_message: FakeMessage


@dataclass
class FakeContext:
    bot: FakeBot
    args: list[str] = field(default_factory=list)


def command(text: str, bot: FakeBot, chat: int = 42, user: str = "alice",
            user_id: int = 1) -> tuple[FakeUpdate, FakeContext]:
    """The update and context of a command ``/play random gruul`` sent in ``chat`` by ``user``:
    its words after the command are ``context.args``, as python-telegram-bot splits them."""
    update = FakeUpdate(FakeChat(chat), FakeUser(user, user_id), FakeMessage(text))
    return update, FakeContext(bot, text.split()[1:])
