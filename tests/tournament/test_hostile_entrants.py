"""One tournament with an entrant for each way a bot can misbehave: each loses its own games,
with the reason recorded, the tournament finishes, every bot process is gone at the end, and
the games between the honest entrants are exactly those of a tournament without the others.

Real processes, real time (the mock clock does not see other processes), generous limits."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from spellstack.cards import load_cards
from spellstack.tournament import GameRow, TournamentSettings, parse_entrant, play_tournament, untimed

CARDS = load_cards()
HERE = Path(__file__).resolve().parent
SCRIPT = f"stdio:{sys.executable} {HERE / 'hostile_stdio_bot.py'}"
CLASSES = HERE / "hostile_class_bots.py"
DEADLINE = 0.5
"""Real time, waited out by "silent" and "spins" in each of their games: the bots are other
processes. A bot's start-up is not part of any decision's time (the game waits for its ready
frame), so the deadline only has to cover an honest bot's answer."""

HOSTILE = {
    # name: (bot spec, the reason its games are lost for)
    "raises": (f"{CLASSES}:Raises", r"policy raised RuntimeError: this bot has a bug"),
    "spins": (f"{CLASSES}:Spins", r"no answer within 0.5 s"),
    "silent": (f"{SCRIPT} silent", r"no answer within 0.5 s"),
    "garbage": (f"{SCRIPT} garbage", r"3 malformed messages in a row: invalid message: not msgpack"),
    "oversized": (f"{SCRIPT} oversized",
                  r"bot process sent a frame of 1048576 bytes, over the limit of 8192 for a player's message$"),
    "truncated": (f"{SCRIPT} truncated",
                  r"bot process exited with code 0 inside a frame \(its length says 100 bytes, 3 came\)"),
    "nested": (f"{SCRIPT} nested", r"3 malformed messages in a row: invalid message: nested too deeply"),
    "noise": (f"{SCRIPT} noise", r"bot process printed text on stdout \('star'\.\.\.\), which carries "
                                 r"frames only: print to stderr \(read as a frame's length, 1937006962 bytes"),
    "illegal": (f"{SCRIPT} illegal", r"50 illegal actions in a row"),
    "exits": (f"{SCRIPT} exits", r"bot process exited with code 3; its stderr ended: giving up"),
    "killed": (f"{SCRIPT} killed", r"bot process was killed by SIGKILL"),
    "chatty": (f"{SCRIPT} chatty", r"bot process answered the hello with \{'b': \{\}, 'k': 'SetStops', 'v': \d+\}, "
                                   r"not the ready frame \{'t': 'ready'\}"),
}
HONEST = ("alice=random@gruul", "bob=heuristic@dimir")


def _key(row: GameRow, names: list[str]) -> tuple[tuple[str, ...], int, GameRow]:
    """A game by who played it in which seats and its number in their match, without what
    depends on the rest of the field (its id, round and match number) or on time."""
    bare = replace(untimed(row), game_id="", round=0, match=0, entrants=())
    return tuple(names[i] for i in row.entrants), row.number, bare


@pytest.mark.slow
async def test_each_hostile_entrant_loses_only_its_own_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv("SPELLSTACK_TEST_PIDS", str(pids))
    honest = tuple(parse_entrant(text, CARDS) for text in HONEST)
    hostile = tuple(parse_entrant(f"{name}={spec}@gruul", CARDS) for name, (spec, _) in HOSTILE.items())
    everyone = TournamentSettings(honest + hostile, "round-robin", 1, 4, deadline=DEADLINE)
    played = await play_tournament(everyone, db=tmp_path / "all.db", concurrency=4)
    names = [e.name for e in everyone.entrants]
    n = len(names)
    assert len(played.rows) == n * (n - 1) // 2  # every match was played: it finished

    for row in played.rows:
        players = [names[i] for i in row.entrants]
        bad = [p for p in players if p in HOSTILE]
        if not bad:
            continue
        assert row.winner >= 0, row.reason  # somebody forfeited: no draw
        loser = players[1 - row.winner]
        assert loser in HOSTILE, f"{loser} lost to {players[row.winner]}: {row.reason}"
        pattern = HOSTILE[loser][1]
        assert re.search(rf"{loser} forfeited: {pattern}", row.reason), (loser, row.reason)
    # Each hostile entrant lost every game it played against an honest one.
    for name in HOSTILE:
        against_honest = [r for r in played.rows if name in [names[i] for i in r.entrants]
                          and any(names[i] in ("alice", "bob") for i in r.entrants)]
        assert len(against_honest) == 2
        assert all(names[r.entrants[r.winner]] != name for r in against_honest)

    # Every bot process is gone: those over their deadline were killed, the others ended.
    started = [int(p.stem) for p in pids.iterdir()]
    # At least the stdio ones' games against the honest entrants (all lost by their own doing).
    assert len(started) >= 9 * 2
    for pid in started:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)

    # The honest entrants' game is the game a tournament of the two alone plays.
    alone = await play_tournament(TournamentSettings(honest, "round-robin", 1, 4, deadline=DEADLINE),
                                  db=tmp_path / "alone.db")
    alone_names = [e.name for e in honest]
    between = sorted(_key(r, names) for r in played.rows
                     if all(names[i] in ("alice", "bob") for i in r.entrants))
    assert between == sorted(_key(r, alone_names) for r in alone.rows)
    assert len(between) == 1 and "forfeit" not in between[0][2].reason
