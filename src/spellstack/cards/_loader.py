"""Loading card definitions from hand-written data files: the schema engine reads each table
into its dataclass of the card format (``_format``), checking keys, types and the kernel's
closed registries (target kinds, trigger events, keywords ...); the loader then builds the
card, checking what depends on other fields (quotes from the Oracle text, costs that name the
card)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from ..rules import (
    CARD_KEYS,
    COST_OPTIONS,
    KEYWORD_TRIGGERS,
    ActivatedAbility,
    CardDefinition,
    CardDefinitionError,
    Condition,
    CostOption,
    ManaCost,
    SpellAbility,
    SpellMode,
    TriggeredAbility,
    parse_mana_cost,
)
from ..schema import SchemaError, from_plain
from ._abilities import (
    read_condition,
    read_cost,
    read_counter_costs,
    read_effects,
    read_enchant,
    read_enters_as_copy,
    read_loyalty_cost,
    read_permission,
    read_replacements,
    read_restriction,
    read_sacrifice_cost,
    read_statics,
)
from ._fields import Where, read_position, read_quote
from ._format import (
    ActivatedTable,
    CardTable,
    CastFromTable,
    CostOptionTable,
    CounterLimitTable,
    DataFile,
    MultiFaceTable,
    SpellTable,
    TriggeredTable,
    parse_type_line,
)
from ._toml import checking, parse_toml, short_value

__all__ = ["load_card_file", "load_cards", "parse_type_line"]

_MANA_VERBS = frozenset({"add_mana", "add_mana_of_any_color"})
"""The verbs of a mana ability's effects (605.1a: it could add mana)."""


def _where(raw: Mapping[str, Any], source: str) -> Where:
    """What errors about the card ``raw`` name: the file and the card's name."""
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise CardDefinitionError(f"{source}: a card has no name: {short_value(dict(raw))}")
    return Where(source, name)


def _card(raw: Mapping[str, Any], source: str, token: bool) -> CardDefinition:
    where = _where(raw, source)
    raw, mechanic_keys = _mechanic_keys(raw, where)
    try:
        card = from_plain(CardTable, raw)
    except SchemaError as err:
        raise where.schema_error(err) from None
    for key, _ in mechanic_keys:
        wanted = CARD_KEYS[key].card_type
        if wanted and wanted not in card.type.card_types:
            raise where.error(key, f"a card with {key!r} ({CARD_KEYS[key].mechanic}) is a "
                              f"{wanted} card (205.2a); its type line is {raw.get('type')!r}")
    defn = _definition(card, where, source, token)
    return replace(defn, mechanic_keys=mechanic_keys) if mechanic_keys else defn


def _mechanic_keys(raw: Mapping[str, Any],
                   where: Where) -> tuple[Mapping[str, Any], tuple[tuple[str, Any], ...]]:
    """The card's table without the keys mechanics register (``CARD_KEYS`` entries naming a
    mechanic), with the card data they stand for added, and their values read (in registry
    order). A card without such a key (nearly every card) is returned as it is."""
    keys = CARD_KEYS
    mine = [k for k in raw if k in keys and keys[k].mechanic]
    if not mine:
        return raw, ()
    rest = {k: v for k, v in raw.items() if k not in mine}
    values = []
    for key in (k for k in keys if k in mine):
        entry = keys[key]
        try:
            value = from_plain(entry.reads_as, raw[key])
        except SchemaError as err:
            raise where.schema_error(err, key) from None
        values.append((key, value))
        if entry.stands_for is not None:
            for field, tables in entry.stands_for(value).items():
                given = rest.get(field, [])
                if not isinstance(given, list):
                    raise where.error(field, f"must be a list of tables, got {short_value(given)}")
                rest[field] = [*given, *tables]
    return rest, tuple(values)


def _definition(card: CardTable, where: Where, source: str, token: bool) -> CardDefinition:
    """The card a ``CardTable`` describes, checking what depends on more than one field."""
    name, text, cost = card.name, card.text, card.cost
    types = card.type.card_types
    power, toughness = card.pt if card.pt is not None else (None, None)
    if "Creature" in types and card.pt is None:
        raise where.error("pt", "a creature needs power/toughness")
    if card.color is not None:
        colors = tuple(c for c in "WUBRG" if c in card.color)
    else:
        colors = tuple(c for c in "WUBRG" if c in cost.colors()) if cost else ()
    keywords = card.keywords
    for i, k in enumerate(keywords):
        if k not in text.lower():
            raise where.error(f"keywords[{i}]", f"keyword {k!r} is not in the Oracle text")
    spell = None
    if card.spell is not None:
        spell = _spell(card.spell, text, where)
    elif "Instant" in types or "Sorcery" in types:
        raise where.error("spell", "an instant or sorcery needs a spell ability")
    activated = [_activated(a, f"activated[{i}]", name, text, where, len(keywords) + i + 1)
                 for i, a in enumerate(card.activated)]
    raw_triggers = list(card.triggered)
    for kw in keywords:
        if kw in KEYWORD_TRIGGERS:
            line = next(ln for ln in text.split("\n") if ln.lower().startswith(kw))
            raw_triggers.append(from_plain(TriggeredTable, {**KEYWORD_TRIGGERS[kw].ability,
                                                            "text": line[:len(kw)]}))
    triggered = [_triggered(t, f"triggered[{i}]", text, where,
                            len(keywords) + len(activated) + i + 1)
                 for i, t in enumerate(raw_triggers)]
    triggered.sort(key=lambda t: t.position)
    static = read_statics(card.static, text, where, len(keywords))
    if (power is None or toughness is None) and card.pt is not None and not any(
            a.is_cda for a in static):
        raise where.error("pt", "a '*' needs a characteristic-defining static ability (604.3)")
    return CardDefinition(
        enchant=read_enchant(card.enchant, card.type.subtypes, where),
        restrictions=tuple(read_restriction(r, text, where, f"restriction[{i}]")
                           for i, r in enumerate(card.restriction)),
        permissions=tuple(read_permission(r, text, where, f"permission[{i}]")
                          for i, r in enumerate(card.permission)),
        replacements=read_replacements(card.replacement, text, where),
        static=static,
        enters_as_copy=read_enters_as_copy(card.enters_as_copy, text, where),
        counter_limits=_counter_limits(card.counter_limits, text, where),
        name=name, mana_cost=cost, supertypes=card.type.supertypes, card_types=types,
        subtypes=card.type.subtypes, colors=colors, power=power, toughness=toughness,
        loyalty=card.loyalty, text=text, keywords=keywords, spell=spell,
        activated=tuple(activated), triggered=tuple(triggered),
        is_token=token or card.type.token, source=source,
        cost_options=_cost_options(card.cost_options, text, where),
        cast_zones=_cast_zones(card.cast_from, text, where),
        test_only=card.test_only,
        flash_if=_flash_if(card.flash_if, text, where),
    )


def _activated(a: ActivatedTable, f: str, name: str, text: str, where: Where, default: int) -> ActivatedAbility:
    """602: an activated ability; its cost as printed, read into its parts (a loyalty cost alone,
    or mana, {T}, counters removed, the source sacrificed)."""
    loyalty_cost = read_loyalty_cost(a.cost)
    mana_cost, tap = (ManaCost(()), False) if loyalty_cost is not None else read_cost(
        a.cost, where, f"{f}.cost")
    effects = read_effects(list(a.effects), where, f"{f}.effects", len(a.targets))
    # 605.1a: a loyalty ability is never a mana ability.
    is_mana = (loyalty_cost is None and not a.targets
               and all(e.verb in _MANA_VERBS for e in effects))
    sorcery = a.sorcery_speed
    if loyalty_cost is not None:
        if not a.text or not a.text.startswith(f"{a.cost}: "):
            raise where.error(f"{f}.text", f"a loyalty ability quotes its Oracle line, "
                              f"which begins with its cost {a.cost + ': '!r}")
        sorcery = True  # 606.3: only any time its controller could cast a sorcery
    parts = [p.strip() for p in a.cost.split(",")]
    removed = read_counter_costs([p for p in parts if p.startswith("Remove ")], name, where,
                                 f"{f}.cost")
    sacrifice = read_sacrifice_cost([p for p in parts if p.startswith("Sacrifice ")], name,
                                    where, f"{f}.cost")
    return ActivatedAbility(mana_cost, tap, a.targets, effects, is_mana, sorcery,
                            read_position(a.text, text, where, f, default),
                            remove_counters=removed, sacrifice=sacrifice, loyalty=loyalty_cost)


def _triggered(t: TriggeredTable, f: str, text: str, where: Where, default: int) -> TriggeredAbility:
    """603: a triggered ability; a step for a step trigger, the spell's description for a
    ``you_cast_spell`` one only."""
    if t.event == "beginning_of_step" and not t.step:
        raise where.error(f"{f}.step", "unknown step ''")
    if (t.spell_types or t.from_zone) and t.event != "you_cast_spell":
        raise where.error(f, "spell_types and from_zone describe the spell of a "
                          "'you_cast_spell' trigger only")
    condition = read_condition(t.condition, where, f"{f}.condition") if t.condition is not None else None
    return TriggeredAbility(
        t.event, t.step, t.whose, condition, t.targets,
        read_effects(list(t.effects), where, f"{f}.effects", len(t.targets)),
        read_position(t.text, text, where, f, default), t.spell_types, t.from_zone)


def _counter_limits(tables: tuple[CounterLimitTable, ...], text: str,
                    where: Where) -> tuple[tuple[str, int, int], ...]:
    """704.5r: "[this] can't have more than N [kind] counters on it" (a static ability at its
    Oracle line's position, which layer 6 can remove)."""
    return tuple((r.counter, r.max, read_position(r.text, text, where, f"counter_limits[{i}]", 0))
                 for i, r in enumerate(tables))


def _flash_if(raw: dict[str, Any] | None, text: str, where: Where) -> Condition | None:
    """``flash_if = { text = "...", test = ..., ... }``: 601.3d, "this spell has flash as long
    as [condition]", quoting that sentence; the condition from ``CONDITIONS``."""
    if raw is None:
        return None
    table = dict(raw)
    quote = table.pop("text", "")
    if not isinstance(quote, str):
        raise where.error("flash_if.text", f"expected str, got {short_value(quote)}")
    read_quote(quote, text, where, "flash_if")
    return read_condition(table, where, "flash_if")


def _cast_zones(table: CastFromTable | None, text: str, where: Where) -> tuple[str, ...]:
    """``cast_from = { zones = [...], text = "..." }``: 601.3, the zones a card's own ability
    lets its owner cast it from, quoting that ability."""
    if table is None:
        return ()
    read_quote(table.text, text, where, "cast_from")
    if not table.zones:
        raise where.error("cast_from.zones", "expected a list of graveyard, exile, library, got []")
    return table.zones


def _spell(s: SpellTable, text: str, where: Where) -> SpellAbility:
    """A spell ability: targets and effects, or modes (700.2), and what it divides (601.2d)."""
    divide = "" if s.divide is None else str(s.divide)
    if s.modes is None:
        targets = s.targets or ()
        if s.effects is None:
            raise where.error("spell.effects", "expected a non-empty list of effects")
        return SpellAbility(targets, read_effects(list(s.effects), where, "spell.effects",
                                                  len(targets)), divide=divide,
                            divide_doubled_from=s.divide_doubled_from)
    if s.targets is not None or s.effects is not None:
        raise where.error("spell.modes", "a modal spell's targets and effects are its modes'")
    modes = []
    for i, m in enumerate(s.modes):
        f = f"spell.modes[{i}]"
        if not m.text or f"• {m.text}" not in text:
            raise where.error(f"{f}.text", f"{m.text!r} is not a mode of the Oracle text")
        modes.append(SpellMode(m.text, m.targets, read_effects(list(m.effects), where,
                                                               f"{f}.effects", len(m.targets))))
    choose = s.choose
    if len(modes) < 2 or not 1 <= choose <= len(modes):
        raise where.error("spell.modes", f"a modal spell has two or more modes and chooses 1 to "
                          f"{len(modes)} of them, got {len(modes)} modes, choose {choose}")
    return SpellAbility(modes=tuple(modes), mode_count=choose, divide=divide,
                        divide_doubled_from=s.divide_doubled_from)


def _cost_options(tables: tuple[CostOptionTable, ...], text: str,
                  where: Where) -> tuple[CostOption, ...]:
    """Optional additional and alternative costs (601.2b), each from ``COST_OPTIONS`` with its
    mana and the Oracle words it implements."""
    out = []
    for i, c in enumerate(tables):
        if not c.text or c.text not in text:
            raise where.error(f"cost_options[{i}].text", f"{c.text!r} is not in the Oracle text")
        option = COST_OPTIONS[c.name]
        if option.cast_for:
            # 702.37b/c (morph): cast for a cost of its own; the cost the card names turns it face up.
            out.append(CostOption(c.name, option.kind, parse_mana_cost(option.cast_for), option.zone, c.text, c.cost))
            continue
        out.append(CostOption(c.name, option.kind, c.cost, option.zone, c.text))
    if len({o.name for o in out}) != len(out):
        raise where.error("cost_options", "a cost option is named twice")
    return tuple(out)


def _multi_face(raw: Mapping[str, Any], source: str, token: bool) -> list[CardDefinition]:
    """A card of another layout: a definition for each face, half or Adventure (named by it,
    with ``card_name``), and one for the whole card as it is outside the stack and the
    battlefield: a split card with both halves' characteristics combined (709.4), an adventurer
    or a modal double-faced card with those of its first face (715.3, 712.8a)."""
    where = _where(raw, source)
    try:
        card = from_plain(MultiFaceTable, raw)
    except SchemaError as err:
        raise where.schema_error(err) from None
    name, layout = card.name, card.layout
    if len(card.face) != 2:
        raise where.error("face", f"a {layout} card has two faces, got {len(card.face)}")
    faces = [_card(f, source, token) for f in card.face]
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
    try:
        tables = from_plain(DataFile, data)
    except SchemaError as err:
        raise CardDefinitionError(f"{source}: {err}") from None
    for entries, token in ((tables.card, False), (tables.token, True)):
        for raw in entries:
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
