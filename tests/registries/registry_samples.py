"""What the registry checks in this folder share: the table, and a sample of each kind.

The registries, each the one place its kinds are listed, and the module checking each:

- decision kinds: ``DecisionKind`` (``DECISION_KINDS`` is read off it), ``rules/state/_decisions.py``
  (``test_decision_kinds.py``);
- action kinds: ``ActionKind`` (``ACTION_KINDS``), the same module (``test_action_kinds.py``);
- effect verbs: ``EFFECT_VERBS``, ``rules/effects/_verbs.py`` (each verb a class with its ``run``), and
  layer verbs: ``LAYER_VERBS``, ``rules/layers/_vocabulary.py`` (``test_effect_and_layer_verbs.py``);
- message kinds: the ``Message`` union (``MESSAGE_TYPES`` is read off it), each class with its
  ``ROUTES``, ``protocol/_messages.py`` (``test_message_kinds.py``).
- state-based actions ``SBA_ACTIONS``, turn-based actions ``TURN_ACTIONS``, trigger events
  ``TRIGGER_EVENTS`` and counter kinds ``COUNTER_KINDS``, all in ``rules/registry``, each entry
  registered by the rules area that gives it its meaning (``test_rules_registries.py``);
- cost options ``COST_OPTIONS`` and layouts ``LAYOUTS``, also in ``rules/registry``, registered by
  the mechanics' modules (``test_mechanic_registries.py``), and the mechanics themselves,
  ``MECHANICS`` (``test_mechanics.py``).

Each module checks every consumer of its registry by exercising it with one thing of every
registered kind. Each ``*_missing`` function returns the kinds its consumer does not handle, with
what went wrong, and reads the registry when it is called, so each module's last section can add
a kind to the registry (monkeypatch) and see every check report it.

This module holds what more than one of them uses: the table (alice in her first main phase), a
question of each decision kind as the kernel asks it, and a message of any kind with sample field
values. It is a plain module rather than fixtures in a conftest.py because the checks call these
functions themselves (a fresh table for each kind); the tests import it by its package path
(``tests.registries.registry_samples``).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Any, Literal, Union, get_args, get_origin

from spellstack.cards import load_cards
from spellstack.rules import CardDefinition, Choice, Decision, Game, player_ref, priority_decision
from spellstack.rules.views import ask_choose, ask_yes_no
from spellstack.scenarios import build_game
from spellstack.schema import class_hints

CARDS: Mapping[str, CardDefinition] = load_cards()
NAMES = ("alice", "bob")
Missing = dict[str, str]
"""Kind -> what went wrong when the consumer was given one of that kind."""


def problem(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}"


# ====================================================================== the table

SETUP: dict[str, Any] = {
    "players": list(NAMES),
    "alice": {
        "hand": ["Lightning Bolt", "Forest", "Grizzly Bears"],
        "battlefield": [{"card": "Grizzly Bears", "label": "bears"}, "Mountain", "Forest", "Forest",
                        "Drudge Skeletons", "Swamp",
                        {"card": "Exalted Angel", "label": "morph", "face_down": True},
                        "Plains", "Plains"],
    },
    "bob": {
        "hand": ["Forest", "Forest", "Forest"],
        "battlefield": [{"card": "Grizzly Bears", "label": "bobs_bears"}],
    },
}
"""Alice in her first main phase, able to play a land, cast spells, activate an ability and turn
a face-down permanent face up (702.37e)."""


def table(setup: Mapping[str, Any] = SETUP,
          cards: Mapping[str, CardDefinition] = CARDS) -> tuple[Game, dict[str, int]]:
    """A fresh game as ``setup`` describes it, and its labels."""
    return build_game(setup, 1, cards, "registries")


def labelled(game: Game, labels: Mapping[str, int], label: str) -> int:
    """The object id of a labelled card."""
    return next(o.id for o in game.state.objects.values() if o.card == labels[label])


# ====================================================================== a question of each kind


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
    return Decision(st.new_decision_id(0), 0, kind, "100.1: a question of a new kind",  # type: ignore[arg-type]
                    choices=tuple(Choice(i, r, st.objects[r].name) for i, r in enumerate(st.players[0].hand)),
                    min=1, max=1)


# ====================================================================== a message of any kind


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
    hints = class_hints(cls)  # as the schema engine reads them (a compiled class's from its source)
    fields = {f.name: given[f.name] if f.name in given else sample_value(hints[f.name], depth + 1)
              for f in dataclasses.fields(cls)}
    return cls(**fields)
