"""The layer engine: every permanent evaluated together in layer order (613.1), dependency
order within a layer (613.8), timestamps (613.7), objects off the battlefield (604.3), and the
cache lookups that answer ``characteristics``."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..definitions import StaticAbility
    from ..state import GameObject
    from ._host import LayerHost
from ..base import CARD_ZONES, COLOR_BY_WORD
from ..definitions import definition_named
from ..state import AbilityRef, Characteristics
from ._vocabulary import AFFECTED, LAYER_VERBS, LAYERS, RULE_EFFECT_VERBS, VALUES, ActiveEffect, copied_under
from ._working import Working, copy_working, freeze, merged_under, set_copied, set_face_down, set_printed, substitute


def _static_ability(game: LayerHost, ref: AbilityRef) -> StaticAbility | None:
    for ability in game.cards[ref.definition].static:
        if ability.position == ref.position:
            return ability
    return None


class _Board:
    """One evaluation of every permanent's characteristics (613.1)."""

    def __init__(self, game: LayerHost, ids: list[int], face: tuple[int, str] = (0, "")) -> None:
        """``face``: (an object id, the face it is evaluated with), for a card about to enter
        with another face up than the one it has now (712.12: a land face played)."""
        self.game = game
        st = game.state
        self.works: dict[int, Working] = {}
        for oid in ids:
            obj = st.objects[oid]
            w = Working(obj, obj.controller)
            if obj.face_down:
                set_face_down(w)
            else:
                set_printed(w, game.cards[face[1] if oid == face[0] else obj.name],
                            merged_under(game.cards, obj) if obj.merged else ())
            self.works[oid] = w
        self.sets: dict[tuple[int, int], list[int]] = {}  # started groups -> objects (613.6)
        self.carried: dict[str, list[ActiveEffect]] = {}  # later-layer effects of started groups
        self.records: dict[str, list[ActiveEffect]] = {}
        for rec in st.effects:
            if rec.verb in RULE_EFFECT_VERBS:
                continue  # 613.11: a rule-changing effect, in no layer
            src = st.objects.get(rec.source) or st.lki.get(rec.source)
            self.records.setdefault(LAYER_VERBS[rec.verb].layer, []).append(ActiveEffect(
                rec.verb, rec.args, (rec.timestamp, 0, rec.id), src, rec.source, rec.controller,
                rec.affected, "", None, (rec.id, -1)))

    def statics(self, layer: str) -> list[ActiveEffect]:
        """The static abilities' effects in ``layer`` whose groups have not started yet: those
        of abilities the permanents have now (604.2: on the battlefield)."""
        out: list[ActiveEffect] = []
        for w in self.works.values():
            for ref in w.abilities:
                if ref.kind != "static" or (w.obj.id, ref.position) in self.sets:
                    continue
                ability = _static_ability(self.game, ref)
                if ability is None:
                    continue
                for k, eff in enumerate(ability.effects):
                    if LAYER_VERBS[eff.verb].layer == layer:
                        out.append(ActiveEffect(eff.verb, eff.args,
                                           (w.obj.timestamp, 1, ref.position * 64 + k), w.obj,
                                           w.obj.id, w.controller, None, ability.affected, ref,
                                           (w.obj.id, ref.position), ability.color))
        return out

    def exists(self, eff: ActiveEffect, works: dict[int, Working]) -> bool:
        """613.8a: a static ability's effect exists while its source has the ability."""
        if eff.ability is None or eff.group in self.sets:
            return True
        w = works.get(eff.source_id)
        return w is not None and eff.ability in w.abilities

    def applies_to(self, eff: ActiveEffect, works: dict[int, Working], w: Working) -> bool:
        assert eff.source is not None
        src = works.get(eff.source_id)
        if eff.color:
            word = substitute(eff.color, src.text_changes if src is not None else [])
            if not isinstance(word, str) or COLOR_BY_WORD.get(word) not in w.colors:
                return False
        return AFFECTED[eff.where](self.game, eff.source,
                                   src.controller if src is not None else eff.controller, w)

    def targets(self, eff: ActiveEffect) -> list[Working]:
        if eff.affected is not None:
            return [self.works[i] for i in eff.affected if i in self.works]
        started = self.sets.get(eff.group)
        if started is not None:
            return [self.works[i] for i in started if i in self.works]
        if not self.exists(eff, self.works):
            return []
        return [w for w in self.works.values() if self.applies_to(eff, self.works, w)]

    def depends(self, a: ActiveEffect, b: ActiveEffect) -> bool:
        """613.8a: whether applying ``b`` would change ``a``'s existence, the set it applies to
        or what it does to them (only effects of static abilities not yet started can)."""
        if a.affected is not None or a.group in self.sets or a.cda != b.cda:
            return False
        for w in self.targets(b):
            trial = copy_working(w)
            b.apply(self.game, b, self.works, trial)
            works = dict(self.works)
            works[w.obj.id] = trial
            if self.exists(a, self.works) != self.exists(a, works):
                return True
            if self.exists(a, self.works):
                if self.applies_to(a, self.works, w) != self.applies_to(a, works, trial):
                    return True
        return False

    def apply(self, eff: ActiveEffect) -> None:
        objs = self.targets(eff)
        if eff.affected is None and eff.group not in self.sets:
            if not objs and not self.exists(eff, self.works):
                return
            # 613.6: the ability's effects in later layers apply to this same set.
            self.sets[eff.group] = [w.obj.id for w in objs]
            if eff.ability is not None:
                ability = _static_ability(self.game, eff.ability)
                assert ability is not None
                later = LAYERS[LAYERS.index(eff.layer) + 1:]
                for k, e in enumerate(ability.effects):
                    layer = LAYER_VERBS[e.verb].layer
                    if layer in later:
                        self.carried.setdefault(layer, []).append(ActiveEffect(
                            e.verb, e.args, (eff.order[0], 1, eff.ability.position * 64 + k),
                            eff.source, eff.source_id, eff.controller, None, eff.where,
                            eff.ability, eff.group, eff.color))
        for w in objs:
            eff.apply(self.game, eff, self.works, w)

    def run(self) -> dict[int, Working]:
        for layer in LAYERS:
            pending = self.records.get(layer, []) + self.carried.get(layer, []) + self.statics(layer)
            pending.sort(key=lambda e: e.order)
            while pending:
                pick = 0
                if len(pending) > 1 and any(e.affected is None for e in pending):
                    # 613.8b: apply an effect that depends on none of the others, earliest first;
                    # in a loop, timestamp order. 613.8c: reconsider after each one.
                    for i, a in enumerate(pending):
                        if not any(self.depends(a, b) for b in pending if b is not a):
                            pick = i
                            break
                self.apply(pending.pop(pick))
            if layer == "7c":
                for w in self.works.values():
                    # 613.4c: +1/+1 and -1/-1 counters.
                    n = w.obj.counters.get("+1/+1", 0) - w.obj.counters.get("-1/-1", 0)
                    if n and w.power is not None and w.toughness is not None:
                        w.power += n
                        w.toughness += n
                    elif n and "Creature" in w.card_types:
                        w.power = (w.power or 0) + n
                        w.toughness = (w.toughness or 0) + n
        return self.works


def _single(game: LayerHost, obj: GameObject) -> Characteristics:
    """An object off the battlefield: printed values and its characteristic-defining
    abilities (604.3); a face-down spell per 708.2a."""
    defn = game.cards[obj.name]
    if not (obj.face_down or defn.static) and not any(obj.id in rec.affected
                                                      for rec in game.state.effects):
        return _printed_values(game, obj)
    w = Working(obj, obj.controller)
    if obj.face_down:
        set_face_down(w)
        return freeze(w, game.cards)
    set_printed(w, defn)
    for rec in game.state.effects:
        if rec.verb == "copy_of" and obj.id in rec.affected:  # a spell entering as a copy
            of, excepted = rec.get("of"), rec.get("except_supertypes", ())
            assert isinstance(of, str) and isinstance(excepted, tuple)
            set_copied(w, definition_named(game.cards, of), tuple(t for t in excepted if isinstance(t, str)),
                       copied_under(game.cards, rec))
    cdas = [a for a in definition_named(game.cards, w.definition).static if a.is_cda]
    for ability in cdas:
        for eff in ability.effects:
            act = ActiveEffect(eff.verb, eff.args, (obj.timestamp, 1, ability.position), obj, obj.id,
                          obj.controller, (obj.id,), "self", None, (obj.id, ability.position))
            act.apply(game, act, {obj.id: w}, w)
    return freeze(w, game.cards)


def _printed_values(game: LayerHost, obj: GameObject) -> Characteristics:
    """A face-up permanent no effect touches: its printed values, its controller and counters
    (shared between objects and epochs: they depend on nothing else)."""
    plus, minus = obj.counters.get("+1/+1", 0), obj.counters.get("-1/-1", 0)
    key = (obj.name, obj.controller, plus - minus, obj.x if obj.zone == "stack" else 0,
           obj.bestowed, obj.except_supertypes)
    found = game.layer_caches.templates.get(key)
    if found is None:
        w = Working(obj, obj.controller)
        set_printed(w, game.cards[obj.name])
        if plus != minus and w.power is not None and w.toughness is not None:
            w.power += plus - minus
            w.toughness += plus - minus
        found = game.layer_caches.templates[key] = freeze(w, game.cards)
    return found


def _evaluate_battlefield(game: LayerHost) -> None:
    """Fill the cache for every permanent. With no static ability on the battlefield (nor a copy
    or granted ability that could bring one), effects touch only their locked objects, and every
    other permanent has its printed values: only the touched ones go through the layers."""
    st = game.state
    cache = game.layer_caches.layers
    cards = game.cards
    touched: set[int] = set()
    complex_board = False
    for rec in st.effects:
        touched.update(rec.affected)
        if rec.verb == "copy_of" or (rec.verb == "add_abilities" and rec.get("abilities")):
            complex_board = True
    ids = st.battlefield
    objects = st.objects
    evaluate: list[int] = []
    if not complex_board:
        # One pass: the printed values of every untouched permanent (its ``layer_templates``
        # entry, looked up here as ``_printed_values`` would: on the battlefield X is 0); a
        # static ability anywhere makes the whole board go through the layers instead (the
        # entries written so far are then overwritten below).
        templates = game.layer_caches.templates
        for oid in ids:
            obj = objects[oid]
            if obj.face_down or obj.merged:  # 708.2a, 725.2: not its printed values
                evaluate.append(oid)
                continue
            name = obj.name
            if cards[name].static:
                complex_board = True
                break
            if oid in touched:
                evaluate.append(oid)
                continue
            counters = obj.counters
            found = templates.get((name, obj.controller, counters.get("+1/+1", 0) - counters.get("-1/-1", 0)
                                   if counters else 0, 0, obj.bestowed, obj.except_supertypes))
            cache[oid] = found if found is not None else _printed_values(game, obj)
    if complex_board:
        evaluate = list(ids)
    if evaluate:
        for oid, w in _Board(game, evaluate).run().items():
            cache[oid] = freeze(w, game.cards)


def characteristics(game: LayerHost, obj: GameObject) -> Characteristics:
    """613: ``obj``'s characteristics now, every continuous effect applied in layer order.

    Objects on the battlefield are evaluated together (effects may depend on each other, 613.8);
    an object in another zone has its printed values with its characteristic-defining abilities
    applied (604.3); an object that has left the battlefield, its values as it last existed
    there (603.10, 608.2h). Cached until the epoch moves (``Game.changed``).
    """
    cache = game.layer_caches.layers
    found = cache.get(obj.id)
    if found is not None:
        return found
    found = game.layer_caches.stable.get(obj.id)
    if found is not None:
        cache[obj.id] = found
        return found
    st = game.state
    live = st.objects.get(obj.id)
    if live is None:
        last = st.lki_characteristics.get(obj.id)
        return last if last is not None else _single(game, obj)
    if live.zone == "battlefield":
        _evaluate_battlefield(game)
        found = cache.get(obj.id)
        if found is not None:
            return found
    found = _single(game, live)
    cache[obj.id] = found
    if (live.zone in CARD_ZONES and not live.face_down
            and not game.cards[live.name].static):
        # A card with no static ability in a hand, library, graveyard or exile keeps its printed
        # values until it changes zones (a new object, 400.7): no epoch can change them.
        game.layer_caches.stable[obj.id] = found
    return found


def reads_zone_sizes(game: LayerHost) -> bool:
    """Whether some object in the game has a static ability whose value counts cards in a zone
    (``VALUES``: Maro's "cards in your hand"): then every zone change moves the epoch."""
    caches = game.layer_caches
    if caches.reads_zones:
        return True  # once one reads, it stays so
    st = game.state
    if caches.zone_scan_id == st.next_id and not st.effects:
        return False  # nothing new since the last look
    # Only objects created since the last look (ids only grow): once one reads, it stays so.
    for oid in range(caches.zone_scan_id, st.next_id):
        obj = st.objects.get(oid)
        if obj is not None and _reads_values(game, obj.name):
            caches.reads_zones = True
            return True
    caches.zone_scan_id = st.next_id
    if st.effects and any(rec.verb == "copy_of" and rec.get("of") and _reads_values(game, str(rec.get("of")))
                          for rec in st.effects):
        caches.reads_zones = True
    return caches.reads_zones


def _reads_values(game: LayerHost, name: str) -> bool:
    """Whether a static ability of the card ``name`` counts cards in a zone (kept by name)."""
    found = game.layer_caches.value_readers.get(name)
    if found is None:
        found = game.layer_caches.value_readers[name] = any(
            isinstance(v, str) and v in VALUES and v != "mana_value"
            for a in game.cards[name].static for e in a.effects for _, v in e.args)
    return found


def as_it_would_enter(game: LayerHost, obj: GameObject, face: str = "") -> Characteristics:
    """614.12: the characteristics of ``obj`` (a card or spell about to enter the battlefield) as
    it would exist there: the continuous effects that already exist and would apply to it
    (Dress Down's "Creatures lose all abilities") and those of its own static abilities, with
    the permanents there now (not cached: nothing has entered yet). ``face``: the face it
    enters with, when not the one it has now (712.12: a modal double-faced card's land face)."""
    if obj.zone == "battlefield":
        return characteristics(game, obj)
    ids = [*game.state.battlefield, obj.id]
    return freeze(_Board(game, ids, (obj.id, face) if face else (0, "")).run()[obj.id], game.cards)
