"""Building the starting state a scenario describes (scenario format 1, ``[setup]``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import card_name_problem
from ..rules import (
    SETUP_ZONES,
    STEPS,
    CardDefinition,
    Game,
    GameRandom,
    GameState,
    ManaCostSyntaxError,
    PlayerState,
    create_object,
    parse_pool,
    player_ref,
)
from ._errors import ScenarioError, ScenarioUnsupported

__all__ = ["PRIORITY_STEPS", "build_game"]

PRIORITY_STEPS = frozenset(STEPS) - {"untap", "cleanup"}
_PLAYER_KEYS = {"life", "poison", *SETUP_ZONES, "mana", "lands_played"}
_OBJECT_KEYS = {"card", "token", "label", "owner", "tapped", "damage", "counters", "sick",
                "attached_to", "face_down"}


_INT64 = 2**63
"""Numbers cross the protocol as 64-bit integers."""


def _whole(value: Any, least: int) -> bool:
    """An integer (not a bool) from ``least`` up to the 64-bit limit."""
    return isinstance(value, int) and not isinstance(value, bool) and least <= value < _INT64


def build_game(setup: Mapping[str, Any], seed: int, cards: Mapping[str, CardDefinition],
               where: str) -> tuple[Game, dict[str, int]]:
    """The game a ``[setup]`` table describes, and the labels (label -> physical card id)."""
    names = setup.get("players")
    if not (isinstance(names, list) and len(names) >= 2
            and all(isinstance(n, str) and n for n in names) and len(set(names)) == len(names)):
        raise ScenarioError(f"{where}: setup.players must list 2 or more distinct names")
    step = setup.get("step", "precombat_main")
    if not isinstance(step, str) or step not in PRIORITY_STEPS:
        raise ScenarioError(f"{where}: setup.step {step!r} is not a step in which players "
                            f"receive priority")
    turn = setup.get("turn", 1)
    if not _whole(turn, 1):
        raise ScenarioError(f"{where}: setup.turn must be a positive integer, got {turn!r}")
    if turn == 1 and step == "draw" and len(names) == 2:
        # 103.8c: in a game of three or more players the starting player does draw.
        raise ScenarioError(f"{where}: in a two-player game the starting player skips the "
                            "first draw step (103.8a)")
    unknown = set(setup) - {"players", "turn", "step", "priority", *names}
    if unknown:
        raise ScenarioError(f"{where}: setup: unknown key {sorted(unknown)[0]!r}")
    state = GameState(players=[PlayerState(i, n) for i, n in enumerate(names)],
                      rng=GameRandom.from_seed(seed), turn=turn, step=step)
    game = Game(state, cards)
    seat_of = {n: i for i, n in enumerate(names)}
    prio = setup.get("priority", names[0])
    if not isinstance(prio, str) or prio not in seat_of:
        raise ScenarioError(f"{where}: setup.priority {prio!r} is not a player")
    state.priority = seat_of[prio]
    labels: dict[str, int] = {}
    attach: list[tuple[int, str, str]] = []
    for seat, name in enumerate(names):
        table = setup.get(name, {})
        if not isinstance(table, dict):
            raise ScenarioError(f"{where}: setup.{name} must be a table")
        bad = set(table) - _PLAYER_KEYS
        if bad:
            raise ScenarioError(f"{where}: setup.{name}: unknown key {sorted(bad)[0]!r}")
        p = state.players[seat]
        for key in ("life", "poison", "lands_played"):
            if key in table:
                if not _whole(table[key], -_INT64 if key == "life" else 0):
                    raise ScenarioError(f"{where}: setup.{name}.{key} must be "
                                        f"{'an integer' if key == 'life' else 'a whole number'} "
                                        "within 64 bits")
                setattr(p, key, table[key])
        if "mana" in table:
            try:
                p.mana = parse_pool(str(table["mana"]))
            except (ManaCostSyntaxError, ValueError) as err:
                raise ScenarioError(f"{where}: setup.{name}.mana: {err}") from None
        for zone in SETUP_ZONES:
            items = table.get(zone, [])
            if not isinstance(items, list):
                raise ScenarioError(f"{where}: setup.{name}.{zone} must be a list")
            for i, item in enumerate(items):
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


def _place(game: Game, item: Any, seat: int, zone: str, seat_of: dict[str, int],
           labels: dict[str, int], attach: list[tuple[int, str, str]], path: str) -> None:
    spec: dict[str, Any] = {"card": item} if isinstance(item, str) else item
    if not isinstance(spec, dict):
        raise ScenarioError(f"{path}: an object is a card name or a table, got {item!r}")
    bad = set(spec) - _OBJECT_KEYS
    if bad:
        raise ScenarioError(f"{path}: unknown key {sorted(bad)[0]!r}")
    token = "token" in spec
    name = spec.get("token") if token else spec.get("card")
    if not isinstance(name, str):
        raise ScenarioError(f"{path}: needs 'card' or 'token'")
    defn = game.cards.get(name)
    if defn is None or defn.is_token != token:
        in_pool, problem = card_name_problem(name, game.cards, token=token)
        if in_pool:
            raise ScenarioUnsupported(path, problem)
        raise ScenarioError(f"{path}: {problem}")
    owner_name = spec.get("owner")
    if owner_name is not None and not (isinstance(owner_name, str) and owner_name in seat_of):
        raise ScenarioError(f"{path}.owner: {owner_name!r} is not a player")
    owner = seat_of[owner_name] if owner_name is not None else seat
    if zone != "battlefield" and owner != seat:
        raise ScenarioError(f"{path}.owner: only permanents can be owned by another player")
    for key in ("tapped", "sick", "face_down"):
        if not isinstance(spec.get(key, False), bool):
            raise ScenarioError(f"{path}.{key} must be true or false")
    damage = spec.get("damage", 0)
    if not _whole(damage, 0):
        raise ScenarioError(f"{path}.damage must be a whole number within 64 bits, got "
                            f"{damage!r}")
    obj = create_object(game, name, owner, zone, controller=seat, is_token=token)
    obj.tapped = spec.get("tapped", False)
    obj.damage = damage
    obj.sick = spec.get("sick", False)
    obj.face_down = spec.get("face_down", False)
    counters = spec.get("counters", {})
    if not isinstance(counters, dict) or not all(_whole(v, 0) for v in counters.values()):
        raise ScenarioError(f"{path}.counters must be a table of whole numbers within 64 bits")
    obj.counters = {k: v for k, v in counters.items() if v}
    if zone == "battlefield" and defn.loyalty is not None and "loyalty" not in counters:
        obj.counters["loyalty"] = defn.loyalty
    if "attached_to" in spec:
        attach.append((obj.id, str(spec["attached_to"]), path))
    label = spec.get("label")
    if label is not None:
        if not isinstance(label, str) or label in labels or label in seat_of:
            raise ScenarioError(f"{path}.label: {label!r} must be unique and not a player name")
        labels[label] = obj.card
