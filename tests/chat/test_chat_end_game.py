"""``GameHost.end_game``: the host program ends a running game, with no winner and its reason,
told to the players; a game over already keeps its own ending."""

from __future__ import annotations

import asyncio

from spellstack.chat import BotSeat, GameHost, HumanSeat

REASON = "the player's chat can no longer be sent anything"


def test_end_game_ends_a_running_game_with_its_reason() -> None:
    async def main() -> dict[str, object]:
        async with GameHost() as host:
            gid = await host.create_game([HumanSeat("alice"), BotSeat("bot")], ["gruul", "dimir"], seed=1)
            told: list[str] = []
            async for text in host.messages(gid, "alice"):
                told.append(text)
                if host.pending(gid, "alice") is not None:  # asked something: end it there
                    break
            info = await host.end_game(gid, REASON)
            rest = [text async for text in host.messages(gid, "alice")]
            again = await host.end_game(gid, "another reason")
            return {"running": info.running, "result": info.result, "reason": info.reason, "rest": rest,
                    "again": again.reason, "after": await host.submit(gid, "alice", "pass"),
                    "stopped": host.statistics().stopped}

    out = asyncio.run(main())
    assert out["running"] is False and out["result"] is None
    assert out["reason"] == out["again"] == REASON
    assert out["rest"] == [f"Game over, with no winner: {REASON}"]
    assert out["after"] == "The game is over."
    assert out["stopped"] == 1


def test_end_game_leaves_a_finished_game_as_it_ended() -> None:
    async def main() -> tuple[str, object]:
        async with GameHost() as host:
            gid = await host.create_game([HumanSeat("alice"), BotSeat("bot")], ["gruul", "dimir"], seed=1)
            await host.concede(gid, "alice")
            await host.wait(gid)
            info = await host.end_game(gid, REASON)
            return info.reason, info.result

    reason, result = asyncio.run(main())
    assert "alice conceded" in reason and result is not None


def test_conceding_while_a_question_is_open_is_a_concession_not_a_forfeit() -> None:
    async def main() -> tuple[str, str, list[tuple[str, str]]]:
        async with GameHost() as host:
            gid = await host.create_game([HumanSeat("alice"), BotSeat("bot")], ["gruul", "dimir"], seed=1)
            asked = ""
            async for _ in host.messages(gid, "alice"):
                decision = host.pending(gid, "alice")
                if decision is None:
                    continue
                if decision.kind == "priority":
                    await host.submit(gid, "alice", "pass")
                    continue
                asked = decision.kind  # the hand-size discard of alice's cleanup (514.1)
                await host.concede(gid, "alice")
                break
            info = await host.wait(gid)
            return asked, info.reason, info.result.forfeits  # type: ignore[attr-defined]

    asked, reason, forfeits = asyncio.run(main())
    assert asked == "choose"
    assert reason == "bot wins: alice conceded (104.3a)"
    assert forfeits == []
