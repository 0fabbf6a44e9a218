"""Game end (104): winners, losers, draws, conceding, and the turn limit."""

from __future__ import annotations

import pytest

from spellstack.cards import load_cards
from spellstack.rules import (
    Action,
    IllegalActionError,
    default_answer,
    play_sync,
    run_proc,
    state_based_actions,
    take_action,
)
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


# ------------------------------------------------------------- how the end of a game reads


def _end_after_sba(**players: dict[str, object]) -> str:
    game = game_with(**players)
    run_proc(state_based_actions(game), default_answer)
    return game.state.end_reason


def test_an_effect_that_wins_the_game_reads_as_the_losers_loss() -> None:
    # 104.2b: Felidar Sovereign's trigger at the beginning of alice's upkeep, with 40 life.
    setup = {"players": ["alice", "bob"], "step": "end", "turn": 1, "priority": "bob",
             "alice": {"battlefield": [{"card": "Felidar Sovereign", "sick": False}], "life": 40,
                       "library": ["Forest"]},
             "bob": {"library": ["Giant Growth"]}}
    game, _ = build_game(setup, 0, CARDS, "test")
    game.history = []
    play_sync(game, default_answer, max_tasks=10_000)
    st = game.state
    assert st.game_over and st.players[st.winner].name == "alice"
    assert st.end_reason == "alice wins: bob lost to alice's Felidar Sovereign (104.2b)"
    assert [e.text for e in game.history if e.kind == "lose"] == [
        "bob loses the game: lost to alice's Felidar Sovereign (104.2b)"]


@pytest.mark.parametrize(
    ("bob", "reason"),
    [
        ({"life": 0}, "alice wins: bob has 0 or less life (704.5a)"),
        ({"poison": 10}, "alice wins: bob has ten or more poison counters (704.5c)"),
        # 704.7: one loss for both reasons, each said once.
        ({"life": 0, "poison": 12}, "alice wins: bob has 0 or less life (704.5a) and has ten or "
                                    "more poison counters (704.5c)"),
    ],
)
def test_a_state_based_loss_reads_after_the_losers_name(bob: dict[str, object],
                                                        reason: str) -> None:
    assert _end_after_sba(alice={}, bob=bob) == reason


def test_a_concession_and_several_losers_read_one_after_another() -> None:
    game = game_with(alice={}, bob={})
    take_action(game, 1, Action("concede"))
    assert game.state.end_reason == "alice wins: bob conceded (104.3a)"
    game = game_with(alice={"life": 0}, bob={}, carol={})
    run_proc(state_based_actions(game), default_answer)
    take_action(game, 1, Action("concede"))
    assert game.state.end_reason == ("carol wins: alice has 0 or less life (704.5a); "
                                     "bob conceded (104.3a)")
