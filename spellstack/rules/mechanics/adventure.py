"""Adventurer cards (715): a creature card whose second face is an Adventure, an instant or
sorcery (715.2); either may be cast from a hand (715.3), an Adventure that resolves is exiled,
and its creature may later be cast from exile (715.4). A card file writes it with
``layout = "adventure"`` and a ``face`` table for the creature and for the Adventure."""

from __future__ import annotations

from ..registry import LAYOUTS, MECHANICS, Layout, Mechanic

LAYOUTS.register("adventure", Layout(
    "715.1", "a creature card with an Adventure, an instant or sorcery, as its second face (715.2); "
    "after the Adventure resolves, exiled, its creature may be cast from exile (715.4)"))

MECHANICS.register("adventure", Mechanic(
    ("715",), "a creature card whose Adventure may be cast first, then the creature from exile",
    (("LAYOUTS", "adventure"),), frozenset({"legal_actions", "hand_facts"})))
