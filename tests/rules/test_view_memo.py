"""The seat's view memo, what it tells the delta, the views' fast constructors, and the
definition caches games share (issue 7: memory per game, views' cost)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import pytest

from spellstack.cards import load_cards
from spellstack.harness import KernelDriver, bench_bots, new_bench_game
from spellstack.protocol import ViewDelta, ViewTracker
from spellstack.rules import (
    CardDefinition,
    Game,
    GameRandom,
    GameState,
    PlayerState,
    PlayerView,
    ViewMemo,
    view_changes,
    view_for,
)
from spellstack.rules.base import builder
from spellstack.rules.views import ObjectMarks, ObjectView, PlayerPublic
from spellstack.rules.zones import create_object

CARDS: Mapping[str, CardDefinition] = load_cards()


def _table() -> Game:
    state = GameState(players=[PlayerState(1, "Ann"), PlayerState(2, "Ben")],
                      rng=GameRandom.from_seed(5), turn=3, step="precombat_main")
    game = Game(state, CARDS)
    for name in ("Lightning Bolt", "Grizzly Bears"):
        create_object(game, name, 0, "hand")
    for name in ("Mountain", "Hill Giant"):
        create_object(game, name, 0, "battlefield")
    create_object(game, "Serra Angel", 1, "battlefield")
    create_object(game, "Shock", 1, "graveyard")
    return game


def test_the_memo_keeps_only_the_last_view_and_reuses_its_unchanged_objects() -> None:
    game = _table()
    memo = ViewMemo()
    first = view_for(game, 0, memo)
    assert memo.view is first
    again = view_for(game, 0, memo)
    assert memo.view is again
    assert again == first == view_for(game, 0)
    hill = next(i for i in game.state.battlefield if game.state.objects[i].name == "Hill Giant")
    game.state.objects[hill].tapped = True
    game.state.objects[hill].damage = 2
    tapped = view_for(game, 0, memo)
    assert tapped == view_for(game, 0)
    old = {o.id: o for o in (*first.hand, *first.battlefield)}
    for o in (*tapped.hand, *tapped.battlefield):
        if o.id == hill:
            assert o.tapped and o.damage == 2 and o is not old[o.id]
        else:
            assert o is old[o.id]


def test_a_kept_view_is_not_reused_when_any_field_would_differ() -> None:
    game = _table()
    memo = ViewMemo()
    view_for(game, 0, memo)
    angel = next(i for i in game.state.battlefield if game.state.objects[i].name == "Serra Angel")
    obj = game.state.objects[angel]
    for change in ("sick", "counters", "attached_to"):
        if change == "sick":
            obj.sick = not obj.sick
        elif change == "counters":
            obj.counters = {**obj.counters, "+1/+1": obj.counters.get("+1/+1", 0) + 1}
            game.changed()
        else:
            obj.attached_to = 1
        assert view_for(game, 0, memo) == view_for(game, 0)


def test_games_with_the_same_definitions_share_the_printed_values_cache() -> None:
    one = Game(GameState(players=[PlayerState(1, "Ann")], rng=GameRandom.from_seed(1)), CARDS)
    two = Game(GameState(players=[PlayerState(1, "Ann")], rng=GameRandom.from_seed(2)), CARDS)
    assert one.caches.templates is two.caches.templates
    assert one.caches.value_readers is two.caches.value_readers
    other = dict(CARDS)
    three = Game(GameState(players=[PlayerState(1, "Ann")], rng=GameRandom.from_seed(3)), other)
    assert three.caches.templates is not one.caches.templates


class _Checking(KernelDriver):
    """The bench's driver, checking each view and delta against those built without a memo."""

    def __init__(self, seed: int) -> None:
        super().__init__(new_bench_game(seed), bench_bots(seed))
        self.plain = [ViewTracker() for _ in self.bots]
        self.from_memo = 0

    def build_view(self, seat: int) -> PlayerView:
        view = super().build_view(seat)
        memo, delta = self._memos[seat], self.last_delta
        assert view == view_for(self.game, seat)
        assert delta == self.plain[seat].update(view_for(self.game, seat))
        assert delta is not None
        if delta.number > 1 and delta.objects is memo.changed and delta.removed is memo.removed:
            self.from_memo += 1  # the tracker took the memo's word for what changed
        return view


def test_views_and_deltas_built_with_a_memo_are_those_built_without() -> None:
    for seed in range(3):
        driver = _Checking(seed)
        driver.run()
        assert driver.from_memo == driver.views - len(driver.bots)


def _assert_recorded(memo: ViewMemo, before: PlayerView | None) -> None:
    """The memo's record of what changed is ``view_changes`` of the view before and its view."""
    assert memo.view is not None
    if before is None:
        return
    objects, removed = view_changes(before, memo.view)
    assert memo.changed == objects and memo.removed == removed
    assert all(a is b for a, b in zip(memo.changed, objects, strict=True))


class _Recording(KernelDriver):
    """The bench's driver, checking the memo's record at each view against ``view_changes``."""

    def __init__(self, seed: int) -> None:
        super().__init__(new_bench_game(seed), bench_bots(seed))
        self.changed = self.removed = 0

    def build_view(self, seat: int) -> PlayerView:
        memo = self._memos[seat]
        before = memo.view
        view = super().build_view(seat)
        _assert_recorded(memo, before)
        self.changed += len(memo.changed)
        self.removed += len(memo.removed)
        return view


def test_the_memo_records_what_view_changes_finds() -> None:
    for seed in range(3):
        driver = _Recording(seed)
        driver.run()
        assert driver.changed and driver.removed  # both parts met, not only empty records


def test_view_changes_lists_new_and_changed_views_in_zone_order_and_removed_ids() -> None:
    game = _table()
    st = game.state
    first = view_for(game, 0)
    assert view_changes(first, first) == ((), ())
    assert view_changes(first, view_for(game, 0)) == ((), ())  # equal views, not the same objects
    bolt = next(i for i in st.players[0].hand if st.objects[i].name == "Lightning Bolt")
    hill = next(i for i in st.battlefield if st.objects[i].name == "Hill Giant")
    st.players[0].hand.remove(bolt)
    st.players[0].graveyard.append(bolt)
    st.objects[bolt].zone = "graveyard"
    st.objects[hill].tapped = True
    new = create_object(game, "Grizzly Bears", 1, "exile")
    shock = st.players[1].graveyard.pop()
    game.changed()
    view = view_for(game, 0)
    objects, removed = view_changes(first, view)
    # In zone order; a card moved with the same view is no change of its view (the zones are
    # told apart, by ids).
    assert [o.id for o in objects] == [hill, new.id]
    assert removed == (shock,)
    back, gone = view_changes(view, first)
    assert [o.id for o in back] == [shock, hill] and gone == (new.id,)  # graveyards first


def _delta_pair(game: Game, seat: int, memo: ViewMemo, tracker: ViewTracker,
                plain: ViewTracker) -> ViewDelta:
    before = memo.view
    view = view_for(game, seat, memo)
    _assert_recorded(memo, before)
    assert view == view_for(game, seat)
    delta = tracker.update(view, memo)
    assert delta == plain.update(view_for(game, seat))
    return delta


def test_face_down_and_misplaced_objects_are_memoised_exactly() -> None:
    game = _table()
    st = game.state
    angel = next(i for i in st.battlefield if st.objects[i].name == "Serra Angel")
    shock = st.players[1].graveyard[0]
    seats = [(ViewMemo(), ViewTracker(), ViewTracker()) for _ in range(2)]
    shown: list[list[ObjectView]] = [[], []]
    for step in range(6):
        obj = st.objects[angel]
        if step == 1:
            obj.face_down = True  # 708.2: a nameless 2/2 to seat 0, Serra Angel to seat 1
        elif step == 2:
            obj.tapped = True
        elif step == 3:
            st.objects[shock].zone = "exile"  # listed in a graveyard, but elsewhere: asked
        elif step == 4:
            st.objects[shock].face_down = True  # 406.3: seen by nobody
        elif step == 5:
            obj.face_down = False
        game.changed()
        for seat, (memo, tracker, plain) in enumerate(seats):
            _delta_pair(game, seat, memo, tracker, plain)
            assert memo.view is not None
            shown[seat].append(next(o for o in memo.view.battlefield if o.id == angel))
    assert shown[0][1].name == "" and shown[1][1].name == "Serra Angel"
    assert shown[0][2] is not shown[0][1] and shown[0][2].tapped
    assert shown[0][3] is shown[0][2] and shown[1][3] is shown[1][2]  # unchanged: the same view
    assert shown[0][5].name == "Serra Angel"


def test_a_view_the_tracker_never_sent_is_not_taken_for_its_base() -> None:
    game = _table()
    st = game.state
    hill, mountain = (next(i for i in st.battlefield if st.objects[i].name == name)
                      for name in ("Hill Giant", "Mountain"))
    memo, tracker, plain = ViewMemo(), ViewTracker(), ViewTracker()
    _delta_pair(game, 0, memo, tracker, plain)
    st.objects[hill].tapped = True
    view_for(game, 0, memo)  # built, never sent: the memo's changes are against it
    st.objects[hill].tapped = False
    st.objects[mountain].tapped = True
    delta = _delta_pair(game, 0, memo, tracker, plain)
    assert [o.id for o in delta.objects] == [mountain]
    # Nor is another memo's view, even one as many views along.
    other = ViewMemo()
    st.objects[hill].tapped = True
    for _ in range(memo.number):
        view_for(game, 0, other)
    st.objects[hill].tapped = False
    st.objects[mountain].tapped = False
    delta = tracker.update(view_for(game, 0, other), other)
    assert delta == plain.update(view_for(game, 0))
    assert [o.id for o in delta.objects] == [mountain]


def test_the_fast_constructors_build_what_the_dataclass_builds() -> None:
    fields = (7, "Grizzly Bears", 0, 1, ("Creature",), True, 1, 2, 2, (("+1/+1", 1),), 0, True,
              False, True, None)
    made = builder(ObjectView)(*fields)
    assert type(made) is ObjectView
    assert made == ObjectView(*fields) and hash(made) == hash(ObjectView(*fields))
    assert dataclasses.astuple(made) == fields
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.tapped = False  # type: ignore[misc]
    public = builder(PlayerPublic)(0, "Ann", 20, 0, 7, 33, (made,), (), False, (), "", "", ())
    assert public == PlayerPublic(0, "Ann", 20, 0, 7, 33, (made,), (), False)
    marks = builder(ObjectMarks)(1, "alpha", ("Gemrazer", "Grizzly Bears"), ())
    assert type(marks) is ObjectMarks and marks == ObjectMarks(1, "alpha", ("Gemrazer", "Grizzly Bears"))

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("negative")

    # A class whose __init__ does more than assign is built by that __init__.
    assert builder(Checked) is Checked
