"""Dash (702.109): "You may cast this spell by paying [cost] rather than paying its mana cost.
If this spell's dash cost was paid, return the permanent this spell becomes to its owner's hand
at the beginning of the next end step" and the permanent has haste (702.109a). An alternative
cost (118.9); as the permanent enters (608.3), it gains haste and a delayed triggered ability
(603.7) is set up to return it."""

from __future__ import annotations

from typing import Final

from ..effects import PutIntoZone
from ..game import Game
from ..layers import add_effect, new_effect
from ..registry import COST_OPTIONS, MECHANICS, CostOptionRule, Mechanic
from ..resolution import KEYWORD_DELAYED_EFFECTS
from ..state import DelayedTrigger, GameObject

DASH_RETURN: Final = 1
"""The key of dash's delayed trigger in ``KEYWORD_DELAYED_EFFECTS``."""
KEYWORD_DELAYED_EFFECTS[DASH_RETURN] = (PutIntoZone("subject", "hand"),)  # "it's returned ... to its owner's hand"


def dashed(game: Game, permanent: GameObject) -> None:
    """702.109a: a permanent whose dash cost was paid has haste, and a delayed trigger returns it
    to its owner's hand at the beginning of the next end step (603.7)."""
    st = game.state
    add_effect(game, new_effect(game, "add_abilities", (("keywords", ("haste",)),),
                                (permanent.id,), permanent, "indefinite"))
    st.delayed_triggers.append(DelayedTrigger(
        st.new_id(), permanent.controller, permanent.id, permanent.name, 0, "end",
        ("", DASH_RETURN, 0), permanent.id))


COST_OPTIONS.register("dash", CostOptionRule(
    "alternative", "hand", "702.109a", "the permanent has haste and returns to its owner's hand at "
    "the beginning of the next end step", on_enter=dashed))

MECHANICS.register("dash", Mechanic(
    ("702.109",), "an alternative cost: haste, and back to hand at the next end step",
    (("COST_OPTIONS", "dash"),), frozenset({"legal_actions", "hand_facts"})))
