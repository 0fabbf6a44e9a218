"""Object views shared: an object view equal to one made before is that one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ._types import ObjectView

_VIEWS: Final[dict[ObjectView, ObjectView]] = {}
"""Object views made before, each its own key. A public permanent's view is the same for every
seat (in every seat's last view, and in every player's copy of it decoded from a message), and
games alike show alike: one instance serves them all."""

_LIMIT: Final = 8192
"""The most views kept (~1.6 MB); then they start afresh."""


def shared_view(view: ObjectView,
                new: Callable[[ObjectView], ObjectView] | None = None) -> ObjectView:
    """The object view equal to ``view`` kept from before, or ``view``, kept from now on (views
    are frozen values: which of two equal ones is used changes nothing but memory). ``new``:
    what to keep instead of ``view`` when none is kept yet, an equal view (made only then)."""
    found = _VIEWS.get(view)
    if found is not None:
        return found
    if new is not None:
        view = new(view)
    if len(_VIEWS) >= _LIMIT:
        _VIEWS.clear()
    _VIEWS[view] = view
    return view
