"""Destruction (701.7): replacement effects first (regeneration, 701.15a), then the move."""

from __future__ import annotations

from ..game import Game
from ..replacement import DestroyEvent, apply_replacements, destroy_replacements
from ..state import Proc
from ..views import visible_name
from ._zones import move_object_proc

__all__ = ["destroy_permanent"]


def destroy_permanent(game: Game, oid: int, why: str, *, regenerate: bool = True) -> Proc[bool]:
    """701.7: destroy a permanent, unless a replacement effect replaces it (regeneration,
    701.15a; not if it "can't be regenerated", ``regenerate=False``). Returns whether it was
    put into a graveyard (or wherever a replacement of that move sent it)."""
    st = game.state
    obj = st.objects.get(oid)
    if obj is None or obj.zone != "battlefield":
        return False
    if game.has_keyword(obj, "indestructible"):
        game.log("destroy", f"{visible_name(game, oid)} is indestructible: it isn't destroyed "
                 "(702.12b)", subject=oid)
        return False
    # Only a regeneration shield on it replaces destruction (``destroy_replacements``): with
    # none (the usual case) or "can't be regenerated" (701.15c), nothing is looked for.
    if regenerate and any(s.kind == "regenerate" and s.affected == oid for s in st.shields):
        ev = yield from apply_replacements(game, DestroyEvent(oid, regenerate), destroy_replacements,
                                           game.controller(obj))
        if ev.regenerated:
            return False
    game.log("destroy", f"{visible_name(game, oid)} is destroyed{': ' + why if why else ''}", subject=oid)
    yield from move_object_proc(game, oid, "graveyard")
    return True
