"""Casting a spell (601.2a-i), with alternative characteristics (601.3e) and optional and
alternative costs (601.2b, 601.2f, 118.8, 118.9).

The cast is one fully specified ``Action``. Its choices are checked in the rules' order (which
card and face, modes, costs, X, targets, division, the legality of the proposed spell, the total
cost and its payment) before anything changes, so a refusal at any step leaves the state, and
its hash, as they were (601.2: an illegal attempt is rewound) and names the rule it broke.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from ..base import IllegalActionError
from ..definitions import FACE_DOWN, CardDefinition, CostOption, SpellAbility, TargetSpec
from ..game import MANA_PAYER, Game
from ..legality import (
    BESTOW_TARGETS,
    cast_permitted_from,
    cast_refusal,
    flash_permitted,
    granted_costs,
    play_tax,
    spell_target_specs,
    timing_refusal,
)
from ..mana import ManaCost, parse_mana_cost
from ..registry import COST_OPTIONS
from ..state import Action, GameObject, Proc, ResolutionCast
from ..triggers import condition_holds, trigger_cast
from ..views import ask_choose, visible_name, visible_to
from ..zones import move_object
from ._actions import pay_plan, plan_cost, split_targets
from ._checks import refusal, sorcery_timing

__all__ = ["WITHOUT_PAYING", "CastForm", "begin_cast", "cast_forms", "cast_spell",
           "castable_faces", "division_total", "face_down_face", "instant_speed",
           "is_face_down_cast", "spell_specs", "total_cost"]

WITHOUT_PAYING: Final = CostOption("free", "alternative", ManaCost(()), "",
                            "without paying its mana cost")
"""118.9: "without paying its mana cost", the alternative cost an effect may let a spell be cast
for (608.2g), named ``free``; additional costs are still paid (601.2f)."""


# Made for each card and face at every look at what may be cast: a plain slotted dataclass with
# its constructor written out, compiled code in the compiled build (see ``game.SeatBoard``).
@dataclass(slots=True)
class CastForm:
    """One way a card may be cast from where it is now: a face and what that needs."""

    face: CardDefinition
    """The face, half or Adventure cast (the card itself for a card of one face)."""
    required_cost: str
    """The alternative cost that lets it be cast from its zone (``flashback``); empty if none."""
    costs: tuple[CostOption, ...]
    """The optional additional and alternative costs that may be chosen with it."""
    required: CostOption | None = None
    """The cost option ``required_cost`` names (its own or one an effect gives it, 601.3e)."""

    def __init__(self, face: CardDefinition, required_cost: str, costs: tuple[CostOption, ...],
                 required: CostOption | None = None) -> None:
        self.face = face
        self.required_cost = required_cost
        self.costs = costs
        self.required = required


def castable_faces(game: Game, obj: GameObject, transformed: bool = False) -> tuple[CardDefinition, ...]:
    """601.3e: the faces of ``obj``'s card that can be cast from where it is: both halves of a
    split card (709.3), the creature or its Adventure from a hand but only the creature from an
    Adventure's exile (715.3, 715.4), the front face of a modal double-faced card (712.11; its
    land face is played, not cast), the front face of a transforming double-faced card, or its
    back face alone when it is cast ``transformed`` (712.1: a Siege, 310.11b); a card's one face
    otherwise. Land faces are never cast."""
    card = game.cards[obj.name]
    if not card.faces:
        return () if "Land" in card.card_types or transformed else (card,)
    faces = tuple(game.cards[n] for n in card.faces)
    if transformed:
        faces = faces[1:] if card.layout == "transform" else ()
    elif card.layout == "transform":
        faces = faces[:1]
    if card.layout == "adventure" and obj.zone == "exile" and obj.on_adventure:
        faces = faces[:1]
    return tuple(f for f in faces if "Land" not in f.card_types)


def cast_forms(game: Game, seat: int, obj: GameObject,
               during: ResolutionCast | None = None) -> tuple[CastForm, ...]:
    """Every way ``seat`` may cast ``obj`` from its zone now, but for timing, targets and costs
    (601.2a, 601.3): from a hand; from a graveyard with flashback or jump-start, its own or one
    an effect gives it (702.34a, 702.133a; Lier); the creature of an Adventure from exile
    (715.4); from a zone its own text names (Squee); or as a permission allows
    (``cast_permitted_from``). 601.3e: a permission or a given cost is checked for each face
    with the characteristics that face would have (Melek: Chop Down, not Giant Killer).
    ``during``: the resolving effect that lets ``seat`` cast it (608.2g; a copy of a card in
    exile, 707.12), and, if it is cast without paying its mana cost, for ``free`` alone (118.9a:
    one alternative cost) with the additional costs."""
    zone = obj.zone
    if during is not None:
        forms = [CastForm(f, "", f.cost_options) for f in castable_faces(game, obj, during.transformed)]
        if not during.free:
            return tuple(replace(f, costs=tuple(o for o in f.costs if o.zone == "hand"))
                         for f in forms)
        return tuple(replace(f, required_cost=WITHOUT_PAYING.name, required=WITHOUT_PAYING,
                             costs=tuple(o for o in f.costs if o.kind == "additional"))
                     for f in forms)
    own = obj.owner == seat
    fixed: bool | None = None  # whether it may be cast whatever the face, if that is known
    if zone == "hand":
        fixed = own
    elif zone == "exile" and obj.on_adventure and own:
        fixed = True
    elif own and zone in game.cards[obj.name].cast_zones:
        fixed = True  # 113.6b: "you may cast [this] from your graveyard or from exile"
    out = []
    for face in castable_faces(game, obj):
        options = face.cost_options
        if zone != "hand":
            options += granted_costs(game, seat, obj, face)
        permitted = fixed if fixed is not None else cast_permitted_from(game, seat, obj, face)
        from_zone = tuple(o for o in options if o.zone == zone and o.zone != "hand")
        if permitted:
            out.append(CastForm(face, "", tuple(o for o in options if o.zone == "hand")))
        elif from_zone and own:
            for o in from_zone:  # 118.9a: that alternative cost is the only one
                out.append(CastForm(face, o.name, tuple(x for x in options
                                                        if x.kind == "additional" and x != o), o))
    return tuple(out)


def spell_specs(face: CardDefinition, modes: tuple[int, ...], bestowed: bool,
                costs: tuple[str, ...] = ()) -> tuple[TargetSpec, ...]:
    """601.2c: the target requirements of the spell as announced: its chosen modes' in printed
    order (700.2), an Aura's (303.4a), a bestowed spell's enchant creature (702.103b), or those
    a cost chosen gives it instead (``CostOptionRule.targets``: mutate, 702.140a)."""
    if bestowed:
        return BESTOW_TARGETS
    for name in costs:
        instead = COST_OPTIONS[name].targets if name in COST_OPTIONS else ()
        if instead:
            return instead
    spell = face.spell
    if spell is not None and spell.modes:
        return tuple(t for m in sorted(modes) for t in spell.modes[m - 1].targets)
    return spell_target_specs(face)


def division_total(spell: SpellAbility | None, x: int) -> int:
    """601.2d: the amount the spell divides among its targets with X = ``x`` (0 if none)."""
    if spell is None or not spell.divide:
        return 0
    total = x if spell.divide == "X" else int(spell.divide)
    if spell.divide_doubled_from and x >= spell.divide_doubled_from:
        total *= 2  # Shatterskull Smashing: "twice X damage divided ... instead"
    return total


def total_cost(face: CardDefinition, chosen: tuple[CostOption, ...]) -> ManaCost:
    """601.2f: the total cost: the mana cost or the alternative cost chosen, plus the
    additional costs chosen (kicker, Rout's {2} more). 118.9c: an alternative cost changes
    what is paid, never the spell's mana value."""
    alternative = next((o for o in chosen if o.kind == "alternative"), None)
    base = alternative.mana_cost if alternative is not None else (face.mana_cost or ManaCost(()))
    extra = tuple(s for o in chosen if o.kind == "additional" for s in o.mana_cost.symbols)
    return ManaCost(base.symbols + extra) if extra else base


def taxed(game: Game, seat: int, obj: GameObject, cost: ManaCost) -> ManaCost:
    """601.2f: ``cost`` with what the effect that lets ``seat`` play ``obj`` from exile adds to
    it ("a spell cast this way costs {2} more to cast"; ``play_tax``)."""
    if obj.zone != "exile":
        return cost
    more = play_tax(game, seat, obj)
    return ManaCost(cost.symbols + parse_mana_cost(more).symbols) if more else cost


def instant_speed(game: Game, seat: int, obj: GameObject, face: CardDefinition,
                   chosen: tuple[CostOption, ...]) -> bool:
    """307.1/702.8a: an instant, a spell with flash (601.3d: or with flash while a condition
    holds, and it holds), one cast with a cost that lets it be cast as though it had flash
    (Rout, 601.3c), or one an effect lets ``seat`` cast so (Sigarda's Aid), as the spell would
    be announced (601.3b: bestowed, an Aura spell; 601.3e/708.4: cast face down, a 2/2
    creature spell with no abilities)."""
    if is_face_down_cast(chosen):
        return flash_permitted(game, seat, obj, face_down_face(face))
    if "Instant" in face.card_types or "flash" in face.keywords:
        return True
    if face.flash_if is not None and condition_holds(game, seat, face.flash_if, obj):
        return True
    if face.name == obj.name:
        c = game.caches.layers[obj.id]
        if "Instant" in c.card_types or "flash" in c.keywords:
            return True
    if any(o.name == "flash" for o in chosen):
        return True
    if any(o.name == "bestow" for o in chosen):
        return flash_permitted(game, seat, obj, bestowed_face(face))
    return flash_permitted(game, seat, obj)


def is_face_down_cast(chosen: tuple[CostOption, ...]) -> bool:
    """702.37c: whether the costs chosen cast the card face down (its ``morph`` cost)."""
    return any(o.name == "morph" for o in chosen)


def cast_as(obj: GameObject, face: CardDefinition) -> CardDefinition | None:
    """601.2c: the face whose characteristics alone the proposed spell has while its targets are
    chosen, before the card is on the stack (709.3a: a split card's half; 715.3b: an Adventure;
    708.2a: a face-down spell); None when it is the card as it is."""
    return face if face.name != obj.name else None


def face_down_face(face: CardDefinition) -> CardDefinition:
    """708.2a/702.37c: the characteristics ``face`` has as a spell cast face down: a 2/2
    creature with no name, text, subtypes, mana cost or abilities, whatever the card."""
    return FACE_DOWN


def bestowed_face(face: CardDefinition) -> CardDefinition:
    """702.103b: the characteristics a card cast for its bestow cost has as a spell: an Aura
    spell with enchant creature, no longer a creature, without creature types."""
    creature_types = set(face.subtypes) if "Creature" in face.card_types else set()
    return replace(face, card_types=tuple(t for t in face.card_types if t != "Creature"),
                   subtypes=(*(t for t in face.subtypes if t not in creature_types), "Aura"),
                   enchant="creature")


def _face(game: Game, seat: int, obj: GameObject, action: Action,
          during: ResolutionCast | None) -> CastForm:
    """601.2a-b, 601.3e: the card may be cast from its zone (or as ``during`` lets it be,
    608.2g), as the face the action names."""
    st = game.state
    forms = cast_forms(game, seat, obj, during)
    if not forms:
        if not visible_to(game, seat, obj):
            # 400.2, 406.3: a card the seat may not see (a library's, one exiled face down) is
            # refused in the words an id that never existed gets.
            raise refusal(game, "601.2a", f"object #{action.object_id} is not a card in "
                          f"{st.players[seat].name}'s hand")
        if obj.zone == "hand" and obj.owner == seat and game.is_type(obj, "Land"):
            raise refusal(game, "305.9", f"{obj.name} is a land: it is played, not cast")
        if obj.zone == "graveyard" and obj.owner == seat:
            raise refusal(game, "601.2a", f"{obj.name} can't be cast from a graveyard (only a "
                          "card with flashback, 702.34a, or a permission can)")
        if obj.zone == "exile" and obj.owner == seat:
            raise refusal(game, "601.2a", f"{obj.name} can't be cast from exile (only the "
                          "creature of an Adventure that resolved, 715.4, or a permission can)")
        raise refusal(game, "601.2a", f"object #{action.object_id} is not a card in "
                      f"{st.players[seat].name}'s hand")
    card = game.cards[obj.name]
    if action.face:
        named = [f for f in forms if f.face.name == action.face]
        if not named:
            faces = [f for f in card.faces if f != action.face] or [card.name]
            if action.face in card.faces:
                if "Land" in game.cards[action.face].card_types:
                    why = "it is a land: it is played, not cast (305.9)"
                elif obj.zone == "exile" and obj.on_adventure:
                    why = "only the creature can be cast from exile (715.4)"
                else:
                    why = (f"no rule or effect lets {st.players[seat].name} cast it from the "
                           f"{obj.zone} (601.3)")
                raise refusal(game, "601.3e", f"{action.face} can't be cast: {why}")
            raise refusal(game, "601.3e", f"{obj.name} has no face called {action.face!r} "
                          f"(its faces: {', '.join(faces)})")
        forms = tuple(named)
    elif card.layout == "split":
        raise refusal(game, "709.3", f"choose which half of {obj.name} to cast: "
                      f"{' or '.join(card.faces)}")
    else:
        forms = tuple(f for f in forms if f.face.name == forms[0].face.name)
    wanted = {n for n in action.costs}
    for form in forms:  # the form whose required cost the action names, if it needs one
        if not form.required_cost or form.required_cost in wanted:
            return form
    need = forms[0].required_cost
    if during is not None:
        raise refusal(game, "608.2g", f"{during.source} lets {forms[0].face.name} be cast only "
                      f"without paying its mana cost: name {need!r} in costs")
    raise refusal(game, "601.2a", f"{forms[0].face.name} can be cast from the {obj.zone} only for "
                  f"its {need} cost: name {need!r} in costs")


def _chosen_costs(game: Game, form: CastForm, action: Action) -> tuple[CostOption, ...]:
    """601.2b: the optional and alternative costs the action names: each one the form offers,
    none twice, at most one alternative cost (118.9a)."""
    offered = {o.name: o for o in form.costs}
    chosen: list[CostOption] = []
    for name in action.costs:
        if name == form.required_cost:
            option = form.required
            assert option is not None
        elif name in offered:
            option = offered[name]
        else:
            known = sorted({*offered, *([form.required_cost] if form.required_cost else [])})
            raise refusal(game, "601.2b", f"{form.face.name} can't be cast with a {name!r} cost "
                          f"here (it offers: {', '.join(known) or 'none'})")
        if option in chosen:
            raise refusal(game, "601.2b", f"the {name} cost is named twice")
        chosen.append(option)
    alternatives = [o.name for o in chosen if o.kind == "alternative"]
    if len(alternatives) > 1:
        raise refusal(game, "118.9a", f"only one alternative cost can be paid, got "
                      f"{' and '.join(alternatives)}")
    return tuple(chosen)


def _modes(game: Game, face: CardDefinition, action: Action) -> None:
    """601.2b/700.2: a modal spell's modes, exactly as many as it says, none twice (700.2d)."""
    spell = face.spell
    if spell is None or not spell.modes:
        if action.modes:
            raise refusal(game, "601.2b", f"{face.name} is not modal: it takes no modes")
        return
    n = len(spell.modes)
    if (len(action.modes) != spell.mode_count or len(set(action.modes)) != len(action.modes)
            or any(not 1 <= m <= n for m in action.modes)):
        raise refusal(game, "700.2", f"{face.name}: choose {spell.mode_count} of its modes "
                      f"1 to {n}, each once; got {list(action.modes)}")


def _division(game: Game, face: CardDefinition, action: Action,
              seat: int) -> tuple[tuple[int, int], ...]:
    """601.2d: how the amount is divided among the targets: each gets at least 1, and the
    shares add up to the whole; with one target it may be left out (it gets everything)."""
    total = division_total(face.spell, action.x)
    if face.spell is None or not face.spell.divide:
        if action.divide:
            raise refusal(game, "601.2d", f"{face.name} divides nothing among its targets")
        return ()
    targets = action.targets
    if not targets:
        if action.divide:
            raise refusal(game, "601.2d", f"{face.name} has no targets to divide among")
        return ()
    if len(set(targets)) != len(targets):
        raise refusal(game, "601.2d", "a target named twice can't be given two shares")
    if len(targets) > total:
        raise refusal(game, "601.2d", f"{len(targets)} targets can't each get at least 1 of "
                      f"{total}")
    if len(targets) == 1 and not action.divide:
        return ((targets[0], total),)
    shares = dict(action.divide)
    if len(shares) != len(action.divide) or set(shares) != set(targets):
        raise refusal(game, "601.2d", f"the division must give a share to each target and to "
                      f"nothing else, got {list(action.divide)}")
    if any(v < 1 for v in shares.values()):
        raise refusal(game, "601.2d", "each target must get at least 1")
    if sum(shares.values()) != total:
        raise refusal(game, "601.2d", f"the shares add up to {sum(shares.values())}, not "
                      f"{total}")
    return tuple((t, shares[t]) for t in targets)


def cast_spell(game: Game, seat: int, action: Action,
               during: ResolutionCast | None = None) -> GameObject:
    """601.2: cast a spell that asks nothing as its costs are paid (``begin_cast`` otherwise);
    returns the spell. For callers that can't ask: a jump-start cast with a choice of cards to
    discard (702.133a) is a ``ValueError``, raised before anything changes (the game loop
    casts with ``begin_cast`` and asks)."""
    if "jump-start" in action.costs and len(game.state.players[seat].hand) > 1:
        raise ValueError("cast_spell can't ask which card jump-start discards: use begin_cast")
    spell, rest = begin_cast(game, seat, action, during)
    assert rest is None
    return spell


def begin_cast(game: Game, seat: int, action: Action, during: ResolutionCast | None = None
               ) -> tuple[GameObject, Proc[None] | None]:
    """601.2: cast a spell: every choice checked in the rules' order, then the card moves to the
    stack, the total cost is paid and the spell becomes cast (601.2i). Returns the spell and,
    when paying a cost asks its caster to choose (702.133a: which card jump-start discards, with
    more than one in hand), the procedure that asks, pays it and makes the spell cast.

    ``during``: 608.2g, it is cast while another spell or ability resolves, as that effect
    allows: from where the card is (a copy of a card, 707.12), whatever the timing (a
    restriction to a sorcery's timing still applies, and the stack is not empty), for
    ``free`` if it is cast without paying its mana cost (118.9, with X = 0, 107.3b), and only
    with a mana value the effect allows (601.2e). The caller gives nobody priority after it."""
    st = game.state
    obj = st.objects.get(action.object_id)
    if obj is None or obj.zone in ("stack", "battlefield"):
        raise refusal(game, "601.2a", f"object #{action.object_id} is not a card in "
                      f"{st.players[seat].name}'s hand")
    # 601.2a-b: which card, from where, as which face, with which costs.
    form = _face(game, seat, obj, action, during)
    face = form.face
    chosen = _chosen_costs(game, form, action)
    face_down = is_face_down_cast(chosen)
    card_face = face
    if face_down:
        # 708.3/708.4, 601.3e: it is turned face down before it is put on the stack, and every
        # check below sees the face-down spell (a 2/2 creature spell, mana value 0).
        face = face_down_face(face)
    if not sorcery_timing(game, seat):
        if during is None and not instant_speed(game, seat, obj, face, chosen):
            raise refusal(game, "307.1", f"{face.name} can be cast only in your main phase with "
                          "an empty stack")
        why = timing_refusal(game, seat, obj)
        if why is not None:
            raise refusal(game, "101.2", f"{why}; {face.name} can't be cast now")
    _modes(game, face, action)
    cost = total_cost(face, chosen)
    if during is None:
        cost = taxed(game, seat, obj, cost)
    printed = face.mana_cost or ManaCost(())
    if action.x and not (printed.has_x or cost.has_x):
        raise refusal(game, "601.2b", f"X={action.x} is not allowed for {face.name}")
    if action.x and during is not None and during.free:
        raise refusal(game, "107.3b", f"{face.name} is cast without paying its mana cost: X "
                      f"must be 0, got {action.x}")
    bestowed = any(o.name == "bestow" for o in chosen)
    # 601.2c: targets; 601.2d: the division.
    specs = spell_specs(face, action.modes, bestowed, tuple(o.name for o in chosen))
    groups = split_targets(game, specs, action.targets, seat, obj.id, face.name, obj,
                           cast_as(obj, face))
    divide = _division(game, face, action, seat)
    # 601.2e: the proposed spell (its face's mana value with X) must be legal; 101.2.
    why = cast_refusal(game, seat, obj, action.x, face if face.name != obj.name else None)
    if why is not None:
        raise refusal(game, "101.2", f"{why}; {face.name} can't be cast (601.2e)")
    if during is not None and during.max_mana_value >= 0:
        value = printed.mana_value(action.x)  # 202.3: as it would be on the stack (709.3)
        if value > during.max_mana_value:
            raise refusal(game, "601.2e", f"{during.source} lets a spell with mana value "
                          f"{during.max_mana_value} or less be cast; {face.name}'s is {value}")
    # 601.2f: the total cost is locked in; 601.2g-h: the payment is worked out.
    plan = plan_cost(game, seat, cost, action.x, action)
    discard = any(o.name == "jump-start" for o in chosen)
    if discard and not st.players[seat].hand:
        raise refusal(game, "702.133a", f"jump-start needs a card to discard, and "
                      f"{st.players[seat].name}'s hand is empty (118.3)")
    # Every choice is legal: now it happens (601.2a-h), then the spell becomes cast (601.2i).
    origin = obj.zone
    spell = move_object(game, obj.id, "stack", controller=seat, name=card_face.name,
                        face_down=face_down)
    if origin != "hand":
        spell.cast_from = origin
    # Rare fields (``GameObject``): each set only when not its default, so that a spell
    # without targets, X, modes or costs chosen keeps no dictionary (nor does its last known
    # information, kept for the rest of the game).
    if action.targets:
        spell.targets = action.targets
    if groups:
        spell.target_groups = groups
    if action.x:
        spell.x = action.x
    if action.modes:
        spell.modes = tuple(sorted(action.modes))
    if divide:
        spell.divide = divide
    if chosen:
        spell.cast_costs = tuple(o.name for o in chosen)
    if bestowed or (face.name != obj.name and not face_down):
        spell.bestowed = bestowed
        game.changed()  # its characteristics are the face's, or a bestowed Aura's (702.103b)
    pay_plan(game, seat, plan)
    if discard:
        hand = list(st.players[seat].hand)
        if len(hand) > 1:
            return spell, _discard_then_cast(game, seat, spell)
        _discard(game, seat, hand[0])  # the one card there is: nothing to ask
    _became_cast(game, seat, spell)
    return spell, None


def _discard_then_cast(game: Game, seat: int, spell: GameObject) -> Proc[None]:
    """601.2h/702.133a: jump-start's "discard a card" is paid (its caster chooses which), then
    the spell becomes cast."""
    hand = list(game.state.players[seat].hand)
    for oid in (yield from ask_choose(game, seat, f"702.133a: {spell.name}: discard a card for "
                                      "jump-start", hand, 1, 1)):
        _discard(game, seat, oid)
    _became_cast(game, seat, spell)


def _discard(game: Game, seat: int, oid: int) -> None:
    """701.8: ``seat`` discards the card ``oid`` (a cost's discard, 601.2h)."""
    new = move_object(game, oid, "graveyard")
    game.log("discard", f"{game.player_name(seat)} discards {new.name}", player=seat,
             subject=new.id)


def _became_cast(game: Game, seat: int, spell: GameObject) -> None:
    """601.2i: the spell becomes cast, and "whenever you cast" abilities trigger."""
    trigger_cast(game, spell)
    if game.logging():
        tgt = (" targeting " + ", ".join(visible_name(game, t) for t in spell.targets)
               if spell.targets else "")
        how = f" ({', '.join(spell.cast_costs)})" if spell.cast_costs else ""
        # 708.5: a face-down spell is named to nobody but its controller, who knows it.
        what = f"a face-down spell #{spell.id}" if spell.face_down else spell.name
        game.log("cast", f"{game.state.players[seat].name} casts {what}{how}{tgt}",
                 player=seat, subject=spell.id, refs=tuple(spell.targets))


def pay_mana(game: Game, seat: int, cost: ManaCost, check_only: bool) -> bool:
    """``Game.pay_mana``: whether ``seat`` can pay ``cost`` now by the automatic payment rule,
    and unless ``check_only`` pay it (118.12: "unless [a player] pays")."""
    try:
        plan = plan_cost(game, seat, cost, 0, Action("pass"))
    except IllegalActionError:  # they can't pay
        return False
    if not check_only:
        pay_plan(game, seat, plan)
    return True


MANA_PAYER[:] = [pay_mana]
