"""Checking a scenario's ``expect`` table against the game (scenario format 1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..rules import (
    SETUP_ZONES,
    Game,
    GameObject,
    ManaCostSyntaxError,
    format_pool,
    parse_pool,
    player_ref,
    trigger_name,
)
from ._errors import ScenarioError, ScenarioFailure

__all__ = ["check_expect", "check_expect_types", "find_card", "stack_name"]

_ZONE_KEYS = tuple(z for z in SETUP_ZONES if z != "library")  # the library: library_top, library_count
_IS_INT = (lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer")
_IS_STR = (lambda v: isinstance(v, str), "a string")
_IS_NAMES = (lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v),
             "a list of names")
_IS_BOOL = (lambda v: isinstance(v, bool), "true or false")
_IS_TABLE = (lambda v: isinstance(v, dict), "a table")
_TYPES: dict[str, tuple[Any, ...]] = {
    # key: (type of the value) or (table, type of each entry)
    **dict.fromkeys(("life", "poison", "hand_count", "library_count"), (_IS_TABLE, _IS_INT)),
    **dict.fromkeys((*_ZONE_KEYS, "library_top"), (_IS_TABLE, _IS_NAMES)),
    "mana": (_IS_TABLE, _IS_STR),
    "objects": (_IS_TABLE, _IS_TABLE),
    **dict.fromkeys(("stack_count", "turn"), (_IS_INT,)),
    **dict.fromkeys(("stack", "stack_controllers", "lost"), (_IS_NAMES,)),
    **dict.fromkeys(("winner", "priority", "active", "step"), (_IS_STR,)),
    "game_over": (_IS_BOOL,),
}
_KNOWN = set(_TYPES)
_OBJECT_TYPES = {
    **dict.fromkeys(("zone", "controller", "attached_to"), _IS_STR),
    **dict.fromkeys(("damage", "power", "toughness", "loyalty"), _IS_INT),
    "tapped": _IS_BOOL, "face_down": _IS_BOOL, "counters": _IS_TABLE, "types": _IS_NAMES,
    "abilities_include": _IS_NAMES,
}


def check_expect_types(expect: Any, where: str) -> None:
    """An ``expect`` table has only known keys, each with a value of the right type."""
    if not isinstance(expect, dict):
        raise ScenarioError(f"{where} must be a table, got {expect!r}")
    for name, want in expect.get("mana", {}).items() if isinstance(expect.get("mana"), dict) else ():
        try:
            parse_pool(want if isinstance(want, str) else "")
        except ManaCostSyntaxError as err:
            raise ScenarioError(f"{where}.mana.{name}: {err}") from None
    for key, value in expect.items():
        if key not in _TYPES:
            raise ScenarioError(f"{where}: unknown expectation {key!r}")
        (ok, what), *inner = _TYPES[key]
        if not ok(value):
            raise ScenarioError(f"{where}.{key} must be {what}, got {value!r}")
        for name, entry in (value.items() if inner else ()):
            if not inner[0][0](entry):
                raise ScenarioError(f"{where}.{key}.{name} must be {inner[0][1]}, got {entry!r}")
            if key == "objects":
                for okey, ovalue in entry.items():
                    if okey not in _OBJECT_TYPES:
                        raise ScenarioError(f"{where}.objects.{name}: unknown key {okey!r}")
                    if not _OBJECT_TYPES[okey][0](ovalue):
                        raise ScenarioError(f"{where}.objects.{name}.{okey} must be "
                                            f"{_OBJECT_TYPES[okey][1]}, got {ovalue!r}")


def find_card(game: Game, card: int) -> GameObject | None:
    """The object a physical card (or token) is now, if it is in a zone."""
    for obj in game.state.objects.values():
        if obj.card == card and not obj.ability_kind:
            return obj
    return None


def stack_name(game: Game, obj: GameObject) -> str:
    """The scenario-format name of a stack object."""
    if obj.ability_kind == "triggered":
        return trigger_name(obj.name, obj.ability_index, game)
    if obj.ability_kind:
        return f"ability: {obj.name}"
    if obj.is_copy:
        return f"copy: {obj.name}"  # 707.10
    return obj.name


def _seat(game: Game, name: str, path: str) -> int:
    for p in game.state.players:
        if p.name == name:
            return p.seat
    raise ScenarioError(f"{path}: {name!r} is not a player")


def _fail(path: str, expected: Any, actual: Any) -> ScenarioFailure:
    return ScenarioFailure(f"{path}: expected {expected!r}, got {actual!r}")


def check_expect(game: Game, expect: Mapping[str, Any], labels: Mapping[str, int],
                 where: str) -> None:
    """Raise ScenarioFailure at the first expectation that doesn't hold."""
    st = game.state
    want: Any
    got: Any
    bad = set(expect) - _KNOWN
    if bad:
        raise ScenarioError(f"{where}: unknown expectation {sorted(bad)[0]!r}")
    for key in ("life", "poison", "hand_count", "library_count"):
        for name, want in expect.get(key, {}).items():
            p = st.players[_seat(game, name, f"{where}.{key}")]
            got = {"life": p.life, "poison": p.poison, "hand_count": len(p.hand),
                   "library_count": len(p.library)}[key]
            if got != want:
                raise _fail(f"{key}.{name}", want, got)
    for key in _ZONE_KEYS:
        for name, want in expect.get(key, {}).items():
            seat = _seat(game, name, f"{where}.{key}")
            if key == "battlefield":
                ids = [o.id for o in game.controlled(seat)]
            elif key == "exile":
                ids = [i for i in st.exile if st.objects[i].owner == seat]
            else:
                ids = list(st.zone_list(key, seat))
            # 707.2: a permanent's name now (a copy's is the original's).
            got = sorted(game.characteristics(st.objects[i]).name or st.objects[i].name
                         if key == "battlefield" else st.objects[i].name for i in ids)
            if Counter(got) != Counter(want):
                raise _fail(f"{key}.{name}", sorted(want), got)
    for name, want in expect.get("library_top", {}).items():
        lib = st.players[_seat(game, name, f"{where}.library_top")].library
        got = [st.objects[i].name for i in lib[: len(want)]]
        if got != list(want):
            raise _fail(f"library_top.{name}", want, got)
    if "stack_count" in expect and len(st.stack) != expect["stack_count"]:
        raise _fail("stack_count", expect["stack_count"], len(st.stack))
    if "stack" in expect:
        got = [stack_name(game, st.objects[i]) for i in reversed(st.stack)]
        # A triggered ability may be named with or without its "#N" (scenario format).
        bare = [g.split(" #", 1)[0] if g.startswith("ability: ") else g for g in got]
        want = list(expect["stack"])
        if len(want) != len(got) or any(w not in (g, b) for w, g, b in zip(want, got, bare,
                                                                              strict=True)):
            raise _fail("stack", expect["stack"], got)
    if "stack_controllers" in expect:
        got = [st.players[st.objects[i].controller].name for i in reversed(st.stack)]
        if got != list(expect["stack_controllers"]):
            raise _fail("stack_controllers", expect["stack_controllers"], got)
    for label, want in expect.get("objects", {}).items():
        if label not in labels:
            raise ScenarioError(f"{where}: objects.{label}: no such label")
        _check_object(game, label, labels, want)
    if "lost" in expect:
        got = sorted(p.name for p in st.players if p.lost)
        if got != sorted(expect["lost"]):
            raise _fail("lost", sorted(expect["lost"]), got)
    if "winner" in expect:
        want = expect["winner"]
        if want == "none":
            if not (st.game_over and st.winner < 0):
                raise _fail("winner", "none (a draw)", _winner(game))
        elif _winner(game) != want:
            raise _fail("winner", want, _winner(game))
    if "game_over" in expect and st.game_over != expect["game_over"]:
        raise _fail("game_over", expect["game_over"], st.game_over)
    if "priority" in expect:
        got = st.players[st.priority].name if st.priority >= 0 else "nobody"
        if got != expect["priority"]:
            raise _fail("priority", expect["priority"], got)
    if "active" in expect and st.players[st.active].name != expect["active"]:
        raise _fail("active", expect["active"], st.players[st.active].name)
    if "step" in expect and st.step != expect["step"]:
        raise _fail("step", expect["step"], st.step)
    if "turn" in expect and st.turn != expect["turn"]:
        raise _fail("turn", expect["turn"], st.turn)
    for name, want in expect.get("mana", {}).items():
        pool = st.players[_seat(game, name, f"{where}.mana")].mana
        if format_pool(pool) != format_pool(parse_pool(want)):
            raise _fail(f"mana.{name}", want, format_pool(pool))


def _winner(game: Game) -> str | None:
    st = game.state
    return st.players[st.winner].name if st.game_over and st.winner >= 0 else None


def _check_object(game: Game, label: str, labels: Mapping[str, int],
                  want: Mapping[str, Any]) -> None:
    st = game.state
    obj = find_card(game, labels[label])
    path = f"objects.{label}"
    zone = obj.zone if obj is not None else "gone"
    if "zone" in want and zone != want["zone"]:
        raise _fail(f"{path}.zone", want["zone"], zone)
    if obj is None:
        if set(want) - {"zone"}:
            raise _fail(path, "an object in a zone", "gone")
        return
    checks: dict[str, Any] = {
        "controller": lambda: st.players[game.controller(obj)].name,
        "tapped": lambda: obj.tapped,
        "face_down": lambda: obj.face_down,
        "damage": lambda: obj.damage,
        "power": lambda: game.power(obj),
        "toughness": lambda: game.toughness(obj),
        "loyalty": lambda: obj.counters.get("loyalty", 0),
        "counters": lambda: {k: v for k, v in obj.counters.items() if v},
        "types": lambda: set(game.card_types(obj)),
        "attached_to": lambda: _attached_name(game, obj, labels),
    }
    for key, value in want.items():
        if key == "zone":
            continue
        if key == "abilities_include":
            have = set(game.keywords(obj))
            missing = [k for k in value if k not in have]
            if missing:
                raise _fail(f"{path}.abilities_include", value, sorted(have))
            continue
        if key not in checks:
            raise ScenarioError(f"{path}: unknown key {key!r}")
        got = checks[key]()
        expected = set(value) if key == "types" else value
        if got != expected:
            raise _fail(f"{path}.{key}", value, sorted(got) if key == "types" else got)


def _attached_name(game: Game, obj: GameObject, labels: Mapping[str, int]) -> str:
    if not obj.attached_to:
        return "none"
    for p in game.state.players:
        if player_ref(p.seat) == obj.attached_to:
            return p.name
    target = game.state.objects.get(obj.attached_to)
    if target is None:
        return "none"
    for label, card in labels.items():
        if card == target.card:
            return label
    return target.name
