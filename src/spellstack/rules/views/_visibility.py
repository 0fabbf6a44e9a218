"""Hidden information: the one place that decides what a seat may see of an object.

400.2: the library and the hand are hidden zones (a player may look at their own hand,
but no player may look at any library); the battlefield, the stack, graveyards and exile
are public. 406.3: a card exiled face down can't be examined by any player. 708.2: a
face-down object has no name or other characteristics anyone but a permitted player knows.

Every text, view and event that may reach a player asks this module: an object the player
may not see is named only by its id (``#N``), and an id the player never saw reads exactly
like an id that never existed. Rules that reveal cards later ("play with the top card of
your library revealed", "you may look at the top card of your library any time") extend
``visible_to``, and every text follows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ..base import quote
from ..game import TOP_CARD_RULE
from ..state import GameObject, is_player_ref, seat_of_ref

if TYPE_CHECKING:
    from ..game import Game


PUBLIC_SEAT: Final = -1
"""The seat of nobody in particular: what every player (and a spectator) may see."""


def visible_to(game: Game, seat: int, obj: GameObject) -> bool:
    """Whether ``seat`` may see ``obj``'s identity (name and characteristics) where it is.

    400.2: no one sees a library (but its top card where an effect lets its owner look at it, or
    reveals it to all, ``Game.top_card_seen``); a hand is seen only by its owner (and by a player
    an effect let look at it, ``GameObject.looked_at_by``). 708.2/708.5: a face-down
    spell or permanent is seen only by its controller (708.5), until it leaves the
    battlefield or the stack (708.9: its last known information is revealed to all); 406.3: a
    card exiled face down by no one. Everything else (the battlefield face up, the stack, graveyards, face-up exile) is
    public. ``seat`` may be ``PUBLIC_SEAT``. ``obj`` may be last known information: then it
    answers for the object as it last existed.
    """
    if obj.face_down:
        if obj.revealed:  # 708.9: it left the battlefield or the stack, and was revealed
            return True
        if obj.zone == "exile":  # 406.3: nobody, unless an effect lets its owner look
            return seat != PUBLIC_SEAT and game.face_down_exile_seen(seat, obj)
        return obj.zone in ("battlefield", "stack") and seat != PUBLIC_SEAT \
            and game.controller(obj) == seat
    if obj.zone == "library":
        # 400.2, unless an effect shows its top card: to its owner (Garruk's Horde) or to every
        # player (Future Sight); a card below the top stays hidden.
        library = game.state.players[obj.owner].library
        if not library or library[0] != obj.id or not TOP_CARD_RULE:
            return False
        look, revealed = game.top_card_seen(obj.owner)
        return revealed or (look and seat == obj.owner)
    if obj.zone == "hand":  # and a card an effect let another player look at (400.2)
        return seat != PUBLIC_SEAT and (obj.owner == seat or seat in obj.looked_at_by)
    return True


def ref_visible_to(game: Game, seat: int, ref: int) -> bool:
    """Whether ``seat`` may see what ``ref`` names: a player of this game, an object in a zone
    they may see, or an object that left the zones while they could see it (its last known
    information, 608.2h). An id that never existed, or one they could not see when it last
    existed, is not visible: both read the same."""
    st = game.state
    if is_player_ref(ref):
        return seat_of_ref(ref) < len(st.players)
    obj = st.objects.get(ref)
    if obj is None:
        obj = st.lki.get(ref)
    return obj is not None and visible_to(game, seat, obj)


def visible_name(game: Game, ref: int, seat: int = PUBLIC_SEAT) -> str:
    """``ref``'s name as ``seat`` may know it: a player's or object's name when visible to
    them (``ref_visible_to``), otherwise ``#N`` whether it is hidden or never existed."""
    if not ref_visible_to(game, seat, ref):
        return f"#{quote(ref)}"  # any int: one too long to print in decimal is summarised
    st = game.state
    if is_player_ref(ref):
        return st.players[seat_of_ref(ref)].name
    obj = st.objects.get(ref) or st.lki[ref]
    return obj.name


def seats_seeing(game: Game, obj: GameObject) -> tuple[int, ...]:
    """The seats that may see ``obj`` now, in seat order."""
    return tuple(p.seat for p in game.state.players if visible_to(game, p.seat, obj))
