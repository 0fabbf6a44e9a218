"""Replacement and prevention effects (614, 615, 616.1): the order several apply in, each applying
once to an event, regeneration and "can't be regenerated", 704.5f versus 704.5g, and one
replacement for several simultaneous losses (704.7)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from spellstack.cards import load_card_file, load_cards
from spellstack.rules import (
    Action,
    Answer,
    CardDefinitionError,
    Decision,
    Game,
    Reply,
    add_shield,
    default_answer,
    destroy_permanent,
    move_object,
    play_sync,
    priority_decision,
    run_proc,
    state_based_actions,
    take_action,
)
from spellstack.testing import Table

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_only_cards.toml"))}


def game_with(alice: dict[str, object], bob: dict[str, object] | None = None) -> Game:
    setup = {"players": ["alice", "bob"], "alice": alice, "bob": bob or {}}
    return Table.from_setup(setup, cards=CARDS).at_priority(default_answer)


def card(game: Game, name: str) -> int:
    return next(o.id for o in game.state.objects.values() if o.name == name)


def zone_of(game: Game, name: str) -> str:
    return next(o.zone for o in game.state.objects.values() if o.name == name)


def choosing(text: str, asked: list[Decision]) -> Callable[[Decision], Reply]:
    """Answer a 616.1 question with the option whose text contains ``text``."""

    def answer(decision: Decision) -> Reply:
        asked.append(decision)
        assert decision.kind == "choose" and decision.prompt.startswith("616.1")
        return Answer(decision.id, (next(c.key for c in decision.choices if text in c.name),))

    return answer


def resolve_all(game: Game) -> None:
    play_sync(game, default_answer, max_tasks=200,
              until=lambda g, task: task == "priority" and not g.state.stack)


# ---------------------------------------------------------------------- 616.1


@pytest.mark.parametrize(("pick", "zone"), [("exile it instead", "exile"),
                                            ("shuffle it into", "library")])
def test_the_affected_objects_controller_chooses_which_replacement_applies_first(
        pick: str, zone: str) -> None:
    # Both would apply to the Colossus being put into a graveyard; whichever applies first
    # makes it go elsewhere, so the other no longer applies (616.1f).
    game = game_with({"battlefield": ["Test Graveyard Exiler"]},
                     {"battlefield": ["Test Returning Colossus"]})
    asked: list[Decision] = []
    colossus = card(game, "Test Returning Colossus")
    run_proc(destroy_permanent(game, colossus, "test"), choosing(pick, asked))
    assert len(asked) == 1 and asked[0].player == 1  # bob controls the Colossus
    assert len(asked[0].choices) == 2
    assert zone_of(game, "Test Returning Colossus") == zone


def test_without_anyone_to_ask_replacements_apply_in_timestamp_order() -> None:
    # move_object, called where nobody can be asked, takes the oldest effect first: the
    # Colossus (in play before the Exiler) shuffles itself into the library.
    game = game_with({"battlefield": ["Test Returning Colossus", "Test Graveyard Exiler"]})
    move_object(game, card(game, "Test Returning Colossus"), "graveyard")
    assert zone_of(game, "Test Returning Colossus") == "library"
    assert zone_of(game, "Test Graveyard Exiler") == "battlefield"


def test_a_self_replacement_applies_before_others_without_a_question() -> None:
    # 616.1a/614.15: Memory Lapse's "instead of into that player's graveyard" is part of the
    # countering; the Exiler's effect then finds no graveyard move to replace.
    game = game_with({"hand": ["Hill Giant"], "battlefield": ["Mountain"] * 4},
                     {"hand": ["Memory Lapse"], "battlefield": ["Island", "Island",
                                                                "Test Graveyard Exiler"]})
    take_action(game, 0, Action("cast", card(game, "Hill Giant")))
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    priority_decision(game)
    take_action(game, 0, Action("pass"))
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    priority_decision(game)
    take_action(game, 1, Action("cast", card(game, "Memory Lapse"),
                                targets=(card(game, "Hill Giant"),)))
    asked: list[Decision] = []

    def answer(decision: Decision) -> Reply:
        if decision.kind != "priority":
            asked.append(decision)
        return default_answer(decision)

    play_sync(game, answer, max_tasks=200,
              until=lambda g, task: task == "priority" and not g.state.stack)
    assert not asked
    assert game.state.players[0].library[:1] == [card(game, "Hill Giant")]
    assert zone_of(game, "Memory Lapse") == "exile"  # the Exiler did apply to Memory Lapse


# ---------------------------------------------------------------------- 614.5


def test_an_enters_with_counters_replacement_applies_once() -> None:
    game = game_with({"hand": ["Rasputin Dreamweaver"], "graveyard": []})
    new = move_object(game, card(game, "Rasputin Dreamweaver"), "battlefield")
    assert new.counters == {"dream": 7}


def test_one_destruction_uses_one_of_two_regeneration_shields() -> None:
    game = game_with({"battlefield": ["Grizzly Bears"]})
    bears = card(game, "Grizzly Bears")
    add_shield(game, "regenerate", bears, 1, "test")
    add_shield(game, "regenerate", bears, 1, "test")
    assert run_proc(destroy_permanent(game, bears, "test"), default_answer) is False
    assert game.state.objects[bears].tapped
    assert [s.kind for s in game.state.shields] == ["regenerate"]
    assert run_proc(destroy_permanent(game, bears, "test"), default_answer) is False
    assert not game.state.shields
    assert run_proc(destroy_permanent(game, bears, "test"), default_answer) is True
    assert zone_of(game, "Grizzly Bears") == "graveyard"


def test_enters_tapped_applies_to_the_entering_card() -> None:
    game = game_with({"hand": ["Test Tapped Gate", "Plains"]})
    take_action(game, 0, Action("play", card(game, "Test Tapped Gate")))
    gate = next(o for o in game.state.objects.values() if o.name == "Test Tapped Gate")
    assert gate.zone == "battlefield" and gate.tapped


# ---------------------------------------------------------------------- regeneration


def test_cant_be_regenerated_ignores_the_shield() -> None:
    game = game_with({"hand": ["Test Regrowth Shield", "Test Final Wipe"],
                      "battlefield": ["Forest", "Plains", "Plains", "Plains", "Grizzly Bears"]},
                     {"battlefield": ["Drudge Skeletons"]})
    bears = card(game, "Grizzly Bears")
    take_action(game, 0, Action("cast", card(game, "Test Regrowth Shield"), targets=(bears,)))
    resolve_all(game)
    assert [s.affected for s in game.state.shields] == [bears]
    priority_decision(game)
    take_action(game, 0, Action("cast", card(game, "Test Final Wipe")))
    resolve_all(game)
    assert zone_of(game, "Grizzly Bears") == "graveyard"
    assert zone_of(game, "Drudge Skeletons") == "graveyard"


def test_the_same_destruction_without_the_clause_is_regenerated() -> None:
    game = game_with({"battlefield": ["Grizzly Bears"]})
    bears = card(game, "Grizzly Bears")
    add_shield(game, "regenerate", bears, 1, "test")
    run_proc(destroy_permanent(game, bears, "test", regenerate=False), default_answer)
    assert zone_of(game, "Grizzly Bears") == "graveyard"
    game = game_with({"battlefield": ["Grizzly Bears"]})
    bears = card(game, "Grizzly Bears")
    add_shield(game, "regenerate", bears, 1, "test")
    run_proc(destroy_permanent(game, bears, "test"), default_answer)
    assert zone_of(game, "Grizzly Bears") == "battlefield"


def test_toughness_zero_is_not_destruction_and_is_not_regenerated() -> None:
    # 704.5f puts it into the graveyard; only 704.5g/h destroy (701.15a).
    game = game_with({"battlefield": [{"card": "Drudge Skeletons", "counters": {"-1/-1": 1}}]})
    skel = card(game, "Drudge Skeletons")
    add_shield(game, "regenerate", skel, 1, "test")
    run_proc(state_based_actions(game), default_answer)
    assert zone_of(game, "Drudge Skeletons") == "graveyard"


def test_lethal_damage_is_destruction_and_is_regenerated() -> None:
    game = game_with({"battlefield": ["Drudge Skeletons"]})
    skel = card(game, "Drudge Skeletons")
    game.state.objects[skel].damage = 3
    game.state.dirty = True  # changed from outside the kernel: the next check looks at everything
    add_shield(game, "regenerate", skel, 1, "test")
    run_proc(state_based_actions(game), default_answer)
    obj = game.state.objects[skel]
    assert obj.zone == "battlefield" and obj.tapped and obj.damage == 0


def test_shields_end_in_the_cleanup_step() -> None:
    game = game_with({"battlefield": ["Grizzly Bears"]})
    bears = card(game, "Grizzly Bears")
    add_shield(game, "regenerate", bears, 1, "test")
    assert [(s.kind, s.affected) for s in game.state.shields] == [("regenerate", bears)]
    # Still there in the end step, the last step before cleanup...
    play_sync(game, default_answer, max_tasks=500,
              until=lambda g, task: task == "priority" and g.state.step == "end")
    assert (game.state.turn, game.state.step) == (1, "end")
    assert [(s.kind, s.affected) for s in game.state.shields] == [("regenerate", bears)]
    # ...and gone once the cleanup step has been (514.2).
    play_sync(game, default_answer, max_tasks=500, until=lambda g, task: g.state.turn == 2)
    assert not game.state.shields


# ---------------------------------------------------------------------- 704.7


def test_several_simultaneous_losses_are_replaced_once() -> None:
    game = game_with({"battlefield": ["Lich's Mirror"], "library": ["Forest"] * 10,
                      "hand": ["Shock"]})
    p = game.state.players[0]
    p.life = 0
    p.drew_from_empty = True
    p.poison = 10
    game.state.dirty = True  # changed from outside the kernel: the next check looks at everything
    events = run_proc(state_based_actions(game), default_answer)
    assert isinstance(events, tuple)
    assert not p.lost and not game.state.game_over
    assert [e.kind for e in events].count("replace") == 1
    # Shock, ten Forests and the Mirror were shuffled in, then seven drawn.
    assert p.life == 20 and len(p.hand) == 7 and len(p.library) == 5
    assert not game.state.battlefield


def test_without_a_replacement_every_reason_is_named() -> None:
    game = game_with({})
    game.state.players[0].life = 0
    game.state.players[0].drew_from_empty = True
    game.state.dirty = True  # changed from outside the kernel: the next check looks at everything
    run_proc(state_based_actions(game), default_answer)
    p = game.state.players[0]
    assert p.lost and "704.5a" in p.loss_reason and "704.5b" in p.loss_reason


# ---------------------------------------------------------------------- card data


@pytest.mark.parametrize(("entry", "message"), [
    ('replacement = [{ event = "would_win", text = "x" }]', "unknown replacement event"),
    ('replacement = [{ event = "enters", tapped = true, zone = "exile", text = "x" }]',
     "takes"),
    ('replacement = [{ event = "enters", counters = { dream = 7 }, text = "not in the text" }]',
     "not part of the card's Oracle text"),
    ('replacement = [{ event = "to_graveyard", zone = "battlefield", text = "x" }]',
     "replacement\\[0\\]\\.zone: unknown zone 'battlefield'"),
    ('spell.effects = [{ verb = "destroy", what = "self", cant_be_regenerated = "yes" }]',
     r"bad\.toml: card 'Bad': spell\.effects\[0\]\.cant_be_regenerated: expected bool, got str 'yes'"),
])
def test_replacement_data_is_checked_at_load(entry: str, message: str) -> None:
    body = (f'[[card]]\nname = "Bad"\ncost = "{{B}}"\ntype = "Sorcery"\ntext = "x"\n{entry}\n')
    if "spell." not in entry:
        body += 'spell.effects = [{ verb = "draw" }]\n'
    with pytest.raises(CardDefinitionError, match=message):
        load_card_file("bad.toml", body)


# ---------------------------------------------------------------------- with the layers


def test_a_clone_entering_as_a_copy_gets_the_copied_enters_with_counters() -> None:
    # 614.12: the replacement effects that apply to a permanent entering are those it has as
    # it would exist on the battlefield: a Clone copying Rasputin enters with seven counters.
    game = game_with({"hand": ["Clone"], "battlefield": ["Island"] * 4},
                     {"battlefield": [{"card": "Rasputin Dreamweaver", "counters": {"dream": 2}}]})
    take_action(game, 0, Action("cast", card(game, "Clone")))

    def answer(decision: Decision) -> Reply:
        if decision.kind == "choose" and decision.prompt.startswith("707.2"):
            return Answer(decision.id, (0,))
        return default_answer(decision)

    play_sync(game, answer, max_tasks=200,
              until=lambda g, task: task == "priority" and not g.state.stack)
    clone = next(o for o in game.state.objects.values() if o.name == "Clone")
    assert clone.zone == "battlefield" and clone.counters == {"dream": 7}


def test_a_clone_moved_where_nobody_can_be_asked_enters_as_itself() -> None:
    # 614.1c: the copy is a choice made as it enters; move_object, called where nobody can be
    # asked, takes its default: Clone enters as itself, a 0/0.
    game = game_with({"graveyard": ["Clone"], "battlefield": ["Grizzly Bears"]})
    new = move_object(game, card(game, "Clone"), "battlefield")
    assert new.zone == "battlefield"
    assert game.characteristics(new).definition == "Clone"


def test_a_replacement_ability_removed_in_layer_6_does_not_apply() -> None:
    # Dress Down: "Creatures lose all abilities", so the Colossus's own replacement is gone.
    game = game_with({"battlefield": ["Test Returning Colossus", "Dress Down"]})
    move_object(game, card(game, "Test Returning Colossus"), "graveyard")
    assert zone_of(game, "Test Returning Colossus") == "graveyard"
