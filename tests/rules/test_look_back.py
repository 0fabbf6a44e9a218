"""603.10a: leaves-the-battlefield abilities look back in time: the abilities of permanents that
leave the battlefield in the same event as a dying creature trigger on it too, whichever of them
the engine happens to move first (704.3's state-based actions, one "destroy all" instruction)."""

from __future__ import annotations

from typing import Any

import pytest

from spellstack.cards import load_cards
from spellstack.rules import (
    Game,
    default_answer,
    move_object,
    play_sync,
    priority_decision,
    run_proc,
    simultaneous_moves,
    state_based_actions,
)
from spellstack.scenarios import build_game

CARDS = load_cards()


def game_with(alice: list[Any], bob: list[Any]) -> Game:
    game, _ = build_game({"players": ["alice", "bob"], "alice": {"battlefield": alice},
                          "bob": {"battlefield": bob}}, 0, CARDS, "test")
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    priority_decision(game)
    return game


def ids(game: Game, name: str) -> list[int]:
    return [i for i in game.state.battlefield if game.state.objects[i].name == name]


def artist_triggers(game: Game) -> list[int]:
    """The subjects of the Blood Artist triggers waiting to be put on the stack."""
    return [t.subject for t in game.state.pending_triggers if t.source_name == "Blood Artist"]


@pytest.mark.parametrize("artist_first", [True, False])
def test_blood_artist_dying_in_one_sba_batch_sees_every_creature_dying_with_it(
        artist_first: bool) -> None:
    bears = [{"card": "Grizzly Bears"}] * 2
    alice = ["Blood Artist", *bears] if artist_first else [*bears, "Blood Artist"]
    game = game_with(alice, [])
    for oid in list(game.state.battlefield):
        game.state.objects[oid].damage = 2  # lethal to all three: 704.5g, one batch (704.3)
    game.changed()
    run_proc(state_based_actions(game), default_answer)
    st = game.state
    assert st.battlefield == []
    subjects = artist_triggers(game)
    assert len(subjects) == 3
    # Each subject is the card in the graveyard (400.7), one per creature that died.
    assert sorted(st.objects[s].name for s in subjects) == ["Blood Artist", "Grizzly Bears",
                                                            "Grizzly Bears"]
    assert st.leaving_together is None  # the event is over


def test_moves_in_one_event_look_back_on_the_permanents_gone_before_them() -> None:
    game = game_with(["Blood Artist"], ["Grizzly Bears", "Grizzly Bears"])
    artist, *bears = ids(game, "Blood Artist") + ids(game, "Grizzly Bears")
    with simultaneous_moves(game):
        for oid in [artist, *bears]:
            move_object(game, oid, "graveyard")
    assert len(artist_triggers(game)) == 3


def test_separate_events_do_not_look_back_on_an_earlier_one() -> None:
    # The Artist died first, on its own: the Bears dying afterwards is another event.
    game = game_with(["Blood Artist"], ["Grizzly Bears"])
    artist, bear = ids(game, "Blood Artist") + ids(game, "Grizzly Bears")
    move_object(game, artist, "graveyard")
    move_object(game, bear, "graveyard")
    assert len(artist_triggers(game)) == 1
