"""A game as a trio nursery of actors: coordinator, players, stack, SBA checker, tracer."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import trio

from ..bots import Bot
from ..cards import load_cards, load_deck
from ..rules import Game, new_game
from ._coordinator import Coordinator, GameResult, SeatConfig
from ._kernel_actors import sba_actor, stack_actor
from ._player import player_actor
from ._tracer import TraceWriter, tracer_actor
from ._wire import Link, TraceRecord, Wire

__all__ = ["play_game", "play_match"]


async def play_game(
    game: Game,
    policies: Sequence[Bot],
    *,
    configs: Sequence[SeatConfig] | None = None,
    trace: trio.MemorySendChannel[TraceRecord] | None = None,
    game_id: str = "g1",
) -> GameResult:
    """Run ``game`` to its end with one player actor per seat; returns the result.

    ``trace``: where to send a copy of every message (the caller owns the tracer).
    """
    n = len(game.state.players)
    if len(policies) != n:
        raise ValueError(f"{n} players but {len(policies)} policies")
    configs = list(configs) if configs is not None else [SeatConfig()] * n
    wire = Wire(game_id, trace)
    coord_ends: list[Link] = []
    async with trio.open_nursery() as nursery:
        for seat, policy in enumerate(policies):
            name = f"player:{game.state.players[seat].name}"
            mine, theirs = Link.pair(wire, "coordinator", name)
            coord_ends.append(mine)
            nursery.start_soon(player_actor, policy, theirs)
        stack_c, stack_a = Link.pair(wire, "coordinator", "stack")
        sba_c, sba_a = Link.pair(wire, "coordinator", "sba")
        nursery.start_soon(stack_actor, game, stack_a)
        nursery.start_soon(sba_actor, game, sba_a)
        result = await Coordinator(game, coord_ends, configs, stack_c, sba_c).run()
        # Players that hang or already left are not waited for.
        nursery.cancel_scope.cancel()
    return result


async def play_match(
    decks: Sequence[str],
    policies: Sequence[Bot],
    seed: int,
    *,
    names: Sequence[str] | None = None,
    trace_path: Path | None = None,
    configs: Sequence[SeatConfig] | None = None,
    history: bool = False,
) -> tuple[Game, GameResult]:
    """Start a game from built-in decks (or deck files) and play it, optionally tracing it to
    ``trace_path`` (JSON Lines). ``history``: keep every event in ``game.history``."""
    cards = load_cards()
    names = list(names) if names is not None else [f"p{i + 1}" for i in range(len(decks))]
    loaded = [load_deck(d, cards) for d in decks]
    game = new_game(cards, [(nm, d.cards) for nm, d in zip(names, loaded, strict=True)], seed)
    if history:
        game.history = []
    if trace_path is None:
        result = await play_game(game, policies, configs=configs)
        return game, result
    with open(trace_path, "w", encoding="utf-8") as stream:
        writer = TraceWriter(stream)
        writer.header(seed, {nm: d.name for nm, d in zip(names, loaded, strict=True)},
                      players=list(names))
        send, recv = trio.open_memory_channel[TraceRecord](math.inf)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(tracer_actor, recv, writer)
            async with send:
                result = await play_game(game, policies, configs=configs, trace=send)
        writer.footer(winner=result.winner, reason=result.reason, turns=result.turns,
                      final_hash=result.final_hash)
    return game, result
