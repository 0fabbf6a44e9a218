"""Resolving spells and abilities (608)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..definitions import Condition, Effect, TargetSpec
from ..effects import CreateDelayedTrigger, EffectContext, run_effects
from ..game import Game
from ..layers import become_copy
from ..legality import BESTOW_TARGETS, enter_refusal, is_aura, is_legal_target, spell_target_specs
from ..registry import COST_OPTIONS
from ..state import Event, GameObject, Proc
from ..triggers import condition_holds
from ..views import visible_name
from ..zones import move_object, replace_entering

KEYWORD_DELAYED_EFFECTS: Final[dict[int, tuple[Effect, ...]]] = {}
"""Delayed triggered abilities a keyword creates (603.7), by the key its ``DelayedTrigger`` names
them with (``("", key, 0)``): what each does. The mechanics that create them add theirs
(``rules/mechanics``: dash's return to hand)."""

RESOLVED_SPELL_MOVES: Final[list[Callable[[Game, GameObject], bool]]] = []
"""608.2m: what a mechanic puts a resolved instant or sorcery spell's card elsewhere than its
owner's graveyard with (715.3d: an Adventure is exiled). Each is shown the spell as it finishes
resolving (never one that doesn't resolve, 608.2b, or is countered, 701.5) and returns whether
it moved it. The mechanics add theirs (``rules/mechanics``)."""


def _ability_parts(game: Game, obj: GameObject) -> tuple[tuple[TargetSpec, ...],
                                                          tuple[Effect, ...], Condition | None]:
    """Target specs, effects and intervening-if condition of a spell or ability on the stack."""
    defn = game.cards[obj.name]
    if obj.ability_kind == "activated":
        ab = defn.activated[obj.ability_index - 1]
        return ab.targets, ab.effects, None
    if obj.ability_kind == "triggered":
        if obj.delayed_effects:
            for d in game.state.delayed_triggers:
                if d.id == obj.delayed_effects:
                    name, position, index = d.effects_key
                    if not name:  # a keyword's own delayed trigger (702.109a)
                        return (), KEYWORD_DELAYED_EFFECTS[position], None
                    for trig in game.cards[name].triggered:
                        if trig.position == position:
                            delayed = trig.effects[index]
                            inner = delayed.effects if isinstance(delayed, CreateDelayedTrigger) else ()
                            return (), inner, None
            return (), (), None
        for trig in defn.triggered:
            if trig.position == obj.ability_index:
                return trig.targets, trig.effects, trig.condition
        return (), (), None
    if obj.bestowed:
        return BESTOW_TARGETS, (), None  # 702.103b: enchant creature
    instead = _cost_option(obj, "targets")
    if instead:
        return instead, (), None  # 702.140a: a mutating creature spell's target
    if defn.spell is not None and defn.spell.modes:
        # 700.2: the chosen modes' targets and instructions, in printed order.
        chosen = [defn.spell.modes[m - 1] for m in sorted(obj.modes)]
        return (tuple(t for m in chosen for t in m.targets),
                tuple(e for m in chosen for e in m.effects), None)
    if defn.spell is not None:
        return defn.spell.targets, defn.spell.effects, None
    return spell_target_specs(defn), (), None  # 303.4a: an Aura spell's target


def resolve_top(game: Game) -> Proc[tuple[Event, ...]]:
    """608.2/608.3: resolve the top object of the stack; returns the events.

    608.2b: targets are checked again; if every target is now illegal the spell or ability
    doesn't resolve (a spell goes to its owner's graveyard), otherwise illegal targets are
    left out of what it does. 603.4: an intervening "if" is checked again. 608.2m: an instant
    or sorcery goes to its owner's graveyard last; 608.3: a permanent spell enters the
    battlefield under its controller's control.
    """
    st = game.state
    game.take_events()
    top = st.objects[st.stack[-1]]
    st.passes = 0
    specs, effects, condition = _ability_parts(game, top)
    name = visible_name(game, top.id) if not top.ability_kind else f"ability of {top.name}"
    # 608.2b: which targets are still legal, requirement by requirement.
    legal_groups: list[tuple[int, ...]] = []
    i = 0
    any_legal = False
    for spec, size in zip(specs, top.target_groups, strict=False):
        group = top.targets[i:i + size]
        i += size
        still = tuple(t for t in group if is_legal_target(game, spec, t, top.controller,
                                                          _target_source(game, top)))
        any_legal = any_legal or bool(still)
        legal_groups.append(still)
    fizzle = bool(top.targets) and not any_legal
    if fizzle and (top.bestowed or _cost_option(top, "targets")):
        # 608.3b/702.103e/702.140b: a bestowed Aura spell or a mutating creature spell whose
        # target is illegal is not countered: it is a creature spell and resolves as one.
        top.bestowed = False
        top.targets, top.target_groups = (), ()
        game.changed()
        fizzle = False
        game.log("resolve", f"{name}'s target is illegal: it resolves as a creature spell "
                 "(608.3b)", subject=top.id)
    if top.ability_kind == "triggered" and not condition_holds(
            game, top.controller, condition,
            st.objects.get(top.source_id) or st.lki.get(top.source_id)):
        fizzle = True
        game.log("resolve", f"{name}: its condition is false now; it does nothing (603.4)",
                 subject=top.id)
    if fizzle:
        if top.targets and any_legal is False:
            game.log("resolve", f"{name} doesn't resolve: its targets are illegal (608.2b)",
                     subject=top.id)
        _leave_stack(game, top)
    else:
        game.log("resolve", f"{name} resolves", subject=top.id, player=top.controller)
        if top.ability_kind:
            src = st.objects.get(top.source_id) or st.lki.get(top.source_id) or top
        else:
            src = top
        ctx = EffectContext(game, top, top.controller, src, tuple(legal_groups), top.x,
                            top.trigger_subject, top.ability_index)
        yield from run_effects(ctx, effects)
        if top.id in st.objects:
            # 110.4a: a spell with a permanent type becomes a permanent (its types now, 613).
            merges = _cost_option(top, "resolves") if top.targets else None
            if merges is not None:  # 608.3d: a mutating creature spell merges with its target
                yield from merges(game, top, tuple(t for g in legal_groups for t in g))
            elif not top.ability_kind and not {"Instant", "Sorcery"} & set(game.card_types(top)):
                yield from _enter_battlefield(game, top)
            else:
                _leave_stack(game, top, resolved=True)
    st.resolutions += 1
    st.cycle = "check"
    if not st.game_over:
        # 117.3b: the active player receives priority after a spell or ability resolves.
        st.priority = st.active_or_next()  # 800.4j: or the next player, if they left
        st.passes = 0
    if top.ability_kind:
        # Whether an ability is waiting or on the stack is read by 704.5s and 704.5t (a Saga's
        # chapter, a dungeon's room), and is marked by nothing: a full check.
        st.sba.mark_all()
    else:
        st.sba.due = True  # a check after a spell resolved, of what its resolution changed
    return game.end_batch()


def _cost_option(obj: GameObject, what: str) -> Any:
    """``what`` (``targets``, ``resolves``) of a cost option the spell ``obj`` was cast with
    that has one (``CostOptionRule``); empty or None if none has."""
    for cost in obj.cast_costs:
        rule = COST_OPTIONS.get(cost) if not obj.ability_kind else None
        if rule is not None and getattr(rule, what):
            return getattr(rule, what)
    return None


def _target_source(game: Game, top: GameObject) -> GameObject:
    """113.7a/702.16b: a spell targets as itself, an ability as its source (last known
    information if the source has left)."""
    if not top.ability_kind:
        return top
    st = game.state
    return st.objects.get(top.source_id) or st.lki.get(top.source_id) or top


def _enter_battlefield(game: Game, spell: GameObject) -> Proc[None]:
    """608.3: a permanent spell becomes a permanent under its controller's control. 608.3c: an
    Aura spell enters attached to its target. 608.3e: one that can't enter the battlefield goes
    to its owner's graveyard instead. 614.1c/707.2: its "as it enters" choices are made first
    (``replace_entering``: one that may enter as a copy chooses; the copy is what would enter,
    608.3e looks at it)."""
    event = yield from replace_entering(game, spell.id, "battlefield", controller=spell.controller)
    original = game.state.objects.get(event.copy_of)
    if original is not None:
        become_copy(game, spell, original, spell)
    why = enter_refusal(game, spell)
    if why is not None:
        game.log("resolve", f"{visible_name(game, spell.id)} can't enter the battlefield: {why}; it is put into its "
                 "owner's graveyard (608.3e)", subject=spell.id)
        move_object(game, spell.id, "graveyard")
        return
    target = spell.targets[0] if spell.targets and is_aura(game, spell) else 0
    new = move_object(game, spell.id, "battlefield", controller=spell.controller, event=event)
    for cost in new.cast_costs:
        # 702.109a: dash's haste and return. "Without paying its mana cost" (``free``, 118.9)
        # is an effect's permission, no cost option a card names: it is not registered.
        rule = COST_OPTIONS.get(cost)
        if rule is not None and rule.on_enter is not None:
            rule.on_enter(game, new)
    if target:
        new.attached_to = target
        new.timestamp = game.state.new_timestamp()  # 613.7e
        game.changed()
        game.log("attach", f"{visible_name(game, new.id)} enters attached to {visible_name(game, target)} (608.3c)",
                 subject=new.id)


def _leave_stack(game: Game, obj: GameObject, resolved: bool = False) -> None:
    """608.2m: a spell goes to its owner's graveyard, or, ``resolved``, where a mechanic puts it
    (``RESOLVED_SPELL_MOVES``); an ability ceases to exist."""
    st = game.state
    if obj.id not in st.objects:
        return
    if obj.ability_kind:
        st.stack.remove(obj.id)
        st.lki[obj.id] = st.objects.pop(obj.id)
        if obj.delayed_effects:
            st.delayed_triggers = [d for d in st.delayed_triggers if d.id != obj.delayed_effects]
    elif not (resolved and any(move(game, obj) for move in RESOLVED_SPELL_MOVES)):
        move_object(game, obj.id, "graveyard")
