"""Game end (104): winners, losers, draws, conceding, and the turn limit."""

from __future__ import annotations

import pytest

from spellstack.cards import load_cards
from spellstack.rules import Action, IllegalActionError, default_answer, run_proc, state_based_actions, take_action
from spellstack.scenarios import build_game

CARDS = load_cards()


def game_with(**players: dict[str, object]):  # type: ignore[no-untyped-def]
    setup = {"players": list(players), **players}
    game, _ = build_game(setup, 0, CARDS, "test")
    return game


def test_players_losing_at_the_same_check_draw() -> None:
    game = game_with(alice={"life": 0}, bob={"poison": 10})
    events = run_proc(state_based_actions(game), default_answer)
    st = game.state
    assert st.game_over and st.winner == -1
    assert "draw" in st.end_reason and "104.4a" in st.end_reason
    assert all(p.lost for p in st.players)
    assert [e.kind for e in events].count("lose") == 2  # type: ignore[union-attr]


def test_one_of_three_losing_leaves_the_game_running_and_its_objects_leave() -> None:
    game = game_with(alice={}, bob={"life": 0, "battlefield": ["Grizzly Bears"]}, carol={})
    run_proc(state_based_actions(game), default_answer)
    st = game.state
    assert not st.game_over
    assert st.players[1].lost and "704.5a" in st.players[1].loss_reason
    assert not st.battlefield  # 800.4a: bob's permanents left with him
    assert st.apnap() == [0, 2]


def test_conceding_ends_a_two_player_game() -> None:
    game = game_with(alice={}, bob={})
    take_action(game, 1, Action("concede"))
    st = game.state
    assert st.game_over and st.players[st.winner].name == "alice"
    assert "conceded" in st.players[1].loss_reason
    with pytest.raises(IllegalActionError, match="the game is over"):
        take_action(game, 0, Action("pass"))
