"""``spellstack bench --messages``: a game's messages, sent again alone, are the very messages
of the game, in its order, over links made as a game makes them."""

from __future__ import annotations

import pytest

from spellstack.actors import Link, _wire
from spellstack.harness import record_game, replay_messages
from spellstack.protocol import Accepted, encode

CYCLE = {"PriorityRequest", "SubmitAction", "Accepted", "CheckSBA", "SBABatch", "Resolve",
         "Resolved", "DecisionRequest", "SubmitAnswer", "GameOver"}
"""The design's message kinds every bench game uses."""


async def test_a_recorded_game_keeps_every_message_that_crossed_a_channel() -> None:
    game = await record_game(3)
    assert len(game.records) == game.result.messages > 100
    assert {r.kind for r in game.records} >= CYCLE
    assert all(r.receiver != "tracer" for r in game.records)
    # One message in flight at a time: numbered in order, coordinator events' numbers skipped.
    seqs = [r.seq for r in game.records]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


async def test_the_replay_sends_the_same_messages_and_each_arrives_unchanged() -> None:
    game = await record_game(5)
    assert await replay_messages(game.records, check=True) == game.result.messages


async def test_the_replay_decodes_with_validation_where_a_player_sends(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = await record_game(2)
    untrusted: list[str] = []
    receive = Link.receive

    async def spy(self: Link) -> object:
        if not self.trusted:
            untrusted.append(self.me)
        return await receive(self)

    monkeypatch.setattr(Link, "receive", spy)
    await replay_messages(game.records)
    from_players = [r for r in game.records if r.sender.startswith("player:")]
    assert untrusted == ["coordinator"] * len(from_players)


async def test_a_message_that_does_not_arrive_as_recorded_is_reported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = await record_game(1)
    # A link that delivers another message than it was given: the check must notice.
    monkeypatch.setattr(_wire, "encode", lambda msg: encode(Accepted(999)))
    with pytest.raises(ExceptionGroup) as caught:
        await replay_messages(game.records, check=True)
    assert caught.group_contains(AssertionError,
                                 match=r"message 0 \(CheckSBA\) came back as Accepted")
