"""A concession at any time (104.3a): a policy that concedes while it is asked something other
than priority sends ``Concede``, and its player loses by concession, not by forfeit. The
message is traced, shown, and replayed like any a player sends."""

from __future__ import annotations

from pathlib import Path

from spellstack.actors import SeatConcedes, play_one_game
from spellstack.bots import RandomBot
from spellstack.protocol import Concede, decode_from_player, encode
from spellstack.rules import Decision, PlayerView, Reply
from spellstack.trace import read_trace, replay_trace, show_trace


class ConcedesWhenAsked(RandomBot):
    """Plays at random, and concedes at the first question that is not priority."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        if decision.kind != "priority":
            raise SeatConcedes("whatever the text, a concession is a concession")
        return super().decide(view, decision)


async def test_a_concession_while_asked_a_question_is_a_concession(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    game, result = await play_one_game(["gruul", "dimir"], [ConcedesWhenAsked(1), RandomBot(2)], 3,
                                       names=["alice", "bob"], trace_path=trace)
    assert result.winner == "bob"
    assert result.reason == "bob wins: alice conceded (104.3a)"
    assert result.forfeits == []
    assert game.state.players[0].loss_reason == "conceded (104.3a)"
    read = read_trace(trace)
    assert [(m.sender, m.receiver) for m in read.messages if m.kind == "Concede"] == [
        ("player:alice", "coordinator")]
    shown = [line.text for line in show_trace(read)]
    assert "alice concedes (104.3a)" in shown
    assert "alice loses the game: conceded (104.3a)" in shown
    _, replayed = await replay_trace(read)
    assert replayed.reason == result.reason and replayed.final_hash == result.final_hash


def test_a_concession_from_a_player_is_checked_as_any_message() -> None:
    assert decode_from_player(encode(Concede())) == Concede()
    assert len(encode(Concede())) <= 64
