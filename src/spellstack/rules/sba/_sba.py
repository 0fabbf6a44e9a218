"""State-based actions (704): each one of 704.5 registered (``SBA_ACTIONS``) with what it looks at,
the changes it reads and what it does; a check walks the registry, looking only where something
changed, and performs what applies all at once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Final

from ..base import builder, is_compiled_class, reset_rare
from ..definitions import definition_named
from ..effects import EffectContext, run_effects
from ..ending import check_game_over, lose_game
from ..game import Game
from ..layers import add_counters
from ..legality import can_attach, is_aura, is_equipment, is_role, unattach
from ..registry import SBA_ACTIONS, SBA_LOOKS, SBAHit, SBALook, SBAMark, StateBasedAction
from ..replacement import replace_loss
from ..state import AbilityRef, Characteristics, Event, GameObject, PlayerState, Proc, SBAChanges
from ..views import ask_choose, visible_name
from ..zones import destroy_permanent, move_object_proc, simultaneous_moves

Permanent = tuple[GameObject, Characteristics]
"""A permanent as the permanent looks show it: the object and its characteristics (613)."""
_hit = builder(SBAHit)
"""``SBAHit``, built fast (subject, outcome, why, most): a check may find many."""

# ====================================================================== the actions (704.5)
# Each ``find`` is shown what its look picked (in that order) and returns where it applies, in
# the same order, changing nothing.


def _zero_life(game: Game, players: Collection[PlayerState]) -> list[SBAHit]:
    """704.5a: a player with 0 or less life loses the game."""
    hits = []
    for p in players:
        if p.life <= 0:
            hits.append(_hit(p.seat, "lose", "has 0 or less life (704.5a)", 0))
    return hits


def _drew_from_empty(game: Game, players: Collection[PlayerState]) -> list[SBAHit]:
    """704.5b: a player who attempted to draw from an empty library since the last check loses."""
    hits = []
    for p in players:
        if p.drew_from_empty:
            hits.append(_hit(p.seat, "lose", "drew from an empty library (704.5b)", 0))
    return hits


def _forget_draws(players: Collection[PlayerState]) -> None:
    """704.5b reads what happened since the last check: a check forgets it."""
    for p in players:
        p.drew_from_empty = False


def _ten_poison(game: Game, players: Collection[PlayerState]) -> list[SBAHit]:
    """704.5c: a player with ten or more poison counters loses the game."""
    hits = []
    for p in players:
        if p.poison >= 10:
            hits.append(_hit(p.seat, "lose", "has ten or more poison counters (704.5c)", 0))
    return hits


def _tokens_elsewhere(game: Game, objects: Collection[GameObject]) -> list[SBAHit]:
    """704.5d: a token in a zone other than the battlefield ceases to exist. (Each object's flag
    read in the loop itself: faster than ``filter`` with an ``attrgetter`` in either build, and
    compiled, a native read.)"""
    return [_hit(o.id, "cease", f"token {o.name} ceases to exist (704.5d)", 0) for o in objects
            if o.is_token and o.zone != "battlefield"]


def _copies_elsewhere(game: Game, objects: Collection[GameObject]) -> list[SBAHit]:
    """704.5e: a copy of a spell in a zone other than the stack, and a copy of a card in a zone
    other than the stack or the battlefield, cease to exist."""
    hits = [_hit(o.id, "cease", f"the copy of {o.name} ceases to exist (704.5e)", 0) for o in objects
            if o.is_copy and o.zone != "stack"]
    hits += [_hit(o.id, "cease", f"the copy of {o.name} ceases to exist (704.5e)", 0) for o in objects
             if o.card_copy and o.zone != "battlefield" and o.zone != "stack"]
    return hits


def _zero_toughness(game: Game, creatures: Collection[Permanent]) -> list[SBAHit]:
    """704.5f: a creature with toughness 0 or less is put into its owner's graveyard."""
    hits = []
    for o, c in creatures:
        if (c.toughness or 0) <= 0:
            hits.append(_hit(o.id, "graveyard", "toughness 0 or less (704.5f)", 0))
    return hits


def _lethal_damage(game: Game, damaged: Collection[Permanent]) -> list[SBAHit]:
    """704.5g: a creature with toughness greater than 0 and damage marked on it at least equal
    to its toughness is destroyed."""
    return [_hit(o.id, "destroy", "lethal damage (704.5g)", 0) for o, c in damaged
            if "Creature" in c.card_types and (t := c.toughness or 0) > 0 and o.damage >= t
            and "indestructible" not in c.keywords]  # 702.12b: it isn't destroyed


def _deathtouch_damage(game: Game, damaged: Collection[Permanent]) -> list[SBAHit]:
    """704.5h: a creature with toughness greater than 0 dealt damage by a source with
    deathtouch since the last check is destroyed (even damage dealt as -1/-1 counters, 702.90c;
    the reason given is 704.5g's when both apply)."""
    return [_hit(o.id, "destroy", "damage from a deathtouch source (704.5h)", 0)
            for o, c in damaged if o.deathtouch_damage and "Creature" in c.card_types
            and 0 < (t := c.toughness or 0) and not o.damage >= t
            and "indestructible" not in c.keywords]  # 702.12b


def _forget_deathtouch(damaged: Collection[Permanent]) -> None:
    """704.5h reads what happened since the last check: a check forgets it, on every permanent
    it looked at."""
    for o, _ in damaged:
        if o.deathtouch_damage:
            reset_rare(o, "deathtouch_damage", False)  # a rare field (``GameObject``)


def _zero_loyalty(game: Game, planeswalkers: Collection[Permanent]) -> list[SBAHit]:
    """704.5i: a planeswalker with 0 loyalty is put into its owner's graveyard (the reason
    given when 704.5f applies too)."""
    return [_hit(o.id, "graveyard", "0 loyalty (704.5i)", 0) for o, c in planeswalkers
            if o.counters.get("loyalty", 0) <= 0]


def _legends(game: Game, legends: Collection[Permanent]) -> list[SBAHit]:
    """704.5j: two or more legendary permanents with the same name controlled by one player:
    that player chooses one, the rest go to the graveyard (``_legend_groups``; the choice is
    asked as the check looks, before it looks further)."""
    return [_hit(o.id, "keep_one", "", 0) for o, _ in legends] if len(legends) >= 2 else []


def _worlds(game: Game, worlds: Collection[Permanent]) -> list[SBAHit]:
    """704.5k: of two or more world permanents, all but the newest go to the graveyard."""
    return [_hit(oid, "graveyard", "world rule (704.5k)", 0)
            for oid in _worlds_to_graveyard([o for o, _ in worlds])]


# 704.5m, n, p, y read the state as it is when they look (after any legend rule choice): a
# permanent that left meanwhile, with the player who chose (800.4a), is no longer looked at.

_UNBESTOWED: Final = "a bestowed Aura that is unattached is a creature again (702.103f)"


def _cant_be_attached(game: Game, obj: GameObject) -> bool:
    """704.5p: a creature or battle is never attached."""
    return game.is_creature(obj) or game.is_type(obj, "Battle")


def _illegal_auras(game: Game, attached: Collection[Permanent]) -> list[SBAHit]:
    """704.5m: an Aura attached to an illegal object or player, or to nothing, is put into its
    owner's graveyard; 702.103f: a bestowed one becomes unattached instead."""
    objects, layers = game.state.objects, game.caches.layers
    hits = []
    for o, _ in attached:
        if o.id not in objects:
            continue
        if not o.attached_to:
            c = layers[o.id]
            if "Aura" in c.subtypes and "Enchantment" in c.card_types:
                hits.append(_hit(o.id, "unattach", _UNBESTOWED, 0) if o.bestowed
                            else _hit(o.id, "graveyard", "an Aura attached to nothing (704.5m)", 0))
        elif (is_aura(game, o) and not _cant_be_attached(game, o)
              and not can_attach(game, o, o.attached_to)):
            hits.append(_hit(o.id, "unattach", _UNBESTOWED, 0) if o.bestowed
                        else _hit(o.id, "graveyard", "an Aura attached illegally (704.5m)", 0))
    return hits


def _illegal_equipment(game: Game, attached: Collection[Permanent]) -> list[SBAHit]:
    """704.5n: an Equipment attached to an illegal permanent or to a player becomes unattached."""
    objects = game.state.objects
    return [_hit(o.id, "unattach", "an Equipment attached illegally (704.5n)", 0)
            for o, _ in attached if o.id in objects and o.attached_to
            and not _cant_be_attached(game, o) and not is_aura(game, o) and is_equipment(game, o)
            and not can_attach(game, o, o.attached_to)]


def _attached_wrongly(game: Game, attached: Collection[Permanent]) -> list[SBAHit]:
    """704.5p: a creature or battle attached to something becomes unattached, and so does any
    other permanent attached that is neither an Aura, an Equipment nor a Fortification."""
    objects = game.state.objects
    hits = []
    for o, _ in attached:
        if o.id not in objects or not o.attached_to:
            continue
        if _cant_be_attached(game, o):
            hits.append(_hit(o.id, "unattach", "a creature or battle can't be attached (704.5p)", 0))
        elif not is_aura(game, o) and not is_equipment(game, o):
            hits.append(_hit(o.id, "unattach", "it is neither an Aura nor an Equipment (704.5p)", 0))
    return hits


def _older_roles(game: Game, attached: Collection[Permanent]) -> list[SBAHit]:
    """704.5y: of the Roles one player controls attached to one permanent, all but the newest
    are put into their owners' graveyards."""
    objects = game.state.objects
    roles: dict[tuple[int, int], list[GameObject]] = {}
    for o, _ in attached:
        if (o.id in objects and o.attached_to and not _cant_be_attached(game, o)
                and is_aura(game, o) and can_attach(game, o, o.attached_to) and is_role(game, o)):
            roles.setdefault((o.attached_to, game.controller(o)), []).append(o)
    hits = []
    for group in roles.values():
        newest = max(group, key=lambda o: o.timestamp)
        hits += [_hit(role.id, "graveyard", "a newer Role is attached by the same player (704.5y)", 0)
                 for role in group if role is not newest]
    return hits


def _counter_pairs(game: Game, permanents: Collection[Permanent]) -> list[SBAHit]:
    """704.5q: a permanent with both +1/+1 and -1/-1 counters loses them in pairs."""
    return [_hit(o.id, "annihilate", "", 0) for o, _ in permanents
            if o.counters.get("+1/+1", 0) and o.counters.get("-1/-1", 0)]


def _counter_caps(game: Game, permanents: Collection[Permanent]) -> list[SBAHit]:
    """704.5r: a permanent with more counters of a kind than an ability it has now allows loses
    the excess (a copy's ability counts, 707.2; none lost in 613.1f)."""
    hits = []
    for o, c in permanents:
        counters = o.counters
        for kind, most, pos in definition_named(game.cards, c.definition).counter_limits:
            if counters.get(kind, 0) > most and AbilityRef(c.definition, "static", pos) in c.abilities:
                hits.append(_hit(o.id, "cap", kind, most))
    return hits


_PLAYERS: Final[frozenset[SBAMark]] = frozenset({"players"})
_TOKENS: Final[frozenset[SBAMark]] = frozenset({"tokens"})
_BOARD: Final[frozenset[SBAMark]] = frozenset({"board"})
_DAMAGE: Final[frozenset[SBAMark]] = frozenset({"board", "objects"})

for _rule, _action in (
    ("704.5a", StateBasedAction("a player with 0 or less life loses the game", "players",
                                _PLAYERS, frozenset({"lose"}), _zero_life)),
    ("704.5b", StateBasedAction("a player who drew from an empty library loses the game",
                                "players", _PLAYERS, frozenset({"lose"}), _drew_from_empty,
                                checked=_forget_draws)),
    ("704.5c", StateBasedAction("a player with ten or more poison counters loses the game",
                                "players", _PLAYERS, frozenset({"lose"}), _ten_poison)),
    ("704.5d", StateBasedAction("a token elsewhere than on the battlefield ceases to exist",
                                "objects", _TOKENS, frozenset({"cease"}), _tokens_elsewhere)),
    ("704.5e", StateBasedAction("a copy of a spell off the stack, or of a card off the stack and "
                                "the battlefield, ceases to exist", "objects", _TOKENS,
                                frozenset({"cease"}), _copies_elsewhere)),
    ("704.5f", StateBasedAction("a creature with toughness 0 or less goes to the graveyard",
                                "permanents", _BOARD, frozenset({"graveyard"}), _zero_toughness,
                                only="Creature")),
    ("704.5g", StateBasedAction("a creature with lethal damage is destroyed", "permanents",
                                _DAMAGE, frozenset({"destroy"}), _lethal_damage,
                                only="damaged")),
    ("704.5h", StateBasedAction("a creature dealt damage by a deathtouch source is destroyed",
                                "permanents", _DAMAGE, frozenset({"destroy"}), _deathtouch_damage,
                                only="damaged", checked=_forget_deathtouch)),
    ("704.5i", StateBasedAction("a planeswalker with 0 loyalty goes to the graveyard",
                                "permanents", _BOARD, frozenset({"graveyard"}), _zero_loyalty,
                                only="Planeswalker")),
    ("704.5j", StateBasedAction("a player with two or more legendary permanents of one name "
                                "keeps one (the legend rule)", "legends", _BOARD,
                                frozenset({"keep_one"}), _legends)),
    ("704.5k", StateBasedAction("all world permanents but the newest go to the graveyard",
                                "worlds", _BOARD, frozenset({"graveyard"}), _worlds)),
    ("704.5m", StateBasedAction("an Aura attached illegally or to nothing goes to the graveyard",
                                "attachments", _BOARD, frozenset({"graveyard", "unattach"}),
                                _illegal_auras)),
    ("704.5n", StateBasedAction("an Equipment attached illegally becomes unattached",
                                "attachments", _BOARD, frozenset({"unattach"}), _illegal_equipment)),
    ("704.5p", StateBasedAction("a creature, battle or other permanent that can't be attached "
                                "becomes unattached", "attachments", _BOARD, frozenset({"unattach"}),
                                _attached_wrongly)),
    ("704.5q", StateBasedAction("+1/+1 and -1/-1 counters on one permanent are removed in pairs",
                                "permanents", _BOARD, frozenset({"annihilate"}), _counter_pairs,
                                only="counters")),
    ("704.5r", StateBasedAction("counters beyond what an ability allows are removed", "permanents",
                                _BOARD, frozenset({"cap"}), _counter_caps, only="counters")),
    ("704.5y", StateBasedAction("of one player's Roles on one permanent, all but the newest go to "
                                "the graveyard", "roles", _BOARD, frozenset({"graveyard"}),
                                _older_roles)),
):
    SBA_ACTIONS.register(_rule, _action)


def _ceases(obj: GameObject) -> str:
    """The words for a token or copy that ceases to exist (704.5d, 704.5e)."""
    if obj.is_copy or obj.card_copy:
        return f"the copy of {obj.name} ceases to exist (704.5e)"
    return f"token {obj.name} ceases to exist (704.5d)"


def _legend_groups(game: Game, legends: list[GameObject], seat: int) -> dict[str, list[int]]:
    """704.5j: ``seat``'s legendary permanents by name (201.2: the name each has now; a copy's
    is the original's, 707.2)."""
    groups: dict[str, list[int]] = {}
    for obj in legends:
        if game.controller(obj) == seat:
            groups.setdefault(game.characteristics(obj).name, []).append(obj.id)
    return groups


def _worlds_to_graveyard(worlds: list[GameObject]) -> list[int]:
    """704.5k: of two or more world permanents, all but the newest go to the graveyard (all of
    them if the newest are tied)."""
    if len(worlds) < 2:
        return []
    newest = max(o.timestamp for o in worlds)
    tied = sum(1 for o in worlds if o.timestamp == newest)
    return [o.id for o in worlds if o.timestamp != newest or tied > 1]


# ====================================================================== the walk


_PARTIAL: Final[dict[SBALook, SBAMark]] = {"players": "players", "objects": "tokens", "permanents": "objects"}
"""The looks that may look at only what was marked, and the mark that names it (the seats, the
tokens and copies, the permanents dealt damage); the others look at everything or nothing."""


_SHOWN: Final = ("players", "objects", "permanents")
"""What a check shows the actions, each of everything or of what was marked: ``_Step.shown``
is ``2 * index + marked``."""


_Shown = tuple[Collection[Any], dict[str, list[Permanent]]]
_Picker = Callable[[dict[int, GameObject], Any, Collection[int]], _Shown]


_Find = Callable[[Game, Collection[Any]], list[SBAHit]]
_Forget = Callable[[Collection[Any]], None]
_Group = tuple[int, str, tuple[tuple[int, _Find], ...], tuple[_Forget, ...]]
"""The actions of one look shown the same things (one test that there is anything to show
them): what they are shown (``_SHOWN``), what is picked out of it for them (``_picker``; empty:
all of it), each one's place among its look's actions with its ``find``, in registry order, and
their ``checked``."""


@dataclass(frozen=True, slots=True)
class _Look:
    """One look, as a check with some marks set walks it."""

    look: SBALook
    """What it looks at."""
    groups: tuple[_Group, ...]
    """Its actions, grouped by what they are shown."""
    order: int
    """How the hits of more than one action are ordered: by what was shown (``_SHOWN``, each
    thing's in the actions' order), or -1: each action's in turn."""


_Walk = Callable[[Game, SBAChanges, bool, int, Any, "_Found | None"], tuple["_Found | None", int, Any]]
"""A plan's walk: (game, changes, checking, the look to start at, what was shown if it started
before, what was found) -> (what was found, the look to go on at when it paused for the legend
rule's choices or -1, what was shown)."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """The walk of a check with some marks set: the looks with something to do."""

    looks: tuple[_Look, ...]
    """Each look with its actions, in order."""
    walk: _Walk
    """The walk, written out for these looks (``_compile``)."""
    source: str
    """Its text."""


_PLANS: Final[dict[tuple[bool, bool, bool, bool, bool], _Plan]] = {}
"""The walk for each combination of marks set (everything, board, players, tokens, objects),
made as first needed, dropped whenever the registry changes."""


def _forget_plans() -> None:
    _PLANS.clear()


SBA_ACTIONS.watch(_forget_plans)


def _plan(key: tuple[bool, bool, bool, bool, bool]) -> _Plan:
    """The walk for ``key``: an action is looked at when everything is, when one of its marks
    other than its look's own partial mark is set (at everything it looks at), or when that one
    is (at what was marked)."""
    every, *marks = key
    is_set = dict(zip(("board", "players", "tokens", "objects"), marks, strict=True))
    looks = []
    picks: tuple[set[str], set[str]] = (set(), set())
    for look in SBA_LOOKS:
        groups: dict[tuple[int, str], list[tuple[int, StateBasedAction[Game, Any]]]] = {}
        partial = _PARTIAL.get(look)
        kind = _SHOWN.index(look if look in _SHOWN else "permanents")
        mine = [action for action in SBA_ACTIONS.values() if action.looks_at == look]
        for index, action in enumerate(mine):
            if every or any(is_set[m] for m in action.marks if m != partial):
                marked = False
            elif partial is not None and partial in action.marks and is_set[partial]:
                marked = True
            else:
                continue
            only = action.only or (look if look in _LOOK_PICKS else "")
            groups.setdefault((2 * kind + marked, only), []).append((index, action))
            if only:
                picks[marked].add(only)
        if groups:
            shown = min(shown for shown, _ in groups)  # everything, if any action is shown it
            looks.append(_Look(look, tuple(
                (shown, only, tuple((i, a.find) for i, a in actions),
                 tuple(a.checked for _, a in actions if a.checked is not None))
                for (shown, only), actions in groups.items()),
                -1 if shown == 2 * _SHOWN.index("objects") else shown))
    permanents = 2 * _SHOWN.index("permanents")
    unpicked = {group[0] - permanents for look in looks for group in look.groups
                if group[0] >= permanents and not group[1]}
    pickers = (_picker(frozenset(picks[0]), 0 in unpicked), _picker(frozenset(picks[1]), 1 in unpicked))
    walk, source = _compile(tuple(looks), pickers)
    plan = _PLANS[key] = _Plan(tuple(looks), walk, source)
    return plan


_NOTHING_PICKED: Final[dict[str, list[Permanent]]] = {}
_LOOK_PICKS: Final = {
    "legends": ("s", "'Legendary' in s"),
    "worlds": ("s", "'World' in s"),
    "attachments": ("", "o.attached_to or 'Aura' in c.subtypes"),
    "roles": ("", "o.attached_to or 'Aura' in c.subtypes"),
}
"""What each look at some of the permanents picks (``SBALook``), as the test of a permanent ``o``
with characteristics ``c`` (``s``: its supertypes, tested only if it has any). The Roles are
among the attached permanents (704.5y tells them apart)."""
_ONLY_PICKS: Final = {
    "counters": "o.counters",
    "damaged": "o.damage or o.deathtouch_damage",
}
"""The ``only`` words that are not a card type, as the test of a permanent."""


# How a picker tests a permanent for each word it picks (``_pick_loop``): a card type, a
# supertype, attached (or an Aura), with counters, dealt damage.
_BY_TYPE: Final = 0
_BY_SUPERTYPE: Final = 1
_BY_ATTACHMENT: Final = 2
_BY_COUNTERS: Final = 3
_BY_DAMAGE: Final = 4
_NATIVE_TESTS: Final[dict[str, tuple[int, str]]] = {
    "legends": (_BY_SUPERTYPE, "Legendary"),
    "worlds": (_BY_SUPERTYPE, "World"),
    "attachments": (_BY_ATTACHMENT, ""),
    "roles": (_BY_ATTACHMENT, ""),
    "counters": (_BY_COUNTERS, ""),
    "damaged": (_BY_DAMAGE, ""),
}
"""``_LOOK_PICKS`` and ``_ONLY_PICKS`` as ``_pick_loop`` makes them (any other word: a card type)."""


def _pick_loop(objects: dict[int, GameObject], layers: Any, ids: Collection[int], tests: tuple[tuple[int, str], ...],
               everything: bool) -> tuple[Collection[Any], list[list[Permanent]]]:
    """What a picker (``_picker``) returns, by one loop over ``tests`` (``_NATIVE_TESTS``) for
    each permanent: the compiled build's picker, native code, where a picker written out for
    its picks (as pure Python has it) would be interpreted."""
    picked: list[list[Permanent]] = [[] for _ in tests]
    shown: list[Permanent] = []
    for oid in ids:
        o = objects[oid]
        c: Characteristics = layers[oid]
        p = (o, c)
        if everything:
            shown.append(p)
        i = 0
        for by, word in tests:
            if by == _BY_TYPE:
                hit = word in c.card_types
            elif by == _BY_SUPERTYPE:
                hit = word in c.supertypes
            elif by == _BY_ATTACHMENT:
                hit = o.attached_to != 0 or "Aura" in c.subtypes
            elif by == _BY_COUNTERS:
                hit = bool(o.counters)
            else:
                hit = o.damage != 0 or o.deathtouch_damage
            if hit:
                picked[i].append(p)
            i += 1
    return (shown if everything else ids), picked


def _native_picker(names: list[str], everything: bool) -> _Picker:
    """The compiled build's picker for ``names`` (sorted), by ``_pick_loop``."""
    tests = tuple(_NATIVE_TESTS.get(name) or (_BY_TYPE, name) for name in names)

    def pick(objects: dict[int, GameObject], layers: Any, ids: Collection[int]) -> _Shown:
        shown, picked = _pick_loop(objects, layers, ids, tests, everything)
        return shown, dict(zip(names, picked, strict=True))

    return pick


_COMPILED: Final = is_compiled_class(_Look)
"""This module is the compiled build's: its pickers are ``_pick_loop``'s."""


@functools.cache
def _picker(picks: frozenset[str], everything: bool) -> _Picker:
    """A function of (objects, characteristics, ids) that picks out of the permanents ``ids``
    (with their characteristics, in that order) those of each of ``picks`` (a look's,
    ``_LOOK_PICKS``, or an action's ``only``), in one pass, and shows them all too if
    ``everything`` (an action of the look at each permanent picks none). It is written for the
    picks of a plan: its one loop makes exactly their tests, as a hand-written one would (a
    check looks at every permanent often; a loop over the names would cost a Python step for
    each name and permanent). The same test is made once for all that share it; the plans that
    pick the same share one (written once a process)."""
    names = sorted(picks)
    return _native_picker(names, everything) if _COMPILED else _written_picker(names, everything)


def _written_picker(names: list[str], everything: bool) -> _Picker:
    """Pure Python's picker for ``names`` (sorted): written out for them and compiled by
    ``exec``, so that its one loop makes exactly their tests (``_picker``)."""
    tests: dict[tuple[str, str], list[int]] = {}
    for i, name in enumerate(names):
        needs, test = _LOOK_PICKS.get(name) or ("", _ONLY_PICKS.get(name, f"{name!r} in t"))
        tests.setdefault((needs, test), []).append(i)
    def lines_for(test: str, picked: list[int]) -> list[str]:
        pair = "p" if everything else "(o, c)"
        return [f"if {test}:", *(f"    p{i}.append({pair})" for i in picked)]
    body = []
    if any(" in t" in test for _, test in tests):
        body.append("t = c.card_types")
    if everything:
        body += ["p = (o, c)", "shown.append(p)"]
    for (needs, test), picked in tests.items():
        if not needs:
            body += lines_for(test, picked)
    supertyped = [(test, picked) for (needs, test), picked in tests.items() if needs]
    if supertyped:
        body += ["s = c.supertypes", "if s:",
                 *(f"    {line}" for test, picked in supertyped for line in lines_for(test, picked))]
    lines = ["def pick(objects, layers, ids):",
             *(f"    p{i} = []" for i in range(len(names))),
             "    shown = []" if everything else "    shown = ids",
             "    for oid in ids:",
             "        o = objects[oid]",
             "        c = layers[oid]",
             *(f"        {line}" for line in body),
             f"    return shown, {{{', '.join(f'{name!r}: p{i}' for i, name in enumerate(names))}}}"]
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)
    made: _Picker = namespace["pick"]
    return made


_SHOW: Final = (
    ("[p for p in st.players if not p.lost], _NOTHING",
     "[p for p in st.players if not p.lost and p.seat in changes.players], _NOTHING"),
    ("st.objects.values(), _NOTHING",
     "[st.objects[oid] for oid in sorted(changes.tokens) if oid in st.objects], _NOTHING"),
    ("pick0(st.objects, game.caches.layers, st.battlefield)",
     "pick1(st.objects, game.caches.layers, [oid for oid in st.battlefield if oid in changes.objects])"),
)
"""What a check shows (``_SHOWN``), of everything and of what was marked: the players still in
the game (in turn order), the objects (by id: the marked ones as they moved), the permanents
with their characteristics (613; in the order they entered) and those picked out of them."""


def _compile(looks: tuple[_Look, ...], pickers: tuple[_Picker, _Picker]) -> tuple[_Walk, str]:
    """The walk of ``looks``, written out (a check is made after nearly every action: a loop
    over the plan would cost a Python step for each action and look, each time). It shows each
    look what it looks at (made once, as it starts), calls each action's ``find`` on what its
    group is shown (none when that is empty), orders and keeps the hits look by look, makes a
    check forget what it must (``checked``, once the look's actions have looked), and returns
    after a look that found legend rule choices to ask when checking."""
    names: dict[int, str] = {}
    namespace: dict[str, Any] = {"_keep": _keep, "_in_order": _in_order, "_Found": _Found,
                                 "_NOTHING": _NOTHING_PICKED, "pick0": pickers[0], "pick1": pickers[1]}

    def name(function: object) -> str:
        """A name for ``function`` in the walk's namespace."""
        if id(function) not in names:
            names[id(function)] = f"f{len(names)}"
            namespace[names[id(function)]] = function
        return names[id(function)]

    shows = sorted({group[0] for look in looks for group in look.groups})
    shown = ", ".join(f"s{i}" for i in shows) + ("," if len(shows) == 1 else "")
    lines = ["def walk(game, changes, checking, at, made, found):",
             "    if made is None:",
             "        st = game.state",
             *(f"        s{i} = {_SHOW[i // 2][i % 2]}" for i in shows),
             f"        made = ({shown})" if shows else "        made = ()"]
    if shows:
        lines.append(f"    {shown} = made")
    for k, look in enumerate(looks):
        lines += [f"    if at <= {k}:  # {look.look}", "        got = None"]
        for g, (shows_it, pick, finds, _) in enumerate(look.groups):
            lines += [f"        u{g} = s{shows_it}[1][{pick!r}]" if pick else f"        u{g} = s{shows_it}[0]",
                      f"        if u{g}:"]
            for index, find in finds:
                lines += [f"            h = {name(find)}(game, u{g})", "            if h:",
                          f"                got = [({index}, h)] if got is None else [*got, ({index}, h)]"]
        for g, (_, _, _, checks) in enumerate(look.groups):
            if checks:
                lines += [f"        if checking and u{g}:", *(f"            {name(c)}(u{g})" for c in checks)]
        order = f"s{look.order}[0]" if look.order >= 0 else "None"
        lines += ["        if got is not None:",
                  f"            hits = got[0][1] if len(got) == 1 else _in_order(got, {order})",
                  "            if found is None:",
                  "                found = _Found()",
                  "            _keep(found, hits, game.state.objects)",
                  "            if checking and found.keep_one:",
                  f"                return found, {k + 1}, made"]
    lines.append("    return found, -1, made")
    source = "\n".join(lines)
    exec(source, namespace)
    walk: _Walk = namespace["walk"]
    return walk, source


def _subject_id(subject: object) -> int:
    """A player's seat, an object's id, a permanent's (shown with its characteristics or not)."""
    if isinstance(subject, PlayerState):
        return subject.seat
    if isinstance(subject, GameObject):
        return subject.id
    if isinstance(subject, int):
        return subject
    return subject[0].id  # type: ignore[index, no-any-return]


def _in_order(got: list[tuple[int, list[SBAHit]]], shown: Collection[Any] | None) -> list[SBAHit]:
    """The hits of several actions of one look (each with its place among the look's actions):
    in the order of what was shown, each thing's in the actions' order; or (``shown`` None)
    each action's in turn."""
    got.sort(key=itemgetter(0))
    if shown is None:
        return [hit for _, hits in got for hit in hits]
    order = {_subject_id(s): i for i, s in enumerate(shown)}
    return sorted((hit for _, hits in got for hit in hits), key=lambda hit: order[hit.subject])


@dataclass(slots=True, init=False)
class _Found:
    """What a check found, by outcome, in the order it is performed."""

    lose: dict[int, list[str]]
    """704.7: each player who loses, with every reason at once."""
    cease: dict[int, str]
    """Objects that cease to exist, with the words."""
    graveyard: dict[int, str]
    """Permanents put into their owners' graveyards, with the reason."""
    unattach: dict[int, str]
    """Permanents that become unattached, with the reason."""
    destroy: dict[int, str]
    """Creatures destroyed, with the reason."""
    annihilate: list[int]
    """704.5q: permanents with both +1/+1 and -1/-1 counters."""
    cap: list[tuple[int, str, int]]
    """704.5r: (permanent, counter kind, most it may have)."""
    keep_one: list[GameObject]
    """704.5j: the legendary permanents looked at, when there are two or more."""
    perform: dict[str, list[int]]
    """The subjects of each action that performs what it found itself, by its name."""

    def __init__(self) -> None:
        """Nothing found yet (made only once something is: a check that finds nothing makes
        none)."""
        self.lose = {}
        self.cease = {}
        self.graveyard = {}
        self.unattach = {}
        self.destroy = {}
        self.annihilate = []
        self.cap = []
        self.keep_one = []
        self.perform = {}

    def anything(self) -> bool:
        """Whether any action applies (the legend rule's choices already made)."""
        return bool(self.lose or self.cease or self.graveyard or self.unattach or self.destroy
                    or self.annihilate or self.cap or self.perform)


def _keep(found: _Found, hits: list[SBAHit], objects: dict[int, GameObject]) -> None:
    """Add one look's hits to ``found``: a reason found by a later action of the look replaces
    an earlier one's for the same permanent; one found by an earlier look stays."""
    here: set[int] | None = None  # the permanents this look gave a reason
    for hit in hits:
        outcome = hit.outcome
        if outcome == "graveyard":
            into = found.graveyard
        elif outcome == "destroy":
            into = found.destroy
        elif outcome == "unattach":
            into = found.unattach
        else:
            if outcome == "lose":
                found.lose.setdefault(hit.subject, []).append(hit.why)
            elif outcome == "cease":
                found.cease.setdefault(hit.subject, hit.why)
            elif outcome == "annihilate":
                found.annihilate.append(hit.subject)
            elif outcome == "cap":
                found.cap.append((hit.subject, hit.why, hit.most))
            elif outcome == "perform":
                found.perform.setdefault(hit.why, []).append(hit.subject)
            else:  # keep_one
                found.keep_one.append(objects[hit.subject])
            continue
        subject = hit.subject
        if subject in into and (here is None or subject not in here):
            continue
        into[subject] = hit.why
        if here is None:
            here = {subject}
        else:
            here.add(subject)


def _plan_for(changes: SBAChanges) -> _Plan:
    """704.3: the walk of a check of ``changes``: of the registry's actions, those that read
    what may have changed (everything, if ``changes`` says so), each shown only that. After a
    check that performed nothing, none applied: so what ``changes`` does not name needs no look.
    Whatever is looked at is looked at in the order a look at everything would take (players in
    turn order, objects by id, permanents in the order they entered), so the actions and their
    order are the same."""
    key = (changes.everything, changes.board, bool(changes.players), bool(changes.tokens),
           bool(changes.objects))
    return _PLANS.get(key) or _plan(key)


def _words(game: Game, found: _Found) -> list[str]:
    """What ``found`` holds, in words, outcome by outcome (``sba_would_apply``)."""
    st = game.state
    name = {oid: st.objects[oid].name for oid in (*found.cease, *found.graveyard, *found.unattach,
                                                   *found.destroy, *found.annihilate)}
    out = [f"{st.players[seat].name} {' and '.join(reasons)}" for seat, reasons in found.lose.items()]
    out += found.cease.values()
    out += [f"{name[oid]} to the graveyard: {why}" for oid, why in found.graveyard.items()]
    out += [f"{name[oid]} becomes unattached: {why}" for oid, why in found.unattach.items()]
    out += [f"{name[oid]} destroyed: {why}" for oid, why in found.destroy.items()]
    out += [f"{name[oid]} loses counter pairs (704.5q)" for oid in found.annihilate]
    out += [f"{st.objects[oid].name} has more than {most} {kind} (704.5r)" for oid, kind, most in found.cap]
    out += [f"{rule} applies to {len(subjects)}" for rule, subjects in found.perform.items()]
    for seat in st.apnap() if found.keep_one else ():
        out += [f"{st.players[seat].name} keeps one {legend} (704.5j)"
                for legend, ids in _legend_groups(game, found.keep_one, seat).items() if len(ids) >= 2]
    return out


def sba_would_apply(game: Game) -> tuple[str, ...]:
    """704.3 as a look at everything, changing nothing: each state-based action that applies
    now, in words, look by look (the legend rule as the choice it would ask); empty when none
    does.

    Whatever ``state_based_actions`` skips, this does not: when priority is about to be granted
    it must find nothing, or a change was not marked (``SBAChanges``).
    """
    st = game.state
    if st.game_over:
        return ()
    changes = SBAChanges()
    found, _, _ = _plan_for(changes).walk(game, changes, False, 0, None, None)
    return () if found is None else tuple(_words(game, found))


def _keep_one(game: Game, legends: list[GameObject], graveyard: dict[int, str]) -> Proc[None]:
    """704.5j: the legend rule; each player chooses among their own same-named legends, and the
    others go to the graveyard."""
    for seat in game.state.apnap():
        for name, ids in _legend_groups(game, legends, seat).items():
            if len(ids) < 2:
                continue
            keep = yield from ask_choose(game,
                seat, f"704.5j: choose the {name} to keep; the others go to the graveyard",
                ids, 1, 1)
            for oid in ids:
                if oid not in keep:
                    graveyard.setdefault(oid, "legend rule (704.5j)")


def state_based_actions(game: Game) -> Proc[tuple[Event, ...]]:
    """704.3: perform every state-based action that applies, all at once as one event.

    Returns the events of that batch; an empty tuple means none applied. Callers repeat until
    none apply. The legend rule (704.5j) asks each affected player which one to keep, as it is
    looked at (the looks after it see the state after the choice).

    Only what changed since the last check is looked at (``GameState.sba``, ``_plan``); the
    changes are forgotten as the check starts (a change made while a player is asked about the
    legend rule is kept for the next check), and after a check that performed anything the next
    one looks at everything.
    """
    st = game.state
    if st.game_over:
        return ()
    game.take_events()  # the batch's events start here
    changes, st.sba = st.sba, SBAChanges(everything=False)
    # 704.3: the walk (``_plan_for``), which pauses after a look that found legend rule choices
    # to ask (704.5j: asked as the legends are looked at; the looks after it see the state after
    # the choices) and goes on from there.
    plan = _PLANS.get((changes.everything, changes.board, bool(changes.players), bool(changes.tokens),
                       bool(changes.objects))) or _plan_for(changes)
    found, at, made = plan.walk(game, changes, True, 0, None, None)
    while at >= 0:
        assert found is not None
        legends, found.keep_one = found.keep_one, []
        yield from _keep_one(game, legends, found.graveyard)
        found, at, made = plan.walk(game, changes, True, at, made, found)

    if found is None or not found.anything():
        game.end_batch()  # nothing applied: the batch's events (none, as a rule) are not returned
        return ()

    # All at once (704.3). (A player asked about the legend rule may have left the game
    # meanwhile, taking their objects with them: 800.4a.) A mechanic's action that performs
    # what it found itself goes first: what it asks is asked before anything moves.
    for rule, subjects in found.perform.items():
        perform = SBA_ACTIONS[rule].perform
        assert perform is not None
        yield from perform(game, subjects)
    vanish = [oid for oid in found.cease if oid in st.objects]
    for oid, why in found.unattach.items():
        if oid in st.objects:
            unattach(game, st.objects[oid], why)
    for oid in vanish:
        obj = st.objects.pop(oid)
        st.zone_list(obj.zone, obj.owner).remove(oid)
        st.lki[oid] = obj
        game.log("sba", _ceases(obj), subject=oid)
    to_graveyard = found.graveyard
    with simultaneous_moves(game):  # 603.10a: they all look back on each other
        for oid, why in to_graveyard.items():
            if oid in st.objects and st.objects[oid].zone == "battlefield":
                name = st.objects[oid].name
                game.log("sba", f"{name} is put into its owner's graveyard: {why}", subject=oid)
                yield from move_object_proc(game, oid, "graveyard")
        for oid, why in found.destroy.items():
            # 704.5g/704.5h destroy: a regeneration shield may replace it (701.15a).
            if oid not in to_graveyard:
                yield from destroy_permanent(game, oid, why)
    # Counters change after the moves, so what left is remembered as it was (704.8, 603.10a).
    for oid in found.annihilate:
        if oid not in st.objects or st.objects[oid].zone != "battlefield":
            continue
        obj = st.objects[oid]
        n = min(obj.counters["+1/+1"], obj.counters["-1/-1"])
        add_counters(game, obj, "+1/+1", -n)
        add_counters(game, obj, "-1/-1", -n)
        game.log("sba", f"{n} +1/+1 and -1/-1 counter pairs on {visible_name(game, oid)} are removed "
                 "(704.5q)",
                 subject=oid)
    for oid, kind, most in found.cap:
        if oid in st.objects and st.objects[oid].zone == "battlefield":
            obj = st.objects[oid]
            game.log("sba", f"{obj.counters[kind] - most} {kind} counter(s) are removed from "
                     f"{visible_name(game, oid)}: it can't have more than {most} (704.5r)", subject=oid)
            add_counters(game, obj, kind, most - obj.counters[kind])
    for seat, all_reasons in found.lose.items():
        # 704.7/614.1a: one loss event per player, replaced once if anything replaces it.
        if st.players[seat].lost:
            continue
        reasons = tuple(all_reasons)
        loss = yield from replace_loss(game, seat, reasons)
        if loss.replaced:  # what the replacement effect does instead (614.1a)
            source = st.objects.get(loss.instead_source) or st.lki[loss.instead_source]
            ctx = EffectContext(game, source, seat, source, (), 0, 0, loss.instead_position)
            yield from run_effects(ctx, loss.instead)
        else:
            lose_game(game, seat, " and ".join(reasons), check=False)
    check_game_over(game)
    st.sba.mark_all()  # 704.3: check again, everything, until none applies
    return game.end_batch()
