"""Events logged between two batches (nobody reads them) are not made; ``history`` keeps them."""

from __future__ import annotations

from spellstack.rules import run_proc, state_based_actions
from spellstack.rules.zones import deal_damage, draw_cards
from spellstack.testing import Table, no_questions

TABLE = Table("Ann", "Ben", seed=5, turn=3).library("Ann", *["Mountain"] * 3).battlefield(
    "Ben", "Grizzly Bears")
"""Ann's main phase: three Mountains in her library, Ben's Grizzly Bears."""


def test_a_batch_returns_its_events_and_what_follows_it_is_not_collected() -> None:
    game = TABLE.game()
    bears = game.state.objects[game.state.battlefield[-1]]
    deal_damage(game, bears, bears.id, 2)
    events = run_proc(state_based_actions(game), no_questions)
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
    game = TABLE.game()
    assert run_proc(state_based_actions(game), no_questions) == ()
    game.log("step", "Ann's end step", player=0)
    assert game.events == []


def test_the_history_keeps_every_event_collected_or_not() -> None:
    game = TABLE.game(history=True)
    assert run_proc(state_based_actions(game), no_questions) == ()
    assert game.logging()
    draw_cards(game, 0, 1)
    game.log("step", "Ann's end step", player=0)
    assert game.events == []
    assert game.history is not None
    assert [(e.kind, e.text, e.private_to) for e in game.history] == [
        ("draw", "Ann draws a card", ()), ("draw", "Ann draws Mountain", (0,)),
        ("step", "Ann's end step", ())]
