"""Evoke (702.74): "You may cast this spell by paying [cost] rather than paying its mana cost"
and "When this permanent enters, if its evoke cost was paid, its controller sacrifices it"
(702.74a). An alternative cost (118.9); the sacrifice is a triggered ability with an
intervening "if" (603.4) that the card's data prints, asking whether the cost was paid."""

from __future__ import annotations

from ..registry import COST_OPTIONS, MECHANICS, CostOptionRule, Mechanic

COST_OPTIONS.register("evoke", CostOptionRule(
    "alternative", "hand", "702.74a", "when the permanent enters, if its evoke cost was paid, its "
    "controller sacrifices it"))

MECHANICS.register("evoke", Mechanic(
    ("702.74",), "an alternative cost after which the permanent is sacrificed as it enters",
    (("COST_OPTIONS", "evoke"),), frozenset({"legal_actions", "hand_facts"})))
