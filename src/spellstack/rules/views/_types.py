"""A player's view of the game: only what that player may see (hidden information, 400.2).

The views are ``Record``s: a copy is the view itself, and a pickled one is rebuilt by its
constructor (as the compiled build needs)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from ..base import Record, native_builder


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class ObjectMarks(Record):
    """What only some permanents have, shown to those who may see the permanent."""

    protector: int = -1
    """A battle's protector (a seat, 310.8); -1: none, or not a battle."""
    sector: str = ""
    """The sector its controller assigned it (704.5u), or empty."""
    merged: tuple[str, ...] = ()
    """A merged permanent's cards by name, top first (725.1); empty for any other."""
    goals: tuple[tuple[str, int], ...] = ()
    """What some of its counters count toward, in words and as a number: ``("final chapter",
    3)`` for a Saga with lore counters (714.2c); empty for any other."""

    def words(self, player_name: Callable[[int], str]) -> tuple[str, ...]:
        """The marks in words, as views are shown to people: "protected by Bob", "sector
        alpha", "merged: Gemrazer over Grizzly Bears", "final chapter 3" (``player_name``: a
        seat's name)."""
        out = []
        if self.protector >= 0:
            out.append(f"protected by {player_name(self.protector)}")
        if self.sector:
            out.append(f"sector {self.sector}")
        if self.merged:
            out.append(f"merged: {' over '.join(self.merged)}")
        out += [f"{words} {n}" for words, n in self.goals]
        return tuple(out)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class ObjectView(Record):
    """A visible object."""

    id: int
    """Object id."""
    name: str
    """Name (empty for a face-down object its viewer may not see)."""
    owner: int
    """Owner's seat."""
    controller: int
    """Controller's seat."""
    types: tuple[str, ...] = ()
    """Card types."""
    tapped: bool = False
    """Tapped."""
    damage: int = 0
    """Damage marked."""
    power: int = 0
    """Current power (creatures)."""
    toughness: int = 0
    """Current toughness (creatures)."""
    counters: tuple[tuple[str, int], ...] = ()
    """Counters."""
    attached_to: int = 0
    """What it is attached to."""
    sick: bool = False
    """Summoning sick."""
    attacking: bool = False
    """Attacking."""
    blocking: bool = False
    """Blocking."""
    marks: ObjectMarks | None = None
    """A battle's protector, a sector, a merged permanent's cards (``ObjectMarks``); None for a
    permanent with none of them, and for a card in any other zone."""

    def __hash__(self) -> int:
        # Some of the fields: equal views still hash alike, and views of one object differ
        # mostly in these, at a fraction of the cost of hashing every field (the names, types,
        # counters and marks are tuples and strings; ``shared_view`` hashes each view it keeps).
        return hash((self.id, self.name, self.tapped, self.damage, self.power, self.toughness,
                     self.sick, self.attacking))

    def __eq__(self, other: object) -> bool:
        # Written out, not the one ``dataclass`` writes (which it then leaves alone): compiled,
        # this is native, where that one is interpreted and builds a tuple of every field for
        # each side; ``shared_view`` compares each view it finds kept, a few a decision. Every
        # field, in the order most likely to differ first; the same answers (a test checks).
        if type(other) is not ObjectView:
            return NotImplemented
        return (self.id == other.id and self.tapped == other.tapped
                and self.damage == other.damage and self.power == other.power
                and self.toughness == other.toughness and self.sick == other.sick
                and self.attacking == other.attacking and self.blocking == other.blocking
                and self.attached_to == other.attached_to
                and self.controller == other.controller and self.owner == other.owner
                and self.name == other.name and self.types == other.types
                and self.counters == other.counters and self.marks == other.marks)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class StackItemView(Record):
    """A spell or ability on the stack."""

    id: int
    """Object id."""
    name: str
    """Name of the spell, or of the ability's source; empty for a face-down spell its viewer
    may not look at (708.5)."""
    controller: int
    """Controller's seat."""
    is_ability: bool
    """An ability rather than a spell."""
    targets: tuple[int, ...] = ()
    """Chosen target refs."""


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class PlayerPublic(Record):
    """What everybody may know of a player."""

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
    graveyard: tuple[ObjectView, ...]
    """Graveyard, bottom first."""
    mana: tuple[tuple[str, int], ...]
    """Mana pool."""
    lost: bool
    """Lost or left the game."""
    library_top: tuple[ObjectView, ...] = ()
    """The top card of the library, if the viewer may see it (400.2 as an effect changes it:
    its owner under "You may look at the top card of your library any time", everyone under
    "Play with the top card of your library revealed"); empty otherwise."""
    dungeon: str = ""
    """The dungeon in their command zone (309.2, public), or empty."""
    room: str = ""
    """The room of that dungeon their venture marker is on (309.4), or empty."""
    completed_dungeons: tuple[str, ...] = ()
    """The dungeons they have completed, in order (309.7)."""

    def __eq__(self, other: object) -> bool:
        # Written out, as ``ObjectView``'s is (the view tracker compares each seat's players at
        # every view): every field, the most likely to differ first.
        if type(other) is not PlayerPublic:
            return NotImplemented
        return (self.life == other.life and self.hand_count == other.hand_count
                and self.library_count == other.library_count and self.mana == other.mana
                and self.graveyard == other.graveyard and self.lost == other.lost
                and self.poison == other.poison and self.seat == other.seat
                and self.name == other.name and self.library_top == other.library_top
                and self.dungeon == other.dungeon and self.room == other.room
                and self.completed_dungeons == other.completed_dungeons)

    def __hash__(self) -> int:
        # As ``dataclass`` would make it for a frozen class (an ``__eq__`` of the class's own
        # makes it leave the hash out): every field, in order.
        return hash((self.seat, self.name, self.life, self.poison, self.hand_count,
                     self.library_count, self.graveyard, self.mana, self.lost, self.library_top,
                     self.dungeon, self.room, self.completed_dungeons))

    def dungeon_words(self) -> str:
        """Their dungeon and room and the dungeons completed, in words ("" for none): "in Lost
        Mine of Phandelver, room Cave Entrance; completed Lost Mine of Phandelver"."""
        parts = []
        if self.dungeon:
            parts.append(f"in {self.dungeon}" + (f", room {self.room}" if self.room else ""))
        if self.completed_dungeons:
            parts.append(f"completed {', '.join(self.completed_dungeons)}")
        return "; ".join(parts)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class ClockState(Record):
    """A seat's game clock as its request shows it: the time it has left for the rest of the
    game, and what each answer adds (``docs/protocol.md``, "Game clocks")."""

    left: float
    """Seconds on the seat's clock when the decision's time began, to the millisecond (a
    decision asked again goes on from the same reading, as its deadline does)."""
    increment: float
    """Seconds added to it after each answer taken."""


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True)
class PlayerView(Record):
    """Everything one player may see now."""

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
    players: tuple[PlayerPublic, ...]
    """Every player's public information."""
    hand: tuple[ObjectView, ...]
    """The viewer's own hand."""
    battlefield: tuple[ObjectView, ...]
    """Every permanent."""
    stack: tuple[StackItemView, ...]
    """The stack, top first."""
    exile: tuple[ObjectView, ...]
    """Face-up exiled cards."""
    clock: ClockState | None = None
    """The seat's game clock, as the request for this decision gave it; None when the seat
    plays without one (and in every view the rules build: the clock is the coordinator's)."""

    def objects_by_id(self) -> dict[int, ObjectView]:
        """Every object view it shows, by id, in a fixed order (each player's graveyard and
        library top, then hand, battlefield, exile), so what is built from it is deterministic."""
        found: dict[int, ObjectView] = {}
        for p in self.players:
            for o in p.graveyard:
                found[o.id] = o
            for o in p.library_top:
                found[o.id] = o
        for zone in (self.hand, self.battlefield, self.exile):
            for o in zone:
                found[o.id] = o
        return found


# The views' constructors that the view builders use: every field, in order. Pure Python:
# ``builder``'s. Compiled: the ``_native_`` functions below, which make the view empty and assign
# its fields natively (``native_builder``).

def _native_object_marks(protector: int, sector: str, merged: tuple[str, ...],
                         goals: tuple[tuple[str, int], ...]) -> ObjectMarks:
    """Compiled only: ``ObjectMarks(...)``, every field given, assigned natively."""
    made = ObjectMarks.__new__(ObjectMarks)
    made.protector = protector  # type: ignore[misc]
    made.sector = sector  # type: ignore[misc]
    made.merged = merged  # type: ignore[misc]
    made.goals = goals  # type: ignore[misc]
    return made


def _native_object_view(id: int, name: str, owner: int, controller: int, types: tuple[str, ...],
                        tapped: bool, damage: int, power: int, toughness: int,
                        counters: tuple[tuple[str, int], ...], attached_to: int, sick: bool,
                        attacking: bool, blocking: bool, marks: ObjectMarks | None) -> ObjectView:
    """Compiled only: ``ObjectView(...)``, every field given, assigned natively."""
    made = ObjectView.__new__(ObjectView)
    made.id = id  # type: ignore[misc]
    made.name = name  # type: ignore[misc]
    made.owner = owner  # type: ignore[misc]
    made.controller = controller  # type: ignore[misc]
    made.types = types  # type: ignore[misc]
    made.tapped = tapped  # type: ignore[misc]
    made.damage = damage  # type: ignore[misc]
    made.power = power  # type: ignore[misc]
    made.toughness = toughness  # type: ignore[misc]
    made.counters = counters  # type: ignore[misc]
    made.attached_to = attached_to  # type: ignore[misc]
    made.sick = sick  # type: ignore[misc]
    made.attacking = attacking  # type: ignore[misc]
    made.blocking = blocking  # type: ignore[misc]
    made.marks = marks  # type: ignore[misc]
    return made


def _native_player_public(seat: int, name: str, life: int, poison: int, hand_count: int,
                          library_count: int, graveyard: tuple[ObjectView, ...],
                          mana: tuple[tuple[str, int], ...], lost: bool,
                          library_top: tuple[ObjectView, ...], dungeon: str, room: str,
                          completed_dungeons: tuple[str, ...]) -> PlayerPublic:
    """Compiled only: ``PlayerPublic(...)``, every field given, assigned natively."""
    made = PlayerPublic.__new__(PlayerPublic)
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


def _native_player_view(seat: int, turn: int, step: str, active: int, priority: int,
                        players: tuple[PlayerPublic, ...], hand: tuple[ObjectView, ...],
                        battlefield: tuple[ObjectView, ...], stack: tuple[StackItemView, ...],
                        exile: tuple[ObjectView, ...], clock: ClockState | None) -> PlayerView:
    """Compiled only: ``PlayerView(...)``, every field given, assigned natively."""
    made = PlayerView.__new__(PlayerView)
    made.seat = seat  # type: ignore[misc]
    made.turn = turn  # type: ignore[misc]
    made.step = step  # type: ignore[misc]
    made.active = active  # type: ignore[misc]
    made.priority = priority  # type: ignore[misc]
    made.players = players  # type: ignore[misc]
    made.hand = hand  # type: ignore[misc]
    made.battlefield = battlefield  # type: ignore[misc]
    made.stack = stack  # type: ignore[misc]
    made.exile = exile  # type: ignore[misc]
    made.clock = clock  # type: ignore[misc]
    return made


def _native_stack_item_view(id: int, name: str, controller: int, is_ability: bool,
                            targets: tuple[int, ...]) -> StackItemView:
    """Compiled only: ``StackItemView(...)``, every field given, assigned natively."""
    made = StackItemView.__new__(StackItemView)
    made.id = id  # type: ignore[misc]
    made.name = name  # type: ignore[misc]
    made.controller = controller  # type: ignore[misc]
    made.is_ability = is_ability  # type: ignore[misc]
    made.targets = targets  # type: ignore[misc]
    return made


new_object_marks: Callable[..., ObjectMarks] = native_builder(ObjectMarks, _native_object_marks)
new_object_view: Callable[..., ObjectView] = native_builder(ObjectView, _native_object_view)
new_player_public: Callable[..., PlayerPublic] = native_builder(PlayerPublic, _native_player_public)
new_player_view: Callable[..., PlayerView] = native_builder(PlayerView, _native_player_view)
new_stack_item_view: Callable[..., StackItemView] = native_builder(StackItemView,
                                                                   _native_stack_item_view)
