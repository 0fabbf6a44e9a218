"""Restrictions and permissions (101.2): static "can't" and "may" abilities, checked where an
action is legal or not.

A card's static abilities of these kinds are data (``CardDefinition.restrictions`` and
``permissions``), each a kind from a closed registry here, checked when the card is loaded. They
apply while their source is on the battlefield (113.6). 101.2: when a rule or effect allows
something and another forbids it, the "can't" wins, so every check asks the restrictions even
when a permission allowed the action. A refusal names the effect and the rule where it applies,
``Worms of the Earth: Players can't play lands (305.1)``; a refused action reads
``101.2: Worms of the Earth: Players can't play lands (305.1); Forest can't be played``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Final

from ..definitions import COST_OPTIONS, CardDefinition, CostOption, Permission, Restriction
from ..game import EXILE_LOOK_RULE, TOP_CARD_RULE, Game
from ..mana import ManaCost
from ..state import ContinuousEffect, GameObject, player_ref

RESTRICTION_KINDS: Final[dict[str, str]] = {
    "cant_cast": "601.2e",
    "cant_attack": "508.1c",
    "cant_block": "509.1b",
    "cant_attack_or_block": "508.1c",
    "cant_play_lands": "305.1",
    "cant_enter": "608.3e",
    "cant_be_countered": "701.5",
    # "can cast spells only any time they could cast a sorcery" (Teferi, Time Raveler): also
    # a spell cast while another resolves (608.2g), when the stack is never empty.
    "cast_only_as_sorcery": "307.1",
}
"""The closed registry of restriction kinds, each with the rule where it is checked."""

PERMISSION_KINDS: Final[dict[str, str]] = {
    "cast_as_though_flash": "702.8a",
    "cast_from": "601.2a",
    "play_lands_from": "305.1",
    "grant_cost": "601.3e",
    "look_at_top": "400.2",
    "top_revealed": "400.2",
    "look_at_face_down_exile": "406.3",
}
"""The closed registry of permission kinds, each with the rule it modifies: casting as though
a spell had flash; casting from a zone (``zone``; a library: its top card only); playing lands
from a zone; a cost option a card in a zone has (``grant_cost``: Lier's "each instant and
sorcery card in your graveyard has flashback", the cost its mana cost); looking at the top card
of one's library any time; the top card of one's library revealed to every player."""

RESTRICTION_PLAYERS: Final[frozenset[str]] = frozenset({"you", "opponents", "each"})
"""Whose actions a restriction or permission is about, relative to its source's controller."""

RESTRICTION_OBJECTS: Final[frozenset[str]] = frozenset({"", "enchanted", "equipped", "self"})
"""Which permanents a restriction names: the one its source is attached to, the source, or
(empty) every object the filter admits."""

Filter = Callable[[Game, GameObject, GameObject, int], bool]
"""(game, object, the restriction's source, X) -> whether the object is one it is about."""


def _exiled_with(game: Game, source: GameObject) -> set[str]:
    """607.2a: names of the cards exiled with ``source`` (linked abilities)."""
    return {game.state.objects[i].name for i in game.state.exile
            if game.state.objects[i].exiled_by == source.id}


def _mana_value(game: Game, obj: GameObject, x: int) -> int:
    cost = game.characteristics(obj).mana_cost
    return cost.mana_value(x) if cost is not None else 0


RESTRICTION_FILTERS: Final[dict[str, Filter]] = {
    "any": lambda game, obj, source, x: True,
    # 202.3, 601.2e: as the spell would be on the stack, with its chosen X.
    "even_mana_value": lambda game, obj, source, x: _mana_value(game, obj, x) % 2 == 0,
    "same_name_as_exiled": lambda game, obj, source, x: obj.name in _exiled_with(game, source),
    "aura_or_equipment": lambda game, obj, source, x: (
        (game.is_type(obj, "Enchantment") and "Aura" in game.subtypes(obj))
        or (game.is_type(obj, "Artifact") and "Equipment" in game.subtypes(obj))),
    "land": lambda game, obj, source, x: game.is_type(obj, "Land"),
    "creature": lambda game, obj, source, x: game.is_creature(obj),
    "equipment": lambda game, obj, source, x: (game.is_type(obj, "Artifact")
                                               and "Equipment" in game.subtypes(obj)),
    "instant_or_sorcery": lambda game, obj, source, x: (game.is_type(obj, "Instant")
                                                        or game.is_type(obj, "Sorcery")),
    "sorcery": lambda game, obj, source, x: game.is_type(obj, "Sorcery"),
    "instant_or_sorcery_two_colors": lambda game, obj, source, x: (
        (game.is_type(obj, "Instant") or game.is_type(obj, "Sorcery"))
        and len(game.colors(obj)) == 2),
}
"""The closed registry of filters a restriction or permission may name."""

_FACE_FILTERS: Final[dict[str, Callable[[CardDefinition], bool]]] = {
    "any": lambda face: True,
    "creature": lambda face: "Creature" in face.card_types,
    "instant_or_sorcery": lambda face: bool({"Instant", "Sorcery"} & set(face.card_types)),
    "sorcery": lambda face: "Sorcery" in face.card_types,
    "instant_or_sorcery_two_colors": lambda face: (
        bool({"Instant", "Sorcery"} & set(face.card_types)) and len(face.colors) == 2),
    "aura_or_equipment": lambda face: (
        ("Enchantment" in face.card_types and "Aura" in face.subtypes)
        or ("Artifact" in face.card_types and "Equipment" in face.subtypes)),
}
"""601.3e: the filters a permission may test against the face, half or Adventure a card would
be cast as, with the characteristics that face would have (Melek lets Chop Down be cast from
the top of a library, not Giant Killer; Niv-Mizzet gives jump-start to Crime, exactly two
colours, not to Fire, one)."""


def _admits(game: Game, p: Permission, obj: GameObject, source: GameObject,
            face: CardDefinition | None) -> bool:
    """Whether the permission's filter admits ``obj`` cast as ``face`` (601.3e), or as it is."""
    return _filter_admits(game, p.filter, obj, source, face)


def _filter_admits(game: Game, word: str, obj: GameObject, source: GameObject,
                   face: CardDefinition | None) -> bool:
    if face is not None and word in _FACE_FILTERS:
        return _FACE_FILTERS[word](face)
    return RESTRICTION_FILTERS[word](game, obj, source, 0)


def _flash_effects(game: Game, seat: int) -> list[ContinuousEffect]:
    """613.11/702.8a: the resolved effects now letting ``seat`` cast spells as though they had
    flash ("until your next turn, you may cast sorcery spells as though they had flash")."""
    effects = game.state.effects
    if not effects:
        return []
    ref = player_ref(seat)
    return [rec for rec in effects if rec.verb == "cast_as_though_flash" and ref in rec.affected]


_PERMITTING_EFFECTS: Final = frozenset({"cast_as_though_flash", "may_play"})
"""The verbs of resolved spells' and abilities' effects that permit something (613.11)."""


def may_play(game: Game, seat: int, obj: GameObject) -> bool:
    """613.11: whether a resolved spell or ability's effect lets ``seat`` play ``obj``, a card
    in exile ("you may play the exiled cards until the end of your next turn"): the effect's
    controller may, while it lasts; it locked onto that object (a new object, 400.7, is not)."""
    effects = game.state.effects
    return bool(effects) and any(rec.verb == "may_play" and rec.controller == seat
                                 and obj.id in rec.affected for rec in effects)


def play_tax(game: Game, seat: int, obj: GameObject) -> str:
    """601.2f: what a ``may_play`` effect that lets ``seat`` play ``obj`` adds to the cost of a
    spell cast that way ("a spell cast this way costs {2} more to cast"), as printed; empty for
    none."""
    effects = game.state.effects
    if not effects or obj.zone != "exile":
        return ""
    for rec in effects:
        if rec.verb == "may_play" and rec.controller == seat and obj.id in rec.affected:
            more = dict(rec.args).get("costs_more")
            if isinstance(more, str) and more:
                return more
    return ""


def _applies_to_player(game: Game, word: str, source: GameObject, seat: int) -> bool:
    you = game.controller(source)
    if word == "you":
        return seat == you
    if word == "opponents":
        return seat != you
    return True


def _has_rule(defn: CardDefinition, position: int) -> bool:
    return (any(r.position == position for r in defn.restrictions)
            or any(p.position == position for p in defn.permissions))


GRANTING_VERBS: Final[frozenset[str]] = frozenset({"copy_of", "add_abilities"})
"""Layer verbs that can give an object abilities its card does not print (707.2, 613.1f)."""


def kinds_seen(game: Game) -> frozenset[str]:
    """The kinds of ability printed on the cards of every object the game has had: the events of
    their triggered abilities, ``rules`` (a restriction or permission), ``grants`` (a static
    ability that copies or gives abilities, 707.2, 613.1f; also for an object whose card is not
    known) and the card keys of mechanics they have (a mechanic's turn-based and state-based
    actions look for its permanents only in a game with such a card). Every ability a permanent
    can have is printed on one of them (a copy's and a granted one come from an object's card),
    unless an effect in ``GameState.effects`` copies or grants. Kept on the game and brought up
    to date with the objects made since (ids only grow)."""
    st = game.state
    start, end = game.caches.kinds_scan_id, st.next_id
    seen = game.caches.kinds_seen
    if start == end:
        return seen
    cards, objects, lki = game.cards, st.objects, st.lki
    for oid in range(start, end):
        obj = objects.get(oid) or lki.get(oid)
        if obj is None:
            continue  # not an object's id (a delayed trigger's; every object left keeps its LKI)
        defn = cards.get(obj.name)
        if defn is None:
            kinds = {"grants"}
        elif not (defn.triggered or defn.static or defn.restrictions or defn.permissions
                  or defn.mechanic_keys):
            continue  # most cards: nothing to note (no set made)
        else:
            kinds = {a.event for a in defn.triggered}
            kinds.update(key for key, _ in defn.mechanic_keys)
            if defn.restrictions or defn.permissions:
                kinds.add("rules")
            if any(e.verb in GRANTING_VERBS for a in defn.static for e in a.effects):
                kinds.add("grants")
        if not seen.issuperset(kinds):
            seen = seen | kinds
    game.caches.kinds_scan_id = end
    game.caches.kinds_seen = seen
    return seen


def abilities_as_printed(game: Game) -> bool:
    """Whether every permanent's abilities now are among those printed on the cards of the
    game's objects (``kinds_seen`` tells of which kinds): no object's card prints a static
    ability that copies or grants abilities, and no continuous effect of a resolved spell or
    ability does either. Then an ability of a kind no card prints exists nowhere, with no need to
    evaluate the board's layers to know it."""
    effects = game.state.effects
    return ("grants" not in kinds_seen(game)
            and not (effects and any(rec.verb in GRANTING_VERBS for rec in effects)))


def _static_refs(game: Game) -> tuple[tuple[int, str, int], ...]:
    """(object id, definition name, position) of every static ability permanents have now that
    is a restriction or a permission (others never matter here: leaving them out keeps the usual
    board's tuple empty, so the callers' loops cost nothing)."""
    found = game.caches.static_rules.get(game.caches.epoch)
    if found is None:
        # Cached per epoch: entering, leaving and every effect on abilities move the epoch.
        st = game.state
        cards, objects = game.cards, st.objects
        if "rules" not in kinds_seen(game) and abilities_as_printed(game):
            found = ()  # no card of the game prints one: the board is not looked at
        else:
            found = tuple((oid, ref.definition, ref.position) for oid in st.battlefield
                          for ref in game.abilities(objects[oid]) if ref.kind == "static"
                          and _has_rule(cards[ref.definition], ref.position))
        game.caches.static_rules.clear()
        game.caches.static_rules[game.caches.epoch] = found
    return found


def _statics(game: Game) -> Iterator[tuple[GameObject, CardDefinition, int]]:
    """(permanent, definition, position) of every restriction or permission permanents have now:
    after layer 1 (a copy has the copied card's) and layer 6 (one that lost it has none)."""
    st = game.state
    for oid, name, position in _static_refs(game):
        obj = st.objects.get(oid)
        if obj is not None and obj.zone == "battlefield":
            yield obj, game.cards[name], position


def _sources(game: Game) -> Iterable[tuple[GameObject, Restriction]]:
    # The usual board has no restriction at all: no generator is even started.
    return _each_source(game) if _static_refs(game) else ()


def _each_source(game: Game) -> Iterator[tuple[GameObject, Restriction]]:
    for obj, defn, position in _statics(game):
        for r in defn.restrictions:
            if r.position == position:
                yield obj, r


def _permissions(game: Game) -> Iterable[tuple[GameObject, Permission]]:
    return _each_permission(game) if _static_refs(game) else ()


def _each_permission(game: Game) -> Iterator[tuple[GameObject, Permission]]:
    for obj, defn, position in _statics(game):
        for p in defn.permissions:
            if p.position == position:
                yield obj, p


def _refusal(source: GameObject, r: Restriction, rule: str = "") -> str:
    """``SOURCE: its text (the rule where it applies)``; callers put ``101.2:`` in front."""
    return f"{source.name}: {r.text.rstrip('.')} ({rule or RESTRICTION_KINDS[r.kind]})"


def _names(source: GameObject, r: Restriction, obj: GameObject) -> bool:
    """Whether the restriction's object word covers ``obj``."""
    if r.objects in ("enchanted", "equipped"):
        return source.attached_to == obj.id
    if r.objects == "self":
        return source.id == obj.id
    return True


def cast_refusal(game: Game, seat: int, obj: GameObject, x: int = 0,
                 face: CardDefinition | None = None) -> str | None:
    """601.2e/101.2: why ``seat`` can't cast ``obj`` (with X = ``x``) now, or None. ``face``:
    the face, half or Adventure proposed (601.3e), whose mana value the spell would have
    (709.3, 715.3b); None for the card as it is."""
    for source, r in _sources(game):
        if r.kind != "cant_cast" or not _applies_to_player(game, r.players, source, seat):
            continue
        if face is not None and r.filter == "even_mana_value":
            hit = (face.mana_cost.mana_value(x) if face.mana_cost else 0) % 2 == 0
        else:
            hit = RESTRICTION_FILTERS[r.filter](game, obj, source, x)
        if hit:
            return _refusal(source, r)
    return None


def timing_refusal(game: Game, seat: int, obj: GameObject) -> str | None:
    """307.1/101.2: why ``seat`` can't cast ``obj`` now that they could not cast a sorcery
    (a restriction lets them cast spells only then), or None. The caller asks only when the
    timing is not a sorcery's."""
    for source, r in _sources(game):
        if (r.kind == "cast_only_as_sorcery" and _applies_to_player(game, r.players, source, seat)
                and RESTRICTION_FILTERS[r.filter](game, obj, source, 0)):
            return _refusal(source, r)
    return None


def play_land_refusal(game: Game, seat: int) -> str | None:
    """305.1/101.2: why ``seat`` can't play lands now, or None."""
    for source, r in _sources(game):
        if r.kind == "cant_play_lands" and _applies_to_player(game, r.players, source, seat):
            return _refusal(source, r)
    return None


_WORDS: Final[dict[str, str]] = {"cant_block": "can't block", "cant_attack": "can't attack"}


def _combat_refusal(game: Game, obj: GameObject, kinds: tuple[str, ...],
                    rule: str) -> str | None:
    effects = game.state.effects
    if effects:
        # 613.11: a resolved spell or ability's "target creature can't block this turn".
        for rec in effects:
            if rec.verb in kinds and obj.id in rec.affected:
                when = " this turn" if rec.duration == "end_of_turn" else ""
                return f"{rec.source_name}: {obj.name} {_WORDS[rec.verb]}{when} ({rule})"
    for source, r in _sources(game):
        if (r.kind in kinds and _applies_to_player(game, r.players, source, game.controller(obj))
                and _names(source, r, obj) and RESTRICTION_FILTERS[r.filter](game, obj, source, 0)):
            return _refusal(source, r, rule)
    return None


def attack_refusal(game: Game, obj: GameObject) -> str | None:
    """508.1c: why ``obj`` can't attack, or None."""
    return _combat_refusal(game, obj, ("cant_attack", "cant_attack_or_block"), "508.1c")


def block_refusal(game: Game, obj: GameObject) -> str | None:
    """509.1b: why ``obj`` can't block, or None."""
    return _combat_refusal(game, obj, ("cant_block", "cant_attack_or_block"), "509.1b")


_TYPE_FILTERS: Final[dict[str, str]] = {"land": "Land", "creature": "Creature"}


def enter_refusal(game: Game, obj: GameObject,
                  card_types: tuple[str, ...] | None = None) -> str | None:
    """608.3e: why ``obj`` can't enter the battlefield, or None. ``card_types``: the card types
    it would enter with when that differs from what it is now (614.12: an "enter as a copy"
    replacement, e.g. Clone copying Dryad Arbor, is applied first; the caller passes the
    result)."""
    for source, r in _sources(game):
        if r.kind != "cant_enter":
            continue
        if card_types is not None and r.filter in _TYPE_FILTERS:
            hit = _TYPE_FILTERS[r.filter] in card_types
        else:
            hit = RESTRICTION_FILTERS[r.filter](game, obj, source, 0)
        if hit:
            return _refusal(source, r)
    return None


def flash_permitted(game: Game, seat: int, obj: GameObject,
                    face: CardDefinition | None = None) -> bool:
    """702.8a: whether an effect lets ``seat`` cast ``obj`` as though it had flash (a static
    ability's, or a resolved spell or ability's: Teferi, Time Raveler's +1, 613.11); 601.3b: as
    ``face``, the characteristics the spell would have as announced (a bestowed creature card
    is an Aura spell, 702.103b), when given."""
    for rec in _flash_effects(game, seat):  # 613.11: a resolved spell or ability's permission
        source = game.state.objects.get(rec.source) or game.state.lki.get(rec.source) or obj
        if _filter_admits(game, str(rec.get("filter", "any")), obj, source, face):
            return True
    if not _static_refs(game):
        return False
    return any(p.kind == "cast_as_though_flash" and _applies_to_player(game, p.players, source, seat)
               and _admits(game, p, obj, source, face) for source, p in _permissions(game))


def _on_top(game: Game, obj: GameObject) -> bool:
    return game.state.players[obj.owner].library[:1] == [obj.id]


def cast_permitted_from(game: Game, seat: int, obj: GameObject,
                        face: CardDefinition | None = None) -> bool:
    """601.2a/601.3: whether an effect lets ``seat`` cast ``obj`` (as ``face``, 601.3e, or as
    it is) from the zone it is in (its hand needs no permission)."""
    if obj.zone == "hand":
        return obj.owner == seat
    if obj.zone == "library" and not _on_top(game, obj):
        return False  # only the top card of a library is ever castable
    if obj.zone == "exile" and may_play(game, seat, obj):
        return True
    if obj.face_down:
        # 601.3f: from among cards exiled face down, only one the player may look at.
        return obj.zone == "exile" and face_down_exile_seen(game, seat, obj) and any(
            p.kind == "cast_from" and p.face_down and _applies_to_player(game, p.players, source, seat)
            and _admits(game, p, obj, source, face) for source, p in _permissions(game))
    return any(p.kind == "cast_from" and p.zone == obj.zone and not p.face_down
               and _applies_to_player(game, p.players, source, seat) and obj.owner == seat
               and _admits(game, p, obj, source, face) for source, p in _permissions(game))


def cast_permitted_somehow(game: Game, seat: int, obj: GameObject) -> bool:
    """Whether ``seat`` may begin to cast ``obj`` from outside their hand as one of its faces
    by an effect (601.3, 601.3e): a permission to cast it from its zone, or a cost option an
    effect gives it there (``granted_costs``)."""
    faces = [game.cards[n] for n in game.cards[obj.name].faces] or [game.cards[obj.name]]
    return any(cast_permitted_from(game, seat, obj, f) or granted_costs(game, seat, obj, f)
               for f in faces)


def granted_costs(game: Game, seat: int, obj: GameObject,
                  face: CardDefinition) -> tuple[CostOption, ...]:
    """601.3e/702.34a: the cost options effects give ``obj`` where it is, for ``seat`` casting it
    as ``face``: Lier's flashback (its cost ``face``'s mana cost) for an instant or sorcery card
    in its controller's graveyard; Niv-Mizzet's jump-start for one of exactly two colours."""
    if obj.owner != seat or not _static_refs(game):
        return ()
    out: list[CostOption] = []
    for source, p in _permissions(game):
        if (p.kind == "grant_cost" and p.zone == obj.zone
                and _applies_to_player(game, p.players, source, seat)
                and _admits(game, p, obj, source, face) and face.mana_cost is not None
                and all(o.name != p.cost for o in (*face.cost_options, *out))):
            kind = COST_OPTIONS[p.cost].kind
            out.append(CostOption(p.cost, kind, face.mana_cost if kind == "alternative"
                                  else ManaCost(()), p.zone, f"{source.name}: {p.text}"))
    return tuple(out)


def land_play_permitted_from(game: Game, seat: int, obj: GameObject) -> bool:
    """305.1: whether an effect lets ``seat`` play the land ``obj`` from where it is (Future
    Sight: the top of their library; ``may_play``: a card in exile); their hand needs none."""
    if obj.zone == "hand":
        return obj.owner == seat
    if obj.zone == "exile" and may_play(game, seat, obj):
        return True
    if obj.zone != "library" or not _on_top(game, obj) or obj.owner != seat:
        return False
    return any(p.kind == "play_lands_from" and p.zone == obj.zone
               and _applies_to_player(game, p.players, source, seat)
               for source, p in _permissions(game))


def countering_refusal(game: Game, spell: GameObject) -> str | None:
    """101.2/701.5: why ``spell`` can't be countered now ("Spells can't be countered."), or
    None."""
    for source, r in _sources(game):
        if r.kind == "cant_be_countered" and RESTRICTION_FILTERS[r.filter](game, spell, source, 0):
            return _refusal(source, r)
    return None


def has_permissions(game: Game) -> bool:
    """Whether any permission applies at all now (a cheap test for the fast paths): a static
    one, or a resolved spell or ability's (613.11, ``_flash_effects``)."""
    effects = game.state.effects
    if effects and any(rec.verb in _PERMITTING_EFFECTS for rec in effects):
        return True
    if not _static_refs(game):
        return False  # the usual board: no restriction or permission at all
    return next(iter(_permissions(game)), None) is not None


def top_card_seen(game: Game, owner: int) -> tuple[bool, bool]:
    """``Game.top_card_seen``: whether ``owner`` may look at the top card of their library any
    time (a ``look_at_top`` permission of a permanent they control: Garruk's Horde, Melek), and
    whether it is revealed to everyone (``top_revealed``: Future Sight). 400.2 otherwise."""
    if not _static_refs(game):
        return False, False
    look = revealed = False
    for source, p in _permissions(game):
        if p.kind in ("look_at_top", "top_revealed") and game.controller(source) == owner:
            if p.kind == "look_at_top":
                look = True
            else:
                revealed = True
    return look or revealed, revealed


def face_down_exile_seen(game: Game, seat: int, obj: GameObject) -> bool:
    """``Game.face_down_exile_seen``: whether ``seat`` may look at ``obj``, a card exiled face
    down (406.3: nobody may, unless an effect lets its owner: ``look_at_face_down_exile``)."""
    if not _static_refs(game) or obj.owner != seat:
        return False
    return any(p.kind == "look_at_face_down_exile" and game.controller(source) == seat
               for source, p in _permissions(game))


TOP_CARD_RULE[:] = [top_card_seen]
EXILE_LOOK_RULE[:] = [face_down_exile_seen]
