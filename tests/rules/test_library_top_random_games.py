"""No view shows a card of a library before it is cast unless an effect shows it (400.2): in
random games with Garruk's Horde ("You may look at the top card of your library any time") and
Future Sight ("Play with the top card of your library revealed") in play and in the decks, at
every decision, every seat's view shows exactly the library tops ``visible_to`` lets it see, no
other library card, and no name only a hidden library card has; and the view deltas, encoded and
decoded, rebuild every view exactly."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spellstack.bots import RandomBot
from spellstack.cards import load_cards
from spellstack.protocol import PriorityRequest, ViewMirror, ViewTracker, decode, encode
from spellstack.rules import (
    CardDefinition,
    Decision,
    Game,
    PlayerView,
    Reply,
    ViewMemo,
    play_sync,
    view_for,
)
from spellstack.rules.views import visible_to
from spellstack.scenarios import build_game

CARDS: Mapping[str, CardDefinition] = load_cards()
DECK = (["Forest"] * 8 + ["Island"] * 8 + ["Garruk's Horde"] * 2 + ["Future Sight"] * 2
        + ["Grizzly Bears"] * 3 + ["Elvish Visionary"] * 3 + ["Divination"] * 3
        + ["Unsummon"] * 3 + ["Giant Growth"] * 2 + ["Wall of Tears"] * 2 + ["Counterspell"] * 2)
"""A library of 40: lands, the two effects (castable from the top under Future Sight), cards
that draw (the top changes under the effect) and cheap creatures (cast from the top under the
Horde)."""
EFFECTS = ("Garruk's Horde", "Future Sight")
TURNS = 10
"""Turns each game plays (a few hundred decisions: the whole test stays well under 15 s)."""


def _all_objects(view: PlayerView) -> list[tuple[str, int, str]]:
    """(zone, id, name) of every object view, the library tops included."""
    found = [("library", o.id, o.name) for p in view.players for o in p.library_top]
    found += [("graveyard", o.id, o.name) for p in view.players for o in p.graveyard]
    for zone, objs in (("hand", view.hand), ("battlefield", view.battlefield),
                       ("exile", view.exile)):
        found += [(zone, o.id, o.name) for o in objs]
    return found


def check_view(game: Game, seat: int, view: PlayerView) -> int:
    """Every library card the view shows is the top of its library and ``visible_to`` the seat,
    every such top is shown, and no name only hidden library cards have is in the view; the
    number of library tops shown."""
    state = game.state
    objects = state.objects
    shown = 0
    for p, public in zip(state.players, view.players, strict=True):
        expected = [p.library[0]] if p.library and visible_to(game, seat, objects[p.library[0]]) else []
        assert [o.id for o in public.library_top] == expected, (
            f"seat {seat} sees {public.library_top} of {p.name}'s library, not {expected}")
        assert [o.name for o in public.library_top] == [objects[i].name for i in expected]
        shown += len(expected)
    library = {i for p in state.players for i in p.library}
    for zone, oid, _ in _all_objects(view):
        assert zone == "library" or oid not in library, f"library card #{oid} shown in {zone}"
    # Names: a hidden library card's name that no object the seat may see has (in any zone, a
    # library top it may see included, or as last known information) is nowhere in the view.
    seen = {o.name for o in (*objects.values(), *state.lki.values()) if visible_to(game, seat, o)}
    hidden = {objects[i].name for i in library if not visible_to(game, seat, objects[i])}
    text = repr(view)
    leaked = [name for name in hidden - seen if repr(name) in text]
    assert not leaked, f"seat {seat}'s view names hidden library cards {leaked}"
    return shown


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       effects=st.tuples(st.sets(st.sampled_from(EFFECTS)), st.sets(st.sampled_from(EFFECTS)))
       .filter(lambda pair: bool(pair[0] or pair[1])))
def test_no_view_shows_a_library_card_unless_an_effect_shows_it(
        seed: int, effects: tuple[set[str], set[str]]) -> None:
    shuffle = random.Random(seed)
    setup: dict[str, object] = {"players": ["ann", "ben"]}
    for name, own in zip(("ann", "ben"), effects, strict=True):
        library = list(DECK)
        shuffle.shuffle(library)
        setup[name] = {"battlefield": [*sorted(own), "Forest", "Forest", "Island", "Island"],
                       "hand": library[:5], "library": library[5:]}
    game, _ = build_game(setup, seed, CARDS, "test")
    game.state.turn_limit = game.state.turn + TURNS
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    memos = [ViewMemo(), ViewMemo()]
    trackers = [ViewTracker(), ViewTracker()]
    mirrors = [ViewMirror(), ViewMirror()]
    shown = [0]

    def answer(decision: Decision) -> Reply:
        for seat in (0, 1):
            view = view_for(game, seat, memos[seat])
            assert view == view_for(game, seat)  # the memo is a cache only
            shown[0] += check_view(game, seat, view)
            msg = decode(encode(PriorityRequest(decision, trackers[seat].update(view, memos[seat]))))
            assert isinstance(msg, PriorityRequest)
            assert mirrors[seat].apply(msg.view) == view
        return bots[decision.player].decide(view_for(game, decision.player), decision)

    play_sync(game, answer, max_tasks=20_000)
    # An effect was in play from the start: some view showed a library's top card.
    assert shown[0] > 0
