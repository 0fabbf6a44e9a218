"""Triggered abilities (603): when they trigger, and putting them on the stack in APNAP order."""

from __future__ import annotations

from dataclasses import replace

from ..definitions import TriggeredAbility
from ..game import Game
from ..legality import abilities_as_printed, is_equipment, kinds_seen, target_candidates
from ..state import Answer, Choice, DelayedTrigger, GameObject, PendingTrigger, Proc
from ..views import ask_choose
from ._conditions import condition_holds

TRIGGER_EVENTS: frozenset[str] = frozenset(
    {"enters", "dies", "blocks", "attacks", "beginning_of_step",
     "leaves", "enchanted_dies", "another_creature_enters", "creature_dies",
     "equipment_enters", "you_cast_spell"}
)
"""The closed registry of trigger events a card's data may name."""


def trigger_name(source_name: str, position: int, game: Game) -> str:
    """The scenario-format name of a triggered ability: ``ability: NAME`` (``#N`` added when the
    source has more than one triggered ability)."""
    defn = game.cards.get(source_name)
    if defn is not None and len(defn.triggered) > 1:
        return f"ability: {source_name} #{position}"
    return f"ability: {source_name}"


def _fire(game: Game, obj: GameObject, ability: TriggeredAbility, subject: int = 0,
          name: str = "") -> None:
    """603.2: the ability triggers; 603.4: unless its intervening "if" is false now. ``name``:
    the definition the ability is printed on (``Game.triggered``), by default the object's."""
    you = game.controller(obj)
    if not condition_holds(game, you, ability.condition, obj):
        return
    game.state.pending_triggers.append(
        PendingTrigger(you, obj.id, name or obj.name, ability.position, subject)
    )


_OWN_ENTERS: frozenset[str] = frozenset({"enters", "equipment_enters"})
"""The events of the abilities an entering permanent's own entering may trigger (603.6a)."""
_OTHERS_ENTER: frozenset[str] = frozenset({"another_creature_enters", "equipment_enters"})
"""The events of the abilities another permanent's entering may trigger."""
_OTHERS_DIE: frozenset[str] = frozenset({"creature_dies", "enchanted_dies"})
"""The events of the abilities a permanent still on the battlefield has that a creature's
dying may trigger (603.6c, 603.6e)."""


def _may_trigger(game: Game, new: GameObject | None, own: frozenset[str],
                 others: frozenset[str]) -> bool:
    """Whether a triggered ability for one of ``own`` (on ``new``) or ``others`` (on the other
    permanents) might exist now; false only when none can: every ability is printed on the card
    of one of the game's objects (``abilities_as_printed``), ``new``'s card prints none of
    ``own`` and no card of the game prints one of ``others`` (``kinds_seen``). Then the board's
    abilities need not be evaluated to find none (the usual case)."""
    if not others.isdisjoint(kinds_seen(game)) or not abilities_as_printed(game):
        return True
    if new is None:
        return False
    triggered = game.cards[new.name].triggered
    return bool(triggered) and any(a.event in own for a in triggered)


def trigger_enters(game: Game, new: GameObject) -> None:
    """603.6a: enters-the-battlefield abilities trigger when a permanent enters, with the
    abilities and characteristics it has as it enters (603.6b: continuous effects already apply);
    "whenever another creature enters" on the other permanents."""
    if not _may_trigger(game, new, _OWN_ENTERS, _OTHERS_ENTER):
        return  # nothing there has such an ability (the usual case)
    for name, ability in game.triggered(new):
        if ability.event == "enters":
            _fire(game, new, ability, name=name)
    if is_equipment(game, new):
        _equipment_enters(game, new)
    if not game.is_creature(new):
        return
    st = game.state
    for oid in st.battlefield:
        if oid == new.id:
            continue
        obj = st.objects[oid]
        for name, ability in game.triggered(obj):
            if ability.event == "another_creature_enters":
                _fire(game, obj, ability, subject=new.id, name=name)


def _equipment_enters(game: Game, new: GameObject) -> None:
    """"Whenever an Equipment you control enters" (``whose = "you"``; ``each``: any player's),
    on the permanents already there and the Equipment itself (603.6a)."""
    st = game.state
    for oid in st.battlefield:
        obj = st.objects[oid]
        for name, ability in game.triggered(obj):
            if ability.event == "equipment_enters" and (
                    ability.whose == "each" or game.controller(obj) == game.controller(new)):
                _fire(game, obj, ability, subject=new.id, name=name)


def trigger_leaves(game: Game, old: GameObject, to_zone: str, new_id: int = 0) -> None:
    """603.6c, 603.10a: leaves-the-battlefield abilities look back in time: the permanent's
    abilities as it last existed on the battlefield, and those of the permanents that left the
    battlefield before it in the same event (``GameState.leaving_together``), as they last
    existed there. ``new_id``: the object it became, the ability's ``subject`` ("return it",
    400.7: found in the zone it moved to)."""
    mine = game.triggered(old)  # 603.10a: as it last existed (its LKI characteristics)
    for name, ability in mine:
        if ability.event == "leaves":
            _fire(game, old, ability, name=name)
    if to_zone != "graveyard" or not game.is_creature(old):
        return
    for name, ability in mine:
        if ability.event in ("dies", "creature_dies"):
            _fire(game, old, ability, subject=new_id, name=name)
    st = game.state
    # Those still there, then those gone before it in the same event (603.10a). Those still
    # there are looked at only if one might have such an ability (the usual board: none does).
    watchers = ([st.objects[oid] for oid in st.battlefield]
                if _may_trigger(game, None, _OTHERS_DIE, _OTHERS_DIE) else [])
    if st.leaving_together:
        watchers += [st.lki[oid] for oid in st.leaving_together if oid != old.id and oid in st.lki]
    # "Whenever [this] or another creature dies".
    for other in watchers:
        for name, ability in game.triggered(other):
            if ability.event == "creature_dies":
                _fire(game, other, ability, subject=new_id, name=name)
    # 603.6e/603.10a: "when enchanted creature dies" on the Auras attached to it as it left.
    for aura in watchers:
        if aura.attached_to == old.id:
            for name, ability in game.triggered(aura):
                if ability.event == "enchanted_dies":
                    _fire(game, aura, ability, subject=old.id, name=name)


def trigger_blocks(game: Game, blocker: GameObject, attacker: int) -> None:
    """509.1i/509.3: "whenever this blocks a creature" triggers once per creature blocked."""
    for name, ability in game.triggered(blocker):
        if ability.event == "blocks":
            _fire(game, blocker, ability, subject=attacker, name=name)


def trigger_cast(game: Game, spell: GameObject) -> None:
    """601.2i, 603.2: "whenever you cast a spell" triggers when a spell becomes cast, once its
    total cost is paid, on the permanents its caster controls (the spell is its ``subject``);
    "an instant or sorcery spell" (``spell_types``), "from your library" (``from_zone``: where
    the card was as its casting began, 601.2a).
    A copy put on the stack is not cast (707.10), so copying never comes here."""
    if "you_cast_spell" not in kinds_seen(game) and abilities_as_printed(game):
        return  # no card of the game prints one (the usual case)
    st = game.state
    caster = spell.controller
    for oid in st.battlefield:
        obj = st.objects[oid]
        if game.controller(obj) != caster:
            continue
        for name, ability in game.triggered(obj):
            if (ability.event == "you_cast_spell"
                    and (not ability.spell_types
                         or any(game.is_type(spell, t) for t in ability.spell_types))
                    and (not ability.from_zone
                         or (spell.cast_from or "hand") == ability.from_zone)):
                _fire(game, obj, ability, subject=spell.id, name=name)


def trigger_attacks(game: Game, attacker: GameObject) -> None:
    """508.3a: "whenever this attacks" triggers when it is declared as an attacker."""
    for name, ability in game.triggered(attacker):
        if ability.event == "attacks":
            _fire(game, attacker, ability, name=name)


def trigger_step(game: Game, step: str) -> None:
    """503.1a/513.1a/511.2: "at the beginning of ..." abilities and delayed triggers (603.7)."""
    st = game.state
    caches = game.caches  # this runs at every step: kept per epoch (613)
    layers = caches.layers
    epoch, entries = caches.step_triggers
    if epoch != caches.epoch:
        entries = tuple((oid, name, ability) for oid in st.battlefield
                        for name, ability in layers[oid].triggered
                        if ability.event == "beginning_of_step")
        caches.step_triggers = (caches.epoch, entries)
    for oid, name, ability in entries:
        if ability.step != step:
            continue
        if ability.whose == "you" and layers[oid].controller != st.active:
            continue
        _fire(game, st.objects[oid], ability, name=name)
    if not st.delayed_triggers:
        return  # the usual step: no delayed trigger waits (no list built to find none)
    fired: list[DelayedTrigger] = [
        d for d in st.delayed_triggers if d.event == step and not d.fired
    ]
    if fired:
        # 603.7c: a delayed trigger that refers to a particular event triggers only once; it
        # stays listed (fired) until its ability leaves the stack, which reads its effects.
        st.delayed_triggers = [
            replace(d, fired=True) if d in fired else d for d in st.delayed_triggers
        ]
        for d in fired:
            st.pending_triggers.append(
                PendingTrigger(d.controller, d.source_id, d.source_name, d.position, d.subject,
                               delayed=d.id)
            )


def _ability_targets(game: Game, trig: PendingTrigger) -> TriggeredAbility | None:
    if trig.delayed:
        return None
    for ability in game.cards[trig.source_name].triggered:
        if ability.position == trig.position:
            return ability
    return None


def place_triggers(game: Game) -> Proc[bool]:
    """603.3b: put every waiting triggered ability on the stack: the active player's first, in
    the order they choose, then each other player's in turn order (APNAP). Targets are chosen
    as each is put on the stack (603.3d); one with no legal target is removed. Returns whether
    anything was placed or removed."""
    st = game.state
    if not st.pending_triggers:
        return False
    waiting, st.pending_triggers = st.pending_triggers, []
    for seat in st.apnap():
        mine = [t for t in waiting if t.controller == seat]
        if len(mine) >= 2:
            # 603.3b: the order is asked even if the abilities are identical.
            choices = tuple(
                Choice(i, t.source_id, trigger_name(t.source_name, t.position, game))
                for i, t in enumerate(mine)
            )
            reply = yield game.decision(
                seat, "order",
                "603.3b: order your triggered abilities (first listed goes on the stack first)",
                choices=choices, min=len(mine), max=len(mine),
            )
            assert isinstance(reply, Answer)
            mine = [mine[k] for k in reply.keys]
        for trig in mine:
            if st.players[trig.controller].lost:
                continue  # 800.4a: it left the game with its controller (who left while asked)
            yield from _put_on_stack(game, trig)
    return True


def _put_on_stack(game: Game, trig: PendingTrigger) -> Proc[None]:
    st = game.state
    ability = _ability_targets(game, trig)
    chosen: list[int] = []
    groups: list[int] = []
    if ability is not None:
        for spec in ability.targets:
            # 702.16b, "another": the source (as it is, or last existed) is the one targeting.
            source = st.objects.get(trig.source_id) or st.lki.get(trig.source_id)
            cands = target_candidates(game, spec, trig.controller, trig.source_id, source)
            if len(cands) < spec.min:
                game.log("trigger_removed",
                         f"{trigger_name(trig.source_name, trig.position, game)} has no legal "
                         "target and is removed (603.3d)", player=trig.controller)
                return
            picked = yield from ask_choose(game,
                trig.controller, f"603.3d: choose targets for {trig.source_name}", cands,
                spec.min, spec.max)
            if st.players[trig.controller].lost:
                return  # 800.4a: its controller left the game while choosing
            chosen.extend(picked)
            groups.append(len(picked))
    oid = st.new_id()
    obj = GameObject(
        id=oid,
        card=0,
        name=trig.source_name,
        owner=trig.controller,
        controller=trig.controller,
        zone="stack",
        timestamp=st.new_timestamp(),
        ability_index=trig.position,
        ability_kind="triggered",
        source_id=trig.source_id,
        targets=tuple(chosen),
        target_groups=tuple(groups),
        trigger_subject=trig.subject,
        delayed_effects=trig.delayed,
    )
    st.objects[oid] = obj
    st.stack.append(oid)
    game.log("trigger", f"{trigger_name(trig.source_name, trig.position, game)} goes on the stack",
             player=trig.controller, subject=oid)
