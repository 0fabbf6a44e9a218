"""Restrictions and permissions (101.2): "can't" and "may" static abilities, where actions are
legal (casting 601.2a/601.2e, timing 307.1/702.8a, lands 305.1), and the fast path
``only_pass_possible`` staying exact under permissions."""

from __future__ import annotations

from pathlib import Path

import pytest

from spellstack.cards import load_card_file, load_cards
from spellstack.rules import (
    Action,
    Answer,
    CardDefinitionError,
    Game,
    IllegalActionError,
    default_answer,
    legal_actions,
    move_object,
    only_pass_possible,
    play_sync,
    priority_decision,
    take_action,
)
from spellstack.rules.layers import add_effect, end_durations, new_effect
from spellstack.rules.legality import block_refusal
from spellstack.scenarios import build_game

CARDS = {**load_cards(), **load_card_file(Path(__file__).with_name("test_only_cards.toml"))}


def game_with(alice: dict[str, list[str]], bob: dict[str, list[str]] | None = None,
              step: str = "precombat_main") -> Game:
    game, _ = build_game({"players": ["alice", "bob"], "step": step, "alice": alice,
                          "bob": bob or {}}, 0, CARDS, "test")
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    priority_decision(game)
    return game


def card(game: Game, name: str) -> int:
    return next(o.id for o in game.state.objects.values() if o.name == name)


def test_a_flash_permission_lets_an_aura_be_cast_outside_sorcery_timing() -> None:
    # In the upkeep (not a main phase) only the permission makes Pacifism castable (702.8a).
    with_aid = game_with({"hand": ["Pacifism"], "battlefield": ["Plains", "Plains", "Sigarda's Aid"]},
                         {"battlefield": ["Hill Giant"]}, step="upkeep")
    assert not only_pass_possible(with_aid, 0)
    assert [o.kind for o in legal_actions(with_aid, 0)] == ["pass", "cast"]
    without = game_with({"hand": ["Pacifism"], "battlefield": ["Plains", "Plains"]},
                        {"battlefield": ["Hill Giant"]}, step="upkeep")
    assert only_pass_possible(without, 0)
    with pytest.raises(IllegalActionError, match=r"307\.1"):
        take_action(without, 0, Action("cast", card(without, "Pacifism"),
                                       targets=(card(without, "Hill Giant"),)))
    take_action(with_aid, 0, Action("cast", card(with_aid, "Pacifism"),
                                    targets=(card(with_aid, "Hill Giant"),)))
    assert with_aid.state.objects[with_aid.state.stack[-1]].name == "Pacifism"


def test_the_flash_permission_is_only_for_its_controller() -> None:
    game = game_with({"battlefield": ["Sigarda's Aid"]},
                     {"hand": ["Pacifism"], "battlefield": ["Plains", "Plains"]}, step="upkeep")
    game.state.priority = 1
    assert [o.kind for o in legal_actions(game, 1)] == ["pass"]


def test_cast_from_graveyard_permission_lists_and_casts_the_card() -> None:
    game = game_with({"graveyard": ["Grizzly Bears", "Lightning Bolt"],
                      "battlefield": ["Forest", "Forest", "Test Graveyard Recaster"]})
    bears = card(game, "Grizzly Bears")
    casts = [o.object_id for o in legal_actions(game, 0) if o.kind == "cast"]
    assert casts == [bears]  # the creature card, not the instant
    assert not only_pass_possible(game, 0)
    with pytest.raises(IllegalActionError, match=r"601\.2a"):
        take_action(game, 0, Action("cast", card(game, "Lightning Bolt"), targets=(2,)))
    take_action(game, 0, Action("cast", bears))
    assert [game.state.objects[i].name for i in game.state.stack] == ["Grizzly Bears"]


def test_cant_beats_can_for_casting_from_the_graveyard() -> None:
    # 101.2: the permission says Grizzly Bears may be cast; Void Winnower says it can't.
    game = game_with({"graveyard": ["Grizzly Bears"],
                      "battlefield": ["Forest", "Forest", "Test Graveyard Recaster"]},
                     {"battlefield": ["Void Winnower"]})
    assert [o.kind for o in legal_actions(game, 0)] == ["pass"]
    before = game.state.state_hash()
    with pytest.raises(IllegalActionError, match=r"101\.2: Void Winnower: Your opponents can't "
                       r"cast spells with even mana values \(601\.2e\); Grizzly Bears can't be cast"):
        take_action(game, 0, Action("cast", card(game, "Grizzly Bears")))
    assert game.state.state_hash() == before


def test_void_winnower_restricts_only_its_controllers_opponents() -> None:
    game = game_with({"hand": ["Grizzly Bears"], "battlefield": ["Forest", "Forest",
                                                                 "Void Winnower"]})
    take_action(game, 0, Action("cast", card(game, "Grizzly Bears")))


def test_worms_of_the_earth_forbids_playing_lands_and_hides_the_option() -> None:
    game = game_with({"hand": ["Forest"]}, {"battlefield": ["Worms of the Earth"]})
    assert [o.kind for o in legal_actions(game, 0)] == ["pass"]
    with pytest.raises(IllegalActionError, match=r"101\.2: Worms of the Earth: Players can't play "
                       r"lands \(305\.1\); Forest can't be played"):
        take_action(game, 0, Action("play", card(game, "Forest")))


@pytest.mark.parametrize(("table", "message"), [
    ('kind = "cant_fly"', "kind: unknown restriction kind 'cant_fly'"),
    ('kind = "cant_cast"\nfilter = "odd_mana_value"', "filter: unknown filter 'odd_mana_value'"),
    ('kind = "cant_cast"\nplayers = "teammates"', "players: unknown player word 'teammates'"),
    ('kind = "cant_cast"\nwhen = "always"', r"restriction\[0\]: unknown field 'when'"),
])
def test_restrictions_are_checked_against_the_registry_when_loaded(table: str,
                                                                   message: str) -> None:
    text = ('[[card]]\nname = "Bad"\ncost = "{1}"\ntype = "Enchantment"\ntext = "Nope."\n'
            f'[[card.restriction]]\ntext = "Nope."\n{table}\n')
    with pytest.raises(CardDefinitionError, match=message):
        load_card_file("bad.toml", text)


def test_a_restriction_applies_the_moment_its_source_enters() -> None:
    game = game_with({"hand": ["Grizzly Bears"], "battlefield": ["Forest", "Forest"]},
                     {"hand": ["Void Winnower"]})
    assert [o.kind for o in legal_actions(game, 0)] == ["pass", "cast"]
    move_object(game, card(game, "Void Winnower"), "battlefield", controller=1)
    assert [o.kind for o in legal_actions(game, 0)] == ["pass"]


def test_a_creature_that_lost_its_abilities_restricts_nothing() -> None:
    # 613.1f: Dress Down's "Creatures lose all abilities" removes Void Winnower's statics.
    game = game_with({"hand": ["Grizzly Bears"], "battlefield": ["Forest", "Forest"]},
                     {"battlefield": ["Void Winnower", "Dress Down"]})
    take_action(game, 0, Action("cast", card(game, "Grizzly Bears")))
    assert [game.state.objects[i].name for i in game.state.stack] == ["Grizzly Bears"]


def test_a_resolved_cant_block_effect_restricts_only_its_creature_and_ends_at_cleanup() -> None:
    # 613.11: Goblin Heelcutter's "target creature can't block this turn", made as its attack
    # trigger resolves, is a rule-changing effect on the one creature, ended by 514.2.
    game = game_with({"battlefield": ["Goblin Heelcutter"]},
                     {"battlefield": ["Hill Giant", "Grizzly Bears"]})
    heelcutter = game.state.objects[card(game, "Goblin Heelcutter")]
    giant = game.state.objects[card(game, "Hill Giant")]
    bears = game.state.objects[card(game, "Grizzly Bears")]
    assert block_refusal(game, giant) is None
    add_effect(game, new_effect(game, "cant_block", (), (giant.id,), heelcutter, "end_of_turn"))
    assert block_refusal(game, giant) == (
        "Goblin Heelcutter: Hill Giant can't block this turn (509.1b)")
    assert block_refusal(game, bears) is None
    assert game.characteristics(giant).keywords == ()  # in no layer: nothing is granted
    end_durations(game, "cleanup")
    assert block_refusal(game, giant) is None


def test_a_modal_double_faced_card_offers_its_land_face_as_a_land_play() -> None:
    # 712.12: the land face is played, named by the option's face; the spell face is cast.
    game = game_with({"hand": ["Shatterskull Smashing"], "battlefield": ["Mountain", "Mountain"]},
                     {"battlefield": ["Grizzly Bears"]})
    options = [(o.kind, o.face) for o in legal_actions(game, 0)]
    assert ("play", "Shatterskull, the Hammer Pass") in options
    assert ("cast", "Shatterskull Smashing") in options
    assert not only_pass_possible(game, 0)
    # With no land play left, only the spell face is offered.
    game.state.players[0].lands_played = 1
    game.caches.actions.clear()
    assert [o.kind for o in legal_actions(game, 0)].count("play") == 0


def test_a_land_face_whose_entering_asks_is_taken_then_asks_before_it_enters() -> None:
    # 614.12: the play is taken (one land this turn), the card is still in hand while its
    # controller is asked, and the answer decides how it enters.
    game = game_with({"hand": ["Shatterskull Smashing"]})
    oid = card(game, "Shatterskull Smashing")
    rest = take_action(game, 0, Action("play", oid, face="Shatterskull, the Hammer Pass"))
    assert rest is not None
    assert game.state.players[0].lands_played == 1
    assert game.state.objects[oid].zone == "hand"
    question = next(rest)
    assert question.kind == "yes_no" and question.player == 0
    assert "pay 3 life" in question.prompt
    with pytest.raises(StopIteration):
        rest.send(Answer(question.id, (0,)))  # "no": it enters tapped
    land = game.state.objects[game.state.battlefield[-1]]
    assert (land.name, land.tapped, game.state.players[0].life) == (
        "Shatterskull, the Hammer Pass", True, 20)


def test_a_land_face_whose_controller_pays_the_life_enters_untapped() -> None:
    game = game_with({"hand": ["Shatterskull Smashing"]})
    oid = card(game, "Shatterskull Smashing")
    rest = take_action(game, 0, Action("play", oid, face="Shatterskull, the Hammer Pass"))
    assert rest is not None
    question = next(rest)
    with pytest.raises(StopIteration):
        rest.send(Answer(question.id, (1,)))  # "yes": 3 life paid (119.4)
    land = game.state.objects[game.state.battlefield[-1]]
    assert (land.name, land.tapped, game.state.players[0].life) == (
        "Shatterskull, the Hammer Pass", False, 17)
