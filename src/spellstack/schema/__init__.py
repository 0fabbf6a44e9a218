"""The schema engine: type-hint-driven conversion between frozen dataclasses and plain data
(msgpack messages, TOML files).

``to_plain`` turns a dataclass into nested dicts, lists and scalars. ``from_plain``
rebuilds it and validates every value against the dataclass field type hints on
the way, raising ``SchemaError`` that names the path of the offending value
(``decision.actions[2].targets[0].min: expected int, got str 'x'``); each caller turns it
into its own error type (the protocol into ``InvalidMessageError``).

Both directions are compiled once per class into plain Python functions (the
dataclass parts by code generation, containers as closures), so the per-message
cost is a handful of ``type(v) is T`` checks and one constructor call per
object. The path of a bad value is assembled only when something is wrong: the
internal ``BadValue`` exception collects path segments as it propagates outwards.

Supported hints: ``int`` (``bool`` is rejected), ``str``, ``bool``, ``float``,
``None``, ``Optional``/unions of these, ``Literal[...]``, ``tuple[X, ...]``,
``tuple[X, Y]``, ``dict[K, V]``, ``Any`` (taken as it is) and nested dataclasses (recursive
ones too). Sequences must arrive as lists (or tuples); maps as dicts, with no key that is not
a field (unless the class is registered with ``other_keys_ignored``); a field with a default
may be left out. ``Annotated[X, ...]`` reads an ``X`` and then what its metadata says (only
when checking): ``Words`` (words standing for values, ``max = "any"``), ``AtLeast``, and any
callable as a check that returns the value to keep (or None) and raises ``ValueError`` naming
the problem: what a type can't say, such as a mana cost's syntax or a name in a registry.
A class's hints are read by ``class_hints``: ``typing.get_type_hints``'s, or for a class of the
compiled build (whose hints keep only their outer types) its source's.

Two forms. The *named* form (``to_plain``/``from_plain``: every dataclass a map of field
names) is the readable one, written in traces. The *wire* form (``to_wire``/``from_wire``)
is what ``encode`` sends: the same, except that the small, frequent records registered with
``compact`` (object views, options, events) travel as positional lists in field order, which
msgpack packs and unpacks several times faster than maps. ``from_wire`` validates as strictly
as ``from_plain`` and names fields in its errors all the same. ``from_trusted`` rebuilds the
wire form without checking it, for messages between the engine's own actors. ``wire_encoder``
and ``trusted_decoder`` hand out one class's converter of those two, for a caller that converts
many of one class (the codec keeps them by message kind).

One module each: the errors (``_errors``), the hints, the compact records and the open ones
(``_hints``), how
converters are generated and cached (``_generating``), the checking readers (``_validating``),
the trusted reader (``_trusted``), the wire-to-named rewriter (``_named``) and the writers
(``_writing``).
"""

from ._errors import QUOTE_LIMIT, SchemaError, describe_value, short_repr
from ._hints import class_hints, compact, other_keys_ignored, source_path
from ._named import named_from_wire
from ._trusted import from_trusted, trusted_decoder
from ._validating import from_plain, from_wire
from ._writing import to_plain, to_wire, wire_encoder

__all__ = [
    "QUOTE_LIMIT",
    "SchemaError",
    "class_hints",
    "compact",
    "describe_value",
    "from_plain",
    "from_trusted",
    "from_wire",
    "named_from_wire",
    "other_keys_ignored",
    "short_repr",
    "source_path",
    "to_plain",
    "to_wire",
    "trusted_decoder",
    "wire_encoder",
]
