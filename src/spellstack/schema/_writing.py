"""Turning dataclasses into plain, msgpack-able data: the named form (``to_plain``: every
dataclass a map of field names) and the wire form (``to_wire``: compact records as positional
lists), each dataclass's encoder generated once as Python source."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, get_args, get_origin

from ._generating import Converter, exec_converter, generated
from ._hints import COMPACT, TYPE_NAMES, NoneType, class_hints, is_dataclass_type, is_union, key_of

__all__ = ["to_plain", "to_wire", "wire_encoder"]

_SCALARS: tuple[type, ...] = (int, str, bool, float, NoneType)
_TO: dict[type, Converter] = {}
_TO_WIRE: dict[type, Converter] = {}


def to_wire(obj: Any) -> Any:
    """As ``to_plain``, in the wire form: compact records become positional lists."""
    enc = _TO_WIRE.get(type(obj))
    if enc is not None:
        return enc(obj)
    t = type(obj)
    if t is list or t is tuple:
        return [to_wire(x) for x in obj]
    if t is dict:
        return {k: to_wire(obj[k]) for k in sorted(obj)}
    if dataclasses.is_dataclass(obj) and isinstance(t, type):
        return _to_converter(t, True)(obj)
    return _to_plain_slow(obj)


def wire_encoder(cls: type) -> Converter:
    """The function ``to_wire`` turns an instance of the dataclass ``cls`` into the wire form
    with (generated once), for a caller that encodes many of one class: one call fewer each.
    ``TypeError`` if ``cls`` is not a dataclass."""
    if not (dataclasses.is_dataclass(cls) and isinstance(cls, type)):
        raise TypeError(f"not a dataclass: {cls!r}")
    return _to_converter(cls, True)


def to_plain(obj: Any) -> Any:
    """Turn a dataclass (or tuple, list, dict, scalar) into plain msgpack-able data.

    Dataclasses become dicts of field name to plain value, tuples and lists
    become lists, dicts keep their keys (sorted, so output is deterministic),
    scalars are returned unchanged.

    Raises:
        TypeError: ``obj`` holds something that has no plain form.
    """
    enc = _TO.get(type(obj))
    if enc is not None:
        return enc(obj)
    return _to_plain_slow(obj)


def _to_plain_slow(obj: Any) -> Any:
    t = type(obj)
    if t in _SCALARS or t is bytes:
        return obj
    if t is list or t is tuple:
        return [to_plain(x) for x in obj]
    if t is dict:
        return {k: to_plain(obj[k]) for k in sorted(obj)}
    if dataclasses.is_dataclass(obj) and isinstance(t, type):
        return _to_converter(t, False)(obj)
    raise TypeError(f"cannot convert {t.__name__} to plain data")


def _to_converter(cls: type, wire: bool) -> Converter:
    """Return (generating and caching if needed) the encoder of a dataclass."""
    cache = _TO_WIRE if wire else _TO
    conv = cache.get(cls)
    if conv is not None:
        return conv
    return generated(cache, cls, lambda: _generate_dataclass_to(cls, wire))


def _generate_dataclass_to(cls: type, wire: bool) -> Converter:
    hints = class_hints(cls)
    ns: dict[str, Any] = {"_plain": to_wire if wire else to_plain}
    items = []
    for f in dataclasses.fields(cls):
        expr = _to_expr(hints[f.name], f"o.{f.name}", ns, 0, wire)
        items.append(expr if wire and cls in COMPACT else f"{key_of(f)!r}: {expr}")
    if wire and cls in COMPACT:
        source = "def convert(o):\n    return [" + ", ".join(items) + "]"
    else:
        source = "def convert(o):\n    return {" + ", ".join(items) + "}"
    return exec_converter(source, ns, f"<to_{'wire' if wire else 'plain'} {cls.__qualname__}>")


def _to_expr(hint: Any, var: str, ns: dict[str, Any], depth: int, wire: bool) -> str:
    """Python source turning the value in ``var`` (typed ``hint``) into plain data."""
    if hint is None or hint in TYPE_NAMES or get_origin(hint) is Literal:
        return var
    if hint is Any:
        return f"_plain({var})"
    if is_dataclass_type(hint):
        name = f"_enc{len(ns)}"
        ns[name] = _to_converter(hint, wire)
        return f"{name}({var})"
    origin = get_origin(hint)
    args = get_args(hint)
    x = f"x{depth}"
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        inner = _to_expr(args[0], x, ns, depth + 1, wire)
        if inner == x:
            return f"list({var})"
        call = inner.removesuffix(f"({x})")
        if call != inner and call.isidentifier():  # one call per item: ``map``, no frame of its own
            return f"list(map({call}, {var}))"
        return f"[{inner} for {x} in {var}]"
    if origin is tuple:
        parts = [_to_expr(a, f"{var}[{i}]", ns, depth + 1, wire) for i, a in enumerate(args)]
        if all(p == f"{var}[{i}]" for i, p in enumerate(parts)):
            return f"list({var})"
        return "[" + ", ".join(parts) + "]"
    if origin is dict:
        inner = _to_expr(args[1], f"{var}[{x}]", ns, depth + 1, wire)
        return f"{{{x}: {inner} for {x} in sorted({var})}}"
    if is_union(hint):
        members = [a for a in args if a is not NoneType]
        if len(members) == 1 and len(args) == 2:
            inner = _to_expr(members[0], var, ns, depth, wire)
            return var if inner == var else f"(None if {var} is None else {inner})"
        return f"_plain({var})"
    raise TypeError(f"unsupported type hint {hint!r}")
