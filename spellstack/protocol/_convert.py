"""Type-hint-driven conversion between frozen dataclasses and plain, msgpack-able data.

``to_plain`` turns a dataclass into nested dicts, lists and scalars. ``from_plain``
rebuilds it and validates every value against the dataclass field type hints on
the way, raising ``InvalidMessageError`` that names the path of the offending
value (``decision.actions[2].targets[0].min: expected int, got str 'x'``).

Both directions are compiled once per class into plain Python functions (the
dataclass parts by code generation, containers as closures), so the per-message
cost is a handful of ``type(v) is T`` checks and one constructor call per
object. The path of a bad value is assembled only when something is wrong: the
internal ``_Bad`` exception collects path segments as it propagates outwards.

Supported hints: ``int`` (``bool`` is rejected), ``str``, ``bool``, ``float``,
``None``, ``Optional``/unions of these, ``Literal[...]``, ``tuple[X, ...]``,
``tuple[X, Y]``, ``dict[K, V]`` and nested dataclasses (recursive ones too).
Sequences must arrive as lists (or tuples); maps as dicts.

Two forms. The *named* form (``to_plain``/``from_plain``: every dataclass a map of field
names) is the readable one, written in traces. The *wire* form (``to_wire``/``from_wire``)
is what ``encode`` sends: the same, except that the small, frequent records registered with
``compact`` (object views, options, events) travel as positional lists in field order, which
msgpack packs and unpacks several times faster than maps. ``from_wire`` validates as strictly
as ``from_plain`` and names fields in its errors all the same. ``from_trusted`` rebuilds the
wire form without checking it, for messages between the engine's own actors.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any, Literal, TypeVar, Union, cast, get_args, get_origin, get_type_hints

from spellstack.rules.base import InvalidMessageError, builder

__all__ = [
    "QUOTE_LIMIT",
    "compact",
    "describe_value",
    "from_plain",
    "from_trusted",
    "from_wire",
    "named_from_wire",
    "short_repr",
    "to_plain",
    "to_wire",
]

T = TypeVar("T")
_Conv = Callable[[Any], Any]

QUOTE_LIMIT = 60
"""Longest quotation of an offending value in an error message, in characters."""

_QUOTE_DEPTH = 4
_NoneType = type(None)
_SCALARS: tuple[type, ...] = (int, str, bool, float, _NoneType)
_ABSENT = object()


# --------------------------------------------------------------------------- errors


class _Bad(Exception):
    """A value does not fit its type; ``rpath`` collects path segments innermost first."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail
        self.rpath: list[str] = []


def short_repr(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """Quote ``value`` for an error message without ever doing unbounded work.

    Safe on hostile data: strings are sliced before ``repr``, containers are
    walked only to a small depth and until the budget is spent, huge integers
    are summarised, and foreign objects' own ``__repr__`` is never called.

    Args:
        value: Any object, usually decoded from untrusted bytes.
        limit: Maximum length of the result.

    Returns:
        A ``repr``-like string of at most ``limit`` characters.
    """
    out: list[str] = []
    _emit(value, out, limit + 1, 0)
    text = "".join(out)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _emit(value: Any, out: list[str], room: int, depth: int) -> int:
    """Append a bounded rendering of ``value`` to ``out``; return the room left."""
    if room <= 0:
        return room
    t = type(value)
    if t is str:
        text = repr(value[:room])
    elif t is bytes or t is bytearray:
        text = repr(bytes(value[:room]))
    elif t is int:
        text = repr(value) if value.bit_length() <= 128 else f"<int of {value.bit_length()} bits>"
    elif t is bool or t is float or value is None:
        text = repr(value)
    elif t is list or t is tuple or t is dict:
        opener, closer = ("{", "}") if t is dict else ("[", "]") if t is list else ("(", ")")
        if depth >= _QUOTE_DEPTH and value:
            text = opener + "..." + closer
        else:
            out.append(opener)
            room -= 1
            items = value.items() if t is dict else ((None, v) for v in value)
            for i, (key, item) in enumerate(items):
                if room <= 0:
                    return room
                if i:
                    out.append(", ")
                    room -= 2
                if t is dict:
                    room = _emit(key, out, room, depth + 1)
                    out.append(": ")
                    room -= 2
                room = _emit(item, out, room, depth + 1)
            if t is tuple and len(value) == 1:
                out.append(",")
                room -= 1
            text = closer
    elif dataclasses.is_dataclass(value):
        text = f"{t.__name__}(...)"
    else:
        text = f"<{t.__name__}>"
    out.append(text)
    return room - len(text)


def describe_value(value: Any) -> str:
    """Describe a value as ``<type> <quoted value>``, e.g. ``str 'x'`` or ``None``."""
    if value is None:
        return "None"
    return f"{type(value).__name__} {short_repr(value)}"


def _mismatch(expected: str, value: Any) -> _Bad:
    return _Bad(f"expected {expected}, got {describe_value(value)}")


def _field_mismatch(field: str, expected: str, value: Any) -> _Bad:
    bad = _mismatch(expected, value)
    bad.rpath.append("." + field)
    return bad


def _missing(field: str) -> _Bad:
    bad = _Bad("missing required field")
    bad.rpath.append("." + field)
    return bad


def _format(prefix: str, bad: _Bad) -> str:
    path = prefix + "".join(reversed(bad.rpath))
    path = path.removeprefix(".")
    return f"{path}: {bad.detail}" if path else bad.detail


# --------------------------------------------------------------------------- public API


def from_plain(cls: type[T], data: Any, path: str = "") -> T:
    """Build a ``cls`` from plain data, validating it against ``cls``'s type hints.

    Args:
        cls: A dataclass (or any supported type hint).
        data: Plain data, e.g. as unpacked by msgpack.
        path: Prefix for the paths in error messages, e.g. ``"body"``.

    Returns:
        The rebuilt instance.

    Raises:
        InvalidMessageError: The data does not fit; the message names the path
            and quotes the offending value.
        TypeError: ``cls`` uses a type hint this converter does not support.
    """
    conv = _FROM.get(cls) or _from_converter(cls, False)
    try:
        return cast(T, conv(data))
    except _Bad as bad:
        raise InvalidMessageError(_format(path, bad)) from None
    except RecursionError:
        where = f"{path}: " if path else ""
        raise InvalidMessageError(f"{where}nested too deeply") from None


def from_wire(cls: type[T], data: Any, path: str = "") -> T:
    """As ``from_plain``, for data in the wire form (compact records as positional lists)."""
    conv = _FROM_WIRE.get(cls) or _from_converter(cls, True)
    try:
        return cast(T, conv(data))
    except _Bad as bad:
        raise InvalidMessageError(_format(path, bad)) from None
    except RecursionError:
        where = f"{path}: " if path else ""
        raise InvalidMessageError(f"{where}nested too deeply") from None


def from_trusted(cls: type[T], data: Any) -> T:
    """Rebuild a ``cls`` from wire-form data without validating it: only for data that this
    program encoded itself (``to_wire``). Wrong data gives wrong objects or any exception."""
    conv = _TRUSTED.get(cls) or _trusted_converter(cls)
    return cast(T, conv(data))


def named_from_wire(cls: type, data: Any) -> Any:
    """The named form (as ``to_plain`` gives it) of wire-form data this program encoded,
    without building the objects: compact records become maps of their field names; what
    holds no compact record is returned as it is. Unvalidated, as ``from_trusted``."""
    conv = _NAMED.get(cls) or _named_converter(cls)
    return conv(data)


def compact(cls: type[T]) -> type[T]:
    """Send the dataclass ``cls`` as a positional list of its fields in the wire form.

    Register a class before anything that contains it is first converted."""
    if not _is_dataclass_type(cls):
        raise TypeError(f"not a dataclass: {cls!r}")
    _COMPACT.add(cls)
    return cls


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


# --------------------------------------------------------------------------- from_plain compilation

_FROM: dict[Any, _Conv] = {}
_FROM_WIRE: dict[Any, _Conv] = {}
_TRUSTED: dict[Any, _Conv] = {}
_NAMED: dict[Any, _Conv] = {}
_COMPACT: set[type] = set()
"""Dataclasses sent as positional lists in the wire form (``compact``)."""
_TYPE_NAMES: dict[type, str] = {
    int: "int",
    str: "str",
    bool: "bool",
    float: "float",
    _NoneType: "None",
}


def _is_dataclass_type(hint: Any) -> bool:
    return isinstance(hint, type) and dataclasses.is_dataclass(hint)


def _is_union(hint: Any) -> bool:
    return get_origin(hint) in (Union, types.UnionType)


def _expected(hint: Any, wire: bool = False) -> str:
    """A short human name for what a hint expects, for error messages."""
    if hint is None:
        hint = _NoneType
    if hint in _TYPE_NAMES:
        return _TYPE_NAMES[hint]
    if _is_dataclass_type(hint):
        if wire and hint in _COMPACT:
            return f"list ({hint.__name__})"
        return f"map ({hint.__name__})"
    origin = get_origin(hint)
    if origin is Literal:
        return "one of " + ", ".join(short_repr(a) for a in get_args(hint))
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return "list"
        return f"list of {len(args)}"
    if origin is dict:
        return "map"
    if _is_union(hint):
        return " or ".join(_expected(a, wire) for a in get_args(hint))
    return repr(hint)


def _plain_types(hint: Any, wire: bool) -> frozenset[type]:
    """The Python types of plain values that a hint can accept."""
    if hint is None:
        hint = _NoneType
    if hint in _TYPE_NAMES:
        return frozenset((hint,))
    if wire and hint in _COMPACT:
        return frozenset((list,))
    if _is_dataclass_type(hint) or get_origin(hint) is dict:
        return frozenset((dict,))
    origin = get_origin(hint)
    if origin is tuple:
        return frozenset((list, tuple))
    if origin is Literal:
        return frozenset(type(a) for a in get_args(hint))
    if _is_union(hint):
        return frozenset().union(*(_plain_types(a, wire) for a in get_args(hint)))
    raise TypeError(f"unsupported type hint {hint!r}")


def _from_converter(hint: Any, wire: bool) -> _Conv:
    """Return (compiling and caching if needed) the converter for ``hint``, of the wire form
    or of the named one."""
    cache = _FROM_WIRE if wire else _FROM
    conv = cache.get(hint)
    if conv is None:
        if _is_dataclass_type(hint):
            conv = _compile_dataclass_from(hint, wire)
        else:
            conv = _compile_from(hint, wire)
            cache[hint] = conv
    return conv


def _compile_from(hint: Any, wire: bool) -> _Conv:
    if hint is None:
        hint = _NoneType
    if hint in _TYPE_NAMES:
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
    if _is_union(hint):
        return _union_from(args, wire)
    raise TypeError(f"unsupported type hint {hint!r}")


def _scalar_from(tp: type) -> _Conv:
    name = _TYPE_NAMES[tp]

    def conv(v: Any) -> Any:
        if type(v) is tp:
            return v
        raise _mismatch(name, v)

    return conv


def _locate(item: _Conv, seq: Any) -> _Bad:
    """Find the first element of ``seq`` that ``item`` rejects; return its error, indexed."""
    for i, x in enumerate(seq):
        try:
            item(x)
        except _Bad as bad:
            bad.rpath.append(f"[{i}]")
            return bad
    return _Bad("inconsistent validation")  # unreachable for pure converters


def _var_tuple_from(item_hint: Any, wire: bool) -> _Conv:
    item = _from_converter(item_hint, wire)
    if item_hint in _TYPE_NAMES or item_hint is None:
        tp = _NoneType if item_hint is None else item_hint

        def conv_scalars(v: Any) -> Any:
            tv = type(v)
            if tv is not list and tv is not tuple:
                raise _mismatch("list", v)
            for x in v:
                if type(x) is not tp:
                    raise _locate(item, v)
            return tuple(v)

        return conv_scalars

    def conv(v: Any) -> Any:
        tv = type(v)
        if tv is not list and tv is not tuple:
            raise _mismatch("list", v)
        try:
            return tuple([item(x) for x in v])
        except _Bad:
            raise _locate(item, v) from None

    return conv


def _fixed_tuple_from(arg_hints: tuple[Any, ...], wire: bool) -> _Conv:
    n = len(arg_hints)
    expected = f"list of {n}"
    items = [_from_converter(a, wire) for a in arg_hints]

    def check_shape(v: Any) -> None:
        tv = type(v)
        if tv is not list and tv is not tuple:
            raise _mismatch(expected, v)
        if len(v) != n:
            raise _Bad(f"expected {expected}, got {type(v).__name__} of {len(v)} {short_repr(v)}")

    if n == 2 and all(a in _TYPE_NAMES for a in arg_hints):
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
        except _Bad:
            raise _locate_fixed(items, v) from None

    return conv


def _locate_fixed(items: list[_Conv], seq: Any) -> _Bad:
    for i, (c, x) in enumerate(zip(items, seq, strict=True)):
        try:
            c(x)
        except _Bad as bad:
            bad.rpath.append(f"[{i}]")
            return bad
    return _Bad("inconsistent validation")  # unreachable for pure converters


def _dict_from(key_hint: Any, value_hint: Any, wire: bool) -> _Conv:
    key = _from_converter(key_hint, wire)
    value = _from_converter(value_hint, wire)

    def conv(v: Any) -> Any:
        if type(v) is not dict:
            raise _mismatch("map", v)
        out = {}
        for k, x in v.items():
            try:
                k = key(k)
            except _Bad as bad:
                bad.detail = "key " + bad.detail
                raise
            try:
                out[k] = value(x)
            except _Bad as bad:
                bad.rpath.append(f"[{short_repr(k)}]")
                raise
        return out

    return conv


def _literal_from(values: tuple[Any, ...]) -> _Conv:
    by_type: dict[type, frozenset[Any]] = {}
    for a in values:
        by_type[type(a)] = by_type.get(type(a), frozenset()) | {a}
    expected = "one of " + ", ".join(short_repr(a) for a in values)

    def conv(v: Any) -> Any:
        allowed = by_type.get(type(v))
        if allowed is not None and v in allowed:
            return v
        raise _mismatch(expected, v)

    return conv


def _union_from(arg_hints: tuple[Any, ...], wire: bool) -> _Conv:
    expected = " or ".join(_expected(a, wire) for a in arg_hints)
    members = [a for a in arg_hints if a is not _NoneType]
    if len(members) == 1 and len(arg_hints) == 2:
        inner = _from_converter(members[0], wire)

        def conv_optional(v: Any) -> Any:
            return None if v is None else inner(v)

        return conv_optional

    by_type: dict[type, list[_Conv]] = {}
    for a in arg_hints:
        c = _from_converter(a, wire)
        for t in _plain_types(a, wire):
            by_type.setdefault(t, []).append(c)

    def conv(v: Any) -> Any:
        candidates = by_type.get(type(v))
        if not candidates:
            raise _mismatch(expected, v)
        if len(candidates) == 1:
            return candidates[0](v)
        best: _Bad | None = None
        for c in candidates:
            try:
                return c(v)
            except _Bad as bad:
                if best is None or len(bad.rpath) > len(best.rpath):
                    best = bad
        assert best is not None
        raise best

    return conv


def _generated(cache: dict[Any, _Conv], key: Any, generate: Callable[[], _Conv]) -> _Conv:
    """Generate a dataclass's converter into ``cache``. While it is being generated, recursive
    references to ``key`` go through a stub that calls the finished converter; if generating
    fails, nothing is left cached."""
    real: list[_Conv] = []

    def forward(d: Any) -> Any:
        return real[0](d)

    cache[key] = forward
    try:
        conv = generate()
    except BaseException:
        del cache[key]
        raise
    real.append(conv)
    cache[key] = conv
    return conv


def _compile_dataclass_from(cls: type, wire: bool) -> _Conv:
    """Generate the converter of one dataclass; recursive references go through a stub."""
    return _generated(_FROM_WIRE if wire else _FROM, cls,
                      lambda: _generate_dataclass_from(cls, wire))


def _generate_dataclass_from(cls: type, wire: bool) -> _Conv:
    hints = get_type_hints(cls)
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    positional = wire and cls in _COMPACT
    ns: dict[str, Any] = {
        "_Bad": _Bad,
        "_mismatch": _mismatch,
        "_field_mismatch": _field_mismatch,
        "_missing": _missing,
        "_unknown": _unknown_reporter(cls, names),
        "_ABSENT": _ABSENT,
        "_KEYS": frozenset(names),
        "_cls": cls,
    }
    if positional:
        n = len(names)
        ns["_short"] = short_repr
        lines = [
            "def convert(d):",
            "    if type(d) is not list:",
            f"        raise _mismatch({_expected(cls, True)!r}, d)",
            f"    if len(d) != {n}:",
            f"        raise _Bad(f'expected {n} fields for {cls.__name__}, got {{len(d)}}: {{_short(d)}}')",
            "    " + ", ".join(f"a{i}" for i in range(n)) + (", = d" if n == 1 else " = d"),
        ]
    else:
        lines = [
            "def convert(d):",
            "    if type(d) is not dict:",
            f"        raise _mismatch({_expected(cls)!r}, d)",
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
        if positional:
            indent = "    "
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            lines += [
                "    try:",
                f"        {var} = d[{f.name!r}]",
                "    except KeyError:",
                f"        raise _missing({f.name!r}) from None",
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
                f"    {var} = d.get({f.name!r}, _ABSENT)",
                f"    if {var} is _ABSENT:",
                f"        {var} = {fallback}",
                "    else:",
            ]
            indent = "        "
        scalar = _NoneType if hint is None else hint
        if scalar in _TYPE_NAMES:
            ns[f"_t{i}"] = scalar
            lines += [
                f"{indent}if type({var}) is not _t{i}:",
                f"{indent}    raise _field_mismatch({f.name!r}, {_TYPE_NAMES[scalar]!r}, {var})",
            ]
        else:
            ns[f"_c{i}"] = _from_converter(hint, wire)
            lines += [
                f"{indent}try:",
                f"{indent}    {var} = _c{i}({var})",
                f"{indent}except _Bad as bad:",
                f"{indent}    bad.rpath.append({'.' + f.name!r})",
                f"{indent}    raise",
            ]
    setters = _slot_setters(cls, names)
    build: Callable[..., Any] = builder(cls)
    if build is not cls:
        # What the generated __init__ builds, without its per-field frozen-dataclass path.
        ns["_build"] = build
        lines.append("    return _build(" + ", ".join(f"a{i}" for i in range(len(names))) + ")")
    elif setters is not None:
        # Same result as calling the generated __init__, which would only assign
        # each field in turn (through the slower frozen-dataclass path).
        ns["_new"] = object.__new__
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
            f"        raise _Bad({'invalid ' + cls.__name__ + ': '!r} + str(exc)) from None",
        ]
    return _exec_function("\n".join(lines), ns, f"<from_{'wire' if wire else 'plain'} {cls.__qualname__}>")


def _slot_setters(cls: type, names: list[str]) -> list[Callable[[Any, Any], None]] | None:
    """Slot setters of ``cls`` if building it without ``__init__`` is equivalent, else None.

    That holds for a slotted dataclass whose ``__init__`` is the generated one
    and which has no ``__post_init__``: the generated ``__init__`` of such a
    class does nothing but assign its fields.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.init or hasattr(cls, "__post_init__"):
        return None
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    if code is None or code.co_filename != "<string>":  # not dataclasses' generated one
        return None
    setters: list[Callable[[Any, Any], None]] = []
    for name in names:
        slot = next((k.__dict__[name] for k in cls.__mro__ if name in k.__dict__), None)
        if not isinstance(slot, types.MemberDescriptorType):
            return None
        setters.append(slot.__set__)
    return setters


def _unknown_reporter(cls: type, names: list[str]) -> Callable[[dict[Any, Any]], _Bad]:
    known = frozenset(names)

    def unknown(d: dict[Any, Any]) -> _Bad:
        extra = sorted(short_repr(k) for k in d if k not in known)
        shown = ", ".join(extra[:5]) + (f" and {len(extra) - 5} more" if len(extra) > 5 else "")
        plural = "s" if len(extra) > 1 else ""
        return _Bad(f"unknown field{plural} {shown} for {cls.__name__}")

    return unknown


def _exec_function(source: str, ns: dict[str, Any], filename: str) -> _Conv:
    code = compile(source, filename, "exec")
    exec(code, ns)
    return cast(_Conv, ns.pop("convert"))


# --------------------------------------------------------------------------- from_trusted compilation


def _identity(v: Any) -> Any:
    return v


def _cached_converter(cache: dict[Any, _Conv], hint: Any, compile_hint: Callable[[Any], _Conv],
                      generate: Callable[[Any], _Conv]) -> _Conv:
    """The converter for ``hint`` in ``cache``, made if missing: ``generate`` for a dataclass
    (behind ``_generated``'s recursion stub, so a recursive record is never taken for one
    without compact parts while it is generated), ``compile_hint`` for any other hint."""
    conv = cache.get(hint)
    if conv is not None:
        return conv
    if not _is_dataclass_type(hint):
        conv = cache[hint] = compile_hint(hint)
        return conv
    return _generated(cache, hint, lambda: generate(hint))


def _trusted_converter(hint: Any) -> _Conv:
    """Return (compiling and caching if needed) the unchecking converter for ``hint``."""
    return _cached_converter(_TRUSTED, hint, _compile_trusted, _generate_trusted)


def _compile_trusted(hint: Any) -> _Conv:
    if hint is None or hint in _TYPE_NAMES or get_origin(hint) is Literal:
        return _identity
    origin = get_origin(hint)
    args = get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _trusted_converter(args[0])
        if item is _identity:
            return tuple
        return lambda v: tuple(map(item, v))
    if origin is tuple:
        items = [_trusted_converter(a) for a in args]
        if all(c is _identity for c in items):
            return tuple
        return lambda v: tuple([c(x) for c, x in zip(items, v, strict=True)])
    if origin is dict:
        value = _trusted_converter(args[1])
        return lambda v: {k: value(x) for k, x in v.items()}
    if _is_union(hint):
        members = [a for a in args if a is not _NoneType]
        convs = [_trusted_converter(a) for a in members]
        if all(c is _identity for c in convs):
            return _identity
        if len(convs) == 1:
            inner = convs[0]
            return lambda v: None if v is None else inner(v)
        by_type: dict[type, _Conv] = {_NoneType: _identity}
        for a, c in zip(members, convs, strict=True):
            for t in _plain_types(a, True):
                if t in by_type:  # two members look alike on the wire: let the checks tell
                    return _from_converter(hint, True)
                by_type[t] = c
        return lambda v: by_type[type(v)](v)
    raise TypeError(f"unsupported type hint {hint!r}")


def _generate_trusted(cls: type) -> _Conv:
    hints = get_type_hints(cls)
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    positional = cls in _COMPACT
    ns: dict[str, Any] = {"_cls": cls}
    values = []
    for i, f in enumerate(fields):
        if positional:
            raw = f"d[{i}]"
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raw = f"d[{f.name!r}]"
        elif f.default is not dataclasses.MISSING:
            ns[f"_default{i}"] = f.default
            raw = f"d.get({f.name!r}, _default{i})"
        else:
            ns[f"_factory{i}"] = f.default_factory
            raw = f"(d[{f.name!r}] if {f.name!r} in d else _factory{i}())"
        values.append(_trusted_expr(hints[f.name], raw, ns, f"v{i}"))
    setters = _slot_setters(cls, names)
    build: Callable[..., Any] = builder(cls)
    lines = ["def convert(d):"]
    if build is not cls:
        ns["_build"] = build
        lines.append("    return _build(" + ", ".join(values) + ")")
    elif setters is not None:
        ns["_new"] = object.__new__
        lines.append("    o = _new(_cls)")
        for i, (setter, value) in enumerate(zip(setters, values, strict=True)):
            ns[f"_s{i}"] = setter
            lines.append(f"    _s{i}(o, {value})")
        lines.append("    return o")
    else:
        lines.append("    return _cls(" + ", ".join(f"{n}={v}" for n, v in zip(names, values, strict=True)) + ")")
    return _exec_function("\n".join(lines), ns, f"<from_trusted {cls.__qualname__}>")


def _trusted_expr(hint: Any, raw: str, ns: dict[str, Any], local: str) -> str:
    """Python source rebuilding, without checks, the value of type ``hint`` that the source
    ``raw`` reads (``local``: a name the expression may bind). Sequences go through ``map`` of
    their item's converter and optional values are tested in place, rather than through a
    function of their own: no Python frame per sequence, none per item of scalars."""
    conv = _trusted_converter(hint)
    if conv is _identity:
        return raw
    if conv is tuple:
        return f"tuple({raw})"
    args = get_args(hint)
    if get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis:
        name = f"_c{len(ns)}"
        ns[name] = _trusted_converter(args[0])
        return f"tuple(map({name}, {raw}))"
    members = [a for a in args if a is not _NoneType]
    if _is_union(hint) and len(members) == 1 and len(args) == 2:
        inner = _trusted_expr(members[0], local, ns, local + "_")
        return f"(None if ({local} := {raw}) is None else {inner})"
    name = f"_c{len(ns)}"
    ns[name] = conv
    return f"{name}({raw})"


# --------------------------------------------------------------------------- named_from_wire compilation


def _named_converter(hint: Any) -> _Conv:
    """Return (compiling and caching if needed) the wire-to-named rewriter for ``hint``;
    ``_identity`` where the two forms are the same."""
    return _cached_converter(_NAMED, hint, _compile_named, _generate_named)


def _compile_named(hint: Any) -> _Conv:
    if hint is None or hint in _TYPE_NAMES or get_origin(hint) is Literal:
        return _identity
    origin = get_origin(hint)
    args = get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _named_converter(args[0])
        return _identity if item is _identity else (lambda v: [item(x) for x in v])
    if origin is tuple:
        items = [_named_converter(a) for a in args]
        if all(c is _identity for c in items):
            return _identity
        return lambda v: [c(x) for c, x in zip(items, v, strict=True)]
    if origin is dict:
        value = _named_converter(args[1])
        return _identity if value is _identity else (lambda v: {k: value(x) for k, x in v.items()})
    if _is_union(hint):
        convs = [_named_converter(a) for a in args if a is not _NoneType]
        if all(c is _identity for c in convs):
            return _identity
        return lambda v: to_plain(from_trusted(hint, v))  # rare: let the objects tell
    raise TypeError(f"unsupported type hint {hint!r}")


def _generate_named(cls: type) -> _Conv:
    hints = get_type_hints(cls)
    fields = dataclasses.fields(cls)
    convs = [_named_converter(hints[f.name]) for f in fields]
    ns: dict[str, Any] = {}
    if cls not in _COMPACT:
        if all(c is _identity for c in convs):
            return _identity
        lines = ["def convert(d):", "    d = dict(d)"]
        for i, (f, c) in enumerate(zip(fields, convs, strict=True)):
            if c is not _identity:
                ns[f"_c{i}"] = c
                lines.append(f"    d[{f.name!r}] = _c{i}(d[{f.name!r}])")
        lines.append("    return d")
    else:
        items = []
        for i, (f, c) in enumerate(zip(fields, convs, strict=True)):
            if c is _identity:
                items.append(f"{f.name!r}: d[{i}]")
            else:
                ns[f"_c{i}"] = c
                items.append(f"{f.name!r}: _c{i}(d[{i}])")
        lines = ["def convert(d):", "    return {" + ", ".join(items) + "}"]
    return _exec_function("\n".join(lines), ns, f"<named_from_wire {cls.__qualname__}>")


# --------------------------------------------------------------------------- to_plain compilation

_TO: dict[type, _Conv] = {}
_TO_WIRE: dict[type, _Conv] = {}


def _to_converter(cls: type, wire: bool) -> _Conv:
    """Return (generating and caching if needed) the encoder of a dataclass."""
    cache = _TO_WIRE if wire else _TO
    conv = cache.get(cls)
    if conv is not None:
        return conv
    return _generated(cache, cls, lambda: _generate_dataclass_to(cls, wire))


def _generate_dataclass_to(cls: type, wire: bool) -> _Conv:
    hints = get_type_hints(cls)
    ns: dict[str, Any] = {"_plain": to_wire if wire else to_plain}
    items = []
    for f in dataclasses.fields(cls):
        expr = _to_expr(hints[f.name], f"o.{f.name}", ns, 0, wire)
        items.append(expr if wire and cls in _COMPACT else f"{f.name!r}: {expr}")
    if wire and cls in _COMPACT:
        source = "def convert(o):\n    return [" + ", ".join(items) + "]"
    else:
        source = "def convert(o):\n    return {" + ", ".join(items) + "}"
    return _exec_function(source, ns, f"<to_{'wire' if wire else 'plain'} {cls.__qualname__}>")


def _to_expr(hint: Any, var: str, ns: dict[str, Any], depth: int, wire: bool) -> str:
    """Python source turning the value in ``var`` (typed ``hint``) into plain data."""
    if hint is None or hint in _TYPE_NAMES or get_origin(hint) is Literal:
        return var
    if _is_dataclass_type(hint):
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
    if _is_union(hint):
        members = [a for a in args if a is not _NoneType]
        if len(members) == 1 and len(args) == 2:
            inner = _to_expr(members[0], var, ns, depth, wire)
            return var if inner == var else f"(None if {var} is None else {inner})"
        return f"_plain({var})"
    raise TypeError(f"unsupported type hint {hint!r}")
