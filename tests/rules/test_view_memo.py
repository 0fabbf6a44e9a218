"""The seat's view memo and the definition caches games share (issue 7: memory per game)."""

from __future__ import annotations

from collections.abc import Mapping

from spellstack.cards import load_cards
from spellstack.rules import CardDefinition, Game, GameRandom, GameState, PlayerState, ViewMemo, view_for
from spellstack.rules._zones import create_object

CARDS: Mapping[str, CardDefinition] = load_cards()


def _table() -> Game:
    state = GameState(players=[PlayerState(1, "Ann"), PlayerState(2, "Ben")],
                      rng=GameRandom.from_seed(5), turn=3, step="precombat_main")
    game = Game(state, CARDS)
    for name in ("Lightning Bolt", "Grizzly Bears"):
        create_object(game, name, 0, "hand")
    for name in ("Mountain", "Hill Giant"):
        create_object(game, name, 0, "battlefield")
    create_object(game, "Serra Angel", 1, "battlefield")
    create_object(game, "Shock", 1, "graveyard")
    return game


def test_the_memo_keeps_only_the_last_view_and_reuses_its_unchanged_objects() -> None:
    game = _table()
    memo = ViewMemo()
    first = view_for(game, 0, memo)
    assert memo.view is first
    again = view_for(game, 0, memo)
    assert memo.view is again
    assert again == first == view_for(game, 0)
    hill = next(i for i in game.state.battlefield if game.state.objects[i].name == "Hill Giant")
    game.state.objects[hill].tapped = True
    game.state.objects[hill].damage = 2
    tapped = view_for(game, 0, memo)
    assert tapped == view_for(game, 0)
    old = {o.id: o for o in (*first.hand, *first.battlefield)}
    for o in (*tapped.hand, *tapped.battlefield):
        if o.id == hill:
            assert o.tapped and o.damage == 2 and o is not old[o.id]
        else:
            assert o is old[o.id]


def test_a_kept_view_is_not_reused_when_any_field_would_differ() -> None:
    game = _table()
    memo = ViewMemo()
    view_for(game, 0, memo)
    angel = next(i for i in game.state.battlefield if game.state.objects[i].name == "Serra Angel")
    obj = game.state.objects[angel]
    for change in ("sick", "counters", "attached_to"):
        if change == "sick":
            obj.sick = not obj.sick
        elif change == "counters":
            obj.counters["+1/+1"] = obj.counters.get("+1/+1", 0) + 1
            game.changed()
        else:
            obj.attached_to = 1
        assert view_for(game, 0, memo) == view_for(game, 0)


def test_games_with_the_same_definitions_share_the_printed_values_cache() -> None:
    one = Game(GameState(players=[PlayerState(1, "Ann")], rng=GameRandom.from_seed(1)), CARDS)
    two = Game(GameState(players=[PlayerState(1, "Ann")], rng=GameRandom.from_seed(2)), CARDS)
    assert one.layer_templates is two.layer_templates
    assert one.value_readers is two.value_readers
    other = dict(CARDS)
    three = Game(GameState(players=[PlayerState(1, "Ann")], rng=GameRandom.from_seed(3)), other)
    assert three.layer_templates is not one.layer_templates
