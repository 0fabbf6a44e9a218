"""Random cast attempts, legal and illegal, across random game states (601.2): an illegal
attempt never changes the state hash (601.2: it is rewound) and leaves priority where it was; a
legal one leaves the object on the stack as the face named, with the costs named and exactly
its total cost paid (601.2f-h), mana and life for Phyrexian symbols counted from the board.

The states come from games between seeded random bots over decks holding the casting cards
(modes, X, division, kicker, flashback, evoke, bestow, Rout's flash, split, Adventure and
modal double-faced cards), so hands and graveyards hold them, boards have lands and creatures
and sometimes a spell is on the stack. The attempts are drawn field by field (which object,
face, modes, costs, X, targets, division, payment, seat), or built from the decision's own
legal options.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from spellstack.bots import RandomBot
from spellstack.cards import load_cards
from spellstack.rules import (
    Action,
    ActionOption,
    Answer,
    CardDefinition,
    CostOption,
    Decision,
    Game,
    IllegalActionError,
    InvalidMessageError,
    Reply,
    Task,
    default_answer,
    legal_actions,
    new_game,
    play_sync,
    priority_decision,
    run_proc,
    take_action,
    view_for,
)
from spellstack.rules.casting import division_total, total_cost
from spellstack.rules.legality import granted_costs
from spellstack.rules.mana import ManaCost
from spellstack.scenarios import build_game

CARDS: Mapping[str, CardDefinition] = load_cards()
CASTING_CARDS = ("Burst Lightning", "Rolling Thunder", "Travel Preparations", "Rout",
                 "Izzet Charm", "Mulldrifter", "Boon Satyr", "Fire // Ice", "Giant Killer",
                 "Shatterskull Smashing")
"""The cards of the casting procedure: two of each in both decks."""
OTHERS = ("Grizzly Bears", "Hill Giant", "Savannah Lions", "Apostle's Blessing",
          "Kitchen Finks", "Lightning Bolt")
"""Creatures to target, a Phyrexian symbol ({W/P}) and hybrid ones ({G/W})."""
DECKS = (
    [*(c for c in CASTING_CARDS for _ in range(2)), *OTHERS,
     *["Mountain"] * 7, *["Island"] * 5, *["Plains"] * 5, *["Forest"] * 2, "Swamp"],
    [*(c for c in CASTING_CARDS for _ in range(2)), *OTHERS,
     *["Forest"] * 7, *["Plains"] * 5, *["Island"] * 3, *["Mountain"] * 4, "Swamp"],
)
"""Ann's deck leans red, blue and white, Ben's green, white and red."""
COST_WORDS = ("kicker", "flashback", "evoke", "bestow", "dash", "flash", "jump-start", "free",
              "nonsense")
"""Names an attempt may give as costs: the kernel's, one no card here has, and one it lacks."""
REFUSED = (IllegalActionError, InvalidMessageError)
SPOILS = ("nothing", "nothing", "X beyond", "a target", "a mode", "the required cost",
          "a cost twice", "the division", "life")
"""What ``from_option`` may spoil in an attempt built from a legal option."""


# --------------------------------------------------------------------------- random states


WHERE = ("any", "can cast", "stack")
"""Which grants of priority a stop counts: every one, those where the player could cast a
spell, those with something on the stack."""


def new_random_game(seed: int) -> tuple[Game, list[RandomBot]]:
    """The game of ``seed`` and its two seeded RandomBots."""
    game = new_game(CARDS, [("Ann", DECKS[0]), ("Ben", DECKS[1])], seed)
    return game, [RandomBot(2 * seed + 1), RandomBot(2 * seed + 2)]


def advance(game: Game, bots: list[RandomBot], grants: int, where: str) -> Decision | None:
    """Let the bots play ``game`` on to its ``grants``-th next grant of priority that
    ``where`` counts (``WHERE``), and make the priority decision there; None if the game ended
    first."""
    seen = [0]

    def stop(g: Game, task: Task) -> bool:
        if task != "priority":
            return False
        if where == "can cast" and all(o.kind != "cast"
                                       for o in legal_actions(g, g.state.priority)):
            return False
        if where == "stack" and not g.state.stack:
            return False
        seen[0] += 1
        return seen[0] > grants

    def answer(decision: Decision) -> Reply:
        return bots[decision.player].decide(view_for(game, decision.player), decision)

    play_sync(game, answer, max_tasks=50_000, until=stop)
    return None if game.state.game_over else priority_decision(game)


# ------------------------------------------------------------------------ measuring payment


@dataclass(frozen=True, slots=True)
class Purse:
    """What a seat could pay with, before a cast: its untapped permanents, its pool, its life."""

    untapped: frozenset[int]
    """The permanents it controls that are untapped."""
    pool: int
    """The mana in its pool."""
    life: int
    """Its life total."""


def purse(game: Game, seat: int) -> Purse:
    """``seat``'s ``Purse`` now."""
    st = game.state
    untapped = frozenset(oid for oid in st.battlefield
                         if not st.objects[oid].tapped and game.controller(st.objects[oid]) == seat)
    return Purse(untapped, sum(st.players[seat].mana.values()), st.players[seat].life)


def symbols_paid(before: Purse, game: Game, seat: int) -> int:
    """How much of a cost ``seat`` paid since ``before``, counted from the board: each
    permanent that was untapped and is now tapped or gone (a Treasure sacrificed) activated
    one mana ability for one mana; the pool paid what it lost; each 2 life paid one Phyrexian
    symbol (107.4f). The mana a cast adds is spent at once, so the pool can only shrink."""
    st = game.state
    activated = sum(1 for oid in before.untapped
                    if oid not in st.objects or st.objects[oid].zone != "battlefield"
                    or st.objects[oid].tapped)
    after = purse(game, seat)
    life = before.life - after.life
    assert life >= 0 and life % 2 == 0, f"{life} life paid: not 2 per Phyrexian symbol"
    return activated + before.pool - after.pool + life // 2


def assert_paid(before: Purse, game: Game, seat: int, cost: ManaCost, x: int) -> None:
    """``seat`` paid exactly ``cost`` with X = ``x`` since ``before``: its mana value (202.3:
    X counts x, a hybrid symbol 1, a Phyrexian symbol 1, paid with mana or 2 life)."""
    paid = symbols_paid(before, game, seat)
    assert paid == cost.mana_value(x), f"paid {paid} for {cost} with X={x} ({cost.mana_value(x)})"


# --------------------------------------------------------------------------- random attempts


def cast_options(decision: Decision) -> list[ActionOption]:
    """The decision's legal ``cast`` options."""
    return [o for o in decision.actions if o.kind == "cast"]


@st.composite
def from_option(draw: st.DrawFn, game: Game, decision: Decision) -> tuple[Action, bool]:
    """An attempt built from one of the decision's legal cast options, as a client would: its
    object, face, modes and required cost, X up to ``max_x``, targets among the candidates,
    a division consistent with X, optional costs; then, sometimes, one thing spoiled (X
    beyond what can be paid, the first target or a mode changed, the required cost left out,
    a cost named twice, a division off by one, X paid with life), so that a refusal comes
    late in the procedure. If ``plain`` (the second item), nothing but the option (X=0, no
    optional cost, few enough targets): the kernel must accept it."""
    option = draw(st.sampled_from(cast_options(decision)))
    face = CARDS[option.face or option.name]
    plain = draw(st.booleans())
    x = 0 if plain or not option.has_x else draw(st.integers(0, option.max_x))
    total = division_total(face.spell, x)
    targets: list[int] = []
    for req in option.targets:
        high = min(req.max, len(req.candidates))
        if option.divide:
            high = min(high, total)
        if high < req.min:
            plain = False
            high = req.min
        n = draw(st.integers(req.min, high))
        pool = [t for t in req.candidates if t not in targets]
        targets += draw(st.permutations(pool))[:n]
    divide: tuple[tuple[int, int], ...] = ()
    if option.divide and len(targets) > 1 and total >= len(targets):
        # Each target gets 1, and the rest goes to the first (601.2d).
        divide = tuple((t, 1 + (total - len(targets) if i == 0 else 0))
                       for i, t in enumerate(targets))
    required = option.required_cost.split("+") if option.required_cost else []
    optional = [] if plain else draw(st.lists(st.sampled_from(option.costs), unique=True)
                                     if option.costs else st.just([]))
    costs = [*required, *optional]
    modes = option.modes
    spoil = "nothing" if plain else draw(st.sampled_from(SPOILS))
    if spoil == "X beyond":
        x = option.max_x + draw(st.integers(1, 3))
        if divide:
            divide = ((divide[0][0], divide[0][1] + x - option.max_x), *divide[1:])
    elif spoil == "a target" and targets:
        targets[0] = draw(st.sampled_from(sorted({*game.state.objects, 1, 2} - {targets[0]})))
    elif spoil == "a mode" and modes:
        modes = (draw(st.integers(1, 3)),)
    elif spoil == "the required cost" and required:
        costs = optional
    elif spoil == "a cost twice" and costs:
        costs.append(costs[0])
    elif spoil == "the division" and divide:
        divide = ((divide[0][0], divide[0][1] + 1), *divide[1:])
    elif spoil == "life":
        pay_as: tuple[str, ...] = ("life",)
    action = Action("cast", option.object_id, targets=tuple(targets), x=x, divide=divide,
                    pay_as=pay_as if spoil == "life" else (), face=option.face, modes=modes,
                    costs=tuple(costs))
    return action, plain


@st.composite
def from_fields(draw: st.DrawFn, game: Game, seat: int) -> Action:
    """An attempt drawn field by field, mostly illegal: an object from the seat's hand,
    graveyard or exile, the opponent's hand, the battlefield or stack, or no object at all;
    a face of it or not; modes in range or out, once or twice; any costs; X from 0 to 8;
    targets among every object and player, or none, sometimes twice; a division that adds up
    to the spell's amount or not; automatic payment, or named lands and ``pay_as`` words."""
    st_ = game.state
    me, other = st_.players[seat], st_.players[1 - seat]
    zones = {"hand": me.hand, "graveyard": me.graveyard, "exile": st_.exile,
             "library": me.library[:3], "their library": other.library[:1],
             "their hand": other.hand, "their graveyard": other.graveyard,
             "battlefield": st_.battlefield, "stack": st_.stack}
    zone = draw(st.sampled_from([*(z for z, ids in zones.items() if ids), "nowhere"]))
    if zone == "nowhere":
        oid = draw(st.sampled_from([max(st_.objects) + 1, max(st_.objects) + 50, 99, 0, -5,
                                    2**63]))
    else:
        oid = draw(st.sampled_from(zones[zone]))
    card = CARDS.get(st_.objects[oid].name) if oid in st_.objects else None
    faces = [*(card.faces if card is not None else ()), *([card.name] if card else [])]
    face = draw(st.sampled_from(["", "", *faces, "Nonsense", "Fire // Ice"]))
    n_modes = 3  # Izzet Charm's; no spell here has more
    modes = draw(st.sampled_from([(), (), (1,), (2,), (3,), (0,), (n_modes + 1,), (1, 1),
                                  (1, 2)]))
    costs = tuple(draw(st.lists(st.sampled_from(COST_WORDS), max_size=3)))
    x = draw(st.integers(0, 8))
    refs = sorted({*st_.battlefield, *st_.stack, *me.hand, *me.graveyard, *other.graveyard,
                   1, 2})
    targets = draw(st.lists(st.sampled_from([*refs, 3, 0]) | st.sampled_from([1, 2]),
                            max_size=3))
    if targets and draw(st.booleans()):
        targets.append(targets[0])  # the same target twice
    how = draw(st.sampled_from(["none", "consistent", "random"]))
    divide: tuple[tuple[int, int], ...] = ()
    if how == "consistent" and targets:
        share, rest = divmod(max(x, len(targets)), len(targets))
        divide = tuple((t, share + (rest if i == 0 else 0)) for i, t in enumerate(targets))
    elif how == "random":
        divide = tuple(draw(st.lists(st.tuples(st.sampled_from(targets or [1]),
                                               st.integers(-1, 9)), max_size=3)))
    mine = [o for o in st_.battlefield if game.controller(st_.objects[o]) == seat]
    pay = tuple(draw(st.lists(st.sampled_from(mine), max_size=4))) if mine and draw(
        st.integers(0, 3)) == 0 else ()
    pay_as = draw(st.sampled_from([(), (), (), ("life",), ("W",), ("R", "R"), ("zz",)]))
    return Action("cast", oid, targets=tuple(targets), x=x, divide=divide, pay=pay,
                  pay_as=pay_as, face=face, modes=modes, costs=costs)


# --------------------------------------------------------------------------- the property


def expected_total(face: CardDefinition, chosen: tuple[CostOption, ...], x: int) -> int:
    """601.2f worked out from the card, apart from ``total_cost``: the mana value of the
    alternative cost named (118.9) or else the mana cost, plus each additional cost named
    (118.8), with X = ``x``."""
    alternatives = [o.mana_cost for o in chosen if o.kind == "alternative"]
    assert len(alternatives) <= 1  # 118.9a
    base = alternatives[0] if alternatives else face.mana_cost or ManaCost(())
    return base.mana_value(x) + sum(o.mana_cost.mana_value(x) for o in chosen
                                    if o.kind == "additional")


def check_attempt(game: Game, seat: int, action: Action) -> str:
    """Try ``action`` for ``seat``; assert what a refusal or a cast must leave; return what
    happened: ``cast: <face> <costs>`` or ``refused: <rule>``."""
    st_ = game.state
    before_hash = st_.state_hash()
    priority, cycle = st_.priority, st_.cycle
    other = st_.players[1 - seat].canonical()
    obj = st_.objects.get(action.object_id)
    card, name = (obj.card, obj.name) if obj is not None else (0, "")
    zone = obj.zone if obj is not None else "nowhere"
    before = purse(game, seat)
    face_name = action.face or name
    # The costs the card may be cast with where it is: its own and those an effect gives it
    # there (601.3e: Lier's flashback, Niv-Mizzet's jump-start), looked up before it moves.
    known = CARDS.get(face_name)
    offered = {o.name: o for o in (*(known.cost_options if known else ()),
                                   *(granted_costs(game, seat, obj, known)
                                     if obj is not None and known else ()))}
    hand = len(st_.players[seat].hand)
    try:
        rest = take_action(game, seat, action)
    except REFUSED as err:
        assert st_.state_hash() == before_hash, f"{action} was refused ({err}) but changed the state"
        assert (st_.priority, st_.cycle) == (priority, cycle)
        return f"refused: {str(err).split(':', 1)[0]}"
    assert obj is not None, f"{action} cast no object"
    if rest is not None:  # 702.133a: jump-start's discard is asked: the first card is discarded
        assert "jump-start" in action.costs
        run_proc(rest, lambda d: Answer(d.id, (d.choices[0].key,)))
    if "jump-start" in action.costs:  # one card discarded, asked or not (601.2h)
        assert len(st_.players[seat].hand) == hand - 1
    spell = next(st_.objects[i] for i in st_.stack if st_.objects[i].card == card)
    assert (spell.card, spell.name, spell.zone) == (card, face_name, "stack")
    assert spell.controller == seat
    assert (spell.x, spell.modes) == (action.x, tuple(sorted(action.modes)))
    assert spell.cast_costs == action.costs
    face = CARDS[face_name]
    chosen = tuple(o for c in action.costs if (o := offered.get(c)) is not None)
    assert len(chosen) == len(action.costs)
    cost = total_cost(face, chosen)
    assert cost.mana_value(action.x) == expected_total(face, chosen, action.x)
    assert_paid(before, game, seat, cost, action.x)
    assert (st_.priority, st_.cycle) == (seat, "check")  # 117.3c
    assert st_.players[1 - seat].canonical() == other
    return f"cast: {' '.join((face_name, *action.costs))} from the {zone}"


def attempts_at(game: Game, decision: Decision, data: st.DataObject) -> Game:
    """Random cast attempts at ``decision`` (mostly by the seat it asks, sometimes by the
    other), each checked (``check_attempt``); after a cast, the next attempt is made in the
    state as it was, in a fresh game. Returns the game in that state."""
    pristine = copy.deepcopy(game.state)
    seat = decision.player
    options = cast_options(decision)
    for _ in range(data.draw(st.integers(2, 8), label="attempts")):
        who = data.draw(st.sampled_from([seat] * 5 + [1 - seat]), label="seat")
        plain = False
        if options and data.draw(st.integers(0, 2), label="from an option") > 0:
            action, plain = data.draw(from_option(game, decision), label="option attempt")
        else:
            action = data.draw(from_fields(game, who), label="field attempt")
        outcome = check_attempt(game, who, action)
        event(outcome)
        cast = outcome.startswith("cast")
        assert cast or not (plain and who == seat), f"{action}: a plain legal option was refused"
        if cast:
            game = Game(copy.deepcopy(pristine), CARDS)
            assert game.state.state_hash() == pristine.state_hash()
    return game


@pytest.mark.slow
@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32),
       stops=st.lists(st.tuples(st.integers(0, 12), st.sampled_from((*WHERE, "can cast"))), min_size=1,
                      max_size=5),
       data=st.data())
def test_cast_attempts_are_rewound_or_pay_exactly_their_total_cost(
        seed: int, stops: list[tuple[int, str]], data: st.DataObject) -> None:
    game, bots = new_random_game(seed)
    for grants, where in stops:  # a few states along one game
        decision = advance(game, bots, grants, where)
        if decision is None:
            return
        event(f"state: {where}, {'a spell on the stack' if game.state.stack else 'empty stack'}")
        game = attempts_at(game, decision, data)


# ------------------------------------------------------------------ the measure can fail


def game_with(alice: dict[str, list[str]], bob: dict[str, list[str]] | None = None,
              step: str = "precombat_main") -> Game:
    """A game set up as a scenario would be, at its first grant of priority, asked."""
    game, _ = build_game({"players": ["alice", "bob"], "step": step, "alice": alice,
                          "bob": bob or {}}, 0, CARDS, "test")
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    priority_decision(game)
    return game


def test_the_measure_tells_the_kicked_total_from_the_printed_cost() -> None:
    game = game_with({"hand": ["Burst Lightning"], "battlefield": ["Mountain"] * 6})
    bolt = game.state.players[0].hand[0]
    before = purse(game, 0)
    assert "cast" in check_attempt(game, 0, Action("cast", bolt, targets=(2,), costs=("kicker",)))
    assert symbols_paid(before, game, 0) == 5
    burst = CARDS["Burst Lightning"]
    assert burst.mana_cost is not None
    with pytest.raises(AssertionError, match=r"paid 5 for \{R\} with X=0 \(1\)"):
        assert_paid(before, game, 0, burst.mana_cost, 0)


def test_the_measure_counts_pool_mana_x_and_two_life_per_phyrexian_symbol() -> None:
    game = game_with({"hand": ["Apostle's Blessing"],
                      "battlefield": ["Plains", "Grizzly Bears"]})
    blessing = game.state.players[0].hand[0]
    bears = game.state.battlefield[-1]
    game.state.players[0].mana = {"R": 2}
    before = purse(game, 0)
    assert "cast" in check_attempt(game, 0, Action("cast", blessing, targets=(bears,), pay_as=("life",)))
    assert game.state.players[0].life == 18
    assert symbols_paid(before, game, 0) == 2  # {1} from the pool, {W/P} with 2 life
    with pytest.raises(AssertionError, match="paid 2"):
        assert_paid(before, game, 0, ManaCost(()), 0)
    game = game_with({"hand": ["Rolling Thunder"], "battlefield": ["Mountain"] * 5})
    thunder = game.state.players[0].hand[0]
    before = purse(game, 0)
    assert "cast" in check_attempt(game, 0, Action("cast", thunder, targets=(2,), x=3))
    with pytest.raises(AssertionError, match=r"paid 5 for \{X\}\{R\}\{R\} with X=2"):
        assert_paid(before, game, 0, CARDS["Rolling Thunder"].mana_cost or ManaCost(()), 2)


@pytest.mark.parametrize(("zone", "card", "costs", "paid"), [
    ("graveyard", "Travel Preparations", ("flashback",), 2),
    ("hand", "Mulldrifter", ("evoke",), 3),
    ("hand", "Boon Satyr", ("bestow",), 5),
    ("hand", "Rout", ("flash",), 7),
    ("hand", "Izzet Charm", (), 2),
])
def test_each_cost_option_pays_its_total(zone: str, card: str, costs: tuple[str, ...],
                                         paid: int) -> None:
    lands = ["Plains"] * 3 + ["Island"] * 2 + ["Forest"] * 2 + ["Mountain"]
    instant = card in ("Boon Satyr", "Rout", "Izzet Charm")  # flash, Rout's flash, an instant
    game = game_with({zone: [card], "battlefield": [*lands, "Grizzly Bears"]}, {},
                     "upkeep" if instant else "precombat_main")
    oid = getattr(game.state.players[0], zone)[0]
    bears = game.state.battlefield[-1]
    targets = {"Boon Satyr": (bears,), "Travel Preparations": (bears,)}.get(card, ())
    modes = (3,) if card == "Izzet Charm" else ()
    before = purse(game, 0)
    outcome = check_attempt(game, 0, Action("cast", oid, targets=targets, modes=modes,
                                            costs=costs))
    assert outcome == f"cast: {' '.join((card, *costs))} from the {zone}"
    assert symbols_paid(before, game, 0) == paid


# ------------------------------------------------------------------ casting from every zone

PERMITTERS = ("Lier, Disciple of the Drowned", "Niv-Mizzet, Supreme", "Garruk's Horde",
              "Melek, Izzet Paragon", "Future Sight")
"""Permanents that let cards be cast from a graveyard or the top of a library (601.3)."""
ELSEWHERE = ("Squee, the Immortal", "Crime // Punishment", "Fire // Ice", "Giant Killer",
             "Travel Preparations", "Lightning Bolt", "Grizzly Bears", "Izzet Charm",
             "Burst Lightning", "Rolling Thunder", "Mulldrifter", "Forest")
"""Cards to put in graveyards, exile and libraries: ones a permission or their own text lets
be cast there, and ones nothing does."""


@st.composite
def zones_state(draw: st.DrawFn) -> dict[str, object]:
    """A scenario setup for alice, in her main phase: lands of every colour, some of
    ``PERMITTERS`` on the battlefield, and random cards in her graveyard, exile, library and
    hand; bob has creatures and a library."""
    cards = st.lists(st.sampled_from(ELSEWHERE), max_size=4)
    return {
        "players": ["alice", "bob"],
        "alice": {"battlefield": [*draw(st.lists(st.sampled_from(PERMITTERS), unique=True,
                                                  max_size=3)),
                                  *["Plains", "Island", "Swamp", "Mountain", "Forest"] * 2],
                  "graveyard": draw(cards), "exile": draw(cards),
                  "library": [*draw(cards), "Island"], "hand": draw(cards)},
        "bob": {"battlefield": ["Grizzly Bears", "Hill Giant"], "library": ["Forest"],
                "graveyard": draw(st.lists(st.sampled_from(ELSEWHERE), max_size=2))},
    }


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(setup=zones_state(), data=st.data())
@pytest.mark.slow
def test_cast_attempts_from_every_zone_are_rewound_or_pay_exactly_their_total_cost(
        setup: dict[str, object], data: st.DataObject) -> None:
    """The property above where cards lie in graveyards, exile and libraries with permissions
    in play (601.3, 601.3e): from the hand, a graveyard (flashback of its own or Lier's,
    jump-start, Squee), exile (Squee, an Adventure's creature) and the top of a library
    (Garruk's Horde, Melek, Future Sight), legal and illegal attempts alike."""
    game, _ = build_game(setup, 0, CARDS, "property")
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    decision = priority_decision(game)
    zones = sorted({game.state.objects[o.object_id].zone for o in cast_options(decision)})
    event(f"castable from: {', '.join(zones) or 'nowhere'}")
    attempts_at(game, decision, data)


def test_the_zones_property_reaches_every_zone() -> None:
    """The states of the property above offer casts from each zone, with the permissions and
    costs it means to test (so that it can't check less than it names)."""
    game, _ = build_game({
        "players": ["alice", "bob"],
        "alice": {"battlefield": ["Lier, Disciple of the Drowned", "Niv-Mizzet, Supreme",
                                  "Melek, Izzet Paragon",
                                  *["Plains", "Island", "Swamp", "Mountain", "Forest"] * 2],
                  "graveyard": ["Travel Preparations", "Crime // Punishment", "Squee, the Immortal"],
                  "exile": ["Squee, the Immortal"], "library": ["Lightning Bolt", "Island"],
                  "hand": ["Forest"]},
        "bob": {"battlefield": ["Grizzly Bears"], "library": ["Forest"],
                "graveyard": ["Hill Giant"]}}, 0, CARDS, "property")
    play_sync(game, default_answer, max_tasks=20, until=lambda g, task: task == "priority")
    options = cast_options(priority_decision(game))
    st_ = game.state
    seen = {(st_.objects[o.object_id].zone, o.face or o.name, o.required_cost) for o in options}
    assert ("graveyard", "Travel Preparations", "flashback") in seen
    assert ("graveyard", "Punishment", "jump-start") in seen
    assert ("graveyard", "Crime", "flashback") in seen  # Lier's, for the split card's half
    assert ("graveyard", "Squee, the Immortal", "") in seen
    assert ("exile", "Squee, the Immortal", "") in seen
    assert ("library", "Lightning Bolt", "") in seen


@pytest.mark.parametrize("hand", [["Forest"], ["Forest", "Island"]])
def test_a_jump_start_cast_pays_its_discard_asked_or_not(hand: list[str]) -> None:
    # 702.133a: with one card in hand it is discarded without a question; with two the caster
    # is asked (``check_attempt`` answers with the first) — one card goes either way.
    game = game_with({"battlefield": ["Niv-Mizzet, Supreme", "Swamp", "Forest", "Mountain"],
                      "graveyard": ["Crime // Punishment"], "hand": hand})
    oid = game.state.players[0].graveyard[0]
    outcome = check_attempt(game, 0, Action("cast", oid, face="Punishment", x=1,
                                            costs=("jump-start",)))
    assert outcome == "cast: Punishment jump-start from the graveyard"
    assert len(game.state.players[0].hand) == len(hand) - 1
    assert len(game.state.players[0].graveyard) == 1  # the card discarded
