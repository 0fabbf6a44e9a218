"""Kicker (702.33): "You may pay an additional [cost] as you cast this spell" (702.33a), an
optional additional cost (601.2b, 118.8); a spell cast with it is "kicked" (702.33d), which its
effects ask with ``if_paid``. The card names the cost in its ``cost_options``; the casting rules
offer it as they offer any additional cost."""

from __future__ import annotations

from ..registry import COST_OPTIONS, MECHANICS, CostOptionRule, Mechanic

COST_OPTIONS.register("kicker", CostOptionRule(
    "additional", "hand", "702.33a", "an optional additional cost; the spell is \"kicked\" "
    "(702.33d), which its effects may ask"))

MECHANICS.register("kicker", Mechanic(
    ("702.33",), "an optional additional cost that kicks the spell",
    (("COST_OPTIONS", "kicker"),), frozenset({"legal_actions", "hand_facts"})))
