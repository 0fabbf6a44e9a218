"""The type hints the converters support: what each expects (for error messages) and which
plain types it accepts, the parts of an ``Annotated`` hint (its words and checks), and the
records registered to travel as positional lists on the wire (``compact``)."""

from __future__ import annotations

import ast
import dataclasses
import functools
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from spellstack.rules.base import AtLeast, Parsed, Words

from ._errors import short_repr

__all__ = [
    "COMPACT",
    "OPEN",
    "TYPE_NAMES",
    "NoneType",
    "annotated_parts",
    "class_hints",
    "compact",
    "describe_hint",
    "is_annotated",
    "is_dataclass_type",
    "is_union",
    "key_of",
    "other_keys_ignored",
    "plain_types",
    "source_hints",
    "source_path",
]

T = TypeVar("T")
NoneType = type(None)
COMPACT: set[type] = set()
"""Dataclasses sent as positional lists in the wire form (``compact``)."""
OPEN: set[type] = set()
"""Dataclasses whose maps may hold keys that are not their fields, ignored (``other_keys_ignored``)."""
TYPE_NAMES: dict[type, str] = {
    int: "int",
    str: "str",
    bool: "bool",
    float: "float",
    NoneType: "None",
}


def compact(cls: type[T]) -> type[T]:
    """Send the dataclass ``cls`` as a positional list of its fields in the wire form.

    Register a class before anything that contains it is first converted."""
    if not is_dataclass_type(cls):
        raise TypeError(f"not a dataclass: {cls!r}")
    COMPACT.add(cls)
    return cls


def other_keys_ignored(cls: type[T]) -> type[T]:
    """Read maps into the dataclass ``cls`` ignoring keys that are not its fields, rather than
    refusing them (a file format that promises to ignore them).

    Register a class before anything that contains it is first converted."""
    if not is_dataclass_type(cls):
        raise TypeError(f"not a dataclass: {cls!r}")
    OPEN.add(cls)
    return cls


def key_of(field: dataclasses.Field[Any]) -> str:
    """The key of a dataclass field in the named form: its name, or the ``key`` its metadata
    gives for a name Python can't spell (``field(metadata={"key": "pass"})``)."""
    return str(field.metadata.get("key", field.name))


def class_hints(cls: type, include_extras: bool = False) -> dict[str, Any]:
    """The type hints of the dataclass ``cls``'s fields, as ``typing.get_type_hints`` gives them
    (``include_extras``: keep ``Annotated``), for a class of the compiled build too.

    A dataclass compiled by mypyc keeps only the outer type of each hint in its
    ``__annotations__`` (``tuple`` for ``tuple[str, ...]``), so its hints are read from its
    source (``source_hints``)."""
    if "__mypyc_attrs__" not in cls.__dict__:
        return get_type_hints(cls, include_extras=include_extras)
    hints: dict[str, Any] = {}
    # Base classes first, as ``get_type_hints`` does: a subclass's hint of a name wins.
    for klass in reversed(cls.__mro__):
        if klass is object:
            continue
        if "__mypyc_attrs__" in klass.__dict__:
            hints.update(source_hints(klass, include_extras))
        else:
            hints.update(get_type_hints(klass, include_extras=include_extras))
    return hints


def source_hints(cls: type, include_extras: bool = False) -> dict[str, Any]:
    """The hints written in the body of the class ``cls`` (a top-level class of its module),
    read from the module's ``.py`` file (in its package's folder, where a compiled module's
    shared library sits beside it) and evaluated in the module's namespace as
    ``typing.get_type_hints`` evaluates them.

    Raises:
        TypeError: no source, or no such class in it, naming the file looked for.
    """
    holder = type(cls.__name__, (), {"__annotations__": dict(_source_annotations(cls)),
                                      "__module__": cls.__module__})
    return get_type_hints(holder, include_extras=include_extras)


def source_path(module: str) -> Path:
    """The ``.py`` file of the loaded module called ``module``, found in its package's folder
    (for a module outside a package, beside its ``__file__``), where a compiled module's shared
    library sits beside it: a module the compiled build's library loads itself may be given a
    ``__file__`` under a folder that does not exist, and a compiled module has no source of its
    own for ``inspect``."""
    package, _, name = module.rpartition(".")
    folders = ([Path(folder) for folder in sys.modules[package].__path__] if package
               else [Path(str(sys.modules[module].__file__)).parent])
    return next((found for folder in folders if (found := folder / f"{name}.py").is_file()),
                folders[0] / f"{name}.py")


@functools.cache
def _source_annotations(cls: type) -> tuple[tuple[str, str], ...]:
    """The annotations in the body of the class ``cls`` as source text (``source_hints``)."""
    source = source_path(cls.__module__)
    try:
        tree = ast.parse(source.read_text(encoding="utf-8"), str(source))
    except OSError as exc:
        raise TypeError(f"the type hints of {cls.__qualname__} (compiled) are read from its "
                        f"source, and {source} can't be read: {exc.strerror}") from None
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls.__qualname__:
            return tuple((stmt.target.id, ast.unparse(stmt.annotation)) for stmt in node.body
                         if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name))
    raise TypeError(f"the type hints of {cls.__qualname__} (compiled) are read from its source, "
                    f"and {source} has no top-level class of that name")


def is_dataclass_type(hint: Any) -> bool:
    """Whether ``hint`` is a dataclass (the class, not an instance)."""
    return isinstance(hint, type) and dataclasses.is_dataclass(hint)


def is_union(hint: Any) -> bool:
    """Whether ``hint`` is a union (``X | Y`` or ``Optional``/``Union``)."""
    return get_origin(hint) in (Union, types.UnionType)


def is_annotated(hint: Any) -> bool:
    """Whether ``hint`` is ``Annotated[T, ...]``."""
    return get_origin(hint) is Annotated


def annotated_parts(hint: Any) -> tuple[Any, dict[str, Any], list[Callable[[Any], Any]]]:
    """What an ``Annotated[T, ...]`` hint reads: the type of what the file holds (``T``, or the
    source of a ``Parsed``), its words (``Words``: word -> the value it stands for) and its
    checks, in order (a ``Parsed`` parse, every other callable).

    Raises:
        TypeError: metadata that is neither ``Words``, ``Parsed`` nor callable.
    """
    base, *metadata = get_args(hint)
    words: dict[str, Any] = {}
    checks: list[Callable[[Any], Any]] = []
    for mark in metadata:
        if isinstance(mark, Words):
            words.update(mark.pairs)
        elif isinstance(mark, Parsed):
            base = mark.source
            checks.append(mark.parse)
        elif callable(mark):
            checks.append(mark)
        else:
            raise TypeError(f"unsupported Annotated metadata {mark!r} in {hint!r}")
    return base, words, checks


def describe_hint(hint: Any, wire: bool = False) -> str:
    """A short human name for what a hint expects, for error messages."""
    if hint is None:
        hint = NoneType
    if hint is Any:
        return "any value"
    if is_annotated(hint):
        base, words, checks = annotated_parts(hint)
        text = describe_hint(base, wire)
        bounds = [c.least for c in checks if isinstance(c, AtLeast)]
        if bounds:
            text += f" of {max(bounds)} or more"
        return " or ".join([text, *(short_repr(w) for w in words)])
    if hint in TYPE_NAMES:
        return TYPE_NAMES[hint]
    if is_dataclass_type(hint):
        if wire and hint in COMPACT:
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
    if is_union(hint):
        return " or ".join(describe_hint(a, wire) for a in get_args(hint))
    return repr(hint)


def plain_types(hint: Any, wire: bool) -> frozenset[type]:
    """The Python types of plain values that a hint can accept."""
    if hint is None:
        hint = NoneType
    if is_annotated(hint):
        base, words, _ = annotated_parts(hint)
        return plain_types(base, wire) | (frozenset((str,)) if words else frozenset())
    if hint in TYPE_NAMES:
        return frozenset((hint,))
    if wire and hint in COMPACT:
        return frozenset((list,))
    if is_dataclass_type(hint) or get_origin(hint) is dict:
        return frozenset((dict,))
    origin = get_origin(hint)
    if origin is tuple:
        return frozenset((list, tuple))
    if origin is Literal:
        return frozenset(type(a) for a in get_args(hint))
    if is_union(hint):
        return frozenset().union(*(plain_types(a, wire) for a in get_args(hint)))
    raise TypeError(f"unsupported type hint {hint!r}")
