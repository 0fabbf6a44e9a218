"""Views as deltas: what changed in a seat's view since the last view sent to that seat.

The coordinator keeps, per seat, the last view it sent (``ViewTracker``) and sends a
``ViewDelta`` against it; the player keeps its copy (``ViewMirror``) and rebuilds the full
``PlayerView`` from each delta. A delta is computed from two results of ``view_for`` for
that seat and nothing else, so it tells the seat exactly what a full view would (400.2). Which
object views changed is the kernel's ``view_changes`` (or the ``ViewMemo``'s record of it);
the tracker only puts that, the players and the zones into a ``ViewDelta``.

Views are numbered per seat from 1. A delta names the view it changes (``base``) and its own
number; ``base`` 0 marks a full view, which replaces whatever the client held. The client
asks for a full view with ``RequestFullView`` when it cannot apply a delta (its view is not
the delta's base, or the delta does not fit it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from mypy_extensions import mypyc_attr

from spellstack.rules.base import InvalidMessageError, Record, native_builder
from spellstack.rules.views import (
    ClockState,
    ObjectView,
    PlayerPublic,
    PlayerView,
    StackItemView,
    ViewMemo,
    new_object_view,
    new_player_public,
    new_player_view,
    shared_view,
    view_changes,
)

__all__ = ["PlayerChange", "ViewDelta", "ViewMirror", "ViewTracker"]


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class PlayerChange(Record):
    """A player's public information as a delta carries it: the graveyard and the library's top
    card (when the seat may see it) by object ids."""

    seat: int
    """Seat."""
    name: str
    """Name."""
    life: int
    """Life total."""
    poison: int
    """Poison counters."""
    hand_count: int
    """Cards in hand."""
    library_count: int
    """Cards in library."""
    graveyard: tuple[int, ...]
    """Ids of the graveyard's cards, bottom first (their views are in the delta's
    ``objects`` or unchanged since the base)."""
    mana: tuple[tuple[str, int], ...]
    """Mana pool."""
    lost: bool
    """Lost or left the game."""
    library_top: tuple[int, ...] = ()
    """The id of the library's top card if the seat may see it (``PlayerPublic.library_top``;
    its view is in the delta's ``objects`` or unchanged since the base), else empty."""
    dungeon: str = ""
    """The dungeon in their command zone, or empty (``PlayerPublic.dungeon``)."""
    room: str = ""
    """The room their venture marker is on, or empty (``PlayerPublic.room``)."""
    completed_dungeons: tuple[str, ...] = ()
    """The dungeons they have completed (``PlayerPublic.completed_dungeons``)."""


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class ViewDelta(Record):
    """What changed in one seat's view since view number ``base`` (0: a full view).

    Applied to the base view: drop the object views of ``removed``, add or replace those in
    ``objects``, replace every player in ``players`` and each zone order that is not None;
    the scalars are always given. In a full view every player, zone and the stack are given.
    """

    number: int
    """This view's number for its seat (1 for the first)."""
    base: int
    """The number of the view this changes; 0 for a full view."""
    seat: int
    """Whose view this is."""
    turn: int
    """Turn number."""
    step: str
    """Current step."""
    active: int
    """Active player's seat."""
    priority: int
    """Seat holding priority, -1 for none."""
    objects: tuple[ObjectView, ...] = ()
    """Views of objects that are new or changed (any zone)."""
    removed: tuple[int, ...] = ()
    """Ids of objects shown in the base view and no longer shown."""
    players: tuple[PlayerChange, ...] = ()
    """Players whose public information changed, each in full."""
    hand: tuple[int, ...] | None = None
    """The viewer's hand by ids, if its order or content changed."""
    battlefield: tuple[int, ...] | None = None
    """Every permanent by ids, if that changed."""
    exile: tuple[int, ...] | None = None
    """Face-up exiled cards by ids, if that changed."""
    stack: tuple[StackItemView, ...] | None = None
    """The stack, top first, if it changed."""

    @property
    def full(self) -> bool:
        """Whether this is a full view (it needs no base)."""
        return self.base == 0


def _native_delta(number: int, base: int, seat: int, turn: int, step: str, active: int,
                  priority: int, objects: tuple[ObjectView, ...], removed: tuple[int, ...],
                  players: tuple[PlayerChange, ...], hand: tuple[int, ...] | None,
                  battlefield: tuple[int, ...] | None, exile: tuple[int, ...] | None,
                  stack: tuple[StackItemView, ...] | None) -> ViewDelta:
    """Compiled only: ``ViewDelta(...)``, every field given, assigned natively (``native_builder``)."""
    made = ViewDelta.__new__(ViewDelta)
    made.number = number  # type: ignore[misc]
    made.base = base  # type: ignore[misc]
    made.seat = seat  # type: ignore[misc]
    made.turn = turn  # type: ignore[misc]
    made.step = step  # type: ignore[misc]
    made.active = active  # type: ignore[misc]
    made.priority = priority  # type: ignore[misc]
    made.objects = objects  # type: ignore[misc]
    made.removed = removed  # type: ignore[misc]
    made.players = players  # type: ignore[misc]
    made.hand = hand  # type: ignore[misc]
    made.battlefield = battlefield  # type: ignore[misc]
    made.exile = exile  # type: ignore[misc]
    made.stack = stack  # type: ignore[misc]
    return made


def _native_change(seat: int, name: str, life: int, poison: int, hand_count: int,
                   library_count: int, graveyard: tuple[int, ...], mana: tuple[tuple[str, int], ...],
                   lost: bool, library_top: tuple[int, ...], dungeon: str, room: str,
                   completed_dungeons: tuple[str, ...]) -> PlayerChange:
    """Compiled only: ``PlayerChange(...)``, every field given, assigned natively."""
    made = PlayerChange.__new__(PlayerChange)
    made.seat = seat  # type: ignore[misc]
    made.name = name  # type: ignore[misc]
    made.life = life  # type: ignore[misc]
    made.poison = poison  # type: ignore[misc]
    made.hand_count = hand_count  # type: ignore[misc]
    made.library_count = library_count  # type: ignore[misc]
    made.graveyard = graveyard  # type: ignore[misc]
    made.mana = mana  # type: ignore[misc]
    made.lost = lost  # type: ignore[misc]
    made.library_top = library_top  # type: ignore[misc]
    made.dungeon = dungeon  # type: ignore[misc]
    made.room = room  # type: ignore[misc]
    made.completed_dungeons = completed_dungeons  # type: ignore[misc]
    return made


# Every field, in order: ``builder``'s constructors in pure Python, the native ones compiled.
new_delta: Callable[..., ViewDelta] = native_builder(ViewDelta, _native_delta)
new_change: Callable[..., PlayerChange] = native_builder(PlayerChange, _native_change)


def _ids(objs: tuple[ObjectView, ...]) -> tuple[int, ...]:
    return tuple([o.id for o in objs])


def _change(p: PlayerPublic) -> PlayerChange:
    change: PlayerChange = new_change(p.seat, p.name, p.life, p.poison, p.hand_count,
                                      p.library_count, _ids(p.graveyard), p.mana, p.lost,
                                      _ids(p.library_top) if p.library_top else (),
                                      p.dungeon, p.room, p.completed_dungeons)
    return change


class ViewTracker:
    """The coordinator's side for one seat: the last view sent, and deltas against it."""

    __slots__ = ("_battlefield", "_exile", "_hand", "_memo", "_memo_number", "_view", "number")

    def __init__(self) -> None:
        self.number = 0
        """The number of the last view sent (0: none yet)."""
        # The last view sent and its zones by ids; its objects by id are looked up again at each
        # update rather than kept (a game in flight keeps less).
        self._view: PlayerView | None = None
        self._hand: tuple[int, ...] = ()
        self._battlefield: tuple[int, ...] = ()
        self._exile: tuple[int, ...] = ()
        # The memo the last view sent was built with, and its count then: when the next view is
        # that memo's next, the memo already knows what changed between the two.
        self._memo: ViewMemo | None = None
        self._memo_number = 0

    @property
    def view(self) -> PlayerView | None:
        """The last view sent, None before the first."""
        return self._view

    def update(self, view: PlayerView, memo: ViewMemo | None = None) -> ViewDelta:
        """The delta from the last view sent to ``view`` (a full view if none was sent), and
        ``view`` becomes the last view sent.

        ``memo``: the memo ``view`` was built with, if any (the delta is the same with or
        without it; with it, what it recorded of the change is not worked out again)."""
        last = self._view
        if last is None:
            delta = self._full(view)
        else:
            if (memo is not None and memo is self._memo and memo.view is view
                    and memo.number == self._memo_number + 1):
                # The memo built ``view`` right after the last view sent, against it: it has
                # recorded ``view_changes(last, view)`` already.
                objects, removed = memo.changed, memo.removed
            else:
                objects, removed = view_changes(last, view)
            before = last.players
            changed = tuple([_change(p) for i, p in enumerate(view.players)
                             if i >= len(before) or (before[i] is not p and before[i] != p)])
            hand = self._hand if view.hand == last.hand else _ids(view.hand)
            battlefield = (self._battlefield if view.battlefield == last.battlefield
                           else _ids(view.battlefield))
            exile = self._exile if view.exile == last.exile else _ids(view.exile)
            delta = new_delta(
                self.number + 1, self.number, view.seat, view.turn, view.step, view.active,
                view.priority, objects, removed, changed,
                None if hand == self._hand else hand,
                None if battlefield == self._battlefield else battlefield,
                None if exile == self._exile else exile,
                None if view.stack == last.stack else view.stack,
            )
            self._remember(view, hand, battlefield, exile)
        if memo is not None and memo.view is view:
            self._memo, self._memo_number = memo, memo.number
        else:
            self._memo = None
        return delta

    def full(self) -> ViewDelta:
        """The last view sent, again, as a full view with a new number (a resync).

        Raises:
            ValueError: No view was sent yet.
        """
        if self._view is None:
            raise ValueError("no view was sent yet")
        return self._full(self._view)

    def _full(self, view: PlayerView) -> ViewDelta:
        index = view.objects_by_id()
        players = tuple([_change(p) for p in view.players])
        hand, battlefield, exile = _ids(view.hand), _ids(view.battlefield), _ids(view.exile)
        delta: ViewDelta = new_delta(self.number + 1, 0, view.seat, view.turn, view.step,
                                     view.active, view.priority, tuple(index.values()), (),
                                     players, hand, battlefield, exile, view.stack)
        self._remember(view, hand, battlefield, exile)
        return delta

    def _remember(self, view: PlayerView, hand: tuple[int, ...], battlefield: tuple[int, ...],
                  exile: tuple[int, ...]) -> None:
        self.number += 1
        self._view = view
        self._hand, self._battlefield, self._exile = hand, battlefield, exile


_SHARED_LIMIT: Final = 4096
"""Most distinct names and type lists kept for sharing (what a game shows is far fewer)."""

_NAMES: Final[dict[str, str]] = {}
_TYPES: Final[dict[tuple[str, ...], tuple[str, ...]]] = {}


def _shared(o: ObjectView) -> ObjectView:
    """The view equal to ``o`` made before (``shared_view``), or ``o`` with its name and types
    shared with earlier views (``_fresh``, only then): a decoded message brings its own copy of
    every value, and a mirror keeps each view it was given as long as it is shown."""
    return shared_view(o, _fresh)


def _fresh(o: ObjectView) -> ObjectView:
    """``o``, or an equal view whose name and types are shared with earlier views."""
    name, types = o.name, o.types
    n = _NAMES.get(name)
    if n is None and len(_NAMES) < _SHARED_LIMIT:
        n = _NAMES[name] = name
    t = _TYPES.get(types)
    if t is None and len(_TYPES) < _SHARED_LIMIT:
        t = _TYPES[types] = types
    if (n is None or n is name) and (t is None or t is types):
        return o
    view: ObjectView = new_object_view(o.id, name if n is None else n, o.owner, o.controller,
                                       types if t is None else t, o.tapped, o.damage, o.power,
                                       o.toughness, o.counters, o.attached_to, o.sick, o.attacking,
                                       o.blocking, o.marks)
    return view


class ViewMirror:
    """The player's side: the seat's current view, rebuilt from each delta."""

    __slots__ = ("_battlefield", "_exile", "_hand", "_players", "_stack", "number", "view")

    def __init__(self) -> None:
        self.number = 0
        """The number of the view held (0: none)."""
        self.view: PlayerView | None = None
        """The view held, None before the first full view."""
        # The view's objects by id are looked up again from the view at each delta (instead of
        # kept beside it): exactly the objects it shows.
        self._players: list[PlayerChange] = []
        self._hand: tuple[int, ...] = ()
        self._battlefield: tuple[int, ...] = ()
        self._exile: tuple[int, ...] = ()
        self._stack: tuple[StackItemView, ...] = ()

    def fits(self, delta: ViewDelta) -> bool:
        """Whether ``delta`` applies to the view held (a full view always does)."""
        return delta.base == 0 or (self.view is not None and delta.base == self.number)

    def current(self, clock: ClockState | None = None) -> PlayerView:
        """The view held, showing ``clock`` (a request that carried no view).

        Raises:
            InvalidMessageError: No view is held yet.
        """
        view = self.view
        if view is None:
            raise InvalidMessageError("a request without a view, but no view is held yet")
        return view if view.clock == clock else replace(view, clock=clock)

    def apply(self, delta: ViewDelta, clock: ClockState | None = None) -> PlayerView:
        """Apply ``delta`` and return the rebuilt view, showing ``clock`` (the seat's game
        clock, as its request gave it). On an error nothing changes.

        Raises:
            InvalidMessageError: The delta is not against the view held, or does not fit it
                (an id shown, in a zone, a graveyard or a library's top, but never given, a
                player of no seat); ask for a full view.
        """
        if not self.fits(delta):
            raise InvalidMessageError(
                f"view {delta.number} changes view {delta.base}, but view {self.number} is held")
        full = delta.base == 0
        index = {} if full or self.view is None else self.view.objects_by_id()
        for i in delta.removed:
            if index.pop(i, None) is None:
                raise InvalidMessageError(f"view {delta.number}: removes #{i}, which is not shown")
        for o in delta.objects:
            index[o.id] = _shared(o)
        players = [] if full else list(self._players)
        for c in delta.players:
            if full and c.seat == len(players):
                players.append(c)
            elif 0 <= c.seat < len(players):
                players[c.seat] = c
            else:
                raise InvalidMessageError(f"view {delta.number}: no player in seat {c.seat}")
        if full and (delta.hand is None or delta.battlefield is None or delta.exile is None
                     or delta.stack is None):
            raise InvalidMessageError(f"view {delta.number}: a full view gives every zone")
        hand = self._hand if delta.hand is None else delta.hand
        battlefield = self._battlefield if delta.battlefield is None else delta.battlefield
        exile = self._exile if delta.exile is None else delta.exile
        stack = self._stack if delta.stack is None else delta.stack
        try:
            publics = tuple([
                new_player_public(c.seat, c.name, c.life, c.poison, c.hand_count,
                                  c.library_count, tuple([index[i] for i in c.graveyard]), c.mana,
                                  c.lost, tuple([index[i] for i in c.library_top])
                                  if c.library_top else (), c.dungeon, c.room,
                                  c.completed_dungeons)
                for c in players])
            view: PlayerView = new_player_view(
                delta.seat, delta.turn, delta.step, delta.active, delta.priority, publics,
                tuple([index[i] for i in hand]), tuple([index[i] for i in battlefield]), stack,
                tuple([index[i] for i in exile]), clock)
        except KeyError as err:
            raise InvalidMessageError(
                f"view {delta.number}: shows #{err.args[0]}, whose view was never given") from None
        self.number = delta.number
        self.view = view
        self._players = players
        self._hand, self._battlefield, self._exile, self._stack = hand, battlefield, exile, stack
        return view
