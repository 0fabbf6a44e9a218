#!/usr/bin/env python3
"""A game with a counterspell war, traced: two scripted duelists with blue-red decks.

Run with:

    python examples/counterspell_war.py --seed 3 --trace war.jsonl

then look at the trace with ``spellstack trace why war.jsonl --object Counterspell`` or check
it with ``spellstack replay war.jsonl``. ``--flow N`` also prints the priority records of turn
N (who received priority, who passed, what was cast, what resolved); ``--no-auto-pass`` has
each player asked at every grant of priority, even when passing is all it can do.

Each duelist does the same thing every time it is in the same spot, so a seed always gives the
same game: it plays a land when it can; when an opponent's spell is on top of the stack it
counters it if it can; when an opponent's Lightning Bolt aims at its creature it returns the
creature to its hand with Unsummon (the Bolt then has no legal target and doesn't resolve); in
its own main phase with an empty stack it casts a Raging Goblin, or a Lightning Bolt at the
opponent's creature or, failing one, at the opponent; it attacks with everything and never
blocks.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import trio

from spellstack import (
    Action,
    ActionOption,
    Answer,
    Decision,
    Deck,
    PlayerView,
    Reply,
    SeatConfig,
    default_answer,
    play_one_game,
    player_ref,
)
from spellstack.trace import priority_flow, read_trace

DECK = Deck("izzet duel", (("Island",) * 12 + ("Mountain",) * 8 + ("Counterspell",) * 10
                           + ("Lightning Bolt",) * 4 + ("Unsummon",) * 2 + ("Raging Goblin",) * 4))
"""Both players' deck: 40 cards, counterspells and burn."""


class Duelist:
    """The scripted policy described above: always the same answer to the same question."""

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        """Answer ``decision``."""
        if decision.kind == "priority":
            return self._priority(view, decision)
        if decision.kind == "mulligan":
            return Answer(decision.id, (0,))  # keep
        if decision.kind == "attackers":
            used: set[int] = set()
            pairs = []
            for a, b in decision.legal_pairs:
                if a not in used:
                    used.add(a)
                    pairs.append((a, b))
            return Answer(decision.id, (), tuple(pairs))
        return default_answer(decision)

    def _priority(self, view: PlayerView, decision: Decision) -> Action:
        me = view.seat
        options = {o.name: o for o in decision.actions if o.kind == "cast"}
        lands = [o for o in decision.actions if o.kind == "play"]
        top = view.stack[0] if view.stack else None
        mine = {o.id for o in view.battlefield if o.controller == me}
        theirs = [o.id for o in view.battlefield
                  if o.controller != me and "Creature" in o.types]
        if top is not None and top.controller != me:
            counter = options.get("Counterspell")
            if counter is not None and top.id in _candidates(counter):
                return Action("cast", counter.object_id, targets=(top.id,))
            bounce = options.get("Unsummon")
            aimed = [t for t in top.targets if t in mine]
            if top.name == "Lightning Bolt" and bounce is not None and aimed:
                return Action("cast", bounce.object_id, targets=(aimed[0],))
            return Action("pass")
        if lands:
            return Action("play", lands[0].object_id)
        if top is None and view.active == me and view.step.endswith("main"):
            goblin = options.get("Raging Goblin")
            if goblin is not None:
                return Action("cast", goblin.object_id)
            bolt = options.get("Lightning Bolt")
            if bolt is not None:
                aim = [t for t in theirs if t in _candidates(bolt)]
                opponent = player_ref(1 - me)
                return Action("cast", bolt.object_id, targets=(aim[0] if aim else opponent,))
        return Action("pass")


def _candidates(option: ActionOption) -> tuple[int, ...]:
    """What the option's first target may be."""
    return option.targets[0].candidates if option.targets else ()


async def play(seed: int, trace: Path | None, *, auto_pass: bool = True) -> str:
    """Play the game of ``seed``, traced to ``trace``; returns how it ended. ``auto_pass``:
    the engine passes for a player when passing is all it can do."""
    seats = [SeatConfig(auto_pass=auto_pass), SeatConfig(auto_pass=auto_pass)]
    _, result = await play_one_game([DECK, DECK], [Duelist(), Duelist()], seed,
                                    names=["alice", "bob"], trace_path=trace, configs=seats,
                                    turn_limit=40)
    return f"{result.reason} (turn {result.turns}, final state {result.final_hash[:12]})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3, help="the game's seed (default 3)")
    parser.add_argument("--trace", type=Path, default=None, help="write the trace here")
    parser.add_argument("--flow", type=int, metavar="TURN", default=None,
                        help="then print the priority records of that turn (needs --trace)")
    parser.add_argument("--no-auto-pass", action="store_true",
                        help="ask each player at every grant of priority")
    args = parser.parse_args()
    if args.flow is not None and args.trace is None:
        parser.error("--flow needs --trace")
    print(trio.run(lambda: play(args.seed, args.trace, auto_pass=not args.no_auto_pass)))
    if args.flow is not None:
        for line in priority_flow(read_trace(args.trace), turn=args.flow):
            print(line)


if __name__ == "__main__":
    main()
