"""RandomBot: answers every kind of decision legally, and is reproducible from its seed.

Non-priority answers are checked with the kernel's own ``check_answer``. Priority actions are
checked against the options the decision lists, reading ``Action.targets`` the way the kernel
does (601.2c: the targets of each requirement in order, a requirement never naming the same
object twice, 115.3), and, in real games, by the kernel itself (``play_sync`` applies every
action with ``take_action``, which raises on anything illegal).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Awaitable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spellstack.actors import play_one_game
from spellstack.bots import Bot, RandomBot
from spellstack.bots._random import keeps
from spellstack.cards import load_cards, load_deck
from spellstack.rules import (
    DECISION_KINDS,
    Action,
    ActionOption,
    Answer,
    Choice,
    Decision,
    Game,
    ObjectView,
    PlayerView,
    Reply,
    TargetRequirement,
    check_answer,
    new_game,
    play_sync,
    player_ref,
    view_for,
)

CARDS = load_cards()


def _view() -> PlayerView:
    deck = load_deck("gruul", CARDS).cards
    return view_for(new_game(CARDS, [("alice", deck), ("bob", deck)], 1), 0)


VIEW = _view()


def _choices(names: Sequence[str], group: int = 0, first_key: int = 0,
             first_ref: int = 300) -> tuple[Choice, ...]:
    return tuple(Choice(first_key + i, first_ref + i, n, group) for i, n in enumerate(names))


# --------------------------------------------------------------------------- checking answers


def assert_legal_action(decision: Decision, action: Action) -> None:
    """The action is one of the decision's options, completely and legally specified."""
    assert isinstance(action, Action), action
    if action.kind == "pass":
        assert any(o.kind == "pass" for o in decision.actions)
        assert action == Action("pass")
        return
    options = [o for o in decision.actions if (o.kind, o.object_id, o.ability)
               == (action.kind, action.object_id, action.ability)]
    assert len(options) == 1, f"{action} is not among the options"
    opt = options[0]
    i = 0
    for req in opt.targets:
        taken: list[int] = []
        while (i < len(action.targets) and len(taken) < req.max
               and action.targets[i] in req.candidates and action.targets[i] not in taken):
            taken.append(action.targets[i])
            i += 1
        assert len(taken) >= req.min, f"{action}: too few targets for {req.prompt}"
    assert i == len(action.targets), f"{action}: targets left over"
    if opt.has_x:
        assert 0 <= action.x <= opt.max_x
    else:
        assert action.x == 0
    assert action.divide == () or opt.divide
    assert action.pay == ()
    assert action.pay_as == ()


def assert_legal(decision: Decision, reply: Reply) -> None:
    if decision.kind == "priority":
        assert_legal_action(decision, reply)  # type: ignore[arg-type]
    else:
        assert isinstance(reply, Answer), reply
        assert check_answer(decision, reply) == reply


# --------------------------------------------------------------------------- one of each kind

PASS = ActionOption("pass")
BOLT = ActionOption("cast", 201, "Lightning Bolt", targets=(
    TargetRequirement("any target", 1, 1, (player_ref(0), player_ref(1), 310, 311)),))
BEARS = ActionOption("cast", 202, "Grizzly Bears")
FIREBALL = ActionOption("cast", 203, "Blaze", targets=(
    TargetRequirement("any target", 1, 1, (player_ref(1), 310)),), has_x=True, max_x=4)
ELF_TAP = ActionOption("activate", 320, "Llanowar Elves", ability=1)
UP_TO_TWO = ActionOption("cast", 204, "Two Shots", targets=(
    TargetRequirement("up to two target creatures", 0, 2, (310, 311, 312)),))
TWO_REQS = ActionOption("cast", 205, "Fork and Spoon", targets=(
    TargetRequirement("target creature", 1, 1, (310, 311)),
    TargetRequirement("target player", 1, 1, (player_ref(0), player_ref(1)))))
FOREST = ActionOption("play", 206, "Forest")

HAND_BUILT: dict[str, list[Decision]] = {
    "priority": [
        Decision(1, 0, "priority", "117.1", actions=(PASS,)),
        Decision(2, 0, "priority", "117.1", actions=(PASS, BOLT, BEARS, FIREBALL, ELF_TAP)),
        Decision(3, 0, "priority", "117.1", actions=(PASS, UP_TO_TWO, TWO_REQS)),
        Decision(4, 0, "priority", "117.1", actions=(PASS, BOLT, FOREST)),
        Decision(5, 0, "priority", "117.1", actions=(PASS, FIREBALL)),
    ],
    "choose": [
        Decision(10, 0, "choose", "701.8: discard 2 card(s)",
                 _choices(["A", "B", "C", "D"]), min=2, max=2),
        Decision(11, 0, "choose", "choose up to three", _choices(["A", "B", "C", "D", "E"]),
                 min=0, max=3),
        Decision(12, 0, "choose", "choose one or more", _choices(["A", "B"]), min=1, max=2),
        Decision(13, 0, "choose", "choose up to five of two", _choices(["A", "B"]), min=1,
                 max=5),
        Decision(14, 0, "choose", "choose none", _choices(["A"]), min=0, max=0),
    ],
    "yes_no": [
        Decision(20, 1, "yes_no", "you may", (Choice(1, 0, "yes"), Choice(0, 0, "no")),
                 min=1, max=1),
    ],
    "order": [
        Decision(30, 0, "order", "603.3b", _choices(["T1", "T2", "T3", "T4"]), min=4, max=4),
        Decision(31, 0, "order", "603.3b", _choices(["T1", "T2"]), min=2, max=2),
    ],
    "attackers": [
        Decision(40, 0, "attackers", "508.1: declare attackers",
                 _choices(["Bears", "Goblin", "Giant"]) + _choices(["bob"], 1, 3, player_ref(1)),
                 min=0, max=3, legal_pairs=((0, 3), (1, 3), (2, 3))),
        Decision(41, 0, "attackers", "508.1: declare attackers",
                 _choices(["Bears", "Goblin"]) + _choices(["bob", "Jace"], 1, 2, 500),
                 min=0, max=2, legal_pairs=((0, 2), (0, 3), (1, 2), (1, 3))),
        Decision(42, 0, "attackers", "508.1", _choices(["Bears"]), min=0, max=1),
    ],
    "blockers": [
        Decision(50, 1, "blockers", "509.1: declare blockers",
                 _choices(["Wall", "Spider", "Rats"]) + _choices(["Bears", "Angel"], 1, 3, 400),
                 min=0, max=3, legal_pairs=((0, 3), (1, 3), (1, 4), (2, 3))),
    ],
    "divide": [
        Decision(60, 0, "divide", "510.1c: divide 5 combat damage",
                 _choices(["Wall", "Spider", "bob"]), min=0, max=5),
        Decision(61, 0, "divide", "510.1c: divide 1 combat damage",
                 _choices(["Wall", "Spider"]), min=0, max=1),
        Decision(62, 0, "divide", "510.1c: divide 0 combat damage", _choices(["Wall"]),
                 min=0, max=0),
        # 702.19b: a trampler; damage goes to bob only once each blocker has its lethal damage.
        Decision(63, 0, "divide", "510.1c: divide 6 combat damage",
                 _choices(["Wall", "Spider", "bob"]), min=0, max=6, lethal=((0, 2), (1, 3))),
        Decision(64, 0, "divide", "510.1c: divide 3 combat damage",
                 _choices(["Wall", "Spider", "bob"]), min=0, max=3, lethal=((0, 2), (1, 3))),
    ],
}


_HAND = tuple(Choice(i, o.id, o.name) for i, o in enumerate(VIEW.hand))
"""The view's hand as the choices of a ``mulligan_bottom`` decision."""
HAND_BUILT["starting_player"] = [
    Decision(80, 0, "starting_player", "103.1: choose who takes the first turn",
             (Choice(0, player_ref(0), "alice"), Choice(1, player_ref(1), "bob")), min=1, max=1),
]
HAND_BUILT["mulligan"] = [
    Decision(81, 0, "mulligan", "103.5: keep your 7-card hand or take a mulligan",
             (Choice(0, 0, "keep"), Choice(1, 0, "mulligan")), min=1, max=1),
]
HAND_BUILT["mulligan_bottom"] = [
    Decision(82, 0, "mulligan_bottom", "103.5: put 1 card from your hand on the bottom", _HAND,
             min=1, max=1),
    Decision(83, 0, "mulligan_bottom", "103.5: put 3 cards from your hand on the bottom", _HAND,
             min=3, max=3),
]
SENSIBLE = ("starting_player", "mulligan")
"""Kinds it answers by a fixed rule, not at random (103.1: it plays first; 103.5: ``keeps``)."""


def test_every_decision_kind_has_hand_built_examples() -> None:
    assert set(HAND_BUILT) == set(DECISION_KINDS)


class Watched:
    """A Bot that hands every decision to the RandomBot it wraps and keeps the coordinator's
    notifications (``Bot.notify``): whether each reply was accepted."""

    def __init__(self, seed: int) -> None:
        self.inner: Bot = RandomBot(seed)
        self.notes: list[str] = []

    def decide(self, view: PlayerView, decision: Decision) -> Reply | Awaitable[Reply]:
        return self.inner.decide(view, decision)

    def notify(self, msg: object) -> None:
        self.notes.append(type(msg).__name__)


async def test_random_bots_seated_as_bots_play_a_game_through_the_actors() -> None:
    # Seated by the actors, through the player protocol: every reply it gives is accepted.
    bots = [Watched(1), Watched(2)]
    _, result = await play_one_game(["gruul", "orzhov"], bots, seed=4, names=["alice", "bob"])
    assert result.winner in ("alice", "bob")
    assert result.forfeits == []
    assert result.decisions > 0
    notes = Counter(n for bot in bots for n in bot.notes)
    assert notes["Accepted"] == result.decisions
    assert notes["Rejected"] == notes["ErrorReply"] == 0


@pytest.mark.parametrize("kind", DECISION_KINDS)
def test_random_bot_answers_every_kind_legally(kind: str) -> None:
    seen: set[Reply] = set()
    for seed in range(200):
        bot = RandomBot(seed)
        for decision in HAND_BUILT[kind]:
            reply = bot.decide(VIEW, decision)
            assert_legal(decision, reply)
            seen.add(reply)
    if kind in SENSIBLE:
        assert len(seen) == len(HAND_BUILT[kind])  # the same answer whatever the seed
    else:
        # Over 200 seeds it does not always give the same answer where there is a choice.
        assert len(seen) > len(HAND_BUILT[kind])


def test_random_bot_plays_a_land_whenever_it_can() -> None:
    for seed in range(100):
        assert RandomBot(seed).decide(VIEW, HAND_BUILT["priority"][3]) == Action("play", 206)


def test_random_bot_sometimes_passes_and_sometimes_acts() -> None:
    kinds = Counter(RandomBot(seed).decide(VIEW, HAND_BUILT["priority"][1]).kind  # type: ignore[union-attr]
                    for seed in range(400))
    assert kinds["pass"] > 0
    assert kinds["cast"] > kinds["pass"]
    assert kinds["activate"] > 0


def test_random_bot_with_only_pass_passes() -> None:
    for seed in range(50):
        assert RandomBot(seed).decide(VIEW, HAND_BUILT["priority"][0]) == Action("pass")


def test_random_bot_chooses_x_within_what_it_can_pay() -> None:
    xs = {RandomBot(seed).decide(VIEW, HAND_BUILT["priority"][4]).x  # type: ignore[union-attr]
          for seed in range(300)}
    assert xs == set(range(FIREBALL.max_x + 1))


def test_random_bot_refuses_an_unknown_kind_of_decision() -> None:
    with pytest.raises(ValueError, match="can't answer a 'haiku' decision"):
        RandomBot(1).decide(VIEW, Decision(99, 0, "haiku", "write one"))


def test_random_bot_can_name_one_object_for_two_target_requirements() -> None:
    only = ActionOption("cast", 207, "Double Tap", targets=(
        TargetRequirement("target creature", 1, 1, (310,)),
        TargetRequirement("target creature", 1, 1, (310,))))
    decision = Decision(70, 0, "priority", "117.1", actions=(PASS, only))
    casts = 0
    for seed in range(50):
        reply = RandomBot(seed).decide(VIEW, decision)
        assert_legal(decision, reply)
        if isinstance(reply, Action) and reply.kind == "cast":
            # 115.3: the same object for each of the two words "target".
            assert reply.targets == (310, 310)
            casts += 1
    assert casts > 0


# --------------------------------------------------------------------------- generated decisions

NAMES = ("Bears", "Goblin", "Giant", "Spider", "Elf", "Wall", "Rats", "Angel")


@st.composite
def decisions(draw: st.DrawFn) -> Decision:
    kind = draw(st.sampled_from(DECISION_KINDS))
    did = draw(st.integers(1, 10_000))
    seat = draw(st.integers(0, 3))
    if kind == "priority":
        options = [PASS]
        for i in range(draw(st.integers(0, 6))):
            reqs = []
            for _ in range(draw(st.integers(0, 2))):
                pool = draw(st.lists(st.integers(300, 320), min_size=1, max_size=5,
                                     unique=True))
                lo = draw(st.integers(0, min(1, len(pool))))
                hi = draw(st.integers(max(lo, 1), len(pool)))
                reqs.append(TargetRequirement("target", lo, hi, tuple(pool)))
            # 115.3 aside (see the xfail above): keep requirements' candidates disjoint.
            used: set[int] = set()
            disjoint = []
            for r in reqs:
                cands = tuple(c for c in r.candidates if c not in used)
                used.update(cands)
                if len(cands) >= r.min and cands:
                    disjoint.append(TargetRequirement(r.prompt, r.min, min(r.max, len(cands)),
                                                      cands))
            has_x = draw(st.booleans())
            kind_ = draw(st.sampled_from(["cast", "activate", "play"]))
            options.append(ActionOption(
                kind_, 200 + i, NAMES[i % len(NAMES)],
                ability=1 if kind_ == "activate" else 0,
                targets=tuple(disjoint) if kind_ != "play" else (),
                has_x=has_x, max_x=draw(st.integers(0, 5)) if has_x else 0))
        order = draw(st.permutations(options))
        return Decision(did, seat, kind, "117.1", actions=tuple(order))
    if kind == "yes_no":
        return Decision(did, seat, kind, "you may", (Choice(1, 0, "yes"), Choice(0, 0, "no")),
                        min=1, max=1)
    if kind == "mulligan":
        return Decision(did, seat, kind, "103.5", (Choice(0, 0, "keep"), Choice(1, 0, "mulligan")),
                        min=1, max=1)
    if kind == "starting_player":
        players = draw(st.integers(2, 4))
        return Decision(did, seat % players, kind, "103.1",
                        tuple(Choice(i, player_ref(i), f"p{i}") for i in range(players)),
                        min=1, max=1)
    if kind == "mulligan_bottom":
        count = draw(st.integers(1, len(_HAND)))
        return Decision(did, seat, kind, "103.5", _HAND, min=count, max=count)
    if kind in ("attackers", "blockers"):
        na = draw(st.integers(0, 6))
        nd = draw(st.integers(1, 3))
        left = _choices(NAMES[:na])
        right = _choices([f"D{j}" for j in range(nd)], 1, na, 500)
        every = [(a, na + d) for a in range(na) for d in range(nd)]
        pairs = draw(st.lists(st.sampled_from(every), unique=True) if every else st.just([]))
        return Decision(did, seat, kind, "508.1/509.1", left + right, min=0, max=na,
                        legal_pairs=tuple(pairs))
    n = draw(st.integers(1, 8))
    choices = _choices(NAMES[:n])
    if kind == "order":
        return Decision(did, seat, kind, "603.3b", choices, min=n, max=n)
    if kind == "divide":
        total = draw(st.integers(0, 12))
        if n < 2 or not draw(st.booleans()):
            return Decision(did, seat, kind, "510.1c", choices, min=0, max=total)
        # 702.19b: blockers first (each with its lethal damage), the attacked player last.
        lethal = tuple((k, draw(st.integers(0, 5))) for k in range(n - 1))
        return Decision(did, seat, kind, "510.1c", choices, min=0, max=total, lethal=lethal)
    lo = draw(st.integers(0, n))
    hi = draw(st.integers(lo, n + 2))
    return Decision(did, seat, kind, "choose", choices, min=lo, max=hi)


@settings(max_examples=400, deadline=None)
@given(decision=decisions(), seed=st.integers(0, 2**64 - 1))
def test_random_bot_answers_generated_decisions_legally(decision: Decision, seed: int) -> None:
    assert_legal(decision, RandomBot(seed).decide(VIEW, decision))


# --------------------------------------------------------------------------- determinism


def _all_hand_built() -> list[Decision]:
    return [d for kind in DECISION_KINDS for d in HAND_BUILT[kind]]


def test_same_seed_same_answers() -> None:
    questions = _all_hand_built() * 5
    for seed in (0, 1, 42, 2**63):
        a, b = RandomBot(seed), RandomBot(seed)
        assert [a.decide(VIEW, d) for d in questions] == [b.decide(VIEW, d) for d in questions]


def test_different_seeds_answer_differently() -> None:
    questions = _all_hand_built() * 5
    answers = {tuple(RandomBot(seed).decide(VIEW, d) for d in questions) for seed in range(10)}
    assert len(answers) == 10


def test_answers_depend_on_the_questions_not_on_the_view() -> None:
    """Its choices depend only on its seed and what it is asked, except its mulligan answers,
    which read the hand in the view (and ``starting_player``, which names its own seat)."""
    deck = load_deck("orzhov", CARDS).cards
    other_view = view_for(new_game(CARDS, [("x", deck), ("y", deck), ("z", deck)], 9), 2)
    questions = [d for d in _all_hand_built()
                 if d.kind not in ("starting_player", "mulligan", "mulligan_bottom")]
    a, b = RandomBot(5), RandomBot(5)
    assert [a.decide(VIEW, d) for d in questions] == [b.decide(other_view, d) for d in questions]


@settings(max_examples=50, deadline=None)
@given(questions=st.lists(decisions(), min_size=1, max_size=20), seed=st.integers(0, 2**64 - 1))
def test_same_seed_same_answers_for_any_questions(questions: list[Decision], seed: int) -> None:
    a, b = RandomBot(seed), RandomBot(seed)
    assert [a.decide(VIEW, d) for d in questions] == [b.decide(VIEW, d) for d in questions]


# --------------------------------------------------------------------------- real games


@functools.cache
def _play(decks: tuple[str, ...], seed: int, bot_seeds: tuple[int, ...]
          ) -> tuple[Game, Counter[str]]:
    """A whole game between RandomBots, every answer checked (cached: tests only read it)."""
    names = [f"p{i}" for i in range(len(decks))]
    game = new_game(CARDS, [(n, load_deck(d, CARDS).cards) for n, d in zip(names, decks,
                                                                              strict=True)], seed)
    bots = [RandomBot(s) for s in bot_seeds]
    kinds: Counter[str] = Counter()

    def answer(decision: Decision) -> Reply:
        kinds[decision.kind] += 1
        reply = bots[decision.player].decide(view_for(game, decision.player), decision)
        assert_legal(decision, reply)
        return reply

    play_sync(game, answer, max_tasks=200_000)
    return game, kinds


GAMES = [
    (("gruul", "orzhov"), 1), (("orzhov", "dimir"), 2), (("dimir", "gruul"), 3),
    (("gruul", "gruul"), 4), (("orzhov", "orzhov"), 5), (("gruul", "dimir", "orzhov"), 6),
]


@pytest.mark.parametrize(("decks", "seed"), GAMES)
def test_random_bots_play_whole_games_legally(decks: tuple[str, ...], seed: int) -> None:
    game, kinds = _play(decks, seed, tuple(seed * 10 + i for i in range(len(decks))))
    assert game.state.game_over
    assert kinds["priority"] > 0


def test_real_games_ask_most_kinds_of_decision() -> None:
    total: Counter[str] = Counter()
    for decks, seed in GAMES:
        total += _play(decks, seed, tuple(seed * 10 + i for i in range(len(decks))))[1]
    assert {"priority", "choose", "attackers", "blockers"} <= set(total)


def test_a_real_game_is_reproducible_from_the_seeds() -> None:
    a, _ = _play(("gruul", "orzhov"), 8, (1, 2))
    b, _ = _play(("gruul", "orzhov"), 8, (1, 2))
    c, _ = _play(("gruul", "orzhov"), 8, (1, 3))
    assert a.state.state_hash() == b.state.state_hash()
    assert a.state.state_hash() != c.state.state_hash()


# --------------------------------------------------------------------------- starting a game


def _hand(lands: int, spells: int) -> tuple[ObjectView, ...]:
    return tuple(ObjectView(100 + i, "Forest" if i < lands else "Grizzly Bears", 0, 0,
                            ("Land",) if i < lands else ("Creature",)) for i in range(lands + spells))


def _view_with(hand: tuple[ObjectView, ...]) -> PlayerView:
    return PlayerView(VIEW.seat, VIEW.turn, VIEW.step, VIEW.active, VIEW.priority, VIEW.players,
                      hand, (), (), ())


@pytest.mark.parametrize(("lands", "spells", "keep"), [
    (0, 7, False), (1, 6, False), (2, 5, True), (3, 4, True), (5, 2, True), (6, 1, False),
    (7, 0, False), (1, 5, False), (2, 4, True), (4, 2, True), (5, 1, False),
    (0, 5, True), (5, 0, True), (1, 3, True), (0, 1, True),
])
def test_it_keeps_a_hand_with_two_lands_and_two_spells_or_five_cards_or_fewer(
        lands: int, spells: int, keep: bool) -> None:
    hand = _hand(lands, spells)
    assert keeps(hand) is keep
    decision = HAND_BUILT["mulligan"][0]
    for seed in range(5):
        assert RandomBot(seed).decide(_view_with(hand), decision) == Answer(81, (0 if keep else 1,))


def test_it_plays_first_when_it_chooses() -> None:
    decision = Decision(7, 1, "starting_player", "103.1",
                        (Choice(0, player_ref(0), "alice"), Choice(1, player_ref(1), "bob")),
                        min=1, max=1)
    view = view_for(new_game(CARDS, [("alice", load_deck("gruul", CARDS).cards),
                                     ("bob", load_deck("gruul", CARDS).cards)], 1), 1)
    assert RandomBot(3).decide(view, decision) == Answer(7, (1,))


@pytest.mark.parametrize(("lands", "spells", "bottom", "lands_left"), [
    # Each card in turn: a land while lands are more than 3/7 of the cards still in hand.
    (6, 1, 2, 4),   # 6 of 7 lands: a land; 5 of 6: a land
    (1, 6, 2, 1),   # 1 of 7, then 1 of 6: spells both times; the one land stays
    (3, 4, 1, 3),   # 3 of 7 is not more than 3/7: a spell
    (4, 3, 3, 2),   # 4 of 7: a land; 3 of 6 (> 18/7): a land; 2 of 5 (< 15/7): a spell
    (0, 7, 2, 0),   # no land to put back: spells
    (7, 0, 2, 5),   # no spell: lands
])
def test_it_bottoms_what_the_hand_has_too_much_of(lands: int, spells: int, bottom: int,
                                                   lands_left: int) -> None:
    hand = _hand(lands, spells)
    choices = tuple(Choice(i, o.id, o.name) for i, o in enumerate(hand))
    decision = Decision(9, 0, "mulligan_bottom", "103.5", choices, min=bottom, max=bottom)
    for seed in range(10):
        reply = RandomBot(seed).decide(_view_with(hand), decision)
        assert_legal(decision, reply)
        assert isinstance(reply, Answer)
        left = [hand[k] for k in range(len(hand)) if k not in reply.keys]
        assert sum("Land" in o.types for o in left) == lands_left


def test_random_bot_turns_a_face_down_permanent_face_up_and_casts_face_down() -> None:
    """116.2b/702.37e: the special action is an option like any other; the Action built from it
    names only the permanent (what ``take_action`` accepts of a ``turn_face_up``); 702.37c: a
    morph option's required cost is named."""
    face_up = ActionOption("turn_face_up", 250, "Exalted Angel")
    morph = ActionOption("cast", 251, "Exalted Angel", required_cost="morph")
    decision = Decision(7, 0, "priority", "117.1", actions=(ActionOption("pass"), face_up, morph))
    actions = Counter(RandomBot(seed).decide(VIEW, decision) for seed in range(200))
    assert set(actions) == {Action("pass"), Action("turn_face_up", 250),
                            Action("cast", 251, costs=("morph",))}
