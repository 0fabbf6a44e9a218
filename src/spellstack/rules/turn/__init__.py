"""The turn and priority (117, 500-514), combat (506-511) and starting a game (103): the priority
cycle (``next_task``: what the game needs next; ``GameLoop``: the one loop that performs it),
taking actions and answers, and the steps.
"""

from ._combat import check_trample_division, combat_damage
from ._declarations import declaration_refusal
from ._driver import (
    SBA_SKIPPED,
    SKIPPED_CHECK,
    ActionOutcome,
    Ask,
    AskPriority,
    AutoPasses,
    AutoRun,
    BeginTask,
    GameLoop,
    LoopDriver,
    LoopRequest,
    NoStopPass,
    Procedure,
    RunResolve,
    RunSBA,
    SBASkipped,
    StopRule,
    Task,
    next_task,
    perform,
    play_sync,
    run_automatic,
    run_proc,
)
from ._passing import after_sba, after_triggers, automatic_pass, pass_priority, priority_decision
from ._priority import check_answer, default_answer, take_action
from ._setup import DEFAULT_TURN_LIMIT, OPENING_HAND, new_game
from ._turn import MAX_HAND_SIZE, advance, end_turn

__all__ = [
    "DEFAULT_TURN_LIMIT",
    "MAX_HAND_SIZE",
    "OPENING_HAND",
    "SBA_SKIPPED",
    "SKIPPED_CHECK",
    "ActionOutcome",
    "Ask",
    "AskPriority",
    "AutoPasses",
    "AutoRun",
    "BeginTask",
    "GameLoop",
    "LoopDriver",
    "LoopRequest",
    "NoStopPass",
    "Procedure",
    "RunResolve",
    "RunSBA",
    "SBASkipped",
    "StopRule",
    "Task",
    "advance",
    "after_sba",
    "after_triggers",
    "automatic_pass",
    "check_answer",
    "check_trample_division",
    "combat_damage",
    "declaration_refusal",
    "default_answer",
    "end_turn",
    "new_game",
    "next_task",
    "pass_priority",
    "perform",
    "play_sync",
    "priority_decision",
    "run_automatic",
    "run_proc",
    "take_action",
]
