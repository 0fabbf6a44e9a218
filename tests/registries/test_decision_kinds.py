"""Every decision kind (``DecisionKind``; ``DECISION_KINDS`` is read off it,
``rules/state/_decisions.py``) against every consumer that must answer or carry it.

A question of each kind, each in a fresh table, answered by the kernel itself (``default_answer``,
the reply checked by ``check_answer``), the random bot, the hostile bot (answering legally) and the
scenario director; and carried by the codec in every message that carries a decision. The last
test adds a kind to the registry and sees every check report it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args, get_type_hints

import pytest

from spellstack.bots import RandomBot
from spellstack.harness import HostileBot
from spellstack.protocol import _messages, decode, decode_trusted, encode
from spellstack.rules import Action, Decision, Game, check_answer, default_answer, view_for
from spellstack.rules.state import _decisions
from spellstack.scenarios import Director
from tests.registries.registry_samples import NAMES, Missing, problem, sample_decision, sample_message, table


def decision_kinds() -> tuple[str, ...]:
    """The registry as it stands now (a test may add a kind to it)."""
    return _decisions.DECISION_KINDS


def refusal(decision: Decision, reply: object) -> str:
    """Why ``reply`` is not a legal reply to ``decision`` (the kernel's ``check_answer`` for
    questions; an offered action with legal targets for priority), or ``""``."""
    if decision.kind != "priority":
        try:
            check_answer(decision, reply)  # type: ignore[arg-type]
        except Exception as err:
            return problem(err)
        return ""
    if not isinstance(reply, Action):
        return f"a priority decision answered with {reply!r}"
    for option in decision.actions:
        if (option.kind, option.object_id, option.ability) == (reply.kind, reply.object_id, reply.ability):
            legal = [c for req in option.targets for c in req.candidates]
            if all(t in legal for t in reply.targets):
                return ""
    return f"{reply!r} is not an action the decision offers"


Answerer = Callable[[Game, dict[str, int], Decision], object]
"""(the table's game, its labels, a question in it) -> the consumer's reply."""


def unanswered(answer: Answerer) -> Missing:
    """The decision kinds ``answer`` does not answer legally: one question of each kind, each in
    a fresh table."""
    missing: Missing = {}
    for kind in decision_kinds():
        game, labels = table()
        decision = sample_decision(game, labels, kind)
        try:
            reply = answer(game, labels, decision)
        except Exception as err:
            missing[kind] = problem(err)
            continue
        if why := refusal(decision, reply):
            missing[kind] = why
    return missing


def kernel_default(game: Game, labels: dict[str, int], decision: Decision) -> object:
    """The kernel's own answer (for a seat that forfeited, and the scenarios' ``any``)."""
    return default_answer(decision)


def random_bot(seed: int) -> Answerer:
    """The seeded random bot, given the asked seat's view."""
    return lambda game, labels, d: RandomBot(seed).decide(view_for(game, d.player), d)


def hostile_bot(seed: int) -> Answerer:
    """The hostile policy when it answers legally (``rate=0``): its stream's legal reply."""
    return lambda game, labels, d: HostileBot(seed, game, rate=0.0).decide(view_for(game, d.player), d)


DIRECTOR_STEPS: dict[str, dict[str, Any]] = {
    "priority": {"pass": True},
    "choose": {"choose": "Forest", "by": "alice"},
    "yes_no": {"choose": "yes", "by": "alice"},
    "order": {"choose": [["Mountain", "Grizzly Bears"]], "by": "alice"},  # one answer: a list
    "attackers": {"attack": {"bears": "bob"}},
    "blockers": {"block": {"bobs_bears": "bears"}},
    "divide": {"choose": {"bobs_bears": 2, "bob": 1}, "by": "alice"},
}
"""How a scenario answers each kind of question (the scenario format's steps)."""


def scenario_director(game: Game, labels: dict[str, int], decision: Decision) -> object:
    """The scenario director answering ``decision`` from the step a scenario would have for it;
    for a kind without one, a ``choose`` step naming the first option."""
    step = DIRECTOR_STEPS.get(decision.kind, {"choose": decision.choices[0].name if decision.choices else "",
                                              "by": NAMES[decision.player]})
    director = Director(game, [step], labels, "registries")
    if decision.kind == "priority":
        return director.on_priority(decision.player, decision)
    if "choose" in step:
        director.queue_answers(step)
    return director.on_question(decision.player, decision)


def decision_messages() -> list[tuple[type, str]]:
    """The message classes that carry a decision, and the field that does."""
    out = []
    for cls in _messages.MESSAGE_TYPES.values():
        for name, hint in get_type_hints(cls).items():
            if hint is Decision:
                out.append((cls, name))
    return out


def codec_missing_decisions() -> Missing:
    """The decision kinds the codec can't carry: a question of each kind in every message that
    carries one, encoded and decoded (validated, and trusted) back to itself."""
    missing: Missing = {}
    carriers = decision_messages()
    assert carriers, "no message carries a Decision"
    for kind in decision_kinds():
        game, labels = table()
        decision = sample_decision(game, labels, kind)
        for cls, name in carriers:
            msg = sample_message(cls, **{name: decision})
            try:
                data = encode(msg)
                assert decode(data) == msg, "decode changed it"
                assert decode_trusted(data) == msg, "decode_trusted changed it"
            except Exception as err:
                missing[kind] = f"{cls.KIND}: {problem(err)}"
    return missing


def test_decision_kinds_are_the_decision_kind_literal() -> None:
    assert _decisions.DECISION_KINDS == get_args(_decisions.DecisionKind)
    assert get_type_hints(Decision)["kind"] is _decisions.DecisionKind


def test_the_kernel_answers_and_checks_every_decision_kind() -> None:
    # default_answer's reply is checked by check_answer: both need a rule for each kind.
    missing = unanswered(kernel_default)
    assert not missing, f"default_answer/check_answer do not handle decision kinds {missing}"


def test_random_bot_answers_every_decision_kind() -> None:
    for seed in range(5):
        missing = unanswered(random_bot(seed))
        assert not missing, f"RandomBot (seed {seed}) does not handle decision kinds {missing}"


def test_hostile_bot_answers_every_decision_kind() -> None:
    for seed in range(5):
        missing = unanswered(hostile_bot(seed))
        assert not missing, f"HostileBot (seed {seed}) does not handle decision kinds {missing}"


def test_scenario_director_answers_every_decision_kind() -> None:
    missing = unanswered(scenario_director)
    assert not missing, f"the scenario Director does not handle decision kinds {missing}"


def test_codec_carries_every_decision_kind() -> None:
    missing = codec_missing_decisions()
    assert not missing, f"the protocol codec does not carry decision kinds {missing}"


# ---------------------------------------------------------------------- the checks can fail


def test_a_new_decision_kind_is_reported_by_every_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_decisions, "DECISION_KINDS", (*_decisions.DECISION_KINDS, "haiku"))
    for name, check in [("kernel", lambda: unanswered(kernel_default)),
                        ("RandomBot", lambda: unanswered(random_bot(1))),
                        ("HostileBot", lambda: unanswered(hostile_bot(1))),
                        ("Director", lambda: unanswered(scenario_director)),
                        ("codec", codec_missing_decisions)]:
        assert set(check()) == {"haiku"}, name
