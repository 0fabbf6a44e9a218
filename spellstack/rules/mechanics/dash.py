"""Dash (702.109): "You may cast this spell by paying [cost] rather than paying its mana cost.
If this spell's dash cost was paid, return the permanent this spell becomes to its owner's hand
at the beginning of the next end step" and the permanent has haste (702.109a). An alternative
cost (118.9); the return is a delayed triggered ability (603.7)."""

from __future__ import annotations

from ..registry import COST_OPTIONS, MECHANICS, CostOptionRule, Mechanic

COST_OPTIONS.register("dash", CostOptionRule(
    "alternative", "hand", "702.109a", "the permanent has haste and returns to its owner's hand at "
    "the beginning of the next end step"))

MECHANICS.register("dash", Mechanic(
    ("702.109",), "an alternative cost: haste, and back to hand at the next end step",
    (("COST_OPTIONS", "dash"),), frozenset({"legal_actions", "hand_facts"})))
