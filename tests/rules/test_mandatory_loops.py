"""104.4b: a loop of mandatory actions ends the game as a draw with its reason; a loop that a
player could stop (a choice each time round) is not one."""

from __future__ import annotations

from typing import Any

import pytest

from spellstack.cards import load_cards
from spellstack.rules import default_answer, play_sync
from spellstack.rules.turn._loops import WATCH_AFTER, position
from spellstack.scenarios import build_game

CARDS = load_cards()


def _loop(alice: dict[str, Any]) -> Any:
    """Test Ember Phoenix under Test Withering Field: 0/0, it dies and returns, forever."""
    alice = {"battlefield": ["Test Withering Field", "Test Ember Phoenix", *alice.get("battlefield", [])],
             "hand": alice.get("hand", [])}
    game, _ = build_game({"players": ["alice", "bob"], "alice": alice,
                          "bob": {"library": ["Island"] * 3}}, 0, CARDS, "test")
    return game


def test_a_loop_of_mandatory_actions_is_a_draw_with_its_reason() -> None:
    game = _loop({})
    play_sync(game, default_answer, max_tasks=20 * WATCH_AFTER)
    st = game.state
    assert st.game_over and st.winner == -1 and not any(p.lost for p in st.players)
    assert st.end_reason.startswith("draw: ") and "(104.4b)" in st.end_reason
    assert st.turn == 1  # it never left the first turn's main phase
    assert game.state.step == "precombat_main"


def test_a_loop_a_player_could_stop_is_not_drawn() -> None:
    # alice could cast Giant Growth each time she receives priority: passing is her choice, so
    # the loop is not one of mandatory actions; nothing ends it here but the test's cap.
    game = _loop({"hand": ["Giant Growth"], "battlefield": ["Forest", "Grizzly Bears"]})
    with pytest.raises(RuntimeError, match="did not end"):
        play_sync(game, default_answer, max_tasks=10 * WATCH_AFTER)
    assert not game.state.game_over


def test_a_position_ignores_object_identity_but_not_what_changed() -> None:
    game = _loop({})
    before = position(game)
    phoenix = next(o for o in game.state.objects.values() if o.name == "Test Ember Phoenix")
    phoenix.counters = {"+1/+1": 1}
    assert position(game) != before
    phoenix.counters = {}
    phoenix.id, phoenix.timestamp = phoenix.id + 1000, phoenix.timestamp + 1000
    assert position(game) == before
