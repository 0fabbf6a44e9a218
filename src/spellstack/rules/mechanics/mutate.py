"""Mutate (702.140) and merged permanents (725; 721 in earlier editions of the rules).

702.140a: "If you cast this spell for its mutate cost, put it over or under target non-Human
creature you own": an alternative cost (118.9) that gives the spell a target. 702.140b: as it
resolves with an illegal target it is a creature spell and resolves as one (608.3b, in the
resolution). 608.3d/702.140c: with a legal target it merges with that creature, over or under
as its controller chooses; the spell leaves the stack and doesn't enter the battlefield, and the
permanent is the same object as before (725.1): its status, counters and attachments stay.
725.2/702.140e: the merged permanent has the characteristics of its top card plus the abilities
of every card under it (``GameObject.merged``, read by the layers; a copy of it copies both,
707.2). 702.140d: "whenever this creature mutates" triggers as a spell merges with it.
725.3: as it leaves the battlefield, each of its cards goes to the same zone as an object of its
own (``rules/zones``)."""

from __future__ import annotations

from typing import Final

from ..definitions import TargetSpec
from ..game import Game
from ..registry import COST_OPTIONS, MECHANICS, TRIGGER_EVENTS, CostOptionRule, Mechanic, TriggerEvent
from ..state import GameObject, Proc
from ..triggers import Happened, trigger_ability, trigger_merges
from ..views import ask_word, visible_name

KEY: Final = "mutate"
"""The cost option's name, as card files and scenarios give it."""

MUTATE_TARGETS: Final = (TargetSpec("non_human_creature", owner="you"),)
"""702.140a: "target non-Human creature you own"."""

SIDES: Final = ("over", "under")
"""702.140c: where the mutating spell is put, as the question offers it."""


def _merge(game: Game, spell: GameObject, targets: tuple[int, ...]) -> Proc[None]:
    """608.3d, 702.140c, 725.1: the mutating creature spell merges with its target, over or
    under as its controller chooses; the permanent stays the same object (its id, status,
    counters and attachments), and "whenever this creature mutates" triggers (702.140d)."""
    st = game.state
    target = st.objects[targets[0]]
    spell_name = visible_name(game, spell.id)
    side = yield from ask_word(game, spell.controller, f"702.140c: put {spell_name} over or under "
                               f"{visible_name(game, target.id)}", SIDES)
    below = target.merged or ((target.card, target.name, target.is_token),)
    # 608.3f: a copy of a mutating spell becomes a token as it merges.
    part = (spell.card, spell.name, spell.is_copy)
    st.stack.remove(spell.id)
    st.lki[spell.id] = st.objects.pop(spell.id)  # it left the stack, entering no zone (725.1)
    if SIDES[side] == "over":
        target.merged = (part, *below)
        target.card, target.name, target.is_token = part
        target.face_down = False  # 721.2e: its status is its top card's (not "turned face up")
    else:
        target.merged = (*below, part)
    game.changed()  # 725.2: its characteristics are now the merged ones
    game.log("effect", f"{spell_name} merges with {visible_name(game, target.id)}, "
             f"{SIDES[side]} it (702.140c, 725.1)", subject=target.id, player=target.controller,
             refs=(spell.id, target.id))
    trigger_merges(game, target)


def _mutates(game: Game, seen: Happened) -> None:
    """702.140d: "whenever this creature mutates", with the abilities of the merged creature."""
    merged = seen.obj
    assert merged is not None
    for name, ability in seen.abilities:
        if ability.event == "mutates":
            trigger_ability(game, merged, ability, name=name)


COST_OPTIONS.register(KEY, CostOptionRule(
    "alternative", "hand", "702.140a", "the spell targets a non-Human creature its caster owns "
    "and merges with it, over or under (702.140c); with an illegal target it resolves as a "
    "creature spell (608.3b)", targets=MUTATE_TARGETS, resolves=_merge))

TRIGGER_EVENTS.register("mutates", TriggerEvent(
    "702.140d", "whenever this creature mutates", "merges", True, False, _mutates))

MECHANICS.register(KEY, Mechanic(
    ("702.140a", "702.140b", "702.140c", "702.140d", "702.140e", "608.3b", "608.3d", "725.1",
     "725.2", "725.3"),
    "cast onto a non-Human creature you own, merging with it over or under",
    (("COST_OPTIONS", KEY), ("TRIGGER_EVENTS", "mutates")),
    frozenset({"legal_actions", "hand_facts", "kinds_seen"})))
