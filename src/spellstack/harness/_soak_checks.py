"""What the soak checks after every action of a game, also used by the random-game tests: zones,
object identity and physical cards are consistent, no state-based action was missed before a
grant of priority, and a view shows nothing its seat may not see."""

from __future__ import annotations

from collections import Counter
from operator import attrgetter

from ..protocol import to_plain
from ..rules import Game, GameState, PlayerView, Task, sba_would_apply, visible_to
from ._fuzz_hidden import HiddenNames, hidden_leaks

__all__ = ["InvariantError", "check_invariants", "check_no_sba_missed", "view_leaks"]


class InvariantError(AssertionError):
    """A broken invariant of the game state (raised whether or not Python runs with ``-O``)."""


_ZONE = attrgetter("zone")
_OWNER = attrgetter("owner")
_PHYSICAL = attrgetter("card", "owner", "is_token", "ability_kind", "zone", "source_id",
                       "card_copy", "is_copy")


def _check_zones(state: GameState) -> None:
    """Every object is listed in exactly one zone list, the zone it says it is in, and no id
    is both current and last known information."""
    objects = state.objects
    zones: list[tuple[str, int, list[int]]] = [("battlefield", -1, state.battlefield),
                                               ("stack", -1, state.stack),
                                               ("exile", -1, state.exile)]
    for p in state.players:
        zones += [("library", p.seat, p.library), ("hand", p.seat, p.hand),
                  ("graveyard", p.seat, p.graveyard), ("command", p.seat, p.command)]
    listed: list[int] = []
    for zone, owner, ids in zones:
        listed += ids
        missing = [oid for oid in ids if oid not in objects]
        if missing:
            raise InvariantError(f"{missing} are in the {zone} list but not in objects")
        listed_objs = list(map(objects.__getitem__, ids))
        if list(map(_ZONE, listed_objs)).count(zone) != len(ids):
            wrong = [(o.id, o.name, o.zone) for o in listed_objs if o.zone != zone]
            raise InvariantError(f"listed in {zone} but in another zone: {wrong}")
        if owner >= 0 and list(map(_OWNER, listed_objs)).count(owner) != len(ids):
            raise InvariantError(f"a card in player {owner}'s {zone} belongs to someone else")
    if len(set(listed)) != len(listed):
        twice = sorted(oid for oid, n in Counter(listed).items() if n > 1)
        raise InvariantError(f"ids listed more than once: {twice}")
    if len(listed) != len(objects):
        unlisted = sorted(set(objects) - set(listed))
        raise InvariantError(f"objects in no zone list: {unlisted}")
    # 400.7: an id that left its zone is never handed out again.
    if not objects.keys().isdisjoint(state.lki.keys()):
        raise InvariantError("an object id is both current and LKI")
    if not all(oid == obj.id for oid, obj in objects.items()):
        raise InvariantError("an object is filed under another object's id")
    if objects and max(objects) >= state.next_id:
        raise InvariantError("an object id at or past the next id to hand out")


def check_invariants(state: GameState, deck_sizes: list[int]) -> None:
    """Zones, object identity and physical cards are consistent (``deck_sizes``: each seat's
    cards); raises ``InvariantError`` saying what is not. (Written with map() so that checking
    after every action of many games stays fast.)"""
    _check_zones(state)
    objs = list(state.objects.values())
    if objs and min(o.damage for o in objs) < 0:
        raise InvariantError("negative damage")
    for o in objs:
        if o.counters and min(o.counters.values()) < 0:
            raise InvariantError(f"{o.name} has counters {o.counters}")
    cards: list[int] = []
    owners = [0] * len(deck_sizes)
    for card, owner, is_token, ability_kind, zone, source_id, card_copy, is_copy in map(_PHYSICAL, objs):
        if ability_kind:
            if not (zone == "stack" and card == 0 and source_id):
                raise InvariantError("an ability that is a card")
        elif card_copy:  # 707.12: a copy of a card is no physical card (704.5e: it goes)
            if card in cards:
                raise InvariantError("a copy of a card shares its physical card")
        elif zone == "command":  # 309.2: a dungeon comes from outside the game, no deck's card
            continue
        elif not is_token and not is_copy:  # 707.10: a copy of a spell is no card either
            cards.append(card)
            owners[owner] += 1
    for o in objs:
        if o.merged and o.zone == "battlefield":  # 725.1: one object of several cards (one owner)
            for card, _, token in o.merged[1:]:
                if not token:
                    cards.append(card)
                    owners[o.owner] += 1
    if 0 in cards:
        raise InvariantError("a card object with no physical card")
    if len(set(cards)) != len(cards):
        twice = sorted(card for card, n in Counter(cards).items() if n > 1)
        raise InvariantError(f"physical cards present as two objects: {twice}")
    # 800.4a: the objects a player owns leave the game with a player who leaves it.
    expected = [0 if p.lost and owners[p.seat] == 0 else deck_sizes[p.seat] for p in state.players]
    if len(cards) != sum(expected):
        raise InvariantError(f"a card was lost or duplicated: {len(cards)} cards, the decks "
                             f"hold {sum(expected)}")
    if owners != expected:
        raise InvariantError(f"cards per owner {owners}, decks {expected}")
    for p in state.players:
        if p.poison < 0:
            raise InvariantError(f"{p.name} has {p.poison} poison counters")
        if p.mana and min(p.mana.values()) < 0:
            raise InvariantError(f"{p.name}'s pool {p.mana}")
    if not state.game_over and state.cycle != "start":  # 103: nobody has priority before it begins
        if state.priority not in state.living_seats():
            raise InvariantError(f"priority with seat {state.priority}, not a living player")
        if state.turn_limit and state.turn > state.turn_limit:
            raise InvariantError(f"turn {state.turn} past the turn limit {state.turn_limit}")


def check_no_sba_missed(game: Game, task: Task) -> None:
    """704.3/117.5: when priority is about to be granted (``task``, what the game loop does next,
    is ``priority``), a look at everything finds no state-based action to perform: the checks,
    which look only at what was marked as changed (``GameState.sba``) or are skipped when
    nothing was, missed nothing."""
    if task == "priority":
        found = sba_would_apply(game)
        if found:
            raise InvariantError(f"turn {game.state.turn}, {game.state.step}: unchecked {found}")


def view_leaks(game: Game, view: PlayerView, hidden: HiddenNames | None = None) -> list[str]:
    """What ``view`` (built for ``view.seat``) shows that its seat may not see (``visible_to``):
    a named object it may not see, another player's hand card, a library card other than a
    top it may see, or a name or id of a hidden card anywhere in the view (``hidden_leaks``)."""
    seat = view.seat
    st = game.state
    out: list[str] = []
    shown = [("hand", o) for o in view.hand]
    shown += [("battlefield", o) for o in view.battlefield]
    shown += [("exile", o) for o in view.exile]
    for p in view.players:
        shown += [("graveyard", o) for o in p.graveyard]
        shown += [("library", o) for o in p.library_top]
    for zone, o in shown:
        obj = st.objects.get(o.id)
        if obj is None:
            out.append(f"shows #{o.id} ({o.name!r}) in its {zone}, an object that does not exist")
        elif obj.zone != zone:
            out.append(f"shows #{o.id} ({o.name!r}) in the {zone}, but it is in the {obj.zone}")
        elif o.name and not visible_to(game, seat, obj):
            out.append(f"shows #{o.id} {o.name!r} in the {zone}, hidden from seat {seat}")
    for item in view.stack:
        obj = st.objects.get(item.id)
        if obj is None or obj.zone != "stack":
            out.append(f"shows #{item.id} ({item.name!r}) on the stack, but it is not there")
        elif item.name and not item.is_ability and not visible_to(game, seat, obj):
            out.append(f"shows #{item.id} {item.name!r} on the stack, hidden from seat {seat}")
    out += hidden_leaks(game, seat, to_plain(view), hidden)
    return out
