"""A person plays a bot process by text: ``BotSeat`` (and ``spellstack chat --vs``) takes any bot
a tournament takes, ``stdio:COMMAND`` included, and the bot process is started, waited for
(its ready frame) and relayed inside the host's trio guest run.

Real time: the bot is a process of its own. Each game takes a second or two; the limits are the
scripted seat's (5 s a question) and the terminal's (60 s for the session)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from spellstack.chat import BotSeat, ChatError, GameHost, GameInfo
from tests.chat._driver import User, scripted_seat
from tests.chat._terminal import Terminal

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = f"stdio:{sys.executable} {ROOT / 'examples' / 'stdio_bot.py'}"
"""The example stdio bot, run by this Python (which has msgpack)."""


def test_a_scripted_person_plays_the_example_stdio_bot_to_the_end() -> None:
    async def main() -> tuple[User, GameInfo]:
        async with GameHost() as host:
            gid = await host.create_game([scripted_seat("you"), BotSeat("bot", EXAMPLE)], ["gruul", "dimir"],
                                         seed=4, turn_limit=30)
            you = User(host, gid, "you")
            await you.play()
            return you, await host.wait(gid)

    you, info = asyncio.run(main())
    # Seed 4: the person's gruul outraces the example bot's dimir.
    assert info.result is not None and info.result.forfeits == [], info.reason
    assert info.reason == "you wins: bot has 0 or less life (704.5a)"
    assert you.told[-1] == f"Game over: {info.reason}."  # the end told once
    # The bot process played its side: the feed tells the person what it did.
    assert any("bot plays" in t for t in you.told)
    assert all(answer.startswith("OK") for _, answer in you.sent)
    assert info.result.decisions > len(you.sent)  # the bot's answers count too


def test_a_bot_spec_that_can_t_be_used_is_refused_before_the_game() -> None:
    async def main() -> str:
        async with GameHost() as host:
            try:
                await host.create_game([scripted_seat("you"), BotSeat("bot", "stdio:./no-such-bot")],
                                       ["gruul", "dimir"])
            except ChatError as err:
                assert host.games() == []
                return str(err)
        return ""

    assert asyncio.run(main()) == ("bot 'stdio:./no-such-bot': no file './no-such-bot' (a path is relative to the "
                                   "working folder)")


@pytest.mark.slow
def test_chat_vs_a_stdio_bot_in_a_terminal() -> None:
    term = Terminal("chat", "--vs", f"stdio:{sys.executable} examples/stdio_bot.py", "--seed", "3", "--name", "ann")
    try:
        term.expect("spellstack chat: ann against bot; type `help` for the commands.")
        term.expect("> Your priority. You can:")
        term.send("play mou")
        term.expect("OK: play Mountain.")
        term.send("concede")
        term.expect("Game over: bot wins: ann conceded (104.3a).")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


@pytest.mark.slow
def test_chat_vs_a_bot_that_can_t_be_loaded_is_one_line_and_exit_2() -> None:
    term = Terminal("chat", "--vs", "nosuchbot")
    try:
        said = term.expect("\n")
        assert said.startswith("spellstack chat: --vs: bot 'nosuchbot': not a built-in bot"), said
        assert term.close() == 2
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
