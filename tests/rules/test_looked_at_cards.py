"""400.2: a hidden card an effect let a player look at (an opponent's hand, Invasion of
Gobakhan) is visible to that player where it is, and to nobody else; once it moves it is a new
object, unseen (400.7)."""

from __future__ import annotations

from spellstack.harness import HiddenNames, hidden_leaks
from spellstack.rules import move_object
from spellstack.rules.layers import become_copy
from spellstack.rules.views import PUBLIC_SEAT, visible_to
from spellstack.testing import Card, Table


def test_a_card_looked_at_is_seen_by_the_looker_alone_until_it_moves() -> None:
    game = Table("alice", "bob", "carol").hand("bob", "Grizzly Bears").game()
    bears = next(o for o in game.state.objects.values() if o.name == "Grizzly Bears")
    assert [visible_to(game, seat, bears) for seat in (0, 1, 2)] == [False, True, False]
    bears.looked_at_by = (0,)
    assert [visible_to(game, seat, bears) for seat in (0, 1, 2)] == [True, True, False]
    assert not visible_to(game, PUBLIC_SEAT, bears)
    moved = move_object(game, bears.id, "library")
    moved = move_object(game, moved.id, "hand")
    assert [visible_to(game, seat, moved) for seat in (0, 1, 2)] == [False, True, False]


def test_the_hidden_name_check_sees_a_look_without_anything_moving() -> None:
    # The soak's check keeps what is hidden from a seat until something changes; a look changes
    # what a seat may see without moving anything, so it must count as a change.
    game = Table("alice", "bob").hand("bob", "Grizzly Bears").game()
    bears = next(o for o in game.state.objects.values() if o.name == "Grizzly Bears")
    shown = {"choices": [{"id": bears.id, "name": "Grizzly Bears"}]}
    hidden = HiddenNames(game, 0)
    assert f"shows hidden #{bears.id} with the name 'Grizzly Bears'" in hidden_leaks(game, 0, shown, hidden)
    bears.looked_at_by = (0,)
    assert hidden_leaks(game, 0, shown, hidden) == []


def test_the_hidden_name_check_sees_a_permanent_turned_face_up() -> None:
    game = Table("alice", "bob").battlefield("bob", Card("Exalted Angel", face_down=True)).game()
    angel = next(o for o in game.state.objects.values() if o.name == "Exalted Angel")
    shown = {"choices": [{"id": angel.id, "name": "Exalted Angel"}]}
    hidden = HiddenNames(game, 0)
    assert hidden_leaks(game, 0, shown, hidden)
    angel.face_down = False  # 702.37e: turned face up, the same object (708.8)
    assert hidden_leaks(game, 0, shown, hidden) == []


def test_the_hidden_name_check_knows_the_cards_of_a_merged_permanent() -> None:
    # A Clone copied a Dryad Arbor that a Gemrazer then mutated over (725.1: the merged
    # permanent is the same object, named Gemrazer): the Arbor under it is public, so a view
    # naming the Clone "Dryad Arbor" names nothing hidden, though another is in a library.
    game = (Table("alice", "bob").library("bob", "Dryad Arbor").hand("bob", "Gemrazer")
            .battlefield("bob", "Dryad Arbor", "Clone").game())
    st = game.state
    arbor = next(o for o in st.objects.values() if o.name == "Dryad Arbor" and o.zone == "battlefield")
    hidden_arbor = next(o for o in st.objects.values() if o.name == "Dryad Arbor" and o.zone == "library")
    clone = next(o for o in st.objects.values() if o.name == "Clone")
    gem = next(o for o in st.objects.values() if o.name == "Gemrazer")
    become_copy(game, clone, arbor, clone)
    st.players[1].hand.remove(gem.id)  # Gemrazer merged on top, as the kernel holds it
    del st.objects[gem.id]
    arbor.merged = ((gem.card, gem.name, False), (arbor.card, arbor.name, False))
    arbor.card, arbor.name = gem.card, gem.name
    st.lki.clear()  # nothing else remembers a Dryad Arbor seat 0 saw
    game.changed()
    assert hidden_leaks(game, 0, {"battlefield": [{"id": clone.id, "name": "Dryad Arbor"}]}) == []
    assert hidden_leaks(game, 0, {"choices": [{"id": hidden_arbor.id, "name": "Dryad Arbor"}]})
