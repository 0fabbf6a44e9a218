"""Turn structure (500-514): steps, turn-based actions, and moving from step to step."""

from __future__ import annotations

from ..game import Game
from ..layers import end_durations
from ..state import STEPS, Proc
from ..triggers import trigger_step
from ..views import ask_choose
from ..zones import draw_cards, move_object
from ._combat import combat_damage, declare_attackers, declare_blockers, has_first_strike_step

MAX_HAND_SIZE = 7


def _end_step(game: Game) -> None:
    """500.4: mana empties from each pool as a step ends; 511.3: combat ends."""
    st = game.state
    for p in st.players:
        if p.mana:
            p.mana = {}
    if st.step == "end_of_combat":
        st.combat = None


def _no_attackers(game: Game) -> bool:
    """508.8: no creatures were declared as attackers (those declared may have left since)."""
    combat = game.state.combat
    return combat is None or not combat.attackers_declared


_ASKING_STEPS = frozenset({"declare_attackers", "declare_blockers", "first_strike_damage",
                           "combat_damage", "cleanup"})
"""Steps whose turn-based actions may ask a player something (508.1, 509.1, 510.1c, 514.1);
the others begin without a decision (``_begin_quiet``), so no generator is made for them."""
_STEP_INDEX = {step: i for i, step in enumerate(STEPS)}
_STEP_TEXT = {step: step.replace("_", " ") for step in STEPS}


def _begin_quiet(game: Game, step: str) -> bool:
    """Begin ``step``, one whose turn-based actions ask nothing (not in ``_ASKING_STEPS``): its
    turn-based actions, then "at the beginning of" triggers. Returns whether players receive
    priority in it (False: the step is skipped or has none)."""
    st = game.state
    st.step = step
    if step == "untap":
        # 502.2/502.3: untap the active player's permanents; 302.6: they are no longer sick.
        layers = game.caches.layers  # controllers (layer 2), one lookup each
        active = st.active
        for oid in st.battlefield:
            if layers[oid].controller == active:
                obj = st.objects[oid]
                obj.sick = False
                obj.tapped = False
        return False
    if step == "draw":
        if st.turn == 1 and st.skip_first_draw and len(st.players) == 2:
            # 103.8a: in a two-player game the starting player skips the draw step of their
            # first turn; 103.8c: in a game of three or more players they draw.
            return False
        _log_step(game, step)  # before its turn-based action: the draw happens in the step
        if not st.players[st.active].lost:  # 800.4j: nobody draws for a player who left
            draw_cards(game, st.active, 1)
        _begun(game, step, logged=True)
        return True
    _begun(game, step)
    return True


def _log_step(game: Game, step: str) -> None:
    """500.1: a step that gives priority begins (logged before its turn-based actions, which
    happen in it)."""
    if game.logging():  # most step lines fall between two batches: nobody reads them
        st = game.state
        game.log("step", f"{st.players[st.active].name}'s {_STEP_TEXT[step]}", player=st.active)


def _begun(game: Game, step: str, *, logged: bool = False) -> None:
    """A step that gives priority has begun: logged (unless ``logged`` already, before its
    turn-based actions), then its "at the beginning of" triggers (603.3: they wait for the
    next time a player would receive priority)."""
    if not logged:
        _log_step(game, step)
    trigger_step(game, step)


def _begin(game: Game, step: str) -> Proc[bool]:
    """Begin ``step``, one of ``_ASKING_STEPS``: its turn-based actions, then "at the beginning
    of" triggers. Returns whether players receive priority in it (False: the step is skipped or
    has none)."""
    st = game.state
    st.step = step
    if step == "declare_attackers":
        _log_step(game, step)
        yield from declare_attackers(game)
    elif step in ("declare_blockers", "combat_damage"):
        if _no_attackers(game):
            return False  # 508.8
        _log_step(game, step)
        if step == "declare_blockers":
            yield from declare_blockers(game)
        else:
            yield from combat_damage(game, first=False)
    elif step == "first_strike_damage":
        if _no_attackers(game) or not has_first_strike_step(game):
            return False
        _log_step(game, step)
        yield from combat_damage(game, first=True)
    else:  # cleanup
        yield from _cleanup(game)
        return False
    _begun(game, step, logged=True)
    return True


def _cleanup(game: Game) -> Proc[None]:
    """514.1: discard to maximum hand size; 514.2: remove damage, end "until end of turn"."""
    st = game.state
    st.cleanup_acted = False
    p = st.players[st.active]
    excess = len(p.hand) - MAX_HAND_SIZE
    if excess > 0 and not p.lost:  # 800.4j: a player who left discards nothing
        picked = yield from ask_choose(game, st.active, f"514.1: discard {excess} card(s)",
                                            list(p.hand), excess, excess)
        for oid in picked:
            if oid in st.objects:  # not if they left the game while choosing (800.4a)
                move_object(game, oid, "graveyard")
    for oid in st.battlefield:
        obj = st.objects[oid]
        obj.damage = 0
        obj.deathtouch_damage = False
    end_durations(game, "cleanup")  # 514.2: "until end of turn" effects end
    st.shields = []  # 514.2: regeneration and prevention shields last "this turn"
    # Removing damage makes no state-based action apply; effects that end mark the board.


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
    _end_step(game)
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
    _end_step(game)
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
    _end_step(game)
    if st.turn_limit and st.turn >= st.turn_limit:
        st.game_over = True
        st.priority = -1
        st.winner = -1
        st.end_reason = f"draw: the turn limit of {st.turn_limit} turns was reached"
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
