"""Triggered abilities (603): trigger events and conditions, zone-change triggers that look back
(603.6, 603.10), delayed triggers (603.7), and putting waiting triggers on the stack in APNAP
order (603.3b) with their targets; "whenever you cast a spell" (601.2i); counters put on or
removed from a permanent (122.6).
"""

from ._conditions import CONDITIONS, ConditionTest, condition_holds
from ._triggers import (
    Happened,
    place_triggers,
    trigger_ability,
    trigger_attacks,
    trigger_blocks,
    trigger_cast,
    trigger_enters,
    trigger_leaves,
    trigger_merges,
    trigger_name,
    trigger_step,
    triggered_not_left_stack,
)

__all__ = [
    "CONDITIONS",
    "ConditionTest",
    "Happened",
    "condition_holds",
    "place_triggers",
    "trigger_ability",
    "trigger_attacks",
    "trigger_blocks",
    "trigger_cast",
    "trigger_enters",
    "trigger_leaves",
    "trigger_merges",
    "trigger_name",
    "trigger_step",
    "triggered_not_left_stack",
]
