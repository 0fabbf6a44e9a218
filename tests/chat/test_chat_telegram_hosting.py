"""The Telegram adapter as it is hosted: without python-telegram-bot it says what to install; a
game in a group chat is its starter's alone; sends go through the rate limiter, and a send that
fails is logged while forwarding goes on, until too many fail in a row. Fakes of the platform's
objects throughout: no network."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from spellstack.chat import SEND_FAILURES, GameHost, TelegramChat, TelegramMissing, build_application, to_telegram_html

from ._telegram_fakes import FakeBot, command

telegram = pytest.importorskip("telegram")

ROOT = Path(__file__).resolve().parents[2]
INSTALL = "pip install 'spellstack[telegram]'"

# ---------------------------------------------------------------- without the extra

BLOCKER = """\
import sys

class _Blocked:
    \"\"\"Imports of the blocked modules fail, as if they were not installed.\"\"\"

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, _Blocked())
"""


def _run_example(tmp_path: Path, blocked: set[str]) -> subprocess.CompletedProcess[str]:
    """``examples/telegram_bot.py`` run as a user runs it, with ``blocked`` not importable (a
    ``sitecustomize`` blocks them before the program starts)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER.format(blocked=sorted(blocked)), encoding="utf-8")
    # This checkout's src first, whatever is installed.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "src"), str(ROOT)]),
           "TELEGRAM_TOKEN": "123:abc"}
    # Real time: a program of its own, which exits at once; the limit only ends a hang.
    return subprocess.run([sys.executable, str(ROOT / "examples" / "telegram_bot.py")], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=30)


def test_the_example_without_python_telegram_bot_says_what_to_install(tmp_path: Path) -> None:
    done = _run_example(tmp_path, {"telegram"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"the Telegram adapter needs python-telegram-bot: {INSTALL}\n"


@pytest.mark.slow
def test_the_example_without_the_rate_limiter_says_what_to_install(tmp_path: Path) -> None:
    done = _run_example(tmp_path, {"aiolimiter"})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"the Telegram adapter needs python-telegram-bot's rate limiter (aiolimiter): "
                           f"{INSTALL}\n")


def test_build_application_without_python_telegram_bot_raises_a_clear_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "telegram" or m.startswith("telegram.")]:
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(TelegramMissing, match=r"^the Telegram adapter needs python-telegram-bot: "
                                              r"pip install 'spellstack\[telegram\]'$"):
        build_application("123:abc", GameHost())
    with pytest.raises(ImportError, match="needs python-telegram-bot"):
        TelegramChat(GameHost()).handlers()


# ---------------------------------------------------------------- the rate limiter

# RetryAfter itself warns of its int retry_after (python-telegram-bot 22.2 and later).
@pytest.mark.filterwarnings("ignore:Deprecated since version v22.2")
def test_the_application_sends_through_a_rate_limiter_that_retries_three_times() -> None:
    from telegram.error import RetryAfter
    from telegram.ext import AIORateLimiter

    limiter = build_application("123456:TEST-TOKEN", GameHost()).bot.rate_limiter
    assert isinstance(limiter, AIORateLimiter)
    calls: list[int] = []

    def send(failures: int) -> Callable[[], Any]:
        async def callback() -> bool:
            calls.append(failures)
            if len(calls) <= failures:
                raise RetryAfter(timedelta(0))
            return True
        return callback

    async def main() -> tuple[bool, list[int], bool]:
        # Real time: the limiter waits retry_after + 0.1 s before each retry (0.6 s in all here).
        sent = await limiter.process_request(send(3), (), {}, "sendMessage", {"chat_id": 42}, None)
        after_three = list(calls)
        calls.clear()
        try:
            await limiter.process_request(send(4), (), {}, "sendMessage", {"chat_id": 42}, None)
        except RetryAfter:
            return bool(sent), after_three, True
        return bool(sent), after_three, False

    sent, after_three, gave_up = asyncio.run(main())
    assert sent and len(after_three) == 4  # three RetryAfter, then sent
    assert gave_up and len(calls) == 4     # a fourth RetryAfter is the sender's


# ---------------------------------------------------------------- group chats

GROUP = -100


def test_in_a_group_only_the_starter_plays_or_concedes_their_game() -> None:
    async def main() -> dict[str, Any]:
        async with GameHost() as host:
            chat = TelegramChat(host)
            bot = FakeBot()
            out: dict[str, Any] = {}

            async def say(text: str, user: str, uid: int) -> list[str]:
                update, context = command(text, bot, chat=GROUP, user=user, user_id=uid)
                if text.startswith("/play"):
                    await chat.on_play(update, context)
                elif text == "/concede":
                    await chat.on_concede(update, context)
                else:
                    await chat.on_text(update, context)
                return update.effective_message.replies

            await say("/play random", "ann", 1)
            ann = chat.seats[GROUP, 1].game_id
            out["bob"] = [await say(t, "bob", 2) for t in ("concede", "pass", "/concede")]
            out["carl"] = [await say(t, "carl", 3) for t in ("/concede", "hand")]
            out["ann running"] = host.info(ann).running
            out["ann help"] = await say("help", "ann", 1)
            out["bob play"] = await say("/play random", "bob", 2)
            bob = chat.seats[GROUP, 2].game_id
            out["bob concede"] = await say("/concede", "bob", 2)
            out["bob reason"] = (await host.wait(bob)).reason
            out["ann still running"] = host.info(ann).running
            out["ann concede"] = await say("/concede", "ann", 1)
            out["ann reason"] = (await host.wait(ann)).reason
            out["bob after"] = await say("hand", "bob", 2)
            return out

    out = asyncio.run(main())
    told = "This is ann's game; /play starts your own."
    assert out["bob"] == [[told], [], []]  # once per game, not once per message
    assert out["carl"] == [[told], []]
    assert out["ann running"] and out["ann still running"]
    assert "cast" in out["ann help"][0]
    assert out["bob play"][0].startswith("Game tg-") and ": bob against random-bot" in out["bob play"][0]
    assert out["bob concede"][0].startswith("You concede (104.3a)")
    assert "bob conceded" in out["bob reason"]
    assert "ann conceded" in out["ann reason"]
    assert out["bob after"] == ["The game is over."]


# ---------------------------------------------------------------- send errors


class SendFailed(Exception):
    """A send error of the fake bot's (as a network error would be)."""


@dataclass
class FlakyBot:
    """``context.bot`` whose sends numbered in ``failing`` (from 1) raise; the others are sent."""

    failing: Callable[[int], bool]
    attempts: int = 0
    sent: list[str] = field(default_factory=list)
    tried: asyncio.Event = field(default_factory=asyncio.Event)

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> None:
        self.attempts += 1
        self.tried.set()
        if self.failing(self.attempts):
            raise SendFailed(f"send {self.attempts} failed")
        self.sent.append(text)


ANSWERS = ("pass", "keep", "no attack", "no blocks")
"""What alice answers, the first of these that the question takes (a choice: its first ones)."""


async def _play_passing(chat: TelegramChat, bot: FlakyBot, host: GameHost, until: Callable[[], bool]) -> str:
    """Start a game in chat 42 and answer every question alice is asked (``pass`` to each
    priority) until ``until()`` or the game's end; returns the game's id."""
    update, context = command("/play random", bot)
    await chat.on_play(update, context)
    gid = chat.seats[42, 1].game_id
    while host.info(gid).running and not until():
        bot.tried.clear()
        decision = host.pending(gid, "alice")
        if decision is not None:
            # The game's seed is the host's secret one: any question can come, e.g. "discard 2".
            first = " ".join(str(n) for n in range(1, max(decision.min, 1) + 1))
            for answer in (*ANSWERS, first):
                typed, context = command(answer, bot)
                await chat.on_text(typed, context)
                if typed.effective_message.replies[0].startswith(("OK", "Refused")):  # sent
                    break
                if not host.info(gid).running:  # ended while alice answered
                    return gid
            else:
                raise AssertionError(f"no answer in {(*ANSWERS, first)} to {decision}")
            continue
        # Real time: only a guard against a hang; each wait ends with the next send, at once.
        await asyncio.wait_for(bot.tried.wait(), 30)
    return gid


def test_a_failed_send_is_logged_and_the_next_message_is_sent(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="spellstack.chat")
    # Four failures in a row, a success, four more: never five in a row.
    bot = FlakyBot(lambda n: n in {1, 2, 3, 4, 6, 7, 8, 9})

    async def main() -> tuple[bool, int]:
        async with GameHost() as host:
            chat = TelegramChat(host)
            gid = await _play_passing(chat, bot, host, lambda: bot.attempts >= 12)
            return host.info(gid).running, len(bot.sent)

    running, sent = asyncio.run(main())
    assert running and sent >= 4  # sends 5, 10, 11, 12
    warnings = [r.getMessage() for r in caplog.records if r.name == "spellstack.chat"]
    assert len(warnings) == 8
    assert warnings[0].endswith("a message to Telegram chat 42 failed to send (1 in a row): SendFailed: send 1 failed")
    assert "(4 in a row): SendFailed: send 9 failed" in warnings[-1]


def test_five_failed_sends_in_a_row_end_the_game_with_that_reason(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="spellstack.chat")
    bot = FlakyBot(lambda n: True)

    async def main() -> tuple[str, bool, int]:
        async with GameHost() as host:
            chat = TelegramChat(host)
            gid = await _play_passing(chat, bot, host, lambda: False)
            info = await host.wait(gid)
            forward = chat.seats[42, 1].forward
            assert forward is not None
            await forward  # the forwarding ends with the game, not with the first error
            return info.reason, info.result is None, host.statistics().stopped

    reason, no_result, stopped = asyncio.run(main())
    assert reason == (f"{SEND_FAILURES} messages in a row to alice's chat failed to send "
                      f"(the last: SendFailed: send {SEND_FAILURES} failed)")
    assert no_result and stopped == 1
    # Messages queued before the game ended, and its last ("Game over, with no winner: ..."),
    # are tried too.
    assert bot.attempts > SEND_FAILURES
    assert bot.sent == []


@dataclass
class TelegramErrorsBot:
    """``context.bot`` whose first send raises python-telegram-bot's ``RetryAfter`` and whose
    second raises its ``NetworkError``, as Telegram and a dropped connection do; the others are
    sent."""

    attempts: int = 0
    sent: list[str] = field(default_factory=list)
    tried: asyncio.Event = field(default_factory=asyncio.Event)

    async def send_message(self, chat_id: int, text: str, **kwargs: Any) -> None:
        from telegram.error import NetworkError, RetryAfter

        self.attempts += 1
        self.tried.set()
        if self.attempts == 1:
            raise RetryAfter(timedelta(seconds=3))
        if self.attempts == 2:
            raise NetworkError("connection reset by peer")
        self.sent.append(text)


class AnsweringChat(TelegramChat):
    """The adapter, keeping the answers it gave in reply to a player's text (as sent)."""

    def __init__(self, host: GameHost) -> None:
        super().__init__(host)
        self.answers: list[str] = []

    async def on_text(self, update: Any, context: Any) -> None:
        await super().on_text(update, context)
        self.answers.extend(update.effective_message.replies)


@pytest.mark.filterwarnings("ignore:Deprecated since version v22.2")
def test_after_a_retry_after_and_a_network_error_every_later_message_arrives(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="spellstack.chat")
    bot = TelegramErrorsBot()
    told: list[str] = []  # every text the host gave alice: her stream's, and its answers to her
    answers: list[str] = []

    async def main() -> str:
        async with GameHost(on_text=lambda game, player, text: told.append(text)) as host:
            chat = AnsweringChat(host)
            gid = await _play_passing(chat, bot, host, lambda: bot.attempts >= 12)  # type: ignore[arg-type]
            assert host.info(gid).running
            update, context = command("/concede", bot)  # type: ignore[arg-type]
            await chat.on_concede(update, context)
            info = await host.wait(gid)
            forward = chat.seats[42, 1].forward
            assert forward is not None
            await forward  # every message of the game tried
            answers.extend(chat.answers + update.effective_message.replies)
            return info.reason

    assert asyncio.run(main()) == "random-bot wins: alice conceded (104.3a)"
    stream = [to_telegram_html(text) for text in told if to_telegram_html(text) not in answers]
    assert bot.attempts == len(stream) >= 13 and len(answers) >= 10
    # The first two were lost; every one after them arrived, in order, to the last.
    assert bot.sent == stream[2:]
    assert bot.sent[-1] == "Game over: random-bot wins: alice conceded (104.3a)."
    warnings = [r.getMessage() for r in caplog.records if r.name == "spellstack.chat"]
    assert len(warnings) == 2
    assert "(1 in a row): RetryAfter:" in warnings[0] and "(2 in a row): NetworkError: connection reset" in warnings[1]
