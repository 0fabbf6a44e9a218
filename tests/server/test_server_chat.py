"""Chat front ends over the network: a game created on the server and played by text through
``RemoteGameHost`` is the game ``GameHost`` hosts in process (the same seed and commands, the
same texts and answers for each seat), and each seat's texts go to its own token only."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from spellstack.chat import (
    CONNECTION_LOST,
    BotSeat,
    ChatError,
    ChatHost,
    GameHost,
    HumanSeat,
    RemoteGameHost,
    TelegramChat,
)
from spellstack.protocol import (
    ChatAnswer,
    ChatCommand,
    ChatCreated,
    ChatJoined,
    ChatOver,
    ChatSeat,
    ChatText,
    CreateChat,
    EndChat,
    Goodbye,
    JoinChat,
    JoinSeat,
    SessionError,
    Spectate,
)
from spellstack.rules import Decision, PlayerView
from spellstack.server import TOKEN_REFUSED
from tests.chat._driver import User, scripted_seat
from tests.chat._telegram_fakes import FakeBot, command
from tests.server._clients import connect, loopback, running_server, server_in_a_thread

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "chat.md"
SEED = 6
"""gruul against dimir, both players by text: a game with targets, a response, attacks, blocks
(as ``tests/chat/test_chat_game.py`` plays it)."""
TURNS = 30


@dataclass
class Recorded(User):
    """A scripted user that notes after which of its texts it typed each command."""

    at: list[int] = field(default_factory=list)

    def command(self, view: PlayerView, d: Decision) -> str:
        self.at.append(len(self.told) - 1)
        return super().command(view, d)


async def replay(host: ChatHost, game: str, name: str, script: dict[int, str]) -> tuple[list[str], list[str]]:
    """Type ``script``'s commands, each after the text it was typed after; every text and answer."""
    told: list[str] = []
    answers: list[str] = []
    async for text in host.messages(game, name):
        told.append(text)
        command = script.get(len(told) - 1)
        if command is not None:
            answers.append(await host.submit(game, name, command))
    return told, answers


def test_a_chat_game_on_the_server_is_the_game_hosted_in_process() -> None:
    async def here() -> tuple[Recorded, Recorded]:
        async with GameHost() as host:
            game = await host.create_game([scripted_seat("alice"), scripted_seat("bob")], ["gruul", "dimir"],
                                          seed=SEED, turn_limit=TURNS)
            alice, bob = Recorded(host, game, "alice"), Recorded(host, game, "bob")
            await asyncio.gather(alice.play(), bob.play())
            return alice, bob

    alice, bob = asyncio.run(here())
    scripts = {u.name: dict(zip(u.at, (command for command, _ in u.sent), strict=True)) for u in (alice, bob)}

    with server_in_a_thread(loopback()) as server:
        async def there() -> tuple[dict[str, tuple[list[str], list[str]]], str]:
            async with RemoteGameHost(f"ws://127.0.0.1:{server.port}") as host:
                game = await host.create_game([scripted_seat("alice"), scripted_seat("bob")], ["gruul", "dimir"],
                                              seed=SEED, turn_limit=TURNS)
                played = await asyncio.gather(*(replay(host, game, n, scripts[n]) for n in ("alice", "bob")))
                return dict(zip(("alice", "bob"), played, strict=True)), (await host.wait(game)).reason

        remote, reason = asyncio.run(there())

    for user in (alice, bob):
        told, answers = remote[user.name]
        assert told == user.told  # text out: every text, in order, the same
        assert answers == [answer for _, answer in user.sent]  # text in: every answer the same
    # A whole game, with targets, a response on the stack, attacks and blocks.
    assert {"target", "response", "attack", "block"} <= alice.features | bob.features
    assert reason == "bob wins: alice has 0 or less life (704.5a)" and alice.told[-1] == f"Game over: {reason}."
    # Each seat's own texts (its hand, its view) never reached the other seat.
    alice_only, bob_only = set(alice.told) - set(bob.told), set(bob.told) - set(alice.told)
    assert alice_only and bob_only
    assert not alice_only & set(remote["bob"][0]) and not bob_only & set(remote["alice"][0])


async def test_a_seat_s_token_plays_that_seat_only_and_is_sent_its_texts_only() -> None:
    async with running_server(loopback()) as server:
        assert server.port
        async with connect(server.port) as creator:
            await creator.send(CreateChat((ChatSeat("alice", "gruul"), ChatSeat("bob", "dimir"),
                                           ChatSeat("carl", "orzhov", bot="random")), seed=3, turn_limit=3))
            created = await creator.receive()
            assert isinstance(created, ChatCreated)
            assert [(s.seat, s.name, bool(s.token)) for s in created.seats] == [
                (0, "alice", True), (1, "bob", True), (2, "carl", False)]
            alice, bob = created.seats[0].token, created.seats[1].token
            for wrong in (JoinSeat(alice), Spectate(alice), JoinChat(created.owner), EndChat(alice, "no")):
                async with connect(server.port) as remote:
                    await remote.send(wrong)
                    assert await remote.closed() == ([SessionError(TOKEN_REFUSED)], 1008)
            async with connect(server.port) as remote:
                await remote.send(JoinChat(alice))
                assert await remote.receive() == ChatJoined(created.game, 0, ("alice", "bob", "carl"))
                while not isinstance(text := await remote.receive(), ChatText) or "(you)" not in text.text:
                    assert isinstance(text, ChatText), text  # the feed, until alice's first question
                assert "alice (you)" in text.text and "bob (you)" not in text.text
                await remote.send(ChatCommand("hand"))
                while not isinstance(answer := await remote.receive(), ChatAnswer):
                    assert isinstance(answer, ChatText) and "bob (you)" not in answer.text
                assert answer.text.startswith("```") and "Your hand" in answer.text
                await remote.send(Goodbye())
                assert (await remote.closed())[1] == 1000
            # The owner ends the game: each seat that joins is told the end, then ChatOver.
            await creator.send(EndChat(created.owner, "the front end\nstopped"))
            over = await creator.receive()
            assert over == ChatOver(created.game, "", "the front end stopped")
        async with connect(server.port) as remote:  # the game is over: its tokens open nothing
            await remote.send(JoinChat(bob))
            assert await remote.closed() == ([SessionError(TOKEN_REFUSED)], 1008)
        assert not server.chat.games and not server.chat.host.games()  # and the server forgot it


async def test_a_chat_game_that_can_t_be_played_is_refused_in_one_line() -> None:
    async with running_server(loopback()) as server:
        assert server.port
        async with connect(server.port) as remote:
            for seats, said in [
                ((ChatSeat("a", "gruul", bot="random"), ChatSeat("b", "dimir", bot="random")),
                 "a chat game has a person's seat (bot empty) at least"),
                ((ChatSeat("a", "/etc/passwd"), ChatSeat("b", "dimir")),
                 "seat 0: unknown deck (give its cards, or one of: dimir, gruul, orzhov)"),
                ((ChatSeat("a", "mine", cards=("Forest",) * 10), ChatSeat("b", "dimir")),
                 "seat 0: the cards are no deck this server plays (at least 40 of them, no tokens, no test cards)"),
                ((ChatSeat("a", "mine", cards=("Forest",) * 39 + ("Black Lotus",)), ChatSeat("b", "dimir")),
                 "seat 0: 1 of the deck's cards are not cards of this server"),
                ((ChatSeat("a", "gruul", bot="stdio:sh"), ChatSeat("b", "dimir")),
                 "seat 0: unknown bot (empty for a person, or one of: random, heuristic)"),
                ((ChatSeat("a", "gruul", time_limit=0.0), ChatSeat("b", "dimir")),
                 "seat 0: time limit: 1 to 86400 seconds"),
            ]:
                await remote.send(CreateChat(seats))
                assert await remote.receive() == SessionError(said)
            # A deck given by its cards is played as given.
            await remote.send(CreateChat((ChatSeat("a", "mine", cards=("Forest",) * 40), ChatSeat("b", "dimir"))))
            assert isinstance(await remote.receive(), ChatCreated)


def test_remote_game_host_refuses_what_a_server_can_t_play_before_asking_it() -> None:
    async def main() -> None:
        async with RemoteGameHost("ws://127.0.0.1:9") as host:
            with pytest.raises(ChatError, match=r"deck 'decks/mine.toml': a server is given a built-in deck by name"):
                await host.create_game([HumanSeat("a"), BotSeat("b")], ["decks/mine.toml", "dimir"])
            with pytest.raises(ChatError, match=r"a server plays its built-in bots \(random, heuristic\)"):
                await host.create_game([HumanSeat("a"), BotSeat("b", "stdio:./bot")], ["gruul", "dimir"])
            with pytest.raises(ChatError, match=r"can't reach the server at ws://127.0.0.1:9"):
                await host.create_game([HumanSeat("a"), BotSeat("b")], ["gruul", "dimir"])

    asyncio.run(main())


def test_the_telegram_adapter_plays_a_game_on_the_server() -> None:
    async def main(port: int) -> tuple[FakeBot, list[str], str]:
        async with RemoteGameHost(f"ws://127.0.0.1:{port}") as host:
            chat = TelegramChat(host)
            bot = FakeBot()
            play, context = command("/play random", bot)
            await chat.on_play(play, context)
            while not any("<pre>" in t for t in bot.sent.get(42, [])):  # the first question, its view
                bot.arrived.clear()
                await asyncio.wait_for(bot.arrived.wait(), 30)
            hand, _ = command("hand", bot)
            await chat.on_text(hand, context)
            quit_, _ = command("/concede", bot)
            await chat.on_concede(quit_, context)
            info = await host.wait(chat.seats[42, 1].game_id)
            return bot, [*play.effective_message.replies, *hand.effective_message.replies,
                         *quit_.effective_message.replies], info.reason

    with server_in_a_thread(loopback()) as server:
        bot, replies, reason = asyncio.run(main(server.port or 0))
    assert replies[0].startswith("Game tg-") and replies[0].endswith(": alice against random-bot. Type help for "
                                                                      "the commands.")
    assert replies[1].startswith("<pre>") and "Your hand" in replies[1] and replies[2] == "You concede (104.3a)."
    assert reason == "random-bot wins: alice conceded (104.3a)"
    assert bot.sent[42][-1] == "Game over: random-bot wins: alice conceded (104.3a)."



def test_the_page_s_server_example_runs_as_written_and_the_telegram_example_is_as_the_page_says() -> None:
    section = DOC.read_text("utf-8").split("## Games on a server\n", 1)[1].split("\n## ", 1)[0]
    [example] = re.findall(r"```python\n(.*?)```", section, re.S)
    assert example.count("ws://127.0.0.1:8765") == 1
    with server_in_a_thread(loopback()) as server:
        code = example.replace("ws://127.0.0.1:8765", f"ws://127.0.0.1:{server.port}")
        # Real time: a program of its own, run as a user runs it; it takes a second or so.
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "You concede (104.3a)" in done.stdout and lines[-1] == "bot wins: alice conceded (104.3a)"
    telegram = DOC.read_text("utf-8").split("## A Telegram bot\n", 1)[1]
    [lines_shown] = re.findall(r"```python\n(.*?)```", telegram, re.S)
    program = (ROOT / "examples" / "telegram_bot.py").read_text("utf-8")
    assert all(f"    {line}\n" in program for line in lines_shown.splitlines())


async def test_a_chat_seat_s_connection_that_breaks_ends_alone_and_the_token_joins_again(
        caplog: pytest.LogCaptureFixture) -> None:
    async with running_server(loopback()) as server:
        assert server.port
        async with connect(server.port) as creator:
            await creator.send(CreateChat((ChatSeat("alice", "gruul"), ChatSeat("bot", "dimir", bot="random")),
                                          seed=3))
            created = await creator.receive()
            assert isinstance(created, ChatCreated)
        token = created.seats[0].token
        async with connect(server.port) as remote:
            await remote.send(JoinChat(token))
            assert isinstance(await remote.receive(), ChatJoined)
            await remote.ws.aclose()  # gone, texts still coming
        async with connect(server.port) as remote:
            await remote.send(JoinChat(token))
            assert isinstance(await remote.receive(), ChatJoined)
            await remote.send(ChatCommand("concede"))
            got = [await remote.receive()]
            while not isinstance(got[-1], ChatOver):
                got.append(await remote.receive())
            await remote.send(Goodbye())
            assert await remote.closed() == ([], 1000)
        assert ChatAnswer("You concede (104.3a).") in got
        assert got[-1] == ChatOver(created.game, "bot", "bot wins: alice conceded (104.3a)")
    assert not [r for r in caplog.records if r.name == "spellstack.server" and r.levelname == "ERROR"]


def test_a_remote_game_s_seat_whose_server_goes_is_told_and_the_host_goes_on() -> None:
    async def main(port: int, stop_server: Callable[[], None]) -> tuple[list[str], str, bool]:
        async with RemoteGameHost(f"ws://127.0.0.1:{port}") as host:
            game = await host.create_game([HumanSeat("alice"), BotSeat("bot")], ["gruul", "dimir"], seed=3)
            texts = host.messages(game, "alice")
            told = [await anext(texts)]
            stop_server()
            told += [text async for text in texts]
            return told, host.info(game).reason, host.info(game).running

    with server_in_a_thread(loopback()) as server:
        told, reason, running = asyncio.run(main(server.port or 0, server.stop))
    assert told[-1] == CONNECTION_LOST and reason == "lost the connection to the game's server" and not running
