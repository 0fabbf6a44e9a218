"""Casting spells (601), activating abilities (602, 605), playing lands (305), and the list of
actions legal now (117.1).

Every action is checked completely before anything changes, so an illegal one leaves the
state, and its hash, exactly as they were (601.2: an illegal attempt is rewound).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ._attachments import spell_target_specs
from ._characteristics import Characteristics, add_counters
from ._decisions import Action, ActionOption, TargetRequirement, new_action_option, new_target_requirement
from ._definitions import ActivatedAbility, CardDefinition, TargetSpec
from ._effects import EffectContext, run_effects
from ._errors import IllegalActionError
from ._game import Game
from ._mana import ManaCost, ManaSource, ManaSupply, Payment, plan_payment, spend
from ._restrictions import (
    cast_permitted_from,
    cast_refusal,
    flash_permitted,
    has_permissions,
    play_land_refusal,
)
from ._state import GameObject
from ._targets import for_caster, group_ok, is_legal_target, target_candidates, target_prompt
from ._view import builder
from ._visibility import ref_visible_to
from ._zones import lose_life, move_object

__all__ = [
    "CAN_ACT",
    "ONLY_PASS",
    "ONLY_PASS_NUMBERED",
    "activate_ability",
    "cast_spell",
    "legal_actions",
    "mana_sources",
    "numbers_automatic_pass",
    "only_pass_possible",
    "pass_test",
    "play_land",
    "where",
]

MAIN_STEPS = ("precombat_main", "postcombat_main")


def where(game: Game) -> str:
    """Where the game stands, for error messages."""
    st = game.state
    holder = st.players[st.priority].name if 0 <= st.priority < len(st.players) else "nobody"
    return (f"turn {st.turn}, {st.players[st.active].name}'s {st.step}, {holder} has priority, "
            f"stack size {len(st.stack)}")


def _fail(game: Game, rule: str, what: str) -> IllegalActionError:
    return IllegalActionError(f"{rule}: {what} ({where(game)})")


def _sorcery_timing(game: Game, seat: int) -> bool:
    """307.1: main phase of your turn with an empty stack."""
    st = game.state
    return st.active == seat and st.step in MAIN_STEPS and not st.stack


def _tap_mana(game: Game, obj: GameObject) -> tuple[str, ...] | None:
    """The mana types the permanent's first {T}-only mana ability adds, or None if it has none
    (the abilities it has now: layer 6)."""
    for _, _, ab in game.layer_cache[obj.id].activated:
        if ab.tap_mana is not None:
            return ab.tap_mana
    return None


def _can_tap(game: Game, obj: GameObject) -> bool:
    """302.6: a creature's {T} abilities need it under control since the turn began."""
    if obj.tapped:
        return False
    if not obj.sick:
        return True
    c = game.layer_cache[obj.id]
    return "Creature" not in c.card_types or "haste" in c.keywords


@dataclass(frozen=True, slots=True)
class SeatBoard:
    """One seat's permanents in one epoch, as ``pass_test``, ``mana_sources`` and the cache keys
    read them: which permanents there are, who controls them, what they can tap for and what
    abilities they have change only with the epoch (613, ``Game.changed``); what is tapped or
    summoning sick is read afresh."""

    epoch: int
    """The epoch it describes."""
    permanents: tuple[int, ...]
    """The permanents the seat controls, in the order they entered."""
    mana: tuple[tuple[int, ManaSource, bool], ...]
    """Each {T}-only mana ability: the permanent, the source, and whether it is a creature
    without haste (302.6: summoning sickness stops it); lands first, then other permanents."""
    lands: int
    """How many of ``mana`` are lands'."""
    activator: bool
    """Whether one of them has an activated ability other than a mana ability (602.1, 605.1a)."""
    permissions: bool
    """Whether any permission applies in the game (``has_permissions``)."""


@dataclass(frozen=True, slots=True)
class PermanentFacts:
    """What ``SeatBoard`` reads of one permanent's characteristics (613): the same for the same
    ``Characteristics`` object (permanents no effect touches share theirs between epochs)."""

    characteristics: Characteristics
    """The characteristics it was read from."""
    mana: tuple[int, ManaSource, bool] | None
    """Its first {T}-only mana ability (``_tap_mana``) as a ``SeatBoard.mana`` entry, or None."""
    land: bool
    """Whether it is a land."""
    activator: bool
    """Whether it has an activated ability other than a mana ability (602.1, 605.1a)."""


# ``builder``: a board is made for every seat at each epoch, hand facts at each change of a hand.
_new_seat_board: Callable[..., SeatBoard] = builder(SeatBoard)
_new_permanent_facts: Callable[..., PermanentFacts] = builder(PermanentFacts)


def _permanent_facts(oid: int, c: Characteristics) -> PermanentFacts:
    produces = None  # ``_tap_mana``: the first {T}-only mana ability's mana
    activator = False
    for _, _, ab in c.activated:
        if not ab.is_mana_ability:
            activator = True
        elif produces is None and ab.tap_mana is not None:
            produces = ab.tap_mana
    sickness = "Creature" in c.card_types and "haste" not in c.keywords  # 302.6
    mana = None if produces is None else (oid, ManaSource(oid, produces), sickness)
    return _new_permanent_facts(c, mana, "Land" in c.card_types, activator)


def _seat_board(game: Game, seat: int) -> SeatBoard:
    """``SeatBoard`` for ``seat`` now, kept while the epoch is the same (made for every seat at
    once: one look at the battlefield). When the only change since the last ones is a permanent
    entering (the usual new epoch), or none, they are brought up to date rather than made
    afresh."""
    board = game.seat_boards.get(seat)
    if board is not None and board.epoch == game.epoch:
        return board
    st = game.state
    battlefield = st.battlefield
    n = len(st.players)
    boards = game.seat_boards
    characteristics = list(map(game.layer_cache.__getitem__, battlefield))  # 613
    basis = game.board_basis
    if basis is not None and len(boards) == n:
        ids, before = basis
        k = len(ids)
        if len(battlefield) == k + 1 and battlefield[:k] == ids and characteristics[:k] == before:
            game.board_basis = (list(battlefield), characteristics)
            return _board_entered(game, seat, battlefield[k], characteristics[k])
        if battlefield == ids and characteristics == before:
            permissions = has_permissions(game)
            for s in range(n):
                b = boards[s]
                boards[s] = _new_seat_board(game.epoch, b.permanents, b.mana, b.lands, b.activator,
                                      permissions)
            return boards[seat]
    game.board_basis = (list(battlefield), characteristics)
    permanents: list[list[int]] = [[] for _ in range(n)]
    lands: list[list[tuple[int, ManaSource, bool]]] = [[] for _ in range(n)]
    others: list[list[tuple[int, ManaSource, bool]]] = [[] for _ in range(n)]
    activator = [False] * n
    known = game.permanent_facts
    facts: dict[int, PermanentFacts] = {}
    for oid, c in zip(battlefield, characteristics, strict=True):
        f = known.get(oid)
        if f is None or f.characteristics is not c:
            f = _permanent_facts(oid, c)
        facts[oid] = f
        controller = c.controller
        permanents[controller].append(oid)
        if f.activator:
            activator[controller] = True
        if f.mana is not None:
            (lands if f.land else others)[controller].append(f.mana)
    game.permanent_facts = facts
    permissions = has_permissions(game)
    for s in range(n):
        boards[s] = _new_seat_board(game.epoch, tuple(permanents[s]), tuple(lands[s] + others[s]),
                              len(lands[s]), activator[s], permissions)
    return boards[seat]


def _board_entered(game: Game, seat: int, oid: int, c: Characteristics) -> SeatBoard:
    """The seats' boards after permanent ``oid`` (with characteristics ``c``) entered the
    battlefield, last, and nothing else about the others changed."""
    f = game.permanent_facts[oid] = _permanent_facts(oid, c)
    permissions = has_permissions(game)
    boards = game.seat_boards
    for s in range(len(game.state.players)):
        b = boards[s]
        if s != c.controller:
            boards[s] = _new_seat_board(game.epoch, b.permanents, b.mana, b.lands, b.activator,
                                  permissions)
            continue
        mana, lands = b.mana, b.lands
        if f.mana is not None:  # lands first, then other permanents, each in entering order
            if f.land:
                mana, lands = (*mana[:lands], f.mana, *mana[lands:]), lands + 1
            else:
                mana = (*mana, f.mana)
        boards[s] = _new_seat_board(game.epoch, (*b.permanents, oid), mana, lands,
                              b.activator or f.activator, permissions)
    return boards[seat]


def mana_sources(game: Game, seat: int, only: tuple[int, ...] = ()) -> list[ManaSource]:
    """The {T} mana abilities ``seat`` could activate now: lands first, then other permanents,
    each in the order they entered (the scenario format's automatic payment rule). With
    ``only``: exactly those permanents, in that order."""
    st = game.state
    if only:
        if len(set(only)) != len(only):
            raise _fail(game, "601.2g", f"a permanent is named twice in {list(only)!r}: each "
                        "mana ability is activated once")
        out = []
        for oid in only:
            obj = st.objects.get(oid)
            if obj is None or obj.zone != "battlefield" or game.controller(obj) != seat:
                raise _fail(game, "601.2g", f"#{oid} is not a permanent you control")
            produces = _tap_mana(game, obj)
            if produces is None or not _can_tap(game, obj):
                raise _fail(game, "601.2g", f"{_visible_name(game, oid, seat)} has no mana ability you can "
                            "activate now")
            out.append(ManaSource(oid, produces))
        return out
    objects = st.objects
    out = []
    for oid, source, sickness in _seat_board(game, seat).mana:
        obj = objects[oid]
        if not obj.tapped and not (sickness and obj.sick):  # 302.6
            out.append(source)
    return out


def _plan(game: Game, seat: int, cost: ManaCost, x: int, action: Action,
          exclude: int = 0) -> Payment:
    """601.2g/h: find how to pay; raise if the player can't. ``exclude``: a permanent whose {T}
    is already part of the cost."""
    p = game.state.players[seat]
    sources = [s for s in mana_sources(game, seat, action.pay) if s.source_id != exclude]
    try:
        plan = plan_payment(cost, x, p.mana, sources, pay_as=action.pay_as or None,
                            life_available=p.life)
    except ValueError as err:
        raise _fail(game, "601.2h", str(err)) from None
    if plan is None:
        raise _fail(game, "601.2h", f"{p.name} can't pay {cost}" + (f" with X={x}" if x else ""))
    return plan


def _pay(game: Game, seat: int, plan: Payment) -> None:
    """601.2g/h: activate the mana abilities, then pay from the pool and with life. The mana
    the abilities add is spent at once on the cost, so the pool keeps only what was in it
    before, less ``plan.from_pool``."""
    st = game.state
    p = st.players[seat]
    for oid, _mana in plan.activations:
        st.objects[oid].tapped = True
    if plan.from_pool or p.mana:  # an empty pool, nothing spent from it: it stays empty
        p.mana = {k: v for k, v in spend(p.mana, plan).items() if v}
    if plan.life:
        lose_life(game, seat, plan.life)


def _visible_name(game: Game, ref: int, seat: int) -> str:
    """A ref as ``seat`` may know it (``ref_visible_to``, 400.2): ``Name (#N)``, or ``#N`` alone
    for an id hidden from them now or when it last existed, exactly as for an id that never
    existed, so an error text neither names nor identifies a hidden card."""
    if not ref_visible_to(game, seat, ref):
        return f"#{ref}"
    return f"{game.ref_name(ref, seat)} (#{ref})"


def _split_targets(game: Game, specs: tuple[TargetSpec, ...], targets: tuple[int, ...],
                   seat: int, source_id: int, what: str,
                   source: GameObject | None = None) -> tuple[int, ...]:
    """601.2c: match the chosen targets, in order, to the requirements in order; each target
    must be legal for its requirement and one requirement never names the same object twice
    (115.3). Returns the group sizes: the first split that works, earlier requirements taking
    as many as they can. If none works, the error names the first target that fits nowhere.
    ``source_id``: the spell being cast, which can't target itself (115.5); 0 for an ability."""

    def fits(spec: TargetSpec, group: tuple[int, ...]) -> bool:
        return len(set(group)) == len(group) and group_ok(game, spec, group) and all(
            t != source_id and is_legal_target(game, spec, t, seat, source) for t in group)

    specs = tuple(for_caster(game, spec, seat, source) for spec in specs)

    def split(k: int, i: int) -> list[int] | None:
        if k == len(specs):
            return [] if i == len(targets) else None
        spec = specs[k]
        for size in range(min(spec.max, len(targets) - i), spec.min - 1, -1):
            if fits(spec, targets[i:i + size]):
                rest = split(k + 1, i + size)
                if rest is not None:
                    return [size, *rest]
        return None

    groups = split(0, 0)
    if groups is not None:
        return tuple(groups)
    # Explain: the longest prefix the greedy reading accepts, then what broke it.
    i = 0
    for spec in specs:
        taken = 0
        while (i < len(targets) and taken < spec.max
               and fits(spec, targets[i - taken:i + 1])):
            taken += 1
            i += 1
        if taken < spec.min:
            if i < len(targets):
                raise _fail(game, "601.2c", f"{_visible_name(game, targets[i], seat)} is not a "
                            f"legal {target_prompt(spec)}")
            raise _fail(game, "601.2c", f"{what} needs {target_prompt(spec)}")
    bad = targets[min(i, len(targets) - 1)] if targets else 0
    raise _fail(game, "601.2c", f"{_visible_name(game, bad, seat)} is not a legal target for "
                f"{what}")


def _spell_targets(defn: CardDefinition) -> tuple[TargetSpec, ...]:
    return spell_target_specs(defn)


def _instant_speed(game: Game, seat: int, obj: GameObject, defn: CardDefinition) -> bool:
    """307.1/702.8a: an instant, a spell with flash, or one an effect lets ``seat`` cast as
    though it had flash (Sigarda's Aid)."""
    c = game.layer_cache[obj.id]
    return ("Instant" in c.card_types or "flash" in c.keywords
            or flash_permitted(game, seat, obj))


def cast_spell(game: Game, seat: int, action: Action) -> GameObject:
    """601.2: cast a spell from hand: announce, choose X and targets, pay; returns the spell."""
    st = game.state
    obj = st.objects.get(action.object_id)
    if obj is None or obj.zone == "stack" or not cast_permitted_from(game, seat, obj):
        raise _fail(game, "601.2a", f"object #{action.object_id} is not a card in "
                    f"{st.players[seat].name}'s hand")
    defn = game.cards[obj.name]
    if game.is_type(obj, "Land"):
        raise _fail(game, "305.9", f"{obj.name} is a land: it is played, not cast")
    if not _instant_speed(game, seat, obj, defn) and not _sorcery_timing(game, seat):
        raise _fail(game, "307.1", f"{obj.name} can be cast only in your main phase with an "
                    "empty stack")
    cost = game.characteristics(obj).mana_cost or ManaCost(())
    if action.x < 0 or (action.x and not cost.has_x):
        raise _fail(game, "601.2b", f"X={action.x} is not allowed for {obj.name}")
    groups = _split_targets(game, _spell_targets(defn), action.targets, seat, obj.id, obj.name,
                            obj)
    why = cast_refusal(game, seat, obj, action.x)
    if why is not None:  # 601.2e: the proposed spell is illegal; 101.2: "can't" wins
        raise _fail(game, "101.2", f"{why}; {obj.name} can't be cast")
    plan = _plan(game, seat, cost, action.x, action)
    # Everything is legal: now it happens (601.2a-h), then the spell becomes cast (601.2i).
    spell = move_object(game, obj.id, "stack", controller=seat)
    spell.targets = action.targets
    spell.target_groups = groups
    spell.x = action.x
    _pay(game, seat, plan)
    if game.logging():
        tgt = (" targeting " + ", ".join(game.ref_name(t) for t in action.targets)
               if action.targets else "")
        game.log("cast", f"{st.players[seat].name} casts {spell.name}{tgt}", player=seat,
                 subject=spell.id)
    return spell


def _activated(game: Game, seat: int, action: Action) -> tuple[GameObject, ActivatedAbility, str, int]:
    """The permanent, the ability (among those it has now, layer 6), the definition it is
    printed on and its index there."""
    st = game.state
    obj = st.objects.get(action.object_id)
    if obj is None or obj.zone != "battlefield" or game.controller(obj) != seat:
        raise _fail(game, "602.2", f"object #{action.object_id} is not a permanent "
                    f"{st.players[seat].name} controls")
    abilities = game.activated(obj)
    if not 1 <= action.ability <= len(abilities):
        raise _fail(game, "602.2", f"{obj.name} has no activated ability {action.ability}")
    name, index, ab = abilities[action.ability - 1]
    return obj, ab, name, index


def activate_ability(game: Game, seat: int, action: Action) -> GameObject | None:
    """602.2: activate an ability; a mana ability resolves at once (605.3a) and returns None."""
    st = game.state
    obj, ab, ab_name, ab_index = _activated(game, seat, action)
    if ab.tap and not _can_tap(game, obj):
        raise _fail(game, "602.5a", f"{obj.name} can't be tapped to pay {{T}} now")
    if ab.sorcery_speed and not _sorcery_timing(game, seat):
        raise _fail(game, "602.5d", f"{obj.name}'s ability can be activated only as a sorcery")
    if action.x and not ab.mana_cost.has_x:
        raise _fail(game, "601.2b", f"X={action.x} is not allowed for {obj.name}'s ability")
    for kind, n in ab.remove_counters:
        if obj.counters.get(kind, 0) < n:
            raise _fail(game, "118.3", f"{obj.name} has fewer than {n} {kind} counter(s) to remove")
    # 115.5: an ability can't target itself, but it may target its own source (no exclusion).
    groups = _split_targets(game, ab.targets, action.targets, seat, 0, obj.name, obj)
    plan = _plan(game, seat, ab.mana_cost, action.x, action, obj.id if ab.tap else 0)
    _pay(game, seat, plan)
    if ab.tap:
        obj.tapped = True
    for kind, n in ab.remove_counters:  # 602.2b: a cost paid along with the mana
        add_counters(game, obj, kind, -n)
    if ab.is_mana_ability:
        ctx = EffectContext(game, obj, seat, obj, (), action.x, 0, ab.position)
        for _ in run_effects(ctx, ab.effects):  # mana abilities never ask anything
            raise AssertionError("a mana ability asked a question")
        return None
    oid = st.new_id()
    stack_obj = GameObject(
        id=oid, card=0, name=ab_name, owner=seat, controller=seat, zone="stack",
        timestamp=st.new_timestamp(), ability_index=ab_index, ability_kind="activated",
        source_id=obj.id, targets=action.targets, target_groups=groups, x=action.x,
    )
    st.objects[oid] = stack_obj
    st.stack.append(oid)
    game.log("activate", f"{st.players[seat].name} activates {obj.name}", player=seat,
             subject=oid)
    return stack_obj


def play_land(game: Game, seat: int, action: Action) -> GameObject:
    """305.1: play a land: main phase, your turn, empty stack, one land per turn (305.2)."""
    st = game.state
    obj = st.objects.get(action.object_id)
    if obj is None or obj.zone != "hand" or obj.owner != seat:
        raise _fail(game, "305.1", f"object #{action.object_id} is not a card in "
                    f"{st.players[seat].name}'s hand")
    if not game.is_type(obj, "Land"):
        raise _fail(game, "305.1", f"{obj.name} is not a land")
    if not _sorcery_timing(game, seat):
        raise _fail(game, "305.1", "a land can be played only in your main phase with an empty "
                    "stack")
    if st.players[seat].lands_played >= 1:
        raise _fail(game, "305.2", f"{st.players[seat].name} has already played a land this turn")
    why = play_land_refusal(game, seat)
    if why is not None:
        raise _fail(game, "101.2", f"{why}; {obj.name} can't be played")
    st.players[seat].lands_played += 1
    new = move_object(game, obj.id, "battlefield", controller=seat)
    game.log("play", f"{st.players[seat].name} plays {new.name}", player=seat, subject=new.id)
    return new


# ---------------------------------------------------------------------- legal actions

_NO_COST = ManaCost(())
_ONLY_PASS = (ActionOption("pass"),)


def _requirements(game: Game, specs: tuple[TargetSpec, ...], seat: int,
                  source_id: int, source: GameObject) -> tuple[TargetRequirement, ...] | None:
    out = []
    for spec in specs:
        spec = for_caster(game, spec, seat, source)
        cands = [c for c in target_candidates(game, spec, seat, source_id, source)
                 if c != source_id]
        if len(cands) < spec.min:
            return None
        out.append(new_target_requirement(target_prompt(spec), spec.min, spec.max, tuple(cands)))
    return tuple(out)


def _castable_cards(game: Game, seat: int, permissions: bool | None = None) -> list[int]:
    """The cards ``seat`` might cast or play: their hand, then cards in other zones an effect
    lets them cast (601.2a; ``cast_permitted_from``). ``permissions``: ``has_permissions``, if
    the caller knows it."""
    st = game.state
    out = list(st.players[seat].hand)
    if has_permissions(game) if permissions is None else permissions:
        for zone in ("graveyard", "exile", "library"):
            ids = st.exile if zone == "exile" else st.zone_list(zone, seat)
            out.extend(i for i in ids if cast_permitted_from(game, seat, st.objects[i]))
    return out


def _mana_key(game: Game, seat: int, board: SeatBoard | None = None) -> tuple[object, ...]:
    """What ``seat``'s mana (``_seat_supply``) and the {T} abilities they could activate read: the
    epoch (their permanents and what those tap for, ``SeatBoard``), their life and pool, and
    which of their permanents are tapped or summoning sick. ``board``: their ``SeatBoard``, if the
    caller has it."""
    p = game.state.players[seat]
    objects = game.state.objects
    permanents = (_seat_board(game, seat) if board is None else board).permanents
    return (game.epoch, p.life, tuple(p.mana.items()),
            tuple([(o.tapped, o.sick) for o in map(objects.__getitem__, permanents)]))


def _actions_key(game: Game, seat: int, mana_key: tuple[object, ...] | None = None,
                 ) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What ``legal_actions`` reads, as a key: equal keys, equal answers. The epoch stands for
    every object's characteristics (613; ``Game.changed``: permanents entering and leaving,
    effects, counters, attachments), so for which permanents there are, who controls them, what
    they can tap for and what protects them; the rest changes without moving it: the step only
    as sorcery timing (307.1), the stack, the seat's hand, pool, life and land drop, the zones a
    permission may cast from, which players are still in, and which of the seat's permanents
    are tapped or summoning sick (no target, restriction or permission reads another's). In two
    parts: ``_mana_key`` (``mana_key``, if the caller has it), then the rest."""
    st = game.state
    p = st.players[seat]
    return (_mana_key(game, seat) if mana_key is None else mana_key,
            (seat, _sorcery_timing(game, seat), p.lands_played, tuple(p.hand), tuple(st.stack),
             tuple(p.graveyard), tuple(st.exile), tuple(p.library[:1]),
             tuple([q.lost for q in st.players])))


def _seat_supply(game: Game, seat: int, mana_key: tuple[object, ...]) -> ManaSupply:
    """What ``seat`` could pay with now (their pool and ``mana_sources``), kept per seat while
    its key (``_mana_key``) is the same."""
    memo = game.mana_memo.get(seat)
    if memo is not None and memo[0] == mana_key:
        return memo[1]
    p = game.state.players[seat]
    supply = ManaSupply(p.mana, mana_sources(game, seat), life_available=p.life)
    game.mana_memo[seat] = (mana_key, supply)
    return supply


def only_pass_possible(game: Game, seat: int) -> bool:
    """Whether passing is all ``seat`` can do now: True exactly when ``legal_actions`` is only
    ``pass``. Timing settles most grants (no land ``seat`` may play, no card they may cast now,
    from their hand or as a permission allows, no activated ability they could activate now);
    then whether the rest can be paid for at all (``ManaSupply``, no payment worked out); only
    when something can does ``legal_actions`` decide (cached: the priority decision that follows
    reuses it)."""
    return pass_test(game, seat) != CAN_ACT


CAN_ACT = 0
"""``pass_test``: ``seat`` may do more than pass."""
ONLY_PASS = 1
"""``pass_test``: passing is all ``seat`` can do, and the pass takes no decision id."""
ONLY_PASS_NUMBERED = 2
"""``pass_test``: passing is all ``seat`` can do, and the pass takes a decision id."""


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What ``pass_test`` reads of one seat's hand: the cards and their characteristics (613),
    which change only with the hand or, for a card whose characteristics an effect could
    change, with the epoch."""

    hand: tuple[int, ...]
    """The hand it describes."""
    epoch: int
    """The epoch it describes, or -1 for any: every card in the hand keeps its printed values
    while it stays there (``Game.stable_cache``: no static ability, face up)."""
    land: bool
    """Whether the hand holds a land (305.1)."""
    instant: tuple[ManaCost, ...]
    """The distinct costs (by identity) of the instants and cards with flash in the hand (307.1,
    702.8a)."""
    sorcery: tuple[ManaCost, ...]
    """The distinct costs (by identity) of every nonland card in the hand."""


_new_hand_facts: Callable[..., HandFacts] = builder(HandFacts)


def _hand_facts(game: Game, seat: int, hand: tuple[int, ...]) -> HandFacts:
    """``HandFacts`` for ``seat``'s ``hand`` now (kept in ``Game.hand_facts``)."""
    layers = game.layer_cache  # characteristics by id (613)
    land = False
    instant: dict[int, ManaCost] = {}
    sorcery: dict[int, ManaCost] = {}
    for oid in hand:
        c = layers[oid]
        if "Land" in c.card_types:
            land = True
            continue
        cost = c.mana_cost or _NO_COST
        sorcery[id(cost)] = cost
        if "Instant" in c.card_types or "flash" in c.keywords:
            instant[id(cost)] = cost
    stable = game.stable_cache
    epoch = -1 if all(oid in stable for oid in hand) else game.epoch
    facts = game.hand_facts[seat] = _new_hand_facts(hand, epoch, land, tuple(instant.values()),
                                              tuple(sorcery.values()))
    return facts


def pass_test(game: Game, seat: int) -> int:
    """``only_pass_possible`` and, when it holds, ``numbers_automatic_pass``, in one look at the
    seat's cards (every automatic pass asks both): ``CAN_ACT``, ``ONLY_PASS`` or
    ``ONLY_PASS_NUMBERED``. Without a permission in play, what the hand offers is kept per seat
    (``HandFacts``), their mana per seat (``_seat_supply``) and whether any of the hand's costs
    can be paid with it, so that a pass between two changes costs a few lookups."""
    st = game.state
    p = st.players[seat]
    board = game.seat_boards.get(seat)  # ``_seat_board``'s kept board, without the call
    if board is None or board.epoch != game.epoch:
        board = _seat_board(game, seat)
    if board.permissions:
        return _pass_test_permitted(game, seat)
    hand = tuple(p.hand)
    facts = game.hand_facts.get(seat)
    if facts is None or facts.hand != hand or (facts.epoch != game.epoch and facts.epoch >= 0):
        facts = _hand_facts(game, seat, hand)
    # ``numbers_automatic_pass``: a land by timing or a card cast by timing (all from the
    # hand, without a permission), or an activated ability other than a mana ability.
    numbered = False
    sorcery_ok = st.active == seat and st.step in MAIN_STEPS and not st.stack  # 307.1
    if sorcery_ok:
        if facts.land and p.lands_played < 1:
            if play_land_refusal(game, seat) is None:
                return CAN_ACT  # 305.1: playing a land needs nothing more
            numbered = True
        hand_costs = facts.sorcery
    else:
        hand_costs = facts.instant
    abilities = board.activator
    if not (hand_costs or abilities):
        return ONLY_PASS_NUMBERED if numbered else ONLY_PASS
    mana_key = _mana_key(game, seat, board)
    supply = _seat_supply(game, seat, mana_key)
    if not abilities:
        # The hand's costs alone: whether one can be paid is kept with the supply and the
        # costs it was asked about (both kept objects: the same objects, the same answer).
        memo = game.payable_memo.get(seat)
        if memo is not None and memo[0] is supply and memo[1] is hand_costs:
            payable = memo[2]
        else:
            payable = any(supply.can_pay(cost, 0) for cost in hand_costs)
            game.payable_memo[seat] = (supply, hand_costs, payable)
        if not payable:
            return ONLY_PASS_NUMBERED  # what legal_actions would find: nothing payable
        key = _actions_key(game, seat, mana_key)
        return ONLY_PASS_NUMBERED if len(_cached_actions(game, seat, key)) == 1 else CAN_ACT
    costs = [(cost, 0) for cost in hand_costs]  # what might be done: its cost, the permanent tapped
    costs += _ability_costs(game, seat, sorcery_ok)
    for cost, tapped in costs:
        if supply.without(tapped).can_pay(cost, 0):
            key = _actions_key(game, seat, mana_key)
            return ONLY_PASS_NUMBERED if len(_cached_actions(game, seat, key)) == 1 else CAN_ACT
    return ONLY_PASS_NUMBERED


def _ability_costs(game: Game, seat: int, sorcery_ok: bool) -> list[tuple[ManaCost, int]]:
    """The costs of the activated abilities other than mana abilities ``seat`` could activate
    now but for their mana (602.2, 602.5), each with the permanent its {T} taps (0: none)."""
    st = game.state
    layers = game.layer_cache
    costs: list[tuple[ManaCost, int]] = []
    for oid in st.battlefield:
        c = layers[oid]
        if c.controller != seat or not c.activated:
            continue
        obj = st.objects[oid]
        for _, _, ab in c.activated:
            if (ab.is_mana_ability or (ab.tap and not _can_tap(game, obj))
                    or (ab.sorcery_speed and not sorcery_ok)
                    or any(obj.counters.get(kind, 0) < n for kind, n in ab.remove_counters)):
                continue
            costs.append((ab.mana_cost, oid if ab.tap else 0))
    return costs


def _pass_test_permitted(game: Game, seat: int) -> int:
    """``pass_test`` with a permission in play (702.8a, 601.2a): every castable card looked at
    afresh."""
    st = game.state
    p = st.players[seat]
    sorcery_ok = st.active == seat and st.step in MAIN_STEPS and not st.stack  # 307.1
    layers = game.layer_cache  # characteristics by id (613): this runs at every priority
    permissions = has_permissions(game)  # without one, nothing is cast as though it had flash
    # ``numbers_automatic_pass``: a permission, a land by timing or a card cast by timing (the
    # costs found before the activated abilities: without a permission, all from the hand), or
    # an activated ability other than a mana ability.
    numbered = permissions
    costs: list[tuple[ManaCost, int]] = []  # what might be done: its cost, the permanent tapped
    for oid in _castable_cards(game, seat, True) if permissions else p.hand:
        c = layers[oid]
        if "Land" in c.card_types:
            if sorcery_ok and p.lands_played < 1:
                numbered = True
                if st.objects[oid].zone == "hand" and play_land_refusal(game, seat) is None:
                    return CAN_ACT  # 305.1: playing a land needs nothing more
        elif (sorcery_ok or "Instant" in c.card_types or "flash" in c.keywords
              or (permissions and flash_permitted(game, seat, st.objects[oid]))):
            costs.append((c.mana_cost or _NO_COST, 0))
    if costs:
        numbered = True
    if _seat_board(game, seat).activator:
        numbered = True
        costs += _ability_costs(game, seat, sorcery_ok)
    only = ONLY_PASS_NUMBERED if numbered else ONLY_PASS
    if not costs:
        return only
    key = _actions_key(game, seat)
    memo = game.actions_memo.get(seat)
    if memo is not None and memo[0] == key:
        return only if len(memo[1]) == 1 else CAN_ACT
    supply = _seat_supply(game, seat, key[0])
    for cost, tapped in costs:
        if supply.without(tapped).can_pay(cost, 0):
            return only if len(_cached_actions(game, seat, key)) == 1 else CAN_ACT
    game.actions_memo[seat] = (key, _ONLY_PASS)  # what legal_actions would find: nothing payable
    return only


def numbers_automatic_pass(game: Game, seat: int) -> bool:
    """Whether an automatic pass (``only_pass_possible`` said so) takes a decision id, so that
    ids stay what they were before that test was exact: a pass the earlier, conservative test
    settled took none (no permission in play; no land ``seat`` could play and no card they could
    cast by timing alone; no permanent of theirs with an activated ability other than a mana
    ability); any other pass was numbered, as a priority decision was built for it."""
    st = game.state
    p = st.players[seat]
    if has_permissions(game):
        return True
    sorcery_ok = _sorcery_timing(game, seat)
    layers = game.layer_cache
    for oid in p.hand:
        c = layers[oid]
        if "Land" in c.card_types:
            if sorcery_ok and p.lands_played < 1:
                return True
        elif sorcery_ok or "Instant" in c.card_types or "flash" in c.keywords:
            return True
    return _seat_board(game, seat).activator


def legal_actions(game: Game, seat: int) -> tuple[ActionOption, ...]:
    """117.1: what ``seat`` may do now with priority. Passing is always listed first. Conceding
    (104.3a) is always legal and not listed; mana abilities on their own are not listed either
    (they are activated while paying). The answer is kept per seat with the key of what it read
    (``_actions_key``) and given again while the key is unchanged."""
    return _cached_actions(game, seat, _actions_key(game, seat))


def _cached_actions(game: Game, seat: int,
                   key: tuple[tuple[object, ...], tuple[object, ...]]) -> tuple[ActionOption, ...]:
    memo = game.actions_memo.get(seat)
    if memo is not None and memo[0] == key:
        return memo[1]
    options = _fresh_actions(game, seat, _seat_supply(game, seat, key[0]))
    game.actions_memo[seat] = (key, options)
    return options


def _fresh_actions(game: Game, seat: int, supply: ManaSupply | None = None) -> tuple[ActionOption, ...]:
    """``legal_actions`` computed afresh (no cache), with ``supply`` as the seat's mana if given."""
    st = game.state
    options: list[ActionOption] = [_ONLY_PASS[0]]  # frozen: one pass option serves every list
    p = st.players[seat]
    if supply is None:
        supply = ManaSupply(p.mana, mana_sources(game, seat), life_available=p.life)
    sorcery_ok = _sorcery_timing(game, seat)
    lands_ok = sorcery_ok and p.lands_played < 1 and play_land_refusal(game, seat) is None
    layers = game.layer_cache  # characteristics by id (613)
    permissions = has_permissions(game)  # without one, nothing is cast as though it had flash
    for oid in _castable_cards(game, seat, permissions):
        obj = st.objects[oid]
        c = layers[oid]
        if "Land" in c.card_types:
            if lands_ok and obj.zone == "hand":
                options.append(new_action_option("play", oid, obj.name, 0, (), False, 0, False))
            continue
        # ``_instant_speed``, with the characteristics at hand.
        if not (sorcery_ok or "Instant" in c.card_types or "flash" in c.keywords
                or (permissions and flash_permitted(game, seat, obj))):
            continue
        cost = c.mana_cost or _NO_COST
        # Counting first (cheap, and most cards fail it), then targets (601.2c before 601.2g).
        mx = supply.max_x(cost)
        if mx is None:
            continue
        reqs = _requirements(game, _spell_targets(game.cards[obj.name]), seat, oid, obj)
        if reqs is None:
            continue
        # 601.2e/101.2: listed if X=0 or X=1 makes it castable (the filters test parity).
        if all(cast_refusal(game, seat, obj, x) is not None for x in range(min(mx, 1) + 1)):
            continue
        options.append(new_action_option("cast", oid, obj.name, 0, reqs, cost.has_x, mx, False))
    for oid in st.battlefield if _seat_board(game, seat).activator else ():
        c = layers[oid]
        if c.controller != seat or not c.activated:
            continue
        obj = st.objects[oid]
        for n, (_, _, ab) in enumerate(c.activated, start=1):
            if ab.is_mana_ability:
                continue
            if ab.tap and not _can_tap(game, obj):
                continue
            if ab.sorcery_speed and not sorcery_ok:
                continue
            if any(obj.counters.get(kind, 0) < k for kind, k in ab.remove_counters):
                continue  # 118.3: a cost that can't be paid
            mx = supply.without(oid if ab.tap else 0).max_x(ab.mana_cost)
            if mx is None:
                continue
            reqs = _requirements(game, ab.targets, seat, 0, obj)  # 115.5: its source is fair game
            if reqs is None:
                continue
            options.append(new_action_option("activate", oid, obj.name, n, reqs, ab.mana_cost.has_x,
                                             mx, False))
    return tuple(options)
