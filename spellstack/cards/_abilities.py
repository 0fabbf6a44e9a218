"""Reading a card's abilities from its data: effects, targets and costs, static, replacement,
restriction and permission abilities, each checked against the kernel's closed registries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, get_args, get_origin

from ..rules import (
    CONDITIONS,
    EFFECT_VERBS,
    PERMISSION_KINDS,
    RESTRICTION_FILTERS,
    RESTRICTION_KINDS,
    RESTRICTION_OBJECTS,
    RESTRICTION_PLAYERS,
    TARGET_KINDS,
    Effect,
    ManaCost,
    ManaCostSyntaxError,
    Permission,
    Restriction,
    TargetSpec,
    parse_mana_cost,
)
from ..rules.base import COLOR_BY_WORD, REDIRECT_ZONES
from ..rules.definitions import (
    ANY_NUMBER,
    COST_OPTIONS,
    COUNTER_KINDS,
    ArgValue,
    Condition,
    LayerEffect,
    ReplacementAbility,
    StaticAbility,
    arguments_of,
)
from ..rules.layers import AFFECTED, LAYER_ARG_KINDS, LAYER_VERBS, LIST_KINDS, REQUIRED_ARGS
from ..rules.replacement import REPLACEMENT_EVENTS
from ..schema import SchemaError, from_plain
from ._fields import (
    KEYWORDS,
    Where,
    read_boolean,
    read_choice,
    read_integer,
    read_position,
    read_quote,
    read_string,
    read_strings,
    read_table,
    read_tables,
)

T = TypeVar("T", bound=Effect | Condition)


def read_arguments(cls: type[T], raw: Mapping[str, Any], where: Where, field: str, n_targets: int,
                   owner: str) -> T:
    """An instance of the verb or condition class ``cls`` from a card file's table ``raw`` (less
    its ``verb`` or ``test`` key), each argument checked against its field's type: its Python
    type by the schema engine, then its ``ArgKind``'s check; nested effects are read as
    effects; a target word must name a target requirement the ability has (``n_targets``).
    ``owner`` names the verb or condition in errors. This is the one place a card file's table
    becomes a typed instance."""
    arguments = arguments_of(cls)
    names = {a.name: a for a in arguments}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in names:
            raise where.error(f"{field}.{key}", f"{owner} takes no argument {key!r} "
                              f"(it takes: {', '.join(sorted(names)) or 'none'})")
        hint, kind = names[key].type, names[key].kind
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
                value = from_plain(hint, value)  # the Python type; a TOML list becomes a tuple
            except SchemaError as err:
                raise where.error(f"{field}.{key}", f"{value!r} is not a valid {kind.name}: {err}") from None
            if kind.check is not None and not kind.check(value):
                raise where.error(f"{field}.{key}", f"{value!r} is not a valid {kind.name}")
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


def read_targets(raw: Any, where: Where, field: str) -> tuple[TargetSpec, ...]:
    """Target requirements (115): a kind from ``TARGET_KINDS`` and how many."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise where.error(field, f"expected a list of target tables, got {raw!r}")
    out = []
    for i, t in enumerate(raw):
        f = f"{field}[{i}]"
        if not isinstance(t, dict) or t.get("kind") not in TARGET_KINDS:
            raise where.error(f, f"unknown target kind in {t!r} (known: "
                              f"{', '.join(sorted(TARGET_KINDS))})")
        extra = set(t) - {"kind", "min", "max", "not_colors", "controller", "another",
                          "per_opponent", "min_power"}
        if extra:
            raise where.error(f, f"unknown key {sorted(extra)[0]!r}")
        lo, hi = t.get("min", 1), t.get("max", 1)
        if hi == "any":  # 115.1d: "any number of targets"
            hi = ANY_NUMBER
        min_power = t.get("min_power", 0)
        if not isinstance(min_power, int) or isinstance(min_power, bool) or min_power < 0:
            raise where.error(f"{f}.min_power", f"expected a power of 0 or more, got "
                              f"{min_power!r}")
        if not (isinstance(lo, int) and isinstance(hi, int) and not isinstance(lo, bool)
                and not isinstance(hi, bool) and 0 <= lo <= hi and hi >= 1):
            raise where.error(f, f"bad min/max {lo!r}/{hi!r}")
        if t.get("controller", "") not in ("", "you", "opponent"):
            raise where.error(f, f"controller must be 'you' or 'opponent', got "
                              f"{t['controller']!r}")
        not_colors = read_strings(t.get("not_colors", []), where, f"{f}.not_colors")
        if any(c not in "WUBRG" or len(c) != 1 for c in not_colors):
            raise where.error(f"{f}.not_colors", f"colours are W U B R G, got {list(not_colors)!r}")
        another = read_boolean(t.get("another", False), where, f"{f}.another")
        per_opponent = read_boolean(t.get("per_opponent", False), where, f"{f}.per_opponent")
        out.append(TargetSpec(t["kind"], lo, hi, not_colors,
                              "opponent" if per_opponent else t.get("controller", ""), another,
                              per_opponent, min_power))
    return tuple(out)


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


def read_replacements(raw: Any, text: str, where: Where) -> tuple[ReplacementAbility, ...]:
    """614: static abilities that make replacement effects (``[[card.replacement]]``), each
    quoting its Oracle sentence (``text``), checked against ``REPLACEMENT_EVENTS``."""
    out = []
    for i, r in enumerate(read_tables(raw, where, "replacement")):
        f = f"replacement[{i}]"
        extra = set(r) - {"event", "applies_to", "counters", "tapped", "unless_pay_life", "zone",
                          "effects", "text"}
        if extra:
            raise where.error(f, f"unknown key {sorted(extra)[0]!r}")
        event = r.get("event")
        if event not in REPLACEMENT_EVENTS:
            raise where.error(f"{f}.event", f"unknown replacement event {event!r} (known: "
                              f"{', '.join(sorted(REPLACEMENT_EVENTS))})")
        quote = read_string(r.get("text", ""), where, f"{f}.text")
        if not quote:
            raise where.error(f"{f}.text", "a replacement ability quotes its Oracle text")
        wanted = {"enters": {"counters", "tapped", "unless_pay_life"},
                  "to_graveyard": {"applies_to", "zone"}, "lose_game": {"effects"}}[event]
        given = set(r) - {"event", "text", "unless_pay_life"}
        if not given or given - wanted:
            raise where.error(f, f"a {event!r} replacement takes {sorted(wanted)}, got "
                              f"{sorted(given)}")
        counters = read_table(r.get("counters", {}), where, f"{f}.counters")
        for kind, n in counters.items():
            if kind not in COUNTER_KINDS or not (isinstance(n, int) and not isinstance(n, bool)
                                                      and n > 0):
                raise where.error(f"{f}.counters", f"{kind!r} = {n!r} is not a counter kind and "
                                  "a positive number")
        applies_to = r.get("applies_to", "self")
        if applies_to not in ("self", "any"):
            raise where.error(f"{f}.applies_to", f"expected 'self' or 'any', got {applies_to!r}")
        zone = r.get("zone", "")
        if event == "to_graveyard" and zone not in REDIRECT_ZONES:
            raise where.error(f"{f}.zone", f"expected one of {sorted(REDIRECT_ZONES)}, got {zone!r}")
        effects = read_effects(r["effects"], where, f"{f}.effects", 0) if "effects" in r else ()
        life = r.get("unless_pay_life", 0)
        if event != "enters" and "unless_pay_life" in r:
            raise where.error(f"{f}.unless_pay_life", "only an 'enters' replacement may offer a "
                              "payment instead")
        if not (isinstance(life, int) and not isinstance(life, bool) and life >= 0):
            raise where.error(f"{f}.unless_pay_life", f"expected an amount of life, got {life!r}")
        out.append(ReplacementAbility(
            event, applies_to, tuple(sorted(counters.items())),
            read_boolean(r.get("tapped", False), where, f"{f}.tapped"), life, zone, effects,
            read_position(r, text, where, f, i + 1), quote))
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


def read_statics(raw: Any, text: str, where: Where, n_keywords: int) -> tuple[StaticAbility, ...]:
    """604/611.3: static abilities (``[[card.static]]``): an Oracle quote (``text``), the objects
    they affect (``affected``, from ``AFFECTED``; ``color``: only those of that colour word) and
    their layer primitives (``effects``, from ``LAYER_VERBS``)."""
    out = []
    for i, r in enumerate(read_tables(raw, where, "static")):
        f = f"static[{i}]"
        extra = set(r) - {"text", "affected", "color", "effects"}
        if extra:
            raise where.error(f, f"unknown key {sorted(extra)[0]!r}")
        if "text" not in r:
            raise where.error(f"{f}.text", "a static ability quotes its Oracle text")
        affected = r.get("affected")
        if not isinstance(affected, str) or affected not in AFFECTED:
            raise where.error(f"{f}.affected", f"unknown affected word {affected!r} (known: "
                              f"{', '.join(sorted(AFFECTED))})")
        color = read_string(r.get("color", ""), where, f"{f}.color")
        if color and color not in COLOR_BY_WORD:
            raise where.error(f"{f}.color", f"expected a colour word ({', '.join(COLOR_BY_WORD)}), "
                              f"got {color!r}")
        effects = r.get("effects")
        if not isinstance(effects, list) or not effects:
            raise where.error(f"{f}.effects", "expected a non-empty list of effects")
        out.append(StaticAbility(
            affected, tuple(read_layer_effect(e, where, f"{f}.effects[{k}]", affected)
                            for k, e in enumerate(effects)),
            read_position(r, text, where, f, n_keywords + i + 1), color))
    return tuple(out)


def read_enters_as_copy(raw: Any, text: str, where: Where) -> str:
    """614.1c/707.2: ``enters_as_copy = { text = "...", of = "creatures" }``: "you may have it
    enter as a copy of any creature on the battlefield" (``of``: an ``AFFECTED`` word)."""
    if raw is None:
        return ""
    r = read_table(raw, where, "enters_as_copy")
    if set(r) != {"text", "of"}:
        raise where.error("enters_as_copy", "takes exactly 'text' and 'of'")
    read_position(r, text, where, "enters_as_copy", 0)
    of = r["of"]
    if of not in AFFECTED or of in ("self", "enchanted", "equipped", "attached"):
        raise where.error("enters_as_copy.of", f"{of!r} is not a word for objects on the "
                          "battlefield")
    return str(of)


def read_counter_limits(raw: Any, text: str, where: Where) -> tuple[tuple[str, int, int], ...]:
    """704.5r: "[this] can't have more than N [kind] counters on it" (``counter``, ``max``; a
    static ability at its Oracle line's position, which layer 6 can remove)."""
    out = []
    for i, r in enumerate(read_tables(raw, where, "counter_limits")):
        f = f"counter_limits[{i}]"
        if set(r) != {"counter", "max", "text"}:
            raise where.error(f, "a counter limit has exactly 'counter', 'max' and 'text'")
        if r["counter"] not in COUNTER_KINDS:
            raise where.error(f"{f}.counter", f"unknown counter kind {r['counter']!r}")
        out.append((str(r["counter"]), read_integer(r["max"], where, f"{f}.max"),
                    read_position(r, text, where, f, 0)))
    return tuple(out)


def read_condition(raw: Any, where: Where, field: str) -> Condition:
    """603.4: an intervening "if" condition from the registry, with its arguments checked."""
    c = read_table(raw, where, field)
    test = c.get("test")
    if not isinstance(test, str) or test not in CONDITIONS:
        raise where.error(field, f"unknown condition {c!r} (known: {', '.join(sorted(CONDITIONS))})")
    return read_arguments(CONDITIONS[test], {k: v for k, v in c.items() if k != "test"}, where, field, 0,
                          f"condition {test!r}")


def read_enchant(raw: Mapping[str, Any], subtypes: tuple[str, ...], where: Where) -> str:
    """702.5: an Aura's enchant ability, a target kind; only an Aura has one (and must)."""
    if "enchant" not in raw:
        if "Aura" in subtypes:
            raise where.error("enchant", "an Aura needs an enchant ability (303.4a)")
        return ""
    kind = read_string(raw["enchant"], where, "enchant")
    if "Aura" not in subtypes:
        raise where.error("enchant", "only an Aura has an enchant ability")
    if kind not in TARGET_KINDS:
        raise where.error("enchant", f"unknown target kind {kind!r} (known: "
                          f"{', '.join(sorted(TARGET_KINDS))})")
    return kind


def read_restriction(raw: dict[str, Any], text: str, where: Where, field: str) -> Restriction:
    """A static "can't" ability (101.2), checked against the registries in ``_restrictions``."""
    extra = set(raw) - {"kind", "players", "objects", "filter", "text"}
    if extra:
        raise where.error(field, f"unknown key {sorted(extra)[0]!r}")
    return Restriction(read_choice(raw, "kind", RESTRICTION_KINDS, "", where, field),
                       read_choice(raw, "players", RESTRICTION_PLAYERS, "each", where, field),
                       read_choice(raw, "objects", RESTRICTION_OBJECTS, "", where, field),
                       read_choice(raw, "filter", RESTRICTION_FILTERS, "any", where, field),
                       read_quote(raw, text, where, field), read_position(raw, text, where, field, 1))


def read_permission(raw: dict[str, Any], text: str, where: Where, field: str) -> Permission:
    """A static "may" ability (101.2), checked against the registries in ``_restrictions``."""
    extra = set(raw) - {"kind", "players", "filter", "zone", "text", "cost", "face_down"}
    if extra:
        raise where.error(field, f"unknown key {sorted(extra)[0]!r}")
    kind = read_choice(raw, "kind", PERMISSION_KINDS, "", where, field)
    zone = read_choice(raw, "zone", {"graveyard", "exile", "library", ""}, "", where, field)
    zoned = ("cast_from", "play_lands_from", "grant_cost")
    if (kind in zoned) != bool(zone):
        raise where.error(f"{field}.zone", f"{', '.join(zoned)} need a zone (graveyard, exile, "
                          "library); other kinds take none")
    cost = read_choice(raw, "cost", {*COST_OPTIONS, ""}, "", where, field)
    if (kind == "grant_cost") != bool(cost):
        raise where.error(f"{field}.cost", "grant_cost needs a cost (a COST_OPTIONS name); other "
                          "kinds take none")
    face_down = read_boolean(raw.get("face_down", False), where, f"{field}.face_down")
    if face_down and (kind, zone) != ("cast_from", "exile"):
        raise where.error(f"{field}.face_down", "only casting from exile can be from among "
                          "cards face down")
    return Permission(kind, read_choice(raw, "players", RESTRICTION_PLAYERS, "you", where, field),
                      read_choice(raw, "filter", RESTRICTION_FILTERS, "any", where, field), zone,
                      read_quote(raw, text, where, field), read_position(raw, text, where, field, 1),
                      cost, face_down)

