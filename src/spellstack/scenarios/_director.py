"""The scripted policy: each player actor of a scenario asks the shared Director what to do.

The Director follows the ``[[step]]`` list: it takes actions, passes priority until a step's
goal is reached (so many resolutions, a step of the turn), declares attackers and blockers,
answers questions from each player's queue, and checks ``expect`` tables at the moment the
format names: when a player would next receive priority.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import trio

from ..protocol import Accepted, Rejected
from ..rules import (
    ACTION_KINDS,
    SETUP_ZONES,
    Action,
    Answer,
    Decision,
    Game,
    PlayerView,
    Reply,
    declaration_refusal,
    default_answer,
    player_ref,
)
from ._errors import ScenarioError, ScenarioFailure
from ._expect import check_expect, find_card, stack_name

__all__ = ["ACTION_KEYS", "STEP_KINDS", "Director", "ScriptedPolicy"]

ACTION_KEYS: tuple[str, ...] = ACTION_KINDS
"""Steps that take an action are named by the action's kind (``cast = "Lightning Bolt"``)."""
STEP_KINDS: tuple[str, ...] = (*ACTION_KEYS, "resolve", "advance", "attack", "block", "choose")
"""The keys that say what a step is; a step without one of them is an ``expect`` step."""
MAX_PRIORITY_DECISIONS = 5000


class Director:
    """Drives every seat of one scenario through its steps."""

    def __init__(self, game: Game, steps: list[dict[str, Any]], labels: Mapping[str, int],
                 where: str) -> None:
        self.game = game
        self.steps = steps
        self.labels = labels
        self.where = where
        self.index = 0
        self.queues: dict[int, list[Any]] = {}
        self.failure: str | None = None
        self.crash: Exception | None = None
        """An unexpected exception in a policy call: a crash of the runner, not a failure."""
        self.finished = trio.Event()
        self.priority_count = 0
        self._reset_step()

    def _reset_step(self) -> None:
        """Progress within the current step, cleared when a step begins."""
        self.started = False
        self.goal: Any = None
        self.submitted: tuple[int, str, int] | None = None  # (seat, pre-hash, decision id)
        self.outcome: str | None = None  # "accepted" / the refusal's reason
        self.declared = False  # a declaration of this step was handed to a player
        # One decision per declaring player (509.1: each defender), as (seat, decision id):
        # decision ids are numbered per seat.
        self.declare_ids: list[tuple[int, int]] = []
        self.declare_outcomes: dict[tuple[int, int], str] = {}  # -> "accepted" / refusal reason
        self.handed: set[str] = set()  # creatures of the step's table handed to their player

    # ------------------------------------------------------------------ helpers

    @property
    def step(self) -> dict[str, Any] | None:
        return self.steps[self.index] if self.index < len(self.steps) else None

    def _seat(self, name: str) -> int:
        for p in self.game.state.players:
            if p.name == name:
                return p.seat
        raise ScenarioError(f"{self.where}: step {self.index + 1}: {name!r} is not a player")

    def _ref(self, token: Any) -> int:
        """A label, player name, card name or ``copy: NAME`` (a copy of a spell on the stack,
        top first) -> the current object id or player ref."""
        st = self.game.state
        if isinstance(token, str):
            if token in self.labels:
                obj = find_card(self.game, self.labels[token])
                if obj is None:
                    raise ScenarioFailure(f"step {self.index + 1}: {token!r} is in no zone")
                return obj.id
            for p in st.players:
                if p.name == token:
                    return player_ref(p.seat)
            for zone in (st.battlefield, list(reversed(st.stack))):
                for oid in zone:
                    if st.objects[oid].name == token:
                        return oid
            for oid in reversed(st.stack):
                # A copy of a spell (no card, no label) by its stack name: "copy: NAME".
                if st.objects[oid].is_copy and stack_name(self.game, st.objects[oid]) == token:
                    return oid
        raise ScenarioFailure(f"step {self.index + 1}: can't find {token!r}")

    def fail(self, message: str) -> None:
        if self.failure is None:
            prefix = f"step {self.index + 1}: "
            self.failure = message if message.startswith(prefix) else prefix + message
        self.finished.set()

    def _finish_step(self) -> None:
        """The current step's part is done: check its expectations and move on."""
        step = self.step
        assert step is not None
        if "expect" in step:
            check_expect(self.game, step["expect"], self.labels, f"{self.where} step "
                         f"{self.index + 1}")
        self.index += 1
        self._reset_step()

    def step_kind(self, step: Mapping[str, Any]) -> str:
        for key in STEP_KINDS:
            if key in step:
                return key
        return "expect"

    def queue_answers(self, step: Mapping[str, Any]) -> None:
        """A ``choose`` step: its answers join the queue of the player it names."""
        answers = step["choose"]
        self.queues.setdefault(self._seat(step["by"]), []).extend(
            answers if isinstance(answers, list) else [answers])

    def crashed(self, err: Exception) -> None:
        """A policy call raised something unexpected: stop the scenario, keep the exception."""
        if self.crash is None:
            self.crash = err
        self.finished.set()

    # ------------------------------------------------------------------ priority

    def on_priority(self, seat: int, decision: Decision) -> Action | None:
        """What ``seat`` does with priority; None when the scenario is over."""
        self.priority_count += 1
        if self.priority_count > MAX_PRIORITY_DECISIONS:
            raise ScenarioFailure(f"step {self.index + 1}: not reached after "
                                  f"{MAX_PRIORITY_DECISIONS} priority decisions")
        st = self.game.state
        while (step := self.step) is not None:
            kind = self.step_kind(step)
            if kind in ACTION_KEYS:
                if self.submitted is not None:
                    self._check_action_outcome(seat, step)
                    self._finish_step()
                    continue
                by = step.get("by")
                if by is not None and self._seat(by) != seat:
                    return Action("pass")
                action = self._action(step, seat)
                self.submitted = (seat, st.state_hash(), decision.id)
                return action
            if kind == "choose":
                self.queue_answers(step)
                self._finish_step()
                continue
            if kind == "expect":
                self._finish_step()
                continue
            if not self.started:
                self.started = True
                if kind == "resolve":
                    n = step["resolve"]
                    self.goal = "all" if n == "all" else st.resolutions + n
                elif kind == "advance":
                    self.goal = (st.turn, st.step)
            if self._reached(kind, step):
                self._finish_step()
                continue
            return Action("pass")
        return None

    def _reached(self, kind: str, step: Mapping[str, Any]) -> bool:
        st = self.game.state
        if kind == "resolve":
            return not st.stack if self.goal == "all" else st.resolutions >= self.goal
        if kind == "advance":
            target = step["advance"]
            turn = step.get("turn")
            if (st.turn, st.step) == self.goal:
                return False
            return st.step == target and (turn is None or st.turn == turn)
        if kind in ("attack", "block") and self.declared and st.step == (
                "declare_attackers" if kind == "attack" else "declare_blockers"):
            self._check_declaration(step, kind)
            return True
        if kind == "attack":
            if st.step == "declare_attackers" and not self.declared and self.started:
                if step.get("rejected", False):
                    self._submit_unasked(step, "attack")
                    return True
                raise ScenarioFailure(f"step {self.index + 1}: no attackers could be declared")
            return False
        if kind == "block":
            if st.step in ("combat_damage", "end_of_combat", "first_strike_damage") or (
                    st.step == "declare_blockers" and not self.declared):
                if step.get("rejected", False):
                    self._submit_unasked(step, "block")
                    return True
                raise ScenarioFailure(f"step {self.index + 1}: no blockers could be declared")
            return False
        raise AssertionError(kind)

    def _check_refusal(self, outcome: str | None, step: Mapping[str, Any], what: str) -> bool:
        """The engine accepted ``what``, or refused it if (and as) the step says; returns
        whether it was refused."""
        refused = outcome not in (None, "accepted")
        if step.get("rejected", False):
            if not refused:
                raise ScenarioFailure(f"step {self.index + 1}: the {what} was accepted, but it "
                                      "must be refused")
            reason = step.get("reason")
            if reason and reason.lower() not in str(outcome).lower():
                raise ScenarioFailure(f"step {self.index + 1}: refusal {outcome!r} does not "
                                      f"mention {reason!r}")
        elif refused:
            raise ScenarioFailure(f"step {self.index + 1}: {what} refused: {outcome}")
        return refused

    def _check_declaration(self, step: Mapping[str, Any], kind: str) -> None:
        """The step's declarations (one per declaring player) were accepted, or one was refused
        if the step says so; every creature the step names was declared by its controller."""
        outcomes = [self.declare_outcomes.get(i) for i in self.declare_ids]
        refused = [o for o in outcomes if o not in (None, "accepted")]
        self._check_refusal(refused[0] if refused else outcomes[0], step, "declaration")
        left = [c for c in step[kind] if c not in self.handed]
        if left and not step.get("rejected", False):
            raise ScenarioFailure(f"step {self.index + 1}: {left[0]} -> {step[kind][left[0]]} "
                                  "can't be declared: its controller was not asked to declare")

    def _submit_unasked(self, step: Mapping[str, Any], kind: str) -> None:
        """A rejected ``attack`` or ``block`` where the engine asked no one to declare (no
        creature could attack or block): the scripted declaration is still submitted, to the
        kernel's own check of a declaration (``declaration_refusal``, 508.1/509.1), and must be
        refused without changing the state; then no attackers or blockers are declared."""
        st = self.game.state
        table: Mapping[str, str] = step[kind]
        pairs = [(self._ref(creature), self._ref(other)) for creature, other in table.items()]
        if kind == "attack":
            seat = st.active
        else:  # 509.1: the defending player who controls the first blocker named, or the first
            defenders = [s for s in st.apnap() if s != st.active]
            owners = [self.game.controller(st.objects[a]) for a, _ in pairs if a in st.objects]
            seat = next((s for s in owners if s in defenders), defenders[0])
        before = st.state_hash()
        outcome = declaration_refusal(self.game, "attackers" if kind == "attack" else "blockers",
                                      seat, pairs)
        if st.state_hash() != before:
            raise ScenarioFailure(f"step {self.index + 1}: a refused declaration changed the "
                                  "state")
        self._check_refusal(outcome or "accepted", step, "declaration")

    def _check_action_outcome(self, seat: int, step: Mapping[str, Any]) -> None:
        """An action was accepted, or refused without changing the state (601.2: rewound)."""
        assert self.submitted is not None
        who, before, _ = self.submitted
        if self._check_refusal(self.outcome, step, "action"):
            if self.game.state.state_hash() != before or seat != who:
                raise ScenarioFailure(f"step {self.index + 1}: a refused action changed the "
                                      "state")

    def _action(self, step: Mapping[str, Any], seat: int) -> Action:
        st = self.game.state
        if "pass" in step:
            return Action("pass")
        if "concede" in step:
            return Action("concede")
        if "turn_face_up" in step:
            # 702.37e/116.2b: the face-down permanent, by its label; paid as a cast is.
            token = step["turn_face_up"]
            return Action("turn_face_up", self._ref(token),
                          pay=tuple(self._ref(t) for t in step.get("pay", [])),
                          pay_as=tuple(step.get("pay_as", [])))
        kind = "cast" if "cast" in step else "activate" if "activate" in step else "play"
        token = step[kind]
        zone = step.get("from", "hand" if kind != "activate" else "battlefield")
        if zone not in SETUP_ZONES:
            raise ScenarioError(f"{self.where}: step {self.index + 1}: from = {zone!r} is not a "
                                f"zone ({', '.join(SETUP_ZONES)})")
        face = step.get("face", "")
        if token in self.labels:
            obj = find_card(self.game, self.labels[token])
            if obj is None:
                raise ScenarioFailure(f"step {self.index + 1}: {token!r} is in no zone")
            oid = obj.id
        else:
            if zone == "battlefield":
                ids = [o.id for o in self.game.controlled(seat)]
            elif zone == "exile":
                ids = [i for i in st.exile if st.objects[i].owner == seat]
            elif zone == "library":
                ids = st.players[seat].library[:1]
            else:
                ids = st.zone_list(zone, seat)
            found = [i for i in ids if st.objects[i].name == token]
            if not found and kind == "play":
                # a modal double-faced card's land face, by its name (its card is named by its
                # front face in the hand)
                found = [i for i in ids if token in self.game.cards[st.objects[i].name].faces]
                if found:
                    face = token
            if not found:
                raise ScenarioFailure(f"step {self.index + 1}: no {token!r} in "
                                      f"{st.players[seat].name}'s {zone}")
            oid = found[0]
        targets = tuple(self._ref(t) for t in step.get("targets", []))
        pay = tuple(self._ref(t) for t in step.get("pay", []))
        divide = tuple((self._ref(t), int(n)) for t, n in step.get("divide", {}).items())
        if kind == "play":
            return Action("play", oid, face=face)
        return Action(
            kind, oid, int(step.get("ability", 1)) if kind == "activate" else 0, targets,
            int(step.get("x", 0)), divide, pay, tuple(step.get("pay_as", [])), face,
            tuple(int(m) for m in step.get("modes", [])), tuple(step.get("costs", [])))

    # ------------------------------------------------------------------ other questions

    def on_question(self, seat: int, decision: Decision) -> Answer:
        """Answer a question other than priority."""
        step = self.step
        kind = self.step_kind(step) if step is not None else ""
        for dkind, skind in (("attackers", "attack"), ("blockers", "block")):
            if decision.kind != dkind:
                continue
            if kind == skind and (seat, decision.id) not in self.declare_ids:
                # 509.1: each defending player is asked in turn; each gets the part of the table
                # naming the creatures they control. A refused declaration is asked again under
                # the same id and is then answered with no creatures.
                assert step is not None
                self.declared = True
                self.declare_ids.append((seat, decision.id))
                return self._pairs(decision, step[skind], bool(step.get("rejected", False)))
            return Answer(decision.id)
        queue = self.queues.get(seat, [])
        if not queue:
            raise ScenarioFailure(f"step {self.index + 1}: no queued answer for "
                                  f"{self.game.state.players[seat].name}: {decision.prompt}")
        return self._answer(decision, queue.pop(0))

    def _pairs(self, decision: Decision, table: Mapping[str, str], refusal_expected: bool) -> Answer:
        by_ref = {c.ref: c.key for c in decision.choices}
        # A creature the decision does not offer is named by a key no option has, so the
        # coordinator itself refuses the declaration (and says why).
        missing = max((c.key for c in decision.choices), default=0) + 1
        pairs = []
        st = self.game.state
        for creature, other in table.items():
            a, b = self._ref(creature), self._ref(other)
            if a in st.objects and self.game.controller(st.objects[a]) != decision.player:
                continue  # another player's creature: declared when that player is asked
            self.handed.add(creature)
            if (a not in by_ref or b not in by_ref) and not refusal_expected:
                raise ScenarioFailure(f"step {self.index + 1}: {creature} -> {other} can't be "
                                      "declared: the engine does not offer it")
            pairs.append((by_ref.get(a, missing), by_ref.get(b, missing)))
        return Answer(decision.id, (), tuple(pairs))

    def _answer(self, decision: Decision, raw: Any) -> Answer:
        if raw == "any":
            reply = default_answer(decision)
            assert isinstance(reply, Answer)
            return reply
        if decision.kind == "divide":
            if not isinstance(raw, dict):
                raise ScenarioFailure(f"step {self.index + 1}: {decision.prompt!r} needs a table "
                                      f"from label or player to amount, got {raw!r}")
            pairs: list[tuple[int, int]] = []
            for item, amount in raw.items():
                pairs.append((self._match(decision, item, [k for k, _ in pairs]), int(amount)))
            return Answer(decision.id, (), tuple(pairs))
        if decision.kind == "yes_no":
            if raw not in ("yes", "no"):
                raise ScenarioFailure(f"step {self.index + 1}: {raw!r} is not yes or no")
            return Answer(decision.id, (1 if raw == "yes" else 0,))
        if raw == "no" and decision.kind == "choose" and decision.min == 0:
            return Answer(decision.id, ())  # a "you may" that chooses among several: declined
        items = raw if isinstance(raw, list) else [raw]
        keys: list[int] = []
        for item in items:
            keys.append(self._match(decision, item, keys))
        return Answer(decision.id, tuple(keys))

    def _match(self, decision: Decision, item: Any, taken: list[int]) -> int:
        free = [c for c in decision.choices if c.key not in taken]
        if isinstance(item, str) and item in self.labels:
            obj = find_card(self.game, self.labels[item])
            for c in free:
                if obj is not None and c.ref == obj.id:
                    return c.key
        for c in free:
            if c.name == item or (isinstance(item, str) and item in (
                    self.game.state.players[s].name for s in range(len(self.game.state.players))
            ) and c.ref == self._ref(item)):
                return c.key
        raise ScenarioFailure(f"step {self.index + 1}: {item!r} is not a legal answer to "
                              f"{decision.prompt!r} (options: "
                              f"{[c.name for c in decision.choices]})")

    def notify(self, seat: int, msg: object) -> None:
        """The coordinator's verdict, sent to ``seat``, on the last action or declaration
        (decision ids are numbered per seat: a verdict is matched by seat and id)."""
        if not isinstance(msg, (Accepted, Rejected)):
            return
        key = (seat, msg.decision_id)
        if key in self.declare_ids:
            self.declare_outcomes.setdefault(
                key, "accepted" if isinstance(msg, Accepted) else msg.reason)
        if self.submitted is None or key != (self.submitted[0], self.submitted[2]):
            return
        self.outcome = "accepted" if isinstance(msg, Accepted) else msg.reason


class ScriptedPolicy:
    """One seat's policy in a scenario: it defers to the Director."""

    def __init__(self, director: Director, seat: int) -> None:
        self.director = director
        self.seat = seat

    async def decide(self, view: PlayerView, decision: Decision) -> Reply:
        d = self.director
        try:
            if decision.kind == "priority":
                action = d.on_priority(self.seat, decision)
                if action is not None:
                    return action
                d.finished.set()
            else:
                return d.on_question(self.seat, decision)
        except (ScenarioFailure, ScenarioError) as err:
            d.fail(str(err))
        except Exception as err:  # a bug in the runner or the engine: reported as a crash
            d.crashed(err)
        await trio.sleep_forever()
        raise AssertionError("unreachable")

    def notify(self, msg: object) -> None:
        self.director.notify(self.seat, msg)

