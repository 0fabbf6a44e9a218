"""Hourglass: a mechanic of the tests, printed on no real card, that shows how a mechanic is
added (docs/mechanics.md). It mirrors a Saga (714) so that it uses each registry once:

- a card key, ``hourglass = N``: the permanent enters with N sand counters (as 714.3a);
- a counter kind, ``sand``;
- a turn-based action: as its controller's upkeep begins, a sand counter is removed from it
  (as 714.3b, which adds a lore counter as the precombat main phase begins);
- a trigger event, ``sand_removed``: "whenever a sand counter is removed from this permanent",
  once for each counter (603.2c), with its effects in the card's data (as 714.2b);
- a state-based action: an Hourglass permanent with no sand counters, none of whose triggered
  abilities has triggered and not yet left the stack, is put into its owner's graveyard (as
  704.5s; the check is made again once an ability leaves the stack: a resolution marks
  everything).

An Hourglass is an artifact (as a Saga is an enchantment, 714.1): the state-based action looks
only among the artifacts. A game with no Hourglass card (``kinds_seen`` notes the key) spends one
set lookup on each upkeep and each check of the artifacts.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Annotated, Any, Final

from ..base import AtLeast
from ..definitions import CARD_KEYS, CardKey, definition_named
from ..game import Game
from ..layers import add_counters
from ..legality import kinds_seen
from ..registry import (
    COUNTER_KINDS,
    MECHANICS,
    SBA_ACTIONS,
    TRIGGER_EVENTS,
    TURN_ACTIONS,
    CounterKind,
    Mechanic,
    SBAHit,
    StateBasedAction,
    TriggerEvent,
    TurnAction,
)
from ..state import GameObject
from ..triggers import Happened, trigger_ability, triggered_not_left_stack

KEY: Final = "hourglass"
"""The card key, and what ``kinds_seen`` notes for a game with an Hourglass card."""
SAND: Final = "sand"
"""The counter kind."""


def _stands_for(n: int) -> dict[str, list[dict[str, Any]]]:
    """714.3a, as mirrored: ``hourglass = N`` is a replacement ability, "this permanent enters
    with N sand counters", quoting the card's ``Hourglass N``."""
    return {"replacement": [{"event": "enters", "counters": {SAND: n}, "text": f"Hourglass {n}"}]}


def _is_hourglass(game: Game, permanent: GameObject, definition: str) -> bool:
    """Whether the permanent (with the characteristics of ``definition``, layer 1: a copy of an
    Hourglass is one) is an Hourglass; face down it is not (708.2)."""
    return definition_named(game.cards, definition).mechanic_key(KEY) is not None


def _remove_sand(game: Game) -> None:
    """714.3b, as mirrored: as the upkeep begins, a sand counter is removed from each Hourglass
    permanent the active player controls (its triggers wait to be put on the stack, 603.3)."""
    if KEY not in kinds_seen(game):
        return  # no Hourglass card in this game (the usual case)
    st = game.state
    layers = game.caches.layers
    for oid in list(st.battlefield):
        obj = st.objects[oid]
        chars = layers[oid]
        if chars.controller == st.active and obj.counters.get(SAND) and _is_hourglass(game, obj, chars.definition):
            add_counters(game, obj, SAND, -1)


def _sand_removed(game: Game, seen: Happened) -> None:
    """714.2b, as mirrored: "whenever a sand counter is removed from this permanent", once for
    each counter removed (603.2c)."""
    if seen.zone != SAND or seen.other >= 0:
        return
    obj = seen.obj
    assert obj is not None
    for name, ability in seen.abilities:
        if ability.event == "sand_removed":
            for _ in range(-seen.other):
                trigger_ability(game, obj, ability, name=name)


def _run_out(game: Game, artifacts: Collection[Any]) -> list[SBAHit]:
    """704.5s, as mirrored: the Hourglass permanents with no sand counters and no triggered
    ability waiting or on the stack."""
    if KEY not in kinds_seen(game):
        return []
    return [SBAHit(o.id, "graveyard", "it has no sand counters (as 704.5s)")
            for o, c in artifacts
            if not o.counters.get(SAND) and _is_hourglass(game, o, c.definition)
            and not triggered_not_left_stack(game, o.id)]


CARD_KEYS.register(KEY, CardKey(
    "integer", "714.3a", "an Hourglass (a mechanic of the tests): it enters with this many sand "
    "counters, loses one as each of its controller's upkeeps begins, and goes to the graveyard "
    "with none", mechanic=KEY, reads_as=Annotated[int, AtLeast(1)], stands_for=_stands_for,
    card_type="Artifact"))
COUNTER_KINDS.register(SAND, CounterKind(
    "714.3a", "an Hourglass's: one is removed as each of its controller's upkeeps begins "
              "(``sand_removed`` triggers), and with none it goes to the graveyard"))
TURN_ACTIONS.register("remove_sand", TurnAction(
    "714.3b", "a sand counter is removed from each Hourglass permanent the active player controls",
    "upkeep", "begin", act=_remove_sand))
TRIGGER_EVENTS.register("sand_removed", TriggerEvent(
    "714.2b", "whenever a sand counter is removed from this permanent", "counters", True, False,
    _sand_removed))
SBA_ACTIONS.register("704.5s-hourglass", StateBasedAction(
    "an Hourglass permanent with no sand counters and no triggered ability waiting or on the "
    "stack goes to the graveyard", "permanents", frozenset({"board"}), frozenset({"graveyard"}),
    _run_out, only="Artifact"))

MECHANICS.register(KEY, Mechanic(
    ("714.3a", "714.3b", "714.2b", "704.5s"),
    "a permanent that runs out of sand counters, one each upkeep, and is put into the graveyard",
    (("CARD_KEYS", KEY), ("COUNTER_KINDS", SAND), ("TURN_ACTIONS", "remove_sand"),
     ("TRIGGER_EVENTS", "sand_removed"), ("SBA_ACTIONS", "704.5s-hourglass")),
    frozenset({"kinds_seen", "sba_marks"})))
