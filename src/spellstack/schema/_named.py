"""The named form of wire-form data this program encoded, without building its objects
(``named_from_wire``): compact records become maps of their field names, as traces show them."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, get_args, get_origin

from ._generating import Converter, cached_converter, exec_converter, identity
from ._hints import COMPACT, TYPE_NAMES, NoneType, class_hints, is_union, key_of
from ._trusted import from_trusted
from ._writing import to_plain

__all__ = ["named_from_wire"]

_NAMED: dict[Any, Converter] = {}


def named_from_wire(cls: type, data: Any) -> Any:
    """The named form (as ``to_plain`` gives it) of wire-form data this program encoded,
    without building the objects: compact records become maps of their field names; what
    holds no compact record is returned as it is. Unvalidated, as ``from_trusted``."""
    conv = _NAMED.get(cls) or _named_converter(cls)
    return conv(data)


def _named_converter(hint: Any) -> Converter:
    """Return (compiling and caching if needed) the wire-to-named rewriter for ``hint``;
    ``identity`` where the two forms are the same."""
    return cached_converter(_NAMED, hint, _compile_named, _generate_named)


def _compile_named(hint: Any) -> Converter:
    if hint is None or hint is Any or hint in TYPE_NAMES or get_origin(hint) is Literal:
        return identity
    origin = get_origin(hint)
    args = get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _named_converter(args[0])
        return identity if item is identity else (lambda v: [item(x) for x in v])
    if origin is tuple:
        items = [_named_converter(a) for a in args]
        if all(c is identity for c in items):
            return identity
        return lambda v: [c(x) for c, x in zip(items, v, strict=True)]
    if origin is dict:
        value = _named_converter(args[1])
        return identity if value is identity else (lambda v: {k: value(x) for k, x in v.items()})
    if is_union(hint):
        convs = [_named_converter(a) for a in args if a is not NoneType]
        if all(c is identity for c in convs):
            return identity
        return lambda v: to_plain(from_trusted(hint, v))  # rare: let the objects tell
    raise TypeError(f"unsupported type hint {hint!r}")


def _generate_named(cls: type) -> Converter:
    hints = class_hints(cls)
    fields = dataclasses.fields(cls)
    convs = [_named_converter(hints[f.name]) for f in fields]
    ns: dict[str, Any] = {}
    if cls not in COMPACT:
        if all(c is identity for c in convs):
            return identity
        lines = ["def convert(d):", "    d = dict(d)"]
        for i, (f, c) in enumerate(zip(fields, convs, strict=True)):
            if c is not identity:
                ns[f"_c{i}"] = c
                lines.append(f"    d[{key_of(f)!r}] = _c{i}(d[{key_of(f)!r}])")
        lines.append("    return d")
    else:
        items = []
        for i, (f, c) in enumerate(zip(fields, convs, strict=True)):
            if c is identity:
                items.append(f"{key_of(f)!r}: d[{i}]")
            else:
                ns[f"_c{i}"] = c
                items.append(f"{key_of(f)!r}: _c{i}(d[{i}])")
        lines = ["def convert(d):", "    return {" + ", ".join(items) + "}"]
    return exec_converter("\n".join(lines), ns, f"<named_from_wire {cls.__qualname__}>")
