"""Abilities lost in layer 6 (613.1f) make no replacement effect and no counter limit: Dress
Down's "Creatures lose all abilities" against Rasputin Dreamweaver entering (614.12: a permanent
entering is considered as it would exist on the battlefield), Young Wolf's undying and 704.5r's
counter cap."""

from __future__ import annotations

from typing import Any

from spellstack.cards import load_cards
from spellstack.rules import (
    Action,
    Answer,
    Decision,
    Game,
    Reply,
    default_answer,
    move_object,
    play_sync,
    run_proc,
    state_based_actions,
    take_action,
)
from spellstack.testing import Table

CARDS = load_cards()


def game_with(alice: dict[str, Any], bob: dict[str, Any] | None = None) -> Game:
    setup = {"players": ["alice", "bob"], "alice": alice, "bob": bob or {}}
    return Table.from_setup(setup, cards=CARDS).at_priority(default_answer)


def card(game: Game, name: str) -> int:
    return next(o.id for o in game.state.objects.values() if o.name == name)


def cast_rasputin(game: Game) -> dict[str, int]:
    take_action(game, 0, Action("cast", card(game, "Rasputin Dreamweaver")))
    play_sync(game, default_answer, max_tasks=200,
              until=lambda g, task: task == "priority" and not g.state.stack)
    rasputin = game.state.objects[card(game, "Rasputin Dreamweaver")]
    assert rasputin.zone == "battlefield"
    return dict(rasputin.counters)


LANDS = ["Plains"] * 4 + ["Island"] * 2


def test_rasputin_enters_with_seven_dream_counters() -> None:
    game = game_with({"hand": ["Rasputin Dreamweaver"], "battlefield": LANDS})
    assert cast_rasputin(game) == {"dream": 7}


def test_rasputin_entering_under_dress_down_gets_no_dream_counters() -> None:
    # 614.12: as it would exist on the battlefield, it has no abilities (613.1f).
    game = game_with({"hand": ["Rasputin Dreamweaver"], "battlefield": [*LANDS, "Dress Down"]})
    assert cast_rasputin(game) == {}


def test_young_wolf_under_dress_down_has_no_undying() -> None:
    game = game_with({"battlefield": ["Young Wolf", "Dress Down"]})
    move_object(game, card(game, "Young Wolf"), "graveyard")
    assert game.state.pending_triggers == []
    assert game.state.objects[card(game, "Young Wolf")].zone == "graveyard"


def test_the_counter_cap_is_an_ability_dress_down_removes() -> None:
    game = game_with({"battlefield": [{"card": "Rasputin Dreamweaver", "counters": {"dream": 9}},
                                      "Dress Down"]})
    run_proc(state_based_actions(game), default_answer)
    assert game.state.objects[card(game, "Rasputin Dreamweaver")].counters == {"dream": 9}


def test_without_dress_down_the_counter_cap_applies() -> None:
    game = game_with({"battlefield": [{"card": "Rasputin Dreamweaver", "counters": {"dream": 9}}]})
    run_proc(state_based_actions(game), default_answer)
    assert game.state.objects[card(game, "Rasputin Dreamweaver")].counters == {"dream": 7}


def test_a_clone_copying_rasputin_has_its_counter_cap() -> None:
    # 707.2: the copy has the copied ability; the cap comes from its characteristics, not the
    # card's printed name.
    game = game_with({"hand": ["Clone"], "battlefield": ["Island"] * 4},
                     {"battlefield": [{"card": "Rasputin Dreamweaver", "counters": {"dream": 1}}]})
    take_action(game, 0, Action("cast", card(game, "Clone")))

    def copy_rasputin(decision: Decision) -> Reply:
        if decision.kind == "choose" and decision.prompt.startswith("707.2"):
            return Answer(decision.id, (0,))
        return default_answer(decision)

    play_sync(game, copy_rasputin, max_tasks=200,
              until=lambda g, task: task == "priority" and not g.state.stack)
    clone = next(o for o in game.state.objects.values() if o.name == "Clone")
    assert clone.zone == "battlefield" and clone.counters == {"dream": 7}
    clone.counters["dream"] = 9  # as if an effect had put two more on it
    game.changed()
    game.state.dirty = True
    run_proc(state_based_actions(game), default_answer)
    assert clone.counters == {"dream": 7}
