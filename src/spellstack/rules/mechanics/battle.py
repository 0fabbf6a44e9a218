"""Battles and Sieges (310), and the transforming double-faced card a Siege is printed on:

- a card key, ``defense = N`` (310.4a): a battle's printed defense; it enters with that many
  defense counters (310.4b, 614.1c), its defense is their number (310.4c);
- a counter kind, ``defense``: damage dealt to a battle removes that many (120.3h, 310.6; the
  damage itself is the core's, ``deal_damage``, as attacking a battle is, 508.1b, 310.5);
- a trigger event, ``defeated``: "when this battle is defeated", as its last defense counter is
  removed (310.7); a Siege's "when it's defeated, exile it, then cast it transformed" (310.11b)
  is that event's ability in the card's data, casting its back face without paying its mana
  cost;
- state-based actions: a battle with no defense counters that isn't the source of an ability
  that has triggered and not yet left the stack goes to its owner's graveyard (704.5v); a battle
  whose protector is not in the game (one never designated included: a Siege's is chosen as it
  enters, 310.8, 310.11a, by its replacement ability ``choose_protector``; a permanent that
  became a copy of one had none) and that no creature attacks gets a protector its controller
  chooses among their opponents, or goes to the graveyard if there is none (704.5w); a Siege
  whose controller is its protector gets an opponent of theirs as its protector the same way
  (704.5x);
- a layout, ``transform``: a transforming double-faced card (712.1), cast as its front face
  (its back face only when an effect casts it transformed).

A game with no battle card (``kinds_seen`` notes the key) spends one set lookup on each check
of the battles, and none elsewhere.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Annotated, Any, Final

from ..base import AtLeast
from ..definitions import CARD_KEYS, CardKey
from ..game import Game
from ..legality import kinds_seen
from ..registry import (
    COUNTER_KINDS,
    LAYOUTS,
    MECHANICS,
    SBA_ACTIONS,
    TRIGGER_EVENTS,
    CounterKind,
    Layout,
    Mechanic,
    SBAHit,
    StateBasedAction,
    TriggerEvent,
)
from ..state import Proc, player_ref, seat_of_ref
from ..triggers import Happened, trigger_ability, triggered_not_left_stack
from ..views import ask_choose

KEY: Final = "defense"
"""The card key, the counter kind, and what ``kinds_seen`` notes for a game with a battle card."""
SIEGE_ENTERS: Final = "As a Siege enters"
"""The words of a Siege's reminder text its defense counters are quoted by (310.11a)."""


def _stands_for(n: int) -> dict[str, list[dict[str, Any]]]:
    """310.4b: ``defense = N`` is a replacement effect, "this permanent enters with N defense
    counters"; 310.11a: as a Siege enters, its controller chooses an opponent to protect it
    (``choose_protector``). Both are quoted by the words a Siege's entering is reminded with,
    which every battle of the pool has (a battle that is not a Siege would need its own)."""
    return {"replacement": [{"event": "enters", "counters": {KEY: n}, "choose_protector": True,
                             "text": SIEGE_ENTERS}]}


def _defeated(game: Game, seen: Happened) -> None:
    """310.7: "when this battle is defeated": its last defense counter was removed."""
    if seen.zone != KEY or seen.other >= 0:
        return
    obj = seen.obj
    assert obj is not None
    if obj.counters.get(KEY) or not game.is_type(obj, "Battle"):
        return
    for name, ability in seen.abilities:
        if ability.event == "defeated":
            trigger_ability(game, obj, ability, name=name)


def _no_defense(game: Game, battles: Collection[Any]) -> list[SBAHit]:
    """704.5v: the battles with no defense counters, not the source of an ability that has
    triggered and not yet left the stack (their defeat triggers)."""
    if KEY not in kinds_seen(game):
        return []
    return [SBAHit(o.id, "graveyard", "it has no defense counters (704.5v)")
            for o, _ in battles
            if not o.counters.get(KEY) and not triggered_not_left_stack(game, o.id)]


def _opponents(game: Game, seat: int) -> list[int]:
    """310.11a: who may protect a battle ``seat`` controls: their opponents still in the game,
    in turn order from them."""
    st = game.state
    return [s for s in st.apnap() if s != seat and not st.players[s].lost]


def _attacked(game: Game, oid: int) -> bool:
    combat = game.state.combat
    return combat is not None and oid in combat.attackers.values()


def _no_protector(game: Game, battles: Collection[Any]) -> list[SBAHit]:
    """704.5w: a battle whose protector is not in the game (or none was designated as it
    entered, 310.8) and that no creature attacks: its controller chooses one, or it goes to the
    graveyard if none can be chosen."""
    if KEY not in kinds_seen(game):
        return []
    players = game.state.players
    hits = []
    for o, c in battles:
        if (o.protector < 0 or players[o.protector].lost) and not _attacked(game, o.id):
            hits.append(SBAHit(o.id, "perform", "704.5w") if _opponents(game, c.controller)
                        else SBAHit(o.id, "graveyard", "it has no legal protector (704.5w)"))
    return hits


def _protects_itself(game: Game, battles: Collection[Any]) -> list[SBAHit]:
    """704.5x: a Siege whose controller is also its protector: they choose an opponent, or it
    goes to the graveyard if none can be chosen."""
    if KEY not in kinds_seen(game):
        return []
    hits = []
    for o, c in battles:
        if o.protector == c.controller and "Siege" in c.subtypes:
            hits.append(SBAHit(o.id, "perform", "704.5x") if _opponents(game, c.controller)
                        else SBAHit(o.id, "graveyard", "its controller protects it and has no "
                                    "opponent (704.5x)"))
    return hits


def choose_protector(game: Game, oid: int) -> Proc[None]:
    """310.8, 310.11a, 704.5w, 704.5x: the battle's controller chooses one of their opponents
    to protect it (asked only if there is more than one)."""
    obj = game.state.objects[oid]
    seat = game.controller(obj)
    refs = [player_ref(s) for s in _opponents(game, seat)]
    picked = yield from ask_choose(game, seat, f"310.11a: choose an opponent to protect "
                                   f"{obj.name}", refs, 1, 1)
    if not picked:
        return
    obj.protector = seat_of_ref(picked[0])
    game.changed()
    game.log("sba", f"{game.player_name(seat)} chooses {game.player_name(obj.protector)} "
             f"to protect {obj.name} (310.8)", player=seat, subject=oid)


def choose_protectors(game: Game, battles: list[int]) -> Proc[None]:
    """704.5w, 704.5x, as the check performs them: each battle's controller chooses its new
    protector (``choose_protector``), battle by battle, before anything moves."""
    for oid in battles:
        if oid in game.state.objects:
            yield from choose_protector(game, oid)


CARD_KEYS.register(KEY, CardKey(
    "integer", "310.4a", "a battle's printed defense: it enters with that many defense counters "
    "(310.4b)", mechanic=KEY, reads_as=Annotated[int, AtLeast(1)], stands_for=_stands_for,
    card_type="Battle"))
COUNTER_KINDS.register(KEY, CounterKind(
    "310.4b", "a battle's defense: it enters with its printed defense in them, damage to it "
              "removes them (120.3h), it is defeated as the last is removed (``defeated`` "
              "triggers), and with none it goes to the graveyard (704.5v)"))
TRIGGER_EVENTS.register("defeated", TriggerEvent(
    "310.7", "when this battle is defeated (its last defense counter is removed)", "counters",
    True, False, _defeated))
SBA_ACTIONS.register("704.5v", StateBasedAction(
    "a battle with no defense counters whose defeat trigger is not waiting or on the stack goes "
    "to the graveyard", "permanents", frozenset({"board"}), frozenset({"graveyard"}),
    _no_defense, only="Battle"))
SBA_ACTIONS.register("704.5w", StateBasedAction(
    "a battle whose protector is not in the game and that no creature attacks gets a protector "
    "its controller chooses among their opponents, or goes to the graveyard", "permanents",
    frozenset({"board"}), frozenset({"perform", "graveyard"}), _no_protector, only="Battle",
    perform=choose_protectors))
SBA_ACTIONS.register("704.5x", StateBasedAction(
    "a Siege protected by its controller gets an opponent of theirs as its protector, or goes "
    "to the graveyard", "permanents", frozenset({"board"}), frozenset({"perform", "graveyard"}),
    _protects_itself, only="Battle", perform=choose_protectors))
LAYOUTS.register("transform", Layout(
    "712.1", "a transforming double-faced card: its front face is cast; its back face only by "
    "an effect that casts it transformed (310.11b); elsewhere it has its front face's "
    "characteristics (712.8a)"))

MECHANICS.register("battle", Mechanic(
    ("310.4a", "310.4b", "310.4c", "310.5", "310.6", "310.7", "310.8", "310.11a", "310.11b",
     "120.3h", "704.5v", "704.5w", "704.5x", "712.1"),
    "battles: defense counters, a protector, attacking and defeating them; Sieges and the "
    "transforming double-faced cards they are printed on",
    (("CARD_KEYS", KEY), ("COUNTER_KINDS", KEY), ("TRIGGER_EVENTS", "defeated"),
     ("SBA_ACTIONS", "704.5v"), ("SBA_ACTIONS", "704.5w"), ("SBA_ACTIONS", "704.5x"),
     ("LAYOUTS", "transform")),
    frozenset({"kinds_seen", "sba_marks", "legal_actions", "hand_facts"})))
