"""The registry container: a closed map from each name a card file or the kernel may use to its
entry (its meaning), kept as the modules defining the entries are imported."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

E = TypeVar("E")


class Registry(dict[str, E]):
    """A closed registry: name -> entry. Entries are added by the module that defines their
    meaning, as it is imported (``register``); a name not in it is refused where it is read (a
    card file names the card and the field). The kernel's walkers keep tables derived from it
    (``watch``), rebuilt on every change, so a test may add an entry for a while
    (``monkeypatch.setitem``) and see it walked."""

    __slots__ = ("_watchers", "kind")

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind  # what an entry is, in words, for errors: "state-based action"
        self._watchers: list[Callable[[], None]] = []

    def register(self, name: str, entry: E) -> E:
        """Add ``entry`` as ``name`` (a name is registered once); returns the entry."""
        if name in self:
            raise ValueError(f"{self.kind} {name!r} is already registered")
        self[name] = entry
        return entry

    def watch(self, rebuild: Callable[[], None]) -> None:
        """Call ``rebuild`` now and after every change (it rebuilds a table derived from the
        registry, read on a hot path instead of the registry itself)."""
        self._watchers.append(rebuild)
        rebuild()

    def _changed(self) -> None:
        for rebuild in self._watchers:
            rebuild()

    def __setitem__(self, name: str, entry: E) -> None:
        """Add or replace ``name``; a change a watcher refuses (it raises) is undone."""
        old = [self[name]] if name in self else []
        super().__setitem__(name, entry)
        try:
            self._changed()
        except BaseException:
            if old:
                super().__setitem__(name, old[0])
            else:
                super().__delitem__(name)
            self._changed()
            raise

    def __delitem__(self, name: str) -> None:
        super().__delitem__(name)
        self._changed()

    def _unsupported(self, *args: object, **kwargs: object) -> None:
        raise TypeError(f"a {self.kind} registry changes one name at a time (register, [name] =, del)")

    update = pop = popitem = clear = setdefault = _unsupported  # type: ignore[assignment]
