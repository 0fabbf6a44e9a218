"""601.2i: "whenever you cast a spell" abilities trigger when a spell becomes cast, after its
total cost is paid, and only then; a refused attempt triggers nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from spellstack.cards import load_card_file, load_cards
from spellstack.rules import (
    Action,
    Game,
    IllegalActionError,
    default_answer,
    play_sync,
    player_ref,
    take_action,
)
from tests.rules.scenario_games import at_first_priority

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_only_cards.toml"))}


def game_with(alice: dict[str, list[str]], bob: dict[str, list[str]] | None = None) -> Game:
    return at_first_priority({"players": ["alice", "bob"], "alice": alice, "bob": bob or {}},
                             CARDS)


def card(game: Game, name: str) -> int:
    return next(o.id for o in game.state.objects.values() if o.name == name)


def until_priority(game: Game) -> None:
    play_sync(game, default_answer, max_tasks=50, until=lambda g, task: task == "priority")


def test_casting_a_spell_triggers_its_casters_watcher_once_its_cost_is_paid() -> None:
    game = game_with({"hand": ["Lightning Bolt"], "battlefield": ["Mountain", "Test Spell Watcher"]},
                     {"battlefield": ["Test Spell Watcher"]})
    bolt, watchers = card(game, "Lightning Bolt"), [
        o.id for o in game.state.objects.values() if o.name == "Test Spell Watcher"]
    take_action(game, 0, Action("cast", bolt, targets=(player_ref(1),)))
    st = game.state
    # 601.2i: cast, paid, then triggered: only the caster's watcher, about the Bolt.
    assert st.objects[st.stack[-1]].name == "Lightning Bolt"
    assert st.objects[card(game, "Mountain")].tapped
    assert [(t.controller, t.source_id, t.subject) for t in st.pending_triggers] == [
        (0, watchers[0], st.stack[-1])]
    until_priority(game)
    # 603.3: put on the stack the next time a player would receive priority, above the Bolt.
    assert [st.objects[i].name for i in st.stack] == ["Lightning Bolt", "Test Spell Watcher"]
    assert not st.pending_triggers


def test_a_refused_cast_triggers_nothing() -> None:
    game = game_with({"hand": ["Lightning Bolt"], "battlefield": ["Test Spell Watcher"]})
    with pytest.raises(IllegalActionError, match=r"601\.2"):
        take_action(game, 0, Action("cast", card(game, "Lightning Bolt"),
                                    targets=(player_ref(1),)))
    assert not game.state.pending_triggers
    assert not game.state.stack
