"""The scenario file format (format 1) as typed dataclasses, read by the schema engine
(``spellstack.schema``): the top level, the ``[setup]`` table and each player's part of it,
the objects listed there, each ``[[step]]``, and ``expect`` tables. The engine refuses a key
that is not a field and a value of the wrong type, naming where; what needs the game (a name
that is a player, a label, a card in the pool) is checked as the game is built or played."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from ..rules import STEPS, parse_pool
from ..rules.base import AtLeast, in_int64

__all__ = [
    "PRIORITY_STEPS",
    "ExpectTable",
    "ObjectExpect",
    "ObjectTable",
    "PlayerTable",
    "ScenarioFile",
    "SetupTable",
    "StepTable",
]

PRIORITY_STEPS = frozenset(STEPS) - {"untap", "cleanup"}
"""The steps in which players receive priority, where a scenario may start."""


def _within_64_bits(n: int) -> None:
    """Numbers cross the protocol as 64-bit integers."""
    if not in_int64(n):
        raise ValueError(f"expected an integer within 64 bits, got one of {n.bit_length()} bits")


def _priority_step(step: str) -> None:
    if step not in PRIORITY_STEPS:
        raise ValueError(f"{step!r} is not a step in which players receive priority")


def _step_name(step: str) -> None:
    if step not in STEPS:
        raise ValueError(f"{step!r} is not a step name")


def _pool(mana: str) -> None:
    parse_pool(mana)


def _players(names: tuple[str, ...]) -> None:
    if len(names) < 2 or not all(names) or len(set(names)) != len(names):
        raise ValueError("must list 2 or more distinct names")


Int64 = Annotated[int, _within_64_bits]
Whole = Annotated[int, AtLeast(0), _within_64_bits]
"""A whole number (0 or more) within 64 bits."""


@dataclass(frozen=True, slots=True)
class ObjectTable:
    """An object listed in setup, as a table (a bare card name is the same as ``card``)."""

    card: str | None = None
    """Card name (from the card pool)."""
    token: str | None = None
    """Instead of ``card``: a token's name from the pool's token list."""
    label: str | None = None
    """A name for this object, unique in the file, never a player's name."""
    owner: str | None = None
    """Player name; default the player it is listed under."""
    tapped: bool = False
    """Tapped."""
    damage: Whole = 0
    """Damage marked."""
    counters: dict[str, Whole] = field(default_factory=dict)
    """Counters by kind."""
    sick: bool = False
    """Came under its controller's control this turn."""
    attached_to: str | None = None
    """Label of the permanent (or name of the player) it is attached to."""
    face_down: bool = False
    """Face down."""
    transformed: bool = False
    """A transforming double-faced permanent with its back face up (712)."""
    protector: str | None = None
    """A battle's protector (310.8); default the first of its controller's opponents in turn order."""
    sector: Literal["alpha", "beta", "gamma"] | None = None
    """A creature's sector (704.5u); default none."""


ObjectEntry = str | ObjectTable
"""An object: a card name, or a table."""


@dataclass(frozen=True, slots=True)
class DungeonTable:
    """``dungeon = { name = DUNGEON, room = ROOM }``: a player's dungeon in the command zone."""

    name: str
    """The dungeon's name."""
    room: str
    """The room the player's venture marker is on."""


@dataclass(frozen=True, slots=True)
class PlayerTable:
    """A player's state in setup (``[setup.NAME]``), every key optional."""

    life: Int64 | None = None
    """Life; default 20."""
    poison: Whole | None = None
    """Poison counters; default 0."""
    hand: tuple[ObjectEntry, ...] = ()
    """The hand."""
    graveyard: tuple[ObjectEntry, ...] = ()
    """The graveyard."""
    exile: tuple[ObjectEntry, ...] = ()
    """Cards in exile this player owns."""
    library: tuple[ObjectEntry, ...] = ()
    """The library, top card first."""
    battlefield: tuple[ObjectEntry, ...] = ()
    """Permanents this player controls."""
    mana: Annotated[str, _pool] | None = None
    """Mana in the pool, ``{R}{R}``."""
    lands_played: Whole | None = None
    """Lands played this turn; default 0."""
    dungeon: DungeonTable | None = None
    """The dungeon in the command zone and its venture marker's room (309); default none."""
    completed_dungeons: tuple[str, ...] = ()
    """Dungeons completed this game (309.7)."""


@dataclass(frozen=True, slots=True)
class SetupTable:
    """``[setup]`` without the players' tables (which are keyed by the players' names)."""

    players: Annotated[tuple[str, ...], _players]
    """Turn order; ``players[0]`` is the active player."""
    turn: Annotated[int, AtLeast(1), _within_64_bits] = 1
    """Turn number."""
    step: Annotated[str, _priority_step] = "precombat_main"
    """The step play starts in."""
    priority: str | None = None
    """Who holds priority first; default the active player."""


@dataclass(frozen=True, slots=True)
class ObjectExpect:
    """``expect.objects.LABEL``: what must hold of a labelled object."""

    zone: str | None = None
    """Its zone now, or ``gone``."""
    controller: str | None = None
    """Its controller's name."""
    tapped: bool | None = None
    """Tapped."""
    damage: int | None = None
    """Damage marked."""
    power: int | None = None
    """Power now."""
    toughness: int | None = None
    """Toughness now."""
    loyalty: int | None = None
    """Loyalty counters."""
    counters: dict[str, int] | None = None
    """Counters, exactly."""
    attached_to: str | None = None
    """A label, a player name, or ``none``."""
    types: tuple[str, ...] | None = None
    """Card types, as a set."""
    abilities_include: tuple[str, ...] | None = None
    """Keywords it must have."""
    face_down: bool | None = None
    """Face down."""
    defense: int | None = None
    """Defense counters (310.4c)."""
    transformed: bool | None = None
    """Its back face up (712)."""
    protector: str | None = None
    """A battle's protector's name (310.8), or ``none``."""
    sector: Literal["alpha", "beta", "gamma", "none"] | None = None
    """Its sector (704.5u), or ``none``."""


Names = tuple[str, ...]
ByPlayer = dict[str, int]


@dataclass(frozen=True, slots=True)
class ExpectTable:
    """An ``expect`` table: every key optional, each present one must hold."""

    life: ByPlayer | None = None
    """Life by player."""
    poison: ByPlayer | None = None
    """Poison counters by player."""
    hand: dict[str, Names] | None = None
    """Hands by player, as multisets."""
    graveyard: dict[str, Names] | None = None
    """Graveyards by player, as multisets."""
    exile: dict[str, Names] | None = None
    """Cards in exile by owner, as multisets."""
    battlefield: dict[str, Names] | None = None
    """Permanents by controller, as multisets."""
    hand_count: ByPlayer | None = None
    """Hand sizes by player."""
    library_count: ByPlayer | None = None
    """Library sizes by player."""
    library_top: dict[str, Names] | None = None
    """The top of each library, top first."""
    stack_count: int | None = None
    """Objects on the stack."""
    stack: Names | None = None
    """The stack, top first."""
    objects: dict[str, ObjectExpect] | None = None
    """Labelled objects."""
    stack_controllers: Names | None = None
    """Who controls each object on the stack, top first."""
    lost: Names | None = None
    """The players who have lost."""
    winner: str | None = None
    """The winner, or ``none`` for a draw."""
    game_over: bool | None = None
    """Whether the game is over."""
    priority: str | None = None
    """Who holds priority."""
    active: str | None = None
    """The active player."""
    step: str | None = None
    """The step."""
    turn: int | None = None
    """The turn number."""
    mana: dict[str, Annotated[str, _pool]] | None = None
    """Mana pools by player."""
    dungeon: dict[str, str] | None = None
    """The room each player's venture marker is on, or ``none`` (309.4)."""
    completed_dungeons: dict[str, Names] | None = None
    """The dungeons each player has completed, as multisets (309.7)."""


@dataclass(frozen=True, slots=True)
class StepTable:
    """A ``[[step]]``: one kind of step (an action, ``resolve``, ``advance``, ``attack``,
    ``block``, ``choose``, or only ``expect``), with the keys of that kind."""

    cast: str | None = None
    """Cast a spell: a card name or a label."""
    activate: str | None = None
    """Activate an ability of this labelled object."""
    play: str | None = None
    """Play a land."""
    pass_: Literal[True] | None = field(default=None, metadata={"key": "pass"})
    """``pass = true``: pass priority once."""
    concede: Literal[True] | None = None
    """``concede = true``."""
    turn_face_up: str | None = None
    """Turn a face-down permanent face up (702.37e)."""
    resolve: Annotated[int, AtLeast(1)] | Literal["all"] | None = None
    """Resolve N objects, or ``all``."""
    advance: Annotated[str, _step_name] | None = None
    """Pass until this step begins."""
    attack: dict[str, str] | None = None
    """Attackers (labels) and what they attack."""
    block: dict[str, str] | None = None
    """Blockers (labels) and what they block."""
    choose: Any = None
    """Answers queued for ``by``."""
    by: str | None = None
    """The acting player."""
    from_: str | None = field(default=None, metadata={"key": "from"})
    """The zone to cast from."""
    face: str | None = None
    """Which face, half or Adventure."""
    modes: tuple[int, ...] | None = None
    """Mode numbers, counting from 1."""
    x: Annotated[int, AtLeast(0)] | None = None
    """The value of X."""
    targets: tuple[str, ...] | None = None
    """Labels or player names, in the order the card names its targets."""
    divide: dict[str, int] | None = None
    """Target to amount (601.2d)."""
    costs: tuple[str, ...] | None = None
    """Optional or alternative costs to pay, by name."""
    pay_as: tuple[str, ...] | None = None
    """For each hybrid or Phyrexian symbol: a colour letter or ``life``."""
    pay: tuple[str, ...] | None = None
    """Labels of the permanents whose mana abilities to activate."""
    rejected: bool | None = None
    """The action or declaration must be refused."""
    reason: str | None = None
    """With ``rejected``: a text the refusal must contain."""
    ability: Annotated[int, AtLeast(1)] | None = None
    """Which activated ability, counting from 1."""
    turn: Annotated[int, AtLeast(1)] | None = None
    """With ``advance``: a later turn."""
    expect: ExpectTable | None = None
    """What must hold after the step's part."""


@dataclass(frozen=True, slots=True)
class ScenarioFile:
    """A scenario file's top level; its steps are read one by one (so that errors name the
    step), its setup by ``build_game``."""

    title: str
    """The scenario's title."""
    setup: dict[str, Any]
    """The starting state."""
    rules: tuple[str, ...] = ()
    """Rule numbers the scenario shows."""
    seed: int = 0
    """Seed of the game's random generator."""
    step: tuple[dict[str, Any], ...] = ()
    """What happens, in order."""
