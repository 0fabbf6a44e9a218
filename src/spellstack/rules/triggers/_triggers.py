"""Triggered abilities (603): when they trigger, and putting them on the stack in APNAP order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from ..definitions import TriggeredAbility
from ..game import Game
from ..legality import abilities_as_printed, is_equipment, kinds_seen, target_candidates
from ..registry import COUNTERS_CHANGED, HAPPENINGS, TRIGGER_EVENTS, Happening, TriggerEvent
from ..state import STEPS, Answer, Choice, DelayedTrigger, GameObject, PendingTrigger, Proc
from ..views import ask_choose
from ._conditions import condition_holds


def trigger_name(source_name: str, position: int, game: Game) -> str:
    """The scenario-format name of a triggered ability: ``ability: NAME`` (``#N`` added when the
    source has more than one triggered ability)."""
    defn = game.cards.get(source_name)
    if defn is not None and len(defn.triggered) > 1:
        return f"ability: {source_name} #{position}"
    return f"ability: {source_name}"


def triggered_not_left_stack(game: Game, source_id: int,
                             which: Callable[[str, int], bool] | None = None) -> bool:
    """Whether a triggered ability of the object ``source_id`` has triggered and not yet left the
    stack: waiting to be put on it (603.3) or on it. The state-based actions of a Saga, a dungeon
    and a battle wait for it (704.5s, 704.5t, 704.5v). ``which`` narrows it to some of the
    object's abilities, by the definition they are printed on and their position (a Saga's
    chapter abilities)."""
    st = game.state
    for t in st.pending_triggers:
        if t.source_id == source_id and (which is None or which(t.source_name, t.position)):
            return True
    for oid in st.stack:
        s = st.objects[oid]
        if (s.source_id == source_id and s.ability_kind == "triggered"
                and (which is None or which(s.name, s.ability_index))):
            return True
    return False


def trigger_ability(game: Game, obj: GameObject, ability: TriggeredAbility, subject: int = 0,
                    name: str = "") -> None:
    """603.2: the ability triggers; 603.4: unless its intervening "if" is false now. ``name``:
    the definition the ability is printed on (``Game.triggered``), by default the object's."""
    you = game.controller(obj)
    if not condition_holds(game, you, ability.condition, obj):
        return
    game.state.pending_triggers.append(
        PendingTrigger(you, obj.id, name or obj.name, ability.position, subject)
    )


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


# ---------------------------------------------------------------- the events and their matchers


# Made for each happening: a plain slotted dataclass with its constructor written out, compiled
# code in the compiled build (see ``game.SeatBoard``).
@dataclass(slots=True)
class Happened:
    """One happening (``Happening``), as a trigger event's matcher is shown it."""

    obj: GameObject | None
    """The object it is about: the permanent entering, the one leaving (as it last existed,
    603.10a), the blocker, the attacker, the spell cast; None for a step."""
    abilities: tuple[tuple[str, TriggeredAbility], ...]
    """``obj``'s triggered abilities as it has them (603.6b: as it enters; 603.10a: as it last
    existed), each with the definition it is printed on; empty for a spell cast and a step."""
    other: int
    """``leaves``: the object it became in the zone it went to (400.7); ``blocks``: the
    attacker it blocks; ``counters``: how many were put on it (removed: a negative count)."""
    zone: str
    """``leaves``: the zone it went to; ``counters``: the counters' kind."""
    died: bool
    """``leaves``: whether it died (700.4: a creature put into a graveyard from the
    battlefield)."""
    step: str
    """``step``: the step that began."""

    def __init__(self, obj: GameObject | None, abilities: tuple[tuple[str, TriggeredAbility], ...], other: int,
                 zone: str, died: bool, step: str) -> None:
        self.obj = obj
        self.abilities = abilities
        self.other = other
        self.zone = zone
        self.died = died
        self.step = step


def _enters(game: Game, seen: Happened) -> None:
    """603.6a: "when [this] enters", with the abilities it has as it enters (603.6b)."""
    new = seen.obj
    assert new is not None
    for name, ability in seen.abilities:
        if ability.event == "enters":
            trigger_ability(game, new, ability, name=name)


def _equipment_enters(game: Game, seen: Happened) -> None:
    """"Whenever an Equipment you control enters" (``whose = "you"``; ``each``: any player's),
    on the permanents already there and the Equipment itself (603.6a)."""
    new = seen.obj
    assert new is not None
    if not is_equipment(game, new):
        return
    st = game.state
    for oid in st.battlefield:
        obj = st.objects[oid]
        for name, ability in game.triggered(obj):
            if ability.event == "equipment_enters" and (
                    ability.whose == "each" or game.controller(obj) == game.controller(new)):
                trigger_ability(game, obj, ability, subject=new.id, name=name)


def _another_creature_enters(game: Game, seen: Happened) -> None:
    """"Whenever another creature enters", on the other permanents (603.6a)."""
    new = seen.obj
    assert new is not None
    if not game.is_creature(new):
        return
    st = game.state
    for oid in st.battlefield:
        if oid == new.id:
            continue
        obj = st.objects[oid]
        for name, ability in game.triggered(obj):
            if ability.event == "another_creature_enters":
                trigger_ability(game, obj, ability, subject=new.id, name=name)


def _leaves(game: Game, seen: Happened) -> None:
    """603.6c: "when [this] leaves the battlefield", as it last existed there (603.10a)."""
    old = seen.obj
    assert old is not None
    for name, ability in seen.abilities:
        if ability.event == "leaves":
            trigger_ability(game, old, ability, name=name)


_CREATURE_DIES: Final[frozenset[str]] = frozenset({"creature_dies"})
_ENCHANTED_DIES: Final[frozenset[str]] = frozenset({"enchanted_dies"})


def _watchers(game: Game, old: GameObject, events: frozenset[str]) -> list[GameObject]:
    """The permanents that may see ``old`` die: those still on the battlefield (looked at only if
    one might have an ability of ``events``; the usual board: none does), then those that left
    before it in the same event, as they last existed there (603.10a)."""
    st = game.state
    watchers = ([st.objects[oid] for oid in st.battlefield]
                if _may_trigger(game, None, _NONE, events) else [])
    if st.leaving_together:
        watchers += [st.lki[oid] for oid in st.leaving_together if oid != old.id and oid in st.lki]
    return watchers


def _dies(game: Game, seen: Happened) -> None:
    """700.4, 603.6c: "when [this] dies", its subject the card it became (400.7)."""
    old = seen.obj
    if not seen.died or old is None:
        return
    for name, ability in seen.abilities:
        if ability.event == "dies":
            trigger_ability(game, old, ability, subject=seen.other, name=name)


def _creature_dies(game: Game, seen: Happened) -> None:
    """"Whenever [this] or another creature dies": on the creature itself, then on the others
    (603.10a), its subject the card it became."""
    old = seen.obj
    if not seen.died or old is None:
        return
    for name, ability in seen.abilities:
        if ability.event == "creature_dies":
            trigger_ability(game, old, ability, subject=seen.other, name=name)
    for other in _watchers(game, old, _CREATURE_DIES):
        for name, ability in game.triggered(other):
            if ability.event == "creature_dies":
                trigger_ability(game, other, ability, subject=seen.other, name=name)


def _enchanted_dies(game: Game, seen: Happened) -> None:
    """603.6e/603.10a: "when enchanted creature dies", on the Auras attached to it as it left;
    its subject the creature."""
    old = seen.obj
    if not seen.died or old is None:
        return
    for aura in _watchers(game, old, _ENCHANTED_DIES):
        if aura.attached_to == old.id:
            for name, ability in game.triggered(aura):
                if ability.event == "enchanted_dies":
                    trigger_ability(game, aura, ability, subject=old.id, name=name)


def _blocks(game: Game, seen: Happened) -> None:
    """509.1i/509.3: "whenever this blocks a creature", once per creature blocked."""
    blocker = seen.obj
    assert blocker is not None
    for name, ability in seen.abilities:
        if ability.event == "blocks":
            trigger_ability(game, blocker, ability, subject=seen.other, name=name)


def _attacks(game: Game, seen: Happened) -> None:
    """508.3a: "whenever this attacks", when it is declared as an attacker."""
    attacker = seen.obj
    assert attacker is not None
    for name, ability in seen.abilities:
        if ability.event == "attacks":
            trigger_ability(game, attacker, ability, name=name)


def _you_cast_spell(game: Game, seen: Happened) -> None:
    """601.2i: "whenever you cast a spell", on the permanents its caster controls; "an instant or
    sorcery spell" (``spell_types``), "from your library" (``from_zone``: where the card was as
    its casting began, 601.2a)."""
    spell = seen.obj
    assert spell is not None
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
                trigger_ability(game, obj, ability, subject=spell.id, name=name)


def _step_abilities(game: Game) -> tuple[tuple[int, str, TriggeredAbility], ...]:
    """The triggered abilities permanents have of the events that watch a step beginning
    (``_ON["step"]``), as (object id, definition, ability) in battlefield order; kept per epoch
    (613: a step begins many times an epoch)."""
    caches = game.caches
    epoch, entries = caches.step_triggers
    if epoch != caches.epoch:  # (the callers test this first: a step begins often)
        layers, events = caches.layers, _STEP_EVENTS
        entries = tuple((oid, name, ability) for oid in game.state.battlefield
                        for name, ability in layers[oid].triggered if ability.event in events)
        caches.step_triggers = (caches.epoch, entries)
    return entries


def _beginning_of_step(game: Game, seen: Happened) -> None:
    """503.1a/513.1a/511.2: "at the beginning of [step]" (``whose``: "you": only in its
    controller's turn)."""
    st = game.state
    caches = game.caches
    layers = caches.layers
    step = seen.step
    epoch, entries = caches.step_triggers
    for oid, name, ability in entries if epoch == caches.epoch else _step_abilities(game):
        if ability.event != "beginning_of_step" or ability.step != step:
            continue
        if ability.whose == "you" and layers[oid].controller != st.active:
            continue
        trigger_ability(game, st.objects[oid], ability, name=name)


for _name, _event in (
    ("enters", TriggerEvent("603.6a", "when this permanent enters", "enters", True, False, _enters)),
    ("equipment_enters", TriggerEvent("603.6a", "whenever an Equipment you control (or any) enters",
                                      "enters", True, True, _equipment_enters)),
    ("another_creature_enters", TriggerEvent("603.6a", "whenever another creature enters", "enters",
                                             False, True, _another_creature_enters)),
    ("leaves", TriggerEvent("603.6c", "when this permanent leaves the battlefield", "leaves", True,
                            False, _leaves)),
    ("dies", TriggerEvent("603.6c", "when this creature dies (700.4)", "leaves", True, False, _dies)),
    ("creature_dies", TriggerEvent("603.6c", "whenever this or another creature dies", "leaves",
                                   True, True, _creature_dies)),
    ("enchanted_dies", TriggerEvent("603.6e", "when enchanted creature dies", "leaves", False, True,
                                    _enchanted_dies)),
    ("blocks", TriggerEvent("509.1i", "whenever this creature blocks a creature", "blocks", True,
                            False, _blocks)),
    ("attacks", TriggerEvent("508.3a", "whenever this creature attacks", "attacks", True, False,
                             _attacks)),
    ("you_cast_spell", TriggerEvent("601.2i", "whenever you cast a spell", "cast", False, True,
                                    _you_cast_spell)),
    ("beginning_of_step", TriggerEvent("503.1a", "at the beginning of a step", "step", False, True,
                                       _beginning_of_step)),
):
    TRIGGER_EVENTS.register(_name, _event)

_NONE: Final[frozenset[str]] = frozenset()
_ON: Final[dict[Happening, tuple[TriggerEvent[Game, Happened], ...]]] = {}
"""The registered events by the happening they watch, in registry order."""
_OWN: Final[dict[Happening, frozenset[str]]] = {}
"""By happening, the events an ability of the object it is about may have."""
_OTHERS: Final[dict[Happening, frozenset[str]]] = {}
"""By happening, the events other permanents' abilities may have."""
_STEP_EVENTS: frozenset[str] = frozenset()  # set once the trigger events are registered
"""The events that watch a step beginning."""


def _counters_changed(game: Game, obj: GameObject, kind: str, count: int) -> None:
    """122.6: ``count`` counters of ``kind`` were put on the permanent ``obj`` (removed from it,
    when negative), which abilities of the events watching ``counters`` may trigger on."""
    if not _may_trigger(game, obj, _OWN["counters"], _OTHERS["counters"]):
        return  # no card of the game prints such an ability (the usual case)
    seen: Happened = Happened(obj, game.triggered(obj), count, kind, False, "")
    for event in _ON["counters"]:
        event.fire(game, seen)


def _index() -> None:
    """Rebuild ``_ON``, ``_OWN`` and ``_OTHERS`` from the registry, and tell ``rules/layers``
    whether a trigger event watches counters (``COUNTERS_CHANGED``)."""
    for happening in HAPPENINGS:
        events = [(name, e) for name, e in TRIGGER_EVENTS.items() if e.on == happening]
        _ON[happening] = tuple(e for _, e in events)
        _OWN[happening] = frozenset(name for name, e in events if e.own)
        _OTHERS[happening] = frozenset(name for name, e in events if e.others)
    global _STEP_EVENTS
    _STEP_EVENTS = _OWN["step"] | _OTHERS["step"]
    COUNTERS_CHANGED[:] = [_counters_changed] if _ON["counters"] else []


TRIGGER_EVENTS.watch(_index)


# ---------------------------------------------------------------- the happenings


def trigger_enters(game: Game, new: GameObject) -> None:
    """603.6a: a permanent entered: abilities trigger with the abilities and characteristics it
    has as it enters (603.6b: continuous effects already apply), its own and the other
    permanents'."""
    if not _may_trigger(game, new, _OWN["enters"], _OTHERS["enters"]):
        return  # nothing there has such an ability (the usual case)
    seen: Happened = Happened(new, game.triggered(new), 0, "", False, "")
    for event in _ON["enters"]:
        event.fire(game, seen)


def trigger_leaves(game: Game, old: GameObject, to_zone: str, new_id: int = 0) -> None:
    """603.6c, 603.10a: a permanent left the battlefield: leaves-the-battlefield abilities look
    back in time: the permanent's abilities as it last existed on the battlefield, and those of
    the permanents that left the battlefield before it in the same event
    (``GameState.leaving_together``), as they last existed there. ``new_id``: the object it
    became, the ability's ``subject`` ("return it", 400.7: found in the zone it moved to)."""
    seen: Happened = Happened(old, game.triggered(old), new_id, to_zone,
                              to_zone == "graveyard" and game.is_creature(old), "")
    for event in _ON["leaves"]:
        event.fire(game, seen)


def trigger_blocks(game: Game, blocker: GameObject, attacker: int) -> None:
    """509.1i/509.3: a creature blocks ``attacker`` (once per creature blocked)."""
    seen: Happened = Happened(blocker, game.triggered(blocker), attacker, "", False, "")
    for event in _ON["blocks"]:
        event.fire(game, seen)


def trigger_cast(game: Game, spell: GameObject) -> None:
    """601.2i, 603.2: a spell became cast, once its total cost is paid (the spell is the
    abilities' ``subject``). A copy put on the stack is not cast (707.10), so copying never
    comes here."""
    if _OTHERS["cast"].isdisjoint(kinds_seen(game)) and abilities_as_printed(game):
        return  # no card of the game prints one (the usual case)
    seen: Happened = Happened(spell, (), 0, "", False, "")
    for event in _ON["cast"]:
        event.fire(game, seen)


def trigger_attacks(game: Game, attacker: GameObject) -> None:
    """508.3a: a creature is declared as an attacker."""
    seen: Happened = Happened(attacker, game.triggered(attacker), 0, "", False, "")
    for event in _ON["attacks"]:
        event.fire(game, seen)


def trigger_merges(game: Game, merged: GameObject) -> None:
    """725.1, 702.140d: a resolving spell merged with the permanent ``merged`` (it is the same
    object: it neither left nor entered), with the abilities the merged permanent has."""
    seen: Happened = Happened(merged, game.triggered(merged), 0, "", False, "")
    for event in _ON["merges"]:
        event.fire(game, seen)


_STEP_BEGAN: Final[dict[str, Happened]] = {step: Happened(None, (), 0, "", False, step) for step in STEPS}
"""Each step's beginning, made once (a step begins many times a game)."""


def trigger_step(game: Game, step: str) -> None:
    """A step began: "at the beginning of ..." abilities, then delayed triggers (603.7)."""
    caches = game.caches
    epoch, entries = caches.step_triggers
    if entries if epoch == caches.epoch else _step_abilities(game):  # else no matcher is called
        seen = _STEP_BEGAN[step]
        for event in _ON["step"]:
            event.fire(game, seen)
    st = game.state
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
                st.sba.board = True  # 704.5s: its source may wait for it no more (714.4)
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
