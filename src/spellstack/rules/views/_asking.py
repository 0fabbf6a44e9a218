"""Asking a seat to choose: every choice is named as that seat may know it (400.2)."""

from __future__ import annotations

from ..game import Game
from ..state import Answer, Choice, Proc, new_choice
from ._visibility import visible_name

__all__ = ["ask_choose", "ask_keys", "ask_word", "ask_yes_no"]


def ask_choose(game: Game, player: int, prompt: str, refs: list[int], lo: int, hi: int) -> Proc[list[int]]:
    """Ask ``player`` to choose between ``lo`` and ``hi`` of ``refs``; answered automatically
    when only one answer is legal."""
    hi = min(hi, len(refs))
    lo = min(lo, hi)
    if hi == 0:
        return []
    if lo == hi == len(refs):
        return list(refs)
    # The asked player is told only names they may see (400.2).
    choices = tuple(new_choice(i, r, visible_name(game, r, player), 0) for i, r in enumerate(refs))
    reply = yield game.decision(player, "choose", prompt, choices=choices, min=lo, max=hi)
    assert isinstance(reply, Answer)
    return [refs[k] for k in reply.keys]


def ask_yes_no(game: Game, player: int, prompt: str) -> Proc[bool]:
    """Ask a yes/no question ("you may")."""
    choices = (new_choice(1, 0, "yes", 0), new_choice(0, 0, "no", 0))
    reply = yield game.decision(player, "yes_no", prompt, choices=choices, min=1, max=1)
    assert isinstance(reply, Answer)
    return reply.keys == (1,)


def ask_keys(game: Game, player: int, prompt: str, choices: tuple[Choice, ...], lo: int,
             hi: int) -> Proc[tuple[int, ...]]:
    """Ask ``player`` to choose between ``lo`` and ``hi`` of ``choices``, as given (never
    answered automatically); returns the keys chosen."""
    reply = yield game.decision(player, "choose", prompt, choices=choices, min=lo, max=hi)
    assert isinstance(reply, Answer)
    return reply.keys


def ask_word(game: Game, player: int, prompt: str, words: tuple[str, ...]) -> Proc[int]:
    """Ask ``player`` to choose one of ``words`` (a colour, "no" ...), as one question; returns
    the index of the word chosen."""
    keys = yield from ask_keys(game, player, prompt, tuple(new_choice(i, 0, w, 0) for i, w in enumerate(words)),
                               1, 1)
    return keys[0]
