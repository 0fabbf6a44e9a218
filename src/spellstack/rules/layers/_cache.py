"""The characteristics cache: one dict subscript on the hot path, a miss computes (613)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from weakref import ref

from ..state import Characteristics
from ._engine import characteristics

if TYPE_CHECKING:
    from ._host import LayerHost

__all__ = ["LayerCache"]


class LayerCache(dict[int, Characteristics]):
    """Characteristics by object id for the current epoch (``Caches.layers``): a lookup that
    misses computes them (``characteristics``), so the hot path is one dict subscript."""

    __slots__ = ("_game",)

    def __init__(self, game: LayerHost) -> None:
        super().__init__()
        # A weak reference: the game holds this cache, and a strong reference back would make
        # every game a reference cycle, freed only by a full collection long after it ended
        # (thousands of finished games waiting in a tournament's memory), not when the last
        # reference to it goes. Only a miss reads it. The compiled build's ``Game`` takes no
        # weak reference (mypyc gives one only to a class with an instance dictionary): there
        # the reference is strong, and each game a cycle, the price of compiling ``Game``.
        try:
            self._game: Callable[[], LayerHost | None] = ref(game)
        except TypeError:
            self._game = lambda: game

    @property
    def game(self) -> LayerHost:
        """The game whose objects it describes."""
        game = self._game()
        assert game is not None, "LayerCache: its game is gone"
        return game

    def __missing__(self, oid: int) -> Characteristics:
        game = self.game
        st = game.state
        obj = st.objects.get(oid) or st.lki.get(oid)
        if obj is None:
            raise KeyError(f"object #{oid} is in no zone and has no last known information")
        return characteristics(game, obj)
