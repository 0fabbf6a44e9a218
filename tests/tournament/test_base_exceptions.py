"""A bot that raises ``SystemExit``, ``KeyboardInterrupt``, ``GeneratorExit`` or a
``BaseException`` of its own, from ``decide``, ``notify`` or its constructor, forfeits its own
seat with a reason naming the exception, and nothing else: four ways (in a ``GameHost``
beside an honest game, in ``play_one_game`` beside ten honest games, in a bot process, in a
``--trust`` tournament), each other game ending as it does alone. And the operator's Ctrl-C
still stops a tournament while a ``--trust`` bot holds the event loop, and ``--resume``
finishes it to the same results."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from spellstack.actors import GameResult, play_one_game
from spellstack.bots import RandomBot
from spellstack.cards import Deck, load_cards, load_deck
from spellstack.chat import BotSeat, GameHost, GameInfo
from spellstack.tournament import (
    Contestant,
    GameRow,
    GameSpec,
    TournamentSettings,
    load_bot,
    parse_entrant,
    play_spec,
    play_tournament,
    untimed,
)
from tests.tournament import base_exception_bots as bots

CARDS = load_cards()
ROOT = Path(__file__).resolve().parents[2]
FILE = Path(__file__).resolve().with_name("base_exception_bots.py")
BUILT = [name for name in bots.CLASSES if not name.startswith("Build")]
"""The bots whose constructor works: those a GameHost or play_one_game can be given."""
LIMIT = 120.0
"""Generous seconds for a tournament process or a bot process's game (they take about one)."""


def _outcome(result: GameResult) -> tuple[object, ...]:
    """What a game's end is, compared between runs."""
    return (result.winner, result.reason, result.turns, result.decisions, result.final_hash)


def test_the_bots_raise_what_the_table_says() -> None:
    # Each case is what its name says, so the table below tests what it claims.
    cases = {type(make()) for make, _ in bots.EXCEPTIONS.values()}
    assert cases == {SystemExit, KeyboardInterrupt, GeneratorExit, bots.Escape}
    assert not issubclass(bots.Escape, Exception)
    assert len(bots.CLASSES) == 5 * 3 + 1


# ------------------------------------------------------------------ play_one_game

HONEST = range(10)
"""The honest games' seeds."""


async def _honest(seed: int) -> GameResult:
    _, result = await play_one_game(["gruul", "dimir"], [RandomBot(2 * seed), RandomBot(2 * seed + 1)], seed)
    return result


@pytest.fixture(scope="module")
def alone() -> list[tuple[object, ...]]:
    """The honest games played alone, one after another."""

    async def main() -> list[tuple[object, ...]]:
        return [_outcome(await _honest(seed)) for seed in HONEST]

    return trio.run(main)


@pytest.mark.parametrize("name", BUILT)
async def test_in_play_one_game_beside_ten_honest_games(name: str, alone: list[tuple[object, ...]],
                                                        autojump_clock: Any) -> None:
    results: dict[int, GameResult] = {}

    async def honest(seed: int) -> None:
        results[seed] = await _honest(seed)

    async def hostile() -> None:
        _, results[-1] = await play_one_game(["gruul", "dimir"], [RandomBot(1), getattr(bots, name)(7)], 5)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(hostile)
        for seed in HONEST:
            nursery.start_soon(honest, seed)
    lost = results.pop(-1)
    assert lost.winner == "p1" and lost.reason == f"p1 wins: p2 forfeited: {bots.CLASSES[name]}"
    assert [_outcome(results[seed]) for seed in HONEST] == alone


# ------------------------------------------------------------------ GameHost


def _host_games(*pairs: tuple[BotSeat, BotSeat]) -> list[GameInfo]:
    """The games of ``pairs`` (gruul against dimir, seed 3), played at once in one host; and
    one more started once they are over, which the host still plays."""

    async def main() -> list[GameInfo]:
        async with GameHost() as host:
            ids = [await host.create_game(list(pair), ["gruul", "dimir"], seed=3) for pair in pairs]
            infos = [await host.wait(gid) for gid in ids]
            after = await host.create_game([BotSeat("p1"), BotSeat("p2")], ["gruul", "dimir"], seed=3)
            return [*infos, await host.wait(after)]

    return asyncio.run(main())


def _info_outcome(info: GameInfo) -> tuple[object, ...]:
    assert info.result is not None, info.reason
    return (info.reason, *_outcome(info.result))


@pytest.fixture(scope="module")
def host_alone() -> tuple[object, ...]:
    """The honest host game played alone."""
    return _info_outcome(_host_games((BotSeat("p1"), BotSeat("p2")))[0])


@pytest.mark.parametrize("name", BUILT)
def test_in_a_game_host_beside_an_honest_game(name: str, host_alone: tuple[object, ...]) -> None:
    hostile, honest, after = _host_games((BotSeat("p1"), BotSeat("p2", getattr(bots, name)(7))),
                                         (BotSeat("p1"), BotSeat("p2")))
    assert hostile.reason == f"p1 wins: p2 forfeited: {bots.CLASSES[name]}"
    assert _info_outcome(honest) == host_alone
    assert _info_outcome(after) == host_alone  # the host goes on


# ------------------------------------------------------------------ bot processes

SPEC = GameSpec("r1-m1-g1", 1, 1, 1, 5, (0, 1), (11, 12), None)
"""The one game of the bot-process table: entrant 0 (honest) against entrant 1."""


@pytest.mark.slow
async def test_in_a_bot_process_beside_an_honest_game() -> None:
    # Real processes, real time: each bot process starts in about 0.3 s.
    honest = Contestant("honest", _deck("gruul"), RandomBot)
    other = Contestant("other", _deck("dimir"), RandomBot)
    alone = untimed(await play_spec(SPEC, [honest, other]))
    hosted = {name: load_bot(f"{FILE}:{name}") for name in bots.CLASSES}
    rows: dict[str, GameRow] = {}
    limit = trio.CapacityLimiter(4)

    async def play(name: str) -> None:
        async with limit:
            rows[name] = await play_spec(SPEC, [honest, Contestant(name, _deck("dimir"), hosted[name])],
                                         deadline=LIMIT)

    async def beside() -> None:
        rows[""] = await play_spec(SPEC, [honest, other])

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as nursery:
            for name in bots.CLASSES:
                nursery.start_soon(play, name)
            nursery.start_soon(beside)
    assert untimed(rows.pop("")) == alone
    wrong = {name: row.reason for name, row in rows.items()
             if (row.winner, row.reason) != (0, f"honest wins: {name} forfeited: {bots.CLASSES[name]}")}
    assert wrong == {}


def _deck(name: str) -> Deck:
    return load_deck(name, CARDS)


# ------------------------------------------------------------------ --trust


def _settings(names: list[str], trust: bool = True) -> TournamentSettings:
    honest = (parse_entrant("alice=random@gruul", CARDS), parse_entrant("bob=random@dimir", CARDS))
    hostile = tuple(parse_entrant(f"{name}={FILE}:{name}@gruul", CARDS, trust=trust) for name in names)
    return TournamentSettings(honest + hostile, "round-robin", 1, 4, deadline=LIMIT, trust=trust)


def _honest_rows(rows: list[GameRow]) -> list[GameRow]:
    """The game between the honest entrants (0 and 1), without what depends on the rest of the
    field (its id, round and match number) or on time."""
    return [replace(untimed(r), game_id="", round=0, match=0) for r in rows if set(r.entrants) == {0, 1}]


async def test_in_a_trusted_tournament_each_loses_only_its_own_games(tmp_path: Path) -> None:
    names = list(bots.CLASSES)
    played = await play_tournament(_settings(names), db=tmp_path / "all.db", concurrency=8)
    alone = await play_tournament(_settings([]), db=tmp_path / "alone.db")
    entrants = ["alice", "bob", *names]
    n = len(entrants)
    assert len(played.rows) == n * (n - 1) // 2  # it finished: every game was played
    for row in played.rows:
        players = [entrants[i] for i in row.entrants]
        if set(players) <= {"alice", "bob"}:
            continue
        assert row.winner >= 0, row.reason
        loser = players[1 - row.winner]
        assert loser in bots.CLASSES, (players, row.reason)
        assert row.reason.endswith(f"{loser} forfeited: {bots.CLASSES[loser]}"), row.reason
    for name in names:  # each lost to both honest entrants
        lost = [r for r in played.rows if r.entrants[1 - r.winner] == entrants.index(name)
                and entrants[r.entrants[r.winner]] in ("alice", "bob")]
        assert len(lost) == 2, name
    assert _honest_rows(played.rows) == _honest_rows(alone.rows) != []


# ------------------------------------------------------------------ Ctrl-C


def _start(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "spellstack", "tournament", *args], cwd=ROOT,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def _tournament(tmp_path: Path, db: str, *more: str) -> list[str]:
    return ["--entrant", f"hold={FILE}:HoldsTheLoopOnce@gruul", "--entrant", "a=random@dimir",
            "--entrant", "b=random@orzhov", "--entrant", "c=heuristic@gruul", "--trust",
            "--seed", "9", "--db", str(tmp_path / db), *more]


@pytest.mark.slow
def test_ctrl_c_while_a_trusted_bot_decides_stops_the_tournament_and_resume_finishes_it(
        tmp_path: Path) -> None:
    marker = tmp_path / "held"
    env = {**os.environ, "SPELLSTACK_TEST_HOLD": str(marker),
           "PYTHONPATH": os.pathsep.join((str(ROOT / "src"), str(ROOT)))}
    # The whole tournament, the bot never holding the loop (its marker is there already).
    marker.write_text("")
    whole = subprocess.run([sys.executable, "-m", "spellstack", "tournament",
                            *_tournament(tmp_path, "whole.db", "--results", str(tmp_path / "whole.json"))],
                           cwd=ROOT, env=env, text=True, capture_output=True, timeout=LIMIT, check=False)
    assert whole.returncode == 0, whole.stderr
    marker.unlink()
    proc = _start(*_tournament(tmp_path, "part.db", "--quiet"), env=env)
    try:
        # Real time: another process. The bot says on stderr when it holds the loop.
        assert proc.stderr is not None
        said: list[str] = []
        deadline = time.monotonic() + LIMIT
        while not said or "holding the loop" not in said[-1]:
            ready, _, _ = select.select([proc.stderr], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, f"the bot never held the loop: {said}"
            line = proc.stderr.readline()
            assert line, f"the tournament ended first: {said}"
            said.append(line)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=LIMIT)
    finally:
        proc.kill()
    # Stopped as Ctrl-C stops it, not played on with the bot's seat forfeited.
    assert proc.returncode != 0, err
    assert "KeyboardInterrupt" in err, err
    resumed = subprocess.run([sys.executable, "-m", "spellstack", "tournament",
                              *_tournament(tmp_path, "part.db", "--resume", "--results",
                                           str(tmp_path / "part.json"))],
                             cwd=ROOT, env=env, text=True, capture_output=True, timeout=LIMIT, check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert (tmp_path / "part.json").read_bytes() == (tmp_path / "whole.json").read_bytes()
