"""Adventurer cards (715): a creature card whose second face is an Adventure, an instant or
sorcery (715.2); either may be cast from a hand (715.3), an Adventure that resolves is exiled
(715.3d), and its creature may later be cast from exile (715.4). One that doesn't resolve
(608.2b) or is countered (701.5) goes to its owner's graveyard; one cast with flashback is
exiled by flashback (702.34a), with no permission. A card file writes it with
``layout = "adventure"`` and a ``face`` table for the creature and for the Adventure."""

from __future__ import annotations

from ..game import Game
from ..registry import EXILED_LEAVING_STACK, LAYOUTS, MECHANICS, Layout, Mechanic
from ..resolution import RESOLVED_SPELL_MOVES
from ..state import GameObject
from ..zones import move_object


def _exile_on_an_adventure(game: Game, spell: GameObject) -> bool:
    """715.3d: as an Adventure spell resolves, its controller exiles it instead of putting it
    into its owner's graveyard, and its owner may cast the creature from exile (715.4). Not one
    a cost option exiles whenever it leaves the stack (702.34a: flashback's exile gives no
    permission)."""
    if "Adventure" not in game.subtypes(spell) or not EXILED_LEAVING_STACK.isdisjoint(
            spell.cast_costs):
        return False
    exiled = move_object(game, spell.id, "exile")
    exiled.on_adventure = exiled.zone == "exile"
    return True


RESOLVED_SPELL_MOVES.append(_exile_on_an_adventure)

LAYOUTS.register("adventure", Layout(
    "715.1", "a creature card with an Adventure, an instant or sorcery, as its second face (715.2); "
    "after the Adventure resolves, exiled, its creature may be cast from exile (715.4)"))

MECHANICS.register("adventure", Mechanic(
    ("715",), "a creature card whose Adventure may be cast first, then the creature from exile",
    (("LAYOUTS", "adventure"),), frozenset({"legal_actions", "hand_facts"})))
