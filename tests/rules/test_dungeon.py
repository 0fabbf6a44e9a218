"""Venturing into the dungeon (701.49) where no scenario step can reach: from the bottommost room,
while its room ability is still waiting (704.5t has not removed the dungeon yet)."""

from __future__ import annotations

from spellstack.rules import default_answer, run_proc
from spellstack.rules.mechanics.dungeon import dungeon_of, venture
from tests.registries.registry_samples import table

MINE = "Lost Mine of Phandelver"


def test_venturing_from_the_bottommost_room_completes_the_dungeon_and_begins_a_new_one() -> None:
    game, _ = table({"players": ["alice", "bob"],
                     "alice": {"dungeon": {"name": MINE, "room": "Dark Pool"}}})
    st = game.state
    run_proc(venture(game, 0), default_answer)  # Dark Pool's one exit: Temple of Dumathoin
    old = dungeon_of(game, 0)
    assert old is not None and st.players[0].room == "Temple of Dumathoin"
    assert [t.source_id for t in st.pending_triggers] == [old.id]  # the Temple's room ability
    run_proc(venture(game, 0), default_answer)  # again, before that ability left the stack
    new = dungeon_of(game, 0)
    assert new is not None and new.id != old.id and new.zone == "command"
    assert st.players[0].completed_dungeons == [MINE]
    assert st.players[0].room == "Cave Entrance"
    assert old.id not in st.objects and st.lki[old.id].name == MINE  # its ability still finds it
    assert [(t.source_id, t.position) for t in st.pending_triggers] == [(old.id, 7), (new.id, 1)]

