"""Turn-based actions (703.4): what the game does as a step begins or ends, by step, each with
its rule. ``rules/turn`` defines them, registers them and walks the registry as each step begins
and ends."""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

from ._registry import Registry

GameT = TypeVar("GameT")
"""The game (``rules.game.Game``, which sits above this package)."""


@dataclass(frozen=True, slots=True)
class TurnAction(Generic[GameT]):
    """A turn-based action (703.4), registered by a name of its own (``"untap"``)."""

    rule: str
    """Its rule (``"502.3"``)."""
    does: str
    """What it does, in words."""
    step: str
    """The step it belongs to (a name from ``STEPS``); empty: every step."""
    at: Literal["begin", "end"]
    """Whether it happens as the step begins (before its "at the beginning of" triggers) or as
    it ends."""
    act: Callable[[GameT], None] | None = None
    """What it does, when it asks no player anything."""
    ask: Callable[[GameT], Generator[Any, Any, None]] | None = None
    """What it does, when it may ask a player (a procedure yielding decisions)."""
    skips_step: Callable[[GameT], bool] | None = None
    """When true as the step would begin, the step is skipped: no action, trigger or priority
    in it (508.8, 510.4, 103.8a)."""

    def __post_init__(self) -> None:
        if (self.act is None) == (self.ask is None):
            raise ValueError(f"turn-based action ({self.rule}): give exactly one of act and ask")
        if self.at == "end" and (self.ask is not None or self.skips_step is not None):
            raise ValueError(f"turn-based action ({self.rule}): one as a step ends neither asks "
                             "nor skips it")


TURN_ACTIONS: Registry[TurnAction[Any]] = Registry("turn-based action")
"""Every turn-based action, in the order each step performs its own."""
