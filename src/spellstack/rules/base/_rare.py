"""Rare fields (``rare_fields``): a mutable dataclass whose instances mostly leave some fields at
their defaults keeps those fields out of its slots, so that each instance is smaller.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, fields
from typing import Any, TypeVar

_T = TypeVar("_T")


def rare_fields(*names: str) -> Callable[[type[_T]], type[_T]]:
    """A class decorator, above ``@dataclass`` (not slotted): the class's other fields become
    slots, and ``names`` are read from the class (their defaults) until an instance is given
    another value, which its own dictionary then holds.

    Every slot is 8 bytes in every instance; a field that almost every instance leaves at its
    default costs nothing this way while it is left there. Reading such a field is slower than
    reading a slot (Python does not specialize it), so ``names`` should be fields that the hot
    paths rarely read. The generated ``__init__`` takes the same arguments as the dataclass's and
    stores a rare field only when it is not its default object itself (``is not``: a value equal
    to the default but of another type is kept). Everything else (``fields``, ``replace``,
    equality, ``repr``, pickling) works as for the dataclass. Assigning a rare field stores
    the value in the instance's dictionary, the default too: set one only when it is not its
    default, and ``reset_rare`` puts it back to the default (the value leaves the dictionary).
    A class of the compiled build (``is_compiled_class``) is returned as it is: its attributes
    are fixed already, and read faster than any slot.
    """

    def decorate(cls: type[_T]) -> type[_T]:
        if is_compiled_class(cls):
            return cls  # its attributes are fixed already (read directly: no slot is cheaper)
        every = fields(cls)  # type: ignore[arg-type]
        rare = set(names)
        for f in every:
            if f.name in rare and (f.default is MISSING or not f.init):
                raise TypeError(f"{cls.__name__}.{f.name}: a rare field needs a plain default")
        unknown = rare - {f.name for f in every}
        if unknown:
            raise TypeError(f"{cls.__name__}: no field {sorted(unknown)[0]!r}")
        slots = tuple(f.name for f in every if f.name not in rare)
        defaults: dict[str, Any] = {}
        params, body = [], []
        for f in every:
            default = _default_expr(f, defaults)
            if default is None:
                params.append(f.name)
            elif f.default is not MISSING:
                params.append(f"{f.name}={default}")
            else:
                params.append(f"{f.name}=_MISSING")
                body.append(f"    if {f.name} is _MISSING: {f.name} = {default}\n")
            if f.name in rare:
                body.append(f"    if {f.name} is not _d_{f.name}: self.{f.name} = {f.name}\n")
            else:
                body.append(f"    self.{f.name} = {f.name}\n")
        namespace: dict[str, Any] = {**defaults, "_MISSING": MISSING}
        exec(f"def __init__(self, {', '.join(params)}):\n{''.join(body)}", namespace)
        init = namespace["__init__"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        # As ``dataclass(slots=True)`` does: a new class, the slots' defaults (class
        # attributes, which would hide the slots) left out; the rare fields' defaults kept.
        body_dict = {k: v for k, v in cls.__dict__.items()
                     if k not in slots and k not in ("__dict__", "__weakref__")}
        body_dict["__slots__"] = (*slots, "__dict__")
        body_dict["__init__"] = init
        made: type[_T] = type(cls.__name__, cls.__bases__, body_dict)
        return made

    return decorate


def is_compiled_class(cls: type) -> bool:
    """Whether ``cls`` is a class of the compiled build (mypyc's: its attributes are fixed in C,
    and it can't be remade): ``rare_fields`` leaves such a class as it is."""
    return "__mypyc_attrs__" in cls.__dict__


def reset_rare(obj: object, name: str, default: object) -> None:
    """Put ``obj``'s rare field ``name`` back to its ``default`` (``rare_fields``): out of its
    dictionary, or, for an object of the compiled build (no dictionary, every field an
    attribute), assigned."""
    values = getattr(obj, "__dict__", None)
    if values is None:
        setattr(obj, name, default)
    else:
        values.pop(name, None)


def _default_expr(f: Field[Any], namespace: dict[str, Any]) -> str | None:
    """The expression of generated code that gives field ``f`` its default, its value or
    factory put in ``namespace`` (``_d_name``, ``_f_name()``); None for a field without one."""
    if f.default is not MISSING:
        namespace[f"_d_{f.name}"] = f.default
        return f"_d_{f.name}"
    if f.default_factory is not MISSING:
        namespace[f"_f_{f.name}"] = f.default_factory
        return f"_f_{f.name}()"
    return None


def rare_builder(cls: type[_T], names: tuple[str, ...]) -> Callable[..., _T]:
    """A constructor of ``cls`` (made by ``rare_fields``) taking the fields ``names``, in that
    order, and leaving every other field at its default: the instance it builds equals what
    ``cls(...)`` builds from the same arguments, about three times faster for a class of many
    fields (the generated ``__init__`` binds a default to each parameter it is not given, and
    tests each rare field). For a class of the compiled build, its own constructor. ``TypeError``
    if ``names`` are not fields of ``cls`` or ``cls`` has no rare fields."""
    every = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
    slots = cls.__dict__.get("__slots__", ())
    unknown = [name for name in names if name not in every]
    if not unknown and is_compiled_class(cls):
        # Compiled, ``rare_fields`` left the class as it is: its own constructor is the fast one
        # (the class itself, for its leading fields in order; else by name).
        if names == tuple(every)[:len(names)]:
            return cls
        def construct(*values: object) -> _T:
            return cls(**dict(zip(names, values, strict=True)))
        return construct
    if unknown or "__dict__" not in slots:
        raise TypeError(f"rare_builder({cls.__name__}): "
                        + (f"no field {unknown[0]!r}" if unknown else "not a rare_fields class"))
    namespace: dict[str, Any] = {"_new": cls.__new__, "_cls": cls}
    body = []
    for name in slots:
        if name == "__dict__" or name in names:
            continue
        default = _default_expr(every[name], namespace)
        if default is None:
            raise TypeError(f"rare_builder({cls.__name__}): field {name!r} has no default")
        body.append(f"    o.{name} = {default}\n")
    given = "".join(f"    o.{name} = {name}\n" for name in names if name in slots)
    rare = "".join(f"    if {name} is not {_default_expr(every[name], namespace)}: o.{name} = {name}\n"
                   for name in names if name not in slots)
    exec(f"def build({', '.join(names)}):\n    o = _new(_cls)\n{given}{rare}{''.join(body)}"
         "    return o\n", namespace)
    made: Callable[..., _T] = namespace["build"]
    made.__qualname__ = f"rare_builder({cls.__qualname__})"
    return made
