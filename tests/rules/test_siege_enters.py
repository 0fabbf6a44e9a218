"""310.11a: a Siege's protector is chosen as it enters (614.12), by the player it enters under,
among their opponents: part of the move itself, before any state-based action looks at it."""

from __future__ import annotations

from typing import Any

from spellstack.cards import load_cards
from spellstack.rules import Answer, Game, GameObject, Procedure, move_object
from spellstack.rules.zones import move_object_proc
from spellstack.scenarios import build_game

CARDS = load_cards()
ALICE, BOB, CAROL = 0, 1, 2


def siege_in_hand(*players: str) -> tuple[Game, GameObject]:
    setup: dict[str, Any] = {"players": list(players), "alice": {"hand": ["Invasion of Gobakhan"]}}
    game, _ = build_game(setup, 0, CARDS, "test")
    return game, next(o for o in game.state.objects.values() if o.name == "Invasion of Gobakhan")


def test_its_controller_chooses_among_their_opponents_as_it_enters() -> None:
    game, siege = siege_in_hand("alice", "bob", "carol")
    run = Procedure(move_object_proc(game, siege.id, "battlefield"))
    question = run.question
    assert question is not None and question.player == ALICE
    assert question.prompt == "310.11a: choose an opponent to protect Invasion of Gobakhan"
    assert [c.name for c in question.choices] == ["bob", "carol"]
    carol = next(c.key for c in question.choices if c.name == "carol")
    assert run.answer(Answer(question.id, (carol,))) is None
    entered = run.value
    assert entered is not None and entered.zone == "battlefield"
    assert (entered.protector, entered.counters) == (CAROL, {"defense": 3})


def test_with_one_opponent_nobody_is_asked() -> None:
    game, siege = siege_in_hand("alice", "bob")
    run = Procedure(move_object_proc(game, siege.id, "battlefield"))
    assert run.question is None and run.value is not None and run.value.protector == BOB


def test_where_nobody_can_be_asked_the_first_opponent_in_turn_order_protects_it() -> None:
    game, siege = siege_in_hand("alice", "bob", "carol")
    assert move_object(game, siege.id, "battlefield").protector == BOB
