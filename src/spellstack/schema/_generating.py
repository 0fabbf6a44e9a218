"""How the converters are made and kept: one per type hint in a cache, a dataclass's generated as
Python source (recursive records through a stub), and built without its ``__init__`` where that
builds the same."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, cast

from ._hints import is_dataclass_type

__all__ = [
    "Converter",
    "cached_converter",
    "exec_converter",
    "generated",
    "identity",
    "slot_setters",
]

Converter = Callable[[Any], Any]
"""A compiled conversion of one type hint's values, either way."""


def identity(v: Any) -> Any:
    """The converter of a hint whose two forms are the same value (told apart by ``is``)."""
    return v


def generated(cache: dict[Any, Converter], key: Any, generate: Callable[[], Converter]) -> Converter:
    """Generate a dataclass's converter into ``cache``. While it is being generated, recursive
    references to ``key`` go through a stub that calls the finished converter; if generating
    fails, nothing is left cached."""
    real: list[Converter] = []

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


def cached_converter(cache: dict[Any, Converter], hint: Any, compile_hint: Callable[[Any], Converter],
                     generate: Callable[[Any], Converter]) -> Converter:
    """The converter for ``hint`` in ``cache``, made if missing: ``generate`` for a dataclass
    (behind ``generated``'s recursion stub, so a recursive record is never taken for one
    without compact parts while it is generated), ``compile_hint`` for any other hint."""
    conv = cache.get(hint)
    if conv is not None:
        return conv
    if not is_dataclass_type(hint):
        conv = cache[hint] = compile_hint(hint)
        return conv
    return generated(cache, hint, lambda: generate(hint))


def slot_setters(cls: type, names: list[str]) -> list[Callable[[Any, Any], None]] | None:
    """Slot setters of ``cls`` if building it without ``__init__`` is equivalent, else None.

    That holds for a slotted dataclass (or one of the compiled build) whose ``__init__`` is the
    generated one and which has no ``__post_init__``: the generated ``__init__`` of such a
    class does nothing but assign its fields.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.init or hasattr(cls, "__post_init__"):
        return None
    init = cls.__dict__.get("__init__")
    code = getattr(init, "__code__", None)
    if code is None or code.co_filename != "<string>":  # not dataclasses' generated one
        return None
    # A class of the compiled build keeps its fields in C: each is a getset descriptor whose
    # setter assigns natively, as the generated ``__init__`` would.
    kinds = ((types.MemberDescriptorType, types.GetSetDescriptorType)
             if "__mypyc_attrs__" in cls.__dict__ else types.MemberDescriptorType)
    setters: list[Callable[[Any, Any], None]] = []
    for name in names:
        slot = next((k.__dict__[name] for k in cls.__mro__ if name in k.__dict__), None)
        if not isinstance(slot, kinds):
            return None
        setters.append(slot.__set__)
    return setters


def exec_converter(source: str, ns: dict[str, Any], filename: str) -> Converter:
    """The function ``convert`` that ``source`` defines, run in ``ns`` (``filename``: its name in
    tracebacks)."""
    code = compile(source, filename, "exec")
    exec(code, ns)
    return cast(Converter, ns.pop("convert"))
