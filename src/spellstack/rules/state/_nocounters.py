"""``NO_COUNTERS``: the counters (122) of every object that has none.

In a module of its own so that the game state's module can be compiled: it refuses changes by
methods assigned in its class body, which a compiled class would not put in its type's slots.
"""

from __future__ import annotations

from typing import Any


class _NoCounters(dict[str, int]):
    """The counters of an object that has none: one shared, unchangeable empty mapping (most
    objects never get a counter; a dict each was ~12 kB per game). ``add_counters`` gives an
    object its own dict before putting the first counter on it. Copies and pickles are itself."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> Any:
        raise TypeError("an object without counters shares NO_COUNTERS: give it its own dict "
                        "(add_counters does, 122.1) before changing its counters")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __hash__(self) -> int:  # type: ignore[override]  # dict's is None: dicts change
        return 0  # this one cannot, so it may be hashed (and be a dataclass field's default)

    def __copy__(self) -> _NoCounters:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> _NoCounters:
        return self

    def __reduce__(self) -> str:
        return "NO_COUNTERS"  # pickled by name: unpickling gives the shared one


NO_COUNTERS: dict[str, int] = _NoCounters()
"""``GameObject.counters`` of every object without counters (shared, unchangeable: see
``_NoCounters``)."""
