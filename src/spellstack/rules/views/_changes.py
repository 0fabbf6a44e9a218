"""What changed between two views of one seat: the one definition, which a view delta carries
(``ViewTracker``) and a ``ViewMemo`` records while it builds a view."""

from __future__ import annotations

from ._types import ObjectView, PlayerView

__all__ = ["view_changes"]


def view_changes(last: PlayerView, view: PlayerView) -> tuple[tuple[ObjectView, ...], tuple[int, ...]]:
    """The object views of ``view`` that are new or differ from the view their id had in
    ``last``, in zone order (each player's graveyard and library top, hand, battlefield,
    exile), and the ids ``last`` showed and ``view`` does not, in ``last``'s order
    (``PlayerView.objects_by_id``).

    A ``ViewMemo`` records the same for the view it built and the one it built before it."""
    old = last.objects_by_id()
    shown: dict[int, ObjectView] = {}
    objects: list[ObjectView] = []
    # Views built with the seat's ViewMemo are the very objects of the last view when
    # nothing about them changed: the identity test settles nearly every object.
    zones: list[tuple[ObjectView, ...]] = []
    for p in view.players:
        zones.append(p.graveyard)
        if p.library_top:
            zones.append(p.library_top)
    zones += (view.hand, view.battlefield, view.exile)
    for zone in zones:
        for o in zone:
            i = o.id
            shown[i] = o
            known = old.get(i)
            if known is not o and (known is None or known != o):
                objects.append(o)
    return tuple(objects), tuple([i for i in old if i not in shown])
