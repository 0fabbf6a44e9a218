"""A hostile client's messages: a seeded stream of mutations mixed with legal play.

``HostileStream`` makes each message a hostile seat sends: the legal reply of a seeded random
bot, or a mutation of it (random bytes, truncations, wrong types, out-of-range values, ids
from every zone, player refs of absent seats, actions out of turn, messages nobody asked
for, object-count bombs from ``_hostile_bombs.py``). ``run_hostile_seat`` and ``HostileBot``
(``_hostile_seat.py``) send them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import msgpack  # type: ignore[import-untyped]  # ships no type information

from ..bots import RandomBot
from ..protocol import (
    MESSAGE_TYPES,
    PROTOCOL_VERSION,
    DecisionRequest,
    PriorityRequest,
    SubmitAction,
    SubmitAnswer,
    ViewDelta,
    encode,
)
from ..rules import (
    ACTION_KINDS,
    FIRST_OBJECT_ID,
    MAX_PLAYERS,
    Action,
    ActionOption,
    Answer,
    Decision,
    Game,
    GameRandom,
    PlayerView,
    Reply,
)
from ._hostile_bombs import object_bomb

T = TypeVar("T")

__all__ = ["HOSTILE_KINDS", "NO_DELTA", "NO_VIEW", "RAW_KINDS", "HostileStream", "Outgoing", "submission"]

HOSTILE_KINDS: tuple[str, ...] = (
    "boundary", "zone_id", "player_ref", "wrong_action", "out_of_turn", "answer", "wrong_type",
)
"""Mutations that are still an Action or an Answer (a policy can return them)."""
RAW_KINDS: tuple[str, ...] = (
    "random_bytes", "truncated", "bit_flip", "envelope", "structure", "wrong_message",
    "unsolicited", "object_bomb", *HOSTILE_KINDS,
)
"""Every mutation of the raw stream."""

_INTS = (0, -1, 1, 2, 7, 8, 9, 99, FIRST_OBJECT_ID - 1, 2**31 - 1, -(2**31), 2**32, 2**53,
         2**63 - 1, -(2**63), 2**64 - 1)
"""Boundary values for any int field (msgpack carries -2**63 .. 2**64-1)."""
_STRINGS = ("", " ", "PASS", "pass ", "cast\x00", "fireball", "x" * 300, "é", "\u202e", "\ud7ff")
"""Boundary values for a string field (``concede`` left out: it is legal and ends the game)."""
_OTHER_TYPES: tuple[Any, ...] = ("7", 7.5, float("nan"), None, True, [], {}, [1, [2]], {"a": 1},
                                 b"\x00", -0.0)
"""Values of the wrong type, all of which msgpack can carry."""


_BOUNDARY_FIELDS: dict[str, tuple[str, ...]] = {
    "cast": ("targets", "targets", "targets", "x", "x", "object_id", "pay", "divide", "kind"),
    "activate": ("ability", "ability", "targets", "targets", "targets", "x", "object_id", "pay"),
    "play": ("object_id", "object_id", "object_id", "kind"),
}
"""Which field a boundary value goes into, by action kind (the fields it uses, mostly)."""
_REF_FIELDS: dict[str, tuple[str, ...]] = {
    "cast": ("targets", "targets", "targets", "targets", "object_id", "pay", "divide"),
    "activate": ("targets", "targets", "targets", "targets", "object_id", "pay", "divide"),
    "play": ("object_id", "object_id", "object_id", "targets"),
}
"""Which field an id or player ref goes into, by action kind."""


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One message of the stream."""

    kind: str
    """The mutation (``legal`` for a legal reply, ``leave`` for a Forfeit or a concession)."""
    data: bytes
    """The bytes sent."""


def _with(obj: T, name: str, value: Any) -> T:
    """``obj`` with field ``name`` set to ``value``, whatever its type."""
    return cast(T, dataclasses.replace(cast(Any, obj), **{name: value}))


def _pack(obj: Any) -> bytes:
    data: bytes = msgpack.packb(obj, use_bin_type=True)
    return data


class HostileStream:
    """The seeded source of one hostile seat's messages.

    ``game``: read access to the game, so that ids can be drawn from every zone (a real
    hostile program would guess them; a fuzzer may as well aim). ``rate``: the chance that a
    message is mutated rather than the legal reply.
    """

    def __init__(self, seed: int, *, game: Game | None = None, rate: float = 0.75,
                 kinds: tuple[str, ...] = RAW_KINDS) -> None:
        self.rng = GameRandom.from_seed(seed)
        """Every choice of the stream comes from here."""
        self.legal = RandomBot(seed ^ 0x5EED)
        """Where legal replies come from."""
        self.game = game
        self.view: PlayerView | None = None
        """The seat's view at the pending request (rebuilt from its view delta), if known."""
        self.encodable = False
        """Whether every mutation must survive the protocol's encoder (a policy's replies are
        encoded by its player actor, which forfeits the seat for one that can't be)."""
        self.rate = rate
        self.kinds = kinds
        self._weighted = [k for k in kinds if k != "unsolicited"] + [
            k for k in kinds if k in HOSTILE_KINDS]
        self.seen: list[ActionOption] = []
        """Action options offered in earlier requests (to replay out of turn)."""
        self.decision_ids: list[int] = []
        """Ids of earlier decisions."""

    # ------------------------------------------------------------------ choosing

    def chance(self, p: float) -> bool:
        """True with probability ``p`` (from the stream's generator)."""
        return self.rng.below(1_000_000) < int(p * 1_000_000)

    def legal_reply(self, request: PriorityRequest | DecisionRequest) -> Reply:
        """The legal reply to a request (a seeded random bot's)."""
        reply = self.legal.decide(self.view or NO_VIEW, request.decision)
        self._remember(request.decision)
        return reply

    def _remember(self, decision: Decision) -> None:
        if decision.id not in self.decision_ids[-8:]:
            self.decision_ids.append(decision.id)
            del self.decision_ids[:-32]
        for opt in decision.actions:
            if opt.kind != "pass" and opt not in self.seen[-64:]:
                self.seen.append(opt)
        del self.seen[:-64]

    def _int(self) -> int:
        return self.rng.choice(_INTS)

    def _zone_id(self, view: PlayerView | None) -> int:
        """An id of an object in some zone, of one that no longer exists, or of none ever."""
        pools: list[list[int]] = []
        game = self.game
        if game is not None:
            st = game.state
            for p in st.players:
                pools += [p.library, p.hand, p.graveyard]
            pools += [st.battlefield, st.stack, st.exile, sorted(st.lki)]
            pools.append([st.next_id + self.rng.below(50), st.next_id])
        elif view is not None:
            pools.append([o.id for o in view.hand] + [o.id for o in view.battlefield])
        pools.append([FIRST_OBJECT_ID - 1, FIRST_OBJECT_ID + 5000 + self.rng.below(5000)])
        pools = [p for p in pools if p]
        return self.rng.choice(self.rng.choice(pools))

    def _player_ref(self) -> int:
        """A player ref, mostly of a seat nobody sits in or of a player who has left the game
        (0 and refs past the table too)."""
        players = self.game.state.players if self.game is not None else []
        seats = len(players) or 2
        absent = list(range(seats + 1, MAX_PLAYERS + 1)) or [MAX_PLAYERS]
        left = [p.seat + 1 for p in players if p.lost]
        return self.rng.choice([*absent, *absent, *left, *left, 0, -1, MAX_PLAYERS + 1, 1,
                                seats])

    # ------------------------------------------------------------------ structured mutations

    def mutate(self, kind: str, request: PriorityRequest | DecisionRequest, legal: Reply) -> Reply:
        """A mutation of ``kind`` (one of ``HOSTILE_KINDS``) of the legal reply; still an
        Action or an Answer (with ``wrong_type``: a field of the wrong type inside it)."""
        if isinstance(legal, Answer):
            return self._mutate_answer(kind, request.decision, legal)
        return self._mutate_action(kind, request, legal)

    def _mutate_action(self, kind: str, request: PriorityRequest | DecisionRequest,
                       act: Action) -> Action:
        rng = self.rng
        fields = ("object_id", "ability", "targets", "x", "divide", "pay")
        base = act
        if act.kind == "pass" and kind in ("boundary", "zone_id", "player_ref") and rng.below(4):
            # Mutate something that takes targets, X and payment, so that the mutation gets
            # past the kernel's shape checks to its rules checks: an option offered now (its
            # timing is right), else one offered earlier.
            opts = ([o for o in request.decision.actions if o.kind != "pass"]
                    or [o for o in self.seen if o.kind != "pass"])
            if opts:
                base = self._from_option(rng.choice(opts))
        if kind == "boundary":
            f = rng.choice(_BOUNDARY_FIELDS.get(base.kind, (*fields, "kind")))
            if f == "kind":
                return dataclasses.replace(base, kind=rng.choice(_STRINGS))
            return self._set_int(base, f, self._int())
        if kind in ("zone_id", "player_ref"):
            value = self._zone_id(self.view) if kind == "zone_id" else self._player_ref()
            f = rng.choice(_REF_FIELDS.get(base.kind, ("object_id", "targets", "divide", "pay")))
            return self._set_int(base, f, value)
        if kind == "wrong_action":
            opts = [o for o in request.decision.actions if o.kind != "pass"]
            base = self._from_option(rng.choice(opts)) if opts else act
            other = [k for k in ACTION_KINDS if k not in (base.kind, "concede")]
            swapped = dataclasses.replace(base, kind=rng.choice(other))
            if rng.below(2):
                swapped = dataclasses.replace(swapped, ability=rng.below(4))
            return swapped
        if kind == "out_of_turn":
            if self.seen:
                return self._from_option(rng.choice(self.seen))
            return dataclasses.replace(act, kind="play", object_id=self._zone_id(self.view))
        if kind == "answer":
            # The shape is wrong: repeated or surplus targets, a permanent named twice to pay,
            # a division that does not add up, payment words that mean nothing.
            what = rng.below(5)
            base = act
            if act.kind == "pass":
                opts = [o for o in request.decision.actions if o.kind != "pass"]
                base = self._from_option(rng.choice(opts)) if opts else act
            if what == 0:
                return dataclasses.replace(base, targets=(*base.targets, *base.targets)
                                           or (1, 1))
            if what == 1:
                return dataclasses.replace(base, targets=(*base.targets, 1, 2, *base.targets))
            if what == 2:
                ids = [o for o in (base.object_id, *base.targets) if o] or [1]
                return dataclasses.replace(base, pay=(ids[0], ids[0]))
            if what == 3:
                return dataclasses.replace(base, divide=tuple((t, -1) for t in base.targets)
                                           or ((1, 2**31),))
            return dataclasses.replace(base, pay_as=("life", "Q", "", "w"))
        if kind == "wrong_type":
            f = rng.choice((*fields, "kind", "pay_as"))
            bad = rng.choice(_OTHER_TYPES)
            if f in ("targets", "divide", "pay", "pay_as") and (self.encodable or rng.below(2)):
                bad = [bad]
            return _with(act, f, bad)
        return act

    def _from_option(self, opt: ActionOption) -> Action:
        """A filled-in action for an option (its targets chosen as a legal player would)."""
        targets: list[int] = []
        for req in opt.targets:
            targets.extend(req.candidates[:max(req.min, 1)])
        return Action(opt.kind, opt.object_id, opt.ability, tuple(targets),
                      self.rng.below(opt.max_x + 1) if opt.has_x else 0)

    def _set_int(self, act: Action, f: str, value: int) -> Action:
        """``act`` with one int of field ``f`` replaced by (or, for lists, added as) ``value``."""
        rng = self.rng
        if f in ("object_id", "ability", "x"):
            return _with(act, f, value)
        if f == "divide":
            pairs = list(act.divide) or [(t, 1) for t in act.targets] or [(value, 1)]
            i = rng.below(len(pairs))
            pairs[i] = (value, pairs[i][1]) if rng.below(2) else (pairs[i][0], value)
            return dataclasses.replace(act, divide=tuple(pairs))
        items = list(getattr(act, f))
        if items and rng.below(2):
            items[rng.below(len(items))] = value
        else:
            items.insert(rng.below(len(items) + 1), value)
        return _with(act, f, tuple(items))

    def _mutate_answer(self, kind: str, decision: Decision, ans: Answer) -> Answer:
        rng = self.rng
        keys = [c.key for c in decision.choices] or [0]
        if kind == "wrong_type":
            f = rng.choice(("decision_id", "keys", "pairs"))
            bad = rng.choice(_OTHER_TYPES)
            wrap = f != "decision_id" and (self.encodable or rng.below(2))
            return _with(ans, f, [bad] if wrap else bad)
        if kind == "out_of_turn":
            old = [d for d in self.decision_ids if d != decision.id] or [decision.id + 1]
            return dataclasses.replace(ans, decision_id=rng.choice(old))
        if kind == "boundary":
            what = rng.below(3)
            if what == 0:
                return dataclasses.replace(ans, decision_id=self._int())
            if what == 1 or not ans.pairs:
                ks = list(ans.keys)
                ks.insert(rng.below(len(ks) + 1), self._int())
                return dataclasses.replace(ans, keys=tuple(ks))
            pairs = list(ans.pairs)
            i = rng.below(len(pairs))
            pairs[i] = (self._int(), pairs[i][1]) if rng.below(2) else (pairs[i][0], self._int())
            return dataclasses.replace(ans, pairs=tuple(pairs))
        if kind in ("zone_id", "player_ref"):
            value = self._zone_id(None) if kind == "zone_id" else self._player_ref()
            if rng.below(2) or decision.kind not in ("attackers", "blockers", "divide"):
                return dataclasses.replace(ans, keys=(*ans.keys, value))
            return dataclasses.replace(ans, pairs=(*ans.pairs, (rng.choice(keys), value)))
        # "answer" and "wrong_action": the shape of the answer is wrong for its decision.
        what = rng.below(7)
        if what == 0:
            return dataclasses.replace(ans, keys=(*ans.keys, *ans.keys) or (keys[0], keys[0]))
        if what == 1:
            return dataclasses.replace(ans, keys=tuple(keys) * 2)
        if what == 2:
            return dataclasses.replace(ans, keys=())
        if what == 3:
            return dataclasses.replace(ans, keys=(max(keys) + 1 + rng.below(3),))
        if what == 4:
            a = rng.choice(keys)
            return dataclasses.replace(ans, pairs=((a, rng.choice(keys)), (a, rng.choice(keys))))
        if what == 5:
            return dataclasses.replace(ans, pairs=tuple((k, -1) for k in keys))
        return dataclasses.replace(ans, pairs=tuple((k, decision.max + 1) for k in keys))

    # ------------------------------------------------------------------ raw mutations

    def next_message(self, request: PriorityRequest | DecisionRequest,
                     allow_mutation: bool) -> Outgoing:
        """The next message for a pending request: a mutation, or the legal reply."""
        legal = self.legal_reply(request)
        legal_msg = submission(request, legal)
        if not allow_mutation or not self.chance(self.rate):
            return Outgoing("legal", encode(legal_msg))
        # Mutations that still decode come up twice as often: most messages should reach the
        # kernel's checks, and only MAX_STRIKES - 1 undecodable ones may come in a row.
        kind = self.rng.choice(self._weighted)
        return Outgoing(kind, self.raw(kind, request, legal))

    def unsolicited(self, last: PriorityRequest | DecisionRequest) -> Outgoing:
        """A message nobody asked for (sent right after an Accepted): an earlier request's
        legal reply, or a mutation of it."""
        legal = self.legal_reply(last)
        reply = legal if self.rng.below(2) else self.mutate(
            self.rng.choice(HOSTILE_KINDS[:5]), last, legal)
        return Outgoing("unsolicited", _encode_loose(submission(last, reply)))

    def raw(self, kind: str, request: PriorityRequest | DecisionRequest, legal: Reply) -> bytes:
        """The bytes of a ``kind`` mutation of the legal reply."""
        rng = self.rng
        legal_msg = submission(request, legal)
        if kind == "object_bomb":
            return object_bomb(rng, request, legal_msg)
        good = encode(legal_msg)
        if kind == "random_bytes":
            return bytes(rng.below(256) for _ in range(rng.below(48)))
        if kind == "truncated":
            return good[:rng.below(len(good))]
        if kind == "bit_flip":
            data = bytearray(good)
            for _ in range(1 + rng.below(3)):
                i = rng.below(len(data))
                data[i] ^= 1 << rng.below(8)
            return bytes(data)
        envelope = {"k": legal_msg.KIND, "v": PROTOCOL_VERSION, "b": msgpack.unpackb(good)["b"]}
        if kind == "envelope":
            what = rng.below(6)
            if what == 0:
                envelope["v"] = rng.choice((0, 2, -1, "1", 1.0, None, 2**64 - 1))
            elif what == 1:
                envelope["k"] = rng.choice(("", "submitaction", "CastFireball", "X" * 200, 5))
            elif what == 2:
                # A kind only the coordinator sends, with the player's body.
                envelope["k"] = rng.choice(sorted(k for k in MESSAGE_TYPES
                                                  if k not in ("SubmitAction", "SubmitAnswer",
                                                               "Forfeit")))
            elif what == 3:
                del envelope[rng.choice(("k", "v", "b"))]
            elif what == 4:
                envelope["extra"] = 1
            else:
                return _pack(rng.choice(([envelope], "SubmitAction", 7, None, [])))
            return _pack(envelope)
        if kind == "structure":
            what = rng.below(5)
            body = envelope["b"]
            if what == 0:
                nested: Any = 0
                for _ in range(20 + rng.below(2000)):
                    nested = [nested]
                envelope["b"] = nested
                try:
                    return _pack(envelope)
                except ValueError:  # deeper than msgpack packs: send the header only
                    return b"\x91" * 3000
            if what == 1:
                return b"\xdd\x7f\xff\xff\xff" if rng.below(2) else b"\xdf\x00\x01\x00\x00"
            if what == 2:
                body["cheat"] = 1
            elif what == 3 and body:
                del body[rng.choice(sorted(body))]
            else:
                body[rng.choice(sorted(body) or ["x"])] = "y" * (1 << 17)
            return _pack(envelope)
        if kind == "wrong_message":
            # The other kind of submission for this request, or a Forfeit-free leave-taking.
            if isinstance(request, PriorityRequest):
                return encode(SubmitAnswer(Answer(request.decision.id, (0,))))
            return encode(SubmitAction(request.decision.id, Action("pass")))
        return _encode_loose(submission(request, self.mutate(kind, request, legal)))


def submission(request: PriorityRequest | DecisionRequest, reply: Reply) -> SubmitAction | SubmitAnswer:
    """The submission carrying ``reply`` for ``request``."""
    if isinstance(reply, Action):
        return SubmitAction(request.decision.id, reply)
    return SubmitAnswer(reply)


def _encode_loose(msg: SubmitAction | SubmitAnswer) -> bytes:
    """Encode a submission whose fields may hold values of any type (``wrong_type``)."""
    try:
        return encode(msg)
    except Exception:
        # Something msgpack can't carry (an int past 64 bits): its float, as a sloppy
        # client's encoder would send.
        return _pack({"k": msg.KIND, "v": PROTOCOL_VERSION, "b": _plainish(msg)})


def _plainish(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plainish(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [_plainish(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plainish(v) for k, v in value.items()}
    if isinstance(value, int) and not isinstance(value, bool) and not -(2**63) <= value < 2**64:
        return float(value)
    return value


NO_VIEW = PlayerView(-1, 0, "", 0, -1, (), (), (), (), ())
"""Stands for a view the seat did not decode."""
NO_DELTA = ViewDelta(0, 0, -1, 0, "", 0, -1)
"""Stands for a view delta the seat did not decode."""
