"""Rebuilding dataclasses from untrusted plain data, checking every value against the type hints
on the way (``from_plain`` for the named form, ``from_wire`` for the wire form): a few
``type(v) is T`` tests and one constructor call per object, the path of a bad value put
together only when one is found."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Literal, TypeVar, cast, get_args, get_origin

from spellstack.rules.base import builder

from ._errors import BadValue, SchemaError, field_mismatch, mismatch, missing_field, schema_error, short_repr
from ._generating import Converter, exec_converter, generated, identity, slot_setters
from ._hints import (
    COMPACT,
    OPEN,
    TYPE_NAMES,
    NoneType,
    annotated_parts,
    class_hints,
    describe_hint,
    is_annotated,
    is_dataclass_type,
    is_union,
    key_of,
    plain_types,
)

__all__ = ["from_converter", "from_plain", "from_wire"]

T = TypeVar("T")
_ABSENT = object()
_FROM: dict[Any, Converter] = {}
_FROM_WIRE: dict[Any, Converter] = {}


def from_plain(cls: type[T], data: Any, path: str = "") -> T:
    """Build a ``cls`` from plain data, validating it against ``cls``'s type hints.

    Args:
        cls: A dataclass (or any supported type hint).
        data: Plain data, e.g. as unpacked by msgpack.
        path: Prefix for the paths in error messages, e.g. ``"body"``.

    Returns:
        The rebuilt instance.

    Raises:
        SchemaError: The data does not fit; the message names the path
            and quotes the offending value.
        TypeError: ``cls`` uses a type hint this converter does not support.
    """
    conv = _FROM.get(cls) or from_converter(cls, False)
    try:
        return cast(T, conv(data))
    except BadValue as bad:
        raise schema_error(path, bad) from None
    except RecursionError:
        raise SchemaError(path, "nested too deeply") from None


def from_wire(cls: type[T], data: Any, path: str = "") -> T:
    """As ``from_plain``, for data in the wire form (compact records as positional lists)."""
    conv = _FROM_WIRE.get(cls) or from_converter(cls, True)
    try:
        return cast(T, conv(data))
    except BadValue as bad:
        raise schema_error(path, bad) from None
    except RecursionError:
        raise SchemaError(path, "nested too deeply") from None


def from_converter(hint: Any, wire: bool) -> Converter:
    """Return (compiling and caching if needed) the converter for ``hint``, of the wire form
    or of the named one."""
    cache = _FROM_WIRE if wire else _FROM
    conv = cache.get(hint)
    if conv is None:
        if is_dataclass_type(hint):
            conv = _compile_dataclass_from(hint, wire)
        else:
            conv = _compile_from(hint, wire)
            cache[hint] = conv
    return conv


def _compile_from(hint: Any, wire: bool) -> Converter:
    if hint is None:
        hint = NoneType
    if hint is Any:
        return identity
    if is_annotated(hint):
        return _annotated_from(hint, wire)
    if hint in TYPE_NAMES:
        return _scalar_from(hint)
    origin = get_origin(hint)
    args = get_args(hint)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _var_tuple_from(args[0], wire)
        return _fixed_tuple_from(args, wire)
    if origin is dict:
        return _dict_from(args[0], args[1], wire)
    if origin is Literal:
        return _literal_from(args)
    if is_union(hint):
        return _union_from(args, wire)
    raise TypeError(f"unsupported type hint {hint!r}")


def _scalar_from(tp: type) -> Converter:
    name = TYPE_NAMES[tp]

    def conv(v: Any) -> Any:
        if type(v) is tp:
            return v
        raise mismatch(name, v)

    return conv


def _annotated_from(hint: Any, wire: bool) -> Converter:
    """``Annotated[T, ...]``: a word of its ``Words`` stands for its value; anything else is read
    as a ``T``, then passed through its checks in order."""
    base, words, checks = annotated_parts(hint)
    inner = from_converter(base, wire)
    expected = describe_hint(hint, wire)

    def conv(v: Any) -> Any:
        if words and type(v) is str and v in words:
            return words[v]
        try:
            v = inner(v)
        except BadValue as bad:
            if words and not bad.rpath:
                raise mismatch(expected, v) from None
            raise
        for check in checks:
            try:
                kept = check(v)
            except SchemaError as err:  # a check that reads a part of the value itself
                raise _nested(err) from None
            except ValueError as err:
                raise BadValue(str(err)) from None
            if kept is not None:
                v = kept
        return v

    return conv


def _nested(err: SchemaError) -> BadValue:
    """A ``SchemaError`` raised within a check, as a ``BadValue`` at the check's value."""
    bad = BadValue(err.detail)
    if err.path:
        bad.rpath.append(err.path if err.path.startswith("[") else "." + err.path)
    return bad


def _locate(item: Converter, seq: Any) -> BadValue:
    """Find the first element of ``seq`` that ``item`` rejects; return its error, indexed."""
    for i, x in enumerate(seq):
        try:
            item(x)
        except BadValue as bad:
            bad.rpath.append(f"[{i}]")
            return bad
    return BadValue("inconsistent validation")  # unreachable for pure converters


def _var_tuple_from(item_hint: Any, wire: bool) -> Converter:
    item = from_converter(item_hint, wire)
    if item_hint in TYPE_NAMES or item_hint is None:
        tp = NoneType if item_hint is None else item_hint

        def conv_scalars(v: Any) -> Any:
            tv = type(v)
            if tv is not list and tv is not tuple:
                raise mismatch("list", v)
            for x in v:
                if type(x) is not tp:
                    raise _locate(item, v)
            return tuple(v)

        return conv_scalars

    def conv(v: Any) -> Any:
        tv = type(v)
        if tv is not list and tv is not tuple:
            raise mismatch("list", v)
        try:
            return tuple([item(x) for x in v])
        except BadValue:
            raise _locate(item, v) from None

    return conv


def _fixed_tuple_from(arg_hints: tuple[Any, ...], wire: bool) -> Converter:
    n = len(arg_hints)
    expected = f"list of {n}"
    items = [from_converter(a, wire) for a in arg_hints]

    def check_shape(v: Any) -> None:
        tv = type(v)
        if tv is not list and tv is not tuple:
            raise mismatch(expected, v)
        if len(v) != n:
            raise BadValue(f"expected {expected}, got {type(v).__name__} of {len(v)} {short_repr(v)}")

    if n == 2 and all(a in TYPE_NAMES for a in arg_hints):
        t0, t1 = arg_hints

        def conv_pair(v: Any) -> Any:
            check_shape(v)
            a, b = v
            if type(a) is t0 and type(b) is t1:
                return (a, b)
            raise _locate_fixed(items, v)

        return conv_pair

    def conv(v: Any) -> Any:
        check_shape(v)
        try:
            return tuple([c(x) for c, x in zip(items, v, strict=True)])
        except BadValue:
            raise _locate_fixed(items, v) from None

    return conv


def _locate_fixed(items: list[Converter], seq: Any) -> BadValue:
    for i, (c, x) in enumerate(zip(items, seq, strict=True)):
        try:
            c(x)
        except BadValue as bad:
            bad.rpath.append(f"[{i}]")
            return bad
    return BadValue("inconsistent validation")  # unreachable for pure converters


def _dict_from(key_hint: Any, value_hint: Any, wire: bool) -> Converter:
    key = from_converter(key_hint, wire)
    value = from_converter(value_hint, wire)

    def conv(v: Any) -> Any:
        if type(v) is not dict:
            raise mismatch("map", v)
        out = {}
        for k, x in v.items():
            try:
                k = key(k)
            except BadValue as bad:
                bad.detail = "key " + bad.detail
                raise
            try:
                out[k] = value(x)
            except BadValue as bad:
                bad.rpath.append(f"[{short_repr(k)}]")
                raise
        return out

    return conv


def _literal_from(values: tuple[Any, ...]) -> Converter:
    by_type: dict[type, frozenset[Any]] = {}
    for a in values:
        by_type[type(a)] = by_type.get(type(a), frozenset()) | {a}
    expected = "one of " + ", ".join(short_repr(a) for a in values)

    def conv(v: Any) -> Any:
        allowed = by_type.get(type(v))
        if allowed is not None and v in allowed:
            return v
        raise mismatch(expected, v)

    return conv


def _union_from(arg_hints: tuple[Any, ...], wire: bool) -> Converter:
    expected = " or ".join(describe_hint(a, wire) for a in arg_hints)
    members = [a for a in arg_hints if a is not NoneType]
    if len(members) == 1 and len(arg_hints) == 2:
        inner = from_converter(members[0], wire)

        def conv_optional(v: Any) -> Any:
            return None if v is None else inner(v)

        return conv_optional

    by_type: dict[type, list[Converter]] = {}
    for a in arg_hints:
        c = from_converter(a, wire)
        for t in plain_types(a, wire):
            by_type.setdefault(t, []).append(c)

    def conv(v: Any) -> Any:
        candidates = by_type.get(type(v))
        if not candidates:
            raise mismatch(expected, v)
        if len(candidates) == 1:
            return candidates[0](v)
        best: BadValue | None = None
        for c in candidates:
            try:
                return c(v)
            except BadValue as bad:
                if best is None or len(bad.rpath) > len(best.rpath):
                    best = bad
        assert best is not None
        raise best

    return conv


def _compile_dataclass_from(cls: type, wire: bool) -> Converter:
    """Generate the converter of one dataclass; recursive references go through a stub."""
    return generated(_FROM_WIRE if wire else _FROM, cls,
                     lambda: _generate_dataclass_from(cls, wire))


def _generate_dataclass_from(cls: type, wire: bool) -> Converter:
    hints = class_hints(cls, include_extras=True)
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    keys = [key_of(f) for f in fields]
    positional = wire and cls in COMPACT
    ns: dict[str, Any] = {
        "BadValue": BadValue,
        "mismatch": mismatch,
        "field_mismatch": field_mismatch,
        "missing_field": missing_field,
        "_unknown": _unknown_reporter(cls, keys),
        "_ABSENT": _ABSENT,
        "_KEYS": frozenset(keys),
        "_cls": cls,
    }
    if positional:
        n = len(names)
        ns["_short"] = short_repr
        lines = [
            "def convert(d):",
            "    if type(d) is not list:",
            f"        raise mismatch({describe_hint(cls, True)!r}, d)",
            f"    if len(d) != {n}:",
            f"        raise BadValue(f'expected {n} fields for {cls.__name__}, got {{len(d)}}: {{_short(d)}}')",
            "    " + ", ".join(f"a{i}" for i in range(n)) + (", = d" if n == 1 else " = d"),
        ]
    else:
        lines = [
            "def convert(d):",
            "    if type(d) is not dict:",
            f"        raise mismatch({describe_hint(cls)!r}, d)",
        ]
        if cls not in OPEN:
            lines += [
                "    if not d.keys() <= _KEYS:",
                "        raise _unknown(d)",
            ]
    kw_only = False
    for i, f in enumerate(fields):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: init=False fields are not supported")
        kw_only = kw_only or f.kw_only is True
        var = f"a{i}"
        hint = hints[f.name]
        key = keys[i]
        if positional:
            indent = "    "
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            lines += [
                "    try:",
                f"        {var} = d[{key!r}]",
                "    except KeyError:",
                f"        raise missing_field({key!r}) from None",
            ]
            indent = "    "
        else:
            if f.default is not dataclasses.MISSING:
                ns[f"_default{i}"] = f.default
                fallback = f"_default{i}"
            else:
                ns[f"_factory{i}"] = f.default_factory
                fallback = f"_factory{i}()"
            lines += [
                f"    {var} = d.get({key!r}, _ABSENT)",
                f"    if {var} is _ABSENT:",
                f"        {var} = {fallback}",
                "    else:",
            ]
            indent = "        "
        scalar = NoneType if hint is None else hint
        if scalar in TYPE_NAMES:
            ns[f"_t{i}"] = scalar
            lines += [
                f"{indent}if type({var}) is not _t{i}:",
                f"{indent}    raise field_mismatch({key!r}, {TYPE_NAMES[scalar]!r}, {var})",
            ]
        else:
            ns[f"_c{i}"] = from_converter(hint, wire)
            lines += [
                f"{indent}try:",
                f"{indent}    {var} = _c{i}({var})",
                f"{indent}except BadValue as bad:",
                f"{indent}    bad.rpath.append({'.' + key!r})",
                f"{indent}    raise",
            ]
    setters = slot_setters(cls, names)
    build: Callable[..., Any] = builder(cls)
    if build is not cls:
        # What the generated __init__ builds, without its per-field frozen-dataclass path.
        ns["_build"] = build
        lines.append("    return _build(" + ", ".join(f"a{i}" for i in range(len(names))) + ")")
    elif setters is not None:
        # Same result as calling the generated __init__, which would only assign
        # each field in turn (through the slower frozen-dataclass path).
        ns["_new"] = cls.__new__  # object.__new__, or a compiled class's own
        lines.append("    o = _new(_cls)")
        for i, setter in enumerate(setters):
            ns[f"_s{i}"] = setter
            lines.append(f"    _s{i}(o, a{i})")
        lines.append("    return o")
    else:
        if kw_only:
            call_args = ", ".join(f"{name}=a{i}" for i, name in enumerate(names))
        else:
            call_args = ", ".join(f"a{i}" for i in range(len(names)))
        lines += [
            "    try:",
            f"        return _cls({call_args})",
            "    except (TypeError, ValueError) as exc:",
            f"        raise BadValue({'invalid ' + cls.__name__ + ': '!r} + str(exc)) from None",
        ]
    return exec_converter("\n".join(lines), ns, f"<from_{'wire' if wire else 'plain'} {cls.__qualname__}>")


def _unknown_reporter(cls: type, names: list[str]) -> Callable[[dict[Any, Any]], BadValue]:
    known = frozenset(names)

    def unknown(d: dict[Any, Any]) -> BadValue:
        extra = sorted(short_repr(k) for k in d if k not in known)
        shown = ", ".join(extra[:5]) + (f" and {len(extra) - 5} more" if len(extra) > 5 else "")
        plural = "s" if len(extra) > 1 else ""
        return BadValue(f"unknown field{plural} {shown} for {cls.__name__}")

    return unknown
