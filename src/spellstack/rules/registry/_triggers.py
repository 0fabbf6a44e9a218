"""Trigger events (603.2): each event a triggered ability of a card file may name, with the game
happening it watches and its matcher. ``rules/triggers`` defines them, registers them and walks
the registry as each happening occurs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar, get_args

from ._registry import Registry

GameT = TypeVar("GameT")
"""The game (``rules.game.Game``, which sits above this package)."""
SeenT = TypeVar("SeenT")
"""A happening as a matcher is shown it (``rules.triggers.Happened``)."""

Happening = Literal["enters", "leaves", "blocks", "attacks", "cast", "step", "counters", "merges"]
"""What happens in the game that abilities may trigger on: a permanent enters the battlefield
(603.6a) or leaves it (603.6c), a creature blocks (509.1i) or attacks (508.3a), a spell becomes
cast (601.2i), a step begins (503.1a, 513.1a), counters are put on or removed from a permanent
(122.6; ``COUNTERS_CHANGED``), a resolving spell merges with a permanent (725.1, 702.140d)."""
HAPPENINGS: tuple[Happening, ...] = get_args(Happening)


@dataclass(frozen=True, slots=True)
class TriggerEvent(Generic[GameT, SeenT]):
    """A trigger event (603.2), registered by the name card files give it (``"enters"``)."""

    rule: str
    """Its rule (``"603.6a"``)."""
    when: str
    """What it is, in words: "when this permanent enters"."""
    on: Happening
    """The happening it watches."""
    own: bool
    """Whether the object the happening is about may trigger it with an ability of its own (its
    card printing one is what lets the walk skip every other permanent, ``kinds_seen``)."""
    others: bool
    """Whether other permanents' abilities may trigger on it."""
    fire: Callable[[GameT, SeenT], None]
    """The matcher: every ability of this event the happening triggers is put among the waiting
    triggers (603.2, 603.3), in the order they trigger."""

    def __post_init__(self) -> None:
        if self.on not in HAPPENINGS:
            raise ValueError(f"trigger event ({self.rule}): on {self.on!r} is not one of {HAPPENINGS}")
        if not (self.own or self.others):
            raise ValueError(f"trigger event ({self.rule}): whose abilities it triggers, own or others")


TRIGGER_EVENTS: Registry[TriggerEvent[Any, Any]] = Registry("trigger event")
"""The closed registry of trigger events a card's data may name, in the order a happening's
events are matched."""


COUNTERS_CHANGED: list[Callable[[Any, Any, str, int], None]] = []
"""What is told each time counters of one kind are put on (a positive count) or removed from (a
negative one) a permanent, as (game, permanent, kind, count): ``rules/layers`` changes counters
and sits below ``rules/triggers``, which puts its matcher here while a trigger event watches
``counters`` (and none is here while none does, so changing counters then costs nothing more)."""
