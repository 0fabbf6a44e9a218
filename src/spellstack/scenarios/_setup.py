"""Building the starting state a scenario describes (scenario format 1, ``[setup]``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import card_name_problem
from ..rules import (
    CardDefinition,
    Game,
    GameObject,
    GameRandom,
    GameState,
    PlayerState,
    create_object,
    parse_pool,
    player_ref,
)
from ..rules.mechanics.dungeon import ROOMS, put_dungeon, room_named
from ..schema import SchemaError, from_plain
from ._errors import ScenarioError, ScenarioUnsupported
from ._format import PRIORITY_STEPS, ObjectTable, PlayerTable, SetupTable

__all__ = ["PRIORITY_STEPS", "build_game"]

_SETUP_KEYS = frozenset(SetupTable.__dataclass_fields__)


def _read(hint: Any, raw: Any, where: str, path: str) -> Any:
    """``raw`` read as ``hint``; a ScenarioError naming the file and the path otherwise."""
    try:
        return from_plain(hint, raw, path)
    except SchemaError as err:
        raise ScenarioError(f"{where}: {err}") from None


def build_game(setup: Mapping[str, Any], seed: int, cards: Mapping[str, CardDefinition],
               where: str) -> tuple[Game, dict[str, int]]:
    """The game a ``[setup]`` table describes, and the labels (label -> physical card id)."""
    if not isinstance(setup, Mapping):
        raise ScenarioError(f"{where}: setup must be a table")
    table: SetupTable = _read(SetupTable, {k: v for k, v in setup.items() if k in _SETUP_KEYS},
                              where, "setup")
    names, step, turn = table.players, table.step, table.turn
    if turn == 1 and step == "draw" and len(names) == 2:
        # 103.8c: in a game of three or more players the starting player does draw.
        raise ScenarioError(f"{where}: in a two-player game the starting player skips the "
                            "first draw step (103.8a)")
    unknown = set(setup) - _SETUP_KEYS - set(names)
    if unknown:
        raise ScenarioError(f"{where}: setup: unknown key {sorted(unknown)[0]!r}")
    state = GameState(players=[PlayerState(i, n) for i, n in enumerate(names)],
                      rng=GameRandom.from_seed(seed), turn=turn, step=step)
    game = Game(state, cards)
    seat_of = {n: i for i, n in enumerate(names)}
    prio = names[0] if table.priority is None else table.priority
    if prio not in seat_of:
        raise ScenarioError(f"{where}: setup.priority {prio!r} is not a player")
    state.priority = seat_of[prio]
    labels: dict[str, int] = {}
    attach: list[tuple[int, str, str]] = []
    for seat, name in enumerate(names):
        player: PlayerTable = _read(PlayerTable, setup.get(name, {}), where, f"setup.{name}")
        p = state.players[seat]
        for key in ("life", "poison", "lands_played"):
            if getattr(player, key) is not None:
                setattr(p, key, getattr(player, key))
        if player.mana is not None:
            p.mana = parse_pool(player.mana)
        if player.dungeon is not None:
            _put_dungeon(game, seat, player.dungeon.name, player.dungeon.room,
                         f"{where}: setup.{name}.dungeon")
        p.completed_dungeons = list(player.completed_dungeons)
        for zone in ("library", "hand", "graveyard", "exile", "battlefield"):
            for i, item in enumerate(getattr(player, zone)):
                _place(game, item, seat, zone, seat_of, labels, attach,
                       f"{where}: setup.{name}.{zone}[{i}]")
    for oid, target, path in attach:
        if target in labels:
            obj = next(o for o in state.objects.values() if o.card == labels[target])
            state.objects[oid].attached_to = obj.id
        elif target in seat_of:
            state.objects[oid].attached_to = player_ref(seat_of[target])
        else:
            raise ScenarioError(f"{path}.attached_to: no label or player {target!r}")
    state.cycle = "check"
    state.dirty = True
    game.changed()  # counters, attachments and face-down status were set directly above
    return game, labels


def _put_dungeon(game: Game, seat: int, dungeon: str, room: str, path: str) -> None:
    """309.3: the player's dungeon in the command zone, their venture marker on ``room``."""
    if dungeon not in ROOMS:
        raise ScenarioError(f"{path}.name: no dungeon {dungeon!r} (known: {', '.join(sorted(ROOMS))})")
    try:
        room_named(dungeon, room)
    except KeyError as err:
        raise ScenarioError(f"{path}.room: {err.args[0]}") from None
    put_dungeon(game, seat, dungeon, room)


def _protect(game: Game, obj: GameObject, spec: ObjectTable, seat: int, seat_of: dict[str, int],
             path: str) -> None:
    """310.4b, 310.8: a battle gets its printed defense as defense counters unless its
    ``counters`` say otherwise, and its protector (default: the first of its controller's
    opponents in turn order)."""
    defense = game.cards[obj.name].mechanic_key("defense")
    if spec.protector is not None and (defense is None or obj.zone != "battlefield"):
        raise ScenarioError(f"{path}.protector: only a battle on the battlefield has a protector")
    if defense is None or obj.zone != "battlefield":
        return
    if "defense" not in spec.counters:
        obj.counters["defense"] = int(defense)
    if spec.protector is None:
        obj.protector = next((s for s in range(len(game.state.players)) if s != seat), -1)
    elif spec.protector not in seat_of:
        raise ScenarioError(f"{path}.protector: {spec.protector!r} is not a player")
    else:
        obj.protector = seat_of[spec.protector]


def _place(game: Game, item: str | ObjectTable, seat: int, zone: str, seat_of: dict[str, int],
           labels: dict[str, int], attach: list[tuple[int, str, str]], path: str) -> None:
    spec = ObjectTable(card=item) if isinstance(item, str) else item
    token = spec.token is not None
    name = spec.token if spec.token is not None else spec.card
    if name is None:
        raise ScenarioError(f"{path}: needs 'card' or 'token'")
    defn = game.cards.get(name)
    if defn is None or defn.is_token != token:
        in_pool, problem = card_name_problem(name, game.cards, token=token)
        if in_pool:
            raise ScenarioUnsupported(path, problem)
        raise ScenarioError(f"{path}: {problem}")
    if spec.owner is not None and spec.owner not in seat_of:
        raise ScenarioError(f"{path}.owner: {spec.owner!r} is not a player")
    owner = seat_of[spec.owner] if spec.owner is not None else seat
    if zone != "battlefield" and owner != seat:
        raise ScenarioError(f"{path}.owner: only permanents can be owned by another player")
    if spec.transformed:
        if zone != "battlefield" or defn.layout != "transform":
            raise ScenarioError(f"{path}.transformed: only a transforming double-faced permanent "
                                "can be transformed")
        name = defn.faces[1]  # 712: its back face up
    obj = create_object(game, name, owner, zone, controller=seat, is_token=token)
    obj.tapped = spec.tapped
    obj.damage = spec.damage
    obj.sick = spec.sick
    obj.face_down = spec.face_down
    if spec.sector is not None:
        obj.sector = spec.sector
    obj.counters = {k: v for k, v in spec.counters.items() if v}
    if zone == "battlefield" and defn.loyalty is not None and "loyalty" not in spec.counters:
        obj.counters["loyalty"] = defn.loyalty
    _protect(game, obj, spec, seat, seat_of, path)
    if spec.attached_to is not None:
        attach.append((obj.id, spec.attached_to, path))
    label = spec.label
    if label is not None:
        if label in labels or label in seat_of:
            raise ScenarioError(f"{path}.label: {label!r} must be unique and not a player name")
        labels[label] = obj.card
