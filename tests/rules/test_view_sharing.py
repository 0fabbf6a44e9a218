"""Object views shared (``shared_view``): every seat that sees a permanent keeps the one view,
and a player's copy decoded from a message is that view too; sharing changes no view."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import msgpack

from spellstack.cards import load_cards
from spellstack.protocol import ViewDelta, ViewMirror, ViewTracker, from_plain, to_plain
from spellstack.rules import CardDefinition, Game, GameRandom, GameState, PlayerState, view_for
from spellstack.rules.views import ObjectView, ViewMemo, new_object_view, shared_view
from spellstack.rules.zones import create_object

CARDS: Mapping[str, CardDefinition] = load_cards()


def _table() -> Game:
    state = GameState(players=[PlayerState(0, "Ann"), PlayerState(1, "Ben")],
                      rng=GameRandom.from_seed(5), turn=3, step="precombat_main")
    game = Game(state, CARDS)
    create_object(game, "Lightning Bolt", 0, "hand")
    for name in ("Mountain", "Hill Giant"):
        create_object(game, name, 0, "battlefield")
    create_object(game, "Serra Angel", 1, "battlefield")
    return game


def _bears(**changes: object) -> ObjectView:
    view = new_object_view(4100, "Grizzly Bears", 0, 0, ("Creature",), False, 0, 2, 2, (), 0,
                           False, False, False, None)
    return dataclasses.replace(view, **changes) if changes else view


def test_an_equal_view_is_the_one_kept_and_another_is_not() -> None:
    first = shared_view(_bears())
    assert shared_view(_bears()) is first
    # Every field counts, those the hash leaves out too.
    for change in ({"counters": (("+1/+1", 1),)}, {"types": ("Artifact", "Creature")},
                   {"attached_to": 7}, {"blocking": True}, {"controller": 1}, {"owner": 1}):
        other = shared_view(_bears(**change))
        assert other is not first and other == _bears(**change) and other != first


def test_equal_views_hash_alike() -> None:
    a, b = _bears(counters=(("+1/+1", 2),)), _bears(counters=(("+1/+1", 2),))
    assert a is not b and a == b and hash(a) == hash(b)


def test_both_seats_keep_the_same_view_of_a_public_permanent_and_their_own_of_a_hand() -> None:
    game = _table()
    ann, ben = view_for(game, 0, ViewMemo()), view_for(game, 1, ViewMemo())
    assert ann.battlefield and all(a is b for a, b in zip(ann.battlefield, ben.battlefield, strict=True))
    assert [o.name for o in ann.hand] == ["Lightning Bolt"] and ben.hand == ()
    # A change seen by one seat first is built once: the other finds it.
    giant = next(i for i in game.state.battlefield if game.state.objects[i].name == "Hill Giant")
    game.state.objects[giant].tapped = True
    memos = ViewMemo(), ViewMemo()
    tapped = [next(o for o in view_for(game, s, memos[s]).battlefield if o.id == giant) for s in (0, 1)]
    assert tapped[0].tapped and tapped[0] is tapped[1]


def test_a_players_decoded_copy_of_a_view_is_the_view_the_kernel_built() -> None:
    game = _table()
    view = view_for(game, 0, ViewMemo())
    # As the delta crosses a channel: msgpack bytes, decoded into new values.
    wire = msgpack.packb(to_plain(ViewTracker().update(view)))
    decoded = from_plain(ViewDelta, msgpack.unpackb(wire), "view")
    mirrored = ViewMirror().apply(decoded)
    assert mirrored == dataclasses.replace(view, clock=None)
    assert all(a is b for a, b in zip(mirrored.battlefield, view.battlefield, strict=True))


def test_what_is_kept_for_a_new_view_is_made_only_when_none_is_kept() -> None:
    made: list[ObjectView] = []

    def new(view: ObjectView) -> ObjectView:
        made.append(dataclasses.replace(view))
        return made[-1]

    first = shared_view(_bears(damage=3), new)
    assert first is made[0] and first == _bears(damage=3)
    assert shared_view(_bears(damage=3), new) is first and len(made) == 1
