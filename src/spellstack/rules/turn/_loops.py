"""104.4b: a loop of mandatory actions that never ends makes the game a draw.

``LoopWatch`` is told of every state-based action check and resolution the game loop makes. It
counts them, and only after ``WATCH_AFTER`` of them does it look at anything: whether, since it
last looked, the turn is the same and no player was asked anything with more than one answer
(a decision other than a grant of priority in which passing was all the seat could do). While
that holds, it keeps the game's position (``position``: the state without object identity) at
each one; when a position comes back, nothing any player chose happened in between and the
engine is deterministic, so the same actions repeat forever: the game is a draw (104.4b), with
that reason recorded. A game with a choice or a new turn at least every ``WATCH_AFTER`` checks
and resolutions (every game that does not loop) pays a count for each and a look every
``WATCH_AFTER`` of them.
"""

from __future__ import annotations

from typing import Any, Final

from ..game import Game
from ..state import GameObject

WATCH_AFTER: Final = 200
"""How many checks and resolutions without a choice or a new turn before positions are kept."""


def _object(game: Game, o: GameObject) -> tuple[Any, ...]:
    """An object without its identity: what it is and its status, its targets by name."""
    objects = game.state.objects
    return (o.name, o.owner, o.controller, o.tapped, o.damage, tuple(sorted(o.counters.items())),
            o.face_down, o.is_token, o.ability_kind, o.ability_index, o.sector,
            objects[o.attached_to].name if o.attached_to in objects else o.attached_to,
            tuple(objects[t].name if t in objects else t for t in o.targets))


def position(game: Game) -> tuple[Any, ...]:
    """The game's state as a value, without object identity (ids and timestamps, which every
    zone change renews, 400.7): each zone's objects (in order where order matters), each
    player's life, counters and pool, the turn, step and priority, and how many continuous
    effects, shields and delayed triggers there are."""
    st = game.state
    objects = st.objects

    def names(ids: list[int]) -> tuple[str, ...]:
        return tuple(objects[i].name for i in ids)

    players = tuple((p.life, p.poison, tuple(sorted(p.mana.items())), p.lands_played, p.lost,
                     names(p.library), tuple(sorted(names(p.hand))), names(p.graveyard))
                    for p in st.players)
    combat = st.combat
    return (st.turn, st.step, st.active, st.priority, st.passes, players,
            tuple(sorted(_object(game, objects[i]) for i in st.battlefield)),
            tuple(_object(game, objects[i]) for i in st.stack), tuple(sorted(names(st.exile))),
            len(st.effects), len(st.shields), len(st.delayed_triggers), len(st.pending_triggers),
            None if combat is None else (len(combat.attackers), len(combat.blockers)))


class LoopWatch:
    """104.4b, for one game loop: ``tick`` at each check and resolution; ``forced`` for each
    grant of priority asked of a seat that could only pass; ``chosen`` for each pass made for a
    seat outside its stops (its stops are its choice: such a loop is not drawn)."""

    __slots__ = ("_asked", "_seen", "_turn", "chosen", "forced", "ticks")

    def __init__(self) -> None:
        self.ticks = 0
        """Checks and resolutions since it last looked."""
        self.forced = 0
        """Grants of priority asked in which passing was all the seat could do (no choice)."""
        self.chosen = 0
        """Passes made for a seat outside its stops, whatever it could have done."""
        self._asked = -1
        self._turn = -1
        self._seen: set[tuple[Any, ...]] = set()

    def looping(self, game: Game) -> bool:
        """Whether the game has come back to a position it held since the last choice, in the
        same turn (called once ``ticks`` reaches ``WATCH_AFTER``)."""
        st = game.state
        asked = sum(st.decisions.values()) - self.forced + self.chosen
        if asked != self._asked or st.turn != self._turn:
            self._asked, self._turn, self.ticks = asked, st.turn, 0
            self._seen.clear()
            return False
        now = position(game)
        if now in self._seen:
            return True
        self._seen.add(now)
        return False
