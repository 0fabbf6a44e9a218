"""400.2 as effects change it, in the views: a player's view shows the top card of a library
when an effect lets that player see it (its owner under Garruk's Horde, "You may look at the
top card of your library any time"; everyone under Future Sight, "Play with the top card of your
library revealed"), never a card below it, and a card cast from the top is on the stack in every
view (601.2a) while the card now on top shows as the first did."""

from __future__ import annotations

from spellstack.cards import load_cards
from spellstack.protocol import ViewMirror, ViewTracker
from spellstack.rules import (
    Action,
    Game,
    PlayerView,
    ViewMemo,
    take_action,
    view_changes,
    view_for,
)
from tests.rules.scenario_games import at_first_priority

CARDS = load_cards()
ALICE, BOB = 0, 1


def game_with(alice: dict[str, list[str]]) -> Game:
    return at_first_priority({"players": ["alice", "bob"], "alice": alice,
                              "bob": {"library": ["Forest", "Forest"]}}, CARDS)


def tops(view: PlayerView) -> list[list[str]]:
    """The library top each player's record shows, by name."""
    return [[o.name for o in p.library_top] for p in view.players]


def test_without_an_effect_no_view_shows_a_library_card() -> None:
    game = game_with({"battlefield": ["Mountain"], "library": ["Lightning Bolt", "Forest"]})
    for seat in (ALICE, BOB):
        assert tops(view_for(game, seat)) == [[], []]


def test_garruks_horde_shows_the_top_card_in_its_owners_view_only() -> None:
    game = game_with({"battlefield": ["Garruk's Horde"], "library": ["Grizzly Bears", "Forest"]})
    top = game.state.players[ALICE].library[0]
    alice, bob = view_for(game, ALICE), view_for(game, BOB)
    assert tops(alice) == [["Grizzly Bears"], []]
    (shown,) = alice.players[ALICE].library_top
    assert (shown.id, shown.owner, shown.controller, shown.types) == (top, ALICE, ALICE, ("Creature",))
    assert tops(bob) == [[], []]
    # The card below the top is in no view, and the library is still counted in full.
    below = game.state.players[ALICE].library[1]
    assert below not in alice.objects_by_id() and top not in bob.objects_by_id()
    assert alice.players[ALICE].library_count == bob.players[ALICE].library_count == 2


def test_future_sight_shows_the_top_card_in_every_view() -> None:
    game = game_with({"battlefield": ["Future Sight"], "library": ["Lightning Bolt", "Forest"]})
    top, below = game.state.players[ALICE].library
    for seat in (ALICE, BOB):
        view = view_for(game, seat)
        assert tops(view) == [["Lightning Bolt"], []]
        assert top in view.objects_by_id() and below not in view.objects_by_id()


def test_after_the_top_card_is_cast_the_new_top_shows_and_the_spell_is_on_the_stack() -> None:
    game = game_with({"battlefield": ["Garruk's Horde", "Forest", "Forest"],
                      "library": ["Grizzly Bears", "Lightning Bolt", "Forest"]})
    memos = {ALICE: ViewMemo(), BOB: ViewMemo()}
    trackers = {ALICE: ViewTracker(), BOB: ViewTracker()}
    mirrors = {ALICE: ViewMirror(), BOB: ViewMirror()}
    before = {s: view_for(game, s, memos[s]) for s in (ALICE, BOB)}
    for s in (ALICE, BOB):
        mirrors[s].apply(trackers[s].update(before[s], memos[s]))
    bears = game.state.players[ALICE].library[0]
    take_action(game, ALICE, Action("cast", bears))
    spell = game.state.stack[-1]
    new_top = game.state.players[ALICE].library[0]
    after = {s: view_for(game, s, memos[s]) for s in (ALICE, BOB)}
    assert tops(after[ALICE]) == [["Lightning Bolt"], []]
    assert tops(after[BOB]) == [[], []]
    for s in (ALICE, BOB):
        assert [(i.id, i.name) for i in after[s].stack] == [(spell, "Grizzly Bears")]
        # Built with the memo or without, the same view; the memo's record of what changed is
        # view_changes', and the delta rebuilds the view exactly.
        assert after[s] == view_for(game, s)
        assert (memos[s].changed, memos[s].removed) == view_changes(before[s], after[s])
        assert mirrors[s].apply(trackers[s].update(after[s], memos[s])) == after[s]
    # Alice's view gains the new top (before the Forests tapped to pay: zone order) and drops the
    # card that left the library; Bob's never showed either.
    forests = [o.id for o in after[ALICE].battlefield if o.name == "Forest"]
    assert [o.id for o in memos[ALICE].changed] == [new_top, *forests]
    assert memos[ALICE].removed == (bears,)
    assert [o.id for o in memos[BOB].changed] == forests and memos[BOB].removed == ()
    # The Bolt is not castable from the top (only creature spells are), but Alice still sees it.
    assert game.state.objects[new_top].name == "Lightning Bolt"


def test_an_unchanged_top_card_keeps_its_view_and_the_player_record() -> None:
    game = game_with({"battlefield": ["Future Sight"], "library": ["Lightning Bolt", "Forest"]})
    memo = ViewMemo()
    first = view_for(game, BOB, memo)
    again = view_for(game, BOB, memo)
    assert again.players[ALICE] is first.players[ALICE]
    assert (memo.changed, memo.removed) == ((), ())
