"""Checking a scenario's ``expect`` table against the game (scenario format 1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..rules import (
    SETUP_ZONES,
    Game,
    GameObject,
    format_pool,
    parse_pool,
    player_ref,
    trigger_name,
)
from ..schema import SchemaError, from_plain
from ._errors import ScenarioError, ScenarioFailure
from ._format import ExpectTable, ObjectExpect

__all__ = ["check_expect", "find_card", "read_expect", "stack_name"]

_ZONE_KEYS = tuple(z for z in SETUP_ZONES if z != "library")  # the library: library_top, library_count


def read_expect(expect: Any, where: str) -> ExpectTable:
    """An ``expect`` table read by the schema engine; a ScenarioError naming ``where`` and the
    key otherwise."""
    if isinstance(expect, ExpectTable):
        return expect
    try:
        return from_plain(ExpectTable, expect)
    except SchemaError as err:
        sep = "" if not err.path or err.path.startswith("[") else "."
        raise ScenarioError(f"{where}{sep}{err.path}: {err.detail}") from None


def find_card(game: Game, card: int) -> GameObject | None:
    """The object a physical card (or token) is now, if it is in a zone: a merged permanent
    for each of its cards (725.1)."""
    for obj in game.state.objects.values():
        if obj.card == card and not obj.ability_kind:
            return obj
    for oid in game.state.battlefield:
        obj = game.state.objects[oid]
        if obj.merged and any(part[0] == card for part in obj.merged):
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


def check_expect(game: Game, raw: ExpectTable | Mapping[str, Any], labels: Mapping[str, int],
                 where: str) -> None:
    """Raise ScenarioFailure at the first expectation that doesn't hold."""
    expect = read_expect(raw, f"{where}: expect")
    st = game.state
    want: Any
    got: Any
    for key in ("life", "poison", "hand_count", "library_count"):
        for name, want in (getattr(expect, key) or {}).items():
            p = st.players[_seat(game, name, f"{where}.{key}")]
            got = {"life": p.life, "poison": p.poison, "hand_count": len(p.hand),
                   "library_count": len(p.library)}[key]
            if got != want:
                raise _fail(f"{key}.{name}", want, got)
    for key in _ZONE_KEYS:
        for name, want in (getattr(expect, key) or {}).items():
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
    for name, want in (expect.library_top or {}).items():
        lib = st.players[_seat(game, name, f"{where}.library_top")].library
        got = [st.objects[i].name for i in lib[: len(want)]]
        if got != list(want):
            raise _fail(f"library_top.{name}", list(want), got)
    if expect.stack_count is not None and len(st.stack) != expect.stack_count:
        raise _fail("stack_count", expect.stack_count, len(st.stack))
    if expect.stack is not None:
        got = [stack_name(game, st.objects[i]) for i in reversed(st.stack)]
        # A triggered ability may be named with or without its "#N" (scenario format).
        bare = [g.split(" #", 1)[0] if g.startswith("ability: ") else g for g in got]
        want = list(expect.stack)
        if len(want) != len(got) or any(w not in (g, b) for w, g, b in zip(want, got, bare,
                                                                              strict=True)):
            raise _fail("stack", want, got)
    if expect.stack_controllers is not None:
        got = [st.players[st.objects[i].controller].name for i in reversed(st.stack)]
        if got != list(expect.stack_controllers):
            raise _fail("stack_controllers", list(expect.stack_controllers), got)
    for label, want in (expect.objects or {}).items():
        if label not in labels:
            raise ScenarioError(f"{where}: objects.{label}: no such label")
        _check_object(game, label, labels, want)
    for name, want in (expect.dungeon or {}).items():
        p = st.players[_seat(game, name, f"{where}.dungeon")]
        got = p.room if p.command else "none"
        if got != want:
            raise _fail(f"dungeon.{name}", want, got)
    for name, want in (expect.completed_dungeons or {}).items():
        p = st.players[_seat(game, name, f"{where}.completed_dungeons")]
        if Counter(p.completed_dungeons) != Counter(want):
            raise _fail(f"completed_dungeons.{name}", sorted(want), sorted(p.completed_dungeons))
    if expect.lost is not None:
        got = sorted(p.name for p in st.players if p.lost)
        if got != sorted(expect.lost):
            raise _fail("lost", sorted(expect.lost), got)
    if expect.winner is not None:
        want = expect.winner
        if want == "none":
            if not (st.game_over and st.winner < 0):
                raise _fail("winner", "none (a draw)", _winner(game))
        elif _winner(game) != want:
            raise _fail("winner", want, _winner(game))
    if expect.game_over is not None and st.game_over != expect.game_over:
        raise _fail("game_over", expect.game_over, st.game_over)
    if expect.priority is not None:
        got = st.players[st.priority].name if st.priority >= 0 else "nobody"
        if got != expect.priority:
            raise _fail("priority", expect.priority, got)
    if expect.active is not None and st.players[st.active].name != expect.active:
        raise _fail("active", expect.active, st.players[st.active].name)
    if expect.step is not None and st.step != expect.step:
        raise _fail("step", expect.step, st.step)
    if expect.turn is not None and st.turn != expect.turn:
        raise _fail("turn", expect.turn, st.turn)
    for name, want in (expect.mana or {}).items():
        pool = st.players[_seat(game, name, f"{where}.mana")].mana
        if format_pool(pool) != format_pool(parse_pool(want)):
            raise _fail(f"mana.{name}", want, format_pool(pool))


def _winner(game: Game) -> str | None:
    st = game.state
    return st.players[st.winner].name if st.game_over and st.winner >= 0 else None


def _check_object(game: Game, label: str, labels: Mapping[str, int], want: ObjectExpect) -> None:
    st = game.state
    obj = find_card(game, labels[label])
    path = f"objects.{label}"
    zone = obj.zone if obj is not None else "gone"
    if want.zone is not None and zone != want.zone:
        raise _fail(f"{path}.zone", want.zone, zone)
    given = {k: v for k in _OBJECT_CHECKS if (v := getattr(want, k)) is not None}
    if obj is None:
        if given:
            raise _fail(path, "an object in a zone", "gone")
        return
    checks: dict[str, Any] = {
        "controller": lambda: st.players[game.controller(obj)].name,
        "tapped": lambda: obj.tapped,
        "face_down": lambda: obj.face_down,
        "sector": lambda: obj.sector or "none",
        "damage": lambda: obj.damage,
        "power": lambda: game.power(obj),
        "toughness": lambda: game.toughness(obj),
        "loyalty": lambda: obj.counters.get("loyalty", 0),
        "counters": lambda: {k: v for k, v in obj.counters.items() if v},
        "types": lambda: set(game.card_types(obj)),
        "attached_to": lambda: _attached_name(game, obj, labels),
        "defense": lambda: obj.counters.get("defense", 0),
        "transformed": lambda: game.cards[obj.name].layout == "transform"
        and game.cards[obj.name].card_name != obj.name,
        "protector": lambda: st.players[obj.protector].name if obj.protector >= 0 else "none",
    }
    for key, value in given.items():
        if key == "abilities_include":
            have = set(game.keywords(obj))
            missing = [k for k in value if k not in have]
            if missing:
                raise _fail(f"{path}.abilities_include", list(value), sorted(have))
            continue
        got = checks[key]()
        expected = set(value) if key == "types" else value
        if got != expected:
            raise _fail(f"{path}.{key}", list(value) if key == "types" else value,
                        sorted(got) if key == "types" else got)


_OBJECT_CHECKS = tuple(f for f in ObjectExpect.__dataclass_fields__ if f != "zone")
"""What an object expectation may check besides its zone, in the order they are checked."""


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
