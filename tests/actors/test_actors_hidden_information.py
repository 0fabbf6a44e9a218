"""Property: over many random games through the real actors, nothing addressed to a player
names or identifies a card hidden from that player when it was sent (400.2, 406.3, 708).

Each game has honest RandomBot seats and one hostile prober. At each grant of priority the
prober first sends two actions that differ only in one id: one naming an object hidden from it
(an opponent's hand card, any library card, an id a card had in a hidden zone before it moved,
the ids of the opening hands), the other an id that never existed; both must be refused in the
same words. It also names player refs of absent seats, and answers other decisions with a bad
key first. Then it plays legally.

The trace channel is tapped: when a message is recorded (the moment it is sent, given one
message in flight per game) the tap snapshots, for every seat, what that seat may not see
(``visible_to``). The checks then read the JSON Lines trace: for every line whose receiver is
``player:NAME``, and for every event of a state-based action check or a resolution (the
``GameEvent``s the SBA checker and the stack actor record; each public event for every seat,
each private one for the seats it is private to),

- no structured id (a view object, an action's object, a target candidate, a choice) is one
  hidden from the receiver, and no text shows such an id with a name (``Name (#N)``);
- no text contains the name of a card hidden from the receiver, unless that name is also
  visible to them at that moment (a Forest in the library while another is on the battlefield);
- the refusal of each probe pair reads the same once the probed number is masked.

Libraries are numbered after the shuffle: at the start of every game each library's ids ascend
from its top card.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, cast

import pytest
import trio

from spellstack.actors import TraceRecord, TraceWriter, play_game, tracer_actor
from spellstack.bots import RandomBot
from spellstack.cards import load_cards, load_deck
from spellstack.protocol import Rejected
from spellstack.rules import (
    MAX_PLAYERS,
    OPENING_HAND,
    Action,
    ActionOption,
    Answer,
    Decision,
    Game,
    GameObject,
    GameRandom,
    PlayerView,
    Reply,
    new_game,
    player_ref,
    visible_to,
)
from spellstack.scenarios import build_game

CARDS = load_cards()
DECK_NAMES = ("gruul", "orzhov", "dimir")
GAMES = 24
NEVER = 10**9
"""Ids from here up never exist in these games."""
SHAPES = ("target", "pay", "cast", "play", "activate", "turn_face_up")
"""Where a probe puts the id it names: a target, a mana source, the card or permanent."""
MORPH_DECK = [name for name, n in (("Plains", 14), ("Swamp", 10), ("Exalted Angel", 12),
                                   ("Savannah Lions", 4), ("Typhoid Rats", 4), ("Last Gasp", 4),
                                   ("Doom Blade", 4), ("Sorin's Thirst", 4), ("Mind Rot", 4))
              for _ in range(n)]
"""A deck of face-down spells and permanents (702.37, 708), and removal to make them leave."""
MORPH_GAMES = 6

# Keys whose int values (or list items) are object or player refs in a player's messages.
_REF_KEYS = frozenset({"object_id", "ref", "attached_to", "subject", "source_id"})
_REF_LIST_KEYS = frozenset({"targets", "candidates", "removed", "battlefield", "hand", "exile",
                            "graveyard", "library_top"})
"""Also a view delta's zone orders, a player's library top and removed objects: lists of ids."""
_OBJECT_LISTS = frozenset({"battlefield", "hand", "exile", "graveyard", "stack", "objects"})


@dataclass(frozen=True)
class Snapshot:
    """What one seat may not see at one moment."""

    hidden_ids: frozenset[int]
    """Ids of objects hidden from the seat, and ids hidden from it when they last existed."""
    hidden_names: frozenset[str]
    """Names of hidden cards that are not also visible to the seat."""
    faceless: dict[int, str] = field(default_factory=dict)
    """The face-down spells and permanents hidden from the seat (708.5), by id: their names,
    which no text about them may show (even where a card of that name is visible)."""
    shown: dict[int, str] = field(default_factory=dict)
    """The objects the seat may see, by id: their names."""


def id_shown(obj: GameObject) -> bool:
    """708.2a/708.5: a face-down permanent or spell (or its last known information) is shown to
    every player by its id, as a nameless 2/2 or a nameless spell: only its identity is hidden."""
    return obj.face_down and obj.zone in ("battlefield", "stack")


def snapshot(game: Game, seat: int) -> Snapshot:
    st = game.state
    hidden: set[int] = set()
    hidden_names: set[str] = set()
    shown_names: set[str] = set()
    faceless: dict[int, str] = {}
    shown: dict[int, str] = {}
    for table in (st.objects, st.lki):
        for oid, obj in table.items():
            if visible_to(game, seat, obj):
                shown_names.add(obj.name)
                shown[oid] = obj.name
            else:
                if id_shown(obj):
                    faceless[oid] = obj.name
                else:
                    hidden.add(oid)
                hidden_names.add(obj.name)
    return Snapshot(frozenset(hidden), frozenset(hidden_names - shown_names), faceless, shown)


_KERNEL_ACTORS = ("sba", "stack")
"""The actors whose events the tap always snapshots: the SBA checker's and the stack actor's."""


class Tap:
    """The trace channel's sending end, snapshotting what every seat may not see whenever a
    message to a player, or an event of the SBA checker or the stack actor, is recorded."""

    def __init__(self, game: Game, out: trio.MemorySendChannel[TraceRecord],
                 game_events: bool = False) -> None:
        self.game = game
        self.out = out
        self.snapshots: dict[int, list[Snapshot]] = {}
        self.game_events = game_events
        """Whether every ``GameEvent`` (the tracer's copy of each kernel event) is snapshotted
        too, for a check of every event text against the seats it may reach."""

    def send_nowait(self, rec: TraceRecord) -> None:
        if rec.receiver.startswith("player:") or (rec.kind == "GameEvent" and (
                self.game_events or rec.sender in _KERNEL_ACTORS)):
            seats = range(len(self.game.state.players))
            self.snapshots[rec.seq] = [snapshot(self.game, seat) for seat in seats]
        self.out.send_nowait(rec)


@dataclass
class Probe:
    """One probing action and the refusal it got."""

    decision_id: int
    ref: int
    hidden: bool
    pair: int
    refusal: str | None = None


def _as_target(opt: ActionOption, ref: int) -> Action:
    return Action(opt.kind, opt.object_id, opt.ability, (ref,))


def _as_payment(opt: ActionOption, targets: tuple[int, ...], ref: int) -> Action:
    return Action(opt.kind, opt.object_id, opt.ability, targets, pay=(ref,))


@dataclass
class Prober:
    """Hostile: names hidden ids, former hidden ids, never-existing ids and absent seats
    before playing legally."""

    game: Game
    seat: int
    seed: int
    inner: RandomBot = field(init=False)
    rng: GameRandom = field(init=False)
    queue: list[tuple[Action, int, bool, int]] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    pairs: int = 0
    legal_next: bool = False
    bad_answer_for: int = -1
    last: Probe | None = None
    shapes_used: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.inner = RandomBot(self.seed)
        self.rng = GameRandom.from_seed(self.seed + 1000)

    def notify(self, msg: object) -> None:
        if isinstance(msg, Rejected) and self.last is not None \
                and self.last.decision_id == msg.decision_id:
            self.last.refusal = msg.reason
        self.last = None

    def _hidden_ref(self) -> int:
        """An id hidden from this seat: by turns, one now in a hidden zone and one that was in
        a hidden zone when it last existed (a drawn card's library id, a cast card's hand id)."""
        st = self.game.state
        table = st.lki if self.pairs % 4 in (0, 1) else st.objects  # each shape gets both
        ids = sorted(i for i, o in table.items()
                     if not visible_to(self.game, self.seat, o) and not id_shown(o))
        if not ids:
            ids = sorted(i for t in (st.objects, st.lki) for i, o in t.items()
                         if not visible_to(self.game, self.seat, o) and not id_shown(o))
        return self.rng.choice(ids)

    def _shapes(self, decision: Decision) -> dict[str, Callable[[int], Action]]:
        """Ways to name one ref in an action, by name."""
        shapes: dict[str, Callable[[int], Action]] = {
            "cast": lambda r: Action("cast", r),
            "play": lambda r: Action("play", r),
            "activate": lambda r: Action("activate", r, ability=1),
            "turn_face_up": lambda r: Action("turn_face_up", r),
        }
        for opt in decision.actions:
            if opt.kind not in ("cast", "activate"):
                continue  # a land play takes no targets and no payment
            legal = tuple(c for req in opt.targets for c in req.candidates[:req.min])
            if opt.targets:
                shapes.setdefault("target", partial(_as_target, opt))
            shapes.setdefault("pay", partial(_as_payment, opt, legal))
        return shapes

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        if decision.kind != "priority":
            if self.bad_answer_for != decision.id:
                self.bad_answer_for = decision.id
                return Answer(decision.id, (NEVER,))
            return self.inner.decide(view, decision)
        if not self.queue and not self.legal_next:
            shapes = self._shapes(decision)
            # Round robin over the ways to name an id, as far as this decision allows; a target
            # (the way the defect leaked) whenever there is one, every other time.
            wanted = "target" if self.pairs % 2 else SHAPES[self.pairs // 2 % len(SHAPES)]
            name = wanted if wanted in shapes else sorted(shapes)[self.rng.below(len(shapes))]
            shape = shapes[name]
            self.pairs += 1
            self.shapes_used[name] = self.shapes_used.get(name, 0) + 1
            hidden = self._hidden_ref()
            never = NEVER + self.pairs
            self.queue = [(shape(hidden), hidden, True, self.pairs),
                          (shape(never), never, False, self.pairs)]
            if "target" in shapes:
                # A player ref of a seat this game doesn't have (800.4: or one that left).
                n = len(self.game.state.players)
                absent = player_ref(n + self.rng.below(MAX_PLAYERS - n))
                self.queue.append((shapes["target"](absent), absent, False, 0))
        if self.queue:
            action, ref, hidden_flag, pair = self.queue.pop(0)
            self.last = Probe(decision.id, ref, hidden_flag, pair)
            self.probes.append(self.last)
            if not self.queue:
                self.legal_next = True
            return action
        self.legal_next = False
        return self.inner.decide(view, decision)


# --------------------------------------------------------------------------- one game


@dataclass
class Played:
    names: list[str]
    tap: Tap
    prober: Prober
    lines: list[dict[str, Any]]


async def _play(seed: int, path: Path, morph: bool = False) -> Played:
    """One game; ``morph``: every seat plays ``MORPH_DECK``."""
    rng = GameRandom.from_seed(seed)
    n = 3 if seed % 5 == 4 else 2
    names = ["alice", "bob", "carol"][:n]
    decks = [DECK_NAMES[rng.below(len(DECK_NAMES))] for _ in range(n)]
    lists = [MORPH_DECK if morph else load_deck(d, CARDS).cards for d in decks]
    if morph:
        decks = ["morph"] * n
    game = new_game(CARDS, list(zip(names, lists, strict=True)), seed)
    st = game.state
    for p in st.players:
        # 400.2/103.3: numbered after the shuffle, top first; the opening hand came off the top.
        assert p.library == sorted(p.library)
        # The seven ids before the rest of the library were the drawn cards': gone (a card
        # that leaves a library keeps no last known information), the hand new objects.
        drawn = range(min(p.library) - OPENING_HAND, min(p.library))
        assert all(i not in st.objects and i not in st.lki for i in drawn)
        assert min(p.hand) > max(p.library)
    hostile = seed % n
    prober = Prober(game, hostile, seed * 7 + 3)
    policies = [prober if s == hostile else RandomBot(seed * 7 + s) for s in range(n)]
    with open(path, "w", encoding="utf-8") as stream:
        writer = TraceWriter(stream)
        writer.header(seed, dict(zip(names, decks, strict=True)), players=names)
        send, recv = trio.open_memory_channel[TraceRecord](math.inf)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(tracer_actor, recv, writer)
            async with send:
                tap = Tap(game, send, game_events=morph)
                result = await play_game(game, policies, trace=cast(Any, tap))
        writer.footer(winner=result.winner, reason=result.reason, turns=result.turns,
                      final_hash=result.final_hash)
    assert result.forfeits == [], result.forfeits
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    return Played(names, tap, prober, lines)


# --------------------------------------------------------------------------- checks


def _refs(node: Any, key: str = "", in_objects: bool = False) -> list[int]:
    """Every object or player ref in a message payload."""
    out: list[int] = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "id" and in_objects and isinstance(v, int):
                out.append(v)
            elif k in _REF_KEYS and isinstance(v, int):
                out.append(v)
            else:
                out.extend(_refs(v, k, in_objects or k in _OBJECT_LISTS))
    elif isinstance(node, list):
        if key in _REF_LIST_KEYS:
            out.extend(v for v in node if isinstance(v, int))
        for v in node:
            out.extend(_refs(v, key, in_objects))
    return out


def _texts(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [t for v in node.values() for t in _texts(v)]
    if isinstance(node, list):
        return [t for v in node for t in _texts(v)]
    return []


def _faceless_named(node: Any, faceless: dict[int, str]) -> list[Any]:
    """The objects of a payload (views, stack items, choices) that show a name for an id of a
    face-down object hidden from the receiver (708.5: it is shown nameless, or as ``#N``)."""
    out: list[Any] = []
    if isinstance(node, dict):
        oid = node.get("id", node.get("ref", node.get("object_id")))
        if isinstance(oid, int) and oid in faceless and node.get("name", "") not in ("", f"#{oid}"):
            out.append(node)
        for v in node.values():
            out.extend(_faceless_named(v, faceless))
    elif isinstance(node, list):
        for v in node:
            out.extend(_faceless_named(v, faceless))
    return out


def _check_message(msg: dict[str, Any], payload: Any, snap: Snapshot) -> None:
    where = f"seq {msg['seq']} {msg['kind']} to {msg['receiver']}: {payload}"[:300]
    named = _faceless_named(payload, snap.faceless)
    assert not named, f"{where}: face-down objects named {named}"
    leaked = set(_refs(payload)) & snap.hidden_ids
    assert not leaked, f"{where}: hidden ids {sorted(leaked)}"
    for text in _texts(payload):
        for n in re.findall(r"#(\d+)", text):
            if int(n) in snap.hidden_ids:
                assert f"(#{n})" not in text, f"{where}: a hidden id with a name: {text!r}"
        names = [name for name in snap.hidden_names if name in text]
        assert not names, f"{where}: hidden names {names} in {text!r}"


def _mask(text: str, *numbers: int) -> str:
    for n in numbers:
        text = re.sub(rf"\b{n}\b", "N", text)
    return text


# The first seeds run in the fast lane; all of them in the whole suite.
@pytest.mark.parametrize("seed", [pytest.param(seed, marks=[pytest.mark.slow] * (seed >= 3))
                                  for seed in range(GAMES)])
async def test_no_message_to_a_player_names_or_identifies_a_hidden_card(
        seed: int, tmp_path: Path) -> None:
    _check_played(await _play(seed, tmp_path / "trace.jsonl"))


@pytest.mark.slow
async def test_no_message_names_a_face_down_spell_or_permanent(tmp_path: Path) -> None:
    """708.5, 708.9: over random games of face-down Exalted Angels (cast face down, turned face
    up, dying, countered), nothing addressed to a player names a face-down spell or permanent
    it doesn't control, or identifies it with the card it was, until it is turned face up or
    leaves; the prober's turn_face_up probes are refused alike for hidden and unknown ids."""
    kinds: dict[str, int] = {}
    for seed in range(MORPH_GAMES):
        played = await _play(seed, tmp_path / f"trace{seed}.jsonl", morph=True)
        _check_played(played)
        for msg in played.lines[1:-1]:
            if msg["kind"] != "GameEvent" or msg["payload"]["kind"] in ("refused", "malformed"):
                continue  # a refusal reaches only the seat refused (checked as a Rejected)
            # Every kernel event (the tracer's copy) as it would reach each seat it may.
            ev = msg["payload"]
            snaps = played.tap.snapshots[msg["seq"]]
            for seat in ev["private_to"] or range(len(played.names)):
                _check_message(msg, {k: v for k, v in ev.items() if k != "refs"}, snaps[seat])
                # An event about a face-down object never names it (708.5), whatever else of
                # that name is in sight, but for another object of the event the seat sees.
                faceless, shown = snaps[seat].faceless, snaps[seat].shown
                refs = (ev["subject"], *ev["refs"])
                named = {shown[r] for r in refs if r in shown}
                for ref in refs:
                    assert ref not in faceless or faceless[ref] in named \
                        or faceless[ref] not in ev["text"], (seat, ev)
            kind = "morph_cast" if ev["kind"] == "cast" and "face-down" in ev["text"] else ev["kind"]
            kinds[kind] = kinds.get(kind, 0) + 1
    # The games did what they are for: spells cast face down, turned face up, revealed.
    assert kinds.get("morph_cast", 0) and kinds.get("face_up", 0) and kinds.get("reveal", 0), kinds


def _check_played(played: Played) -> None:
    messages = played.lines[1:-1]
    to_players = [m for m in messages if m["receiver"].startswith("player:")]
    assert to_players
    for msg in to_players:
        seat = played.names.index(msg["receiver"].removeprefix("player:"))
        _check_message(msg, msg["payload"], played.tap.snapshots[msg["seq"]][seat])
    events = 0
    for msg in messages:
        if msg["kind"] != "GameEvent" or msg["sender"] not in _KERNEL_ACTORS:
            continue
        snaps = played.tap.snapshots[msg["seq"]]
        # What the replies once carried: the event without the trace's own ``refs``.
        ev = {k: v for k, v in msg["payload"].items() if k != "refs"}
        events += 1
        for seat in ev["private_to"] or range(len(played.names)):
            _check_message(msg, ev, snaps[seat])
    assert events

    probes = played.prober.probes
    assert probes and all(p.refusal is not None for p in probes), "every probe is refused"
    by_pair: dict[int, list[Probe]] = {}
    for p in probes:
        if p.pair:
            by_pair.setdefault(p.pair, []).append(p)
    assert by_pair
    for pair, (hidden, never) in by_pair.items():
        assert hidden.hidden and not never.hidden
        assert hidden.refusal is not None and never.refusal is not None
        assert _mask(hidden.refusal, hidden.ref) == _mask(never.refusal, never.ref), pair
    # The refusals reached the prober through the trace, exactly as recorded (decision ids are
    # numbered per seat: the prober's own).
    prober = f"player:{played.names[played.prober.seat]}"
    rejected = {m["payload"]["decision_id"]: m["payload"]["reason"] for m in to_players
                if m["kind"] == "Rejected" and m["receiver"] == prober}
    assert all(rejected[p.decision_id] == p.refusal for p in probes)


# --------------------------------------------------------------------------- a library's top card

TOP_LIBRARY = ["Elvish Visionary", "Giant Spider", "Hill Giant", "Raging Goblin", "Glistener Elf",
               "Grizzly Bears"] * 3 + ["Forest"] * 6
"""Alice's library: creatures she may cast from the top under Garruk's Horde (and the Elvish
Visionary draws), no card of Bob's."""


class TopTap(Tap):
    """A ``Tap`` that also records Alice's top card (id, name) as each message is recorded."""

    def __init__(self, game: Game, out: trio.MemorySendChannel[TraceRecord]) -> None:
        super().__init__(game, out)
        self.tops: dict[int, tuple[int, str]] = {}

    def send_nowait(self, rec: TraceRecord) -> None:
        library = self.game.state.players[0].library
        if library:
            self.tops[rec.seq] = (library[0], self.game.state.objects[library[0]].name)
        super().send_nowait(rec)


async def _play_top(effect: str, seed: int, path: Path) -> tuple[TopTap, list[dict[str, Any]]]:
    rng = GameRandom.from_seed(seed)
    library = list(TOP_LIBRARY)
    rng.shuffle(library)
    game, _ = build_game({"players": ["alice", "bob"],
                          "alice": {"battlefield": [effect, "Forest", "Forest", "Forest", "Island"],
                                    "library": library},
                          "bob": {"battlefield": ["Island", "Island", "Swamp"],
                                  "library": ["Island", "Swamp", "Typhoid Rats", "Unsummon"] * 5}},
                         seed, CARDS, "test")
    game.state.turn_limit = 8
    with open(path, "w", encoding="utf-8") as stream:
        writer = TraceWriter(stream)
        writer.header(seed, {"alice": "test", "bob": "test"}, players=["alice", "bob"])
        send, recv = trio.open_memory_channel[TraceRecord](math.inf)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(tracer_actor, recv, writer)
            async with send:
                tap = TopTap(game, send)
                result = await play_game(game, [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)],
                                         trace=cast(Any, tap))
        writer.footer(winner=result.winner, reason=result.reason, turns=result.turns,
                      final_hash=result.final_hash)
    assert result.forfeits == [] and "engine error" not in result.reason, result
    return tap, [json.loads(line) for line in path.read_text("utf-8").splitlines()[1:-1]]


def _tops_shown(payload: Any) -> list[int]:
    """The library top ids the players' records of a request's view delta show."""
    view = payload.get("view") if isinstance(payload, dict) else None
    return [i for p in (view or {}).get("players", []) for i in p["library_top"]]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("effect", ["Garruk's Horde", "Future Sight"])
async def test_the_top_card_reaches_only_those_an_effect_shows_it_to(
        effect: str, seed: int, tmp_path: Path) -> None:
    # 400.2 as effects change it: under Garruk's Horde ("You may look at the top card of your
    # library any time") Alice's view shows her top card and no message to Bob names it or its
    # id; under Future Sight ("Play with the top card of your library revealed") both views do.
    tap, messages = await _play_top(effect, seed, tmp_path / "trace.jsonl")
    shown: dict[str, int] = {"player:alice": 0, "player:bob": 0}
    ever: dict[str, set[int]] = {"player:alice": set(), "player:bob": set()}
    named = [0]
    for msg in messages:
        receiver = msg["receiver"]
        if receiver not in shown:
            continue
        seat = 0 if receiver == "player:alice" else 1
        snap = tap.snapshots[msg["seq"]][seat]
        payload = msg["payload"]
        view = payload.get("view")
        if view is not None:
            # A delta drops ids its base showed: Alice's top card once the Horde has left the
            # battlefield (she saw that id; it names nothing new). Any other id it names is one
            # she may see now.
            assert set(view["removed"]) <= ever[receiver]
            payload = {**payload, "view": {**view, "removed": []}}
            ever[receiver] |= {o["id"] for o in view["objects"]}
        _check_message(msg, payload, snap)  # no hidden id or name, the top card's included
        tops = _tops_shown(payload)
        assert not set(tops) & snap.hidden_ids
        shown[receiver] += len(tops)
        if receiver == "player:bob" and msg["seq"] in tap.tops:
            top, name = tap.tops[msg["seq"]]
            # Bob may see Alice's top card under Future Sight, never under the Horde; then its
            # name, unless he sees a card of that name elsewhere, was checked absent above.
            assert (top in snap.hidden_ids) == (effect == "Garruk's Horde")
            named[0] += name in snap.hidden_names
    assert shown["player:alice"] > 0  # the view delta carried Alice's top card to her
    if effect == "Future Sight":
        assert shown["player:bob"] > 0
    else:
        assert shown["player:bob"] == 0
        assert named[0] > 0  # messages to Bob were checked for a top card's name hidden from him
