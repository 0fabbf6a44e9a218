"""Checking a declaration of attackers or blockers (508.1, 509.1) without asking for one: the
same options and the same check (``check_answer``) as the kernel's own declaration decision,
also where no creature could attack or block and the kernel asks no one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ..base import IllegalActionError
from ..game import Game
from ..state import Answer, Choice, Decision, is_player_ref
from ..views import visible_name
from ._combat import ATTACK_PROMPT, attack_options, block_options
from ._priority import check_answer


def declaration_refusal(game: Game, kind: Literal["attackers", "blockers"], seat: int,
                        declared: Sequence[tuple[int, int]]) -> str | None:
    """Why ``seat``'s declaration ``declared`` would be refused, None if it is legal.

    ``kind``: ``attackers`` (508.1: (creature, player or planeswalker attacked)) or
    ``blockers`` (509.1: (blocker, attacker)), each by object id or player ref. The options
    are those the kernel would offer (``attack_options``, ``block_options``) and an object
    they don't offer is an option in no legal pair, so the refusal names it and the rule
    (508.1a, 509.1a). Changes nothing.
    """
    st = game.state
    if kind == "attackers":
        if seat != st.active:
            return f"508.1: only the active player, {st.players[st.active].name}, declares attackers"
        choices, _, legal = attack_options(game)
        prompt = ATTACK_PROMPT
    elif kind == "blockers":
        if seat == st.active:
            return f"509.1: {st.players[seat].name} is the attacking player; defending players declare blockers"
        choices, _, legal, prompt = block_options(game, seat)
    else:
        raise ValueError(f"no declaration of {kind!r}: attackers or blockers")
    keys = {c.ref: c.key for c in choices}
    extra: list[Choice] = []
    pairs = []
    for first, second in declared:
        for ref in (first, second):
            if ref not in keys:
                keys[ref] = len(choices) + len(extra)
                known = is_player_ref(ref) or ref in st.objects
                extra.append(Choice(keys[ref], ref, visible_name(game, ref) if known else f"#{ref}"))
        pairs.append((keys[first], keys[second]))
    decision = Decision(id=0, player=seat, kind=kind, prompt=prompt, choices=(*choices, *extra),
                        min=0, max=len(choices), legal_pairs=legal)
    try:
        check_answer(decision, Answer(0, (), tuple(pairs)))
    except IllegalActionError as err:
        return str(err)
    return None
