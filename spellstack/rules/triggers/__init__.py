"""TODO package docstring: triggers."""

from ._triggers import (
    CONDITION_ARGS,
    CONDITIONS,
    TRIGGER_EVENTS,
    condition_holds,
    place_triggers,
    trigger_attacks,
    trigger_blocks,
    trigger_enters,
    trigger_leaves,
    trigger_name,
    trigger_step,
)

__all__ = [
    "CONDITIONS",
    "CONDITION_ARGS",
    "TRIGGER_EVENTS",
    "condition_holds",
    "place_triggers",
    "trigger_attacks",
    "trigger_blocks",
    "trigger_enters",
    "trigger_leaves",
    "trigger_name",
    "trigger_step",
]
