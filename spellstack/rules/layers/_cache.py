"""The characteristics cache: one dict subscript on the hot path, a miss computes (613)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import Characteristics
from ._engine import characteristics

if TYPE_CHECKING:
    from ._host import LayerHost

__all__ = ["LayerCache"]


class LayerCache(dict[int, Characteristics]):
    """Characteristics by object id for the current epoch (``Caches.layers``): a lookup that
    misses computes them (``characteristics``), so the hot path is one dict subscript."""

    __slots__ = ("game",)

    def __init__(self, game: LayerHost) -> None:
        super().__init__()
        self.game = game
        """The game whose objects it describes."""

    def __missing__(self, oid: int) -> Characteristics:
        st = self.game.state
        obj = st.objects.get(oid) or st.lki.get(oid)
        if obj is None:
            raise KeyError(f"object #{oid} is in no zone and has no last known information")
        return characteristics(self.game, obj)
