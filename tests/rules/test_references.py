"""The kernel refuses every reference it receives that names nothing it may act on.

A hostile client can put any int in any field of an ``Action`` or ``Answer``. Each such value
is refused with ``IllegalActionError`` naming the rule (``InvalidMessageError`` when the value
has the wrong type), and the state, and its hash, stay exactly as they were. Before this was
checked, a target naming an absent seat (ref 3 in a two-player game) raised ``IndexError``
out of the kernel and killed every game in the process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from spellstack.cards import load_cards
from spellstack.rules import (
    Action,
    Answer,
    Decision,
    Game,
    IllegalActionError,
    InvalidMessageError,
    PendingTrigger,
    Proc,
    advance,
    check_answer,
    default_answer,
    lose_game,
    place_triggers,
    play_sync,
    priority_decision,
    state_based_actions,
    take_action,
)
from spellstack.rules.views import visible_name
from spellstack.scenarios import build_game

CARDS = load_cards()
BIG = 2**63 - 1
"""The largest int the protocol carries."""
HUGE = 10**5000
"""An int only an in-process caller can send (Python won't even print it in decimal)."""


@dataclass(frozen=True)
class Ids:
    """The object ids of the position ``_position`` sets up."""

    shock: int
    """Shock in alice's hand."""
    zenith: int
    """Black Sun's Zenith ({X}{B}{B}) in alice's hand."""
    land: int
    """A Mountain in alice's hand."""
    mountain: int
    """An untapped Mountain alice controls."""
    bears: int
    """Grizzly Bears alice controls."""
    graveyard: int
    """A Shock in alice's graveyard."""
    library: int
    """The Forest in alice's library."""
    their_hand: int
    """Lightning Bolt in bob's hand."""
    their_library: int
    """The Island in bob's library."""
    their_land: int
    """A Mountain bob controls."""
    gone: int
    """The id a Mountain had in alice's hand before she played it: last known information only."""
    never: int
    """An id no object ever had."""


def _to_priority(game: Game) -> None:
    play_sync(game, default_answer, until=lambda g, task: task == "priority")
    priority_decision(game)


def _position() -> tuple[Game, Ids]:
    """Alice holds priority in her first main phase with an empty stack and can cast Shock."""
    game, _ = build_game({
        "players": ["alice", "bob"],
        "alice": {"hand": ["Shock", "Mountain", "Mountain", "Black Sun's Zenith"],
                  "battlefield": ["Mountain", "Swamp", "Swamp", "Grizzly Bears"],
                  "graveyard": ["Shock"], "library": ["Forest"]},
        "bob": {"hand": ["Lightning Bolt"], "battlefield": ["Mountain", "Serra Angel"],
                "library": ["Island"]},
    }, 0, CARDS, "test")
    st = game.state

    def find(name: str, zone: str, owner: int = 0) -> int:
        return next(o.id for o in st.objects.values()
                    if o.name == name and o.zone == zone and o.owner == owner)

    _to_priority(game)
    gone = st.players[0].hand[1]
    take_action(game, 0, Action("play", gone))
    _to_priority(game)
    return game, Ids(
        shock=find("Shock", "hand"), zenith=find("Black Sun's Zenith", "hand"),
        land=st.players[0].hand[1], mountain=find("Mountain", "battlefield"),
        bears=find("Grizzly Bears", "battlefield"), graveyard=find("Shock", "graveyard"),
        library=find("Forest", "library"), their_hand=find("Lightning Bolt", "hand", 1),
        their_library=find("Island", "library", 1), their_land=find("Mountain", "battlefield", 1),
        gone=gone, never=st.next_id + 1000)


def test_the_position_is_as_described() -> None:
    game, ids = _position()
    st = game.state
    assert st.cycle == "priority" and st.priority == 0 and st.players[0].lands_played == 1
    assert ids.gone in st.lki and ids.gone not in st.objects
    assert st.objects[ids.land].zone == "hand"
    # The legal actions the hostile ones are variations of are accepted.
    take_action(game, 0, Action("cast", ids.shock, targets=(2,), pay=(ids.mountain,)))
    game, ids = _position()
    take_action(game, 0, Action("activate", ids.mountain, 1))


A = Callable[[Ids], Action]

HOSTILE_ACTIONS: list[tuple[str, A, str]] = [
    # Targets: absent seats, not a reference at all, objects in the wrong zone or gone.
    ("target-absent-seat-3", lambda i: Action("cast", i.shock, targets=(3,)), r"^115\.1: target 3"),
    ("target-absent-seat-8", lambda i: Action("cast", i.shock, targets=(8,)), r"^115\.1"),
    ("target-zero", lambda i: Action("cast", i.shock, targets=(0,)), r"^115\.1"),
    ("target-negative", lambda i: Action("cast", i.shock, targets=(-1,)), r"^115\.1"),
    ("target-int64-min", lambda i: Action("cast", i.shock, targets=(-(2**63),)), r"^115\.1"),
    ("target-9", lambda i: Action("cast", i.shock, targets=(9,)), r"^115\.1"),
    ("target-99", lambda i: Action("cast", i.shock, targets=(99,)), r"^115\.1"),
    ("target-big", lambda i: Action("cast", i.shock, targets=(BIG,)), r"^601\.2c"),
    ("target-beyond-int64", lambda i: Action("cast", i.shock, targets=(2**64,)), r"^115\.1"),
    ("target-huge", lambda i: Action("cast", i.shock, targets=(HUGE,)), r"^115\.1"),
    ("target-second-absent", lambda i: Action("cast", i.shock, targets=(2, 3)), r"^115\.1"),
    ("target-in-own-library", lambda i: Action("cast", i.shock, targets=(i.library,)),
     r"^601\.2c"),
    ("target-in-their-library", lambda i: Action("cast", i.shock, targets=(i.their_library,)),
     r"^601\.2c"),
    ("target-in-their-hand", lambda i: Action("cast", i.shock, targets=(i.their_hand,)),
     r"^601\.2c"),
    ("target-in-graveyard", lambda i: Action("cast", i.shock, targets=(i.graveyard,)),
     r"^601\.2c"),
    ("target-itself", lambda i: Action("cast", i.shock, targets=(i.shock,)), r"^601\.2c"),
    ("target-lki-only", lambda i: Action("cast", i.shock, targets=(i.gone,)), r"^601\.2c"),
    ("target-never-existed", lambda i: Action("cast", i.shock, targets=(i.never,)), r"^601\.2c"),
    ("target-twice", lambda i: Action("cast", i.shock, targets=(2, 2)), r"^601\.2c"),
    ("activate-target-absent-seat", lambda i: Action("activate", i.mountain, 1, targets=(3,)),
     r"^115\.1"),
    # The card to cast or play, the permanent to activate.
    ("cast-zero", lambda i: Action("cast", 0, targets=(2,)), r"^601\.2: 0 is not an object id"),
    ("cast-player-ref", lambda i: Action("cast", 1, targets=(2,)), r"^601\.2"),
    ("cast-negative", lambda i: Action("cast", -5, targets=(2,)), r"^601\.2"),
    ("cast-huge", lambda i: Action("cast", HUGE, targets=(2,)), r"^601\.2"),
    ("cast-from-library", lambda i: Action("cast", i.library), r"^601\.2a"),
    ("cast-from-graveyard", lambda i: Action("cast", i.graveyard, targets=(2,)), r"^601\.2a"),
    ("cast-their-card", lambda i: Action("cast", i.their_hand, targets=(1,)), r"^601\.2a"),
    ("cast-permanent", lambda i: Action("cast", i.bears), r"^601\.2a"),
    ("cast-lki-only", lambda i: Action("cast", i.gone), r"^601\.2a"),
    ("cast-never-existed", lambda i: Action("cast", i.never), r"^601\.2a"),
    ("cast-with-ability", lambda i: Action("cast", i.shock, 1, targets=(2,)), r"^601\.2: a cast"),
    ("play-from-library", lambda i: Action("play", i.library), r"^305\.1"),
    ("play-lki-only", lambda i: Action("play", i.gone), r"^305\.1"),
    ("play-their-land", lambda i: Action("play", i.their_land), r"^305\.1"),
    ("play-negative", lambda i: Action("play", -1), r"^305\.1"),
    ("play-with-targets", lambda i: Action("play", i.land, targets=(3,)), r"^305\.1"),
    ("activate-card-in-hand", lambda i: Action("activate", i.land, 1), r"^602\.2"),
    ("activate-their-land", lambda i: Action("activate", i.their_land, 1), r"^602\.2"),
    ("activate-lki-only", lambda i: Action("activate", i.gone, 1), r"^602\.2"),
    ("activate-zero", lambda i: Action("activate", 0, 1), r"^602\.2"),
    # Which ability.
    ("ability-0", lambda i: Action("activate", i.mountain, 0), r"^602\.2"),
    ("ability-negative", lambda i: Action("activate", i.mountain, -1), r"^602\.2"),
    ("ability-2", lambda i: Action("activate", i.mountain, 2), r"^602\.2"),
    ("ability-big", lambda i: Action("activate", i.mountain, BIG), r"^602\.2"),
    ("ability-huge", lambda i: Action("activate", i.mountain, HUGE), r"^602\.2"),
    # X.
    ("x-negative", lambda i: Action("cast", i.zenith, x=-1), r"^601\.2b"),
    ("x-int64-min", lambda i: Action("cast", i.zenith, x=-(2**63)), r"^601\.2b"),
    ("x-absurd", lambda i: Action("cast", i.zenith, x=BIG), r"^601\.2h"),
    ("x-huge", lambda i: Action("cast", i.zenith, x=HUGE), r"^601\.2b"),
    ("x-without-x", lambda i: Action("cast", i.shock, targets=(2,), x=1), r"^601\.2b"),
    ("activate-x-negative", lambda i: Action("activate", i.mountain, 1, x=-1), r"^601\.2b"),
    # What pays.
    ("pay-zero", lambda i: Action("cast", i.shock, targets=(2,), pay=(0,)), r"^601\.2g"),
    ("pay-player-ref", lambda i: Action("cast", i.shock, targets=(2,), pay=(3,)), r"^601\.2g"),
    ("pay-negative", lambda i: Action("cast", i.shock, targets=(2,), pay=(-1,)), r"^601\.2g"),
    ("pay-huge", lambda i: Action("cast", i.shock, targets=(2,), pay=(HUGE,)), r"^601\.2g"),
    ("pay-their-land", lambda i: Action("cast", i.shock, targets=(2,), pay=(i.their_land,)),
     r"^601\.2g"),
    ("pay-card-in-hand", lambda i: Action("cast", i.shock, targets=(2,), pay=(i.land,)),
     r"^601\.2g"),
    ("pay-lki-only", lambda i: Action("cast", i.shock, targets=(2,), pay=(i.gone,)), r"^601\.2g"),
    ("pay-never-existed", lambda i: Action("cast", i.shock, targets=(2,), pay=(i.never,)),
     r"^601\.2g"),
    ("pay-twice", lambda i: Action("cast", i.shock, targets=(2,), pay=(i.mountain, i.mountain)),
     r"^601\.2g"),
    ("pay-non-mana", lambda i: Action("cast", i.shock, targets=(2,), pay=(i.bears,)),
     r"^601\.2g"),
    # How hybrid and Phyrexian symbols are paid (Shock has none).
    ("pay-as-word", lambda i: Action("cast", i.shock, targets=(2,), pay_as=("x",)), r"^601\.2h"),
    ("pay-as-empty", lambda i: Action("cast", i.shock, targets=(2,), pay_as=("",)), r"^601\.2h"),
    ("pay-as-long", lambda i: Action("cast", i.shock, targets=(2,), pay_as=("life" * 10_000,)),
     r"^601\.2h"),
    ("pay-as-colour", lambda i: Action("cast", i.shock, targets=(2,), pay_as=("R",)), r"^601\.2h"),
    ("pay-as-many", lambda i: Action("cast", i.shock, targets=(2,), pay_as=("R",) * 1000),
     r"^601\.2h"),
    # Division (no spell here divides) and fields the kind does not use.
    ("divide", lambda i: Action("cast", i.shock, targets=(2,), divide=((2, 2),)), r"^601\.2d"),
    ("pass-with-target", lambda i: Action("pass", targets=(3,)), r"^117\.3d"),
    ("pass-with-object", lambda i: Action("pass", -1), r"^117\.3d"),
    ("concede-with-object", lambda i: Action("concede", HUGE), r"^104\.3a"),
]


@pytest.mark.parametrize(("make", "rule"), [(m, r) for _, m, r in HOSTILE_ACTIONS],
                         ids=[n for n, _, _ in HOSTILE_ACTIONS])
def test_a_hostile_action_is_refused_and_changes_nothing(make: A, rule: str) -> None:
    game, ids = _position()
    before = game.state.state_hash()
    with pytest.raises(IllegalActionError, match=rule) as info:
        take_action(game, 0, make(ids))
    assert game.state.state_hash() == before
    assert len(str(info.value)) < 400, "a refusal quotes what it was sent in bounded space"


MALFORMED_ACTIONS: list[tuple[str, dict[str, Any]]] = [
    ("kind-int", {"kind": 7}),
    ("object-id-str", {"kind": "cast", "object_id": "101"}),
    ("object-id-bool", {"kind": "play", "object_id": True}),
    ("x-float", {"kind": "cast", "x": 1.5}),
    ("targets-int", {"kind": "cast", "targets": 3}),
    ("targets-none", {"kind": "cast", "targets": None}),
    ("targets-list", {"kind": "cast", "targets": [2]}),
    ("target-bool", {"kind": "cast", "targets": (True,)}),
    ("pay-int", {"kind": "cast", "pay": 105}),
    ("pay-as-int", {"kind": "cast", "pay_as": (1,)}),
    ("divide-short", {"kind": "cast", "divide": ((2,),)}),
]


@pytest.mark.parametrize("fields", [f for _, f in MALFORMED_ACTIONS],
                         ids=[n for n, _ in MALFORMED_ACTIONS])
def test_an_action_of_the_wrong_shape_is_malformed(fields: dict[str, Any]) -> None:
    game, _ = _position()
    before = game.state.state_hash()
    with pytest.raises(InvalidMessageError, match=r"action\.|unknown action kind"):
        take_action(game, 0, Action(**fields))
    assert game.state.state_hash() == before


def test_unknown_kind_is_malformed_and_quoted_briefly() -> None:
    game, _ = _position()
    before = game.state.state_hash()
    with pytest.raises(InvalidMessageError, match="unknown action kind") as info:
        take_action(game, 0, Action("x" * 100_000))
    assert len(str(info.value)) < 200
    assert game.state.state_hash() == before


def test_a_player_who_left_is_no_target_and_an_absent_seat_names_no_one() -> None:
    game, _ = build_game({"players": ["alice", "bob", "carol"],
                          "alice": {"hand": ["Shock"], "battlefield": ["Mountain"]}},
                         0, CARDS, "test")
    lose_game(game, 2, "conceded (104.3a)")
    _to_priority(game)
    st = game.state
    shock = st.players[0].hand[0]
    for ref, rule in ((3, r"^601\.2c"), (4, r"^115\.1: target 4 names no player")):
        before = st.state_hash()
        with pytest.raises(IllegalActionError, match=rule):
            take_action(game, 0, Action("cast", shock, targets=(ref,)))
        assert st.state_hash() == before
    take_action(game, 0, Action("cast", shock, targets=(2,)))


@pytest.mark.parametrize("ref", [3, 8, 0, -1, 9, 99, BIG, 2**64, -(2**63), HUGE],
                         ids=["3", "8", "0", "-1", "9", "99", "big", "2**64", "int64-min", "huge"])
def test_ref_name_is_safe_for_any_int(ref: int) -> None:
    game, ids = _position()
    for seat in (-1, 0, 1):
        name = visible_name(game, ref, seat)
        assert name.startswith("#") and len(name) < 40
    assert visible_name(game, ids.bears) == "Grizzly Bears" and visible_name(game, 2) == "bob"


# ---------------------------------------------------------------------- answers


def _first_decision(proc: Proc[Any]) -> Decision:
    decision = next(proc)
    assert isinstance(decision, Decision)
    return decision


def _choose() -> tuple[Game, Decision]:
    """704.5j: alice chooses which of her two legends to keep."""
    game, _ = build_game({"players": ["alice", "bob"],
                          "alice": {"battlefield": ["Isamaru, Hound of Konda"] * 2}},
                         0, CARDS, "test")
    return game, _first_decision(state_based_actions(game))


def _order() -> tuple[Game, Decision]:
    """603.3b: alice orders two triggered abilities that triggered at once."""
    game, _ = build_game({"players": ["alice", "bob"],
                          "alice": {"battlefield": ["Elvish Visionary"] * 2}}, 0, CARDS, "test")
    st = game.state
    position = CARDS["Elvish Visionary"].triggered[0].position
    st.pending_triggers = [PendingTrigger(0, oid, "Elvish Visionary", position)
                           for oid in st.battlefield]
    return game, _first_decision(place_triggers(game))


def _combat(kind: str) -> tuple[Game, Decision]:
    """Hill Giant attacks bob (508.1), both of bob's Grizzly Bears block it (509.1), and alice
    divides its 3 damage between them (510.1c)."""
    game, _ = build_game({"players": ["alice", "bob"], "step": "beginning_of_combat",
                          "alice": {"battlefield": ["Hill Giant"]},
                          "bob": {"battlefield": ["Grizzly Bears", "Grizzly Bears"]}},
                         0, CARDS, "test")
    answers = {"attackers": lambda d: Answer(d.id, pairs=d.legal_pairs[:1]),
               "blockers": lambda d: Answer(d.id, pairs=d.legal_pairs)}
    while True:
        play_sync(game, default_answer, until=lambda g, task: task == "advance")
        proc = advance(game)
        decision = _first_decision(proc)
        if decision.kind == kind:
            return game, decision
        with pytest.raises(StopIteration):
            proc.send(answers[decision.kind](decision))


DECISIONS: dict[str, Callable[[], tuple[Game, Decision]]] = {
    "choose": _choose, "order": _order, "attackers": lambda: _combat("attackers"),
    "blockers": lambda: _combat("blockers"), "divide": lambda: _combat("divide"),
}

HOSTILE_ANSWERS: list[tuple[str, str, Callable[[Decision], Answer], str]] = [
    ("choose", "key-negative", lambda d: Answer(d.id, (-1,)), r"^704\.5j: .*no option -1"),
    ("choose", "key-past-the-end", lambda d: Answer(d.id, (len(d.choices),)), r"^704\.5j"),
    ("choose", "key-a-ref", lambda d: Answer(d.id, (d.choices[0].ref,)), r"^704\.5j"),
    ("choose", "key-big", lambda d: Answer(d.id, (BIG,)), r"^704\.5j"),
    ("choose", "key-huge", lambda d: Answer(d.id, (HUGE,)), r"^704\.5j"),
    ("choose", "too-many", lambda d: Answer(d.id, (0, 1)), r"^704\.5j"),
    ("choose", "none", lambda d: Answer(d.id, ()), r"^704\.5j"),
    ("choose", "twice", lambda d: Answer(d.id, (0, 0)), r"^704\.5j"),
    ("choose", "with-pairs", lambda d: Answer(d.id, (0,), ((0, 1),)), r"^704\.5j: .*no pairs"),
    ("order", "missing", lambda d: Answer(d.id, (0,)), r"^603\.3b"),
    ("order", "repeated", lambda d: Answer(d.id, (0, 0)), r"^603\.3b"),
    ("order", "key-unknown", lambda d: Answer(d.id, (0, 5)), r"^603\.3b"),
    ("order", "key-huge", lambda d: Answer(d.id, (0, HUGE)), r"^603\.3b"),
    ("order", "with-pairs", lambda d: Answer(d.id, (0, 1), ((1, 0),)), r"^603\.3b: .*no pairs"),
    ("attackers", "unknown-attacker", lambda d: Answer(d.id, pairs=((7, 1),)), r"^508\.1a"),
    ("attackers", "attacks-itself", lambda d: Answer(d.id, pairs=((0, 0),)), r"^508\.1a"),
    ("attackers", "negative-key", lambda d: Answer(d.id, pairs=((0, -1),)), r"^508\.1a"),
    ("attackers", "huge-key", lambda d: Answer(d.id, pairs=((HUGE, 1),)), r"^508\.1a"),
    ("attackers", "twice", lambda d: Answer(d.id, pairs=((0, 1), (0, 1))), r"^508\.1"),
    ("attackers", "with-keys", lambda d: Answer(d.id, (0,), ((0, 1),)), r"^508\.1: .*no keys"),
    ("blockers", "blocks-a-blocker", lambda d: Answer(d.id, pairs=((0, 1),)), r"^509\.1a"),
    ("blockers", "unknown-blocker", lambda d: Answer(d.id, pairs=((9, 2),)), r"^509\.1a"),
    ("blockers", "twice", lambda d: Answer(d.id, pairs=((0, 2), (0, 2))), r"^509\.1"),
    ("blockers", "with-keys", lambda d: Answer(d.id, (0,)), r"^509\.1: .*no keys"),
    ("divide", "too-little", lambda d: Answer(d.id, pairs=((0, 1),)), r"^510\.1c"),
    ("divide", "too-much", lambda d: Answer(d.id, pairs=((0, 3), (1, 1))), r"^510\.1c"),
    ("divide", "negative", lambda d: Answer(d.id, pairs=((0, 4), (1, -1))), r"^510\.1c"),
    ("divide", "unknown-key", lambda d: Answer(d.id, pairs=((5, 3),)), r"^510\.1c"),
    ("divide", "huge-key", lambda d: Answer(d.id, pairs=((HUGE, 3),)), r"^510\.1c"),
    ("divide", "huge-amount", lambda d: Answer(d.id, pairs=((0, HUGE),)), r"^510\.1c"),
    ("divide", "with-keys", lambda d: Answer(d.id, (0,), ((0, 3),)), r"^510\.1c: .*no keys"),
]


@pytest.mark.parametrize(("kind", "make", "rule"),
                         [(k, m, r) for k, _, m, r in HOSTILE_ANSWERS],
                         ids=[f"{k}-{n}" for k, n, _, _ in HOSTILE_ANSWERS])
def test_a_hostile_answer_is_refused_and_changes_nothing(
        kind: str, make: Callable[[Decision], Answer], rule: str) -> None:
    game, decision = DECISIONS[kind]()
    assert decision.kind == kind
    before = game.state.state_hash()
    with pytest.raises(IllegalActionError, match=rule) as info:
        check_answer(decision, make(decision))
    assert game.state.state_hash() == before
    assert len(str(info.value)) < 400
    # The question is still open and a legal answer is still taken.
    assert check_answer(decision, default_answer(decision)) == default_answer(decision)


MALFORMED_ANSWERS: list[tuple[str, Callable[[Decision], Any]]] = [
    ("an-action", lambda d: Action("pass")),
    ("other-decision", lambda d: Answer(d.id + 1, (0,))),
    ("decision-id-huge", lambda d: Answer(HUGE, (0,))),
    ("keys-none", lambda d: Answer(d.id, None)),  # type: ignore[arg-type]
    ("keys-str", lambda d: Answer(d.id, ("0",))),  # type: ignore[arg-type]
    ("keys-list", lambda d: Answer(d.id, [0])),  # type: ignore[arg-type]
    ("pairs-triple", lambda d: Answer(d.id, (), ((0, 1, 2),))),  # type: ignore[arg-type]
    ("not-an-answer", lambda d: "banana"),
]


@pytest.mark.parametrize("make", [m for _, m in MALFORMED_ANSWERS],
                         ids=[n for n, _ in MALFORMED_ANSWERS])
def test_an_answer_of_the_wrong_shape_is_malformed(make: Callable[[Decision], Any]) -> None:
    game, decision = _choose()
    before = game.state.state_hash()
    with pytest.raises(InvalidMessageError, match=r"answer|decision"):
        check_answer(decision, make(decision))
    assert game.state.state_hash() == before
