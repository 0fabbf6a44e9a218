"""``GameHost.statistics()``: games created, running and how each ended, the texts given to
players and the commands they sent, counted by the host itself."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from spellstack.chat import BotSeat, GameHost, HostStatistics, HumanSeat
from spellstack.chat import _game_host as host_module

NOTHING = HostStatistics(games=0, running=0, finished=0, failed=0, stopped=0, texts_sent=0, commands=0,
                         replies=0)


def test_the_host_counts_its_games_texts_and_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    real = host_module.play_game

    async def fails_for_game3(game: Any, *args: Any, game_id: str, **kw: Any) -> Any:
        if game_id == "game3":
            raise RuntimeError("the host could not play it")
        return await real(game, *args, game_id=game_id, **kw)

    monkeypatch.setattr(host_module, "play_game", fails_for_game3)

    async def main() -> tuple[list[HostStatistics], list[str]]:
        host = GameHost()
        seen = [host.statistics()]
        await host.start()
        bots = await host.create_game([BotSeat("a"), BotSeat("b")], ["gruul", "dimir"], seed=3, turn_limit=10)
        await host.wait(bots)
        gid = await host.create_game([HumanSeat("alice"), HumanSeat("bob")], ["gruul", "dimir"], seed=3,
                                     turn_limit=10)
        failed = await host.create_game([BotSeat("c"), BotSeat("d")], ["gruul", "dimir"], seed=3)
        await host.wait(failed)
        stream = host.messages(gid, "alice")
        told = [await anext(stream)]  # alice's first question
        assert "Your hand" in await host.submit(gid, "alice", "hand")  # answered here, not a reply
        assert (await host.submit(gid, "alice", "play Mountain")).startswith("OK")
        seen.append(host.statistics())
        await host.stop()
        seen.append(host.statistics())
        told += [t async for t in stream]
        told += [t async for t in host.messages(gid, "bob")]
        return seen, told

    (before, during, after), told = asyncio.run(main())
    assert before == NOTHING
    assert during == HostStatistics(games=3, running=1, finished=1, failed=1, stopped=0,
                                    texts_sent=during.texts_sent, commands=2, replies=1)
    assert after == HostStatistics(games=3, running=0, finished=1, failed=1, stopped=1,
                                   texts_sent=len(told), commands=2, replies=1)
    assert told[-1] == "Game over: the host stopped, so the game ended with no winner."
    assert 0 < during.texts_sent < after.texts_sent
