"""Merged permanents (725) as the core holds them, without mutate's spell: ``GameObject.merged``
read by the layers (725.2), copied by a copy effect (707.2), split as it leaves (725.3), found
as "it" where it went (400.7); the ``merges`` happening; the "you own" target restriction."""

from __future__ import annotations

from typing import Any

from spellstack.cards import load_cards
from spellstack.rules import Game, GameObject, TargetSpec, move_object
from spellstack.rules.effects import EffectContext
from spellstack.rules.layers import become_copy
from spellstack.rules.legality import is_legal_target
from spellstack.rules.triggers import trigger_merges
from spellstack.scenarios import build_game

CARDS = load_cards()
ALICE, BOB = 0, 1


def game_with(**players: dict[str, Any]) -> Game:
    game, _ = build_game({"players": ["alice", "bob"], **players}, 0, CARDS, "test")
    return game


def named(game: Game, name: str, zone: str = "battlefield") -> GameObject:
    return next(o for o in game.state.objects.values() if o.name == name and o.zone == zone)


def merged_bears(game: Game) -> GameObject:
    """Grizzly Bears with the Gemrazer from alice's hand merged under it, as the kernel holds it."""
    st = game.state
    bears, gem = named(game, "Grizzly Bears"), named(game, "Gemrazer", "hand")
    st.players[ALICE].hand.remove(gem.id)
    del st.objects[gem.id]
    bears.merged = ((bears.card, bears.name, False), (gem.card, gem.name, False))
    game.changed()
    return bears


def test_a_merged_permanent_has_its_top_cards_characteristics_and_every_cards_abilities() -> None:
    game = game_with(alice={"hand": ["Gemrazer"], "battlefield": ["Grizzly Bears"]})
    bears = merged_bears(game)
    c = game.characteristics(bears)
    assert (c.name, c.power, c.toughness) == ("Grizzly Bears", 2, 2)
    assert {"reach", "trample"} <= set(c.keywords)
    assert [(name, t.event) for name, t in game.triggered(bears)] == [("Gemrazer", "mutates")]


def test_a_copy_of_a_merged_permanent_copies_the_abilities_under_it() -> None:
    game = game_with(alice={"hand": ["Gemrazer"], "battlefield": ["Grizzly Bears", "Savannah Lions"]})
    bears = merged_bears(game)
    lions = named(game, "Savannah Lions")
    become_copy(game, lions, bears, lions)
    c = game.characteristics(lions)
    assert (c.name, c.power, set(c.keywords) >= {"reach", "trample"}) == ("Grizzly Bears", 2, True)


def test_the_merges_happening_triggers_the_merged_permanents_own_abilities() -> None:
    game = game_with(alice={"hand": ["Gemrazer"], "battlefield": ["Grizzly Bears"]})
    bears = merged_bears(game)
    trigger_merges(game, bears)
    assert [(t.source_id, t.source_name) for t in game.state.pending_triggers] == [(bears.id, "Gemrazer")]


def test_leaving_puts_each_card_into_the_zone_and_it_finds_them_all() -> None:
    game = game_with(alice={"hand": ["Gemrazer"], "battlefield": ["Grizzly Bears"]})
    bears = merged_bears(game)
    new = move_object(game, bears.id, "graveyard")
    graveyard = [game.state.objects[i].name for i in game.state.players[ALICE].graveyard]
    assert sorted(graveyard) == ["Gemrazer", "Grizzly Bears"]
    assert not game.state.battlefield
    ctx = EffectContext(game, new, ALICE, new, (), 0, new.id, 0)
    assert sorted(o.name for o in ctx.objects("subject")) == ["Gemrazer", "Grizzly Bears"]


def test_you_own_restricts_a_target_to_its_owners_permanents() -> None:
    game = game_with(alice={"battlefield": ["Grizzly Bears", {"card": "Savannah Lions", "owner": "bob"}]})
    spec = TargetSpec("creature", owner="you")
    assert is_legal_target(game, spec, named(game, "Grizzly Bears").id, ALICE)
    assert not is_legal_target(game, spec, named(game, "Savannah Lions").id, ALICE)
    assert is_legal_target(game, spec, named(game, "Savannah Lions").id, BOB)
