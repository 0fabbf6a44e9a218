"""Attachments (301.5, 303.4, 701.3): Auras, Equipment and Roles (the state-based actions that
check them, 704.5m, 704.5n, 704.5p and 704.5y, are in ``rules/sba``).

An attached permanent records what it is attached to in ``GameObject.attached_to`` (an object
id, or a player ref for an Aura with "enchant player"). What an Aura can enchant is its enchant
ability (702.5), ``CardDefinition.enchant``: a target kind from ``TARGET_KINDS``. An Aura spell
targets what it could enchant (303.4a) and enters attached to that target (608.3c).
"""

from __future__ import annotations

from typing import Final

from ..definitions import CardDefinition, TargetSpec
from ..game import Game
from ..state import GameObject, is_player_ref, seat_of_ref
from ..views import visible_name
from ._protection import protected_from
from ._targets import TARGET_KINDS


def _subtypes(game: Game, obj: GameObject) -> tuple[str, ...]:
    return game.subtypes(obj)


def is_aura(game: Game, obj: GameObject) -> bool:
    """303.4: an Enchantment with the Aura subtype."""
    return game.is_type(obj, "Enchantment") and "Aura" in _subtypes(game, obj)


def is_equipment(game: Game, obj: GameObject) -> bool:
    """301.5: an Artifact with the Equipment subtype."""
    return game.is_type(obj, "Artifact") and "Equipment" in _subtypes(game, obj)


def is_role(game: Game, obj: GameObject) -> bool:
    """303.7: an Aura with the Role subtype."""
    return is_aura(game, obj) and "Role" in _subtypes(game, obj)


BESTOW_TARGETS: Final = (TargetSpec("creature"),)
"""702.103b: a bestowed Aura spell's target requirement, from its enchant creature."""


def enchant_kind(game: Game, obj: GameObject) -> str:
    """702.5: what an Aura can enchant (a target kind); 702.103b: a bestowed one, creatures."""
    return "creature" if obj.bestowed else game.cards[obj.name].enchant


def aura_target_spec(defn: CardDefinition) -> TargetSpec | None:
    """303.4a: the target an Aura spell requires: what its enchant ability allows."""
    if not defn.enchant or "Aura" not in defn.subtypes:
        return None
    return TargetSpec(defn.enchant)


def spell_target_specs(defn: CardDefinition) -> tuple[TargetSpec, ...]:
    """The target requirements of a spell: its spell ability's (instants and sorceries) or, for an
    Aura spell, the one its enchant ability defines (303.4a, 601.2c, 608.2b)."""
    if defn.spell is not None:
        return defn.spell.targets
    spec = aura_target_spec(defn)
    return (spec,) if spec is not None else ()


def can_attach(game: Game, obj: GameObject, ref: int) -> bool:
    """Whether ``obj`` could be legally attached to ``ref`` now.

    303.4d: an Aura to an object or player its enchant ability allows, never itself; 301.5c: an
    Equipment only to a creature, never itself, and not while it is a creature itself (704.5p);
    702.16c/d: not to a permanent with protection from a quality of the Aura or Equipment.
    """
    if is_player_ref(ref):
        seat = seat_of_ref(ref)
        if not is_aura(game, obj) or seat >= len(game.state.players) or game.state.players[seat].lost:
            return False
        kind = enchant_kind(game, obj)
        return bool(kind) and TARGET_KINDS[kind][1]
    target = game.state.objects.get(ref)
    if target is None or target.zone != "battlefield" or target.id == obj.id:
        return False
    if is_aura(game, obj):
        kind = enchant_kind(game, obj)
        test = TARGET_KINDS[kind][0] if kind else None
        if test is None or not test(game, target):
            return False
    elif is_equipment(game, obj):
        if game.is_creature(obj) or not game.is_creature(target):
            return False
    else:
        return False
    return not protected_from(game, target, obj)


def attach(game: Game, obj: GameObject, ref: int) -> bool:
    """701.3a: attach ``obj`` to ``ref``; returns whether it moved.

    701.3b: an attempt to attach to something it can't be attached to does nothing, and so does
    one to what it is already attached to. 613.7e: it gets a new timestamp when attached.
    """
    if obj.zone != "battlefield" or obj.attached_to == ref or not can_attach(game, obj, ref):
        return False
    obj.attached_to = ref
    obj.timestamp = game.state.new_timestamp()
    game.changed()  # and 704.5m-p, y look again
    game.log("attach", f"{visible_name(game, obj.id)} is attached to {visible_name(game, ref)}", subject=obj.id)
    return True


def unattach(game: Game, obj: GameObject, why: str) -> None:
    """701.3d: unattach ``obj`` (it stays on the battlefield); 702.103f: a bestowed Aura
    ceases to be bestowed."""
    obj.attached_to = 0
    obj.bestowed = False
    game.changed()
    game.log("sba", f"{visible_name(game, obj.id)} becomes unattached: {why}", subject=obj.id)
