"""Loading card definitions from hand-written data files, checked against the kernel's closed
registries (effect verbs, argument kinds, target kinds, trigger events, conditions, keywords)."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from ..rules import (
    ARG_KINDS,
    CONDITION_ARGS,
    CONDITIONS,
    EFFECT_VERBS,
    PERMISSION_KINDS,
    RESTRICTION_FILTERS,
    RESTRICTION_KINDS,
    RESTRICTION_OBJECTS,
    RESTRICTION_PLAYERS,
    STEPS,
    TARGET_KINDS,
    TRIGGER_EVENTS,
    ActivatedAbility,
    CardDefinition,
    CardDefinitionError,
    Effect,
    ManaCost,
    ManaCostSyntaxError,
    Permission,
    Restriction,
    SpellAbility,
    TargetSpec,
    TriggeredAbility,
    parse_mana_cost,
)
from ..rules.definitions import ArgValue, ReplacementAbility, StaticAbility
from ..rules.layers import AFFECTED, COLOR_WORDS, LAYER_ARG_KINDS, LAYER_VERBS, LIST_KINDS, REQUIRED_ARGS
from ..rules.replacement import REDIRECT_ZONES, REPLACEMENT_EVENTS

__all__ = ["KEYWORDS", "load_card_file", "load_cards", "parse_type_line"]

KEYWORDS: frozenset[str] = frozenset({
    "flying", "reach", "vigilance", "haste", "defender", "deathtouch", "lifelink", "trample",
    "infect", "first strike", "double strike", "flash", "undying", "persist",
})
"""Keyword abilities (702) the kernel implements."""

SUPERTYPES = frozenset({"Basic", "Legendary", "World", "Snow"})
CARD_TYPES = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Instant", "Land",
                        "Planeswalker", "Sorcery", "Kindred"})

_CARD_KEYS = frozenset({"name", "cost", "type", "pt", "loyalty", "text", "color", "keywords",
                        "spell", "activated", "triggered", "replacement", "counter_limits",
                        "enchant", "restriction", "permission", "static", "enters_as_copy"})


KEYWORD_TRIGGERS: dict[str, dict[str, Any]] = {
    # 702.93a: "When this permanent is put into a graveyard from the battlefield, if it had no
    # +1/+1 counters on it, return it to the battlefield under its owner's control with a +1/+1
    # counter on it." 702.79a (persist): the same with -1/-1 counters.
    kw: {"event": "dies", "condition": {"test": "source_had_no_counters", "counter": kind},
         "effects": [{"verb": "put_onto_battlefield", "what": "subject", "counter": kind}]}
    for kw, kind in (("undying", "+1/+1"), ("persist", "-1/-1"))
}
"""Keyword abilities that are triggered abilities (702), as the data of the ability they mean."""


class _Where:
    """Names the file, card and field in load errors."""

    def __init__(self, source: str, card: str) -> None:
        self.source = source
        self.card = card

    def error(self, field: str, problem: str) -> CardDefinitionError:
        return CardDefinitionError(f"{self.source}: card {self.card!r}: {field}: {problem}")


def _table(value: Any, where: _Where, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise where.error(field, f"must be a table, got {value!r}")
    return value


def _tables(value: Any, where: _Where, field: str) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise where.error(field, f"must be a list of tables, got {value!r}")
    return [_table(v, where, f"{field}[{i}]") for i, v in enumerate(value)]


def _string(value: Any, where: _Where, field: str) -> str:
    if not isinstance(value, str):
        raise where.error(field, f"must be a string, got {value!r}")
    return value


def _strings(value: Any, where: _Where, field: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise where.error(field, f"must be a list of strings, got {value!r}")
    return tuple(value)


def _boolean(value: Any, where: _Where, field: str) -> bool:
    if not isinstance(value, bool):
        raise where.error(field, f"must be true or false, got {value!r}")
    return value


def _integer(value: Any, where: _Where, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise where.error(field, f"must be an integer, got {value!r}")
    return value


def parse_type_line(line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], bool]:
    """205: ``Legendary Creature — Dog`` -> supertypes, card types, subtypes, is a token."""
    left, _, right = line.partition("—")
    words = left.split()
    token = "Token" in words
    words = [w for w in words if w != "Token"]
    supertypes = tuple(w for w in words if w in SUPERTYPES)
    types = tuple(w for w in words if w not in SUPERTYPES)
    unknown = [w for w in types if w not in CARD_TYPES]
    if unknown or not types:
        raise ValueError(f"unknown card type {unknown[0]!r}" if unknown else "no card type")
    return supertypes, types, tuple(right.split()), token


def _effect(raw: Any, where: _Where, field: str, n_targets: int = 0) -> Effect:
    if not isinstance(raw, dict) or not isinstance(raw.get("verb"), str):
        raise where.error(field, f"an effect must be a table with a 'verb', got {raw!r}")
    verb = raw["verb"]
    spec = EFFECT_VERBS.get(verb)
    if spec is None:
        raise where.error(field, f"unknown verb {verb!r} (known: {', '.join(sorted(EFFECT_VERBS))})")
    args: dict[str, ArgValue] = {}
    allowed = {**spec.required, **spec.optional}
    for key, value in raw.items():
        if key == "verb":
            continue
        if key not in allowed:
            raise where.error(f"{field}.{key}", f"verb {verb!r} takes no argument {key!r} "
                              f"(it takes: {', '.join(sorted(allowed))})")
        kind = allowed[key]
        if kind == "zones" and isinstance(value, list):
            value = tuple(value)
        if kind in LIST_KINDS and isinstance(value, list):
            value = tuple(value)
        if kind == "effects":
            if not isinstance(value, list):
                raise where.error(f"{field}.{key}", f"expected a list of effects, got {value!r}")
            # A delayed trigger has no targets of its own (603.7c: it refers to its creator's);
            # the effects of a "you may" are its ability's (608.2d).
            inner = n_targets if verb == "may" else 0
            value = tuple(_effect(v, where, f"{field}.{key}[{i}]", inner)
                          for i, v in enumerate(value))
        if not ARG_KINDS[kind](value):
            raise where.error(f"{field}.{key}", f"{value!r} is not a valid {kind}")
        if isinstance(value, str) and value.split(":", 1)[0] == "target":
            index = value.split(":", 1)[1] if ":" in value else "0"
            if not index.isdigit() or int(index) >= n_targets:
                raise where.error(f"{field}.{key}", f"{value!r} names a target requirement the "
                                  f"ability doesn't have (it has {n_targets})")
        args[key] = value
    missing = [k for k in spec.required if k not in args]
    if missing:
        raise where.error(field, f"verb {verb!r} needs argument {missing[0]!r}")
    return Effect(verb, tuple(sorted(args.items())))


def _effects(raw: Any, where: _Where, field: str, n_targets: int) -> tuple[Effect, ...]:
    if not isinstance(raw, list) or not raw:
        raise where.error(field, "expected a non-empty list of effects")
    return tuple(_effect(e, where, f"{field}[{i}]", n_targets) for i, e in enumerate(raw))


def _targets(raw: Any, where: _Where, field: str) -> tuple[TargetSpec, ...]:
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
                          "per_opponent"}
        if extra:
            raise where.error(f, f"unknown key {sorted(extra)[0]!r}")
        lo, hi = t.get("min", 1), t.get("max", 1)
        if not (isinstance(lo, int) and isinstance(hi, int) and not isinstance(lo, bool)
                and not isinstance(hi, bool) and 0 <= lo <= hi and hi >= 1):
            raise where.error(f, f"bad min/max {lo!r}/{hi!r}")
        if t.get("controller", "") not in ("", "you", "opponent"):
            raise where.error(f, f"controller must be 'you' or 'opponent', got "
                              f"{t['controller']!r}")
        not_colors = _strings(t.get("not_colors", []), where, f"{f}.not_colors")
        if any(c not in "WUBRG" or len(c) != 1 for c in not_colors):
            raise where.error(f"{f}.not_colors", f"colours are W U B R G, got {list(not_colors)!r}")
        another = _boolean(t.get("another", False), where, f"{f}.another")
        per_opponent = _boolean(t.get("per_opponent", False), where, f"{f}.per_opponent")
        out.append(TargetSpec(t["kind"], lo, hi, not_colors,
                              "opponent" if per_opponent else t.get("controller", ""), another,
                              per_opponent))
    return tuple(out)


def _positions(text: str) -> list[tuple[str, int]]:
    """Each Oracle line with the position of its first ability (keyword lines hold several)."""
    out = []
    pos = 1
    for line in text.split("\n"):
        out.append((line, pos))
        parts = [p.strip().lower() for p in line.split(",")]
        pos += len(parts) if all(p in KEYWORDS for p in parts) else 1
    return out


def _position(raw: dict[str, Any], text: str, where: _Where, field: str, default: int) -> int:
    quote = raw.get("text")
    if quote is None:
        return default
    quote = _string(quote, where, f"{field}.text")
    for line, pos in _positions(text):
        if quote in line:
            return pos
    raise where.error(f"{field}.text", f"{quote!r} is not part of the card's Oracle text")


_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def _counter_costs(parts: list[str], name: str, where: _Where,
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
        if not ARG_KINDS["counter"](words[2]):
            raise where.error(field, f"unknown counter kind {words[2]!r}")
        out.append((words[2], _NUMBER_WORDS[words[1].lower()]))
    return tuple(out)


def _cost(text: str, where: _Where, field: str) -> tuple[ManaCost, bool]:
    parts = [p.strip() for p in text.split(",")]
    tap = "{T}" in parts
    mana = [p for p in parts if p != "{T}" and not p.startswith("Remove ")]
    if len(mana) > 1:
        raise where.error(field, f"unsupported cost {text!r}")
    try:
        return parse_mana_cost(mana[0] if mana else ""), tap
    except ManaCostSyntaxError as err:
        raise where.error(field, str(err)) from None


def _card(raw: Mapping[str, Any], source: str, token: bool) -> CardDefinition:
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise CardDefinitionError(f"{source}: a card has no name: {dict(raw)!r}")
    where = _Where(source, name)
    unknown = set(raw) - _CARD_KEYS
    if unknown:
        raise where.error(sorted(unknown)[0], "unknown field")
    text = _string(raw.get("text", ""), where, "text")
    cost: ManaCost | None = None
    if "cost" in raw:
        try:
            cost = parse_mana_cost(_string(raw["cost"], where, "cost"))
        except ManaCostSyntaxError as err:
            raise where.error("cost", str(err)) from None
    try:
        supertypes, types, subtypes, is_token = parse_type_line(_string(raw.get("type", ""), where,
                                                                        "type"))
    except ValueError as err:
        raise where.error("type", f"{raw.get('type')!r}: {err}") from None
    power = toughness = None
    if "pt" in raw:
        try:
            p, t = str(raw["pt"]).split("/")
            # 208.2a: "*" (None here) is defined by a characteristic-defining ability.
            power, toughness = (None if p == "*" else int(p)), (None if t == "*" else int(t))
        except ValueError:
            raise where.error("pt", f"expected 'P/T', got {raw['pt']!r}") from None
    if "Creature" in types and "pt" not in raw:
        raise where.error("pt", "a creature needs power/toughness")
    if "color" in raw:
        color = _string(raw["color"], where, "color")
        if not color or any(c not in "WUBRG" for c in color):
            raise where.error("color", f"colours are letters W U B R G, got {color!r}")
        colors = tuple(c for c in "WUBRG" if c in color)
    else:
        colors = tuple(c for c in "WUBRG" if c in cost.colors()) if cost else ()
    keywords = _strings(raw.get("keywords", []), where, "keywords")
    for k in keywords:
        if k not in KEYWORDS:
            raise where.error("keywords", f"unknown keyword {k!r}")
        if k not in text.lower():
            raise where.error("keywords", f"keyword {k!r} is not in the Oracle text")
    loyalty = _integer(raw["loyalty"], where, "loyalty") if "loyalty" in raw else None
    spell = None
    if "spell" in raw:
        s = _table(raw["spell"], where, "spell")
        targets = _targets(s.get("targets"), where, "spell.targets")
        spell = SpellAbility(targets, _effects(s.get("effects"), where, "spell.effects",
                                               len(targets)))
    elif "Instant" in types or "Sorcery" in types:
        raise where.error("spell", "an instant or sorcery needs a spell ability")
    activated = []
    for i, a in enumerate(_tables(raw.get("activated"), where, "activated")):
        f = f"activated[{i}]"
        mana_cost, tap = _cost(_string(a.get("cost", ""), where, f"{f}.cost"), where, f"{f}.cost")
        targets = _targets(a.get("targets"), where, f"{f}.targets")
        effects = _effects(a.get("effects"), where, f"{f}.effects", len(targets))
        is_mana = not targets and all(e.verb == "add_mana" for e in effects)
        sorcery = _boolean(a.get("sorcery_speed", False), where, f"{f}.sorcery_speed")
        removed = _counter_costs([p.strip() for p in str(a.get("cost", "")).split(",")
                                  if p.strip().startswith("Remove ")], name, where, f"{f}.cost")
        activated.append(ActivatedAbility(mana_cost, tap, targets, effects, is_mana, sorcery,
                                          _position(a, text, where, f, len(keywords) + i + 1),
                                          remove_counters=removed))
    triggered = []
    raw_triggers = _tables(raw.get("triggered"), where, "triggered")
    for kw in keywords:
        if kw in KEYWORD_TRIGGERS:
            line = next(ln for ln in text.split("\n") if ln.lower().startswith(kw))
            raw_triggers.append({**KEYWORD_TRIGGERS[kw], "text": line[:len(kw)]})
    for i, trig in enumerate(raw_triggers):
        f = f"triggered[{i}]"
        event = trig.get("event")
        if not isinstance(event, str) or event not in TRIGGER_EVENTS:
            raise where.error(f"{f}.event", f"unknown trigger event {event!r} (known: "
                              f"{', '.join(sorted(TRIGGER_EVENTS))})")
        step = trig.get("step", "")
        if event == "beginning_of_step" and step not in STEPS:
            raise where.error(f"{f}.step", f"unknown step {step!r}")
        whose = trig.get("whose", "you")
        if whose not in ("you", "each"):
            raise where.error(f"{f}.whose", f"expected 'you' or 'each', got {whose!r}")
        condition = _condition(trig["condition"], where, f"{f}.condition") if "condition" in trig else None
        targets = _targets(trig.get("targets"), where, f"{f}.targets")
        triggered.append(TriggeredAbility(
            event, step, whose, condition, targets,
            _effects(trig.get("effects"), where, f"{f}.effects", len(targets)),
            _position(trig, text, where, f, len(keywords) + len(activated) + i + 1)))
    triggered.sort(key=lambda t: t.position)
    enchant = _enchant(raw, subtypes, where)
    if "*" in str(raw.get("pt", "")) and not any(
            a.is_cda for a in _statics(raw.get("static"), text, where, len(keywords))):
        raise where.error("pt", "a '*' needs a characteristic-defining static ability (604.3)")
    return CardDefinition(
        enchant=enchant,
        restrictions=tuple(_restriction(r, text, where, f"restriction[{i}]") for i, r in
                           enumerate(_tables(raw.get("restriction"), where, "restriction"))),
        permissions=tuple(_permission(r, text, where, f"permission[{i}]") for i, r in
                          enumerate(_tables(raw.get("permission"), where, "permission"))),
        replacements=_replacements(raw.get("replacement"), text, where),
        static=_statics(raw.get("static"), text, where, len(keywords)),
        enters_as_copy=_enters_as_copy(raw.get("enters_as_copy"), text, where),
        counter_limits=_counter_limits(raw.get("counter_limits"), text, where),
        name=name, mana_cost=cost, supertypes=supertypes, card_types=types, subtypes=subtypes,
        colors=colors, power=power, toughness=toughness, loyalty=loyalty, text=text,
        keywords=keywords, spell=spell, activated=tuple(activated), triggered=tuple(triggered),
        is_token=token or is_token, source=source,
    )


def _replacements(raw: Any, text: str, where: _Where) -> tuple[ReplacementAbility, ...]:
    """614: static abilities that make replacement effects (``[[card.replacement]]``), each
    quoting its Oracle sentence (``text``), checked against ``REPLACEMENT_EVENTS``."""
    out = []
    for i, r in enumerate(_tables(raw, where, "replacement")):
        f = f"replacement[{i}]"
        extra = set(r) - {"event", "applies_to", "counters", "tapped", "zone", "effects", "text"}
        if extra:
            raise where.error(f, f"unknown key {sorted(extra)[0]!r}")
        event = r.get("event")
        if event not in REPLACEMENT_EVENTS:
            raise where.error(f"{f}.event", f"unknown replacement event {event!r} (known: "
                              f"{', '.join(sorted(REPLACEMENT_EVENTS))})")
        quote = _string(r.get("text", ""), where, f"{f}.text")
        if not quote:
            raise where.error(f"{f}.text", "a replacement ability quotes its Oracle text")
        wanted = {"enters": {"counters", "tapped"}, "to_graveyard": {"applies_to", "zone"},
                  "lose_game": {"effects"}}[event]
        given = set(r) - {"event", "text"}
        if not given or given - wanted:
            raise where.error(f, f"a {event!r} replacement takes {sorted(wanted)}, got "
                              f"{sorted(given)}")
        counters = _table(r.get("counters", {}), where, f"{f}.counters")
        for kind, n in counters.items():
            if not ARG_KINDS["counter"](kind) or not (isinstance(n, int) and not isinstance(n, bool)
                                                      and n > 0):
                raise where.error(f"{f}.counters", f"{kind!r} = {n!r} is not a counter kind and "
                                  "a positive number")
        applies_to = r.get("applies_to", "self")
        if applies_to not in ("self", "any"):
            raise where.error(f"{f}.applies_to", f"expected 'self' or 'any', got {applies_to!r}")
        zone = r.get("zone", "")
        if event == "to_graveyard" and zone not in REDIRECT_ZONES:
            raise where.error(f"{f}.zone", f"expected one of {sorted(REDIRECT_ZONES)}, got {zone!r}")
        effects = _effects(r["effects"], where, f"{f}.effects", 0) if "effects" in r else ()
        out.append(ReplacementAbility(
            event, applies_to, tuple(sorted(counters.items())),
            _boolean(r.get("tapped", False), where, f"{f}.tapped"), zone, effects,
            _position(r, text, where, f, i + 1), quote))
    return tuple(out)


def _layer_effect(raw: Any, where: _Where, field: str, affected: str) -> Effect:
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
    return Effect(verb, tuple(sorted(args.items())))


def _statics(raw: Any, text: str, where: _Where, n_keywords: int) -> tuple[StaticAbility, ...]:
    """604/611.3: static abilities (``[[card.static]]``): an Oracle quote (``text``), the objects
    they affect (``affected``, from ``AFFECTED``; ``color``: only those of that colour word) and
    their layer primitives (``effects``, from ``LAYER_VERBS``)."""
    out = []
    for i, r in enumerate(_tables(raw, where, "static")):
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
        color = _string(r.get("color", ""), where, f"{f}.color")
        if color and color not in COLOR_WORDS:
            raise where.error(f"{f}.color", f"expected a colour word ({', '.join(COLOR_WORDS)}), "
                              f"got {color!r}")
        effects = r.get("effects")
        if not isinstance(effects, list) or not effects:
            raise where.error(f"{f}.effects", "expected a non-empty list of effects")
        out.append(StaticAbility(
            affected, tuple(_layer_effect(e, where, f"{f}.effects[{k}]", affected)
                            for k, e in enumerate(effects)),
            _position(r, text, where, f, n_keywords + i + 1), color))
    return tuple(out)


def _enters_as_copy(raw: Any, text: str, where: _Where) -> str:
    """614.1c/707.2: ``enters_as_copy = { text = "...", of = "creatures" }``: "you may have it
    enter as a copy of any creature on the battlefield" (``of``: an ``AFFECTED`` word)."""
    if raw is None:
        return ""
    r = _table(raw, where, "enters_as_copy")
    if set(r) != {"text", "of"}:
        raise where.error("enters_as_copy", "takes exactly 'text' and 'of'")
    _position(r, text, where, "enters_as_copy", 0)
    of = r["of"]
    if of not in AFFECTED or of in ("self", "enchanted", "equipped", "attached"):
        raise where.error("enters_as_copy.of", f"{of!r} is not a word for objects on the "
                          "battlefield")
    return str(of)


def _counter_limits(raw: Any, text: str, where: _Where) -> tuple[tuple[str, int, int], ...]:
    """704.5r: "[this] can't have more than N [kind] counters on it" (``counter``, ``max``; a
    static ability at its Oracle line's position, which layer 6 can remove)."""
    out = []
    for i, r in enumerate(_tables(raw, where, "counter_limits")):
        f = f"counter_limits[{i}]"
        if set(r) != {"counter", "max", "text"}:
            raise where.error(f, "a counter limit has exactly 'counter', 'max' and 'text'")
        if not ARG_KINDS["counter"](r["counter"]):
            raise where.error(f"{f}.counter", f"unknown counter kind {r['counter']!r}")
        out.append((str(r["counter"]), _integer(r["max"], where, f"{f}.max"),
                    _position(r, text, where, f, 0)))
    return tuple(out)


def _condition(raw: Any, where: _Where, field: str) -> Effect:
    """603.4: an intervening "if" condition from the registry, with its arguments checked."""
    c = _table(raw, where, field)
    test = c.get("test")
    if not isinstance(test, str) or test not in CONDITIONS:
        raise where.error(field, f"unknown condition {c!r} (known: {', '.join(sorted(CONDITIONS))})")
    args = {k: v for k, v in c.items() if k != "test"}
    wanted = CONDITION_ARGS[test]
    if set(args) != set(wanted):
        raise where.error(field, f"condition {test!r} takes exactly {sorted(wanted)}, got "
                          f"{sorted(args)}")
    for key, kind in wanted.items():
        if not ARG_KINDS[kind](args[key]):
            raise where.error(f"{field}.{key}", f"{args[key]!r} is not a valid {kind}")
    return Effect(test, tuple(sorted(args.items())))


def _enchant(raw: Mapping[str, Any], subtypes: tuple[str, ...], where: _Where) -> str:
    """702.5: an Aura's enchant ability, a target kind; only an Aura has one (and must)."""
    if "enchant" not in raw:
        if "Aura" in subtypes:
            raise where.error("enchant", "an Aura needs an enchant ability (303.4a)")
        return ""
    kind = _string(raw["enchant"], where, "enchant")
    if "Aura" not in subtypes:
        raise where.error("enchant", "only an Aura has an enchant ability")
    if kind not in TARGET_KINDS:
        raise where.error("enchant", f"unknown target kind {kind!r} (known: "
                          f"{', '.join(sorted(TARGET_KINDS))})")
    return kind


def _quote(raw: dict[str, Any], text: str, where: _Where, field: str) -> str:
    quote = _string(raw.get("text", ""), where, f"{field}.text")
    if not quote or quote not in text:
        raise where.error(f"{field}.text", f"{quote!r} is not part of the card's Oracle text")
    return quote


def _choice(raw: dict[str, Any], key: str, known: Any, default: str, where: _Where,
            field: str) -> str:
    value = raw.get(key, default)
    if not isinstance(value, str) or value not in known:
        raise where.error(f"{field}.{key}", f"{value!r} is not one of {', '.join(sorted(known))}")
    return value


def _restriction(raw: dict[str, Any], text: str, where: _Where, field: str) -> Restriction:
    """A static "can't" ability (101.2), checked against the registries in ``_restrictions``."""
    extra = set(raw) - {"kind", "players", "objects", "filter", "text"}
    if extra:
        raise where.error(field, f"unknown key {sorted(extra)[0]!r}")
    return Restriction(_choice(raw, "kind", RESTRICTION_KINDS, "", where, field),
                       _choice(raw, "players", RESTRICTION_PLAYERS, "each", where, field),
                       _choice(raw, "objects", RESTRICTION_OBJECTS, "", where, field),
                       _choice(raw, "filter", RESTRICTION_FILTERS, "any", where, field),
                       _quote(raw, text, where, field), _position(raw, text, where, field, 1))


def _permission(raw: dict[str, Any], text: str, where: _Where, field: str) -> Permission:
    """A static "may" ability (101.2), checked against the registries in ``_restrictions``."""
    extra = set(raw) - {"kind", "players", "filter", "zone", "text"}
    if extra:
        raise where.error(field, f"unknown key {sorted(extra)[0]!r}")
    kind = _choice(raw, "kind", PERMISSION_KINDS, "", where, field)
    zone = _choice(raw, "zone", {"graveyard", "exile", "library", ""}, "", where, field)
    if (kind == "cast_from") != bool(zone):
        raise where.error(f"{field}.zone", "cast_from needs a zone (graveyard, exile, library); "
                          "other kinds take none")
    return Permission(kind, _choice(raw, "players", RESTRICTION_PLAYERS, "you", where, field),
                      _choice(raw, "filter", RESTRICTION_FILTERS, "any", where, field), zone,
                      _quote(raw, text, where, field), _position(raw, text, where, field, 1))


def load_card_file(path: Path | str, text: str | None = None) -> dict[str, CardDefinition]:
    """Load one data file (``[[card]]`` and ``[[token]]`` tables); raises CardDefinitionError
    naming the file, the card and the field of the first problem."""
    source = str(path)
    try:
        data = tomllib.loads(text if text is not None else Path(path).read_text("utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise CardDefinitionError(f"{source}: {err}") from None
    out: dict[str, CardDefinition] = {}
    unknown = set(data) - {"card", "token"}
    if unknown:
        raise CardDefinitionError(f"{source}: unknown top-level key {sorted(unknown)[0]!r}")
    for table, token in (("card", False), ("token", True)):
        entries = data.get(table, [])
        if not isinstance(entries, list):
            raise CardDefinitionError(f"{source}: '{table}' must be an array of tables "
                                      f"([[{table}]])")
        for i, raw in enumerate(entries):
            if not isinstance(raw, dict):
                raise CardDefinitionError(f"{source}: {table}[{i}] must be a table, got {raw!r}")
            defn = _card(raw, source, token)
            if defn.name in out:
                raise CardDefinitionError(f"{source}: card {defn.name!r} is defined twice")
            out[defn.name] = defn
    return out


_CACHE: dict[str, CardDefinition] | None = None


def load_cards() -> Mapping[str, CardDefinition]:
    """Every card and token the package defines (loaded once, then shared read-only)."""
    global _CACHE
    if _CACHE is None:
        cards: dict[str, CardDefinition] = {}
        for entry in sorted(resources.files("spellstack.cards").joinpath("data").iterdir(),
                            key=lambda e: e.name):
            if entry.name.endswith(".toml"):
                for name, defn in load_card_file(f"data/{entry.name}", entry.read_text("utf-8")).items():
                    if name in cards:
                        raise CardDefinitionError(f"data/{entry.name}: card {name!r} is also "
                                                  f"defined in {cards[name].source}")
                    cards[name] = defn
        _CACHE = cards
    return _CACHE
