"""What the layer engine reads and keeps of a game: ``LayerHost``, which ``Game`` derives from.

The engine sits below the game handle (the handle's characteristic queries read the engine's
cache), so it names what it needs of a game here instead of importing the handle.

Both are classes the game derives from, not protocols: the compiled build then reads their
attributes natively (a value typed by a protocol is read the generic way, by name, at every
read), and the layer engine reads a game's state and caches at every lookup that misses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..definitions import CardDefinition
from ..state import Characteristics, GameObject, GameState

if TYPE_CHECKING:
    from ._cache import LayerCache

__all__ = ["LayerCaches", "LayerHost"]


class LayerCaches:
    """The caches the layer engine fills and reads: the game's ``Caches`` derives from it and
    fills them (with their meaning there)."""

    __slots__ = ("layers", "reads_zones", "stable", "templates", "value_readers", "zone_scan_id")

    layers: LayerCache
    """Characteristics by object id for the current epoch."""
    stable: dict[int, Characteristics]
    """Characteristics of cards no epoch can change, by object id."""
    templates: dict[tuple[str, int, int, int, bool, tuple[str, ...]], Characteristics]
    """Printed characteristics by (name, controller, counter P/T, X)."""
    value_readers: dict[str, bool]
    """By card name: whether a static ability of it counts cards in a zone."""
    reads_zones: bool
    """Whether an object of the game has had such an ability."""
    zone_scan_id: int
    """Objects with ids below this were looked at for such abilities."""


@dataclass(slots=True, eq=False)
class LayerHost:
    """A game as the layer engine sees it: its state, its card definitions and its caches
    (``Game`` derives from it, and gives ``changed`` and ``controller``).

    ``Game`` declares none of these again: compiled, a subclass that declares a base class's
    attribute again makes the collector visit the value twice for the one reference it holds,
    and a cyclic collection could then free a state that is still in use."""

    state: GameState
    """The game state (plain data, hashable)."""
    cards: Mapping[str, CardDefinition]
    """Card and token definitions by name."""
    layer_caches: LayerCaches = field(init=False, repr=False)
    """The game's caches (``Game.caches``, the same object), as the layer engine reads them."""

    def host_caches(self, caches: LayerCaches) -> None:
        """Give the engine the game's caches (``layer_caches``): once, as the game is made."""
        self.layer_caches = caches

    def changed(self) -> None:
        """Something that can change characteristics happened: a new epoch."""
        raise NotImplementedError

    def controller(self, obj: GameObject) -> int:
        """The seat controlling ``obj`` now (layer 2 for permanents)."""
        raise NotImplementedError
