"""400.2: a hidden card an effect let a player look at (an opponent's hand, Invasion of
Gobakhan) is visible to that player where it is, and to nobody else; once it moves it is a new
object, unseen (400.7)."""

from __future__ import annotations

from spellstack.harness import HiddenNames, hidden_leaks
from spellstack.rules import move_object
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
