"""What the layer engine reads and keeps of a game: ``LayerHost``, met by ``Game``.

The engine sits below the game handle (the handle's characteristic queries read the engine's
cache), so it names what it needs of a game here instead of importing the handle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from ..definitions import CardDefinition
from ..state import Characteristics, GameObject, GameState

if TYPE_CHECKING:
    from ._cache import LayerCache

__all__ = ["LayerCaches", "LayerHost"]


class LayerCaches(Protocol):
    """The caches the layer engine fills and reads (``Caches`` holds them, with their meaning)."""

    @property
    def layers(self) -> LayerCache:
        """Characteristics by object id for the current epoch."""
    @property
    def stable(self) -> dict[int, Characteristics]:
        """Characteristics of cards no epoch can change, by object id."""
    @property
    def templates(self) -> dict[tuple[str, int, int, int, bool, tuple[str, ...]], Characteristics]:
        """Printed characteristics by (name, controller, counter P/T, X)."""
    @property
    def value_readers(self) -> dict[str, bool]:
        """By card name: whether a static ability of it counts cards in a zone."""
    reads_zones: bool
    """Whether an object of the game has had such an ability."""
    zone_scan_id: int
    """Objects with ids below this were looked at for such abilities."""


class LayerHost(Protocol):
    """A game as the layer engine sees it: its state, its card definitions and its caches."""

    @property
    def state(self) -> GameState:
        """The game state."""
    @property
    def cards(self) -> Mapping[str, CardDefinition]:
        """Card and token definitions by name."""
    @property
    def caches(self) -> LayerCaches:
        """The kernel's caches."""

    def changed(self) -> None:
        """Something that can change characteristics happened: a new epoch."""

    def controller(self, obj: GameObject) -> int:
        """The seat controlling ``obj`` now (layer 2 for permanents)."""
