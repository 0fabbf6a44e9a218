"""State-based actions (704): what applies, looked at only where something changed, performed all
at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter

from ..definitions import definition_named
from ..effects import EffectContext, run_effects
from ..ending import check_game_over, lose_game
from ..game import Game
from ..layers import add_counters
from ..legality import attachment_problems, unattach
from ..replacement import replace_loss
from ..state import AbilityRef, Event, GameObject, PlayerState, Proc, SBAChanges
from ..views import ask_choose, visible_name
from ..zones import destroy_permanent, move_object_proc, simultaneous_moves


@dataclass(slots=True)
class _Found:
    """What one look at the state found (``_look``); looking changes nothing."""

    losers: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    """704.7: each player who loses, with every reason at once (704.5a-c)."""
    vanish: list[int] = field(default_factory=list)
    """704.5d: tokens in a zone other than the battlefield; 704.5e: copies of spells in a zone
    other than the stack, copies of cards in a zone other than the stack and the battlefield."""
    to_graveyard: dict[int, str] = field(default_factory=dict)
    """Permanents put into their owners' graveyards, with the reason (704.5f, i)."""
    destroy: dict[int, str] = field(default_factory=dict)
    """Creatures destroyed, with the reason (704.5g, h)."""
    annihilate: list[int] = field(default_factory=list)
    """704.5q: permanents with both +1/+1 and -1/-1 counters."""
    capped: list[tuple[int, str, int]] = field(default_factory=list)
    """704.5r: (permanent, counter kind, most it may have) for counters beyond a cap."""
    legends: list[GameObject] = field(default_factory=list)
    """704.5j: legendary permanents (only when every permanent was looked at)."""
    worlds: list[GameObject] = field(default_factory=list)
    """704.5k: world permanents (only when every permanent was looked at)."""
    attachments: bool = False
    """Whether a permanent looked at is attached, or is an Aura (704.5m/n/p/y; only when every
    permanent was looked at)."""
    players: list[PlayerState] = field(default_factory=list)
    """The players looked at."""
    deathtouched: list[GameObject] = field(default_factory=list)
    """The permanents looked at with deathtouch damage marked (the check clears the mark)."""


_IS_TOKEN = attrgetter("is_token")
_IS_COPY = attrgetter("is_copy")
_IS_CARD_COPY = attrgetter("card_copy")


def _look(game: Game, changes: SBAChanges) -> _Found:
    """704.3: look for the state-based actions that apply, where ``changes`` says something may
    have changed since the last check (everything, if it says so); nothing changes.

    After a check that performed nothing, none applied: so the players, tokens and permanents
    not named in ``changes`` need no look, and without a change to the board (``board``) the
    legend, world and attachment rules have nothing new to find. Whatever is looked at is
    looked at in the order a look at everything would take (players in turn order, objects by
    id, permanents in the order they entered), so the actions and their order are the same.
    """
    st = game.state
    found = _Found()
    every = changes.everything
    board = every or changes.board
    if every or changes.players:
        for p in st.players:
            if p.lost or not (every or p.seat in changes.players):
                continue
            found.players.append(p)
            # 704.7: every reason a player has to lose now is part of one event.
            reasons = tuple(why for test, why in (
                (p.life <= 0, "has 0 or less life (704.5a)"),
                (p.drew_from_empty, "drew from an empty library (704.5b)"),
                (p.poison >= 10, "has ten or more poison counters (704.5c)")) if test)
            if reasons:
                found.losers.append((p.seat, reasons))
    if every:
        # Only tokens and copies need a look: picked out of every object without a Python step
        # each. 704.5d: tokens off the battlefield; 704.5e: copies of spells off the stack,
        # copies of cards off the stack and the battlefield.
        every_object = st.objects.values()
        found.vanish += [o.id for o in filter(_IS_TOKEN, every_object) if o.zone != "battlefield"]
        found.vanish += [o.id for o in filter(_IS_COPY, every_object) if o.zone != "stack"]
        found.vanish += [o.id for o in filter(_IS_CARD_COPY, every_object)
                         if o.zone != "battlefield" and o.zone != "stack"]
    elif changes.tokens:
        # The objects marked as they moved (a token, or a copy, that changed zones) are the
        # only ones that may have to cease to exist.
        objects_by_id = st.objects
        for oid in sorted(changes.tokens):
            obj = objects_by_id.get(oid)
            if obj is not None and _ceases_to_exist(obj):
                found.vanish.append(oid)
    if board:
        looked = st.battlefield
    elif changes.objects:
        looked = [oid for oid in st.battlefield if oid in changes.objects]
    else:
        return found
    to_graveyard, destroy = found.to_graveyard, found.destroy
    layers = game.caches.layers  # one lookup for every test below (613)
    objects = st.objects
    for oid in looked:
        obj = objects[oid]
        if obj.deathtouch_damage:
            found.deathtouched.append(obj)
        c = layers[oid]
        if board:
            if obj.attached_to or "Aura" in c.subtypes:
                found.attachments = True
            if c.supertypes:
                if "Legendary" in c.supertypes:
                    found.legends.append(obj)
                if "World" in c.supertypes:
                    found.worlds.append(obj)
        types = c.card_types
        if "Creature" in types:
            t = c.toughness or 0
            if t <= 0:
                to_graveyard[oid] = "toughness 0 or less (704.5f)"
            elif obj.damage >= t and obj.damage > 0:
                destroy[oid] = "lethal damage (704.5g)"
            elif obj.deathtouch_damage:
                # Even damage dealt as -1/-1 counters (infect, 702.90c) counts (704.5h).
                destroy[oid] = "damage from a deathtouch source (704.5h)"
        counters = obj.counters
        if "Planeswalker" in types and counters.get("loyalty", 0) <= 0:
            to_graveyard[oid] = "0 loyalty (704.5i)"
        if not counters:
            continue  # 704.5q and 704.5r are about counters
        if counters.get("+1/+1", 0) and counters.get("-1/-1", 0):
            found.annihilate.append(oid)
        # 704.5r: a cap is a static ability it has now (a copy's, 707.2; none lost in 613.1f).
        for kind, most, pos in definition_named(game.cards, c.definition).counter_limits:
            if counters.get(kind, 0) > most and AbilityRef(c.definition, "static", pos) in c.abilities:
                found.capped.append((oid, kind, most))
    return found


def _ceases_to_exist(obj: GameObject) -> bool:
    """704.5d/704.5e: a token off the battlefield, a copy of a spell off the stack, a copy of a
    card off the stack and the battlefield."""
    zone = obj.zone
    return ((obj.is_token and zone != "battlefield") or (obj.is_copy and zone != "stack")
            or (obj.card_copy and zone != "battlefield" and zone != "stack"))


def _ceases(obj: GameObject) -> str:
    """The words for a token or copy that ceases to exist (704.5d, 704.5e)."""
    if obj.is_copy or obj.card_copy:
        return f"the copy of {obj.name} ceases to exist (704.5e)"
    return f"token {obj.name} ceases to exist (704.5d)"


def _legend_groups(game: Game, legends: list[GameObject], seat: int) -> dict[str, list[int]]:
    """704.5j: ``seat``'s legendary permanents by name (201.2: the name each has now; a copy's
    is the original's, 707.2)."""
    groups: dict[str, list[int]] = {}
    for obj in legends:
        if game.controller(obj) == seat:
            groups.setdefault(game.characteristics(obj).name, []).append(obj.id)
    return groups


def _worlds_to_graveyard(worlds: list[GameObject]) -> list[int]:
    """704.5k: of two or more world permanents, all but the newest go to the graveyard (all of
    them if the newest are tied)."""
    if len(worlds) < 2:
        return []
    newest = max(o.timestamp for o in worlds)
    tied = sum(1 for o in worlds if o.timestamp == newest)
    return [o.id for o in worlds if o.timestamp != newest or tied > 1]


def sba_would_apply(game: Game) -> tuple[str, ...]:
    """704.3 as a look at everything, changing nothing: each state-based action that applies
    now, in words (the legend rule as the choice it would ask); empty when none does.

    Whatever ``state_based_actions`` skips, this does not: when priority is about to be granted
    it must find nothing, or a change was not marked (``SBAChanges``).
    """
    st = game.state
    if st.game_over:
        return ()
    found = _look(game, SBAChanges())
    out = [f"{st.players[seat].name} {' and '.join(reasons)}" for seat, reasons in found.losers]
    out += [_ceases(st.objects[oid]) for oid in found.vanish]
    out += [f"{st.objects[oid].name} to the graveyard: {why}" for oid, why in found.to_graveyard.items()]
    out += [f"{st.objects[oid].name} destroyed: {why}" for oid, why in found.destroy.items()]
    out += [f"{st.objects[oid].name} loses counter pairs (704.5q)" for oid in found.annihilate]
    out += [f"{st.objects[oid].name} has more than {most} {kind} (704.5r)"
            for oid, kind, most in found.capped]
    for seat in st.apnap() if len(found.legends) >= 2 else ():
        out += [f"{st.players[seat].name} keeps one {name} (704.5j)"
                for name, ids in _legend_groups(game, found.legends, seat).items() if len(ids) >= 2]
    out += [f"{st.objects[oid].name}: world rule (704.5k)" for oid in _worlds_to_graveyard(found.worlds)]
    if found.attachments:
        aura_graveyard, unattached = attachment_problems(game)
        out += [f"{st.objects[oid].name}: {why}" for oid, why in (aura_graveyard | unattached).items()]
    return tuple(out)


def state_based_actions(game: Game) -> Proc[tuple[Event, ...]]:
    """704.3: perform every state-based action that applies, all at once as one event.

    Returns the events of that batch; an empty tuple means none applied. Callers repeat until
    none apply. The legend rule (704.5j) asks each affected player which one to keep.

    Only what changed since the last check is looked at (``GameState.sba``, see ``_look``);
    the changes are forgotten as the check starts (a change made while a player is asked about
    the legend rule is kept for the next check), and after a check that performed anything the
    next one looks at everything.
    """
    st = game.state
    if st.game_over:
        return ()
    game.take_events()  # the batch's events start here
    changes, st.sba = st.sba, SBAChanges(everything=False)
    found = _look(game, changes)
    for p in found.players:
        p.drew_from_empty = False
    for obj in found.deathtouched:
        obj.deathtouch_damage = False
    losers, vanish, to_graveyard = found.losers, found.vanish, found.to_graveyard
    destroy, annihilate, capped, legends = found.destroy, found.annihilate, found.capped, found.legends

    # 704.5j: the legend rule; each player chooses among their own same-named legends.
    for seat in st.apnap() if len(legends) >= 2 else ():
        for name, ids in _legend_groups(game, legends, seat).items():
            if len(ids) < 2:
                continue
            keep = yield from ask_choose(game,
                seat, f"704.5j: choose the {name} to keep; the others go to the graveyard",
                ids, 1, 1)
            for oid in ids:
                if oid not in keep:
                    to_graveyard.setdefault(oid, "legend rule (704.5j)")

    # 704.5k: the world rule.
    for oid in _worlds_to_graveyard(found.worlds):
        to_graveyard.setdefault(oid, "world rule (704.5k)")

    # 704.5m, 704.5n, 704.5p, 704.5y: Auras, Equipment and Roles attached illegally.
    aura_graveyard, unattached = attachment_problems(game) if found.attachments else ({}, {})
    for oid, why in aura_graveyard.items():
        to_graveyard.setdefault(oid, why)

    if not (losers or vanish or to_graveyard or destroy or annihilate or unattached or capped):
        game.end_batch()  # nothing applied: the batch's events (none, as a rule) are not returned
        return ()

    # All at once (704.3). (A player asked about the legend rule may have left the game
    # meanwhile, taking their objects with them: 800.4a.)
    vanish = [oid for oid in vanish if oid in st.objects]
    for oid, why in unattached.items():
        if oid in st.objects:
            unattach(game, st.objects[oid], why)
    for oid in vanish:
        obj = st.objects.pop(oid)
        st.zone_list(obj.zone, obj.owner).remove(oid)
        st.lki[oid] = obj
        game.log("sba", _ceases(obj), subject=oid)
    with simultaneous_moves(game):  # 603.10a: they all look back on each other
        for oid, why in to_graveyard.items():
            if oid in st.objects and st.objects[oid].zone == "battlefield":
                name = st.objects[oid].name
                game.log("sba", f"{name} is put into its owner's graveyard: {why}", subject=oid)
                yield from move_object_proc(game, oid, "graveyard")
        for oid, why in destroy.items():
            # 704.5g/704.5h destroy: a regeneration shield may replace it (701.15a).
            if oid not in to_graveyard:
                yield from destroy_permanent(game, oid, why)
    # Counters change after the moves, so what left is remembered as it was (704.8, 603.10a).
    for oid in annihilate:
        if oid not in st.objects or st.objects[oid].zone != "battlefield":
            continue
        obj = st.objects[oid]
        n = min(obj.counters["+1/+1"], obj.counters["-1/-1"])
        add_counters(game, obj, "+1/+1", -n)
        add_counters(game, obj, "-1/-1", -n)
        game.log("sba", f"{n} +1/+1 and -1/-1 counter pairs on {visible_name(game, oid)} are removed "
                 "(704.5q)",
                 subject=oid)
    for oid, kind, most in capped:
        if oid in st.objects and st.objects[oid].zone == "battlefield":
            obj = st.objects[oid]
            game.log("sba", f"{obj.counters[kind] - most} {kind} counter(s) are removed from "
                     f"{visible_name(game, oid)}: it can't have more than {most} (704.5r)", subject=oid)
            add_counters(game, obj, kind, most - obj.counters[kind])
    for seat, reasons in losers:
        # 704.7/614.1a: one loss event per player, replaced once if anything replaces it.
        if st.players[seat].lost:
            continue
        loss = yield from replace_loss(game, seat, reasons)
        if loss.replaced:  # what the replacement effect does instead (614.1a)
            source = st.objects.get(loss.instead_source) or st.lki[loss.instead_source]
            ctx = EffectContext(game, source, seat, source, (), 0, 0, loss.instead_position)
            yield from run_effects(ctx, loss.instead)
        else:
            lose_game(game, seat, " and ".join(reasons), check=False)
    check_game_over(game)
    st.sba.mark_all()  # 704.3: check again, everything, until none applies
    return game.end_batch()
