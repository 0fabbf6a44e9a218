"""Rebuilding dataclasses from wire-form data this program encoded itself, without checking it
(``from_trusted``): messages between the engine's own actors."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Literal, TypeVar, cast, get_args, get_origin

from spellstack.rules.base import builder

from ._generating import Converter, cached_converter, exec_converter, identity, slot_setters
from ._hints import COMPACT, TYPE_NAMES, NoneType, class_hints, is_union, key_of, plain_types
from ._validating import from_converter

__all__ = ["from_trusted", "trusted_decoder"]

T = TypeVar("T")
_TRUSTED: dict[Any, Converter] = {}


def from_trusted(cls: type[T], data: Any) -> T:
    """Rebuild a ``cls`` from wire-form data without validating it: only for data that this
    program encoded itself (``to_wire``). Wrong data gives wrong objects or any exception."""
    conv = _TRUSTED.get(cls) or _trusted_converter(cls)
    return cast(T, conv(data))


def trusted_decoder(cls: type[T]) -> Callable[[Any], T]:
    """The function ``from_trusted`` rebuilds a ``cls`` with (generated once), for a caller that
    decodes many of one class: one call fewer each."""
    return cast(Callable[[Any], T], _TRUSTED.get(cls) or _trusted_converter(cls))


def _trusted_converter(hint: Any) -> Converter:
    """Return (compiling and caching if needed) the unchecking converter for ``hint``."""
    return cached_converter(_TRUSTED, hint, _compile_trusted, _generate_trusted)


def _compile_trusted(hint: Any) -> Converter:
    if hint is None or hint is Any or hint in TYPE_NAMES or get_origin(hint) is Literal:
        return identity
    origin = get_origin(hint)
    args = get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _trusted_converter(args[0])
        if item is identity:
            return tuple
        return lambda v: tuple(map(item, v))
    if origin is tuple:
        items = [_trusted_converter(a) for a in args]
        if all(c is identity for c in items):
            return tuple
        return lambda v: tuple([c(x) for c, x in zip(items, v, strict=True)])
    if origin is dict:
        value = _trusted_converter(args[1])
        return lambda v: {k: value(x) for k, x in v.items()}
    if is_union(hint):
        members = [a for a in args if a is not NoneType]
        convs = [_trusted_converter(a) for a in members]
        if all(c is identity for c in convs):
            return identity
        if len(convs) == 1:
            inner = convs[0]
            return lambda v: None if v is None else inner(v)
        by_type: dict[type, Converter] = {NoneType: identity}
        for a, c in zip(members, convs, strict=True):
            for t in plain_types(a, True):
                if t in by_type:  # two members look alike on the wire: let the checks tell
                    return from_converter(hint, True)
                by_type[t] = c
        return lambda v: by_type[type(v)](v)
    raise TypeError(f"unsupported type hint {hint!r}")


def _generate_trusted(cls: type) -> Converter:
    hints = class_hints(cls)
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    positional = cls in COMPACT
    ns: dict[str, Any] = {"_cls": cls}
    values = []
    for i, f in enumerate(fields):
        if positional:
            raw = f"d[{i}]"
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raw = f"d[{key_of(f)!r}]"
        elif f.default is not dataclasses.MISSING:
            ns[f"_default{i}"] = f.default
            raw = f"d.get({key_of(f)!r}, _default{i})"
        else:
            ns[f"_factory{i}"] = f.default_factory
            raw = f"(d[{key_of(f)!r}] if {key_of(f)!r} in d else _factory{i}())"
        values.append(_trusted_expr(hints[f.name], raw, ns, f"v{i}"))
    setters = slot_setters(cls, names)
    build: Callable[..., Any] = builder(cls)
    lines = ["def convert(d):"]
    if build is not cls:
        ns["_build"] = build
        lines.append("    return _build(" + ", ".join(values) + ")")
    elif setters is not None:
        ns["_new"] = cls.__new__  # object.__new__, or a compiled class's own
        lines.append("    o = _new(_cls)")
        for i, (setter, value) in enumerate(zip(setters, values, strict=True)):
            ns[f"_s{i}"] = setter
            lines.append(f"    _s{i}(o, {value})")
        lines.append("    return o")
    else:
        lines.append("    return _cls(" + ", ".join(f"{n}={v}" for n, v in zip(names, values, strict=True)) + ")")
    return exec_converter("\n".join(lines), ns, f"<from_trusted {cls.__qualname__}>")


def _trusted_expr(hint: Any, raw: str, ns: dict[str, Any], local: str) -> str:
    """Python source rebuilding, without checks, the value of type ``hint`` that the source
    ``raw`` reads (``local``: a name the expression may bind). Sequences go through ``map`` of
    their item's converter and optional values are tested in place, rather than through a
    function of their own: no Python frame per sequence, none per item of scalars."""
    conv = _trusted_converter(hint)
    if conv is identity:
        return raw
    if conv is tuple:
        return f"tuple({raw})"
    args = get_args(hint)
    if get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis:
        name = f"_c{len(ns)}"
        ns[name] = _trusted_converter(args[0])
        return f"tuple(map({name}, {raw}))"
    members = [a for a in args if a is not NoneType]
    if is_union(hint) and len(members) == 1 and len(args) == 2:
        inner = _trusted_expr(members[0], local, ns, local + "_")
        return f"(None if ({local} := {raw}) is None else {inner})"
    name = f"_c{len(ns)}"
    ns[name] = conv
    return f"{name}({raw})"
