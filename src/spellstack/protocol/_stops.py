"""Stops: the steps in which a seat wants priority even when it could act (as MTG Arena has).

A seat without stops (the default) is asked whenever it could do more than pass (117.3d is
applied for it only when passing is its only legal action). A seat with stops is also passed
for, recorded as a coordinator event, whenever it holds priority outside them: a bot or a
chat user skips the windows it does not care about. Stops never skip a question other than
priority (attackers, blockers, targets, ...): those always go to the player.
"""

from __future__ import annotations

from dataclasses import dataclass

from spellstack.rules.state import STEPS

__all__ = ["MAX_STOP_NAMES", "NO_PRIORITY_STEPS", "STOP_STEPS", "Stops"]

NO_PRIORITY_STEPS = frozenset({"untap"})
"""Steps in which no player ever receives priority (502.4), so a stop there means nothing."""
STOP_STEPS = frozenset(STEPS) - NO_PRIORITY_STEPS
"""The step names (``rules.STEPS``) a stop may name; ``cleanup`` counts, for the rare
cleanup step in which players receive priority (514.3a)."""
MAX_STOP_NAMES = len(STOP_STEPS)
"""Most step names a list of stops may hold: one per step a stop may name (a name given twice
adds nothing)."""


@dataclass(frozen=True, slots=True)
class Stops:
    """Where a seat wants priority even when it could act; elsewhere the engine passes for it.

    A seat holding priority is asked when the step is one of its stops for whose turn it is,
    or when ``stack`` is set and the stack is not empty (so it can respond to spells and
    abilities, 117.3c-d); otherwise it passes (117.3d) without being asked.
    """

    my_turn: tuple[str, ...] = ()
    """Steps of the seat's own turns in which it wants priority (names as in ``rules.STEPS``)."""
    opponents_turns: tuple[str, ...] = ()
    """Steps of other players' turns in which it wants priority."""
    stack: bool = True
    """Also stop whenever the stack is not empty, in any step."""

    def problem(self) -> str:
        """What makes this setting invalid (wrong types, unknown step names, more names than
        there are steps with priority), or ``""``."""
        for name in ("my_turn", "opponents_turns"):
            steps = getattr(self, name)
            if type(steps) is not tuple:
                return f"{name} must be a list of step names, got {type(steps).__name__}"
            if len(steps) > MAX_STOP_NAMES:
                return (f"{name}: {len(steps)} step names, more than the {MAX_STOP_NAMES} steps "
                        "in which a player receives priority")
            for step in steps:
                if type(step) is not str:
                    return f"{name}: a step name must be a str, got {type(step).__name__}"
                if step in NO_PRIORITY_STEPS:
                    return f"{name}: no player receives priority in the {step} step (502.4)"
                if step not in STOP_STEPS:
                    return (f"{name}: unknown step {step[:40]!r} (steps: "
                            f"{', '.join(s for s in STEPS if s in STOP_STEPS)})")
        if type(self.stack) is not bool:
            return f"stack must be a bool, got {type(self.stack).__name__}"
        return ""

    def wants(self, step: str, own_turn: bool, stack_empty: bool) -> bool:
        """Whether the seat wants priority now: in ``step``, in its own turn or not, with the
        stack empty or not."""
        if self.stack and not stack_empty:
            return True
        return step in (self.my_turn if own_turn else self.opponents_turns)
