"""Where the game stands for an action, and how a refusal names it (117.1, 307.1)."""

from __future__ import annotations

from typing import Final

from ..base import IllegalActionError
from ..definitions import ActivatedAbility
from ..game import Game
from ..state import GameObject
from ..views import ref_visible_to, visible_name

MAIN_STEPS: Final = ("precombat_main", "postcombat_main")


def where(game: Game) -> str:
    """Where the game stands, for error messages."""
    st = game.state
    holder = st.players[st.priority].name if 0 <= st.priority < len(st.players) else "nobody"
    return (f"turn {st.turn}, {st.players[st.active].name}'s {st.step}, {holder} has priority, "
            f"stack size {len(st.stack)}")


def refusal(game: Game, rule: str, what: str) -> IllegalActionError:
    """An ``IllegalActionError`` citing ``rule``, saying ``what``, and where the game stands."""
    return IllegalActionError(f"{rule}: {what} ({where(game)})")


def sorcery_timing(game: Game, seat: int) -> bool:
    """307.1: main phase of your turn with an empty stack."""
    st = game.state
    return st.active == seat and st.step in MAIN_STEPS and not st.stack


def named_for(game: Game, ref: int, seat: int) -> str:
    """A ref as ``seat`` may know it (``ref_visible_to``, 400.2): ``Name (#N)``, or ``#N`` alone
    for an id hidden from them now or when it last existed, exactly as for an id that never
    existed, so an error text neither names nor identifies a hidden card."""
    if not ref_visible_to(game, seat, ref):
        return f"#{ref}"
    return f"{visible_name(game, ref, seat)} (#{ref})"



def loyalty_refusal(game: Game, obj: GameObject, ab: ActivatedAbility) -> tuple[str, str] | None:
    """Why ``ab``, a loyalty ability of the permanent ``obj``, can't be activated now, as (rule,
    words), or None (also for an ability that is not a loyalty ability). Its timing, a sorcery's
    (606.3), is ``ab.sorcery_speed``'s. 606.3: only if none of the permanent's loyalty abilities
    has been activated this turn; 606.6: a negative loyalty cost only if the permanent has at
    least that many loyalty counters (118.3)."""
    if ab.loyalty is None:
        return None
    if obj.loyalty_turn == game.state.turn:
        return "606.3", f"a loyalty ability of {obj.name} has already been activated this turn"
    if ab.loyalty < 0 and obj.counters.get("loyalty", 0) < -ab.loyalty:
        return "606.6", (f"{obj.name} has {obj.counters.get('loyalty', 0)} loyalty, fewer than "
                         f"the {-ab.loyalty} its ability removes")
    return None
