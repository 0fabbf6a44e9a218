"""The closed registry of effect verbs (``EFFECT_VERBS``): each verb's name and its class, whose
fields are its arguments and whose ``run`` carries it out.

Verbs are keyword actions (701) and general primitives, never one card's special case. A new
verb is a class beside those of its kind (``_players``, ``_objects``, ``_continuous``,
``_instructions``) and its entry here; card files name it at once, and a file naming an
unknown verb or argument fails when it is loaded, not mid-game.
"""

from __future__ import annotations

from typing import Final

from ._context import Verb
from ._continuous import (
    LAYER_EFFECT_VERBS,
    CantAttack,
    CantBlock,
    CastAsThoughFlash,
    GainProtection,
    MayPlay,
    PreventDamage,
    Regenerate,
)
from ._instructions import (
    AnyPlayerMay,
    Cast,
    ChooseCard,
    CreateDelayedTrigger,
    ForEach,
    IfPaid,
    May,
)
from ._objects import (
    Attach,
    CopyCard,
    CopySpell,
    Counter,
    CreateToken,
    Destroy,
    Exile,
    ExileTop,
    PlayersSacrifice,
    PutCounters,
    PutIntoZone,
    PutOntoBattlefield,
    ReturnExiled,
    Sacrifice,
    Tap,
)
from ._players import (
    AddMana,
    AddManaOfAnyColor,
    DealDamage,
    Discard,
    DiscardHand,
    Draw,
    GainLife,
    LoseLife,
    Mill,
    SetLife,
    Shuffle,
    ShuffleIntoLibrary,
    WinGame,
)

_CLASSES: Final[tuple[type[Verb], ...]] = (
    AddMana, AddManaOfAnyColor, DealDamage, GainLife, LoseLife, Draw, Discard, DiscardHand,
    Sacrifice, Destroy, PutIntoZone, PutCounters, Counter, IfPaid, Shuffle, WinGame,
    CreateDelayedTrigger,
    # 611.2: "target creature gets +3/+3 until end of turn", "becomes a 2/2 creature until end of
    # turn", "gain control of target creature": every layer primitive but copying and CDAs.
    *LAYER_EFFECT_VERBS,
    # 613.11: "target creature can't block this turn"; 702.8a, 611.2b: "until your next turn,
    # you may cast sorcery spells as though they had flash".
    CantBlock, CantAttack, CastAsThoughFlash,
    Mill, Attach, CreateToken, Tap, Regenerate, PreventDamage, SetLife, ShuffleIntoLibrary,
    PutOntoBattlefield, Exile, ReturnExiled, May, ChooseCard, CopyCard, Cast, AnyPlayerMay,
    CopySpell, GainProtection,
    # 608.2e, 608.2f: "each player sacrifices a creature"; "for each of them, exile the top card
    # of your library, then ..."; "you may play the exiled cards until the end of your next turn".
    PlayersSacrifice, ForEach, ExileTop, MayPlay,
)

EFFECT_VERBS: Final[dict[str, type[Verb]]] = {cls.verb: cls for cls in _CLASSES}
"""The closed registry of effect verbs, by name."""
