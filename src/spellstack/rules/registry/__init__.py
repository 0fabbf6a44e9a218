"""The registries that pair each name the rules know with its meaning: counter kinds (122),
state-based actions (704.5), turn-based actions (703.4), trigger events (603.2), keyword triggers
(702), cost options (601.2b), layouts (709) and mechanics (``rules/mechanics``). This package sits
below every other rules area, so that any of them may register into it; the entries that act are
registered by the area that defines their meaning, as it is imported.
"""

from ._costs import COST_KINDS, COST_OPTIONS, EXILED_LEAVING_STACK, CostKind, CostOptionRule
from ._counters import COUNTER_KINDS, CounterKind
from ._layouts import LAYOUTS, Layout
from ._mechanics import KEYWORD_TRIGGERS, MECHANICS, TOUCHES, TOUCHES_NEEDED, KeywordTrigger, Mechanic, Touch
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
from ._triggers import COUNTERS_CHANGED, HAPPENINGS, TRIGGER_EVENTS, Happening, TriggerEvent
from ._turn import TURN_ACTIONS, TurnAction

__all__ = [
    "COST_KINDS",
    "COST_OPTIONS",
    "COUNTERS_CHANGED",
    "COUNTER_KINDS",
    "EXILED_LEAVING_STACK",
    "HAPPENINGS",
    "KEYWORD_TRIGGERS",
    "LAYOUTS",
    "MECHANICS",
    "SBA_ACTIONS",
    "SBA_LOOKS",
    "SBA_MARKS",
    "SBA_OUTCOMES",
    "SBA_READS",
    "TOUCHES",
    "TOUCHES_NEEDED",
    "TRIGGER_EVENTS",
    "TURN_ACTIONS",
    "CostKind",
    "CostOptionRule",
    "CounterKind",
    "Happening",
    "KeywordTrigger",
    "Layout",
    "Mechanic",
    "Registry",
    "SBAHit",
    "SBALook",
    "SBAMark",
    "SBAOutcome",
    "StateBasedAction",
    "Touch",
    "TriggerEvent",
    "TurnAction",
]
