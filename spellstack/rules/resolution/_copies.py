""""You may have [this] enter as a copy of ..." (614.1c, 707.2): the controller's choice as the
spell resolves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..game import Game
    from ..state import GameObject, Proc
from ..layers import AFFECTED, Working, become_copy, characteristics
from ..views import ask_choose


def _matches(game: Game, word: str, source: GameObject, obj: GameObject) -> bool:
    """Whether ``obj`` (on the battlefield) is what an ``AFFECTED`` word names now."""
    c = characteristics(game, obj)
    w = Working(obj, c.controller)
    w.card_types, w.colors = list(c.card_types), list(c.colors)
    return AFFECTED[word](game, source, game.controller(source), w)


def choose_copy(game: Game, spell: GameObject) -> Proc[int]:
    """614.1c/707.2: "you may have [this] enter as a copy of any creature on the battlefield":
    its controller chooses one (or none) as it resolves; returns the original's id or 0. The
    copy effect starts on the spell at once, so what checks it before it enters (608.3e) sees
    the copy; ``move_object(copy_of=...)`` gives the permanent its own."""
    word = game.cards[spell.name].enters_as_copy
    if not word:
        return 0
    st = game.state
    cands = [i for i in st.battlefield if _matches(game, word, spell, st.objects[i])]
    picked = yield from ask_choose(game,
        spell.controller, f"707.2: you may have {spell.name} enter as a copy of a permanent "
        "on the battlefield (choose none to decline)", cands, 0, 1)
    if not picked or picked[0] not in st.objects:
        return 0
    become_copy(game, spell, st.objects[picked[0]], spell)
    return picked[0]
