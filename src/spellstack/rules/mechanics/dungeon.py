"""Dungeons (309) and venturing into the dungeon (701.49).

- 309.2, 309.3: a dungeon is a card kept outside the game and brought into the command zone by
  venturing: its
  definition is card data (``type = "Dungeon"``, one triggered ability with the event
  ``room_entered`` for each room, in the order of ``ROOMS``), and its rooms' names and exits are
  this module's data (``ROOMS``).
- 701.49a, 701.49b: to venture, a player with no dungeon in the command zone chooses one and puts it
  there with their venture marker on its first room; otherwise the marker moves to the next room
  (the player chooses among the exits: 309.5a). A player's dungeon is ``PlayerState.command``, the
  room ``PlayerState.room``.
- 309.4c: a room's room ability triggers as the venture marker enters the room; the dungeon is
  its source (its abilities go on the stack as any triggered ability does, 603.3).
- 704.5t: a dungeon whose venture marker is on its bottommost room and which is not the source of
  a room ability that has triggered but not yet left the stack is removed from the game; its
  owner has then completed it (309.7, ``PlayerState.completed_dungeons``), which "as long as
  you've completed a dungeon" reads (the affected word ``self_if_completed_dungeon``).
- ``venture`` is the effect verb, ``scry`` (701.22) the one the first room needs.

A game without a dungeon card pays one set lookup at each check of the players.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import ClassVar

from ..effects import EFFECT_VERBS, Amount, EffectContext, Verb
from ..game import Game
from ..layers import AFFECTED, LayerHost, Working
from ..legality import kinds_seen
from ..registry import (
    MECHANICS,
    SBA_ACTIONS,
    TRIGGER_EVENTS,
    Mechanic,
    SBAHit,
    StateBasedAction,
    TriggerEvent,
)
from ..state import Answer, Choice, GameObject, PlayerState, Proc
from ..triggers import Happened, trigger_ability, triggered_not_left_stack
from ..views import ask_choose

KEY = "dungeon"
"""The mechanic's name."""
RULE = "704.5t"
"""The state-based action's rule, the name it is registered by."""
EVENT = "room_entered"
"""309.4c: the trigger event of a room ability; ``kinds_seen`` notes it in a game with a dungeon
object (a dungeon card prints it)."""


@dataclass(frozen=True, slots=True)
class Room:
    """A room of a dungeon (309.4)."""

    name: str
    """The room's name (309.4a)."""
    exits: tuple[str, ...]
    """The rooms its arrows lead to (309.4d); none for the bottommost room."""


ROOMS: dict[str, tuple[Room, ...]] = {
    "Lost Mine of Phandelver": (
        Room("Cave Entrance", ("Goblin Lair", "Mine Tunnels")),
        Room("Goblin Lair", ("Storeroom", "Dark Pool")),
        Room("Mine Tunnels", ("Dark Pool", "Fungi Cavern")),
        Room("Storeroom", ("Temple of Dumathoin",)),
        Room("Dark Pool", ("Temple of Dumathoin",)),
        Room("Fungi Cavern", ("Temple of Dumathoin",)),
        Room("Temple of Dumathoin", ()),
    ),
}
"""Each dungeon's rooms, topmost first; a room's room ability is the dungeon card's triggered
ability at the room's place here (from 1)."""


def room_named(dungeon: str, name: str) -> tuple[int, Room]:
    """The room of ``dungeon`` called ``name``, with its place (from 1); KeyError naming both."""
    for place, room in enumerate(ROOMS[dungeon], 1):
        if room.name == name:
            return place, room
    raise KeyError(f"{dungeon} has no room {name!r} (its rooms: "
                   f"{', '.join(r.name for r in ROOMS[dungeon])})")


def dungeon_of(game: Game, seat: int) -> GameObject | None:
    """The dungeon ``seat`` has in the command zone, if any (309.2)."""
    command = game.state.players[seat].command
    return game.state.objects[command[0]] if command else None


def put_dungeon(game: Game, seat: int, dungeon: str, room: str) -> GameObject:
    """309.3: put ``dungeon`` into ``seat``'s command zone (from outside the game) with their
    venture marker on ``room`` (no ability triggers: a scenario's setup, or the venture does)."""
    st = game.state
    oid = st.new_id()
    obj = GameObject(id=oid, card=oid, name=dungeon, owner=seat, controller=seat,
                     zone="command", timestamp=st.new_timestamp())
    st.objects[oid] = obj
    player = st.players[seat]
    player.command.append(oid)
    player.room = room
    st.sba.players.add(seat)
    return obj


def _enter_room(game: Game, seat: int, obj: GameObject, room: str) -> None:
    """309.4c: the venture marker enters ``room``; its room ability triggers."""
    st = game.state
    st.players[seat].room = room
    st.sba.players.add(seat)
    place, _ = room_named(obj.name, room)
    game.log("venture", f"{st.players[seat].name}'s venture marker enters {room} of {obj.name} "
             "(309.4c)", player=seat, subject=obj.id)
    for ability in game.cards[obj.name].triggered:
        if ability.position == place and ability.event == EVENT:
            trigger_ability(game, obj, ability, name=obj.name)


def venture(game: Game, seat: int) -> Proc[None]:
    """701.49a/b: ``seat`` ventures into the dungeon."""
    st = game.state
    obj = dungeon_of(game, seat)
    if obj is not None and not room_named(obj.name, st.players[seat].room)[1].exits:
        # The marker can't move on from the bottommost room (most likely its room ability is
        # still on the stack, so 704.5t has not removed it): the dungeon leaves the command zone,
        # completed (309.7), and the player ventures into a new one (701.49a).
        _complete(game, seat, "venture")
        obj = None
    if obj is None:
        # 701.49a: choose a dungeon (Lost Mine of Phandelver is the only one the game has).
        name = sorted(ROOMS)[0]
        first = ROOMS[name][0].name
        obj = put_dungeon(game, seat, name, first)
        game.log("venture", f"{st.players[seat].name} puts {name} into the command zone (701.49a)",
                 player=seat, subject=obj.id)
        _enter_room(game, seat, obj, first)
        return
    _, room = room_named(obj.name, st.players[seat].room)
    nxt = room.exits[0]
    if len(room.exits) > 1:
        # 309.5a: the player chooses which room the marker moves to.
        choices = tuple(Choice(i, 0, exit_) for i, exit_ in enumerate(room.exits))
        reply = yield game.decision(seat, "choose", f"309.5a: choose the next room of {obj.name}",
                                    choices=choices, min=1, max=1)
        assert isinstance(reply, Answer)
        nxt = room.exits[reply.keys[0]]
    _enter_room(game, seat, obj, nxt)


@dataclass(frozen=True, slots=True)
class Venture(Verb):
    """701.49: venture into the dungeon."""

    verb: ClassVar[str] = "venture"
    rule: ClassVar[str] = "701.49"

    def run(self, ctx: EffectContext) -> Proc[None]:
        yield from venture(ctx.game, ctx.controller)


@dataclass(frozen=True, slots=True)
class Scry(Verb):
    """701.22a: look at the top N cards of your library, put any number of them on the bottom
    (in the order chosen) and the rest back on top (in their order)."""

    verb: ClassVar[str] = "scry"
    rule: ClassVar[str] = "701.22a"
    amount: Amount = 1
    """How many cards."""

    def run(self, ctx: EffectContext) -> Proc[None]:
        game, seat = ctx.game, ctx.controller
        library = game.state.players[seat].library
        top = library[:ctx.amount(self.amount)]
        if not top:
            return
        # The player looks at them (701.22a): told their names alone, in order from the top.
        st = game.state
        game.log("look", f"{game.player_name(seat)} looks at the top of their library (scry): "
                 f"{', '.join(st.objects[oid].name for oid in top)}", player=seat,
                 private_to=(seat,))
        bottom = yield from ask_choose(game, seat, "701.22a: scry: choose the cards to put on the "
                                       "bottom of your library, top first", top, 0, len(top))
        for oid in bottom:
            library.remove(oid)
            library.append(oid)
        game.log("scry", f"{game.state.players[seat].name} scries {len(top)}: {len(bottom)} to "
                 "the bottom", player=seat, amount=len(top))


def _no_happening(game: Game, seen: Happened) -> None:
    """309.4c: a room ability triggers as the venture marker enters its room (``venture`` puts it
    among the waiting triggers); a dungeon never enters the battlefield."""


def _complete(game: Game, seat: int, kind: str = "sba") -> None:
    """704.5t, 309.7: ``seat``'s dungeon is removed from the game: they have completed it (as it
    leaves the command zone)."""
    st = game.state
    player = st.players[seat]
    oid = player.command.pop(0)
    obj = st.objects.pop(oid)
    st.lki[oid] = obj
    player.room = ""
    player.completed_dungeons.append(obj.name)
    game.log(kind, f"{player.name} completes {obj.name}: it is removed from the game "
             f"({'704.5t, ' if kind == 'sba' else ''}309.7)", player=seat, subject=oid)
    game.changed()  # "as long as you've completed a dungeon" may apply now


def _completed(game: Game, players: Collection[PlayerState]) -> list[SBAHit]:
    """704.5t: the players whose dungeon's venture marker is on its bottommost room, with no room
    ability of it waiting or on the stack."""
    if EVENT not in kinds_seen(game):
        return []  # no dungeon in this game (the usual case)
    hits = []
    for p in players:
        if p.command and p.room:
            oid = p.command[0]
            obj = game.state.objects[oid]
            if (not room_named(obj.name, p.room)[1].exits
                    and not triggered_not_left_stack(game, oid)):
                hits.append(SBAHit(p.seat, "perform", RULE))
    return hits


def _remove_completed(game: Game, seats: list[int]) -> Proc[None]:
    """704.5t: each of these players' dungeons is removed from the game, completed (309.7)."""
    for seat in seats:
        _complete(game, seat)
    yield from ()


def _completed_a_dungeon(game: LayerHost, source: GameObject, you: int, w: Working) -> bool:
    """"[this permanent], as long as you've completed a dungeon" (309.7)."""
    return w.obj.id == source.id and bool(game.state.players[you].completed_dungeons)


EFFECT_VERBS[Venture.verb] = Venture
EFFECT_VERBS[Scry.verb] = Scry
AFFECTED["self_if_completed_dungeon"] = _completed_a_dungeon
TRIGGER_EVENTS.register(EVENT, TriggerEvent(
    "309.4c", "as the venture marker enters this room", "enters", True, False, _no_happening))
SBA_ACTIONS.register(RULE, StateBasedAction(
    "a dungeon whose venture marker is on its bottommost room, with no room ability of it waiting "
    "or on the stack, is removed from the game: its owner completed it", "players",
    frozenset({"players"}), frozenset({"perform"}), _completed, perform=_remove_completed))

MECHANICS.register(KEY, Mechanic(
    ("309.2", "309.3", "309.4c", "309.5a", "309.7", "701.49a", "701.49b", "704.5t"),
    "dungeons in the command zone, venturing into them room by room, and completing them",
    (("TRIGGER_EVENTS", EVENT), ("SBA_ACTIONS", RULE)),
    frozenset({"kinds_seen", "sba_marks"})))
