"""601.2a, 305.1, 712.12: a card a resolved effect lets its controller play from exile (Soulfire
Eruption's "you may play the exiled cards") is among the actions legal for them, a modal
double-faced card also as its land face; the engine never passes for them while one is
playable (117.3d), and nobody else is offered it."""

from __future__ import annotations

from spellstack import Action, Decision, Reply
from spellstack.rules import Game, legal_actions, only_pass_possible
from spellstack.testing import Card, Table, resolve_top, run_proc, scripted, take_action, to_priority

TABLE = (Table("alice", "bob")
         .hand("alice", Card("Soulfire Eruption", label="eruption"))
         .battlefield("alice", *["Mountain"] * 9)
         .library("alice", Card("Shatterskull Smashing", label="smashing"), "Island"))


def _resolved() -> Game:
    game = TABLE.at_priority()
    take_action(game, 0, Action("cast", TABLE.obj(game, "eruption").id, targets=(2,)))
    for seat in (0, 1):
        to_priority(game)
        take_action(game, seat, Action("pass"))
    run_proc(resolve_top(game), scripted())
    to_priority(game)
    return game


def test_an_exiled_modal_double_faced_card_may_be_played_as_its_land_face() -> None:
    game = _resolved()
    smashing = TABLE.obj(game, "smashing")
    assert smashing.zone == "exile" and game.state.players[1].life == 18  # its mana value, 2
    plays = [(o.kind, o.face) for o in legal_actions(game, 0) if o.object_id == smashing.id]
    assert plays == [("play", "Shatterskull, the Hammer Pass")]  # no mana left to cast it
    assert not only_pass_possible(game, 0)
    assert all(o.object_id != smashing.id for o in legal_actions(game, 1))

    def no_life(decision: Decision) -> Reply:
        return scripted("no")(decision)  # "you may pay 3 life": no, it enters tapped

    proc = take_action(game, 0, Action("play", smashing.id, face="Shatterskull, the Hammer Pass"))
    if proc is not None:
        run_proc(proc, no_life)
    land = TABLE.obj(game, "smashing")
    assert land.zone == "battlefield" and land.tapped
    assert game.state.players[0].lands_played == 1


def test_the_engine_does_not_pass_for_a_player_who_may_play_an_exiled_land() -> None:
    table = (Table("alice", "bob")
             .hand("alice", Card("Soulfire Eruption", label="eruption"))
             .battlefield("alice", *["Mountain"] * 9)
             .library("alice", Card("Forest", label="forest"), "Island"))
    game = table.at_priority()
    take_action(game, 0, Action("cast", table.obj(game, "eruption").id, targets=(2,)))
    for seat in (0, 1):
        to_priority(game)
        take_action(game, seat, Action("pass"))
    run_proc(resolve_top(game), scripted())
    to_priority(game)
    forest = table.obj(game, "forest")
    assert forest.zone == "exile" and game.state.players[1].life == 20  # mana value 0: no damage
    assert [o.kind for o in legal_actions(game, 0)] == ["pass", "play"]
    assert not only_pass_possible(game, 0)  # 117.3d: playing the land is something she can do
