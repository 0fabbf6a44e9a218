"""The card format's reference page (``docs/card-format.md``), made from the code that reads card
files: the card keys (``CARD_KEYS``), the card format's tables (their fields, types and
docstrings), the effect verb and condition classes with their arguments, and the closed
registries of words a card file may use. ``spellstack cards --reference`` prints it.

Everything is listed in registry or field order, or sorted where a registry is a set, so the
page is the same on every machine.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import sys
import types
from collections.abc import Callable, Iterator
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from ..rules import (
    CARD_KEYS,
    CONDITIONS,
    COST_OPTIONS,
    EFFECT_VERBS,
    TARGET_KINDS,
    TRIGGER_EVENTS,
    TargetSpec,
)
from ..rules.base import Parsed, Words
from ..rules.definitions import ArgKind, ValueType, arguments_of
from ..rules.layers import LAYER_VERBS
from ..rules.registry import COUNTER_KINDS
from ..schema import class_hints, source_path
from . import _format
from ._format import KEYWORDS, CardTable, Known, MultiFaceTable

__all__ = ["EXAMPLE_CARD", "card_format_reference", "toml_value", "value_type"]

EXAMPLE_CARD = '''\
[[card]]
name = "Elvish Visionary"
cost = "{1}{G}"
type = "Creature — Elf Shaman"
pt = "1/1"
text = "When Elvish Visionary enters, draw a card."

  [[card.triggered]]
  text = "When Elvish Visionary enters, draw a card."
  event = "enters"
  effects = [{ verb = "draw", amount = 1, who = "you" }]
'''
"""The page's example: a card of the pool, as its data file writes it."""

_REGISTRY_LINKS = {"target kind": "#target-kinds", "trigger event": "#trigger-events",
                   "cost option": "#cost-options"}
"""Closed registries with a section of their own, by the words ``Known`` names them with."""


# ----------------------------------------------------------------------------- reading the code


def _attribute_docs(source: str, body: Callable[[ast.Module], list[ast.stmt]]) -> dict[str, str]:
    """Each name assigned in a block of ``source`` followed by a string: that string."""
    docs: dict[str, str] = {}
    statements = body(ast.parse(inspect.cleandoc(source) if source[:1].isspace() else source))
    for stmt, after in itertools.pairwise(statements):
        target = (stmt.target if isinstance(stmt, ast.AnnAssign)
                  else stmt.targets[0] if isinstance(stmt, ast.Assign) else None)
        if (isinstance(target, ast.Name) and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)):
            docs[target.id] = after.value.value
    return docs


def _module_source(module: types.ModuleType) -> str:
    """A module's source, read from its ``.py`` file when the module runs compiled (the
    optional compiled build: an extension module beside its source has none of its own)."""
    try:
        return inspect.getsource(module)
    except (OSError, TypeError):
        return source_path(module.__name__).read_text("utf-8")


def _class_source(klass: type) -> str:
    """A class's source, found in its module's source when the class runs compiled."""
    try:
        return inspect.getsource(klass)
    except (OSError, TypeError):
        source = _module_source(sys.modules[klass.__module__])
        for node in ast.parse(source).body:
            if isinstance(node, ast.ClassDef) and node.name == klass.__name__:
                return ast.get_source_segment(source, node) or ""
        raise


def _class_doc(cls: type) -> str | None:
    """A class's docstring, read from its source when the class runs compiled (a compiled class's
    is empty)."""
    if cls.__doc__:
        return cls.__doc__
    tree = ast.parse(_class_source(cls))
    node = tree.body[0] if tree.body else None
    return ast.get_docstring(node, clean=False) if isinstance(node, ast.ClassDef) else None


def _function_doc(func: Callable[..., Any]) -> str | None:
    """A function's docstring, read from its module's source when the function runs compiled
    (a compiled function keeps none)."""
    if func.__doc__ is not None:
        return func.__doc__
    source = _module_source(sys.modules[func.__module__])
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == func.__name__:
            return ast.get_docstring(node, clean=False)
    return None


def field_docs(cls: type) -> dict[str, str]:
    """The docstring under each field of the dataclass ``cls`` (or of a class it derives from)."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass is object or not dataclasses.is_dataclass(klass):
            continue
        docs.update(_attribute_docs(_class_source(klass), lambda tree: [
            s for node in tree.body if isinstance(node, ast.ClassDef) for s in node.body]))
    return docs


def _kind_docs() -> dict[str, str]:
    """The docstring of each argument kind, by its ``ArgKind`` name: that of the type it is
    defined as (``Amount``: "How many: a number, or X.")."""
    docs: dict[str, str] = {}
    classes = [*EFFECT_VERBS.values(), *CONDITIONS.values()]
    # The argument kinds are written in the verbs' packages beside the verbs (their
    # vocabulary modules), so every loaded module of those packages is read.
    packages = {cls.__module__.rpartition(".")[0] for cls in classes}
    modules = [inspect.getmodule(ArgKind),
               *(sys.modules[name] for name in sorted(sys.modules)
                 if name.rpartition(".")[0] in packages)]
    for module in modules:
        assert module is not None
        written = _attribute_docs(_module_source(module), lambda tree: tree.body)
        for name, doc in written.items():
            kind = _arg_kind(getattr(module, name, None))
            if kind is not None:
                docs.setdefault(kind.name, doc)
    return docs


def _arg_kind(hint: Any) -> ArgKind | None:
    if get_origin(hint) is not Annotated:
        return None
    return next((m for m in hint.__metadata__ if isinstance(m, ArgKind)), None)


# ----------------------------------------------------------------------------- words for types


def _text(doc: str | None) -> str:
    """A docstring as one line of Markdown."""
    return " ".join((doc or "").split()).replace("``", "`").replace("|", "\\|")


def toml_value(value: Any) -> str:
    """A value as a card file writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    assert isinstance(value, dict), value
    return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"


def _code(value: Any) -> str:
    return f"`{toml_value(value)}`".replace("|", "\\|")


def _without_none(hint: Any) -> Any:
    if get_origin(hint) in (Union, types.UnionType):
        rest = [a for a in get_args(hint) if a is not type(None)]
        return rest[0] if len(rest) == 1 else Union[tuple(rest)]  # noqa: UP007
    return hint


def _read_as(hint: Any) -> tuple[Any, list[Any]]:
    """What a card file holds for ``hint`` (a ``Parsed`` type's source), and its metadata."""
    if get_origin(hint) is not Annotated:
        return hint, []
    base, *marks = get_args(hint)
    for mark in marks:
        if isinstance(mark, Parsed):
            base = mark.source
    return base, marks


def value_type(hint: Any) -> ValueType:
    """What a card key of type ``hint`` holds, in TOML words (``CardKey.type``)."""
    base, _ = _read_as(_without_none(hint))
    if get_origin(base) is tuple:
        item = value_type(get_args(base)[0])
        if item in ("string", "table"):
            return "list of strings" if item == "string" else "list of tables"
        raise TypeError(f"no card key holds a list of {item}")
    if base is bool:
        return "boolean"
    if base is int:
        return "integer"
    if base is str or (get_origin(base) is Literal and all(isinstance(a, str) for a in get_args(base))):
        return "string"
    if dataclasses.is_dataclass(base) or get_origin(base) is dict:
        return "table"
    raise TypeError(f"no TOML word for {hint!r}")


def _words(names: Any) -> str:
    return ", ".join(_code(n) for n in sorted(names))


def _a(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


_PLURALS = {str: "strings", int: "integers", bool: "booleans"}


def _describe(hint: Any, tables: dict[type, str]) -> str:
    """What a field of type ``hint`` takes, in words, linking to the sections of the page."""
    hint = _without_none(hint)
    if hint == _format.Effects:
        return "list of [effects](#effects)"
    if hint == _format.CounterKind:
        return "string: a [counter kind](#counter-kinds)"
    base, marks = _read_as(hint)
    if get_origin(base) in (Union, types.UnionType):
        return " or ".join(_describe(a, tables) for a in get_args(base))
    if get_origin(base) is tuple:
        item = get_args(base)[0]
        if item in _PLURALS:
            return f"list of {_PLURALS[item]}"
        inner = list(_dataclasses_in(item))
        if inner and inner[0] in tables:
            return f"list of [tables](#{tables[inner[0]]})"
        return f"list, each {_describe(item, tables)}"
    if get_origin(base) is Literal:
        words = get_args(base)
        return _code(words[0]) if len(words) == 1 else "one of " + ", ".join(_code(a) for a in words)
    if dataclasses.is_dataclass(base):
        assert isinstance(base, type)
        return f"[table](#{tables[base]})" if base in tables else "table"
    if get_origin(base) is dict:
        key, value = get_args(base)
        if value is Any:
            return "table"
        return f"table of {_describe(key, tables)} to {_describe(value, tables)}"
    text = {str: "string", int: "integer", bool: "boolean"}[base]
    for mark in marks:
        if isinstance(mark, Known):
            link = _REGISTRY_LINKS.get(mark.what)
            text += (f": a [{mark.what}]({link})" if link else
                     f": {_a(mark.what)}, one of {_words(n for n in mark.names if n)}")
        elif isinstance(mark, Words):
            text += "".join(f" or {_code(word)}" for word, _ in mark.pairs)
    return text


def _field_type(cls: type, name: str, hint: Any, tables: dict[type, str]) -> str:
    """``_describe`` of a field, but for fields whose words are checked by their table as a
    whole (a target requirement's kind) or are read by another reader (a condition)."""
    if name in ("condition", "flash_if"):
        return "[condition](#conditions) table"
    if cls is TargetSpec and name == "kind":
        return "string: a [target kind](#target-kinds)"
    return _describe(hint, tables)


def _tables() -> dict[type, str]:
    """Each table of the card format, with the anchor of its section: the key it is first met
    under, walking a card's keys in order (a target requirement is ``targets``)."""
    found: dict[type, str] = {}

    def walk(cls: type) -> None:
        hints = class_hints(cls, include_extras=True)
        for f in dataclasses.fields(cls):
            for inner in _dataclasses_in(hints[f.name]):
                if inner not in found:
                    found[inner] = f.name
                    walk(inner)

    walk(CardTable)
    return found


def _dataclasses_in(hint: Any) -> Iterator[type]:
    base, _ = _read_as(hint)
    if dataclasses.is_dataclass(base) and isinstance(base, type):
        yield base
    for arg in get_args(base):
        yield from _dataclasses_in(arg)


# ----------------------------------------------------------------------------- the page

_INTRO = """\
# The card format

Every card spellstack knows is a table in a TOML file: what is printed on it (its name, mana
cost, type line and Oracle text) and its abilities written as data (targets, trigger events and
effect verbs) that the rules engine carries out. The built-in cards are in the data files of
`src/spellstack/cards/data/`, and a new card is a new table in one of them; `spellstack cards`
lists them with their Oracle text.

A card file is checked as it is loaded. Every key, verb and word must be one this page lists,
and a mistake stops the load with one line naming the file, the card and the field at fault,
never a surprise in the middle of a game:

```text
my_cards.toml: card 'Grizzly Bears': pt: a creature needs power/toughness
```

This page is made from the code that reads card files: `spellstack cards --reference` prints
it, and `spellstack cards --reference > docs/card-format.md` brings this file up to date (a test
fails when it is not).

## An example

A 1/1 creature with a triggered ability, as the pool's data file writes it:

```toml
{example}```

- `[[card]]` starts a card (`[[token]]` starts a token). The keys after it, up to the next
  table, are its [card keys](#card-keys): `name`, `cost`, `type`, `pt` and `text` are as printed,
  `text` word for word.
- `[[card.triggered]]` adds a [triggered ability](#triggered) to it. `event` is its
  [trigger event](#trigger-events), `text` quotes its sentence of the Oracle text, and `effects`
  is what it does: a list of [effects](#effects), each an effect verb with its arguments.

To check a file of your own, load it in Python; it raises `CardDefinitionError` with a line
like the one above, or returns the cards by name:

```python
from spellstack.cards import load_card_file

cards = load_card_file("my_cards.toml")
```

## Contents

- [Card keys](#card-keys)
- [Tables](#tables): the tables a card key holds
- [Effects](#effects): every effect verb, with its arguments
- [Argument kinds](#argument-kinds)
- [Conditions](#conditions)
- [Target kinds](#target-kinds)
- [Trigger events](#trigger-events)
- [Counter kinds](#counter-kinds)
- [Layer verbs](#layer-verbs)
- [Cost options](#cost-options)
- [Keywords](#keywords)
"""


def _card_keys(tables: dict[type, str]) -> list[str]:
    hints = {**class_hints(MultiFaceTable, include_extras=True),
             **class_hints(CardTable, include_extras=True)}
    lines = ["## Card keys", "",
             "The keys of a `[[card]]` or `[[token]]` table (`CARD_KEYS`). A card of another "
             "layout (split, Adventure, modal double-faced) has a `name`, a `layout` and its "
             "two faces under `face`, each a card's table with the keys above `layout`. The keys after "
             "`face` are the mechanics' own (each names its mechanic): each stands for card data "
             "of the format's keys, and the card keeps its value for its mechanic's rules.", "",
             "| key | type | rule | what it says |", "| --- | --- | --- | --- |"]
    for name, key in CARD_KEYS.items():
        inner = [t for t in _dataclasses_in(hints[name]) if t in tables] if name in hints else []
        kind = (f"[{key.type}](#{tables[inner[0]]})" if inner
                else f"[{key.type}](#conditions)" if name == "flash_if" else key.type)
        means = f"{key.means} (the mechanic `{key.mechanic}`)" if key.mechanic else key.means
        lines.append(f"| `{name}` | {kind} | {key.rule or '—'} | {_text(means)} |")
    return lines


def _table_sections(tables: dict[type, str]) -> list[str]:
    lines = ["## Tables", "",
             "The fields of each table a card key holds (or a field of another table does), "
             "under the key it is first met by. A field with a default may be left out.", ""]
    for cls, key in tables.items():
        hints = class_hints(cls, include_extras=True)
        docs = field_docs(cls)
        lines += [f"### `{key}`", "", _text(_class_doc(cls)), "",
                  "| field | type | default | what it is |", "| --- | --- | --- | --- |"]
        for f in dataclasses.fields(cls):
            default = ("required" if f.default is dataclasses.MISSING
                       else "—" if f.default is None else _code(f.default))
            lines.append(f"| `{f.name}` | {_field_type(cls, f.name, hints[f.name], tables)} | {default} | "
                         f"{_text(docs.get(f.name))} |")
        lines.append("")
    return lines


def _arguments(cls: type) -> list[str]:
    arguments = arguments_of(cls)
    if not arguments:
        return ["No arguments.", ""]
    docs = field_docs(cls)
    lines = ["| argument | kind | default | what it is |", "| --- | --- | --- | --- |"]
    for a in arguments:
        default = "required" if a.required else "—" if a.default is None else _code(a.default)
        lines.append(f"| `{a.name}` | [{a.kind.name}](#argument-kinds) | {default} | "
                     f"{_text(docs.get(a.field))} |")
    return [*lines, ""]


def _effects() -> list[str]:
    lines = ["## Effects", "",
             "An effect is a table naming its verb and giving its arguments, "
             "`{ verb = \"deal_damage\", amount = 3, to = \"target\" }`; an ability's effects are "
             "followed in order (608.2c). Every effect verb (`EFFECT_VERBS`), by name:", ""]
    for verb, cls in sorted(EFFECT_VERBS.items()):
        doc = _text(_class_doc(cls))
        lines += [f"### `{verb}`", "", doc if doc.startswith(cls.rule) else f"{cls.rule}: {doc}", "",
                  *_arguments(cls)]
    return lines


def _argument_kinds() -> list[str]:
    kinds: dict[str, ArgKind] = {}
    for registry in (EFFECT_VERBS, CONDITIONS):
        for cls in registry.values():
            for a in arguments_of(cls):
                kinds.setdefault(a.kind.name, a.kind)
    docs = _kind_docs()
    lines = ["## Argument kinds", "",
             "What each kind of argument of an effect or a condition takes (layer verbs' "
             "arguments are of these kinds too), with an example.", "",
             "| kind | example | what it takes |", "| --- | --- | --- |"]
    for name, kind in sorted(kinds.items()):
        words = getattr(kind.check, "__self__", None)
        takes = _text(docs.get(name))
        if isinstance(words, frozenset | dict | tuple) and all(isinstance(w, str) for w in words):
            takes += f" One of {_words(words)}."
        lines.append(f"| `{name}` | {_code(kind.example)} | {takes} |")
    return [*lines, ""]


def _conditions() -> list[str]:
    lines = ["## Conditions", "",
             "A condition (an intervening \"if\" of a triggered ability, 603.4, or `flash_if`) is "
             "a table naming its test and giving its arguments, `{ test = \"life_at_least\", "
             "amount = 40 }`. Every condition (`CONDITIONS`), by name:", ""]
    for test, cls in sorted(CONDITIONS.items()):
        lines += [f"### `{test}`", "", _text(_class_doc(cls)), "", *_arguments(cls)]
    return lines


def _registries() -> list[str]:
    lines = ["## Target kinds", "",
             "What a target requirement's `kind` (and an Aura's `enchant`) may name "
             "(`TARGET_KINDS`, 115.1), with the words it reads as and whether a player may be "
             "chosen for it.", "",
             "| kind | reads as | players too |", "| --- | --- | --- |"]
    for kind, (_, players, words) in sorted(TARGET_KINDS.items()):
        lines.append(f"| `{kind}` | {words} | {'yes' if players else 'no'} |")
    lines += ["", "## Trigger events", "",
              "What a triggered ability's `event` may name (`TRIGGER_EVENTS`, 603.2):", "",
              "| event | rule | when |", "| --- | --- | --- |",
              *(f"| `{name}` | {event.rule} | {event.when} |" for name, event in sorted(TRIGGER_EVENTS.items())),
              "", "## Counter kinds", "",
              "The counters a card file may name (`COUNTER_KINDS`, 122.1), and what the rules "
              "make each do:", "",
              "| kind | rule | what it does |", "| --- | --- | --- |",
              *(f"| `{name}` | {kind.rule} | {kind.does or 'nothing by itself: a card reads it'} |"
                for name, kind in sorted(COUNTER_KINDS.items())),
              "", "## Layer verbs", "",
              "The effects of a `static` ability: continuous effects, each applied in its layer "
              "(`LAYER_VERBS`, 613). Every layer verb but `copy_of` and `set_base_pt_cda` is also "
              "an effect verb, taking `what` and `until` besides.", "",
              "| verb | layer | rule | arguments | what it does |",
              "| --- | --- | --- | --- | --- |"]
    for verb, spec in LAYER_VERBS.items():
        args = ", ".join(f"`{name}` ({kind})" for name, kind in spec.args.items()) or "—"
        lines.append(f"| `{verb}` | {spec.layer} | {spec.rule} | {args} | "
                     f"{_text(_function_doc(spec.apply))} |")
    lines += ["", "## Cost options", "",
              "What a `cost_options` table's `name` may be (`COST_OPTIONS`, 601.2b): an "
              "additional cost is paid on top of the mana cost (118.8), an alternative one "
              "instead of it (118.9).", "",
              "| name | kind | cast from | what paying it means |", "| --- | --- | --- | --- |"]
    for name, option in sorted(COST_OPTIONS.items()):
        lines.append(f"| `{name}` | {option.kind} | {option.zone} | {option.rule}: {_text(option.means)} |")
    lines += ["", "## Keywords", "",
              "The keyword abilities `keywords` may name (702), besides `protection from` a "
              "colour word or a quality:", "", _words(KEYWORDS), ""]
    return lines


def card_format_reference() -> str:
    """The card format's reference page, in Markdown."""
    tables = _tables()
    parts = [_INTRO.replace("{example}", EXAMPLE_CARD), *_card_keys(tables), "",
             *_table_sections(tables), *_effects(), *_argument_kinds(), *_conditions(),
             *_registries()]
    return "\n".join(parts).rstrip("\n") + "\n"
