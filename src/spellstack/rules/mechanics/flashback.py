"""Flashback (702.34): "You may cast this card from your graveyard by paying [cost] rather than
paying its mana cost. If the flashback cost was paid, exile this card instead of putting it
anywhere else any time it would leave the stack" (702.34a). An alternative cost (118.9) that
lets the card be cast from a graveyard (601.3), with the exile its record asks of the zone
change."""

from __future__ import annotations

from ..registry import COST_OPTIONS, MECHANICS, CostOptionRule, Mechanic

COST_OPTIONS.register("flashback", CostOptionRule(
    "alternative", "graveyard", "702.34a", "cast from a graveyard for this cost; if it would then "
    "leave the stack, it is exiled instead", exiled_leaving_stack=True))

MECHANICS.register("flashback", Mechanic(
    ("702.34",), "cast from a graveyard for another cost, then exiled",
    (("COST_OPTIONS", "flashback"),), frozenset({"legal_actions", "hand_facts"})))
