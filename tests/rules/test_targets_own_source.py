"""115.5: a spell or ability can't target itself, but an activated ability may target its own
source (a test-only card: no card in the pool has a targeted activated ability)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spellstack.cards import load_card_file, load_cards
from spellstack.rules import (
    Action,
    Game,
    IllegalActionError,
    default_answer,
    legal_actions,
    next_task,
    resolve_top,
    run_proc,
    take_action,
)
from spellstack.testing import Table

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_only_cards.toml"))}


def game_with(**alice: list[str]) -> Game:
    return Table.from_setup({"players": ["alice", "bob"], "alice": alice}, cards=CARDS).at_priority(default_answer)


def test_an_activated_ability_may_target_its_own_source() -> None:
    game = game_with(battlefield=["Forest", "Test Self Pumper"])
    st = game.state
    pumper = next(o for o in st.objects.values() if o.name == "Test Self Pumper")
    option = next(o for o in legal_actions(game, 0) if o.kind == "activate")
    assert pumper.id in option.targets[0].candidates
    take_action(game, 0, Action("activate", pumper.id, 1, (pumper.id,)))
    ability = st.objects[st.stack[-1]]
    assert (ability.ability_kind, ability.targets) == ("activated", (pumper.id,))
    run_proc(resolve_top(game), default_answer)
    assert (game.power(pumper), game.toughness(pumper)) == (2, 2)
    assert next_task(game) == "check_sba"


def test_a_spell_still_cannot_target_itself() -> None:
    game = game_with(hand=["Counterspell"], battlefield=["Island", "Island"])
    st = game.state
    counterspell = st.players[0].hand[0]
    before = st.state_hash()
    with pytest.raises(IllegalActionError, match=r"601\.2c"):
        take_action(game, 0, Action("cast", counterspell, targets=(counterspell,)))
    assert st.state_hash() == before
