"""Replacement and prevention effects (614, 615), and the order several of them apply in (616.1).

A replacement effect watches for an event and changes it before it happens (614.1, 614.6): the
modified event is what happens, and the original never does. The events the kernel routes
through here, and what can replace them:

- **a zone change** (``MoveEvent``; ``_zones.move_object``): "instead put it into ..." (the
  resolving spell's own text, 614.15 self-replacement, e.g. Memory Lapse's counter; or a static
  ``to_graveyard`` ability); how a permanent enters (614.1c/d, 614.12): tapped, with counters
  (the entering card's static ``enters`` ability, or the moving effect's own "with a +1/+1
  counter on it" as for undying and persist, 702.93a, 702.79a), and "you may have it enter as a
  copy" (614.1c, 707.2: Clone's, a choice however it enters; ``MoveEvent.copy_of``);
- **destruction** (``DestroyEvent``; ``destroy_permanent``: the ``destroy`` verb and the
  state-based actions 704.5g/704.5h): a regeneration shield (701.15a) replaces it with "tap it,
  remove all damage from it, remove it from combat", unless the destruction says it "can't be
  regenerated" (701.15c); 704.5f (toughness 0) is not destruction and is never replaced;
- **damage** (``prevent_damage``; ``_zones.deal_damage``): "prevent the next N damage that would
  be dealt to X this turn" shields (615.7) reduce it;
- **losing the game** (``LossEvent``; ``replace_loss``, used by ``state_based_actions``): "if
  you would lose the game, instead ..." (Lich's Mirror). 704.7: several reasons to lose in one
  batch of state-based actions are one event, replaced once.

Sources: static abilities of cards (``CardDefinition.replacements``, card data
``[[card.replacement]]``: ``event`` from ``REPLACEMENT_EVENTS``), resolved spells and abilities
(``GameState.shields``: ``regenerate`` and ``prevent_damage`` verbs, for this turn), and rules
(undying/persist return "with a counter", an argument of the moving effect).

616.1: when several apply, the affected object's controller (or the affected player) chooses
one (a ``choose`` Decision: one option per effect, named by its text and source), it applies,
and the rest are checked again against the modified event (616.1f); 614.5: each applies once to
an event. Self-replacement effects go first (616.1a). Effects that read the same do the same,
so no question is asked among them (the oldest is used). A caller that cannot ask (``move_object``
in a plain function) takes them in timestamp order; the state-based actions and resolving
destroy effects ask. Prevention shields apply oldest first without a question (they differ only
in how much they prevent).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from ..base import reset_rare
from ..definitions import Effect, ReplacementAbility, definition_named
from ..game import Game
from ..layers import AFFECTED, Working, as_it_would_enter, characteristics
from ..state import (
    AbilityRef,
    Answer,
    Choice,
    GameObject,
    Proc,
    Shield,
    is_player_ref,
    player_ref,
    seat_of_ref,
)
from ..views import ask_choose, ask_yes_no, visible_name

REPLACEMENT_EVENTS: frozenset[str] = frozenset({"enters", "to_graveyard", "lose_game"})
"""The events a card's static replacement ability may watch (its ``event``)."""

E = TypeVar("E")


@dataclass(frozen=True, slots=True)
class MoveEvent:
    """A zone change about to happen (400.7): what moves where, and how it enters (614.1c)."""

    object_id: int
    """The moving object."""
    from_zone: str
    """Where it is."""
    to_zone: str
    """Where it goes."""
    top: bool = True
    """For a library: on top (else the bottom)."""
    shuffle: bool = False
    """For a library: its owner shuffles it in ("shuffle it into its owner's library")."""
    counters: tuple[tuple[str, int], ...] = ()
    """For the battlefield: it enters with these counters (122.6, 614.1c)."""
    tapped: bool = False
    """For the battlefield: it enters tapped (614.1c)."""
    face: str = ""
    """For the battlefield: the face it enters with when not the one it has now (712.12: a
    modal double-faced card's land face played); its abilities are that face's (614.12)."""
    copy_of: int = 0
    """For the battlefield: it enters as a copy of this permanent (614.1c, 707.2: Clone's "you
    may have it enter as a copy", ``_enters_as_copy``); 0: as itself."""
    controller: int = -1
    """For the battlefield: the player it enters under, who makes its "as it enters" choices
    (614.12); -1: its controller now."""
    protector: int = -1
    """For the battlefield: the battle's protector, chosen as it enters (310.11a, 614.12); -1:
    none chosen."""


@dataclass(frozen=True, slots=True)
class DestroyEvent:
    """A permanent would be destroyed (701.7)."""

    object_id: int
    """The permanent."""
    regenerate: bool = True
    """False: "it can't be regenerated" (701.15c): regeneration shields don't apply."""
    regenerated: bool = False
    """A regeneration shield replaced it: the permanent stays (701.15a)."""


@dataclass(frozen=True, slots=True)
class LossEvent:
    """A player would lose the game (104.3), for every reason of one batch at once (704.7)."""

    seat: int
    """The player."""
    reasons: tuple[str, ...]
    """Why (each rule's words)."""
    instead: tuple[Effect, ...] = ()
    """What happens instead, once replaced (614.1a)."""
    instead_source: int = 0
    """The object id whose ability replaced it."""
    instead_position: int = 0
    """That ability's position on its source."""

    @property
    def replaced(self) -> bool:
        """Whether a replacement effect replaced the loss."""
        return bool(self.instead)


@dataclass(frozen=True, slots=True)
class Replacement(Generic[E]):
    """One replacement effect that would apply to an event now."""

    key: str
    """Identifies the effect: each applies once to an event (614.5)."""
    source: int
    """The object id (or player ref) it comes from, for the choice (616.1)."""
    text: str
    """What it says, for the choice and the log."""
    timestamp: int
    """613.7: the default order when nobody is asked."""
    apply: Callable[[Game, E], E]
    """The modified event (and whatever the replacement itself does at once)."""
    self_replacement: bool = False
    """614.15: part of the spell or ability that causes the event; applied first (616.1a)."""
    ask: Callable[[Game, E], Proc[E]] | None = None
    """For a replacement whose application asks its controller a question (614.12: "As it
    enters, you may pay 3 life. If you don't, it enters tapped"): the procedure that asks and
    returns the modified event. Where nobody can be asked, ``apply`` is its default answer."""


def run_sync(proc: Proc[E]) -> E:
    """The value of a procedure that is known not to ask anything."""
    try:
        next(proc)
    except StopIteration as stop:
        value: E = stop.value
        return value
    raise AssertionError("a replacement asked a question where nobody can be asked")


def apply_replacements(game: Game, event: E, found: Callable[[Game, E], list[Replacement[E]]],
                       chooser: int, *, ask: bool = True) -> Proc[E]:
    """616.1: apply the replacement effects ``found`` gives for the event, one at a time.

    ``chooser``: the seat who chooses (the affected object's controller or the affected
    player). Self-replacement effects come first (616.1a); among several that read differently
    the chooser is asked which applies first (``ask``; otherwise timestamp order). After each,
    the others are found again for the modified event (616.1f): one that no longer applies is
    skipped, and none applies twice (614.5).
    """
    used: set[str] = set()
    while True:
        candidates = [r for r in found(game, event) if r.key not in used]
        if not candidates:
            return event
        selfs = [r for r in candidates if r.self_replacement]
        pool = sorted(selfs or candidates, key=lambda r: r.timestamp)
        chosen = pool[0]
        st = game.state
        if (ask and len({r.text for r in pool}) > 1 and 0 <= chooser < len(st.players)
                and not st.players[chooser].lost):
            choices = tuple(Choice(i, r.source, r.text) for i, r in enumerate(pool))
            reply = yield game.decision(
                chooser, "choose", "616.1: choose the replacement effect to apply first",
                choices=choices, min=1, max=1)
            assert isinstance(reply, Answer)
            chosen = pool[reply.keys[0]]
        used.add(chosen.key)
        if ask and chosen.ask is not None:
            event = yield from chosen.ask(game, event)
            continue
        game.log("replace", f"replacement effect (614.6): {chosen.text}", subject=chosen.source)
        event = chosen.apply(game, event)


# ---------------------------------------------------------------------- zone changes


def redirect(text: str, source: int, to_zone: str, *, from_zone: str = "",
             only_to: str = "graveyard", top: bool = True,
             shuffle: bool = False) -> Replacement[MoveEvent]:
    """A self-replacement effect of the effect that moves the object: "put it ``to_zone``
    instead of into its ``only_to``" (614.1a, 614.15), e.g. Memory Lapse's counter. It changes
    nothing for a move it doesn't fit."""

    def apply(game: Game, ev: MoveEvent) -> MoveEvent:
        if ev.to_zone != only_to or (from_zone and ev.from_zone != from_zone):
            return ev
        return replace(ev, to_zone=to_zone, top=top, shuffle=shuffle)

    return Replacement(f"self:{source}:{to_zone}", source, text, 0, apply, self_replacement=True)


def _static(game: Game, obj: GameObject, event: str, face: str = "") -> list[ReplacementAbility]:
    """The static replacement abilities ``obj`` has now for ``event``: after layer 6 (one removed
    there makes no replacement effect) and, for a card about to enter, as it would exist on the
    battlefield (614.12, ``as_it_would_enter``: with the face it enters with, ``face``: the
    copied permanent's for one entering as a copy, ``entering_face``, and the effects that
    would apply to it there)."""
    c = game.characteristics(obj)
    defn = definition_named(game.cards, face or c.definition)
    found = [r for r in defn.replacements if r.event == event]
    if not found:
        return found
    if event == "enters" and obj.zone != "battlefield":
        c = as_it_would_enter(game, obj, face)
        defn = definition_named(game.cards, c.definition)
        return [r for r in defn.replacements
                if r.event == event and AbilityRef(defn.name, "static", r.position) in c.abilities]
    return [r for r in found if game.has_ability(obj, "static", r.position, defn.name)]


def _redirect_static(obj: GameObject, rep: ReplacementAbility) -> Replacement[MoveEvent]:
    def apply(game: Game, ev: MoveEvent) -> MoveEvent:
        return replace(ev, to_zone=rep.zone, top=True, shuffle=rep.zone == "library")

    return Replacement(f"static:{obj.id}:{rep.position}", obj.id, f"{obj.name}: {rep.text}",
                       obj.timestamp, apply)


def _opponents(game: Game, seat: int) -> list[int]:
    """310.11a: who may protect a battle entering under ``seat``: their opponents still in the
    game, in turn order."""
    st = game.state
    return [s for s in st.apnap() if s != seat and not st.players[s].lost]


def _enters_static(obj: GameObject, rep: ReplacementAbility, face: str = "") -> Replacement[MoveEvent]:
    text = f"{face or obj.name}: {rep.text}"

    def entering(ev: MoveEvent) -> MoveEvent:
        counters = dict(ev.counters)
        for kind, n in rep.counters:
            counters[kind] = counters.get(kind, 0) + n
        return replace(ev, counters=tuple(sorted(counters.items())),
                       tapped=ev.tapped or rep.tapped)

    def apply(game: Game, ev: MoveEvent) -> MoveEvent:
        if rep.choose_protector:  # nobody to ask: the first opponent in turn order
            seats = _opponents(game, game.controller(obj) if ev.controller < 0 else ev.controller)
            ev = replace(ev, protector=seats[0] if seats else -1)
        return entering(ev)

    def ask(game: Game, ev: MoveEvent) -> Proc[MoveEvent]:
        # 614.12: the choice is made as it enters, by the player who controls the card (616.1;
        # the one who plays it). 119.4: life can be paid only by a player whose life total is at
        # least the payment; paying it is losing it (119.3).
        seat = game.controller(obj) if ev.controller < 0 else ev.controller
        player = game.state.players[seat]
        if rep.choose_protector:
            # 310.11a: its controller chooses one of their opponents to protect it (asked only
            # if there are several; with none, it has no protector and 704.5w puts it into
            # its owner's graveyard).
            name = face or obj.name
            refs = [player_ref(s) for s in _opponents(game, seat)]
            picked = yield from ask_choose(game, seat, f"310.11a: choose an opponent to protect "
                                           f"{name}", refs, 1, 1)
            if picked:
                ev = replace(ev, protector=seat_of_ref(picked[0]))
                game.log("replace", f"{player.name} chooses "
                         f"{game.player_name(ev.protector)} to protect {name} as it enters "
                         "(310.11a)", player=seat, subject=obj.id)
        life = rep.unless_pay_life
        if life:
            if player.life >= life and (yield from ask_yes_no(
                    game, seat, f"614.12: {rep.text} Pay {life} life?")):
                player.life -= life
                game.state.sba.players.add(seat)  # 704.5a
                game.log("life", f"{player.name} pays {life} life ({player.life}): {text}",
                         player=seat, amount=-life)
                return ev
        game.log("replace", f"replacement effect (614.6): {text}", subject=obj.id)
        return entering(ev)

    return Replacement(f"enters:{obj.id}:{rep.position}", obj.id, text, obj.timestamp, apply,
                       ask=ask if rep.unless_pay_life or rep.choose_protector else None)


def _copiable(game: Game, word: str, source: GameObject, seat: int, obj: GameObject) -> bool:
    """Whether ``obj`` (on the battlefield) is what an ``AFFECTED`` word names now, for ``seat``."""
    c = characteristics(game, obj)
    w = Working(obj, c.controller)
    w.card_types, w.colors = list(c.card_types), list(c.colors)
    return AFFECTED[word](game, source, seat, w)


def _enters_as_copy(obj: GameObject, word: str) -> Replacement[MoveEvent]:
    """614.1c/707.2: "you may have [this] enter as a copy of any creature on the battlefield",
    however it enters (cast, put there or returned by any effect, persist or undying: each time
    a new object, 400.7, that chooses anew). The player it enters under chooses one or none as
    it enters (614.12); where nobody can be asked, it enters as itself."""

    def ask(game: Game, ev: MoveEvent) -> Proc[MoveEvent]:
        st = game.state
        seat = game.controller(obj) if ev.controller < 0 else ev.controller
        cands = [i for i in st.battlefield if _copiable(game, word, obj, seat, st.objects[i])]
        picked = yield from ask_choose(
            game, seat, f"707.2: you may have {obj.name} enter as a copy of a permanent on the "
            "battlefield (choose none to decline)", cands, 0, 1)
        if not picked or picked[0] not in st.objects:
            return ev
        return replace(ev, copy_of=picked[0])

    text = f"{obj.name}: it may enter as a copy of one of the {word} on the battlefield"
    return Replacement(f"copy:{obj.id}", obj.id, text, obj.timestamp,
                       lambda game, ev: ev, ask=ask)


def entering_face(game: Game, ev: MoveEvent) -> str:
    """The definition an object enters the battlefield with, when not its own now: the copied
    permanent's copiable values (``ev.copy_of``, 707.2), or the face it is put there with."""
    original = game.state.objects.get(ev.copy_of) if ev.copy_of else None
    return characteristics(game, original).definition if original is not None else ev.face


def move_replacements(local: tuple[Replacement[MoveEvent], ...] = ()) -> Callable[
        [Game, MoveEvent], list[Replacement[MoveEvent]]]:
    """The finder of replacement effects for a zone change: ``local`` (the moving effect's own
    self-replacements), the moving card's own static abilities (``to_graveyard`` with
    ``applies_to = "self"``, from any zone; ``enters``, 614.12: as the card would exist on the
    battlefield) and every permanent's ``to_graveyard`` ability with ``applies_to = "any"``."""

    def found(game: Game, ev: MoveEvent) -> list[Replacement[MoveEvent]]:
        st = game.state
        obj = st.objects[ev.object_id]
        out: list[Replacement[MoveEvent]] = []
        for rep in local:
            if rep.apply(game, ev) != ev:
                out.append(rep)
        if ev.to_zone == "graveyard":
            for r in _static(game, obj, "to_graveyard"):
                if r.applies_to == "self":
                    out.append(_redirect_static(obj, r))
            for oid in st.battlefield:
                perm = st.objects[oid]
                for r in _static(game, perm, "to_graveyard"):
                    if r.applies_to == "any":
                        out.append(_redirect_static(perm, r))
        if ev.to_zone == "battlefield":
            face = entering_face(game, ev)
            if not ev.copy_of:
                defn = definition_named(game.cards, face or game.characteristics(obj).definition)
                if defn.enters_as_copy:
                    out.append(_enters_as_copy(obj, defn.enters_as_copy))
            for r in _static(game, obj, "enters", face):
                out.append(_enters_static(obj, r, face))
        return out

    return found


def replace_move(game: Game, event: MoveEvent, local: tuple[Replacement[MoveEvent], ...] = (),
                 *, ask: bool = True) -> Proc[MoveEvent]:
    """614.6: the zone change that happens instead of ``event`` (616.1: the moving object's
    controller chooses the order)."""
    obj = game.state.objects[event.object_id]
    chooser = game.controller(obj) if event.controller < 0 else event.controller
    return (yield from apply_replacements(game, event, move_replacements(local), chooser, ask=ask))


# ---------------------------------------------------------------------- destruction


def add_shield(game: Game, kind: str, affected: int, amount: int, source_name: str) -> None:
    """A resolved spell or ability makes a regeneration shield (701.15a) or a prevention shield
    (615.7) for this turn."""
    st = game.state
    st.shields.append(Shield(st.new_timestamp(), kind, affected, amount, source_name))


def _regenerate(obj_id: int, shield: Shield) -> Replacement[DestroyEvent]:
    def apply(game: Game, ev: DestroyEvent) -> DestroyEvent:
        # 701.15a: instead, tap it, remove all damage marked on it, remove it from combat.
        st = game.state
        st.shields = [s for s in st.shields if s.id != shield.id]
        obj = st.objects[obj_id]
        obj.tapped = True
        obj.damage = 0
        if obj.deathtouch_damage:
            reset_rare(obj, "deathtouch_damage", False)  # a rare field (``GameObject``)
        if st.combat is not None:
            st.combat.attackers.pop(obj_id, None)
            st.combat.blockers.pop(obj_id, None)
        game.log("regenerate", f"{visible_name(game, obj_id)} regenerates (701.15a)", subject=obj_id)
        return replace(ev, regenerated=True)

    # Every shield reads the same (they do the same), so none is asked about (616.1).
    return Replacement(f"shield:{shield.id}", obj_id, "regeneration shield (701.15a)", shield.id,
                       apply)


def destroy_replacements(game: Game, ev: DestroyEvent) -> list[Replacement[DestroyEvent]]:
    """The replacement effects that apply to destroying ``ev``'s object: its regeneration
    shields (701.15a), none if it can't be regenerated (701.15c)."""
    if ev.regenerated or not ev.regenerate or ev.object_id not in game.state.objects:
        return []
    return [_regenerate(ev.object_id, s) for s in game.state.shields
            if s.kind == "regenerate" and s.affected == ev.object_id]


# ---------------------------------------------------------------------- damage


def prevent_damage(game: Game, source: GameObject, target: int, amount: int) -> int:
    """615.7: prevention shields on ``target`` (an object id or player ref) reduce damage about
    to be dealt to it, oldest first; returns the damage still dealt."""
    st = game.state
    if amount <= 0 or not st.shields:
        return amount
    left = amount
    kept: list[Shield] = []
    for shield in st.shields:
        if left and shield.kind == "prevent" and shield.affected == target:
            used = min(left, shield.amount)
            left -= used
            name = (st.players[target - 1].name if is_player_ref(target)
                    else visible_name(game, target))
            game.log("prevent", f"{used} damage {visible_name(game, source.id)} would deal to {name} "
                     "is prevented "
                     f"(615.7, {shield.source_name})", subject=source.id, amount=used)
            if shield.amount > used:
                kept.append(replace(shield, amount=shield.amount - used))
            continue
        kept.append(shield)
    if left != amount:
        st.shields = kept
    return left


# ---------------------------------------------------------------------- losing


def _loss_replacements(game: Game, ev: LossEvent) -> list[Replacement[LossEvent]]:
    if ev.replaced:
        return []
    st = game.state
    out: list[Replacement[LossEvent]] = []
    for oid in st.battlefield:
        perm = st.objects[oid]
        if game.controller(perm) != ev.seat:
            continue
        for rep in _static(game, perm, "lose_game"):
            def apply(game: Game, e: LossEvent, perm: GameObject = perm,
                      rep: ReplacementAbility = rep) -> LossEvent:
                return replace(e, instead=rep.effects, instead_source=perm.id,
                               instead_position=rep.position)

            out.append(Replacement(f"lose:{perm.id}:{rep.position}", perm.id,
                                   f"{perm.name}: {rep.text}", perm.timestamp, apply))
    return out


def replace_loss(game: Game, seat: int, reasons: tuple[str, ...]) -> Proc[LossEvent]:
    """704.7/614.1a: the loss ``seat`` would suffer for ``reasons`` (one event however many
    reasons), after "if you would lose the game, instead" effects. If one replaced it, the
    returned event says so (``replaced``) and carries what happens instead, for the caller to
    carry out (``instead``: effects of the ability at ``instead_position`` of ``instead_source``)."""
    return (yield from apply_replacements(game, LossEvent(seat, reasons), _loss_replacements, seat))
