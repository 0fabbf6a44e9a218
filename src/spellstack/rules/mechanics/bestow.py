"""Bestow (702.103): "You may cast this card by paying [cost] rather than its mana cost. If you
chose to pay this card's bestow cost, it becomes an Aura enchantment and gains enchant creature"
(702.103a, b); the Aura it becomes is a creature again once unattached (702.103e, f). An
alternative cost (118.9) that changes what the spell is (601.3b: its characteristics as it is
cast), so what a hand allows and the legal actions must see it."""

from __future__ import annotations

from ..registry import COST_OPTIONS, MECHANICS, CostOptionRule, Mechanic

COST_OPTIONS.register("bestow", CostOptionRule(
    "alternative", "hand", "702.103b", "the spell is an Aura spell with enchant creature, and the "
    "permanent an Aura while attached (702.103e-f)"))

MECHANICS.register("bestow", Mechanic(
    ("702.103",), "cast as an Aura that is a creature again once unattached",
    (("COST_OPTIONS", "bestow"),), frozenset({"legal_actions", "hand_facts"})))
