"""Loading card definitions from hand-written data files, checked against the kernel's closed
registries (effect verbs, argument kinds, target kinds, trigger events, conditions, keywords)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from ..rules import (
    COST_OPTIONS,
    MORPH_CAST_COST,
    STEPS,
    TRIGGER_EVENTS,
    ActivatedAbility,
    CardDefinition,
    CardDefinitionError,
    Condition,
    CostOption,
    ManaCost,
    ManaCostSyntaxError,
    SpellAbility,
    SpellMode,
    TriggeredAbility,
    parse_mana_cost,
)
from ..rules.base import CARD_TYPES, SUPERTYPES
from ._abilities import (
    read_condition,
    read_cost,
    read_counter_costs,
    read_counter_limits,
    read_effects,
    read_enchant,
    read_enters_as_copy,
    read_loyalty_cost,
    read_permission,
    read_replacements,
    read_restriction,
    read_sacrifice_cost,
    read_statics,
    read_targets,
)
from ._fields import (
    Where,
    is_keyword,
    read_boolean,
    read_integer,
    read_position,
    read_quote,
    read_string,
    read_strings,
    read_table,
    read_tables,
)
from ._toml import checking, parse_toml, short_value

__all__ = ["load_card_file", "load_cards", "parse_type_line"]


_CARD_KEYS = frozenset({"name", "cost", "type", "pt", "loyalty", "text", "color", "keywords",
                        "spell", "activated", "triggered", "replacement", "counter_limits",
                        "enchant", "restriction", "permission", "static", "enters_as_copy",
                        "cost_options", "cast_from", "test_only", "flash_if"})
_LAYOUTS = frozenset({"split", "adventure", "mdfc"})
"""Layouts of cards with more than one face (709 split, 715 Adventure, 712 modal double-faced)."""
_SPELL_KEYS = frozenset({"targets", "effects", "modes", "choose", "divide", "divide_doubled_from"})


_MANA_VERBS = frozenset({"add_mana", "add_mana_of_any_color"})
"""The verbs of a mana ability's effects (605.1a: it could add mana)."""


KEYWORD_TRIGGERS: dict[str, dict[str, Any]] = {
    # 702.93a: "When this permanent is put into a graveyard from the battlefield, if it had no
    # +1/+1 counters on it, return it to the battlefield under its owner's control with a +1/+1
    # counter on it." 702.79a (persist): the same with -1/-1 counters.
    kw: {"event": "dies", "condition": {"test": "source_had_no_counters", "counter": kind},
         "effects": [{"verb": "put_onto_battlefield", "what": "subject", "counter": kind}]}
    for kw, kind in (("undying", "+1/+1"), ("persist", "-1/-1"))
}
"""Keyword abilities that are triggered abilities (702), as the data of the ability they mean."""


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


def _card(raw: Mapping[str, Any], source: str, token: bool) -> CardDefinition:
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise CardDefinitionError(f"{source}: a card has no name: {dict(raw)!r}")
    where = Where(source, name)
    unknown = set(raw) - _CARD_KEYS
    if unknown:
        raise where.error(sorted(unknown)[0], "unknown field")
    text = read_string(raw.get("text", ""), where, "text")
    cost: ManaCost | None = None
    if "cost" in raw:
        try:
            cost = parse_mana_cost(read_string(raw["cost"], where, "cost"))
        except ManaCostSyntaxError as err:
            raise where.error("cost", str(err)) from None
    try:
        supertypes, types, subtypes, is_token = parse_type_line(read_string(raw.get("type", ""), where,
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
        color = read_string(raw["color"], where, "color")
        if not color or any(c not in "WUBRG" for c in color):
            raise where.error("color", f"colours are letters W U B R G, got {color!r}")
        colors = tuple(c for c in "WUBRG" if c in color)
    else:
        colors = tuple(c for c in "WUBRG" if c in cost.colors()) if cost else ()
    keywords = read_strings(raw.get("keywords", []), where, "keywords")
    for k in keywords:
        if not is_keyword(k):
            raise where.error("keywords", f"unknown keyword {k!r}")
        if k not in text.lower():
            raise where.error("keywords", f"keyword {k!r} is not in the Oracle text")
    loyalty = read_integer(raw["loyalty"], where, "loyalty") if "loyalty" in raw else None
    spell = None
    if "spell" in raw:
        spell = _spell(read_table(raw["spell"], where, "spell"), text, where)
    elif "Instant" in types or "Sorcery" in types:
        raise where.error("spell", "an instant or sorcery needs a spell ability")
    activated = []
    for i, a in enumerate(read_tables(raw.get("activated"), where, "activated")):
        f = f"activated[{i}]"
        cost_text = read_string(a.get("cost", ""), where, f"{f}.cost")
        loyalty_cost = read_loyalty_cost(cost_text)
        mana_cost, tap = (ManaCost(()), False) if loyalty_cost is not None else read_cost(
            cost_text, where, f"{f}.cost")
        targets = read_targets(a.get("targets"), where, f"{f}.targets")
        effects = read_effects(a.get("effects"), where, f"{f}.effects", len(targets))
        # 605.1a: a loyalty ability is never a mana ability.
        is_mana = (loyalty_cost is None and not targets
                   and all(e.verb in _MANA_VERBS for e in effects))
        sorcery = read_boolean(a.get("sorcery_speed", False), where, f"{f}.sorcery_speed")
        if loyalty_cost is not None:
            if not a.get("text") or not str(a["text"]).startswith(f"{cost_text}: "):
                raise where.error(f"{f}.text", f"a loyalty ability quotes its Oracle line, "
                                  f"which begins with its cost {cost_text + ': '!r}")
            sorcery = True  # 606.3: only any time its controller could cast a sorcery
        parts = [p.strip() for p in str(a.get("cost", "")).split(",")]
        removed = read_counter_costs([p for p in parts if p.startswith("Remove ")], name, where,
                                     f"{f}.cost")
        sacrifice = read_sacrifice_cost([p for p in parts if p.startswith("Sacrifice ")], name,
                                        where, f"{f}.cost")
        activated.append(ActivatedAbility(mana_cost, tap, targets, effects, is_mana, sorcery,
                                          read_position(a, text, where, f, len(keywords) + i + 1),
                                          remove_counters=removed, sacrifice=sacrifice,
                                          loyalty=loyalty_cost))
    triggered = []
    raw_triggers = read_tables(raw.get("triggered"), where, "triggered")
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
        condition = read_condition(trig["condition"], where, f"{f}.condition") if "condition" in trig else None
        targets = read_targets(trig.get("targets"), where, f"{f}.targets")
        spell_types = read_strings(trig.get("spell_types", []), where, f"{f}.spell_types")
        from_zone = trig.get("from_zone", "")
        if (spell_types or from_zone) and event != "you_cast_spell":
            raise where.error(f, "spell_types and from_zone describe the spell of a "
                              "'you_cast_spell' trigger only")
        if any(t not in CARD_TYPES for t in spell_types):
            raise where.error(f"{f}.spell_types", f"expected card types, got {spell_types!r}")
        if from_zone not in ("", "hand", "graveyard", "exile", "library"):
            raise where.error(f"{f}.from_zone", f"expected a zone, got {from_zone!r}")
        triggered.append(TriggeredAbility(
            event, step, whose, condition, targets,
            read_effects(trig.get("effects"), where, f"{f}.effects", len(targets)),
            read_position(trig, text, where, f, len(keywords) + len(activated) + i + 1),
            tuple(spell_types), from_zone))
    triggered.sort(key=lambda t: t.position)
    enchant = read_enchant(raw, subtypes, where)
    cost_options = _cost_options(raw.get("cost_options"), text, where)
    if "*" in str(raw.get("pt", "")) and not any(
            a.is_cda for a in read_statics(raw.get("static"), text, where, len(keywords))):
        raise where.error("pt", "a '*' needs a characteristic-defining static ability (604.3)")
    return CardDefinition(
        enchant=enchant,
        restrictions=tuple(read_restriction(r, text, where, f"restriction[{i}]") for i, r in
                           enumerate(read_tables(raw.get("restriction"), where, "restriction"))),
        permissions=tuple(read_permission(r, text, where, f"permission[{i}]") for i, r in
                          enumerate(read_tables(raw.get("permission"), where, "permission"))),
        replacements=read_replacements(raw.get("replacement"), text, where),
        static=read_statics(raw.get("static"), text, where, len(keywords)),
        enters_as_copy=read_enters_as_copy(raw.get("enters_as_copy"), text, where),
        counter_limits=read_counter_limits(raw.get("counter_limits"), text, where),
        name=name, mana_cost=cost, supertypes=supertypes, card_types=types, subtypes=subtypes,
        colors=colors, power=power, toughness=toughness, loyalty=loyalty, text=text,
        keywords=keywords, spell=spell, activated=tuple(activated), triggered=tuple(triggered),
        is_token=token or is_token, source=source, cost_options=cost_options,
        cast_zones=_cast_zones(raw.get("cast_from"), text, where),
        test_only=read_boolean(raw.get("test_only", False), where, "test_only"),
        flash_if=_flash_if(raw.get("flash_if"), text, where),
    )


def _flash_if(raw: Any, text: str, where: Where) -> Condition | None:
    """``flash_if = { text = "...", test = ..., ... }``: 601.3d, "this spell has flash as long
    as [condition]", quoting that sentence; the condition from ``CONDITIONS``."""
    if raw is None:
        return None
    table = dict(read_table(raw, where, "flash_if"))
    read_quote(table, text, where, "flash_if")
    del table["text"]
    return read_condition(table, where, "flash_if")


def _cast_zones(raw: Any, text: str, where: Where) -> tuple[str, ...]:
    """``cast_from = { zones = [...], text = "..." }``: 601.3, the zones a card's own ability
    lets its owner cast it from, quoting that ability."""
    if raw is None:
        return ()
    table = read_table(raw, where, "cast_from")
    extra = set(table) - {"zones", "text"}
    if extra:
        raise where.error(f"cast_from.{sorted(extra)[0]}", "unknown field")
    read_quote(table, text, where, "cast_from")
    zones = table.get("zones")
    if (not isinstance(zones, list) or not zones
            or any(z not in ("graveyard", "exile", "library") for z in zones)):
        raise where.error("cast_from.zones", f"expected a list of graveyard, exile, library, got "
                          f"{zones!r}")
    return tuple(zones)


def _spell(s: Mapping[str, Any], text: str, where: Where) -> SpellAbility:
    """A spell ability: targets and effects, or modes (700.2), and what it divides (601.2d)."""
    unknown = set(s) - _SPELL_KEYS
    if unknown:
        raise where.error(f"spell.{sorted(unknown)[0]}", "unknown field")
    divide = s.get("divide", "")
    if divide != "" and not (divide == "X" or (isinstance(divide, int)
                                               and not isinstance(divide, bool) and divide > 0)):
        raise where.error("spell.divide", f"expected a positive number or 'X', got {divide!r}")
    doubled = read_integer(s.get("divide_doubled_from", 0), where, "spell.divide_doubled_from")
    if "modes" not in s:
        targets = read_targets(s.get("targets"), where, "spell.targets")
        return SpellAbility(targets, read_effects(s.get("effects"), where, "spell.effects",
                                                  len(targets)), divide=str(divide),
                            divide_doubled_from=doubled)
    if "targets" in s or "effects" in s:
        raise where.error("spell.modes", "a modal spell's targets and effects are its modes'")
    modes = []
    for i, m in enumerate(read_tables(s["modes"], where, "spell.modes")):
        f = f"spell.modes[{i}]"
        mode_text = read_string(m.get("text", ""), where, f"{f}.text")
        if not mode_text or f"• {mode_text}" not in text:
            raise where.error(f"{f}.text", f"{mode_text!r} is not a mode of the Oracle text")
        extra = set(m) - {"text", "targets", "effects"}
        if extra:
            raise where.error(f"{f}.{sorted(extra)[0]}", "unknown field")
        targets = read_targets(m.get("targets"), where, f"{f}.targets")
        modes.append(SpellMode(mode_text, targets, read_effects(m.get("effects"), where,
                                                                f"{f}.effects", len(targets))))
    choose = read_integer(s.get("choose", 1), where, "spell.choose")
    if len(modes) < 2 or not 1 <= choose <= len(modes):
        raise where.error("spell.modes", f"a modal spell has two or more modes and chooses 1 to "
                          f"{len(modes)} of them, got {len(modes)} modes, choose {choose}")
    return SpellAbility(modes=tuple(modes), mode_count=choose, divide=str(divide),
                        divide_doubled_from=doubled)


def _cost_options(raw: Any, text: str, where: Where) -> tuple[CostOption, ...]:
    """Optional additional and alternative costs (601.2b), each from ``COST_OPTIONS`` with its
    mana and the Oracle words it implements."""
    out = []
    for i, c in enumerate(read_tables(raw, where, "cost_options")):
        f = f"cost_options[{i}]"
        extra = set(c) - {"name", "cost", "text"}
        if extra:
            raise where.error(f"{f}.{sorted(extra)[0]}", "unknown field")
        name = read_string(c.get("name", ""), where, f"{f}.name")
        if name not in COST_OPTIONS:
            raise where.error(f"{f}.name", f"unknown cost option {name!r} (known: "
                              f"{', '.join(sorted(COST_OPTIONS))})")
        words = read_string(c.get("text", ""), where, f"{f}.text")
        if not words or words not in text:
            raise where.error(f"{f}.text", f"{words!r} is not in the Oracle text")
        try:
            mana = parse_mana_cost(read_string(c.get("cost", ""), where, f"{f}.cost"))
        except ManaCostSyntaxError as err:
            raise where.error(f"{f}.cost", str(err)) from None
        kind, zone, _ = COST_OPTIONS[name]
        if name == "morph":
            # 702.37b/c: cast face down for {3}; the cost the keyword names turns it face up.
            out.append(CostOption(name, kind, MORPH_CAST_COST, zone, words, mana))
            continue
        out.append(CostOption(name, kind, mana, zone, words))
    if sum(1 for o in out if o.name == "flash") > 1 or len({o.name for o in out}) != len(out):
        raise where.error("cost_options", "a cost option is named twice")
    return tuple(out)


def _multi_face(raw: Mapping[str, Any], source: str, token: bool) -> list[CardDefinition]:
    """A card of another layout: a definition for each face, half or Adventure (named by it,
    with ``card_name``), and one for the whole card as it is outside the stack and the
    battlefield: a split card with both halves' characteristics combined (709.4), an adventurer
    or a modal double-faced card with those of its first face (715.3, 712.8a)."""
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise CardDefinitionError(f"{source}: a card has no name: {dict(raw)!r}")
    where = Where(source, name)
    layout = raw["layout"]
    if layout not in _LAYOUTS:
        raise where.error("layout", f"unknown layout {layout!r} (known: {', '.join(sorted(_LAYOUTS))})")
    extra = set(raw) - {"name", "layout", "face"}
    if extra:
        raise where.error(sorted(extra)[0], f"a {layout} card's fields belong to its faces")
    raw_faces = read_tables(raw.get("face"), where, "face")
    if len(raw_faces) != 2:
        raise where.error("face", f"a {layout} card has two faces, got {len(raw_faces)}")
    faces = [_card(f, source, token) for f in raw_faces]
    names = tuple(f.name for f in faces)
    if layout == "split":
        if name != " // ".join(names):
            raise where.error("name", f"a split card is named by its halves: {' // '.join(names)!r}")
    elif name != names[0]:
        raise where.error("name", f"a {layout} card is named by its first face {names[0]!r}")
    if layout == "adventure" and "Adventure" not in faces[1].subtypes:
        raise where.error("face", "an adventurer card's second face is an Adventure (715.2)")
    out = [replace(f, layout=layout, card_name=name, faces=names if f.name == name else ())
           for f in faces]
    if layout == "split":
        a, b = faces
        symbols = (a.mana_cost.symbols if a.mana_cost else ()) + (
            b.mana_cost.symbols if b.mana_cost else ())
        out.append(replace(
            a, name=name, mana_cost=ManaCost(symbols) if symbols else None,
            supertypes=tuple(dict.fromkeys(a.supertypes + b.supertypes)),
            card_types=tuple(dict.fromkeys(a.card_types + b.card_types)),
            subtypes=tuple(dict.fromkeys(a.subtypes + b.subtypes)),
            colors=tuple(c for c in "WUBRG" if c in a.colors + b.colors),
            text=f"{a.text}\n//\n{b.text}", spell=None, layout=layout, faces=names,
            card_name=name))
    return out


def load_card_file(path: Path | str, text: str | None = None) -> dict[str, CardDefinition]:
    """Load one data file (``[[card]]`` and ``[[token]]`` tables); raises CardDefinitionError
    naming the file, the card and the field of the first problem."""
    source = str(path)
    if text is None:
        try:
            text = Path(path).read_text("utf-8")
        except UnicodeDecodeError as err:
            raise CardDefinitionError(f"{source}: a card file must be UTF-8 text (byte "
                                      f"{err.start} is not)") from None
        except OSError as err:
            raise CardDefinitionError(f"{source}: can't read it: {err.strerror}") from None
    data = parse_toml(text, source, CardDefinitionError)
    with checking(source, CardDefinitionError):
        return _cards(data, source)


def _cards(data: dict[str, Any], source: str) -> dict[str, CardDefinition]:
    """The cards and tokens of a parsed data file."""
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
                raise CardDefinitionError(f"{source}: {table}[{i}] must be a table, got "
                                          f"{short_value(raw)}")
            for defn in (_multi_face(raw, source, token) if "layout" in raw
                         else [_card(raw, source, token)]):
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
