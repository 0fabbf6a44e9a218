"""Morph (702.37) and face-down spells and permanents (708): "You may cast this card as a 2/2
face-down creature with no text, no name, no subtypes, and no mana cost by paying {3} rather
than paying its mana cost" (702.37c); its controller may turn it face up any time they have
priority by paying its morph cost (702.37e, a special action, 116.2b). An alternative cost
(118.9) whose record names what it is cast for ({3}, 702.37b); the cost the card names is the
one that turns it face up. A face-down permanent is what a seat's board may turn face up
(``SeatBoard.face_down``)."""

from __future__ import annotations

from ..registry import COST_OPTIONS, MECHANICS, CostOptionRule, Mechanic

COST_OPTIONS.register("morph", CostOptionRule(
    "alternative", "hand", "702.37c", "cast face down as a 2/2 creature with no text, name, "
    "subtypes or mana cost for {3} (708.2); turned face up any time its controller has priority "
    "by paying its morph cost (702.37e, a special action)", cast_for="{3}"))

MECHANICS.register("morph", Mechanic(
    ("702.37", "708"), "cast face down as a 2/2 for {3}, turned face up for its morph cost",
    (("COST_OPTIONS", "morph"),), frozenset({"legal_actions", "hand_facts", "seat_board"})))
