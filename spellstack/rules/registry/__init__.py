"""The registries that pair each name the rules know with its meaning: counter kinds (122), state-based
actions (704.5), turn-based actions (703.4) and trigger events (603.2). This package sits below
every other rules area, so that any of them may register into it; the entries that act are
registered by the area that defines their meaning, as it is imported.
"""

from ._counters import COUNTER_KINDS, CounterKind
from ._registry import Registry
from ._sba import (
    SBA_ACTIONS,
    SBA_LOOKS,
    SBA_MARKS,
    SBA_OUTCOMES,
    SBA_READS,
    SBAHit,
    SBALook,
    SBAMark,
    SBAOutcome,
    StateBasedAction,
)
from ._triggers import HAPPENINGS, TRIGGER_EVENTS, Happening, TriggerEvent
from ._turn import TURN_ACTIONS, TurnAction

__all__ = [
    "COUNTER_KINDS",
    "HAPPENINGS",
    "SBA_ACTIONS",
    "SBA_LOOKS",
    "SBA_MARKS",
    "SBA_OUTCOMES",
    "SBA_READS",
    "TRIGGER_EVENTS",
    "TURN_ACTIONS",
    "CounterKind",
    "Happening",
    "Registry",
    "SBAHit",
    "SBALook",
    "SBAMark",
    "SBAOutcome",
    "StateBasedAction",
    "TriggerEvent",
    "TurnAction",
]
