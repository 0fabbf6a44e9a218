"""Losing the game (104.3), leaving a multiplayer game (800.4a) and the end of the game (104.2a,
104.4a).
"""

from __future__ import annotations

from typing import Final

from ..game import Game
from ..layers import end_effects, snapshot_leaving
from ..views import visible_name
from ..zones import move_object

CONCEDED: Final = "conceded (104.3a)"
"""The reason a player who concedes loses with (104.3a: at any time, as an action or not)."""


def lose_game(game: Game, seat: int, reason: str, *, check: bool = True) -> None:
    """104.3: a player loses; 800.4a: in a multiplayer game their objects leave with them.

    ``reason`` reads after the player's name (``has 0 or less life (704.5a)``, ``conceded
    (104.3a)``): the log says ``alice loses the game: <reason>``, the end of the game
    ``bob wins: alice <reason>``.

    ``check=False`` defers the end-of-game check, for players who lose at the same time.
    """
    st = game.state
    p = st.players[seat]
    if p.lost or st.game_over:
        return
    p.lost = True
    p.loss_reason = reason
    st.sba.mark_all()
    game.log("lose", f"{p.name} loses the game: {reason}", player=seat)
    if len(st.living_seats()) >= 2:
        _leave_game(game, seat)
    if check:
        check_game_over(game)


def _leave_game(game: Game, seat: int) -> None:
    """800.4a: a player leaves a multiplayer game; this is not a state-based action.

    In the rule's order: every object the player owns leaves the game (whatever its zone, and
    whoever controls it); effects that give them control of objects end; abilities they control on the stack
    cease to exist; then whatever they still control is exiled. Their waiting and delayed
    triggered abilities go with them. If they held priority it passes to the next player still
    in the game; a pass they made no longer counts toward all players passing (117.4).
    """
    st = game.state
    passers = _recent_passers(game, seat)
    # Objects they own leave the game (every zone; 506.4: they leave combat too).
    owned = [oid for oid, o in st.objects.items() if o.owner == seat]
    for oid in owned:
        _cease_to_exist(game, oid)
    if owned:
        game.log("leave", f"{st.players[seat].name}'s cards leave the game (800.4a)",
                 player=seat, amount=len(owned))
    # Abilities they control on the stack cease to exist; so do those waiting to be put there.
    for oid in [i for i in st.stack if st.objects[i].ability_kind
                and st.objects[i].controller == seat]:
        _cease_to_exist(game, oid)
    st.pending_triggers = [t for t in st.pending_triggers if t.controller != seat]
    st.delayed_triggers = [d for d in st.delayed_triggers if d.controller != seat]
    # Effects that give them control of objects end (layer 2).
    end_effects(game, lambda e: e.verb == "gain_control" and e.controller == seat)
    # What they still control (and someone else owns) is exiled.
    for oid in [i for i in list(st.battlefield) + list(st.stack)
                if game.controller(st.objects[i]) == seat]:
        game.log("leave", f"{visible_name(game, oid)} is exiled: its controller left the game "
                 "(800.4a)", subject=oid)
        move_object(game, oid, "exile")
    if seat in passers:
        st.passes -= 1
    if st.priority == seat:
        st.priority = st.next_seat(seat)
    if st.cycle == "priority":
        # The pending grant is void: state-based actions come before the next one (117.5).
        st.cycle = "check"
    st.sba.mark_all()


def _recent_passers(game: Game, leaver: int) -> list[int]:
    """117.4: the players who passed in succession just before the priority holder."""
    st = game.state
    n = len(st.players)
    out: list[int] = []
    if st.priority < 0 or st.cycle not in ("priority", "check"):
        return out
    for i in range(1, n):
        s = (st.priority - i) % n
        if len(out) >= st.passes:
            break
        if not st.players[s].lost or s == leaver:
            out.append(s)
    return out


def _cease_to_exist(game: Game, oid: int) -> None:
    """An object leaves the game (800.4a) or ceases to exist; its last known information stays."""
    st = game.state
    snapshot_leaving(game, st.objects[oid])
    obj = st.objects.pop(oid)
    st.zone_list(obj.zone, obj.owner).remove(oid)
    st.lki[oid] = obj
    if any(e.affected == (oid,) for e in st.effects):
        st.effects = [e for e in st.effects if e.affected != (oid,)]
    game.changed()
    if st.combat is not None:
        st.combat.attackers.pop(oid, None)
        st.combat.blockers.pop(oid, None)
    if obj.delayed_effects:
        st.delayed_triggers = [d for d in st.delayed_triggers if d.id != obj.delayed_effects]


def check_game_over(game: Game) -> None:
    """104.2a/104.4a: the game ends when one player is left (who wins) or none (a draw)."""
    st = game.state
    if st.game_over:
        return
    living = st.living_seats()
    if len(living) > 1:
        return
    st.game_over = True
    st.priority = -1
    if living:
        st.winner = living[0]
        st.players[living[0]].won = True
        st.end_reason = f"{st.players[living[0]].name} wins: " + "; ".join(
            f"{p.name} {p.loss_reason}" for p in st.players if p.lost)
    else:
        st.winner = -1
        st.end_reason = "draw: every player lost at once (104.4a)"
    game.log("game_over", st.end_reason)


def draw_game(game: Game, reason: str) -> None:
    """104.4b and the like: the game ends as a draw now, for ``reason`` (recorded as the game's
    end reason, after ``draw: ``)."""
    st = game.state
    if st.game_over:
        return
    st.game_over = True
    st.priority = -1
    st.winner = -1
    st.end_reason = f"draw: {reason}"
    game.log("game_over", st.end_reason)
