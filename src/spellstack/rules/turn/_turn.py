"""Turn structure (500-514): steps, turn-based actions, and moving from step to step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Final

from ..base import reset_rare
from ..game import Game
from ..layers import end_durations
from ..registry import TURN_ACTIONS, TurnAction
from ..state import STEPS, Proc, is_player_ref
from ..triggers import trigger_step
from ..views import ask_choose
from ..zones import draw_cards, move_object
from ._combat import combat_damage, declare_attackers, declare_blockers, has_first_strike_step

MAX_HAND_SIZE: Final = 7


# ---------------------------------------------------------------- the turn-based actions


def _empty_pools(game: Game) -> None:
    """500.4: mana empties from each player's pool as each step and phase ends."""
    for p in game.state.players:
        if p.mana:
            p.mana = {}


def _combat_ends(game: Game) -> None:
    """511.3: combat ends as the end of combat step ends. A permanent that was attacked (a
    battle, a planeswalker) is attacked no more, which 704.5w reads ("that no creature
    attacks"): the permanents are checked again."""
    st = game.state
    combat = st.combat
    if combat is not None and any(not is_player_ref(t) for t in combat.attackers.values()):
        st.sba.board = True
    st.combat = None


def _untap(game: Game) -> None:
    """502.3: the active player untaps their permanents; 302.6: they are no longer sick."""
    st = game.state
    layers = game.caches.layers  # controllers (layer 2), one lookup each
    active = st.active
    for oid in st.battlefield:
        if layers[oid].controller == active:
            obj = st.objects[oid]
            obj.sick = False
            obj.tapped = False


def _first_draw_skipped(game: Game) -> bool:
    """103.8a: in a two-player game the starting player skips the draw step of their first
    turn; 103.8c: in a game of three or more players they draw."""
    st = game.state
    return st.turn == 1 and st.skip_first_draw and len(st.players) == 2


def _draw(game: Game) -> None:
    """504.1: the active player draws a card (800.4j: nobody draws for a player who left)."""
    st = game.state
    if not st.players[st.active].lost:
        draw_cards(game, st.active, 1)


def _no_attackers(game: Game) -> bool:
    """508.8: no creatures were declared as attackers (those declared may have left since): the
    declare blockers and combat damage steps are skipped."""
    combat = game.state.combat
    return combat is None or not combat.attackers_declared


def _no_first_strike_step(game: Game) -> bool:
    """510.4: the first-strike combat damage step happens only if an attacking or blocking
    creature has first strike or double strike (and 508.8: only if any attacked)."""
    return _no_attackers(game) or not has_first_strike_step(game)


def _discard(game: Game) -> Proc[None]:
    """514.1: the active player discards down to their maximum hand size (800.4j: a player who
    left discards nothing). Nothing has happened in this cleanup step yet (514.3a)."""
    st = game.state
    st.cleanup_acted = False
    p = st.players[st.active]
    excess = len(p.hand) - MAX_HAND_SIZE
    if excess > 0 and not p.lost:
        picked = yield from ask_choose(game, st.active, f"514.1: discard {excess} card(s)",
                                            list(p.hand), excess, excess)
        for oid in picked:
            if oid in st.objects:  # not if they left the game while choosing (800.4a)
                move_object(game, oid, "graveyard")


def _cleanup(game: Game) -> None:
    """514.2: damage is removed from permanents, and "until end of turn" and "this turn"
    effects end. Removing damage makes no state-based action apply; effects that end mark the
    board."""
    st = game.state
    for oid in st.battlefield:
        obj = st.objects[oid]
        obj.damage = 0
        if obj.deathtouch_damage:
            reset_rare(obj, "deathtouch_damage", False)  # a rare field (``GameObject``)
    end_durations(game, "cleanup")  # 514.2: "until end of turn" effects end
    st.shields = []  # 514.2: regeneration and prevention shields last "this turn"


for _name, _action in (
    ("untap", TurnAction("502.3", "the active player untaps their permanents", "untap", "begin",
                         act=_untap)),
    ("draw", TurnAction("504.1", "the active player draws a card", "draw", "begin", act=_draw,
                        skips_step=_first_draw_skipped)),
    ("declare_attackers", TurnAction("508.1", "the active player declares attackers",
                                     "declare_attackers", "begin", ask=declare_attackers)),
    ("declare_blockers", TurnAction("509.1", "each defending player declares blockers",
                                    "declare_blockers", "begin", ask=declare_blockers,
                                    skips_step=_no_attackers)),
    ("first_strike_damage", TurnAction("510.4", "creatures with first strike or double strike "
                                       "deal combat damage", "first_strike_damage", "begin",
                                       ask=partial(combat_damage, first=True),
                                       skips_step=_no_first_strike_step)),
    ("combat_damage", TurnAction("510.1", "attacking and blocking creatures deal combat damage "
                                 "(510.4: but those that dealt first-strike damage, unless they "
                                 "have double strike)", "combat_damage", "begin",
                                 ask=partial(combat_damage, first=False), skips_step=_no_attackers)),
    ("discard", TurnAction("514.1", "the active player discards down to their maximum hand size",
                           "cleanup", "begin", ask=_discard)),
    ("cleanup", TurnAction("514.2", "damage is removed and \"until end of turn\" effects end",
                           "cleanup", "begin", act=_cleanup)),
    ("empty_pools", TurnAction("500.4", "mana empties from each player's mana pool", "", "end",
                               act=_empty_pools)),
    ("combat_ends", TurnAction("511.3", "combat ends", "end_of_combat", "end", act=_combat_ends)),
):
    TURN_ACTIONS.register(_name, _action)


@dataclass(frozen=True, slots=True)
class _StepPlan:
    """What a step does as it begins and ends, read off ``TURN_ACTIONS``."""

    skips: tuple[Callable[[Game], bool], ...]
    """When any is true as the step would begin, it is skipped."""
    begin: tuple[TurnAction[Game], ...]
    """Its turn-based actions as it begins, in registry order."""
    acts: tuple[Callable[[Game], None], ...]
    """What they do, when none asks anything (``TurnAction.act``)."""
    asks: bool
    """Whether one of those may ask a player (it begins in a generator, ``_begin``)."""
    priority: bool
    """Whether players receive priority in it (not in the untap step, 502.4, nor as a rule in
    the cleanup step, 514.3)."""
    end: tuple[Callable[[Game], None], ...]
    """Its turn-based actions as it ends."""


_PLANS: Final[dict[str, _StepPlan]] = {}
_ASKING_STEPS: Final[set[str]] = set()
"""Steps whose turn-based actions may ask a player something (508.1, 509.1, 510.1c, 514.1);
the others begin without a decision (``_begin_quiet``), so no generator is made for them."""


def _plan_steps() -> None:
    """Rebuild ``_PLANS`` and ``_ASKING_STEPS`` from the registry."""
    for name, action in TURN_ACTIONS.items():
        if action.step and action.step not in STEPS:
            raise ValueError(f"turn-based action {name!r} ({action.rule}): unknown step {action.step!r}")
    _ASKING_STEPS.clear()
    for step in STEPS:
        mine = [a for a in TURN_ACTIONS.values() if a.step in ("", step)]
        begin = tuple(a for a in mine if a.at == "begin")
        plan = _StepPlan(tuple(a.skips_step for a in begin if a.skips_step is not None), begin,
                         tuple(a.act for a in begin if a.act is not None),
                         any(a.ask is not None for a in begin), step not in ("untap", "cleanup"),
                         tuple(a.act for a in mine if a.at == "end" and a.act is not None))
        _PLANS[step] = plan
        if plan.asks:
            _ASKING_STEPS.add(step)


TURN_ACTIONS.watch(_plan_steps)

# ---------------------------------------------------------------- the steps


_STEP_INDEX: Final = {step: i for i, step in enumerate(STEPS)}
_STEP_TEXT: Final = {step: step.replace("_", " ") for step in STEPS}


def _begin_quiet(game: Game, step: str) -> bool:
    """Begin ``step``, one whose turn-based actions ask nothing (not in ``_ASKING_STEPS``): its
    turn-based actions, then "at the beginning of" triggers. Returns whether players receive
    priority in it (False: the step is skipped or has none)."""
    st = game.state
    st.step = step
    plan = _PLANS[step]
    for skips in plan.skips:
        if skips(game):
            return False
    if not plan.priority:
        for act in plan.acts:
            act(game)
        return False
    _log_step(game, step)  # before its turn-based actions: they happen in the step
    for act in plan.acts:
        act(game)
    trigger_step(game, step)
    return True


def _log_step(game: Game, step: str) -> None:
    """500.1: a step that gives priority begins (logged before its turn-based actions, which
    happen in it)."""
    if game.logging():  # most step lines fall between two batches: nobody reads them
        st = game.state
        game.log("step", f"{st.players[st.active].name}'s {_STEP_TEXT[step]}", player=st.active)


def _begin(game: Game, step: str) -> Proc[bool]:
    """Begin ``step``, one of ``_ASKING_STEPS``: its turn-based actions, then "at the beginning
    of" triggers. Returns whether players receive priority in it (False: the step is skipped or
    has none)."""
    st = game.state
    st.step = step
    plan = _PLANS[step]
    for skips in plan.skips:
        if skips(game):
            return False
    priority = plan.priority
    if priority:
        _log_step(game, step)
    for action in plan.begin:
        if action.ask is not None:
            yield from action.ask(game)
        else:
            assert action.act is not None
            action.act(game)
    if priority:
        trigger_step(game, step)
    return priority


def _step_begun(game: Game, step: str, gets_priority: bool) -> bool:
    """After ``step`` began: whether the game stops in it (a player receives priority, the
    cleanup step's actions are done, or the game is over); otherwise the step ends."""
    st = game.state
    if st.game_over:
        return True
    if gets_priority or step == "cleanup":
        st.priority = st.active_or_next()  # 117.3a, 800.4j
        st.passes = 0
        # A step beginning is no state-based action's business (704.3); what its
        # turn-based actions and triggers change marks itself (``SBAChanges``).
        st.cycle = "check"
        return True
    for act in _PLANS[step].end:  # the step ends (500.4, 511.3)
        act(game)
    return False


def _quiet_steps(game: Game, index: int) -> int:
    """Begin steps from ``index`` on while they ask nothing: -1 once the game stops in one
    (``_step_begun``), else the index of the first step that may ask something, not begun."""
    while True:
        step = STEPS[index]
        if step in _ASKING_STEPS:
            return index
        if _step_begun(game, step, _begin_quiet(game, step)):
            return -1
        index += 1


def _run_steps(game: Game, index: int) -> Proc[None]:
    """Begin steps from ``index`` on until one gives priority or the cleanup step is reached."""
    while True:
        index = _quiet_steps(game, index)
        if index < 0:
            return
        step = STEPS[index]
        gets_priority = yield from _begin(game, step)
        if _step_begun(game, step, gets_priority):
            return
        index += 1


def advance_steps(game: Game) -> Proc[None] | None:
    """``advance`` as far as it goes without asking anything: None when it is done, else the
    rest of it (not started), from the first step whose turn-based actions may ask something;
    the caller drives that to its end before anything else happens."""
    st = game.state
    # After priority in a cleanup step, another cleanup step follows (514.3a).
    index = _STEP_INDEX[st.step] + (st.step != "cleanup")
    for act in _PLANS[st.step].end:  # the step ends (500.4, 511.3)
        act(game)
    index = _quiet_steps(game, index)
    return None if index < 0 else _run_steps(game, index)


def advance(game: Game) -> Proc[None]:
    """All players passed with an empty stack (117.4, 500.2): the step ends and the game moves
    on until a player would receive priority or the cleanup step's actions are done. After
    priority in a cleanup step, another cleanup step follows (514.3a)."""
    rest = advance_steps(game)
    if rest is not None:
        yield from rest


def end_turn_steps(game: Game) -> Proc[None] | None:
    """``end_turn`` as far as it goes without asking anything: None when it is done, else the
    rest of it (not started), as ``advance_steps``."""
    st = game.state
    for act in _PLANS[st.step].end:  # the step ends (500.4, 511.3)
        act(game)
    if st.turn_limit and st.turn >= st.turn_limit:
        st.game_over = True
        st.priority = -1
        st.winner = -1
        st.end_reason = f"drawn: turn limit {st.turn_limit} reached"
        game.log("game_over", st.end_reason)
        return None
    st.turn += 1
    st.active = st.next_seat(st.active)
    for p in st.players:
        p.lands_played = 0
    for oid in st.battlefield:  # "if [it] started the turn untapped"
        st.objects[oid].started_untapped = not st.objects[oid].tapped
    if game.logging():
        game.log("turn", f"turn {st.turn}: {st.players[st.active].name}", player=st.active)
    end_durations(game, "turn_start")  # 611.2b: "until your next turn" ends as it begins
    index = _quiet_steps(game, 0)
    return None if index < 0 else _run_steps(game, index)


def end_turn(game: Game) -> Proc[None]:
    """514.3: nothing happened in cleanup, so the turn ends and the next begins (500.1)."""
    rest = end_turn_steps(game)
    if rest is not None:
        yield from rest
