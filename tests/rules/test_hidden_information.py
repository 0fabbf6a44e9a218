"""A player's view, the errors they receive and the events of a game never show what they may
not see (400.2, 406.3, 708): not by name, not by id, not by the wording of a refusal, and not
through the numbering of a library."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

import pytest

from spellstack.cards import load_cards
from spellstack.protocol import PriorityRequest, ViewMirror, ViewTracker, decode, encode
from spellstack.rules import (
    OPENING_HAND,
    PUBLIC_SEAT,
    Action,
    CardDefinition,
    Decision,
    Event,
    Game,
    GameRandom,
    GameState,
    IllegalActionError,
    PlayerState,
    StartSettings,
    after_sba,
    create_object,
    draw_cards,
    move_object,
    next_task,
    player_ref,
    priority_decision,
    ref_visible_to,
    resolve_top,
    run_proc,
    state_based_actions,
    take_action,
    view_for,
    visible_name,
    visible_to,
)
from spellstack.rules.views import ask_choose
from spellstack.testing import deck_game, no_questions

CARDS: Mapping[str, CardDefinition] = load_cards()
ANN, BEN = 0, 1


def _to_priority(game: Game) -> Decision:
    """117.5: the state-based action check first, then priority."""
    while next_task(game) == "check_sba":
        events = run_proc(state_based_actions(game), no_questions)
        assert isinstance(events, tuple)
        after_sba(game, len(events))
    assert next_task(game) == "priority"
    return priority_decision(game)


def _mask(text: str) -> str:
    return re.sub(r"#-?\d+", "#N", text)


def test_view_shows_own_hand_and_only_counts_of_hidden_zones() -> None:
    game = deck_game("gruul", "orzhov", seed=7)
    st = game.state
    bob_view = view_for(game, 1)
    alice_hand_ids = set(st.players[0].hand)
    library_ids = set(st.players[0].library) | set(st.players[1].library)
    assert bob_view.hand and {o.id for o in bob_view.hand} == set(st.players[1].hand)
    assert bob_view.players[0].hand_count == 7
    assert bob_view.players[0].library_count == len(st.players[0].library)
    # Serialise the whole request bob would receive and look for any hidden id or name.
    data = encode(PriorityRequest(priority_decision(game), ViewTracker().update(bob_view)))
    wire = decode(data)
    assert isinstance(wire, PriorityRequest)
    seen = ViewMirror().apply(wire.view)
    assert seen == bob_view
    seen_ids = {o.id for o in seen.battlefield} | {o.id for o in seen.hand}
    assert not seen_ids & (alice_hand_ids | library_ids)
    hidden_only = {st.objects[i].name for i in alice_hand_ids} - {
        st.objects[i].name for i in st.players[1].hand}
    text = repr(wire)
    for name in hidden_only:
        assert name not in text


# --------------------------------------------------------------------------- refusals


class Table:
    """Ann (seat 0) holds priority in her main phase with Lightning Bolt and a Mountain; every
    other card on the table is hidden from her or was when it last existed."""

    def __init__(self) -> None:
        state = GameState(players=[PlayerState(ANN, "Ann"), PlayerState(BEN, "Ben")],
                          rng=GameRandom.from_seed(5), turn=3, step="precombat_main")
        self.game = game = Game(state, CARDS)
        self.bolt = create_object(game, "Lightning Bolt", ANN, "hand").id
        self.mountain = create_object(game, "Mountain", ANN, "battlefield").id
        for name in ("Divination", "Counterspell"):  # Ann's own library is hidden from her too
            create_object(game, name, ANN, "library")
        for name in ("Savannah Lions", "Typhoid Rats", "Hill Giant", "Giant Spider",
                     "Air Elemental"):
            create_object(game, name, BEN, "library")
        for name in ("Serra Angel", "Doom Blade", "Grizzly Bears"):
            create_object(game, name, BEN, "hand")
        face_down = create_object(game, "Felidar Sovereign", BEN, "exile")
        face_down.face_down = True
        self.face_down = face_down.id
        # Ben draws twice: the cards' library ids are gone (no last known information).
        self.drawn_from = list(state.players[BEN].library[:2])
        draw_cards(game, BEN, 2)
        # Ben's Grizzly Bears goes from his hand to the battlefield: visible now, but its hand
        # id was hidden from Ann when it last existed.
        bears = next(i for i in state.players[BEN].hand if state.objects[i].name == "Grizzly Bears")
        self.bears_in_hand = bears
        self.bears = move_object(game, bears, "battlefield").id
        self.never = state.next_id + 17
        game.take_events()
        self.priority = _to_priority(game)

    def hidden_ids(self) -> list[int]:
        st = self.game.state
        return [*st.players[BEN].hand, *st.players[BEN].library, *st.players[ANN].library,
                *self.drawn_from, self.bears_in_hand, self.face_down]

    def hidden_names(self) -> set[str]:
        st = self.game.state
        names = {st.objects[i].name for i in st.objects
                 if not visible_to(self.game, ANN, st.objects[i])}
        names |= {o.name for o in st.lki.values() if not visible_to(self.game, ANN, o)}
        return names - {"Grizzly Bears"}  # on the battlefield: its name is no secret

    def probes(self, ref: int) -> list[Action]:
        """Every way an action names an id: as a target, as the card, as the permanent, as a
        mana source."""
        return [
            Action("cast", self.bolt, targets=(ref,)),
            Action("cast", ref, targets=(player_ref(BEN),)),
            Action("play", ref),
            Action("activate", ref, ability=1),
            Action("cast", self.bolt, targets=(player_ref(BEN),), pay=(ref,)),
            Action("cast", self.bolt, targets=(self.bears, ref)),
        ]

    def refusal(self, action: Action) -> str:
        st = self.game.state
        before = st.state_hash()
        with pytest.raises(IllegalActionError) as info:
            take_action(self.game, ANN, action)
        assert st.state_hash() == before
        return str(info.value)


def test_table_is_what_it_says() -> None:
    t = Table()
    st = t.game.state
    assert len(t.hidden_ids()) == 2 + 2 + 2 + 3 + 2 + 1 + 1
    assert all(not ref_visible_to(t.game, ANN, i) for i in t.hidden_ids())
    assert ref_visible_to(t.game, ANN, t.bears) and ref_visible_to(t.game, BEN, t.bears_in_hand)
    assert t.never not in st.objects and t.never not in st.lki
    # A card that left a library keeps no last known information: its old id reads as one
    # that never existed, to everyone; the cards themselves are in Ben's hand.
    assert all(i not in st.lki and i not in st.objects for i in t.drawn_from)
    assert {st.objects[i].name for i in st.players[BEN].hand} >= {"Savannah Lions", "Typhoid Rats"}
    assert t.hidden_names() >= {"Savannah Lions", "Typhoid Rats", "Hill Giant", "Serra Angel",
                                "Doom Blade", "Felidar Sovereign", "Divination"}


def test_refusal_does_not_name_or_identify_a_hidden_card() -> None:
    """A refusal naming an id the player may not see reads exactly as one naming an id that
    never existed: opponents' hand cards, every library card, former library ids of drawn
    cards, the former hand id of a card now on the battlefield, a face-down exiled card."""
    t = Table()
    baseline = [_mask(t.refusal(a)) for a in t.probes(t.never)]
    assert any("601.2c" in text for text in baseline)
    hidden_names = t.hidden_names()
    for ref in t.hidden_ids():
        texts = [t.refusal(a) for a in t.probes(ref)]
        assert [_mask(text) for text in texts] == baseline, f"#{ref}"
        for text in texts:
            assert not [n for n in hidden_names if n in text], (ref, text)


def test_a_visible_target_is_still_named() -> None:
    t = Table()
    text = t.refusal(Action("cast", t.bolt, targets=(t.bears, t.bears)))
    assert f"Grizzly Bears (#{t.bears})" in text


def test_choices_name_only_what_the_asked_player_may_see() -> None:
    t = Table()
    st = t.game.state
    secret = st.players[BEN].hand[0]
    proc = ask_choose(t.game, ANN, "choose one", [secret, t.bears], 1, 1)
    decision = next(proc)
    assert [c.name for c in decision.choices] == [f"#{secret}", "Grizzly Bears"]
    # Ben is asked about his own hand: he sees its name.
    proc = ask_choose(t.game, BEN, "choose one", [secret, t.bears], 1, 1)
    assert next(proc).choices[0].name == st.objects[secret].name


def test_visible_name_of_any_int() -> None:
    t = Table()
    for ref in (-5, 0, 3, 9, 10**12, t.never, t.face_down, *t.drawn_from):
        assert visible_name(t.game, ref, ANN) == f"#{ref}"
    assert visible_name(t.game, player_ref(BEN), ANN) == "Ben"
    assert visible_name(t.game, t.drawn_from[0], BEN) == "#" + str(t.drawn_from[0])
    assert visible_name(t.game, t.bears_in_hand, BEN) == "Grizzly Bears"
    assert visible_name(t.game, t.bears_in_hand, PUBLIC_SEAT) == f"#{t.bears_in_hand}"


# --------------------------------------------------------------------------- views


def test_a_face_down_card_shows_its_name_only_to_its_controller_on_the_battlefield() -> None:
    """708.2a/708.5: a face-down permanent is a nameless 2/2 to everyone but its controller;
    406.3: a card exiled face down is shown to no one."""
    t = Table()
    game, st = t.game, t.game.state
    on_field = create_object(game, "Wall of Tears", BEN, "battlefield")
    on_field.face_down = True
    assert st.objects[t.face_down].zone == "exile"
    for seat in (ANN, BEN):
        view = view_for(game, seat)
        assert t.face_down not in {o.id for o in view.exile}
        assert "Felidar Sovereign" not in repr(view)
    ann = next(o for o in view_for(game, ANN).battlefield if o.id == on_field.id)
    assert (ann.name, ann.types, ann.power, ann.toughness) == ("", ("Creature",), 2, 2)
    assert "Wall of Tears" not in repr(view_for(game, ANN))
    ben = next(o for o in view_for(game, BEN).battlefield if o.id == on_field.id)
    assert ben.name == "Wall of Tears"
    assert visible_name(game, on_field.id, ANN) == f"#{on_field.id}"
    assert visible_name(game, on_field.id, BEN) == "Wall of Tears"


# --------------------------------------------------------------------------- library numbering


def _distinct_deck() -> list[str]:
    # Whole cards only: a face, half or Adventure is not a card a deck can hold.
    return [n for n in sorted(CARDS) if n != "Soldier"
            and CARDS[n].card_name in ("", n)][:24]


def _id_names(seed: int) -> dict[int, str]:
    """Every original library id of seat 0 and the card it was given to."""
    deck = _distinct_deck()
    # A game that starts the way a game of a match does has its libraries built, and nothing
    # drawn yet, until its start is played: every original library id is still there to see.
    # The chooser is given, so the generator has shuffled the libraries and nothing else.
    fresh = deck_game(deck, deck, seed=seed, start=StartSettings(chooser=0, mulligans=False))
    library = fresh.state.players[0].library
    out = {oid: fresh.state.objects[oid].name for oid in library}
    assert len(out) == len(deck)
    # Numbered top to bottom.
    assert library == sorted(library)
    # ``new_game`` without a start builds the same libraries and draws the top seven: the
    # opening hand is the lowest ids' cards; what is left keeps its ids. (Drawn cards keep no
    # last known information of their library ids: nobody saw them there.)
    game = deck_game(deck, deck, seed=seed)
    st = game.state
    assert [st.objects[h].name for h in st.players[0].hand] == [out[i] for i in library[:OPENING_HAND]]
    assert st.players[0].library == library[OPENING_HAND:]
    assert all(st.objects[i].name == out[i] for i in st.players[0].library)
    assert all(i not in st.lki for i in library[:OPENING_HAND])
    return out


def test_library_ids_are_given_after_the_shuffle_and_say_nothing_of_the_deck_list() -> None:
    maps = [_id_names(seed) for seed in (1, 2, 3)]
    # The same ids, given to different cards: an id alone tells nothing about which card it is.
    assert maps[0].keys() == maps[1].keys() == maps[2].keys()
    assert maps[0] != maps[1] and maps[1] != maps[2]
    # And the numbering is not the deck list's order.
    deck = _distinct_deck()
    assert any([m[i] for i in sorted(m)] != deck for m in maps)


# --------------------------------------------------------------------------- events


def _public(events: Sequence[Event], seat: int) -> list[Event]:
    """The events ``seat`` may see."""
    return [e for e in events if not e.private_to or seat in e.private_to]


def _check_moves(game: Game, move: Callable[[], object], names: set[str], hidden_ids: set[int],
                 owner: int, opponent: int) -> list[Event]:
    game.take_events()
    move()
    events = list(game.take_events())
    for ev in _public(events, opponent):
        assert not [n for n in names if n in ev.text], ev
        assert ev.subject not in hidden_ids | {o for o in game.state.objects
                                               if not visible_to(game, opponent,
                                                                 game.state.objects[o])}, ev
    for ev in _public(events, PUBLIC_SEAT):
        assert not ev.private_to
    return [e for e in events if e.private_to == (owner,)]


def test_a_draw_tells_the_opponent_only_that_a_card_was_drawn() -> None:
    t = Table()
    game, st = t.game, t.game.state
    top = st.players[BEN].library[0]
    name = st.objects[top].name
    mine = _check_moves(game, lambda: draw_cards(game, BEN, 1), {name}, {top}, BEN, ANN)
    new = st.players[BEN].hand[-1]
    assert [(e.kind, e.text, e.subject) for e in mine] == [("draw", f"Ben draws {name}", new)]


def test_a_draw_event_is_public_only_without_the_name() -> None:
    t = Table()
    game, st = t.game, t.game.state
    top = st.players[BEN].library[0]
    name = st.objects[top].name
    game.take_events()
    draw_cards(game, BEN, 1)
    events = game.take_events()
    public = [e for e in events if not e.private_to]
    assert [(e.kind, e.text, e.subject) for e in public] == [("draw", "Ben draws a card", 0)]
    assert all(name not in e.text for e in public)


def test_a_card_put_from_hand_into_a_library_is_not_named_publicly() -> None:
    t = Table()
    game, st = t.game, t.game.state
    card = st.players[BEN].hand[0]
    name = st.objects[card].name
    mine = _check_moves(game, lambda: move_object(game, card, "library"),
                        {name}, {card}, BEN, ANN)
    # Ben knew the card; the new library id is hidden even from him.
    assert [(e.text, e.subject) for e in mine] == [
        (f"{name} moves from Ben's hand to Ben's library", 0)]


def test_moves_into_public_zones_name_the_card_for_everyone() -> None:
    t = Table()
    game, st = t.game, t.game.state
    card = st.players[BEN].hand[0]
    name = st.objects[card].name
    game.take_events()
    new = move_object(game, card, "graveyard")
    events = game.take_events()
    assert [(e.text, e.subject, e.private_to) for e in events] == [
        (f"{name} moves from Ben's hand to Ben's graveyard", new.id, ())]
    game.take_events()
    back = move_object(game, t.bears, "library")
    events = game.take_events()
    # Everybody saw the Bears on the battlefield; nobody sees its new library id.
    assert [(e.text, e.subject, e.private_to) for e in events] == [
        ("Grizzly Bears moves from the battlefield to Ben's library", 0, ())]
    assert not visible_to(game, BEN, back)


# --------------------------------------------------------------------------- morph (702.37, 708)


class MorphTable:
    """Ben (seat 1) in his main phase, holding priority, with Exalted Angel in his hand and
    seven Plains; Ann has Shock and a Mountain. Ben's Angel is cast face down (702.37c)."""

    def __init__(self) -> None:
        state = GameState(players=[PlayerState(ANN, "Ann"), PlayerState(BEN, "Ben")],
                          rng=GameRandom.from_seed(5), turn=4, step="precombat_main", active=BEN,
                          priority=BEN)
        self.game = game = Game(state, CARDS)
        self.shock = create_object(game, "Shock", ANN, "hand").id
        self.mountain = create_object(game, "Mountain", ANN, "battlefield").id
        self.angel_in_hand = create_object(game, "Exalted Angel", BEN, "hand").id
        self.plains = [create_object(game, "Plains", BEN, "battlefield").id for _ in range(7)]
        self.never = state.next_id + 17
        game.take_events()
        _to_priority(game)
        self.events: list[Event] = []

    def act(self, seat: int, action: Action) -> None:
        st = self.game.state
        st.priority = seat
        self.game.take_events()  # collect from here (a batch that ended stopped collecting)
        take_action(self.game, seat, action)
        self.events.extend(self.game.take_events())
        _to_priority(self.game)
        self.events.extend(self.game.take_events())

    def cast_face_down(self) -> int:
        """702.37c: Ben casts the Angel face down for {3}; returns the spell's id."""
        self.act(BEN, Action("cast", self.angel_in_hand, costs=("morph",)))
        return self.game.state.stack[-1]

    def resolve(self) -> None:
        events = run_proc(resolve_top(self.game), no_questions)
        assert isinstance(events, tuple)
        self.events.extend(events)
        _to_priority(self.game)
        self.events.extend(self.game.take_events())

    def seen_by(self, seat: int) -> list[Event]:
        """The events so far that ``seat`` may see; forget them."""
        seen = _public(self.events, seat)
        self.events = []
        return seen


def _refusal(game: Game, seat: int, action: Action) -> str:
    """The refusal of ``action``, which changes nothing."""
    before = game.state.state_hash()
    with pytest.raises(IllegalActionError) as info:
        take_action(game, seat, action)
    assert game.state.state_hash() == before
    return str(info.value)


def _no_angel(texts: Sequence[str]) -> None:
    assert not [t for t in texts if "Exalted Angel" in t], texts


def test_a_face_down_spell_is_nameless_to_the_opponent_and_known_to_its_controller() -> None:
    """708.5: the spell cast face down is a nameless spell to Ann (view, events, names), and
    Ben's own; 708.2a/702.37c: a 2/2 creature spell with mana value 0."""
    t = MorphTable()
    game = t.game
    spell = t.cast_face_down()
    obj = game.state.objects[spell]
    assert obj.face_down and game.mana_value(obj) == 0
    assert (game.power(obj), game.toughness(obj), game.card_types(obj)) == (2, 2, ("Creature",))
    assert sum(game.state.objects[p].tapped for p in t.plains) == 3  # {3}, not {4}{W}{W}
    seen = t.seen_by(ANN)
    _no_angel([e.text for e in seen])
    assert "Ben casts a face-down spell" in " ".join(e.text for e in seen)
    ann = view_for(game, ANN)
    assert [(s.id, s.name) for s in ann.stack] == [(spell, "")]
    _no_angel([repr(ann)])
    assert [s.name for s in view_for(game, BEN).stack] == ["Exalted Angel"]
    assert visible_name(game, spell, ANN) == f"#{spell}"
    assert visible_name(game, spell, BEN) == "Exalted Angel"
    # Ann's priority: nothing she is offered names it.
    game.state.priority = ANN
    _no_angel([repr(priority_decision(game))])


def test_a_face_down_permanent_is_nameless_to_the_opponent_until_it_is_turned_face_up() -> None:
    """708.5/708.2a: the permanent the spell becomes is a nameless 2/2 to Ann, in views,
    events, refusals and her questions; 702.37e: turned face up, it is Exalted Angel to all,
    the same object (708.8)."""
    t = MorphTable()
    game, st = t.game, t.game.state
    stack_id = t.cast_face_down()
    t.resolve()
    (angel,) = [i for i in st.battlefield if st.objects[i].face_down]
    seen = t.seen_by(ANN)
    _no_angel([e.text for e in seen])
    assert visible_name(game, stack_id, ANN) == f"#{stack_id}"  # not revealed entering (708.9)
    ann = next(o for o in view_for(game, ANN).battlefield if o.id == angel)
    assert (ann.name, ann.types, ann.power, ann.toughness) == ("", ("Creature",), 2, 2)
    ben = next(o for o in view_for(game, BEN).battlefield if o.id == angel)
    assert (ben.name, ben.power, ben.toughness) == ("Exalted Angel", 2, 2)
    # Ann shocks it: her cast names it only by its id; her refusals name it as any id.
    st.priority = ANN
    options = [o for o in priority_decision(game).actions if o.kind == "turn_face_up"]
    assert options == []
    texts = [_refusal(game, ANN, Action("turn_face_up", ref)) for ref in (angel, t.never)]
    assert _mask(texts[0]) == _mask(texts[1])
    _no_angel(texts)
    t.act(ANN, Action("cast", t.shock, targets=(angel,)))
    _no_angel([e.text for e in t.seen_by(ANN)])
    # Ben holds priority: he may turn it face up, and does (116.2b: no stack).
    st.priority = BEN
    offered = [o for o in priority_decision(game).actions if o.kind == "turn_face_up"]
    assert [(o.object_id, o.name) for o in offered] == [(angel, "Exalted Angel")]
    t.act(BEN, Action("turn_face_up", angel))
    obj = st.objects[angel]
    assert not obj.face_down and [st.objects[i].name for i in st.stack] == ["Shock"]
    assert (game.power(obj), game.toughness(obj)) == (4, 5)
    assert game.has_keyword(obj, "flying") and game.has_keyword(obj, "lifelink")
    assert sum(st.objects[p].tapped for p in t.plains) == 7
    texts = [e.text for e in t.seen_by(ANN) if e.kind == "face_up"]
    assert texts == [f"Ben turns #{angel} face up for its morph cost {{2}}{{W}}{{W}}: it is "
                     "Exalted Angel (702.37e)"]
    assert next(o for o in view_for(game, ANN).battlefield if o.id == angel).name == "Exalted Angel"
    assert visible_name(game, angel, ANN) == "Exalted Angel"


def test_turning_face_up_is_refused_without_the_morph_cost_and_changes_nothing() -> None:
    t = MorphTable()
    game, st = t.game, t.game.state
    t.cast_face_down()
    t.resolve()
    (angel,) = [i for i in st.battlefield if st.objects[i].face_down]
    for p in t.plains:
        st.objects[p].tapped = True
    st.priority = BEN
    assert [o for o in priority_decision(game).actions if o.kind == "turn_face_up"] == []
    with pytest.raises(IllegalActionError, match=r"601\.2h"):
        take_action(game, BEN, Action("turn_face_up", angel))
    assert st.objects[angel].face_down
    with pytest.raises(IllegalActionError, match=r"702\.37e"):
        take_action(game, BEN, Action("turn_face_up", t.plains[0]))
    with pytest.raises(IllegalActionError, match=r"702\.37e: a turn_face_up action takes no x"):
        take_action(game, BEN, Action("turn_face_up", angel, x=1))


@pytest.mark.parametrize("where", ["battlefield", "stack"])
def test_a_face_down_object_that_leaves_is_revealed_to_all(where: str) -> None:
    """708.9: a face-down permanent that leaves the battlefield, or a face-down spell that
    leaves the stack other than by resolving into a permanent, is revealed to every player:
    a public event names it by its id, and its old id reads as its name to all."""
    t = MorphTable()
    game, st = t.game, t.game.state
    oid = t.cast_face_down()
    if where == "battlefield":
        t.resolve()
        (oid,) = [i for i in st.battlefield if st.objects[i].face_down]
    t.seen_by(ANN)
    game.take_events()
    new = move_object(game, oid, "graveyard")
    events = list(game.take_events())
    public = [(e.kind, e.text, e.private_to) for e in events if not e.private_to]
    what = "permanent" if where == "battlefield" else "spell"
    assert public[0] == ("reveal", f"Ben reveals the face-down {what} #{oid}: it is Exalted "
                         "Angel (708.9)", ())
    assert public[1][1] == f"Exalted Angel moves from the {where} to Ben's graveyard"
    for seat in (ANN, BEN, PUBLIC_SEAT):
        assert visible_name(game, oid, seat) == "Exalted Angel"
        assert visible_to(game, seat, new)
    assert [o.name for o in view_for(game, ANN).players[BEN].graveyard] == ["Exalted Angel"]
