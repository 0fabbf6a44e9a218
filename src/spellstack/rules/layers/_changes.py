"""Changes that move the epoch: continuous effects starting and ending (611.2, 514.2), counters
(122.1), copy effects (707.2), and last known characteristics kept as a permanent leaves
(603.10, 608.2h).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..registry import COUNTERS_CHANGED
from ..state import NO_COUNTERS, ContinuousEffect

if TYPE_CHECKING:
    from ..definitions import ArgValue
    from ..state import GameObject
    from ._host import LayerHost
from ._engine import characteristics
from ._vocabulary import DURATIONS, LAYER_VERBS, RULE_EFFECT_VERBS


def snapshot_leaving(game: LayerHost, obj: GameObject) -> None:
    """603.10/608.2h: keep a permanent's characteristics as it last existed on the battlefield
    (call just before it leaves)."""
    if obj.zone == "battlefield":
        game.state.lki_characteristics[obj.id] = characteristics(game, obj)


def add_effect(game: LayerHost, effect: ContinuousEffect) -> None:
    """611.2: a resolved spell or ability's continuous effect starts (bumps the epoch)."""
    if ((effect.verb not in LAYER_VERBS and effect.verb not in RULE_EFFECT_VERBS)
            or effect.duration not in DURATIONS):
        raise ValueError(f"unknown layer verb or duration in {effect!r}")
    before = _controllers(game, effect.affected) if effect.verb == "gain_control" else None
    game.state.effects.append(effect)
    game.changed()
    if before is not None:
        _new_control(game, before)


def end_effects(game: LayerHost, test: Callable[[ContinuousEffect], bool]) -> None:
    """Remove every effect record ``test`` accepts (their duration ended; bumps the epoch)."""
    st = game.state
    kept = [e for e in st.effects if not test(e)]
    if len(kept) != len(st.effects):
        ended = [e for e in st.effects if test(e) and e.verb == "gain_control"]
        before = _controllers(game, tuple(i for e in ended for i in e.affected)) if ended else None
        st.effects = kept
        game.changed()
        if before is not None:
            _new_control(game, before)


def _controllers(game: LayerHost, ids: tuple[int, ...]) -> dict[int, int]:
    """The controllers (layer 2) of the permanents among ``ids`` now."""
    objects = game.state.objects
    return {i: characteristics(game, objects[i]).controller for i in ids
            if i in objects and objects[i].zone == "battlefield"}


def _new_control(game: LayerHost, before: dict[int, int]) -> None:
    """302.6: a permanent that changed controller has not been under its new controller's
    control continuously since their most recent turn began: it is "sick" (no attacking, no
    {T} abilities, unless it has haste) until that player's next turn."""
    objects = game.state.objects
    for i, seat in before.items():
        obj = objects[i]
        if characteristics(game, obj).controller != seat and not obj.sick:
            obj.sick = True
            game.changed()


def add_counters(game: LayerHost, obj: GameObject, kind: str, n: int) -> None:
    """122.1: put ``n`` counters (negative: remove, never below 0) of ``kind`` on ``obj``
    (bumps the epoch). The only way counters change."""
    have = obj.counters.get(kind, 0)
    new = max(0, have + n)
    if new == have:
        return
    if new:
        if obj.counters is NO_COUNTERS:  # its first counter: its own dict (the shared one is fixed)
            obj.counters = {}
        obj.counters[kind] = new
    else:
        obj.counters.pop(kind, None)
    game.changed()  # 704.5f-i, q, r look at every permanent
    if COUNTERS_CHANGED and obj.zone == "battlefield":  # a trigger event watches (122.6)
        for told in COUNTERS_CHANGED:
            told(game, obj, kind, new - have)


def become_copy(game: LayerHost, obj: GameObject, original: GameObject, source: GameObject) -> None:
    """707.2/613.2: ``obj`` becomes a copy of ``original``'s copiable values (layer 1,
    indefinitely: until it leaves its zone). Used by "enter as a copy" replacements; the
    copiable values are the original's after its own copy effects (707.2) and their
    exceptions (707.9b: a copy of a copy "that isn't legendary" isn't either, 707.3), fixed now."""
    of = characteristics(game, original).definition
    args: tuple[tuple[str, ArgValue], ...] = (("of", of),)
    excepted = copiable_exceptions(game, original)
    if excepted:
        args += (("except_supertypes", excepted),)
    under = copiable_under(game, original)
    if under:
        args += (("merged", under),)  # 725.2: a merged permanent's abilities are all copied
    add_effect(game, new_effect(game, "copy_of", args, (obj.id,), source, "indefinite"))


def copiable_under(game: LayerHost, obj: GameObject) -> tuple[str, ...]:
    """725.2, 707.2: the names of the cards under the top of the merged permanent whose
    copiable values ``obj`` has: those its latest copy effect copied, else its own."""
    latest = None
    for rec in game.state.effects:
        if rec.verb == "copy_of" and obj.id in rec.affected and (
                latest is None or rec.timestamp > latest.timestamp):
            latest = rec
    if latest is None:
        return tuple(name for _, name, _ in obj.merged[1:])
    under = latest.get("merged", ())
    assert isinstance(under, tuple)
    return tuple(str(n) for n in under)


def copiable_exceptions(game: LayerHost, obj: GameObject) -> tuple[str, ...]:
    """707.9b: the supertypes ``obj``'s copiable values lack by a copy effect's exception: those
    of its latest copy effect (613.7: the values it copied), else its own (a copied spell's,
    kept by the token it becomes)."""
    latest = None
    for rec in game.state.effects:
        if rec.verb == "copy_of" and obj.id in rec.affected and (
                latest is None or rec.timestamp > latest.timestamp):
            latest = rec
    if latest is None:
        return obj.except_supertypes
    excepted = latest.get("except_supertypes", ())
    assert isinstance(excepted, tuple)
    return tuple(t for t in excepted if isinstance(t, str))


def new_effect(game: LayerHost, verb: str, args: tuple[tuple[str, ArgValue], ...],
               affected: tuple[int, ...], source: GameObject, duration: str, *,
               controller: int | None = None, duration_seat: int | None = None) -> ContinuousEffect:
    """A new effect record with a fresh timestamp (613.7b); start it with ``add_effect``.

    ``controller`` defaults to the source's controller; ``duration_seat`` (for
    ``your_next_turn``) to the same player.
    """
    ts = game.state.new_timestamp()
    you = game.controller(source) if controller is None else controller
    return ContinuousEffect(ts, ts, verb, tuple(sorted(args)), affected, source.id, source.name,
                            you, duration, you if duration_seat is None else duration_seat)


def end_durations(game: LayerHost, moment: str) -> None:
    """514.2/611.2b: end the effects whose duration ends at ``moment``: ``cleanup`` (until end
    of turn) or ``turn_start`` (until the new active player's next turn; and one lasting until
    the end of that player's next turn now lasts until the end of this one)."""
    active = game.state.active
    if moment == "cleanup":
        end_effects(game, lambda e: e.duration == "end_of_turn")
    elif moment == "turn_start":
        end_effects(game, lambda e: e.duration == "your_next_turn" and e.duration_seat == active)
        # "until the end of your next turn": as that turn begins, it lasts until end of turn.
        st = game.state
        if any(e.duration == "end_of_your_next_turn" for e in st.effects):
            st.effects = [replace(e, duration="end_of_turn") if e.duration == "end_of_your_next_turn"
                          and e.duration_seat == active else e for e in st.effects]
    else:
        raise ValueError(moment)


def end_with_source(game: LayerHost, source_id: int) -> None:
    """611.2b: "for as long as [source] remains on the battlefield" ends when it leaves."""
    end_effects(game, lambda e: e.duration == "source_on_battlefield" and e.source == source_id)
