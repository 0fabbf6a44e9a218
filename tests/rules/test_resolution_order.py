"""608.2e and 608.2f: the questions a resolving spell asks, in the order the rules ask them:
Innocent Blood's sacrifice choices in APNAP order before anything is sacrificed; Soulfire
Eruption's order of its targets asked once, of its controller, before the first card is
exiled."""

from __future__ import annotations

from collections.abc import Callable

from spellstack import Action, Decision, Reply
from spellstack.testing import Card, Table, resolve_top, run_proc, scripted, take_action, to_priority


def test_innocent_blood_asks_in_apnap_order_then_sacrifices_all_at_once() -> None:
    # bob is the active player (and, a sorcery, its caster): asked first, then carol, then
    # alice, in turn order from him.
    table = (Table("bob", "carol", "alice")
             .hand("bob", Card("Innocent Blood", label="blood"))
             .battlefield("bob", "Swamp", Card("Grizzly Bears", label="b1"), Card("Hill Giant", label="b2"))
             .battlefield("carol", Card("Savannah Lions", label="c1"), Card("Raging Goblin", label="c2"))
             .battlefield("alice", Card("Grizzly Bears", label="a1"), Card("Hill Giant", label="a2")))
    game = table.at_priority()
    take_action(game, 0, Action("cast", table.obj(game, "blood").id))
    for seat in (0, 1, 2):
        to_priority(game)
        take_action(game, seat, Action("pass"))
    on_board: list[int] = []

    def choose(name: str) -> Callable[[Decision], Reply]:
        """The answer ``name``, noting how many creatures are on the battlefield as it is asked."""
        def answer(decision: Decision) -> Reply:
            on_board.append(sum(game.is_creature(game.state.objects[i]) for i in game.state.battlefield))
            return scripted(name)(decision)
        return answer

    script = scripted(choose("Grizzly Bears"), choose("Raging Goblin"), choose("Hill Giant"))
    run_proc(resolve_top(game), script)
    script.done()
    assert [d.player for d in script.asked] == [0, 1, 2]  # APNAP: bob, carol, alice (101.4)
    assert on_board == [6, 6, 6]  # nothing is sacrificed before every choice is made
    assert [table.obj(game, label).zone for label in ("b1", "b2", "c1", "c2", "a1", "a2")] == [
        "graveyard", "battlefield", "battlefield", "graveyard", "battlefield", "graveyard"]


def test_soulfire_eruption_asks_the_order_once_before_exiling_anything() -> None:
    table = (Table("alice", "bob")
             .hand("alice", Card("Soulfire Eruption", label="eruption"))
             .battlefield("alice", *["Mountain"] * 9)
             .library("alice", Card("Divination", label="top"), "Lightning Bolt", "Island")
             .battlefield("bob", Card("Hill Giant", label="giant")))
    game = table.at_priority()
    giant = table.obj(game, "giant").id
    take_action(game, 0, Action("cast", table.obj(game, "eruption").id, targets=(giant, 2)))
    for seat in (0, 1):
        to_priority(game)
        take_action(game, seat, Action("pass"))
    top_zone: list[str] = []

    def order(decision: Decision) -> Reply:
        top_zone.append(table.obj(game, "top").zone)
        return scripted(["bob", "Hill Giant"])(decision)

    script = scripted(order)
    run_proc(resolve_top(game), script)
    script.done()
    assert [(d.kind, d.player) for d in script.asked] == [("order", 0)]
    assert top_zone == ["library"]  # asked before the first card is exiled
    assert game.state.players[1].life == 17  # Divination's 3 to bob, who was first
    assert table.obj(game, "giant").damage == 1
