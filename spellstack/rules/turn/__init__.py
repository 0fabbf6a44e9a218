"""The turn and priority (117, 500-514), combat (506-511) and starting a game (103): the priority
cycle (``next_task``: what the game needs next), taking actions and answers, and the steps.
"""

from ._combat import check_trample_division, combat_damage
from ._priority import (
    AutoRun,
    Task,
    after_sba,
    after_triggers,
    automatic_pass,
    check_answer,
    default_answer,
    next_task,
    pass_priority,
    play_sync,
    priority_decision,
    run_automatic,
    run_proc,
    take_action,
)
from ._setup import OPENING_HAND, new_game
from ._turn import MAX_HAND_SIZE, advance, end_turn

__all__ = [
    "MAX_HAND_SIZE",
    "OPENING_HAND",
    "AutoRun",
    "Task",
    "advance",
    "after_sba",
    "after_triggers",
    "automatic_pass",
    "check_answer",
    "check_trample_division",
    "combat_damage",
    "default_answer",
    "end_turn",
    "new_game",
    "next_task",
    "pass_priority",
    "play_sync",
    "priority_decision",
    "run_automatic",
    "run_proc",
    "take_action",
]
