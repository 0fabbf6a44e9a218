"""Answer functions for kernel tests, and running a game to its next grant of priority."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeAlias

from ..rules import (
    Action,
    Answer,
    Decision,
    Game,
    Reply,
    Task,
    play_sync,
    priority_decision,
)

__all__ = ["Script", "ScriptedAnswer", "no_questions", "scripted", "to_priority"]

ScriptedAnswer: TypeAlias = (
    "Reply | Callable[[Decision], Reply] | int | str | Sequence[int | str] | Mapping[str, int]"
)
"""One scripted answer (``scripted``)."""

_MAX_TASKS = 20
"""More tasks than this before priority is a loop (``to_priority``)."""


def no_questions(decision: Decision) -> Reply:
    """An answer function for code that must ask nothing: any question fails the test."""
    raise AssertionError(f"unexpected question to seat {decision.player}: {decision.kind}: "
                         f"{decision.prompt}")


def to_priority(game: Game, answer: Callable[[Decision], Reply] = no_questions) -> Decision:
    """Run ``game`` to its next grant of priority as 117.5 says: state-based actions, then
    triggered abilities put on the stack, as often as the kernel asks; returns the priority
    decision. ``answer`` answers the questions that asks (by default none may be asked).
    Anything else the kernel would do first (a step ending, the top of the stack resolving)
    fails the test: this only finishes what the last action started."""
    # The driver's own loop (play_sync), stopped before the first task that is neither an
    # SBA check nor trigger placement: a second loop here would be a second place to keep
    # 117.5 right.
    stopped: list[Task] = []

    def until(_game: Game, task: Task) -> bool:
        if task in ("check_sba", "place_triggers"):
            return False
        stopped.append(task)
        return True

    try:
        play_sync(game, answer, max_tasks=_MAX_TASKS, until=until)
    except RuntimeError:
        raise AssertionError(f"no priority after {_MAX_TASKS} tasks") from None
    assert stopped, "the game ended before the next grant of priority"
    assert stopped[0] == "priority", f"the kernel's next task is {stopped[0]!r}, not priority"
    return priority_decision(game)


class Script:
    """Scripted answers, taken in order, one per question (``scripted``). It records what it
    was asked; ``done`` checks that every answer was taken."""

    def __init__(self, answers: Sequence[ScriptedAnswer], *, passes: bool = False) -> None:
        """``answers`` in order; ``passes``: priority is passed without taking an answer."""
        self.left: list[ScriptedAnswer] = list(answers)
        """The answers not taken yet."""
        self.asked: list[Decision] = []
        """Every question it was asked, in order (priority included)."""
        self.passes = passes
        """Whether it passes priority by itself."""

    def __call__(self, decision: Decision) -> Reply:
        self.asked.append(decision)
        if self.passes and decision.kind == "priority":
            return Action("pass")
        if not self.left:
            raise AssertionError(f"no scripted answer left for seat {decision.player}'s "
                                 f"{decision.kind}: {decision.prompt}")
        return self._reply(decision, self.left.pop(0))

    def done(self) -> None:
        """Fail unless every scripted answer was taken."""
        assert not self.left, f"scripted answers not taken: {self.left}"

    @staticmethod
    def _reply(decision: Decision, raw: ScriptedAnswer) -> Reply:
        if isinstance(raw, Answer | Action):
            return raw
        if callable(raw):
            return raw(decision)
        if isinstance(raw, Mapping):
            return Answer(decision.id, (), tuple((_key(decision, k), n) for k, n in raw.items()))
        items = [raw] if isinstance(raw, int | str) else list(raw)
        return Answer(decision.id, tuple(_key(decision, item) for item in items))


def _key(decision: Decision, item: int | str) -> int:
    """A choice's key: given as is (an int), or the key of the choice with that name."""
    if isinstance(item, int):
        return item
    for choice in decision.choices:
        if choice.name == item:
            return choice.key
    names = [c.name for c in decision.choices]
    raise AssertionError(f"scripted answer {item!r} is none of the choices {names} of "
                         f"{decision.kind}: {decision.prompt}")


def scripted(*answers: ScriptedAnswer, passes: bool = False) -> Script:
    """An answer function that takes ``answers`` in order, one per question: an ``Answer`` or
    ``Action`` as it is, a function of the decision, a choice's key or name (``"yes"``, a
    card's or player's name), a list of those for several choices, or a table from choice name
    to number for a division. A question with no answer left fails the test; ``passes``:
    priority is passed without taking one."""
    return Script(answers, passes=passes)
