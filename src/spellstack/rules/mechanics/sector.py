"""Sectors: space sculptor (702.158) and the state-based action that assigns sectors (704.5u).

- a card key, ``space_sculptor = true``: the permanent has space sculptor (702.158a), which
  divides the battlefield into the alpha, beta and gamma sectors;
- a state-based action (704.5u): while a permanent with space sculptor is on the battlefield,
  each creature without a sector is assigned one by its controller. The players who control
  such creatures and no permanent with space sculptor choose first, in APNAP order, a sector for
  each of those creatures; then each other player who controls such creatures does the same.

A sector is a designation of the permanent (``GameObject.sector``), not a characteristic: a copy
does not copy it, and a creature that leaves the battlefield and returns is a new object without
one (400.7). A game with no card that has space sculptor (``kinds_seen`` notes the key) spends
one set lookup on each check of the creatures.
"""

from __future__ import annotations

from collections.abc import Collection, Generator
from typing import Any, Final

from ..definitions import CARD_KEYS, CardKey, definition_named
from ..game import Game
from ..legality import kinds_seen
from ..registry import MECHANICS, SBA_ACTIONS, Mechanic, SBAHit, StateBasedAction
from ..views import ask_word, visible_name

KEY: Final = "space_sculptor"
"""The card key, and what ``kinds_seen`` notes for a game with a card that has space sculptor."""
SECTORS: Final = ("alpha", "beta", "gamma")
"""702.158a: the sectors space sculptor divides the battlefield into."""
RULE: Final = "704.5u"
"""The state-based action's name in ``SBA_ACTIONS``."""


def _sculptors(game: Game) -> set[int]:
    """The seats that control a permanent with space sculptor (layer 1: a copy of one has it)."""
    st = game.state
    layers = game.caches.layers
    cards = game.cards
    return {c.controller for oid in st.battlefield
            if definition_named(cards, (c := layers[oid]).definition).mechanic_key(KEY)}


def _unassigned(game: Game, creatures: Collection[Any]) -> list[SBAHit]:
    """704.5u: the creatures without a sector, while a permanent with space sculptor is on the
    battlefield."""
    if KEY not in kinds_seen(game):
        return []  # no card with space sculptor in this game (the usual case)
    waiting = [o.id for o, _ in creatures if not o.sector]
    if not waiting or not _sculptors(game):
        return []
    return [SBAHit(oid, "perform", RULE) for oid in waiting]


def _assign(game: Game, ids: list[int]) -> Generator[Any, Any, None]:
    """704.5u: first each player who controls such creatures and no permanent with space
    sculptor, then each other player who controls such creatures, each in APNAP order, chooses
    a sector for each of them; each is assigned as it is chosen."""
    st = game.state
    sculptors = _sculptors(game)
    by_seat: dict[int, list[int]] = {}
    for oid in ids:
        if oid in st.objects and st.objects[oid].zone == "battlefield":
            by_seat.setdefault(game.controller(st.objects[oid]), []).append(oid)
    order = st.apnap()
    for seat in [s for s in order if s not in sculptors] + [s for s in order if s in sculptors]:
        for oid in by_seat.get(seat, ()):
            name = visible_name(game, oid)
            pick = yield from ask_word(game, seat, f"704.5u: choose a sector for {name}", SECTORS)
            st.objects[oid].sector = SECTORS[pick]
            game.log("sba", f"{st.players[seat].name} assigns {name} to the {SECTORS[pick]} sector "
                     "(704.5u)", subject=oid)


CARD_KEYS.register(KEY, CardKey(
    "boolean", "702.158a", "space sculptor: the battlefield is divided into the alpha, beta and "
    "gamma sectors, and a creature without a sector is assigned one by its controller (704.5u)",
    mechanic=KEY, reads_as=bool))
SBA_ACTIONS.register(RULE, StateBasedAction(
    "while a permanent with space sculptor is on the battlefield, a creature without a sector "
    "is assigned one by its controller", "permanents", frozenset({"board"}),
    frozenset({"perform"}), _unassigned, only="Creature", perform=_assign))

MECHANICS.register("sector", Mechanic(
    ("702.158a", "704.5u"),
    "space sculptor divides the battlefield into sectors; each creature is assigned one",
    (("CARD_KEYS", KEY), ("SBA_ACTIONS", RULE)),
    frozenset({"kinds_seen", "sba_marks"})))
