"""``spellstack soak``: random games with the whole pool, every action checked. A small run
passes; defects planted in the kernel (an object in two zones, an exception, a view showing an
opponent's hand card, a prompt naming a library card, a state that replays differently, a loop
that never leaves its step) are
each reported with their game and seed, exit 1, and the printed command replays them; the
report is the same for any number of worker processes; bad arguments exit 2 in one line.

The defects are planted where the soak's driver (the bench's kernel driver) reaches the kernel:
the names it imports into ``harness._bench_kernel``, replaced for one test by broken fakes; the
runs use one job, so the games are played in this process, with the fakes."""

from __future__ import annotations

import dataclasses
import re
import shlex
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from spellstack.cards import load_cards
from spellstack.cli import main
from spellstack.harness import _bench_kernel, hidden_leaks, soak_deck, soak_pool
from spellstack.rules import (
    AskPriority,
    Game,
    GameRandom,
    ObjectView,
    PlayerView,
    Proc,
    Reply,
    resolve_top,
    state_based_actions,
    view_for,
)
from spellstack.testing import deck_game

ROOT = Path(__file__).resolve().parents[2]
FAILURE = re.compile(r"^  game (\d+) \(game seed (\d+)\): (\w+) at action (\d+) \((.*?)\): (.*)$", re.M)
REPLAY = re.compile(r"^    replay: (spellstack soak .*)$", re.M)


def _soak(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["soak", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _replayed(capsys: pytest.CaptureFixture[str], out: str) -> Iterator[tuple[str, str]]:
    """Each failure line of ``out`` and the output of the command printed to replay it (run in
    this process, so with the same planted defect)."""
    for failure, command in zip(FAILURE.finditer(out), REPLAY.finditer(out), strict=True):
        words = shlex.split(command.group(1))
        code, again, _ = _soak(capsys, *words[2:])
        assert code == 1, again
        yield failure.group(0), again


@pytest.mark.slow
def test_a_small_run_passes_and_shows_progress(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _soak(capsys, "--games", "20", "--seed", "1", "--hash-every", "10")
    assert code == 0, out
    assert "20 games" in out and "failures: 0" in out
    assert "state hash every 10 actions" in out
    assert re.search(r"^  soak: 20/20 games, [\d.]+ games/s, 0 failures$", err, re.M), err


def test_random_decks_are_legal_and_draw_on_the_whole_pool() -> None:
    cards = load_cards()
    spells, lands = soak_pool(cards)
    seen: Counter[str] = Counter()
    for seed in range(400):
        deck = soak_deck(GameRandom.from_seed(seed), cards)
        assert len(deck) == 60
        counts = Counter(deck)
        # 100.2a: at most four of a card other than a basic land; no token, no test-only card,
        # no dungeon (309.2: it starts outside the game).
        assert all(n <= 4 for name, n in counts.items() if "Basic" not in cards[name].supertypes)
        assert not any(cards[name].is_token or cards[name].test_only
                       or "Dungeon" in cards[name].card_types for name in counts)
        seen.update(counts)
    assert set(spells) | set(lands) <= set(seen), sorted(set(spells) | set(lands) - set(seen))
    assert soak_deck(GameRandom.from_seed(7), cards) == soak_deck(GameRandom.from_seed(7), cards)


@pytest.mark.slow
def test_an_object_in_two_zones_is_reported_and_replayed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = resolve_top

    def leaky_resolve(game: Game) -> Proc[None]:
        # The planted defect: once a Giant Growth resolves, a card in hand is also in the graveyard.
        top = game.state.objects[game.state.stack[-1]]
        yield from real(game)
        p = game.state.players[top.controller]
        if top.name == "Giant Growth" and p.hand:
            p.graveyard.append(p.hand[0])

    monkeypatch.setattr(_bench_kernel, "resolve_top", leaky_resolve)
    code, out, _ = _soak(capsys, "--games", "12", "--seed", "3", "--hash-every", "10")
    assert code == 1
    failures = FAILURE.findall(out)
    assert failures and f"failures: {len(failures)}" in out
    for game, seed, kind, _, _, detail in failures:
        assert kind == "invariant" and "listed in graveyard but in another zone" in detail
        assert int(seed) > 0 and 0 <= int(game) < 12
    for line, again in _replayed(capsys, out):
        assert line in again.splitlines()


@pytest.mark.slow
def test_an_exception_is_reported_with_where_it_was_raised(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = resolve_top

    def raising_resolve(game: Game) -> Proc[None]:
        if game.state.objects[game.state.stack[-1]].name == "Lightning Bolt":
            raise ValueError("planted: Lightning Bolt can't resolve")
        yield from real(game)

    monkeypatch.setattr(_bench_kernel, "resolve_top", raising_resolve)
    code, out, _ = _soak(capsys, "--games", "12", "--seed", "3", "--hash-every", "10")
    assert code == 1
    failures = FAILURE.findall(out)
    assert failures
    assert all(kind == "exception" and detail.startswith("ValueError: planted") and
               "test_soak.py" not in detail for _, _, kind, _, _, detail in failures)
    for line, again in _replayed(capsys, out):
        assert line in again.splitlines()


def test_a_view_showing_an_opponents_hand_card_is_reported(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = view_for

    def peeking_view(game: Game, seat: int, *args: object) -> PlayerView:
        # The planted defect: from turn 4 on, seat 0's view shows the top card of seat 1's hand.
        view = real(game, seat, *args)  # type: ignore[arg-type]
        other = game.state.players[1]
        if seat == 0 and game.state.turn >= 4 and other.hand:
            card = game.state.objects[other.hand[0]]
            view = dataclasses.replace(view, hand=(*view.hand, ObjectView(card.id, card.name, 1, 1)))
        return view

    monkeypatch.setattr(_bench_kernel, "view_for", peeking_view)
    code, out, _ = _soak(capsys, "--games", "3", "--seed", "1", "--hash-every", "10")
    assert code == 1
    failures = FAILURE.findall(out)
    assert [int(f[0]) for f in failures] == [0, 1, 2]
    for _, _, kind, _, where, detail in failures:
        assert kind == "hidden" and int(where.split()[1].rstrip(",")) >= 4
        assert "seat 0's view shows #" in detail and "hidden from seat 0" in detail


@pytest.mark.slow
def test_a_state_that_replays_differently_is_reported(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = resolve_top
    resolutions = [0]

    def forgetful_resolve(game: Game) -> Proc[None]:
        # The planted defect: the process's first five resolutions also gain a life, so the game
        # played again from its recorded answers is not the same game.
        yield from real(game)
        resolutions[0] += 1
        if resolutions[0] <= 5:
            game.state.players[0].life += 1

    monkeypatch.setattr(_bench_kernel, "resolve_top", forgetful_resolve)
    code, out, _ = _soak(capsys, "--games", "2", "--seed", "1")
    assert code == 1
    failures = FAILURE.findall(out)
    assert [(f[0], f[2]) for f in failures] == [("0", "hash")]
    assert "replaying the recorded answers" in failures[0][5]


def test_a_loop_that_never_leaves_its_step_is_a_stall(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = state_based_actions

    def restless_sba(game: Game) -> Proc[object]:
        # The planted defect: from turn 3 on, every state-based action check marks the board as
        # changed again, so the loop checks for ever.
        events = yield from real(game)
        if game.state.turn >= 3:
            game.changed()
        return events

    monkeypatch.setattr(_bench_kernel, "state_based_actions", restless_sba)
    code, out, _ = _soak(capsys, "--games", "2", "--seed", "1", "--stall", "300")
    assert code == 1
    failures = FAILURE.findall(out)
    assert [f[2] for f in failures] == ["stall", "stall"]
    assert all(f[4].startswith("turn 3,") and "no progress in 300 kernel steps" in f[5] for f in failures)
    assert "--stall 300" in out
    for line, again in _replayed(capsys, out):
        assert line in again.splitlines()


def _report(out: str) -> list[str]:
    return [line for line in out.splitlines() if not line.startswith("time:")]


@pytest.mark.slow
def test_jobs_do_not_change_the_report() -> None:
    # Real worker processes (forkserver): the games are handed out as workers come free, and the
    # report must still list them, and their failures, in game order.
    runs = []
    for jobs in ("1", "2"):
        done = subprocess.run([sys.executable, "-m", "spellstack", "soak", "--games", "6", "--seed", "4",
                               "--players", "3", "--hash-every", "10", "--jobs", jobs],
                              cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode in (0, 1), done.stderr
        runs.append(_report(done.stdout))
    assert runs[0] == runs[1]
    assert "6 games" in runs[0][1]


@pytest.mark.parametrize(("args", "message"), [
    (["--games", "0"], "--games must be a whole number of at least 1, not 0"),
    (["--games", "many"], "--games must be a whole number of at least 1, not 'many'"),
    (["--players", "5"], "--players must be a whole number from 2 to 4, not 5"),
    (["--players", "1"], "--players must be a whole number from 2 to 4, not 1"),
    (["--jobs", "0"], "--jobs must be a whole number from 1 to 64, not 0"),
    (["--seed", "-1"], "--seed must be a whole number of at least 0, not -1"),
    (["--start", "x"], "--start must be a whole number of at least 0, not 'x'"),
    (["--hash-every", "0"], "--hash-every must be a whole number of at least 1, not 0"),
    (["--stall", "0"], "--stall must be a whole number of at least 1, not 0"),
])
def test_bad_arguments_exit_2_in_one_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                          message: str) -> None:
    code, out, err = _soak(capsys, *args)
    assert code == 2
    assert out == ""
    assert err == f"spellstack soak: {message}\n"


@pytest.mark.slow
def test_ci_soak_300_games() -> None:
    # The CI size: 300 games, the state hash compared every 10 actions, two workers (real time:
    # the workers are other processes). Any failure fails the test; how long it takes is the
    # command's own report, not asserted here.
    done = subprocess.run([sys.executable, "-m", "spellstack", "soak", "--games", "300", "--seed", "1",
                           "--hash-every", "10", "--jobs", "2"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert FAILURE.findall(done.stdout) == []
    assert done.returncode == 0, done.stdout + done.stderr
    assert "300 games" in done.stdout


def test_a_decision_naming_a_hidden_card_is_reported(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = _bench_kernel.KernelDriver.ask_priority

    def telling_priority(self: _bench_kernel.KernelDriver, request: AskPriority) -> Reply:
        # The planted defect: from turn 3 on, seat 1's priority prompt names the top card of seat
        # 0's library, with its id.
        st = self.game.state
        if request.decision.player == 1 and st.turn >= 3:
            top = st.objects[st.players[0].library[0]]
            told = dataclasses.replace(request.decision,
                                       prompt=f"{request.decision.prompt} ({top.name} (#{top.id}) is next)")
            request = dataclasses.replace(request, decision=told)
        return real(self, request)

    monkeypatch.setattr(_bench_kernel.KernelDriver, "ask_priority", telling_priority)
    code, out, _ = _soak(capsys, "--games", "2", "--seed", "1", "--hash-every", "10")
    assert code == 1
    failures = FAILURE.findall(out)
    assert [(f[0], f[2]) for f in failures] == [("0", "hidden"), ("1", "hidden")]
    # Named by the id next to it, or by a name no card the seat may see has.
    assert all(re.match(r"seat 1's decision \d+ \(priority\) (identifies hidden #|names hidden card)", f[5])
               for f in failures), failures


def test_a_hidden_object_shown_only_by_its_number_is_no_leak() -> None:
    # "#N" is how the engine names an object a seat may not see (a face-down creature of an
    # opponent, say, as a target or a blocker's choice): its number, which the seat knows, and
    # nothing of its identity.
    game = deck_game("gruul", "dimir", seed=3)
    hidden = game.state.players[1].hand[0]
    name = game.state.objects[hidden].name
    assert hidden_leaks(game, 0, {"ref": hidden, "name": f"#{hidden}"}) == []
    assert f"shows hidden #{hidden} with the name {name!r}" in hidden_leaks(
        game, 0, {"ref": hidden, "name": name})
