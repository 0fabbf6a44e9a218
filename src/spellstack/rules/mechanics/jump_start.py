"""Jump-start (702.133): "You may cast this card from your graveyard if the resulting spell is
an instant or sorcery spell by discarding a card as an additional cost to cast it and paying
its other costs. Exile a card that was cast this way if it would be put into a graveyard any
time it would leave the stack" (702.133a). An additional cost (118.8) that lets the card be cast
from a graveyard (601.3), with the exile its record asks of the zone change."""

from __future__ import annotations

from ..registry import COST_OPTIONS, MECHANICS, CostOptionRule, Mechanic

COST_OPTIONS.register("jump-start", CostOptionRule(
    "additional", "graveyard", "702.133a", "cast from a graveyard by discarding a card in addition "
    "to paying its other costs; then exiled instead of leaving the stack elsewhere",
    exiled_leaving_stack=True))

MECHANICS.register("jump_start", Mechanic(
    ("702.133",), "cast from a graveyard by discarding a card, then exiled",
    (("COST_OPTIONS", "jump-start"),), frozenset({"legal_actions", "hand_facts"})))
