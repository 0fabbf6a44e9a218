"""Paying with mana abilities whatever their cost (601.2g, 605.3a): counters removed (118.3) and
the source sacrificed (Treasure, 111.10a), named in ``Action.pay``; automatic payment still
only uses abilities whose only cost is {T}. Refusals name 601.2g and change nothing."""

from __future__ import annotations

import pytest

from spellstack.rules import (
    Action,
    Game,
    GameObject,
    IllegalActionError,
    player_ref,
    take_action,
)
from spellstack.rules.layers import add_counters
from spellstack.testing import Card, Table, to_priority

ANN, BEN = 0, 1
TABLE = Table("Ann", "Ben", seed=7, turn=3)
"""Ann's precombat main phase of turn 3, with priority; each test gives her a hand and
permanents (none of them summoning sick). Ben has nothing."""
TREASURE = Card("Treasure", token=True)


def act(game: Game, action: Action) -> None:
    """Ann takes the action once state-based actions and triggers are dealt with (117.5)."""
    to_priority(game)
    take_action(game, ANN, action)
    to_priority(game)


def card(game: Game, zone: str, name: str) -> GameObject:
    """Ann's first object called ``name`` in a zone."""
    for oid in game.state.zone_list(zone, ANN):
        obj = game.state.objects[oid]
        if obj.name == name and (zone != "battlefield" or obj.controller == ANN):
            return obj
    raise AssertionError(f"no {name} in {zone}")


def rasputin(game: Game, counters: int) -> GameObject:
    obj = card(game, "battlefield", "Rasputin Dreamweaver")
    add_counters(game, obj, "dream", counters)
    return obj


def refused(game: Game, action: Action, message: str) -> None:
    """Refused with a message matching ``message``, and the state exactly as before."""
    to_priority(game)
    before = game.state.state_hash()
    with pytest.raises(IllegalActionError, match=message):
        take_action(game, ANN, action)
    assert game.state.state_hash() == before


def test_removing_a_counter_pays_for_a_spell() -> None:
    game = TABLE.hand("Ann", "Grizzly Bears").battlefield("Ann", "Forest", "Rasputin Dreamweaver").game()
    dreamer = rasputin(game, 3)
    forest = card(game, "battlefield", "Forest")
    act(game, Action("cast", card(game, "hand", "Grizzly Bears").id,
                                  pay=(forest.id, dreamer.id)))
    assert dreamer.counters == {"dream": 2}
    assert not dreamer.tapped and forest.tapped
    assert game.state.players[ANN].mana == {}
    assert [game.state.objects[o].name for o in game.state.stack] == ["Grizzly Bears"]


def test_one_permanent_named_twice_removes_two_counters() -> None:
    game = TABLE.hand("Ann", "Divination").battlefield("Ann", "Island", "Rasputin Dreamweaver").game()
    dreamer = rasputin(game, 2)
    island = card(game, "battlefield", "Island")
    act(game, Action("cast", card(game, "hand", "Divination").id,
                                  pay=(dreamer.id, island.id, dreamer.id)))
    assert dreamer.counters == {}
    assert island.tapped


def test_more_namings_than_counters_are_refused() -> None:
    game = TABLE.hand("Ann", "Divination").battlefield("Ann", "Island", "Rasputin Dreamweaver").game()
    dreamer = rasputin(game, 1)
    island = card(game, "battlefield", "Island")
    refused(game, Action("cast", card(game, "hand", "Divination").id,
                         pay=(dreamer.id, island.id, dreamer.id)),
            r"^601\.2g.*Rasputin Dreamweaver \(#\d+\) has no mana ability you can activate again")


def test_a_rasputin_with_no_counters_is_refused() -> None:
    game = TABLE.hand("Ann", "Giant Growth").battlefield("Ann", "Grizzly Bears", "Rasputin Dreamweaver").game()
    dreamer = card(game, "battlefield", "Rasputin Dreamweaver")
    bears = card(game, "battlefield", "Grizzly Bears")
    refused(game, Action("cast", card(game, "hand", "Giant Growth").id, targets=(bears.id,),
                         pay=(dreamer.id,)),
            r"^601\.2g.*Rasputin Dreamweaver \(#\d+\) has no mana ability you can activate now")


def test_a_creature_without_a_mana_ability_is_refused() -> None:
    game = TABLE.hand("Ann", "Giant Growth").battlefield("Ann", "Grizzly Bears").game()
    bears = card(game, "battlefield", "Grizzly Bears")
    refused(game, Action("cast", card(game, "hand", "Giant Growth").id, targets=(bears.id,),
                         pay=(bears.id,)), r"^601\.2g.*Grizzly Bears \(#\d+\) has no mana ability")


def test_automatic_payment_never_removes_counters() -> None:
    game = TABLE.hand("Ann", "Grizzly Bears").battlefield("Ann", "Forest", "Rasputin Dreamweaver").game()
    rasputin(game, 7)
    refused(game, Action("cast", card(game, "hand", "Grizzly Bears").id), r"^601\.2h")


def test_a_treasure_pays_any_colour_and_is_sacrificed() -> None:
    game = TABLE.hand("Ann", "Lightning Bolt").battlefield("Ann", TREASURE).game()
    treasure = card(game, "battlefield", "Treasure")
    act(game, Action("cast", card(game, "hand", "Lightning Bolt").id,
                                  targets=(player_ref(BEN),),
                                  pay=(treasure.id,)))
    assert treasure.id not in game.state.battlefield
    assert game.state.players[ANN].mana == {}
    # 704.5d: the token went to the graveyard and then ceased to exist.
    assert [game.state.objects[o].name for o in game.state.zone_list("graveyard", ANN)] == []


def test_automatic_payment_never_sacrifices_a_treasure() -> None:
    game = TABLE.hand("Ann", "Giant Growth").battlefield("Ann", "Grizzly Bears", TREASURE).game()
    bears = card(game, "battlefield", "Grizzly Bears")
    refused(game, Action("cast", card(game, "hand", "Giant Growth").id, targets=(bears.id,)),
            r"^601\.2h")
    assert card(game, "battlefield", "Treasure")


def test_a_treasure_named_twice_is_refused() -> None:
    game = TABLE.hand("Ann", "Divination").battlefield("Ann", "Island", TREASURE).game()
    treasure = card(game, "battlefield", "Treasure")
    island = card(game, "battlefield", "Island")
    refused(game, Action("cast", card(game, "hand", "Divination").id,
                         pay=(treasure.id, island.id, treasure.id)),
            r"^601\.2g.*Treasure \(#\d+\) has no mana ability you can activate again")


def test_a_tapped_treasure_is_refused() -> None:
    game = TABLE.hand("Ann", "Giant Growth").battlefield("Ann", "Grizzly Bears", TREASURE).game()
    bears = card(game, "battlefield", "Grizzly Bears")
    treasure = card(game, "battlefield", "Treasure")
    treasure.tapped = True
    refused(game, Action("cast", card(game, "hand", "Giant Growth").id, targets=(bears.id,),
                         pay=(treasure.id,)), r"^601\.2g.*Treasure")


def test_a_refused_cast_keeps_the_treasure() -> None:
    game = TABLE.hand("Ann", "Divination").battlefield("Ann", TREASURE).game()
    treasure = card(game, "battlefield", "Treasure")
    refused(game, Action("cast", card(game, "hand", "Divination").id, pay=(treasure.id,)),
            r"^601\.2h")
    assert treasure.zone == "battlefield" and not treasure.tapped


def test_a_treasure_activated_with_priority_adds_the_named_colour() -> None:
    game = TABLE.battlefield("Ann", TREASURE).game()
    treasure = card(game, "battlefield", "Treasure")
    act(game, Action("activate", treasure.id, ability=1, pay_as=("U",)))
    assert game.state.players[ANN].mana == {"U": 1}
    assert treasure.id not in game.state.battlefield


def test_a_treasure_activated_without_a_colour_is_refused() -> None:
    game = TABLE.battlefield("Ann", TREASURE).game()
    treasure = card(game, "battlefield", "Treasure")
    refused(game, Action("activate", treasure.id, ability=1), r"^605\.3a")


def test_rasputin_activated_with_priority_removes_a_counter() -> None:
    game = TABLE.battlefield("Ann", "Rasputin Dreamweaver").game()
    dreamer = rasputin(game, 1)
    act(game, Action("activate", dreamer.id, ability=1))
    assert game.state.players[ANN].mana == {"C": 1}
    assert dreamer.counters == {}
    refused(game, Action("activate", dreamer.id, ability=1), r"^118\.3")
