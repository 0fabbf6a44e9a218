"""400.2 as effects change it: the top card of a library is seen by its owner with Garruk's
Horde ("You may look at the top card of your library any time") and by everyone with Future
Sight ("Play with the top card of your library revealed"); the cards below it by nobody; and a
card cast from the top becomes public as it moves to the stack, not before (601.2a)."""

from __future__ import annotations

from spellstack.cards import load_cards
from spellstack.rules import (
    Action,
    Game,
    player_ref,
    take_action,
)
from spellstack.rules.views import PUBLIC_SEAT, visible_name, visible_to
from spellstack.scenarios import build_game
from tests.rules.scenario_games import at_first_priority

CARDS = load_cards()
ALICE, BOB = 0, 1


def game_with(alice: dict[str, list[str]]) -> Game:
    return at_first_priority({"players": ["alice", "bob"], "alice": alice,
                              "bob": {"library": ["Forest", "Forest"]}}, CARDS)


def seers(game: Game, oid: int) -> list[int]:
    obj = game.state.objects[oid]
    return [s for s in (ALICE, BOB, PUBLIC_SEAT) if visible_to(game, s, obj)]


def test_without_an_effect_no_library_card_is_seen() -> None:
    game = game_with({"battlefield": ["Mountain"], "library": ["Lightning Bolt", "Forest"]})
    top, below = game.state.players[ALICE].library
    assert seers(game, top) == [] and seers(game, below) == []


def test_garruks_horde_shows_its_controller_the_top_card_only() -> None:
    game = game_with({"battlefield": ["Garruk's Horde"], "library": ["Grizzly Bears", "Forest"]})
    top, below = game.state.players[ALICE].library
    assert seers(game, top) == [ALICE]
    assert seers(game, below) == []
    assert visible_name(game, top, ALICE) == "Grizzly Bears"
    assert visible_name(game, top, BOB) == f"#{top}"
    # Bob's library is not Alice's to look at.
    assert all(seers(game, i) == [] for i in game.state.players[BOB].library)


def test_future_sight_reveals_the_top_card_to_everyone() -> None:
    game = game_with({"battlefield": ["Future Sight"], "library": ["Lightning Bolt", "Forest"]})
    top, below = game.state.players[ALICE].library
    assert seers(game, top) == [ALICE, BOB, PUBLIC_SEAT]
    assert seers(game, below) == []


def test_a_card_cast_from_the_top_becomes_public_as_it_moves_to_the_stack() -> None:
    game = game_with({"battlefield": ["Garruk's Horde", "Forest", "Forest"],
                      "library": ["Grizzly Bears", "Lightning Bolt"]})
    top = game.state.players[ALICE].library[0]
    assert seers(game, top) == [ALICE]
    take_action(game, ALICE, Action("cast", top))
    spell = game.state.objects[game.state.stack[-1]]
    assert spell.name == "Grizzly Bears"
    assert seers(game, spell.id) == [ALICE, BOB, PUBLIC_SEAT]
    # The card now on top is seen by Alice alone: the Bolt.
    new_top = game.state.players[ALICE].library[0]
    assert game.state.objects[new_top].name == "Lightning Bolt"
    assert seers(game, new_top) == [ALICE]
    assert visible_name(game, player_ref(BOB), ALICE) == "bob"


def test_a_card_exiled_face_down_is_seen_only_by_its_owner_under_a_look_effect() -> None:
    # 406.3: nobody may look at a card exiled face down, unless an effect lets its owner.
    def exiled(battlefield: list[str]) -> tuple[Game, int, int]:
        game, _ = build_game({"players": ["alice", "bob"],
                              "alice": {"battlefield": battlefield, "exile": [
                                  {"card": "Grizzly Bears", "face_down": True}]},
                              "bob": {"exile": [{"card": "Hill Giant", "face_down": True}]}},
                             0, CARDS, "test")
        mine, theirs = game.state.exile
        return game, mine, theirs

    game, mine, theirs = exiled(["Test Hidden Cache"])
    assert seers(game, mine) == [ALICE] and seers(game, theirs) == []
    assert visible_name(game, mine, BOB) == f"#{mine}"
    game, mine, theirs = exiled([])
    assert seers(game, mine) == [] and seers(game, theirs) == []
