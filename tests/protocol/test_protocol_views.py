"""View deltas: over any sequence of views, what the client rebuilds from the encoded deltas is
exactly each view, and a delta shows nothing the views themselves don't."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spellstack.protocol import (
    DecisionRequest,
    PlayerChange,
    PriorityRequest,
    ViewDelta,
    ViewMirror,
    ViewTracker,
    decode,
    encode,
)
from spellstack.rules import Decision, InvalidMessageError
from spellstack.rules.views import ObjectMarks, ObjectView, PlayerPublic, PlayerView, StackItemView

DECISION = Decision(3, 0, "priority", "You have priority.")
NAMES = ("Forest", "Grizzly Bears", "Shock", "")
MARKS = (None, ObjectMarks(protector=1), ObjectMarks(sector="beta"),
         ObjectMarks(merged=("Gemrazer", "Grizzly Bears")), ObjectMarks(goals=(("final chapter", 3),)),
         ObjectMarks(0, "alpha", ("Gemrazer", "Clone"), (("final chapter", 2),)))
"""An object's marks: none (nearly always), a battle's protector, a sector, a merged permanent,
a Saga's final chapter."""
DUNGEONS = (("", "", ()), ("Lost Mine of Phandelver", "Cave Entrance", ()),
            ("Lost Mine of Phandelver", "Dark Pool", ("Lost Mine of Phandelver",)),
            ("", "", ("Lost Mine of Phandelver",)))
"""A player's dungeon, room and completed dungeons."""


@st.composite
def object_views(draw: st.DrawFn, oid: int) -> ObjectView:
    return ObjectView(oid, draw(st.sampled_from(NAMES)), draw(st.integers(0, 1)),
                      draw(st.integers(0, 1)), draw(st.sampled_from(((), ("Land",), ("Creature",)))),
                      draw(st.booleans()), draw(st.integers(0, 3)), draw(st.integers(0, 4)),
                      draw(st.integers(0, 4)), draw(st.sampled_from(((), (("+1/+1", 2),)))),
                      draw(st.sampled_from((0, 101))), draw(st.booleans()), draw(st.booleans()),
                      draw(st.booleans()), draw(st.sampled_from(MARKS)))


@st.composite
def views(draw: st.DrawFn, seat: int = 0) -> PlayerView:
    """A view over ids 100..129, each shown in at most one zone (a library's top card: one)."""
    ids = draw(st.lists(st.integers(100, 129), unique=True, max_size=14))
    # Two graveyards, hand, battlefield, exile, two library tops.
    zones: list[list[ObjectView]] = [[], [], [], [], [], [], []]
    for oid in ids:
        zone = draw(st.integers(0, 6))
        zones[zone if zone < 5 or not zones[zone] else 4].append(draw(object_views(oid)))
    players = tuple(
        PlayerPublic(s, f"p{s}", draw(st.integers(0, 20)), 0, draw(st.integers(0, 7)),
                     draw(st.integers(0, 40)), tuple(zones[s]),
                     draw(st.sampled_from(((), (("G", 1),)))), draw(st.booleans()),
                     tuple(zones[5 + s]), *draw(st.sampled_from(DUNGEONS)))
        for s in range(2))
    stack = tuple(StackItemView(i, "Shock", 0, False, (101,))
                  for i in draw(st.lists(st.integers(200, 203), unique=True, max_size=2)))
    return PlayerView(seat, draw(st.integers(1, 9)), draw(st.sampled_from(("upkeep", "end"))),
                      draw(st.integers(0, 1)), draw(st.integers(-1, 1)), players,
                      tuple(zones[2]), tuple(zones[3]), stack, tuple(zones[4]))


def _ids(view: PlayerView) -> set[int]:
    return {o.id for o in _objects(view)}


def _wire(delta: ViewDelta) -> ViewDelta:
    """The delta as the client receives it: encoded in a request and decoded."""
    msg = decode(encode(PriorityRequest(DECISION, delta)))
    assert isinstance(msg, PriorityRequest)
    return msg.view


@settings(max_examples=150, deadline=None)
@given(st.lists(views(), min_size=1, max_size=6))
@pytest.mark.slow
def test_the_client_rebuilds_every_view_exactly(sequence: list[PlayerView]) -> None:
    tracker, mirror = ViewTracker(), ViewMirror()
    previous: PlayerView | None = None
    for number, view in enumerate(sequence, start=1):
        delta = tracker.update(view)
        assert delta.number == number and delta.full == (previous is None)
        # Nothing but what the new view shows, or ids the previous one showed and this one doesn't.
        assert {o.id for o in delta.objects} <= _ids(view)
        assert all(o in set(_objects(view)) for o in delta.objects)
        if previous is not None:
            assert set(delta.removed) == _ids(previous) - _ids(view)
            assert not set(delta.removed) & _ids(view)
        assert mirror.apply(_wire(delta)) == view
        previous = view
    # A resync: the full view of the last one, which a fresh client can apply.
    full = tracker.full()
    assert full.full and full.number == len(sequence) + 1
    assert ViewMirror().apply(_wire(full)) == sequence[-1]
    assert mirror.apply(full) == sequence[-1]


def _objects(view: PlayerView) -> list[ObjectView]:
    return [o for zone in (*(p.graveyard for p in view.players), *(p.library_top for p in view.players),
                           view.hand, view.battlefield, view.exile) for o in zone]


@settings(max_examples=60, deadline=None)
@given(views())
def test_an_unchanged_view_is_an_empty_delta(first: PlayerView) -> None:
    tracker = ViewTracker()
    tracker.update(first)
    delta = tracker.update(first)
    assert (delta.objects, delta.removed, delta.players) == ((), (), ())
    assert (delta.hand, delta.battlefield, delta.exile, delta.stack) == (None, None, None, None)
    if _ids(first):
        assert len(encode(DecisionRequest(DECISION, delta))) < len(
            encode(DecisionRequest(DECISION, tracker.full())))


def _two_views() -> tuple[PlayerView, PlayerView]:
    bear = ObjectView(101, "Grizzly Bears", 0, 0, ("Creature",), power=2, toughness=2)
    forest = ObjectView(102, "Forest", 0, 0, ("Land",))
    players = tuple(PlayerPublic(s, f"p{s}", 20, 0, 7, 40, (), (), False) for s in range(2))
    first = PlayerView(0, 1, "upkeep", 0, 0, players, (bear,), (forest,), (), ())
    tapped = replace(forest, tapped=True)
    second = replace(first, step="draw", hand=(), battlefield=(tapped, bear))
    return first, second


def test_a_delta_for_another_base_is_refused_and_changes_nothing() -> None:
    first, second = _two_views()
    tracker, mirror = ViewTracker(), ViewMirror()
    mirror.apply(tracker.update(first))
    delta = tracker.update(second)
    assert delta.base == 1 and delta.battlefield == (102, 101) and delta.hand == ()
    assert [o.id for o in delta.objects] == [102]  # the bear moved, unchanged: only its id
    stale = replace(delta, base=7)
    with pytest.raises(InvalidMessageError, match="changes view 7, but view 1 is held"):
        mirror.apply(stale)
    assert mirror.view == first and mirror.number == 1
    assert mirror.apply(delta) == second


def test_a_delta_naming_an_unknown_id_is_refused_and_changes_nothing() -> None:
    first, second = _two_views()
    tracker, mirror = ViewTracker(), ViewMirror()
    mirror.apply(tracker.update(first))
    delta = tracker.update(second)
    for bad, match in ((replace(delta, battlefield=(102, 101, 555)), "shows #555"),
                       (replace(delta, removed=(555,)), "removes #555"),
                       (replace(delta, players=(PlayerChange(5, "x", 1, 0, 0, 0, (), (), False),)),
                        "no player in seat 5"),
                       # A library's top card the seat was never given a view of.
                       (replace(delta, players=(PlayerChange(0, "p0", 20, 0, 7, 40, (), (), False,
                                                             (556,)),)), "shows #556")):
        with pytest.raises(InvalidMessageError, match=match):
            mirror.apply(bad)
        assert mirror.view == first and mirror.number == 1
    assert not ViewMirror().fits(delta)
    with pytest.raises(InvalidMessageError, match="full view gives every zone"):
        ViewMirror().apply(replace(tracker.full(), stack=None))


def test_decoded_views_share_their_names_and_types() -> None:
    # Each decoded message brings its own strings; the mirror keeps one copy of each.
    view = PlayerView(0, 1, "precombat_main", 0, 0, (), (ObjectView(5, "Grizzly Bears", 0, 0, ("Creature",)),),
                      (), (), ())
    tracker = ViewTracker()
    first = decode(encode(PriorityRequest(DECISION, tracker.update(view))))
    second = decode(encode(PriorityRequest(DECISION, tracker.full())))
    assert isinstance(first, PriorityRequest) and isinstance(second, PriorityRequest)
    a, b = ViewMirror().apply(first.view), ViewMirror().apply(second.view)
    assert a == b == view
    assert first.view.objects[0].name is not second.view.objects[0].name
    assert a.hand[0].name is b.hand[0].name and a.hand[0].types is b.hand[0].types
