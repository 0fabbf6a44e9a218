"""The cheap tests before the zone-change trigger checks (603.6, 603.10a) and the restriction
scan (101.2): when no card of the game's objects prints such an ability and no effect copies or
gives abilities, the board's abilities are not evaluated at all; an ability an effect gives
(613.1f) still triggers and still restricts."""

from __future__ import annotations

from spellstack.cards import load_cards
from spellstack.rules import Game, move_object
from spellstack.rules.layers import add_effect, new_effect
from spellstack.rules.legality import abilities_as_printed, kinds_seen, play_land_refusal
from spellstack.rules.triggers import trigger_enters, trigger_leaves
from spellstack.rules.zones import create_object
from spellstack.scenarios import build_game

CARDS = load_cards()


def board(alice: dict[str, object], bob: dict[str, object] | None = None) -> Game:
    game, _ = build_game({"players": ["alice", "bob"], "alice": alice, "bob": bob or {}}, 0,
                         CARDS, "test")
    return game


def named(game: Game, name: str, zone: str = "battlefield") -> int:
    return next(o.id for o in game.state.objects.values() if o.name == name and o.zone == zone)


def grant(game: Game, to: str, card: str) -> None:
    """An effect gives the permanent ``to`` the first restriction (else triggered ability) of
    ``card`` (a copy of it in a library is the effect's source)."""
    source = game.state.objects[named(game, card, "library")]
    defn = CARDS[card]
    position = (defn.restrictions or defn.triggered)[0].position
    add_effect(game, new_effect(game, "add_abilities", (("abilities", (position,)),),
                                (named(game, to),), source, "indefinite"))


def test_an_entering_creature_that_triggers_nothing_leaves_the_board_unevaluated() -> None:
    game = board({"battlefield": ["Forest", "Grizzly Bears", "Savannah Lions"]})
    new = game.state.objects[named(game, "Savannah Lions")]
    game.changed()
    trigger_enters(game, new)
    assert not game.state.pending_triggers
    assert not game.caches.layers  # nobody's abilities were looked at


def test_a_dying_creature_that_triggers_nothing_leaves_the_board_unevaluated() -> None:
    game = board({"battlefield": ["Forest", "Grizzly Bears", "Savannah Lions"]})
    old = game.state.objects[named(game, "Savannah Lions")]
    new = move_object(game, old.id, "graveyard")
    game.changed()
    trigger_leaves(game, old, "graveyard", new.id)
    assert not game.state.pending_triggers
    assert set(game.caches.layers) <= {old.id}  # its own, as it last existed (603.10a): no other


def test_an_another_creature_enters_ability_an_effect_gives_triggers() -> None:
    game = board({"battlefield": ["Forest", "Grizzly Bears"], "hand": ["Savannah Lions"],
                  "library": ["Soul Warden"]})
    grant(game, "Grizzly Bears", "Soul Warden")
    assert not abilities_as_printed(game)
    move_object(game, named(game, "Savannah Lions", "hand"), "battlefield")
    assert [(t.source_id, t.source_name) for t in game.state.pending_triggers] == [
        (named(game, "Grizzly Bears"), "Soul Warden")]


def test_a_creature_dies_ability_an_effect_gives_triggers() -> None:
    game = board({"battlefield": ["Forest", "Grizzly Bears", "Savannah Lions"],
                  "library": ["Blood Artist"]})
    grant(game, "Grizzly Bears", "Blood Artist")
    move_object(game, named(game, "Savannah Lions"), "graveyard")
    assert [(t.source_id, t.source_name) for t in game.state.pending_triggers] == [
        (named(game, "Grizzly Bears"), "Blood Artist")]


def test_a_restriction_an_effect_gives_restricts() -> None:
    game = board({"battlefield": ["Forest", "Grizzly Bears"], "library": ["Worms of the Earth"]})
    assert play_land_refusal(game, 0) is None
    grant(game, "Grizzly Bears", "Worms of the Earth")
    assert play_land_refusal(game, 0) == "Grizzly Bears: Players can't play lands (305.1)"


def test_with_no_restriction_printed_a_restriction_check_leaves_the_board_unevaluated() -> None:
    game = board({"battlefield": ["Forest", "Grizzly Bears"]})
    game.changed()
    assert play_land_refusal(game, 0) is None
    assert not game.caches.layers


def test_a_card_first_seen_after_the_look_is_looked_at() -> None:
    game = board({"battlefield": ["Forest", "Grizzly Bears"], "hand": ["Savannah Lions"]})
    assert "another_creature_enters" not in kinds_seen(game)
    warden = create_object(game, "Soul Warden", 0, "battlefield")  # a card no object had
    game.changed()
    move_object(game, named(game, "Savannah Lions", "hand"), "battlefield")
    assert [t.source_id for t in game.state.pending_triggers] == [warden.id]
