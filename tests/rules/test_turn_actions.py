"""Turn-based actions as steps end (``TURN_ACTIONS``, ``at = "end"``), which no scenario shows:
mana empties from the pools (500.4) and combat ends (511.3)."""

from __future__ import annotations

from spellstack.cards import load_cards
from spellstack.rules import CombatState, default_answer, run_proc
from spellstack.rules.turn import advance
from spellstack.scenarios import build_game

CARDS = load_cards()


def test_mana_empties_from_every_pool_as_a_step_ends() -> None:
    # 500.4: the active player's and the others' alike.
    game, _ = build_game({"players": ["alice", "bob"], "step": "precombat_main",
                          "alice": {"mana": "{G}{G}"}, "bob": {"mana": "{R}"}}, 1, CARDS, "test")
    run_proc(advance(game), default_answer)
    assert game.state.step == "beginning_of_combat"
    assert [p.mana for p in game.state.players] == [{}, {}]


def test_mana_stays_in_the_pool_while_the_step_lasts() -> None:
    game, _ = build_game({"players": ["alice", "bob"], "alice": {"mana": "{G}{G}"}}, 1, CARDS, "test")
    assert game.state.players[0].mana == {"G": 2}


def test_combat_ends_as_the_end_of_combat_step_ends_and_not_before() -> None:
    # 511.3: the creatures stop being attacking and blocking creatures then.
    game, _ = build_game({"players": ["alice", "bob"], "step": "combat_damage"}, 1, CARDS, "test")
    game.state.combat = CombatState(attackers_declared=True)
    run_proc(advance(game), default_answer)
    assert game.state.step == "end_of_combat" and game.state.combat is not None
    run_proc(advance(game), default_answer)
    assert game.state.step == "postcombat_main" and game.state.combat is None
