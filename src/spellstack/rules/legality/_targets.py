"""Targets (115): the closed registry of target kinds, legality, and candidates."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from ..definitions import ANY_NUMBER, CardDefinition, TargetSpec
from ..game import Game
from ..state import GameObject, is_player_ref, player_ref, seat_of_ref
from ._protection import protected_from


def _permanent(game: Game, obj: GameObject) -> bool:
    return obj.zone == "battlefield"


def _creature(game: Game, obj: GameObject) -> bool:
    return obj.zone == "battlefield" and game.is_creature(obj)


def _planeswalker(game: Game, obj: GameObject) -> bool:
    return obj.zone == "battlefield" and game.is_type(obj, "Planeswalker")


def _land(game: Game, obj: GameObject) -> bool:
    return obj.zone == "battlefield" and game.is_type(obj, "Land")


def _spell(game: Game, obj: GameObject) -> bool:
    return obj.zone == "stack" and not obj.ability_kind


def _noncreature_spell(game: Game, obj: GameObject) -> bool:
    return obj.zone == "stack" and not obj.ability_kind and not game.is_type(obj, "Creature")


def _instant_or_sorcery_spell(game: Game, obj: GameObject) -> bool:
    return obj.zone == "stack" and not obj.ability_kind and (
        game.is_type(obj, "Instant") or game.is_type(obj, "Sorcery"))


def _creature_spell(game: Game, obj: GameObject) -> bool:
    return obj.zone == "stack" and not obj.ability_kind and game.is_type(obj, "Creature")


def _artifact_or_enchantment(game: Game, obj: GameObject) -> bool:
    return obj.zone == "battlefield" and (
        game.is_type(obj, "Artifact") or game.is_type(obj, "Enchantment")
    )


def _creature_or_planeswalker(game: Game, obj: GameObject) -> bool:
    return _creature(game, obj) or _planeswalker(game, obj)


def _any_target(game: Game, obj: GameObject) -> bool:
    """115.4: a creature, a planeswalker or a battle (and any player)."""
    return obj.zone == "battlefield" and (game.is_creature(obj) or game.is_type(obj, "Planeswalker")
                                          or game.is_type(obj, "Battle"))


def _nonland_permanent(game: Game, obj: GameObject) -> bool:
    return obj.zone == "battlefield" and not game.is_type(obj, "Land")


def _non_human_creature(game: Game, obj: GameObject) -> bool:
    return obj.zone == "battlefield" and game.is_creature(obj) and "Human" not in game.subtypes(obj)


def _artifact_or_creature(game: Game, obj: GameObject) -> bool:
    return obj.zone == "battlefield" and (game.is_type(obj, "Artifact") or game.is_creature(obj))


def _artifact_creature_or_enchantment(game: Game, obj: GameObject) -> bool:
    return obj.zone == "battlefield" and (game.is_type(obj, "Artifact") or game.is_creature(obj)
                                          or game.is_type(obj, "Enchantment"))


def _creature_or_enchantment_card_in_graveyard(game: Game, obj: GameObject) -> bool:
    return obj.zone == "graveyard" and (game.is_type(obj, "Creature")
                                        or game.is_type(obj, "Enchantment"))


def _creature_or_planeswalker_card_in_graveyard(game: Game, obj: GameObject) -> bool:
    return obj.zone == "graveyard" and (game.is_type(obj, "Creature")
                                        or game.is_type(obj, "Planeswalker"))


STACK_KINDS: Final[frozenset[str]] = frozenset({"spell", "noncreature_spell", "instant_or_sorcery_spell",
                                        "creature_spell"})
"""Target kinds that name spells on the stack (115.1)."""
GRAVEYARD_KINDS: Final[frozenset[str]] = frozenset({"creature_or_enchantment_card_in_graveyard",
                                            "creature_or_planeswalker_card_in_graveyard"})
"""Target kinds that name cards in graveyards (115.1: a spell may target a card in a zone other
than the battlefield when it says so); their ``controller`` word names the graveyard's owner."""

# kind -> (object test or None, whether players qualify, prompt)
TARGET_KINDS: Final[dict[str, tuple[Callable[[Game, GameObject], bool] | None, bool, str]]] = {
    "any": (_any_target, True, "any target"),  # 115.4
    "creature": (_creature, False, "target creature"),
    "non_human_creature": (_non_human_creature, False, "target non-Human creature"),
    "player": (None, True, "target player"),
    "permanent": (_permanent, False, "target permanent"),
    "land": (_land, False, "target land"),
    "spell": (_spell, False, "target spell"),
    "noncreature_spell": (_noncreature_spell, False, "target noncreature spell"),
    "instant_or_sorcery_spell": (_instant_or_sorcery_spell, False,
                                 "target instant or sorcery spell"),
    "creature_spell": (_creature_spell, False, "target creature spell"),
    "artifact_or_enchantment": (_artifact_or_enchantment, False, "target artifact or enchantment"),
    "creature_or_planeswalker": (_creature_or_planeswalker, False,
                                 "target creature or planeswalker"),
    "creature_planeswalker_or_player": (_creature_or_planeswalker, True,
                                        "target creature, planeswalker, or player"),
    "artifact_or_creature": (_artifact_or_creature, False, "target artifact or creature"),
    "artifact_creature_or_enchantment": (_artifact_creature_or_enchantment, False,
                                         "target artifact, creature, or enchantment"),
    "nonland_permanent": (_nonland_permanent, False, "target nonland permanent"),
    "creature_or_enchantment_card_in_graveyard": (
        _creature_or_enchantment_card_in_graveyard, False,
        "target creature or enchantment card in a graveyard"),
    "creature_or_planeswalker_card_in_graveyard": (
        _creature_or_planeswalker_card_in_graveyard, False,
        "target creature or planeswalker card in a graveyard"),
}
"""The closed registry of target kinds a card's data may name."""


def target_prompt(spec: TargetSpec) -> str:
    """The words for a target requirement."""
    words = TARGET_KINDS[spec.kind][2]
    if spec.kind in GRAVEYARD_KINDS and spec.controller:
        words = words.replace("a graveyard", "an opponent's graveyard" if spec.controller
                              == "opponent" else "your graveyard")
    if spec.not_colors:
        words = words.replace("target ", "target non" + "".join(spec.not_colors).lower() + " ")
    if spec.min_power:
        words += f" with power {spec.min_power} or greater"
    if spec.owner:
        words += " you own"
    if spec.max >= ANY_NUMBER:
        return f"any number of {words.removeprefix('target ')} targets".replace(
            "any target targets", "targets")
    if spec.min == 1 and spec.max == 2:
        return f"one or two {words}"
    if spec.max > 1 or spec.min != spec.max:
        words = f"{'up to ' if spec.min == 0 else ''}{spec.max} {words}"
    return words


def is_legal_target(game: Game, spec: TargetSpec, ref: int, controller: int,
                    source: GameObject | None = None, as_cast: CardDefinition | None = None) -> bool:
    """115.1/608.2b: whether ``ref`` meets the requirement now (it must still be the same
    object in the zone the requirement names). ``source``: the spell, or the source of the
    ability, that targets: 702.16b, nothing with protection from one of its qualities is a
    legal target; ``another`` (109.4b-style "another target") excludes it. ``as_cast``: the
    face the card ``source`` is being cast as (601.2c, 709.3a: its qualities are that face's)."""
    test, players_ok, _ = TARGET_KINDS[spec.kind]
    if is_player_ref(ref):
        if not players_ok:
            return False
        seat = seat_of_ref(ref)
        if seat >= len(game.state.players) or game.state.players[seat].lost:
            return False
        if spec.controller == "opponent" and seat == controller:
            return False
        if spec.controller == "you" and seat != controller:
            return False
        return True
    obj = game.state.objects.get(ref)
    if obj is None or test is None or not test(game, obj):
        return False
    if spec.not_colors and set(spec.not_colors) & set(game.colors(obj)):
        return False
    if spec.min_power and game.power(obj) < spec.min_power:
        return False
    if spec.owner and obj.owner != controller:
        return False  # "you own" (108.3)
    if spec.controller:
        # 108.4a: a card in a graveyard has no controller; "an opponent's graveyard" names its
        # owner.
        who = obj.owner if spec.kind in GRAVEYARD_KINDS else game.controller(obj)
        if (who == controller) != (spec.controller == "you"):
            return False
    if source is not None:
        if spec.another and obj.id == source.id:
            return False
        if protected_from(game, obj, source, as_cast):
            return False
    if obj.zone == "battlefield" and game.has_keyword(obj, "hexproof") and game.controller(obj) != controller:
        return False  # 702.11b: not the target of spells or abilities its opponents control
    return True


def for_caster(game: Game, spec: TargetSpec, controller: int,
               source: GameObject | None = None, as_cast: CardDefinition | None = None) -> TargetSpec:
    """601.2c: a "for each opponent" requirement asks one target per opponent who controls a
    legal one (``min`` = ``max`` = how many); any other requirement is as printed. ``source``,
    ``as_cast`` as for ``is_legal_target``."""
    if not spec.per_opponent:
        return spec
    n = len({game.controller(game.state.objects[c])
             for c in target_candidates(game, spec, controller, 0, source, as_cast)})
    return replace(spec, min=n, max=n)


def group_ok(game: Game, spec: TargetSpec, group: tuple[int, ...]) -> bool:
    """601.2c: the targets of a "for each opponent" requirement are controlled by different
    opponents; any other group is fine as far as this goes."""
    if not spec.per_opponent:
        return True
    owners = [game.controller(game.state.objects[t]) for t in group if t in game.state.objects]
    return len(set(owners)) == len(owners)


def target_candidates(game: Game, spec: TargetSpec, controller: int, source_id: int,
                      source: GameObject | None = None,
                      as_cast: CardDefinition | None = None) -> list[int]:
    """Every legal target for the requirement now: objects (battlefield order, then the stack
    top first) before players (turn order). ``source``, ``as_cast`` as for ``is_legal_target``."""
    st = game.state
    test, players_ok, _ = TARGET_KINDS[spec.kind]
    out: list[int] = []
    if test is not None:
        for oid in st.battlefield:
            if is_legal_target(game, spec, oid, controller, source, as_cast):
                out.append(oid)
        if spec.kind in GRAVEYARD_KINDS:
            for p in st.players:
                out.extend(oid for oid in p.graveyard
                           if is_legal_target(game, spec, oid, controller, source, as_cast))
        if spec.kind in STACK_KINDS:
            for oid in reversed(st.stack):
                # 115.5: a spell can't target itself.
                if oid != source_id and is_legal_target(game, spec, oid, controller, source, as_cast):
                    out.append(oid)
    if players_ok:
        for p in st.players:
            ref = player_ref(p.seat)
            if is_legal_target(game, spec, ref, controller, source, as_cast):
                out.append(ref)
    return out
