"""Reading a card's abilities from its data: effects, costs, static, replacement, restriction
and permission abilities, from the tables the schema engine read (``_format``), checked against
the kernel's closed registries and the card's own text."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, get_args, get_origin

from ..rules import (
    CONDITIONS,
    EFFECT_VERBS,
    Effect,
    ManaCost,
    ManaCostSyntaxError,
    Permission,
    Restriction,
    parse_mana_cost,
)
from ..rules.definitions import (
    ArgValue,
    Condition,
    LayerEffect,
    ReplacementAbility,
    StaticAbility,
    arguments_of,
)
from ..rules.layers import LAYER_ARG_KINDS, LAYER_VERBS, LIST_KINDS, REQUIRED_ARGS
from ..rules.registry import COUNTER_KINDS
from ..schema import SchemaError, from_plain
from ._fields import (
    Where,
    read_position,
    read_quote,
    read_table,
)
from ._format import (
    KEYWORDS,
    EntersAsCopyTable,
    PermissionTable,
    ReplacementTable,
    RestrictionTable,
    StaticTable,
)

T = TypeVar("T", bound=Effect | Condition)


def read_arguments(cls: type[T], raw: Mapping[str, Any], where: Where, field: str, n_targets: int,
                   owner: str) -> T:
    """An instance of the verb or condition class ``cls`` from a card file's table ``raw`` (less
    its ``verb`` or ``test`` key), each argument read by the schema engine as its field's type
    (the Python type, then its ``ArgKind``'s check); nested effects are read as effects; a
    target word must name a target requirement the ability has (``n_targets``).
    ``owner`` names the verb or condition in errors. This is the one place a card file's table
    becomes a typed instance."""
    arguments = arguments_of(cls)
    names = {a.name: a for a in arguments}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in names:
            raise where.error(f"{field}.{key}", f"{owner} takes no argument {key!r} "
                              f"(it takes: {', '.join(sorted(names)) or 'none'})")
        hint = names[key].type
        if get_origin(hint) is tuple and get_args(hint)[0] is Effect:
            if not isinstance(value, list):
                raise where.error(f"{field}.{key}", f"expected a list of effects, got {value!r}")
            # A delayed trigger has no targets of its own (603.7c: it refers to its creator's);
            # the effects of a "you may" or an "if it was kicked" are its ability's (608.2d).
            inner = n_targets if issubclass(cls, Effect) and cls.inner_targets else 0
            value = tuple(read_effect(v, where, f"{field}.{key}[{i}]", inner)
                          for i, v in enumerate(value))
        else:
            try:
                value = from_plain(names[key].hint, value)  # a TOML list becomes a tuple
            except SchemaError as err:
                raise where.error(f"{field}.{key}{err.path}", err.detail) from None
        if isinstance(value, str) and value.split(":", 1)[0] == "target":
            index = value.split(":", 1)[1] if ":" in value else "0"
            if not index.isdigit() or int(index) >= n_targets:
                raise where.error(f"{field}.{key}", f"{value!r} names a target requirement the "
                                  f"ability doesn't have (it has {n_targets})")
        values[names[key].field] = value
    missing = [a.name for a in arguments if a.required and a.field not in values]
    if missing:
        raise where.error(field, f"{owner} needs argument {missing[0]!r}")
    return cls(**values)


def read_effect(raw: Any, where: Where, field: str, n_targets: int = 0) -> Effect:
    """One effect: a verb from ``EFFECT_VERBS`` with its arguments checked."""
    if not isinstance(raw, dict) or not isinstance(raw.get("verb"), str):
        raise where.error(field, f"an effect must be a table with a 'verb', got {raw!r}")
    verb = raw["verb"]
    cls = EFFECT_VERBS.get(verb)
    if cls is None:
        raise where.error(field, f"unknown verb {verb!r} (known: {', '.join(sorted(EFFECT_VERBS))})")
    return read_arguments(cls, {k: v for k, v in raw.items() if k != "verb"}, where, field, n_targets,
                          f"verb {verb!r}")


def read_effects(raw: Any, where: Where, field: str, n_targets: int) -> tuple[Effect, ...]:
    """A list of effects, in order."""
    if not isinstance(raw, list) or not raw:
        raise where.error(field, "expected a non-empty list of effects")
    return tuple(read_effect(e, where, f"{field}[{i}]", n_targets) for i, e in enumerate(raw))


_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def read_counter_costs(parts: list[str], name: str, where: Where,
                   field: str) -> tuple[tuple[str, int], ...]:
    """118.3: "Remove a dream counter from NAME" cost parts -> (kind, how many)."""
    out = []
    for part in parts:
        words = part.split(" ")
        tail = " ".join(words[3:])
        if (len(words) < 5 or words[1].lower() not in _NUMBER_WORDS
                or words[3] not in ("counter", "counters") or tail != f"{words[3]} from {name}"):
            raise where.error(field, f"unsupported cost {part!r} (expected 'Remove a KIND "
                              f"counter from {name}')")
        if words[2] not in COUNTER_KINDS:
            raise where.error(field, f"unknown counter kind {words[2]!r}")
        out.append((words[2], _NUMBER_WORDS[words[1].lower()]))
    return tuple(out)


SACRIFICE_SELF_WORDS = frozenset({"this artifact", "this creature", "this enchantment",
                                  "this land", "this permanent"})
"""The closed registry of words a "Sacrifice ..." cost part may name its own source by (besides
the card's name): "Sacrifice this artifact" (Treasure, 111.10a)."""


def read_sacrifice_cost(parts: list[str], name: str, where: Where, field: str) -> bool:
    """701.17a/602.2b: whether the cost parts sacrifice the ability's own source ("Sacrifice
    this artifact", "Sacrifice NAME"); any other sacrifice is refused on load."""
    found = False
    for part in parts:
        what = part[len("Sacrifice "):]
        if what not in SACRIFICE_SELF_WORDS and what != name:
            raise where.error(field, f"unsupported cost {part!r} (expected 'Sacrifice' and one "
                              f"of {', '.join(sorted(SACRIFICE_SELF_WORDS))} or {name!r})")
        if found:
            raise where.error(field, f"the cost sacrifices its source twice: {part!r}")
        found = True
    return found


def read_loyalty_cost(text: str) -> int | None:
    """606.4, 606.5: a loyalty ability's cost as the Oracle text prints it, a loyalty symbol
    alone: ``+N`` (put N loyalty counters), ``−N`` (remove N) or ``0``; None for any other cost."""
    sign, digits = text[:1], text[1:]
    if text == "0":
        return 0
    if sign in ("+", "−") and digits.isdigit() and digits == str(int(digits)):
        return int(digits) if sign == "+" else -int(digits)
    return None


def read_cost(text: str, where: Where, field: str) -> tuple[ManaCost, bool]:
    """An activated ability's cost (602.1): its mana part and whether it includes {T} (the parts
    that remove counters are read by ``read_counter_costs``, those that sacrifice the source by
    ``read_sacrifice_cost``)."""
    parts = [p.strip() for p in text.split(",")]
    tap = "{T}" in parts
    mana = [p for p in parts if p != "{T}" and not p.startswith(("Remove ", "Sacrifice "))]
    if len(mana) > 1:
        raise where.error(field, f"unsupported cost {text!r}")
    try:
        return parse_mana_cost(mana[0] if mana else ""), tap
    except ManaCostSyntaxError as err:
        raise where.error(field, str(err)) from None


def read_replacements(tables: tuple[ReplacementTable, ...], text: str,
                      where: Where) -> tuple[ReplacementAbility, ...]:
    """614: static abilities that make replacement effects (``[[card.replacement]]``), each
    quoting its Oracle sentence (``text``), with the keys its event takes."""
    out = []
    for i, r in enumerate(tables):
        f = f"replacement[{i}]"
        if not r.text:
            raise where.error(f"{f}.text", "a replacement ability quotes its Oracle text")
        wanted = {"enters": {"counters", "tapped", "unless_pay_life", "choose_protector"},
                  "to_graveyard": {"applies_to", "zone"}, "lose_game": {"effects"}}[r.event]
        given = {k for k in ("counters", "tapped", "applies_to", "zone", "effects",
                             "choose_protector")
                 if getattr(r, k) is not None}
        if not given or given - wanted:
            raise where.error(f, f"a {r.event!r} replacement takes {sorted(wanted)}, got "
                              f"{sorted(given)}")
        if r.unless_pay_life is not None and r.event != "enters":
            raise where.error(f"{f}.unless_pay_life", "only an 'enters' replacement may offer a "
                              "payment instead")
        if r.event == "to_graveyard" and r.zone is None:
            raise where.error(f"{f}.zone", "a 'to_graveyard' replacement names the zone")
        effects = read_effects(list(r.effects), where, f"{f}.effects", 0) if r.effects else ()
        out.append(ReplacementAbility(
            r.event, r.applies_to or "self", tuple(sorted((r.counters or {}).items())),
            bool(r.tapped), r.unless_pay_life or 0, r.zone or "", effects,
            read_position(r.text, text, where, f, i + 1), r.text, bool(r.choose_protector)))
    return tuple(out)


def read_layer_effect(raw: Any, where: Where, field: str, affected: str) -> LayerEffect:
    """One effect of a static ability: a layer primitive (613) with its arguments checked."""
    if not isinstance(raw, dict) or not isinstance(raw.get("verb"), str):
        raise where.error(field, f"an effect must be a table with a 'verb', got {raw!r}")
    verb = raw["verb"]
    spec = LAYER_VERBS.get(verb)
    if spec is None or verb == "copy_of":
        known = ", ".join(sorted(v for v in LAYER_VERBS if v != "copy_of"))
        raise where.error(field, f"unknown layer verb {verb!r} (known: {known})")
    if verb == "set_base_pt_cda" and affected != "self":
        raise where.error(field, "a characteristic-defining ability defines its own object's "
                          "values (604.3): affected must be 'self'")
    args: dict[str, ArgValue] = {}
    for key, value in raw.items():
        if key == "verb":
            continue
        if key not in spec.args:
            raise where.error(f"{field}.{key}", f"verb {verb!r} takes no argument {key!r} "
                              f"(it takes: {', '.join(sorted(spec.args)) or 'none'})")
        kind = spec.args[key]
        if kind in LIST_KINDS and isinstance(value, list):
            value = tuple(value)
        if not LAYER_ARG_KINDS[kind](value):
            raise where.error(f"{field}.{key}", f"{value!r} is not a valid {kind}")
        if kind == "keywords":
            bad = [k for k in value if k not in KEYWORDS and not k.startswith("protection from ")]
            if bad:
                raise where.error(f"{field}.{key}", f"unknown keyword {bad[0]!r}")
        args[key] = value
    missing = [k for k in spec.args if k in REQUIRED_ARGS and k not in args]
    if missing:
        raise where.error(field, f"verb {verb!r} needs argument {missing[0]!r}")
    return LayerEffect(verb, tuple(sorted(args.items())))


def read_statics(tables: tuple[StaticTable, ...], text: str, where: Where,
                 n_keywords: int) -> tuple[StaticAbility, ...]:
    """604/611.3: static abilities (``[[card.static]]``): an Oracle quote (``text``), the objects
    they affect (``affected``; ``color``: only those of that colour word) and their layer
    primitives (``effects``, from ``LAYER_VERBS``)."""
    out = []
    for i, r in enumerate(tables):
        f = f"static[{i}]"
        out.append(StaticAbility(
            r.affected, tuple(read_layer_effect(e, where, f"{f}.effects[{k}]", r.affected)
                              for k, e in enumerate(r.effects)),
            read_position(r.text, text, where, f, n_keywords + i + 1), r.color))
    return tuple(out)


def read_enters_as_copy(table: EntersAsCopyTable | None, text: str, where: Where) -> str:
    """614.1c/707.2: ``enters_as_copy = { text = "...", of = "creatures" }``: "you may have it
    enter as a copy of any creature on the battlefield" (``of``: an ``AFFECTED`` word)."""
    if table is None:
        return ""
    read_position(table.text, text, where, "enters_as_copy", 0)
    if table.of in ("self", "enchanted", "equipped", "attached"):
        raise where.error("enters_as_copy.of", f"{table.of!r} is not a word for objects on the "
                          "battlefield")
    return table.of


def read_condition(raw: Any, where: Where, field: str) -> Condition:
    """603.4: an intervening "if" condition from the registry, with its arguments checked."""
    c = read_table(raw, where, field)
    test = c.get("test")
    if not isinstance(test, str) or test not in CONDITIONS:
        raise where.error(field, f"unknown condition {c!r} (known: {', '.join(sorted(CONDITIONS))})")
    return read_arguments(CONDITIONS[test], {k: v for k, v in c.items() if k != "test"}, where, field, 0,
                          f"condition {test!r}")


def read_enchant(enchant: str | None, subtypes: tuple[str, ...], where: Where) -> str:
    """702.5: an Aura's enchant ability, a target kind; only an Aura has one (and must)."""
    if enchant is None:
        if "Aura" in subtypes:
            raise where.error("enchant", "an Aura needs an enchant ability (303.4a)")
        return ""
    if "Aura" not in subtypes:
        raise where.error("enchant", "only an Aura has an enchant ability")
    return enchant


def read_restriction(r: RestrictionTable, text: str, where: Where, field: str) -> Restriction:
    """A static "can't" ability (101.2), quoting its Oracle sentence."""
    return Restriction(r.kind, r.players, r.objects, r.filter, read_quote(r.text, text, where, field),
                       read_position(r.text, text, where, field, 1))


def read_permission(r: PermissionTable, text: str, where: Where, field: str) -> Permission:
    """A static "may" ability (101.2), quoting its Oracle sentence; the zone, cost and face-down
    keys only for the kinds that take them."""
    zoned = ("cast_from", "play_lands_from", "grant_cost")
    if (r.kind in zoned) != bool(r.zone):
        raise where.error(f"{field}.zone", f"{', '.join(zoned)} need a zone (graveyard, exile, "
                          "library); other kinds take none")
    if (r.kind == "grant_cost") != bool(r.cost):
        raise where.error(f"{field}.cost", "grant_cost needs a cost (a COST_OPTIONS name); other "
                          "kinds take none")
    if r.face_down and (r.kind, r.zone) != ("cast_from", "exile"):
        raise where.error(f"{field}.face_down", "only casting from exile can be from among "
                          "cards face down")
    return Permission(r.kind, r.players, r.filter, r.zone, read_quote(r.text, text, where, field),
                      read_position(r.text, text, where, field, 1), r.cost, r.face_down)
