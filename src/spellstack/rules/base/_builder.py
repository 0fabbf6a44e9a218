"""Fast constructors for frozen slotted dataclasses (``builder``): the kernel and the protocol build
many value objects on hot paths.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

_T = TypeVar("_T")

_NATIVE: dict[type, Callable[..., Any]] = {}
"""The compiled build's native constructors, by class (``native_builder``)."""


def native_builder(cls: type[_T], native: Callable[..., _T]) -> Callable[..., _T]:
    """``builder(cls)``; in the compiled build, ``native``: a compiled function taking every field
    of ``cls`` in order, which makes the instance empty and assigns each field natively.

    Compiled, ``builder`` can't make a faster constructor (``cls``'s own ``__init__``, written by
    ``dataclasses``, stays interpreted, and a compiled class can't be given another layout), so
    ``native`` is kept as ``cls``'s: ``builder(cls)`` gives it from then on, and the schema
    engine builds ``cls`` with it."""
    if "__mypyc_attrs__" in cls.__dict__:
        _NATIVE[cls] = native
        return native
    return builder(cls)


def builder(cls: type[_T]) -> Callable[..., _T]:
    """A constructor of the frozen slotted dataclass ``cls`` that takes every field, in order,
    and builds exactly what its generated ``__init__`` would, about 15 times faster.

    That ``__init__`` only assigns each field, but through ``object.__setattr__`` (the class is
    frozen), which is most of the cost of building a view. The constructor is a class with the
    same bases and slots that assigns them and then gives the instance the class ``cls``
    (``__class__`` assignment between classes of the same layout): the result is a ``cls`` like
    any other. For a
    class whose ``__init__`` does more (``__post_init__``, a field not in ``__init__``, a
    hand-written ``__init__``, other slots), ``cls`` itself; for a compiled class, its native
    constructor if it has one (``native_builder``), else ``cls`` itself.
    """
    native = _NATIVE.get(cls)
    if native is not None:
        return native
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    init = cls.__dict__.get("__init__")
    if (cls.__dict__.get("__slots__") != names or hasattr(cls, "__post_init__")
            or getattr(getattr(init, "__code__", None), "co_filename", None) != "<string>"
            or not all(f.init for f in fields(cls))):  # type: ignore[arg-type]
        return cls
    body = "".join(f"    self.{name} = {name}\n" for name in names)
    namespace: dict[str, Any] = {"_cls": cls}
    exec(f"def __init__(self, {', '.join(names)}):\n{body}    self.__class__ = _cls\n",
         namespace)
    # The same bases (``cls``'s may be a class of empty slots, methods only): the same layout.
    made: Callable[..., _T] = type(f"{cls.__name__}Builder", cls.__bases__, {
        "__slots__": names, "__init__": namespace["__init__"], "__module__": cls.__module__,
        "__qualname__": f"builder({cls.__qualname__})"})
    return made
