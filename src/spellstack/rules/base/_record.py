"""``Record``: the base of frozen value types whose copies are themselves."""

from __future__ import annotations

from dataclasses import fields

from mypy_extensions import mypyc_attr

__all__ = ["Record"]


@mypyc_attr(acyclic=True)
class Record:
    """The base of a frozen dataclass holding only values (numbers, strings, tuples and other
    records): a copy of one, deep or not, is the record itself, and a pickled one is rebuilt by
    its constructor. (The compiled build needs both: neither ``copy`` nor ``pickle`` can rebuild
    a compiled frozen dataclass field by field, as they would by default.)"""

    __slots__ = ()

    def __copy__(self) -> Record:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Record:
        return self

    def __reduce__(self) -> tuple[type[Record], tuple[object, ...]]:
        # The constructor's arguments: a field outside ``__init__`` is derived from them again.
        return type(self), tuple(getattr(self, f.name) for f in fields(self) if f.init)  # type: ignore[arg-type]
