"""Passing priority (117.3d, 117.4) and the priority decision (117.1): what the game loop does at
every grant of priority, apart from the checks of what players send (``_priority.py``), so that
the compiled build can compile it (compiled code checks each typed value it reads, and a
player's action may hold values of any type).
"""

from __future__ import annotations

from ..casting import legal_actions, only_pass_possible, where
from ..game import Game
from ..state import ActionOption, Decision, GameState, PlayerState, new_decision

__all__ = ["after_sba", "after_triggers", "automatic_pass", "living_count", "pass_priority",
           "priority_decision", "record_pass"]


def living_count(players: list[PlayerState]) -> int:
    """How many players are still in the game (``living_seats`` without building the list: this
    is read at every pass)."""
    n = 0
    for p in players:
        if not p.lost:
            n += 1
    return n


def after_sba(game: Game, events_count: int) -> None:
    """Note the outcome of a state-based action check."""
    st = game.state
    if events_count and st.step == "cleanup":
        st.cleanup_acted = True  # 514.3a


def after_triggers(game: Game, placed: bool) -> None:
    """Note that triggers were put on the stack (players will get priority in cleanup)."""
    st = game.state
    if placed and st.step == "cleanup":
        st.cleanup_acted = True


def priority_decision(game: Game, actions: tuple[ActionOption, ...] | None = None) -> Decision:
    """117.1: the priority decision for the player who holds priority now, numbered among that
    player's decisions. ``actions``: ``legal_actions`` for them now, if the caller has it."""
    st = game.state
    seat = st.priority
    st.cycle = "priority"
    return new_decision(st.new_decision_id(seat), seat, "priority",
                        f"117.1: {st.players[seat].name}, you have priority ({st.step})", (),
                        legal_actions(game, seat) if actions is None else actions, 0, 0, (), ())


def record_pass(st: GameState, seat: int) -> None:
    """117.3d/117.4: ``seat`` passes; when all players pass in succession, resolve or move on.
    Nothing is checked: its callers (``take_action``, ``pass_priority``, ``run_automatic``) have."""
    st.passes += 1
    if st.passes >= living_count(st.players):
        st.cycle = "resolve" if st.stack else "advance"
    else:
        st.priority = st.next_seat(seat)
        st.cycle = "check"


def pass_priority(game: Game, seat: int) -> None:
    """117.3d: the engine passes on behalf of ``seat``, which holds priority now (an automatic
    pass). The caller is the engine itself, so nothing is checked but that the game is waiting
    for this seat: ``take_action``'s checks of a received action are for what players send."""
    st = game.state
    if st.cycle not in ("priority", "check") or st.priority != seat or st.game_over:
        raise AssertionError(f"pass_priority: {st.players[seat].name} does not hold priority "
                             f"({where(game)})")
    st.cycle = "priority"
    record_pass(st, seat)


def automatic_pass(game: Game, seat: int) -> bool:
    """117.3d on behalf of ``seat``, which holds priority, if passing is all it can do
    (``only_pass_possible``, exact): passes and returns True; otherwise changes nothing and
    returns False, and the caller builds the priority decision. An automatic pass takes no
    decision id: the seat is asked nothing."""
    if not only_pass_possible(game, seat):
        return False
    pass_priority(game, seat)
    return True
