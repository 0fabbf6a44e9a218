"""What views show of battles, sectors, merged permanents and dungeons (310.8, 704.5u, 725.1,
309), and how traces and the chat show it: the kernel's view with and without a memo, a face-
down permanent's, ``trace show``'s text, the trace page's data and the chat's board."""

from __future__ import annotations

from typing import Any

from spellstack.cards import load_cards
from spellstack.chat import Numbering, render_board
from spellstack.rules import Game, GameObject
from spellstack.rules.views import ObjectMarks, ViewMemo, view_for
from spellstack.scenarios import build_game
from spellstack.trace._page import _view as page_view
from spellstack.trace._show import format_view

CARDS = load_cards()
ALICE, BOB = 0, 1


def marked_game() -> tuple[Game, dict[str, GameObject]]:
    """Alice: Grizzly Bears in sector alpha, Invasion of Gobakhan (bob protects it), Savannah
    Lions with a Gemrazer merged over it, a face-down Exalted Angel in sector gamma, The Eldest
    Reborn with 2 lore counters, in Lost Mine of Phandelver's Goblin Lair; bob has completed that
    dungeon."""
    setup: dict[str, Any] = {
        "players": ["alice", "bob"],
        "alice": {"battlefield": [{"card": "Grizzly Bears", "sector": "alpha"},
                                  {"card": "Invasion of Gobakhan"},
                                  {"card": "Savannah Lions"}, {"card": "Exalted Angel",
                                                               "face_down": True, "sector": "gamma"},
                                  {"card": "The Eldest Reborn", "counters": {"lore": 2}}],
                  "hand": ["Gemrazer"],
                  "dungeon": {"name": "Lost Mine of Phandelver", "room": "Goblin Lair"}},
        "bob": {"completed_dungeons": ["Lost Mine of Phandelver"]},
    }
    game, _ = build_game(setup, 0, CARDS, "test")
    st = game.state
    by = {o.name: o for o in st.objects.values()}
    lions, gem = by["Savannah Lions"], by["Gemrazer"]
    st.players[ALICE].hand.remove(gem.id)  # Gemrazer mutated over the Lions, as the kernel holds it
    del st.objects[gem.id]
    lions.merged = ((gem.card, gem.name, False), (lions.card, lions.name, False))
    lions.card, lions.name = gem.card, gem.name
    game.changed()
    return game, by


def test_each_permanent_shows_its_marks_and_each_player_their_dungeon() -> None:
    game, _ = marked_game()
    for seat in (ALICE, BOB):
        view = view_for(game, seat)
        marks = {o.name: o.marks for o in view.battlefield}
        assert marks["Grizzly Bears"] == ObjectMarks(sector="alpha")
        assert marks["Invasion of Gobakhan"] == ObjectMarks(protector=BOB)
        assert marks["Gemrazer"] == ObjectMarks(merged=("Gemrazer", "Savannah Lions"))
        assert marks["The Eldest Reborn"] == ObjectMarks(goals=(("final chapter", 3),))  # 714.2c
        alice, bob = view.players
        assert (alice.dungeon, alice.room, alice.completed_dungeons) == (
            "Lost Mine of Phandelver", "Goblin Lair", ())
        assert (bob.dungeon, bob.room, bob.completed_dungeons) == ("", "", ("Lost Mine of Phandelver",))
    # 708.2: the face-down Angel shows its sector to bob, but nothing it is made of.
    assert {o.name: o.marks for o in view_for(game, ALICE).battlefield}["Exalted Angel"] == ObjectMarks(sector="gamma")
    hidden = [o for o in view_for(game, BOB).battlefield if not o.name]
    assert len(hidden) == 1 and hidden[0].marks == ObjectMarks(sector="gamma")


def test_a_view_built_with_a_memo_sees_a_mark_change() -> None:
    game, by = marked_game()
    memo = ViewMemo()
    view_for(game, ALICE, memo)
    battle = by["Invasion of Gobakhan"]
    battle.protector = ALICE  # what 704.5x then corrects; the view shows it as it is
    bears = by["Grizzly Bears"]
    bears.sector = "beta"
    game.changed()
    again = view_for(game, ALICE, memo)
    assert again == view_for(game, ALICE)
    assert {o.id for o in memo.changed} == {battle.id, bears.id}
    assert {o.name: o.marks for o in again.battlefield}["Invasion of Gobakhan"] == ObjectMarks(protector=ALICE)


def test_trace_show_the_page_and_the_chat_name_the_marks() -> None:
    game, _ = marked_game()
    view = view_for(game, BOB)
    text = "\n".join(format_view(view))
    assert "Invasion of Gobakhan (alice), 3 defense, protected by bob" in text
    assert "Gemrazer 4/4 (alice), merged: Gemrazer over Savannah Lions" in text
    assert "Grizzly Bears 2/2 (alice), sector alpha" in text
    assert "(face down) 2/2 (alice), sector gamma" in text
    assert "The Eldest Reborn (alice), 2 lore, final chapter 3" in text
    assert "dungeon: in Lost Mine of Phandelver, room Goblin Lair" in text
    assert "dungeon: completed Lost Mine of Phandelver" in text
    page = page_view(view)
    assert sorted(o[11] for o in page["battlefield"]) == [
        ["final chapter 3"], ["merged: Gemrazer over Savannah Lions"], ["protected by bob"],
        ["sector alpha"], ["sector gamma"]]
    assert [p["dungeon"] for p in page["players"]] == [
        "in Lost Mine of Phandelver, room Goblin Lair", "completed Lost Mine of Phandelver"]
    board = render_board(view, Numbering())
    assert "Invasion of Gobakhan defensex3 (protected by bob)" in board
    assert "(merged: Gemrazer over Savannah Lions)" in board and "(sector alpha)" in board
    assert "The Eldest Reborn lorex2 (final chapter 3)" in board
    assert "in Lost Mine of Phandelver, room Goblin Lair" in board
