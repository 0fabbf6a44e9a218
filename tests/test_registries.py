"""Every registry of kinds against every consumer that must handle each of its kinds.

The registries, each the one place its kinds are listed:

- decision kinds: ``DecisionKind`` (``DECISION_KINDS`` is read off it), ``rules/state/_decisions.py``;
- action kinds: ``ActionKind`` (``ACTION_KINDS``), the same module;
- effect verbs: ``EFFECT_VERBS``, ``rules/effects/_effects.py`` (each verb carries its handler);
- layer verbs: ``LAYER_VERBS``, ``rules/layers/_vocabulary.py``;
- message kinds: the ``Message`` union (``MESSAGE_TYPES`` is read off it), each class with its
  ``ROUTES``, ``protocol/_messages.py``.

Each consumer is checked by exercising it with one thing of every registered kind: a question
of each decision kind for each bot and the scenario director, an action of each kind for the
kernel and the director, a card using each verb for the card loader and the kernel, a message
of each kind through the codec, the tracer and each actor it is routed to. Each ``*_missing``
function returns the kinds the consumer does not handle, with what went wrong, and reads the
registry when it is called, so the last section can add a kind to a registry (monkeypatch) and
see every check report it.
"""

from __future__ import annotations

import dataclasses
import io
import math
import types
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Literal, Union, get_args, get_origin, get_type_hints

import msgpack  # type: ignore[import-untyped]  # ships no type information
import orjson
import pytest
import trio

from spellstack.actors import (
    Coordinator,
    Link,
    SeatConfig,
    TraceRecord,
    TraceWriter,
    Wire,
    player_actor,
    sba_actor,
    stack_actor,
)
from spellstack.bots import RandomBot
from spellstack.cards import load_card_file, load_cards, load_deck
from spellstack.harness import HostileBot
from spellstack.protocol import (
    ACTORS,
    PROTOCOL_VERSION,
    AskPlayer,
    CheckSBA,
    DecisionRequest,
    Forfeit,
    Message,
    PlayerReply,
    PriorityRequest,
    RequestFullView,
    Resolve,
    Resolved,
    SBABatch,
    SetStops,
    Stops,
    SubmitAction,
    SubmitAnswer,
    ViewMirror,
    ViewTracker,
    _codec,
    _messages,
    decode,
    decode_trusted,
    encode,
    from_plain,
    to_wire,
)
from spellstack.rules import (
    ARG_KINDS,
    EFFECT_VERBS,
    Action,
    Answer,
    CardDefinition,
    Choice,
    Decision,
    Game,
    PlayerView,
    Reply,
    VerbSpec,
    check_answer,
    default_answer,
    is_player_ref,
    new_game,
    play_sync,
    player_ref,
    priority_decision,
    seat_of_ref,
    take_action,
    view_for,
)
from spellstack.rules.effects import EffectContext
from spellstack.rules.layers import LAYER_VERBS, REQUIRED_ARGS, _vocabulary
from spellstack.rules.state import _decisions
from spellstack.rules.views import ask_choose, ask_yes_no
from spellstack.scenarios import Director, build_game, run_scenario

CARDS: Mapping[str, CardDefinition] = load_cards()
NAMES = ("alice", "bob")
Missing = dict[str, str]
"""Kind -> what went wrong when the consumer was given one of that kind."""


def _problem(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}"


# ====================================================================== the table

SETUP: dict[str, Any] = {
    "players": list(NAMES),
    "alice": {
        "hand": ["Lightning Bolt", "Forest", "Grizzly Bears"],
        "battlefield": [{"card": "Grizzly Bears", "label": "bears"}, "Mountain", "Forest", "Forest",
                        "Drudge Skeletons", "Swamp"],
    },
    "bob": {
        "hand": ["Forest", "Forest", "Forest"],
        "battlefield": [{"card": "Grizzly Bears", "label": "bobs_bears"}],
    },
}
"""Alice in her first main phase, able to play a land, cast spells and activate an ability."""


def table(setup: Mapping[str, Any] = SETUP,
          cards: Mapping[str, CardDefinition] = CARDS) -> tuple[Game, dict[str, int]]:
    """A fresh game as ``setup`` describes it, and its labels."""
    return build_game(setup, 1, cards, "registries")


def labelled(game: Game, labels: Mapping[str, int], label: str) -> int:
    """The object id of a labelled card."""
    return next(o.id for o in game.state.objects.values() if o.card == labels[label])


# ====================================================================== decision kinds


def decision_kinds() -> tuple[str, ...]:
    """The registry as it stands now (a test may add a kind to it)."""
    return _decisions.DECISION_KINDS


def sample_decision(game: Game, labels: Mapping[str, int], kind: str) -> Decision:
    """A question of ``kind`` in the table's game, shaped as the kernel asks it; for a kind
    the kernel has no rule for, a question with the shape of a ``choose``."""
    st = game.state
    bears, bobs_bears = labelled(game, labels, "bears"), labelled(game, labels, "bobs_bears")
    mountain = next(i for i in st.battlefield if st.objects[i].name == "Mountain")
    if kind == "priority":
        return priority_decision(game)
    if kind == "choose":
        return next(ask_choose(game, 0, "701.8: discard 1 card(s)", list(st.players[0].hand), 1, 1))
    if kind == "yes_no":
        return next(ask_yes_no(game, 0, "608.2d: Probe: you may draw"))
    if kind == "order":
        return game.decision(0, "order", "603.3b: order your triggered abilities",
                             choices=(Choice(0, bears, "Grizzly Bears"), Choice(1, mountain, "Mountain")),
                             min=2, max=2)
    if kind == "attackers":
        return game.decision(0, "attackers", "508.1: declare attackers",
                             choices=(Choice(0, bears, "Grizzly Bears", 0), Choice(1, player_ref(1), "bob", 1)),
                             min=0, max=1, legal_pairs=((0, 1),))
    if kind == "blockers":
        return game.decision(1, "blockers", "509.1: declare blockers",
                             choices=(Choice(0, bobs_bears, "Grizzly Bears", 0),
                                      Choice(1, bears, "Grizzly Bears", 1)),
                             min=0, max=1, legal_pairs=((0, 1),))
    if kind == "divide":
        return dataclasses.replace(game.decision(
            0, "divide", "510.1c: divide Grizzly Bears's 3 combat damage (702.19b trample: lethal "
            "damage to each blocker first: Grizzly Bears 2)",
            choices=(Choice(0, bobs_bears, "Grizzly Bears"), Choice(1, player_ref(1), "bob")),
            min=0, max=3), lethal=((0, 2),))
    st.decisions += 1
    return Decision(st.decisions, 0, kind, "100.1: a question of a new kind",  # type: ignore[arg-type]
                    choices=tuple(Choice(i, r, st.objects[r].name) for i, r in enumerate(st.players[0].hand)),
                    min=1, max=1)


def refusal(decision: Decision, reply: object) -> str:
    """Why ``reply`` is not a legal reply to ``decision`` (the kernel's ``check_answer`` for
    questions; an offered action with legal targets for priority), or ``""``."""
    if decision.kind != "priority":
        try:
            check_answer(decision, reply)  # type: ignore[arg-type]
        except Exception as err:
            return _problem(err)
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
            missing[kind] = _problem(err)
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
                missing[kind] = f"{cls.KIND}: {_problem(err)}"
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


# ====================================================================== action kinds


def action_kinds() -> tuple[str, ...]:
    """The registry as it stands now (a test may add a kind to it)."""
    return _decisions.ACTION_KINDS


def sample_action(decision: Decision, kind: str) -> Action:
    """A legal action of ``kind`` for the table's priority decision: the first option of that
    kind with the first legal targets, or the bare kind (pass, concede)."""
    for option in decision.actions:
        if option.kind == kind:
            targets = tuple(t for req in option.targets for t in req.candidates[:req.min])
            return Action(kind, option.object_id, option.ability, targets)
    return Action(kind)


def kernel_missing_actions() -> Missing:
    """The action kinds ``take_action`` does not perform: a legal action of each kind, each in
    a fresh table."""
    missing: Missing = {}
    for kind in action_kinds():
        game, _ = table()
        try:
            take_action(game, 0, sample_action(priority_decision(game), kind))
        except Exception as err:
            missing[kind] = _problem(err)
    return missing


def _ref_word(game: Game, ref: int) -> str:
    """How a scenario names a target: a player by name, an object by its name."""
    st = game.state
    return st.players[seat_of_ref(ref)].name if is_player_ref(ref) else st.objects[ref].name


async def director_missing_actions() -> Missing:
    """The action kinds a scenario can't take: for each, a scenario of one step taking a legal
    action of that kind (named as the format names it: ``cast = "Lightning Bolt"``), run by the
    scenario runner, whose director checks that the engine accepted it."""
    missing: Missing = {}
    for kind in action_kinds():
        game, _ = table()
        decision = priority_decision(game)
        action = sample_action(decision, kind)
        step: dict[str, Any] = {kind: True}
        if action.object_id:
            step[kind] = game.state.objects[action.object_id].name
        if action.ability > 1:
            step["ability"] = action.ability
        if action.targets:
            step["targets"] = [_ref_word(game, t) for t in action.targets]
        try:
            await run_scenario({"title": f"take a {kind} action", "setup": SETUP, "step": [step]},
                               f"registries ({kind})", CARDS)
        except Exception as err:
            missing[kind] = _problem(err)
    return missing


def readme_missing_actions() -> Missing:
    """The action kinds the README's "Writing a scenario" does not list among the steps."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
    section = readme.split("## Writing a scenario", 1)[1].split("\n## ", 1)[0]
    return {kind: "not listed" for kind in action_kinds() if f"`{kind}`" not in section}


def test_action_kinds_are_the_action_kind_literal() -> None:
    assert _decisions.ACTION_KINDS == get_args(_decisions.ActionKind)


def test_the_table_offers_every_action_kind_that_needs_an_object() -> None:
    # Otherwise the checks below would take bare actions of those kinds, which can't be legal.
    game, _ = table()
    offered = {o.kind for o in priority_decision(game).actions}
    assert offered >= {"pass", "cast", "activate", "play"}


def test_take_action_performs_every_action_kind() -> None:
    missing = kernel_missing_actions()
    assert not missing, f"take_action does not handle action kinds {missing}"


async def test_scenarios_take_every_action_kind() -> None:
    missing = await director_missing_actions()
    assert not missing, f"the scenario runner and Director do not handle action kinds {missing}"


def test_the_readme_lists_every_action_kind_as_a_step() -> None:
    missing = readme_missing_actions()
    assert not missing, f"README.md's scenario steps do not list action kinds {sorted(missing)}"


# ====================================================================== effect and layer verbs

TOKEN = next(name for name, d in CARDS.items() if d.is_token and "Creature" in d.card_types)
SAMPLE_ARGS: dict[str, Any] = {
    "amount": 1, "int": 1, "players": "you", "objects": "each_creature",
    "recipients": "each_opponent", "mana": "G", "zone": "hand", "counter": "+1/+1", "step": "end",
    "effects": [{"verb": "gain_life", "amount": 1}], "flag": True, "zones": ["graveyard"],
    "token": TOKEN, "exile_until": "source_leaves", "protection_choice": "artifacts_or_color",
    "name": "Grizzly Bears", "text_word": "white", "types": ["Creature"], "words": ["Bear"],
    "colors": "W", "keywords": ["flying"], "positions": [1], "value": 1, "duration": "end_of_turn",
}
"""A valid value of each argument kind, as a card file writes it."""


def _toml(value: Any) -> str:
    """``value`` as a TOML value (the few shapes ``SAMPLE_ARGS`` holds)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    assert isinstance(value, dict), value
    return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"


def probe_name(verb: str) -> str:
    """The name of the card that tries ``verb``."""
    return f"Probe {verb}"


def effect_card(verb: str, args: Mapping[str, str]) -> str:
    """A card file: a sorcery costing {0} whose one effect is ``verb`` with a value for each of
    the required ``args`` (name -> argument kind)."""
    effect = {"verb": verb, **{name: SAMPLE_ARGS[kind] for name, kind in args.items()}}
    return (f'[[card]]\nname = "{probe_name(verb)}"\ncost = "{{0}}"\ntype = "Sorcery"\n'
            f'text = "Probe."\nspell.effects = [{_toml(effect)}]\n')


def static_card(verb: str, args: Mapping[str, str]) -> str:
    """A card file: an enchantment with a static ability whose one effect is ``verb`` with a
    value for each of ``args``."""
    effect = {"verb": verb, **{name: SAMPLE_ARGS[kind] for name, kind in args.items()}}
    return (f'[[card]]\nname = "{probe_name(verb)}"\ncost = "{{0}}"\ntype = "Enchantment"\n'
            f'text = "Probe."\n  [[card.static]]\n  text = "Probe."\n  affected = "self"\n'
            f'  effects = [{_toml(effect)}]\n')


def loader_missing(verbs: Iterator[tuple[str, Mapping[str, str]]], card: Callable[[str, Mapping[str, str]], str],
                   folder: Path) -> tuple[Missing, dict[str, Mapping[str, CardDefinition]]]:
    """The verbs the card loader refuses in a card file written by ``card``, and the cards it
    loaded for the others."""
    missing: Missing = {}
    loaded: dict[str, Mapping[str, CardDefinition]] = {}
    for verb, args in verbs:
        path = folder / f"{verb}.toml"
        try:
            path.write_text(card(verb, args), "utf-8")
            loaded[verb] = load_card_file(path)
        except Exception as err:
            missing[verb] = _problem(err)
    return missing, loaded


def effect_verbs() -> Iterator[tuple[str, Mapping[str, str]]]:
    """Each registered effect verb with its required arguments (the registry as it stands now)."""
    return ((verb, spec.required) for verb, spec in EFFECT_VERBS.items())


EFFECT_SETUP: dict[str, Any] = {
    "players": list(NAMES),
    "alice": {"battlefield": [{"card": "Grizzly Bears", "label": "bears"}, "Forest"],
              "graveyard": ["Lightning Bolt"]},
    "bob": {"hand": ["Forest", "Forest"], "battlefield": ["Grizzly Bears"]},
}
"""Creatures and players for an effect to act on; the probe card joins alice's hand."""


def resolve_probe(cards: Mapping[str, CardDefinition], name: str) -> None:
    """Cast the {0} sorcery ``name`` from alice's hand and play until it has resolved, every
    question answered as the kernel would (``default_answer``). Raises if it can't."""
    setup = {**EFFECT_SETUP, "alice": {**EFFECT_SETUP["alice"], "hand": [name]}}
    game, _ = table(setup, {**CARDS, **cards})
    st = game.state

    def answer(decision: Decision) -> Reply:
        if decision.kind == "priority" and decision.player == 0:
            for option in decision.actions:
                if option.kind == "cast" and option.name == name:
                    return Action("cast", option.object_id)
        return default_answer(decision)

    play_sync(game, answer, max_tasks=200, until=lambda g, task: st.resolutions >= 1)
    assert st.resolutions >= 1 or st.game_over, f"{name} did not resolve"
    assert not any(st.objects[i].name == name for i in st.stack), f"{name} is still on the stack"


def handler_missing(loaded: Mapping[str, Mapping[str, CardDefinition]]) -> Missing:
    """The effect verbs whose handler fails: each loaded probe sorcery cast and resolved."""
    missing: Missing = {}
    for verb, cards in loaded.items():
        try:
            resolve_probe(cards, probe_name(verb))
        except Exception as err:
            missing[verb] = _problem(err)
    return missing


NOT_CARD_DATA = {"copy_of": "707.2: a copy effect comes from become_copy (enters_as_copy), not a "
                            "static ability's effects"}
"""Layer verbs the card loader refuses in static abilities, and why."""


def layer_verbs() -> Iterator[tuple[str, Mapping[str, str]]]:
    """Each registered layer verb with the arguments it can't do without."""
    return ((verb, {k: v for k, v in spec.args.items() if k in REQUIRED_ARGS})
            for verb, spec in LAYER_VERBS.items())


def layer_loader_missing(folder: Path) -> Missing:
    """The layer verbs the loader refuses in a static ability, but for ``NOT_CARD_DATA``, and
    any of ``NOT_CARD_DATA`` it takes."""
    refused, _ = loader_missing(layer_verbs(), static_card, folder)
    missing = {verb: why for verb, why in refused.items() if verb not in NOT_CARD_DATA}
    missing.update({verb: f"taken, though {why}" for verb, why in NOT_CARD_DATA.items()
                    if verb in LAYER_VERBS and verb not in refused})
    return missing


def docs_missing_layer_verbs() -> Missing:
    """The layer verbs the layer vocabulary's docstring (the card data format) does not list."""
    doc = _vocabulary.__doc__ or ""
    return {verb: "not listed" for verb in LAYER_VERBS if f"``{verb}``" not in doc}


def test_every_argument_kind_has_a_sample_value() -> None:
    assert set(SAMPLE_ARGS) == set(ARG_KINDS)
    assert all(ARG_KINDS[k](tuple(v) if isinstance(v, list) and k != "effects" else v)
               for k, v in SAMPLE_ARGS.items() if k != "effects")


def test_the_loader_takes_every_effect_verb(tmp_path: Path) -> None:
    missing, _ = loader_missing(effect_verbs(), effect_card, tmp_path)
    assert not missing, f"the card loader does not take effect verbs {missing}"


def test_every_effect_verb_has_a_working_handler(tmp_path: Path) -> None:
    refused, loaded = loader_missing(effect_verbs(), effect_card, tmp_path)
    assert not refused
    missing = handler_missing(loaded)
    assert not missing, f"the kernel's effect handlers fail for verbs {missing}"


def test_every_layer_verb_but_copies_and_cdas_is_an_effect_verb() -> None:
    # 611.2: a resolving spell creates a continuous effect with any layer primitive but a copy
    # effect (707.2) or a characteristic-defining ability (604.3).
    missing = sorted(set(LAYER_VERBS) - {"copy_of", "set_base_pt_cda"} - set(EFFECT_VERBS))
    assert not missing, f"layer verbs with no effect verb: {missing}"


def test_the_loader_takes_exactly_the_layer_verbs(tmp_path: Path) -> None:
    missing = layer_loader_missing(tmp_path)
    assert not missing, f"the card loader does not take layer verbs {missing}"


def test_the_layer_docs_list_every_layer_verb() -> None:
    missing = docs_missing_layer_verbs()
    assert not missing, f"rules/layers/_vocabulary.py's docstring does not list layer verbs {sorted(missing)}"


# ====================================================================== message kinds


def message_types() -> Mapping[str, type]:
    """The registry as it stands now (a test may add a kind to it)."""
    return _messages.MESSAGE_TYPES


def sample_value(hint: Any, depth: int = 0) -> Any:
    """A value of type ``hint``: one item per container, the first of a union or literal."""
    if hint is None or hint is type(None):
        return None
    if hint is int:
        return 1
    if hint is str:
        return "x"
    if hint is bool:
        return True
    if hint is float:
        return 0.5
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return args[0]
    if origin is Union or origin is types.UnionType:
        return sample_value(next(a for a in args if a is not type(None)), depth)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (sample_value(args[0], depth + 1),) if depth < 4 else ()
        return tuple(sample_value(a, depth + 1) for a in args)
    if origin is dict:
        return {sample_value(args[0], depth + 1): sample_value(args[1], depth + 1)}
    if origin in (frozenset, set):
        return origin({sample_value(args[0], depth + 1)})
    assert dataclasses.is_dataclass(hint), hint
    return sample_message(hint, depth=depth)


def sample_message(cls: type, depth: int = 0, **given: Any) -> Any:
    """An instance of the dataclass ``cls``: ``given`` fields, the others ``sample_value``."""
    hints = get_type_hints(cls)
    fields = {f.name: given[f.name] if f.name in given else sample_value(hints[f.name], depth + 1)
              for f in dataclasses.fields(cls)}
    return cls(**fields)


def raw_bytes(msg: Any) -> bytes:
    """``msg`` as ``encode`` would send it, for a kind ``encode`` was not built with too."""
    data: bytes = msgpack.packb({"k": msg.KIND, "v": PROTOCOL_VERSION, "b": to_wire(msg)},
                                use_bin_type=True)
    return data


def routed(receiver: str) -> dict[str, type]:
    """The message kinds routed to ``receiver``."""
    return {k: cls for k, cls in message_types().items()
            if any(to == receiver for _, to in getattr(cls, "ROUTES", ()))}


def codec_missing_messages() -> Missing:
    """The message kinds the codec can't carry: one of each encoded, then decoded (validated,
    and trusted) back to itself, under its own kind."""
    missing: Missing = {}
    for kind, cls in message_types().items():
        try:
            msg = sample_message(cls)
            data = encode(msg)
            assert msgpack.unpackb(data)["k"] == kind, "sent under another kind"
            assert decode(data) == msg, "decode changed it"
            assert decode_trusted(data) == msg, "decode_trusted changed it"
        except Exception as err:
            missing[kind] = _problem(err)
    return missing


def tracer_missing() -> Missing:
    """The message kinds the tracer can't write: one of each, written as a trace line whose
    payload reads back (``from_plain``) as the message."""
    missing: Missing = {}
    for kind, cls in message_types().items():
        try:
            msg = sample_message(cls)
            stream = io.StringIO()
            TraceWriter(stream).message(TraceRecord("g1", 1, "coordinator", "player:alice", kind,
                                                    raw_bytes(msg)))
            line = orjson.loads(stream.getvalue())
            assert line["kind"] == kind
            assert from_plain(cls, line["payload"]) == msg, "the payload reads back differently"
        except Exception as err:
            missing[kind] = _problem(err)
    return missing


def test_every_message_kind_has_routes_between_actors() -> None:
    for kind, cls in message_types().items():
        routes = cls.ROUTES  # type: ignore[attr-defined]
        assert routes, kind
        for sender, receiver in routes:
            assert sender in ACTORS and receiver in ACTORS and sender != receiver, (kind, sender, receiver)
    assert _messages.MESSAGE_TYPES == {cls.KIND: cls for cls in get_args(Message)}


def test_the_codec_carries_every_message_kind() -> None:
    missing = codec_missing_messages()
    assert not missing, f"the protocol codec does not carry message kinds {missing}"


def test_the_tracer_writes_every_message_kind() -> None:
    missing = tracer_missing()
    assert not missing, f"the tracer does not write message kinds {missing}"


# ---------------------------------------------------------------------- the player actor


class Recorder:
    """A policy that answers as the kernel would and records what reaches it."""

    def __init__(self, stops: Stops | None) -> None:
        self.stops = stops
        self.decided: list[Decision] = []
        self.notified: list[object] = []

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.decided.append(decision)
        return default_answer(decision)

    def notify(self, msg: object) -> None:
        self.notified.append(msg)


def player_probe(cls: type, game: Game, labels: Mapping[str, int]) -> Any:
    """A message of kind ``cls`` as the coordinator sends it to a player: requests carry a
    question of the table's game and a full view."""
    view = ViewTracker().update(view_for(game, 0))
    if cls is PriorityRequest:
        return PriorityRequest(priority_decision(game), view)
    if cls is DecisionRequest:
        return DecisionRequest(sample_decision(game, labels, "choose"), view)
    return sample_message(cls)


async def player_takes(cls: type, declaring: bool) -> bool:
    """Whether the player actor deals with a message of kind ``cls``: hands it to its policy (a
    request's question to ``decide``, anything else to ``notify``) or stops on it.
    ``declaring``: it comes while the actor waits for the reply to the stops it declared."""
    game, labels = table()
    opening = PriorityRequest(priority_decision(game), ViewTracker().update(view_for(game, 0)))
    probe = player_probe(cls, game, labels)
    to_player, inbox = trio.open_memory_channel[bytes](math.inf)
    out, from_player = trio.open_memory_channel[bytes](math.inf)
    policy = Recorder(Stops() if declaring else None)
    stopped = False

    async def play() -> None:
        nonlocal stopped
        try:
            await player_actor(policy, Link(Wire("g1", None), "player:alice", "coordinator", out, inbox, True))
            stopped = True
        except trio.EndOfChannel:
            pass  # it waited for more: the probe did not end it

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play)
        if declaring:
            to_player.send_nowait(encode(opening))
            assert isinstance(decode_trusted(await from_player.receive()), SetStops)
        to_player.send_nowait(raw_bytes(probe))
        await to_player.aclose()
    reached = probe in policy.notified or any(d == getattr(probe, "decision", None) for d in policy.decided)
    return reached or stopped


async def player_missing() -> Missing:
    """The kinds routed to players that the player actor drops, whether it waits for a request
    or for the acknowledgement of its stops."""
    missing: Missing = {}
    for kind, cls in routed("player").items():
        if not (await player_takes(cls, False) or await player_takes(cls, True)):
            missing[kind] = "dropped: it reached neither the policy nor ended the actor"
    return missing


async def test_the_player_actor_takes_every_kind_sent_to_players() -> None:
    missing = await player_missing()
    assert not missing, f"the player actor does not handle message kinds {missing}"


# ---------------------------------------------------------------------- the stack actor and SBA checker

STACK_SETUP: dict[str, Any] = {
    "players": list(NAMES),
    "alice": {"hand": ["Mind Rot"], "battlefield": ["Swamp", "Swamp", "Swamp"]},
    "bob": {"hand": ["Forest", "Forest", "Forest"]},
}
"""Mind Rot on its way to the stack: resolving it asks bob which cards to discard."""
SBA_SETUP: dict[str, Any] = {
    "players": list(NAMES),
    "alice": {"battlefield": ["Isamaru, Hound of Konda", "Isamaru, Hound of Konda"]},
}
"""Two legends of one name: the state-based action check asks alice which to keep (704.5j)."""


def stack_game() -> Game:
    """The stack table with Mind Rot, targeting bob, on the stack and about to resolve."""
    game, _ = table(STACK_SETUP)

    def answer(decision: Decision) -> Reply:
        for option in decision.actions:
            if option.kind == "cast":
                return Action("cast", option.object_id, targets=(player_ref(1),))
        return default_answer(decision)

    play_sync(game, answer, max_tasks=100, until=lambda g, task: task == "resolve")
    assert [game.state.objects[i].name for i in game.state.stack] == ["Mind Rot"]
    return game


KernelActor = Callable[[Game, Link], Awaitable[None]]
KERNEL_ACTORS: dict[str, tuple[KernelActor, Callable[[], Game], Callable[[Game], Any]]] = {
    "stack": (stack_actor, stack_game, lambda game: Resolve(game.state.stack[-1])),
    "sba": (sba_actor, lambda: table(SBA_SETUP)[0], lambda game: CheckSBA()),
}
"""Each kernel actor, a game in which its work asks a player something, and its request."""


def kernel_probe(cls: type, game: Game, request: Any, asked: AskPlayer | None) -> Any:
    """A message of kind ``cls`` as the coordinator sends it to a kernel actor: its request, or
    a reply to the question it asked."""
    if type(request) is cls:
        return request
    if cls is PlayerReply and asked is not None:
        return PlayerReply(default_answer(asked.decision))  # type: ignore[arg-type]
    return sample_message(cls)


async def kernel_actor_takes(actor: str, cls: type, asking: bool) -> str:
    """``""`` if the kernel actor ``actor`` goes on with its work after a message of kind
    ``cls`` (it answers the coordinator), else what it did instead. ``asking``: the message
    comes while the actor waits for the answer to the question it asked."""
    run, make_game, make_request = KERNEL_ACTORS[actor]
    game = make_game()
    request = make_request(game)
    to_actor, inbox = trio.open_memory_channel[bytes](math.inf)
    out, from_actor = trio.open_memory_channel[bytes](math.inf)
    failure: list[str] = []

    async def work() -> None:
        try:
            await run(game, Link(Wire("g1", None), actor, "coordinator", out, inbox, True))
        except Exception as err:  # it refused the message (or ran out of them: trio.EndOfChannel)
            failure.append(_problem(err))
        await out.aclose()

    asked: AskPlayer | None = None
    async with trio.open_nursery() as nursery:
        nursery.start_soon(work)
        if asking:
            to_actor.send_nowait(encode(request))
            first = decode_trusted(await from_actor.receive())
            assert isinstance(first, AskPlayer), first
            asked = first
        to_actor.send_nowait(raw_bytes(kernel_probe(cls, game, request, asked)))
        await to_actor.aclose()
        try:
            reply = decode_trusted(await from_actor.receive())
        except trio.EndOfChannel:
            return failure[0] if failure else "no reply"
        nursery.cancel_scope.cancel()
    return "" if reply is not None else "no reply"


async def kernel_actor_missing(actor: str) -> Missing:
    """The kinds routed to ``actor`` that it refuses, whether it waits for a request or for the
    answer to a question it asked."""
    missing: Missing = {}
    for kind, cls in routed(actor).items():
        idle = await kernel_actor_takes(actor, cls, False)
        if idle and (asking := await kernel_actor_takes(actor, cls, True)):
            missing[kind] = f"waiting for a request: {idle}; waiting for an answer: {asking}"
    return missing


@pytest.mark.parametrize("actor", sorted(KERNEL_ACTORS))
async def test_the_kernel_actors_take_every_kind_sent_to_them(actor: str) -> None:
    missing = await kernel_actor_missing(actor)
    assert not missing, f"the {actor} actor does not handle message kinds {missing}"


# ---------------------------------------------------------------------- the coordinator


CONTEXTS: dict[str, tuple[str, ...]] = {
    "player": ("priority", "decision"),
    "stack": ("stack",),
    "sba": ("sba",),
}
"""Where the coordinator waits for a message from each sender: a seat's open priority request
or question, the stack actor's resolution, the SBA checker's check."""


def coordinator_probe(cls: type, opening: Any) -> Any:
    """A message of kind ``cls`` as its sender sends it to the coordinator, in reply to
    ``opening`` (the request to the seat, or Resolve, or CheckSBA)."""
    decision = getattr(opening, "decision", None)
    if cls is SubmitAction and decision is not None:
        return SubmitAction(decision.id, Action("pass"))
    if cls is SubmitAnswer and decision is not None:
        answer = default_answer(decision)
        return SubmitAnswer(answer if isinstance(answer, Answer) else Answer(decision.id))
    if cls is RequestFullView and decision is not None:
        return RequestFullView(decision.id)
    if cls is SetStops:
        return SetStops(Stops())
    if cls is Forfeit:
        return Forfeit("the probe leaves")
    if cls is Resolved and isinstance(opening, Resolve):
        return Resolved(opening.object_id, "probe", ())
    if cls is SBABatch:
        return SBABatch(())
    if cls is AskPlayer:
        return AskPlayer(Decision(10**6, 0, "yes_no", "608.2d: Probe: you may draw",
                                  (Choice(1, 0, "yes"), Choice(0, 0, "no")), min=1, max=1))
    return sample_message(cls)


@dataclass
class Probe:
    """One probe of the coordinator: where it waits, and what it was sent there."""

    context: str
    cls: type
    seq: int | None = None
    """The wire's number when the probe was sent: later records are the coordinator's reaction."""
    done: trio.Event = dataclasses.field(default_factory=trio.Event)

    async def send(self, link: Link, opening: Any) -> None:
        self.seq = link.wire.seq
        await link.send_bytes(raw_bytes(coordinator_probe(self.cls, opening)))


async def _raw_seat(link: Link, probe: Probe) -> None:
    """Alice, answering as a RandomBot until the request the probe waits for (one with a view
    delta, so that asking for the full view is in place), where it sends the probe instead."""
    bot, mirror = RandomBot(3), ViewMirror()
    while True:
        msg = await link.receive()
        if not isinstance(msg, PriorityRequest | DecisionRequest):
            continue
        view = mirror.apply(msg.view)
        kind = "priority" if isinstance(msg, PriorityRequest) else "decision"
        if kind == probe.context and not msg.view.full and probe.seq is None:
            await probe.send(link, msg)
            return
        reply = bot.decide(view, msg.decision)
        await link.send(SubmitAction(msg.decision.id, reply) if isinstance(reply, Action) else SubmitAnswer(reply))


async def _kernel_peer(link: Link, probe: Probe) -> None:
    """The stack actor or SBA checker, sending the probe in reply to its first request."""
    await probe.send(link, await link.receive())


async def coordinator_takes(cls: type, context: str) -> str:
    """``""`` if the coordinator deals with a message of kind ``cls`` sent where it waits in
    ``context``, else what it did instead: an ErrorReply to the seat (a message out of place),
    or an exception (one from a kernel actor)."""
    deck = load_deck("gruul", CARDS).cards
    game = new_game(CARDS, [(name, deck) for name in NAMES], 5)
    trace_in, trace = trio.open_memory_channel[TraceRecord](math.inf)
    wire = Wire("g1", trace_in)
    ends = [Link.pair(wire, "coordinator", f"player:{name}") for name in NAMES]
    stack_c, stack_a = Link.pair(wire, "coordinator", "stack")
    sba_c, sba_a = Link.pair(wire, "coordinator", "sba")
    coordinator = Coordinator(game, [c for c, _ in ends], [SeatConfig(auto_pass=False), SeatConfig()],
                              stack_c, sba_c)
    probe = Probe(context, cls)
    seat = context in ("priority", "decision")
    reaction: list[str] = []
    """What the coordinator's first message after the probe says of it."""
    ended: list[str] = []
    """How the coordinator stopped, if it did: "" or the exception."""

    def note(rec: TraceRecord) -> None:
        if (probe.seq is not None and rec.seq > probe.seq and rec.sender == "coordinator"
                and (not seat or rec.receiver == "player:alice")):
            reaction.append("answered with an ErrorReply: out of place" if rec.kind == "ErrorReply" else "")
            probe.done.set()

    async def coordinate() -> None:
        try:
            await coordinator.run()
            ended.append("")
        except Exception as err:
            ended.append(_problem(err))
        probe.done.set()

    async def watch() -> None:
        async for rec in trace:
            note(rec)
            if reaction:
                return

    with trio.move_on_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(coordinate)
            nursery.start_soon(watch)
            if seat:
                nursery.start_soon(_raw_seat, ends[0][1], probe)
            else:
                nursery.start_soon(player_actor, RandomBot(3), ends[0][1])
            nursery.start_soon(player_actor, RandomBot(4), ends[1][1])
            if context == "stack":
                nursery.start_soon(_kernel_peer, stack_a, probe)
            else:
                nursery.start_soon(stack_actor, game, stack_a)
            if context == "sba":
                nursery.start_soon(_kernel_peer, sba_a, probe)
            else:
                nursery.start_soon(sba_actor, game, sba_a)
            await probe.done.wait()
            nursery.cancel_scope.cancel()
    if probe.seq is None:
        return f"the game never reached a {context} wait"
    while not reaction:  # records the watcher had not read when the coordinator stopped
        try:
            rec = trace.receive_nowait()
        except (trio.WouldBlock, trio.EndOfChannel):
            break
        note(rec)
    if reaction:
        return reaction[0]
    return ended[0] if ended else "no reaction within 60 s"


async def coordinator_missing() -> Missing:
    """The kinds routed to the coordinator that it treats as out of place wherever their
    sender sends them."""
    missing: Missing = {}
    for kind, cls in routed("coordinator").items():
        senders = {sender for sender, to in cls.ROUTES if to == "coordinator"}  # type: ignore[attr-defined]
        problems = []
        for context in (c for sender in sorted(senders) for c in CONTEXTS[sender]):
            problem = await coordinator_takes(cls, context)
            if not problem:
                break
            problems.append(f"{context}: {problem}")
        else:
            missing[kind] = "; ".join(problems)
    return missing


async def test_the_coordinator_takes_every_kind_sent_to_it() -> None:
    missing = await coordinator_missing()
    assert not missing, f"the coordinator does not handle message kinds {missing}"


# ====================================================================== the checks can fail


def test_a_new_decision_kind_is_reported_by_every_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_decisions, "DECISION_KINDS", (*_decisions.DECISION_KINDS, "haiku"))
    for name, check in [("kernel", lambda: unanswered(kernel_default)),
                        ("RandomBot", lambda: unanswered(random_bot(1))),
                        ("HostileBot", lambda: unanswered(hostile_bot(1))),
                        ("Director", lambda: unanswered(scenario_director)),
                        ("codec", codec_missing_decisions)]:
        assert set(check()) == {"haiku"}, name


async def test_a_new_action_kind_is_reported_by_every_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_decisions, "ACTION_KINDS", (*_decisions.ACTION_KINDS, "ponder"))
    assert set(kernel_missing_actions()) == {"ponder"}
    assert set(await director_missing_actions()) == {"ponder"}
    assert set(readme_missing_actions()) == {"ponder"}


def _unimplemented(ctx: EffectContext, eff: Any) -> None:
    raise NotImplementedError("no handler yet")


def test_a_new_effect_verb_without_a_handler_is_reported(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    # The loader reads EFFECT_VERBS itself, so it takes the new verb: only the handler fails.
    monkeypatch.setitem(EFFECT_VERBS, "ponder", VerbSpec("701.99", {}, {}, _unimplemented))
    refused, loaded = loader_missing(effect_verbs(), effect_card, tmp_path)
    assert not refused
    assert set(handler_missing({"ponder": loaded["ponder"], "draw": loaded["draw"]})) == {"ponder"}


def test_a_new_layer_verb_is_reported_by_the_docs_check(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    # The loader reads LAYER_VERBS itself, so it takes the new verb.
    monkeypatch.setitem(LAYER_VERBS, "shrink", dataclasses.replace(LAYER_VERBS["modify_pt"]))
    assert set(docs_missing_layer_verbs()) == {"shrink"}
    assert not layer_loader_missing(tmp_path)


def _fake_message(routes: tuple[tuple[str, str], ...], field_type: Any = str) -> type:
    """A message class the actors were not written for."""

    @dataclass(frozen=True, slots=True)
    class Ping:
        KIND: ClassVar[str] = "Ping"
        ROUTES: ClassVar[tuple[tuple[str, str], ...]] = routes
        note: field_type  # type: ignore[valid-type]

    Ping.__annotations__["note"] = field_type  # a real type for get_type_hints, not a string
    return Ping


def test_a_new_message_kind_the_codec_cant_carry_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    ping = _fake_message((("coordinator", "player"),), frozenset[int])
    monkeypatch.setitem(_messages.MESSAGE_TYPES, "Ping", ping)
    monkeypatch.setitem(_codec._KIND_OF, ping, "Ping")
    assert set(codec_missing_messages()) == {"Ping"}


@pytest.mark.parametrize("receiver", ["player", "stack", "sba", "coordinator"])
async def test_a_new_message_kind_is_reported_by_its_receiver(receiver: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    sender = "player" if receiver == "coordinator" else "coordinator"
    monkeypatch.setitem(_messages.MESSAGE_TYPES, "Ping", _fake_message(((sender, receiver),)))
    check = {"player": player_missing, "coordinator": coordinator_missing}.get(receiver)
    missing = await (check() if check is not None else kernel_actor_missing(receiver))
    assert set(missing) == {"Ping"}
