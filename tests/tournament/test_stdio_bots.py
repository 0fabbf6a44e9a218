"""Bots in processes of their own: the example stdio bot, the hello frame, Python class bots
hosted out of process unless trusted, processes killed, and bot specs refused clearly.

These start real processes and use real time (the mock clock does not see other processes)."""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from spellstack.actors import GameResult, SeatConfig, play_one_game
from spellstack.bots import RandomBot
from spellstack.cards import load_cards
from spellstack.protocol import PROTOCOL_VERSION
from spellstack.seats import DEFAULT_STARTUP, HELLO_VERSION, ProcessBot, SeatHello
from spellstack.tournament import (
    EntrantError,
    GameRow,
    TournamentSettings,
    load_bot,
    parse_entrant,
    play_tournament,
    untimed,
)

CARDS = load_cards()
ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "stdio_bot.py"
HERE = Path(__file__).resolve().parent
CLASSES = f"{HERE / 'hostile_class_bots.py'}"


def _rows(rows: list[GameRow]) -> list[GameRow]:
    return [untimed(r) for r in rows]


@pytest.mark.slow
async def test_the_example_stdio_bot_plays_a_match_against_the_random_bot(tmp_path: Path) -> None:
    example = parse_entrant(f"example=stdio:{sys.executable} {EXAMPLE}@gruul", CARDS)
    assert isinstance(example.factory, ProcessBot)
    settings = TournamentSettings((example, parse_entrant("random@gruul", CARDS)), "round-robin", 5, 3)
    played = await play_tournament(settings, db=tmp_path / "r.db")
    assert 3 <= len(played.rows) <= 10
    for row in played.rows:
        assert "forfeit" not in row.reason, row.reason
        assert row.decisions > 10
    (_, result), = played.matches
    assert max(result.a_wins, result.b_wins) == 3  # the match was played to its end
    # Its games come out the same in worker processes (which start its processes in turn).
    again = await play_tournament(settings, db=tmp_path / "w.db", jobs=2)
    assert _rows(again.rows) == _rows(played.rows)


async def test_the_hello_frame_gives_seat_protocol_deadline_and_seed(tmp_path: Path) -> None:
    script = tmp_path / "hello_bot.py"
    script.write_text(
        "import json, struct, sys, msgpack\n"
        "size = struct.unpack('>I', sys.stdin.buffer.read(4))[0]\n"
        "hello = msgpack.unpackb(sys.stdin.buffer.read(size))\n"
        f"open({str(tmp_path)!r} + f'/hello-{{hello[\"seat\"]}}.json', 'w').write(json.dumps(hello))\n"
        "sys.exit(1)\n", encoding="utf-8")
    bot = parse_entrant(f"hello=stdio:{sys.executable} {script}@dimir", CARDS)
    settings = TournamentSettings((bot, parse_entrant("random@gruul", CARDS)), "round-robin", 1, 11,
                                  deadline=7.5)
    played = await play_tournament(settings, db=tmp_path / "r.db")
    row, = played.rows
    seat = row.entrants.index(0)
    hello = json.loads((tmp_path / f"hello-{seat}.json").read_text(encoding="utf-8"))
    assert hello == {"t": "hello", "v": HELLO_VERSION, "protocol": PROTOCOL_VERSION,
                     "game": row.game_id, "seat": seat,
                     "players": [("hello", "random-gruul")[i] for i in row.entrants],
                     "deadline": 7.5, "startup": DEFAULT_STARTUP, "seed": row.bot_seeds[seat]}
    assert row.winner == 1 - seat
    assert re.search(r"hello forfeited: bot process exited with code 1$", row.reason), row.reason


@pytest.mark.slow
async def test_a_class_bot_runs_in_a_process_of_its_own_unless_trusted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv("SPELLSTACK_TEST_PIDS", str(pids))
    spec = f"noted={CLASSES}:Noted@gruul"
    runs = {}
    for trust in (False, True):
        entrants = (parse_entrant(spec, CARDS, trust=trust), parse_entrant("random@dimir", CARDS))
        assert isinstance(entrants[0].factory, ProcessBot) is not trust
        settings = TournamentSettings(entrants, "round-robin", 3, 5, trust=trust)
        runs[trust] = await play_tournament(settings, db=tmp_path / f"{trust}.db")
        noted = {int(p.stem) for p in pids.iterdir()}
        for p in pids.iterdir():
            p.unlink()
        if trust:
            assert noted == {os.getpid()}
        else:
            # One process per game, none of them this one.
            assert len(noted) == len(runs[trust].rows) and os.getpid() not in noted
    # Where it runs changes nothing of the games.
    assert _rows(runs[False].rows) == _rows(runs[True].rows)


@pytest.mark.slow
async def test_a_bot_process_over_its_deadline_is_killed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pids = tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv("SPELLSTACK_TEST_PIDS", str(pids))
    spinner = parse_entrant(f"spins={CLASSES}:Spins@gruul", CARDS)
    # Real time, waited out once: the bot is another process. Its start-up (importing the
    # engine) is not part of any decision's time, so the deadline can be short.
    settings = TournamentSettings((spinner, parse_entrant("random@gruul", CARDS)), "round-robin", 1, 2,
                                  deadline=0.5)
    played = await play_tournament(settings, db=tmp_path / "r.db")
    row, = played.rows
    assert row.reason.endswith("spins forfeited: no answer within 0.5 s"), row.reason
    pid, = (int(p.stem) for p in pids.iterdir())
    with pytest.raises(ProcessLookupError):  # killed and reaped, not left spinning
        os.kill(pid, 0)


def test_stdio_specs_are_checked_before_any_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "plain.txt").write_text("not a program", encoding="utf-8")
    with pytest.raises(EntrantError, match=r"bot 'stdio:': no command after 'stdio:'"):
        load_bot("stdio:")
    with pytest.raises(EntrantError, match=r"no program 'no-such-bot-xyz' on PATH"):
        load_bot("stdio:no-such-bot-xyz --fast")
    with pytest.raises(EntrantError, match=r"no file './missing' \(a path is relative"):
        load_bot("stdio:./missing")
    with pytest.raises(EntrantError, match=r"'./plain.txt' is not executable \(chmod \+x"):
        load_bot("stdio:./plain.txt")
    with pytest.raises(EntrantError, match=r"the command can't be split: No closing quotation"):
        load_bot("stdio:python3 'bot.py")
    runnable = tmp_path / "bot.sh"
    runnable.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    runnable.chmod(runnable.stat().st_mode | stat.S_IXUSR)
    assert load_bot("stdio:./bot.sh --depth=3") == ProcessBot(("./bot.sh", "--depth=3"))


def test_a_stdio_entrant_has_no_name_part_and_is_named_after_its_program() -> None:
    entrant = parse_entrant(f"stdio:{sys.executable} {EXAMPLE} --level=2@gruul", CARDS)
    assert entrant.name == "stdio_bot-gruul"
    assert entrant.factory == ProcessBot((sys.executable, str(EXAMPLE), "--level=2"))
    named = parse_entrant(f"mine=stdio:{sys.executable} {EXAMPLE} --level=2@gruul", CARDS)
    assert named.name == "mine" and named.factory == entrant.factory


@pytest.mark.parametrize(("source", "message"), [
    ("raise ValueError('bad config')\n", r"running '.*boom\.py' raised ValueError: bad config"),
    ("class Other:\n    pass\n", r"'.*boom\.py' has no 'Bot'"),
    ("class Bot:\n    def __init__(self, seed):\n        raise KeyError(seed)\n"
     "    def decide(self, view, decision):\n        pass\n", r"Bot\(0\) raised KeyError: 0"),
])
def test_a_class_that_cannot_load_is_refused_the_same_way_in_or_out_of_process(
        tmp_path: Path, source: str, message: str) -> None:
    # Each case needs its own file: a module that failed is loaded again next time.
    path = tmp_path / "boom.py"
    path.write_text(source, encoding="utf-8")
    spec = f"{path}:Bot"
    with pytest.raises(EntrantError) as trusted:
        load_bot(spec, trust=True)
    with pytest.raises(EntrantError) as hosted:
        load_bot(spec)
    assert re.search(message, str(trusted.value))
    assert str(hosted.value) == str(trusted.value)


def test_untrusted_class_specs_of_no_known_form_start_no_process() -> None:
    for spec in (":Bot", "a/b:Bot", "mybot"):
        with pytest.raises(EntrantError, match=re.escape(f"bot {spec!r}: ")):
            load_bot(spec)


def test_settings_know_the_deadline() -> None:
    entrants = (parse_entrant("random@gruul", CARDS), parse_entrant("random@dimir", CARDS))
    settings = TournamentSettings(entrants, "round-robin", 1, 1)
    assert settings.as_dict()["deadline"] == 30.0
    assert replace(settings, deadline=2.0).as_dict()["deadline"] == 2.0


async def _hostile_game(mode: str, *, deadline: float, startup: float = DEFAULT_STARTUP) -> GameResult:
    """One game between the hostile stdio bot in ``mode`` (seat 0) and a random bot."""
    bot = ProcessBot((sys.executable, str(HERE / "hostile_stdio_bot.py"), mode))
    seat = bot.player(SeatHello("g1", 0, ("hostile", "random"), deadline, 7, startup))
    _, result = await play_one_game(["gruul", "gruul"], [seat, RandomBot(2)], 11, names=("hostile", "random"),
                                    configs=[SeatConfig(timeout=deadline)] * 2)
    return result


@pytest.mark.slow
async def test_no_decision_pays_for_a_bot_starting_up() -> None:
    # Real time: the bot takes 0.8 s to say it is ready, longer than its deadline of 0.3 s for
    # each decision, and is not forfeited for it.
    result = await _hostile_game("slowstart", deadline=0.3)
    assert result.forfeits == [], result.forfeits
    assert result.winner is not None and "forfeit" not in result.reason, result.reason


async def test_a_bot_not_ready_within_its_start_up_time_forfeits() -> None:
    # Real time: the bot never says it is ready; it is given 0.3 s.
    result = await _hostile_game("unready", deadline=5.0, startup=0.3)
    assert result.forfeits == [("hostile", "bot process was not ready within 0.3 s of its start (it answers "
                                           "the hello with the ready frame {'t': 'ready'})")]
    assert result.winner == "random"


async def test_a_bot_answering_the_hello_with_anything_but_ready_forfeits() -> None:
    result = await _hostile_game("chatty", deadline=5.0)
    assert result.forfeits == [("hostile", "bot process answered the hello with {'b': {}, 'k': 'SetStops', "
                                           f"'v': {PROTOCOL_VERSION}}}, not the ready frame {{'t': 'ready'}}")]
