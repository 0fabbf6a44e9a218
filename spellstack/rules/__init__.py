"""The rules kernel: pure, deterministic, sans-IO (no trio, msgpack or structlog here).

A game is plain-data state (``GameState``) plus card definitions (``Game``). Procedures that
may need a player's choice are generators that yield ``Decision`` and receive ``Answer`` or
``Action`` replies; ``next_task`` says what the game needs next.
"""

from ._casting import activate_ability, cast_spell, legal_actions, mana_sources, only_pass_possible, play_land
from ._combat import check_trample_division, combat_damage
from ._decisions import (
    ACTION_KINDS,
    DECISION_KINDS,
    Action,
    ActionOption,
    Answer,
    Choice,
    Decision,
    Proc,
    Reply,
    TargetRequirement,
)
from ._definitions import (
    ActivatedAbility,
    CardDefinition,
    Effect,
    SpellAbility,
    TargetSpec,
    TriggeredAbility,
)
from ._effects import ARG_KINDS, EFFECT_VERBS, OBJECT_WORDS, PLAYER_WORDS, VerbSpec
from ._errors import CardDefinitionError, IllegalActionError, InvalidMessageError, SpellstackError
from ._events import Event
from ._game import Game
from ._mana import (
    COLORS,
    MANA_TYPES,
    ManaCost,
    ManaCostSyntaxError,
    ManaSource,
    ManaSymbol,
    Payment,
    format_pool,
    parse_mana_cost,
    parse_pool,
    plan_payment,
)
from ._priority import (
    Task,
    after_sba,
    after_triggers,
    check_answer,
    default_answer,
    next_task,
    play_sync,
    priority_decision,
    run_proc,
    take_action,
)
from ._resolution import resolve_top
from ._rng import GameRandom
from ._sba import check_game_over, lose_game, state_based_actions
from ._setup import OPENING_HAND, new_game
from ._state import (
    FIRST_OBJECT_ID,
    MAX_PLAYERS,
    STEPS,
    CombatState,
    ContinuousEffect,
    DelayedTrigger,
    GameObject,
    GameState,
    PendingTrigger,
    PlayerState,
    is_player_ref,
    player_ref,
    seat_of_ref,
)
from ._targets import TARGET_KINDS, is_legal_target, target_candidates
from ._triggers import CONDITION_ARGS, CONDITIONS, TRIGGER_EVENTS, place_triggers, trigger_name
from ._turn import MAX_HAND_SIZE, advance, end_turn
from ._view import ObjectView, PlayerPublic, PlayerView, StackItemView
from ._viewing import view_for
from ._visibility import PUBLIC_SEAT, ref_visible_to, seats_seeing, visible_name, visible_to
from ._zones import create_object, deal_damage, draw_cards, move_object

__all__ = [
    "ACTION_KINDS",
    "ARG_KINDS",
    "COLORS",
    "CONDITIONS",
    "CONDITION_ARGS",
    "DECISION_KINDS",
    "EFFECT_VERBS",
    "FIRST_OBJECT_ID",
    "MANA_TYPES",
    "MAX_HAND_SIZE",
    "MAX_PLAYERS",
    "OBJECT_WORDS",
    "OPENING_HAND",
    "PLAYER_WORDS",
    "PUBLIC_SEAT",
    "STEPS",
    "TARGET_KINDS",
    "TRIGGER_EVENTS",
    "Action",
    "ActionOption",
    "ActivatedAbility",
    "Answer",
    "CardDefinition",
    "CardDefinitionError",
    "Choice",
    "CombatState",
    "ContinuousEffect",
    "Decision",
    "DelayedTrigger",
    "Effect",
    "Event",
    "Game",
    "GameObject",
    "GameRandom",
    "GameState",
    "IllegalActionError",
    "InvalidMessageError",
    "ManaCost",
    "ManaCostSyntaxError",
    "ManaSource",
    "ManaSymbol",
    "ObjectView",
    "Payment",
    "PendingTrigger",
    "PlayerPublic",
    "PlayerState",
    "PlayerView",
    "Proc",
    "Reply",
    "SpellAbility",
    "SpellstackError",
    "StackItemView",
    "TargetRequirement",
    "TargetSpec",
    "Task",
    "TriggeredAbility",
    "VerbSpec",
    "activate_ability",
    "advance",
    "after_sba",
    "after_triggers",
    "cast_spell",
    "check_answer",
    "check_game_over",
    "check_trample_division",
    "combat_damage",
    "create_object",
    "deal_damage",
    "default_answer",
    "draw_cards",
    "end_turn",
    "format_pool",
    "is_legal_target",
    "is_player_ref",
    "legal_actions",
    "lose_game",
    "mana_sources",
    "move_object",
    "new_game",
    "next_task",
    "only_pass_possible",
    "parse_mana_cost",
    "parse_pool",
    "place_triggers",
    "plan_payment",
    "play_land",
    "play_sync",
    "player_ref",
    "priority_decision",
    "ref_visible_to",
    "resolve_top",
    "run_proc",
    "seat_of_ref",
    "seats_seeing",
    "state_based_actions",
    "take_action",
    "target_candidates",
    "trigger_name",
    "view_for",
    "visible_name",
    "visible_to",
]
