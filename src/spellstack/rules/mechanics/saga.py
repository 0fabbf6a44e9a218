"""Sagas (714): an enchantment whose chapter abilities trigger as lore counters are added.

- a card key, ``chapter``: the card's chapter abilities (714.2a), each a table quoting its Oracle
  line (``"II — Each opponent discards a card."``), whose chapter symbol gives its chapter
  numbers; each is a triggered ability with the event ``chapter`` (714.2b), and the card gets
  714.3a: as a Saga enters, its controller puts a lore counter on it (it enters with one, 122.6);
- a counter kind, ``lore``;
- a turn-based action: as a player's precombat main phase begins, that player puts a lore
  counter on each Saga they control with one or more chapter abilities (714.3b);
- a trigger event, ``chapter``: as lore counters are put on a Saga, each chapter ability whose
  chapter number is greater than the count before and at most the count after triggers (714.2b);
  its final chapter number is the greatest among the chapter abilities it has (714.2c);
- a state-based action, 704.5s: a Saga with one or more chapter abilities, with at least its
  final chapter number of lore counters, that is not the source of a chapter ability that has
  triggered but not yet left the stack, is sacrificed (714.4; it is put into its owner's
  graveyard). The check is made again once an ability leaves the stack: a resolution marks
  everything.

A game with no Saga card (``kinds_seen`` notes the key) spends one set lookup on each precombat
main phase and each check of the permanents with counters.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Annotated, Any

from ..definitions import CARD_KEYS, CardDefinition, CardKey
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

KEY = "chapter"
"""The card key, and what ``kinds_seen`` notes for a game with a Saga card."""
EVENT = "chapter"
"""The trigger event of chapter abilities."""
LORE = "lore"
"""The counter kind."""

_ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9,
          "X": 10}
_DASH = " — "


def chapter_numbers(text: str) -> tuple[int, ...]:
    """714.2a: the chapter numbers of the chapter symbol an Oracle line begins with (``"I, II —
    ..."``: 1 and 2); ValueError naming the line if it begins with none."""
    symbol, dash, _ = text.partition(_DASH)
    numerals = [n.strip() for n in symbol.split(",")]
    if not dash or not all(n in _ROMAN for n in numerals):
        raise ValueError(f"a chapter ability's text begins with its chapter symbol (roman "
                         f"numerals and ' — '), got {text!r}")
    return tuple(_ROMAN[n] for n in numerals)


def _check_text(text: str) -> None:
    chapter_numbers(text)


@dataclass(frozen=True, slots=True)
class ChapterTable:
    """``[[card.chapter]]``: a chapter ability (714.2a), a triggered ability."""

    text: Annotated[str, _check_text]
    """Its Oracle line, chapter symbol first (``"III — Put target ..."``)."""
    effects: tuple[dict[str, Any], ...] = field(compare=False)
    """What it does (effects as a triggered ability's); a chapter is compared and hashed by
    its text only, so that the card stays hashable."""
    targets: tuple[dict[str, Any], ...] = field(default=(), compare=False)
    """Its target requirements (as a triggered ability's)."""


def _in_order(chapters: tuple[ChapterTable, ...]) -> None:
    numbers = [n for c in chapters for n in chapter_numbers(c.text)]
    if not chapters or numbers != sorted(set(numbers)):
        raise ValueError("expected the chapter abilities in printed order, each number once, "
                         f"got chapters {numbers}")


def _stands_for(chapters: tuple[ChapterTable, ...]) -> dict[str, list[dict[str, Any]]]:
    """714.2b: each chapter is a triggered ability with the event ``chapter``; 714.3a: as the
    Saga enters, a lore counter is put on it (it enters with one, 122.6), quoting the reminder
    text every Saga prints."""
    return {"triggered": [{"event": EVENT, "text": c.text, "targets": list(c.targets),
                           "effects": list(c.effects)} for c in chapters],
            "replacement": [{"event": "enters", "counters": {LORE: 1},
                             "text": "add a lore counter"}]}


_NUMBERS: dict[tuple[str, int], tuple[int, ...]] = {}
"""Chapter numbers by (definition name, ability position), as read from each definition once."""


def _numbers(definition: CardDefinition, position: int) -> tuple[int, ...]:
    """The chapter numbers of ``definition``'s chapter ability at ``position`` (its chapter
    tables and its ``chapter`` abilities are both in printed order); () if it has none there."""
    key = (definition.name, position)
    found = _NUMBERS.get(key)
    if found is None:
        tables = definition.mechanic_key(KEY) or ()
        abilities = [a for a in definition.triggered if a.event == EVENT]
        found = ()
        for table, ability in zip(tables, abilities, strict=False):
            if ability.position == position:
                found = chapter_numbers(table.text)
        _NUMBERS[key] = found
    return found


def _final_chapter(game: Game, obj: GameObject) -> int:
    """714.2c: the greatest chapter number among the chapter abilities it has (0: none)."""
    best = 0
    for name, ability in game.triggered(obj):
        if ability.event == EVENT:
            best = max(best, *_numbers(game.cards[name], ability.position))
    return best


def _add_lore(game: Game) -> None:
    """714.3b: as the precombat main phase begins, the active player puts a lore counter on each
    Saga they control with one or more chapter abilities (its chapters trigger, 714.2b)."""
    if KEY not in kinds_seen(game):
        return  # no Saga card in this game (the usual case)
    st = game.state
    layers = game.caches.layers
    for oid in list(st.battlefield):
        obj = st.objects[oid]
        chars = layers[oid]
        if (chars.controller == st.active and "Saga" in chars.subtypes
                and _final_chapter(game, obj)):
            add_counters(game, obj, LORE, 1)


def _lore_added(game: Game, seen: Happened) -> None:
    """714.2b: as lore counters are put on a Saga, each chapter ability whose chapter number is
    above the count before and at most the count now triggers (once for each such number)."""
    if seen.zone != LORE or seen.other <= 0:
        return
    obj = seen.obj
    assert obj is not None
    now = obj.counters.get(LORE, 0)
    before = now - seen.other
    for name, ability in seen.abilities:
        if ability.event == EVENT:
            for n in _numbers(game.cards[name], ability.position):
                if before < n <= now:
                    trigger_ability(game, obj, ability, name=name)


def _chapter_waiting_or_on_the_stack(game: Game, oid: int) -> bool:
    """714.4: whether a chapter ability of ``oid`` has triggered and not yet left the stack."""
    cards = game.cards
    return triggered_not_left_stack(game, oid, lambda name, position: bool(_numbers(cards[name], position)))


def _final_chapter_reached(game: Game, with_counters: Collection[Any]) -> list[SBAHit]:
    """704.5s: the Sagas with one or more chapter abilities, with at least their final chapter
    number of lore counters, none of whose chapter abilities waits or is on the stack. Such a
    Saga has counters: the action looks among the permanents with counters, as 704.5q and r do,
    so that a check picks out no other group for it."""
    if KEY not in kinds_seen(game):
        return []
    hits = []
    for o, c in with_counters:
        if "Saga" not in c.subtypes:
            continue
        final = _final_chapter(game, o)
        if final and o.counters.get(LORE, 0) >= final and not _chapter_waiting_or_on_the_stack(
                game, o.id):
            hits.append(SBAHit(o.id, "graveyard",
                               "it is sacrificed after its final chapter (704.5s)"))
    return hits


CARD_KEYS.register(KEY, CardKey(
    "list of tables", "714.2a", "a Saga's chapter abilities (``[[card.chapter]]``: ``text`` "
    "quoting its line, chapter symbol first, ``targets``, ``effects``): each triggers as lore "
    "counters reach its number; the Saga enters with a lore counter, gets one as each of its "
    "controller's precombat main phases begins, and is sacrificed after its final chapter",
    mechanic="saga", reads_as=Annotated[tuple[ChapterTable, ...], _in_order],
    stands_for=_stands_for, card_type="Enchantment"))
COUNTER_KINDS.register(LORE, CounterKind(
    "714.3a", "a Saga's: one as it enters and one as each of its controller's precombat main "
              "phases begins; its chapter abilities trigger as they are put on it",
    goal=("final chapter", _final_chapter)))
TURN_ACTIONS.register("add_lore", TurnAction(
    "714.3b", "the active player puts a lore counter on each Saga they control with one or more "
    "chapter abilities", "precombat_main", "begin", act=_add_lore))
TRIGGER_EVENTS.register(EVENT, TriggerEvent(
    "714.2b", "a Saga's chapter ability (written as ``[[card.chapter]]``, which gives its "
    "number): as lore counters are put on it and reach its chapter number", "counters", True,
    False, _lore_added))
SBA_ACTIONS.register("704.5s", StateBasedAction(
    "a Saga with lore counters at least its final chapter number and no chapter ability waiting "
    "or on the stack is sacrificed", "permanents", frozenset({"board"}),
    frozenset({"graveyard"}), _final_chapter_reached, only="counters"))

MECHANICS.register("saga", Mechanic(
    ("714.2a", "714.2b", "714.2c", "714.3a", "714.3b", "714.4", "704.5s"),
    "an enchantment whose chapter abilities trigger as lore counters are added, one each "
    "precombat main phase, and which is sacrificed after its final chapter",
    (("CARD_KEYS", KEY), ("COUNTER_KINDS", LORE), ("TURN_ACTIONS", "add_lore"),
     ("TRIGGER_EVENTS", EVENT), ("SBA_ACTIONS", "704.5s")),
    frozenset({"kinds_seen", "sba_marks"})))
