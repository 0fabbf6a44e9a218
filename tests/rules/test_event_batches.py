"""Events logged between two batches (nobody reads them) are not made; ``history`` keeps them."""

from __future__ import annotations

from collections.abc import Mapping

from spellstack.cards import load_cards
from spellstack.rules import (
    CardDefinition,
    Decision,
    Game,
    GameRandom,
    GameState,
    PlayerState,
    Reply,
    run_proc,
    state_based_actions,
)
from spellstack.rules.zones import create_object, deal_damage, draw_cards

CARDS: Mapping[str, CardDefinition] = load_cards()


def _no_decision(decision: Decision) -> Reply:
    raise AssertionError(f"unexpected decision {decision}")


def _game(history: bool) -> Game:
    state = GameState(players=[PlayerState(0, "Ann"), PlayerState(1, "Ben")],
                      rng=GameRandom.from_seed(5), turn=3, step="precombat_main")
    game = Game(state, CARDS, history=[] if history else None)
    for _ in range(3):
        create_object(game, "Mountain", 0, "library")
    create_object(game, "Grizzly Bears", 1, "battlefield")
    return game


def test_a_batch_returns_its_events_and_what_follows_it_is_not_collected() -> None:
    game = _game(history=False)
    bears = game.state.objects[game.state.battlefield[-1]]
    deal_damage(game, bears, bears.id, 2)
    events = run_proc(state_based_actions(game), _no_decision)
    assert isinstance(events, tuple) and [e.kind for e in events] == ["destroy", "zone"]
    assert not game.logging()
    draw_cards(game, 0, 1)
    game.log("step", "Ann's end step", player=0)
    assert game.events == []
    # Every reader starts with ``take_events``: from there on, events are collected again.
    assert game.take_events() == ()
    assert game.logging()
    draw_cards(game, 0, 1)
    assert [(e.kind, e.text) for e in game.take_events()] == [("draw", "Ann draws a card"),
                                                            ("draw", "Ann draws Mountain")]


def test_a_batch_that_finds_nothing_ends_collecting_too() -> None:
    game = _game(history=False)
    assert run_proc(state_based_actions(game), _no_decision) == ()
    game.log("step", "Ann's end step", player=0)
    assert game.events == []


def test_the_history_keeps_every_event_collected_or_not() -> None:
    game = _game(history=True)
    assert run_proc(state_based_actions(game), _no_decision) == ()
    assert game.logging()
    draw_cards(game, 0, 1)
    game.log("step", "Ann's end step", player=0)
    assert game.events == []
    assert game.history is not None
    assert [(e.kind, e.text, e.private_to) for e in game.history] == [
        ("draw", "Ann draws a card", ()), ("draw", "Ann draws Mountain", (0,)),
        ("step", "Ann's end step", ())]
