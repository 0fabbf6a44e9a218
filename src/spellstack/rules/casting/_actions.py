"""Performing an action: casting a spell (601.2), activating an ability (602.2, 605), playing a
land (305.1).

Every action is checked completely before anything changes, so an illegal one leaves the
state, and its hash, exactly as they were (601.2: an illegal attempt is rewound).
"""

from __future__ import annotations

from collections.abc import Callable

from ..definitions import ActivatedAbility, CardDefinition, Effect, TargetSpec
from ..effects import AddMana, AddManaOfAnyColor, EffectContext, run_effects
from ..game import Game
from ..layers import add_counters
from ..legality import (
    for_caster,
    group_ok,
    is_legal_target,
    land_play_permitted_from,
    play_land_refusal,
    spell_target_specs,
    target_prompt,
)
from ..mana import COLORS, ManaCost, Payment, plan_payment, spend
from ..state import (
    Action,
    GameObject,
    Proc,
)
from ..views import visible_name
from ..zones import lose_life, move_object, move_object_proc
from ._boards import can_tap, mana_sources, named_mana_sources, pay_mana_abilities, sacrifice_permanent
from ._checks import loyalty_refusal, named_for, refusal, sorcery_timing


def plan_cost(game: Game, seat: int, cost: ManaCost, x: int, action: Action,
              exclude: int = 0, pay_as: tuple[str, ...] | None = None) -> Payment:
    """601.2g/h: find how to pay; raise if the player can't. ``exclude``: a permanent whose {T}
    is already part of the cost. Without ``action.pay``, only mana abilities whose only cost is
    {T} pay (automatic payment); with it, any mana ability of the permanents it names, once per
    naming (``named_mana_sources``). ``pay_as``: instead of ``action.pay_as``."""
    p = game.state.players[seat]
    if action.pay:
        sources = named_mana_sources(game, seat, action.pay, tapped=exclude)
    else:
        sources = [s for s in mana_sources(game, seat) if s.source_id != exclude]
    as_given = action.pay_as if pay_as is None else pay_as
    try:
        plan = plan_payment(cost, x, p.mana, sources, pay_as=as_given or None,
                            life_available=p.life)
    except ValueError as err:
        raise refusal(game, "601.2h", str(err)) from None
    if plan is None:
        raise refusal(game, "601.2h", f"{p.name} can't pay {cost}" + (f" with X={x}" if x else ""))
    return plan


def pay_plan(game: Game, seat: int, plan: Payment) -> None:
    """601.2g/h: activate the mana abilities, paying their costs (``pay_mana_abilities``: {T},
    counters, sacrifice), then pay from the pool and with life. The mana the abilities add is
    spent at once on the cost, so the pool keeps only what was in it before, less
    ``plan.from_pool``."""
    st = game.state
    p = st.players[seat]
    if plan.activations:
        pay_mana_abilities(game, seat, plan)
    if plan.from_pool or p.mana:  # an empty pool, nothing spent from it: it stays empty
        p.mana = {k: v for k, v in spend(p.mana, plan).items() if v}
    if plan.life:
        lose_life(game, seat, plan.life)


def _split(specs: tuple[TargetSpec, ...], targets: tuple[int, ...],
           fits: Callable[[TargetSpec, tuple[int, ...]], bool], k: int, i: int) -> list[int] | None:
    """The group sizes for ``specs[k:]`` from ``targets[i:]``, earlier requirements taking as
    many as they can; None if none works. (A module function, not a closure calling itself:
    that would be a reference cycle keeping the game alive until the next collection.)"""
    if k == len(specs):
        return [] if i == len(targets) else None
    spec = specs[k]
    for size in range(min(spec.max, len(targets) - i), spec.min - 1, -1):
        if fits(spec, targets[i:i + size]):
            rest = _split(specs, targets, fits, k + 1, i + size)
            if rest is not None:
                return [size, *rest]
    return None


def split_targets(game: Game, specs: tuple[TargetSpec, ...], targets: tuple[int, ...],
                  seat: int, source_id: int, what: str,
                  source: GameObject | None = None,
                  as_cast: CardDefinition | None = None) -> tuple[int, ...]:
    """601.2c: match the chosen targets, in order, to the requirements in order; each target
    must be legal for its requirement and one requirement never names the same object twice
    (115.3). Returns the group sizes: the first split that works, earlier requirements taking
    as many as they can. If none works, the error names the first target that fits nowhere.
    ``source_id``: the spell being cast, which can't target itself (115.5); 0 for an ability.
    ``as_cast``: the face the card ``source`` is cast as (``is_legal_target``)."""

    def fits(spec: TargetSpec, group: tuple[int, ...]) -> bool:
        return len(set(group)) == len(group) and group_ok(game, spec, group) and all(
            t != source_id and is_legal_target(game, spec, t, seat, source, as_cast) for t in group)

    specs = tuple(for_caster(game, spec, seat, source, as_cast) for spec in specs)

    groups = _split(specs, targets, fits, 0, 0)
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
                raise refusal(game, "601.2c", f"{named_for(game, targets[i], seat)} is not a "
                            f"legal {target_prompt(spec)}")
            raise refusal(game, "601.2c", f"{what} needs {target_prompt(spec)}")
    bad = targets[min(i, len(targets) - 1)] if targets else 0
    raise refusal(game, "601.2c", f"{named_for(game, bad, seat)} is not a legal target for "
                f"{what}")


def spell_targets(defn: CardDefinition) -> tuple[TargetSpec, ...]:
    """The target requirements of a spell with this definition (an Aura's included, 303.4a)."""
    return spell_target_specs(defn)


def _activated(game: Game, seat: int, action: Action) -> tuple[GameObject, ActivatedAbility, str, int]:
    """The permanent, the ability (among those it has now, layer 6), the definition it is
    printed on and its index there."""
    st = game.state
    obj = st.objects.get(action.object_id)
    if obj is None or obj.zone != "battlefield" or game.controller(obj) != seat:
        raise refusal(game, "602.2", f"object #{action.object_id} is not a permanent "
                    f"{st.players[seat].name} controls")
    abilities = game.activated(obj)
    if not 1 <= action.ability <= len(abilities):
        raise refusal(game, "602.2", f"{obj.name} has no activated ability {action.ability}")
    name, index, ab = abilities[action.ability - 1]
    return obj, ab, name, index


def _mana_color_chosen(game: Game, obj: GameObject, ab: ActivatedAbility,
                       action: Action) -> tuple[tuple[Effect, ...], tuple[str, ...] | None]:
    """605.3a/106.3: a mana ability that adds "one mana of any color" has its colour chosen as it
    is activated: the one colour letter of ``action.pay_as`` (its cost having no hybrid or
    Phyrexian symbol to take it). Returns the ability's effects with that colour's ``add_mana``
    in their place, and the ``pay_as`` left for its cost (None: ``action.pay_as`` as given)."""
    if not ab.is_mana_ability or all(e.verb != "add_mana_of_any_color" for e in ab.effects):
        return ab.effects, None
    color = action.pay_as[0] if len(action.pay_as) == 1 else ""
    if color not in COLORS or any(s.is_hybrid or s.phyrexian for s in ab.mana_cost.symbols):
        raise refusal(game, "605.3a", f"{obj.name}'s ability adds one mana of any color: name "
                      f"the colour (one of {' '.join(COLORS)}) as it is activated, got "
                      f"{list(action.pay_as)!r}")
    effects = tuple(AddMana(color, e.amount) if isinstance(e, AddManaOfAnyColor) else e
                    for e in ab.effects)
    return effects, ()


def activate_ability(game: Game, seat: int, action: Action) -> GameObject | None:
    """602.2: activate an ability; a mana ability resolves at once (605.3a) and returns None."""
    st = game.state
    obj, ab, ab_name, ab_index = _activated(game, seat, action)
    if ab.tap and not can_tap(game, obj):
        why = ("it is tapped" if obj.tapped else f"302.6: {st.players[seat].name} has not "
               "controlled it continuously since their most recent turn began")
        raise refusal(game, "602.5a", f"{obj.name} can't be tapped to pay {{T}} now ({why})")
    if ab.sorcery_speed and not sorcery_timing(game, seat):
        raise refusal(game, "606.3" if ab.loyalty is not None else "602.5d",
                      f"{obj.name}'s ability can be activated only as a sorcery")
    loyalty = loyalty_refusal(game, obj, ab)
    if loyalty is not None:
        raise refusal(game, *loyalty)
    if action.x and not ab.mana_cost.has_x:
        raise refusal(game, "601.2b", f"X={action.x} is not allowed for {obj.name}'s ability")
    for kind, n in ab.remove_counters:
        if obj.counters.get(kind, 0) < n:
            raise refusal(game, "118.3", f"{obj.name} has fewer than {n} {kind} counter(s) to remove")
    effects, pay_as = _mana_color_chosen(game, obj, ab, action)
    # 115.5: an ability can't target itself, but it may target its own source (no exclusion).
    groups = split_targets(game, ab.targets, action.targets, seat, 0, obj.name, obj)
    plan = plan_cost(game, seat, ab.mana_cost, action.x, action, obj.id if ab.tap else 0, pay_as)
    if ab.sacrifice and any(oid == obj.id for oid, _ in plan.activations):
        raise refusal(game, "602.2b", f"{obj.name} is sacrificed to pay this cost: its mana "
                      "abilities can't pay it too")
    pay_plan(game, seat, plan)
    if ab.tap:
        obj.tapped = True
    for kind, n in ab.remove_counters:  # 602.2b: a cost paid along with the mana
        add_counters(game, obj, kind, -n)
    if ab.loyalty is not None:
        # 606.4-606.5, 602.2b: the loyalty cost is paid as it is activated (704.5i may then put
        # a planeswalker left with none into its graveyard; the ability resolves all the same,
        # 113.7a); 606.3: it was this permanent's loyalty ability of the turn.
        obj.loyalty_turn = st.turn
        add_counters(game, obj, "loyalty", ab.loyalty)
        game.changed()  # what it may activate changed, even with a cost of 0
    if ab.sacrifice:  # 602.2b, 701.17a: the last cost paid; the ability's source is now LKI
        sacrifice_permanent(game, seat, obj.id)
    if ab.is_mana_ability:
        ctx = EffectContext(game, obj, seat, obj, (), action.x, 0, ab.position)
        for _ in run_effects(ctx, effects):  # mana abilities never ask anything
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
    game.log("activate", f"{st.players[seat].name} activates {visible_name(game, obj.id)}",
             player=seat, subject=oid, refs=tuple(stack_obj.targets))
    return stack_obj


def play_land(game: Game, seat: int, action: Action) -> Proc[GameObject] | None:
    """305.1: play a land: main phase, your turn, empty stack, one land per turn (305.2); a
    modal double-faced card is played as its land face, named by ``action.face`` (712.12).

    Every check comes first and refuses with nothing changed. Then the land is put onto the
    battlefield at once (None is returned), or, when an "as it enters" choice must be asked
    (614.12: Shatterskull, the Hammer Pass's "you may pay 3 life"), the procedure that asks it
    and puts the land there is returned for the caller to drive: the land play is taken, and
    nothing else happens until it ends (116.2a: a special action; no player gets priority)."""
    st = game.state
    obj = st.objects.get(action.object_id)
    if obj is None or obj.owner != seat or not (
            obj.zone == "hand" or land_play_permitted_from(game, seat, obj)):
        raise refusal(game, "305.1", f"object #{action.object_id} is not a card in "
                    f"{st.players[seat].name}'s hand")
    face = ""
    if action.face:
        defn = game.cards[obj.name]
        if action.face not in defn.faces:
            raise refusal(game, "305.1", f"{obj.name} has no face called {action.face!r}")
        if "Land" not in game.cards[action.face].card_types:
            raise refusal(game, "305.1", f"{action.face} is not a land face (712.12: only a "
                          "land face is played)")
        face = action.face
    elif not game.is_type(obj, "Land"):
        land = next((n for n in game.cards[obj.name].faces
                     if "Land" in game.cards[n].card_types), "")
        raise refusal(game, "305.1", f"{obj.name} is not a land" + (
            f" (712.12: name its land face, {land})" if land else ""))
    if not sorcery_timing(game, seat):
        raise refusal(game, "305.1", "a land can be played only in your main phase with an empty "
                    "stack")
    if st.players[seat].lands_played >= 1:
        raise refusal(game, "305.2", f"{st.players[seat].name} has already played a land this turn")
    why = play_land_refusal(game, seat)
    if why is not None:
        raise refusal(game, "101.2", f"{why}; {obj.name} can't be played")
    st.players[seat].lands_played += 1
    if face and any(r.event == "enters" and r.unless_pay_life
                    for r in game.cards[face].replacements):
        return _enter_played(game, seat, obj.id, face)
    new = move_object(game, obj.id, "battlefield", controller=seat, name=face)
    game.log("play", f"{st.players[seat].name} plays {new.name}", player=seat, subject=new.id)
    return None


def _enter_played(game: Game, seat: int, oid: int, face: str) -> Proc[GameObject]:
    """The rest of a land play whose entering asks (614.12): the replacement's question, then
    the land on the battlefield."""
    new = yield from move_object_proc(game, oid, "battlefield", controller=seat, name=face)
    game.log("play", f"{game.state.players[seat].name} plays {new.name}", player=seat,
             subject=new.id)
    return new
