"""``spellstack bench --kernel``: the kernel driver plays the same games as the actors, and each
bot is handed the same views and decisions the actors send it."""

from __future__ import annotations

import json
import math
from collections.abc import Generator
from pathlib import Path

import pytest
import trio

from spellstack.actors import GameResult, TraceRecord, play_game, play_one_game
from spellstack.bots import Bot, RandomBot
from spellstack.harness import BENCH_DECKS as DECKS
from spellstack.harness import KernelDriver, Outcome, bench_bots, bench_kernel, new_bench_game, play_kernel
from spellstack.protocol import ViewDelta, ViewMirror, decode
from spellstack.rules import Action, Decision, PlayerView, Reply

TABLE = Path(__file__).with_name("bench_games.json")


def _row(seed: int, result: GameResult) -> dict[str, object]:
    return {"seed": seed, "winner": result.winner, "reason": result.reason, "turns": result.turns,
            "decisions": result.decisions, "auto_passes": result.auto_passes,
            "final_hash": result.final_hash}


async def test_kernel_driver_plays_the_actors_games() -> None:
    for seed in (0, 7, 23):
        _, actors = await play_one_game(DECKS, bench_bots(seed), seed, names=list(DECKS))
        _, kernel = play_kernel(seed)
        assert _row(seed, kernel) == _row(seed, actors)
        assert actors.messages > 0 and kernel.messages == 0


@pytest.mark.slow
def test_kernel_driver_plays_the_fifty_recorded_games() -> None:
    table = {row["seed"]: row for row in json.loads(TABLE.read_text(encoding="utf-8"))}
    for seed, row in sorted(table.items()):
        assert _row(seed, play_kernel(seed)[1]) == row


class Recorder:
    """A bot that remembers everything it is handed, and every answer it gives."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.seen: list[tuple[PlayerView, Decision, Reply]] = []

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        reply = self.inner.decide(view, decision)
        self.seen.append((view, decision, reply))
        return reply


async def test_each_bot_is_handed_what_the_actors_send_it() -> None:
    seed = 3
    through_actors = [Recorder(RandomBot(2 * seed + 1)), Recorder(RandomBot(2 * seed + 2))]
    await play_game(new_bench_game(seed), through_actors)
    direct = [Recorder(RandomBot(2 * seed + 1)), Recorder(RandomBot(2 * seed + 2))]
    driver = KernelDriver(new_bench_game(seed), direct)
    result = driver.run()
    for a, k in zip(through_actors, direct, strict=True):
        assert k.seen == a.seen
        assert all(view.seat == decision.player for view, decision, _ in k.seen)
    assert driver.views == len(direct[0].seen) + len(direct[1].seen) == result.decisions


def test_the_driver_builds_the_view_delta_each_request_carries() -> None:
    driver = KernelDriver(new_bench_game(8), bench_bots(8))
    mirrors = [ViewMirror(), ViewMirror()]
    deltas: list[ViewDelta] = []
    shown = 0  # object views in the full views
    build = driver.build_view

    def checked(seat: int) -> PlayerView:
        nonlocal shown
        view = build(seat)
        assert driver.last_delta is not None
        deltas.append(driver.last_delta)
        shown += len(view.hand) + len(view.battlefield) + len(view.exile) + sum(
            len(p.graveyard) for p in view.players)
        assert mirrors[seat].apply(driver.last_delta) == view  # what the player rebuilds
        return view

    driver.build_view = checked  # type: ignore[method-assign]
    driver.run()
    assert len(deltas) == driver.views > 2
    assert [d.full for d in deltas].count(True) == 2  # the first for each seat, then deltas
    assert sum(len(d.objects) for d in deltas) < shown / 2  # most objects are unchanged


class Liar:
    """A random bot that answers every third priority request with an action naming no
    object first, so the coordinator (or driver) rejects it and asks again."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        self.asked = 0

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        if decision.kind == "priority":
            self.asked += 1
            if self.asked % 3 == 0:
                return Action("play", 999_999)
        return self.inner.decide(view, decision)


async def test_illegal_actions_are_rejected_and_asked_again_as_the_coordinator_does() -> None:
    seed = 5
    actors = await play_game(new_bench_game(seed), [Liar(11), Liar(12)])
    liars = [Liar(11), Liar(12)]
    driver = KernelDriver(new_bench_game(seed), liars)
    kernel = driver.run()
    assert _row(seed, kernel) == _row(seed, actors)
    assert liars[0].asked >= 3 and kernel.forfeits == actors.forfeits == []
    # Every request, rejected or not, had its view built.
    assert driver.views == kernel.decisions


async def _views_sent(seed: int) -> int:
    """The views the bench's game of ``seed`` sends through the actors: its requests that carry
    one (the random bots read none when they act, so a grant of priority after a seat's first
    request carries none)."""
    send, recv = trio.open_memory_channel[TraceRecord](math.inf)
    await play_game(new_bench_game(seed), bench_bots(seed), trace=send)
    send.close()
    return sum([decode(r.data).view is not None async for r in recv  # type: ignore[attr-defined]
                if r.kind in ("PriorityRequest", "DecisionRequest")])


async def test_bench_kernel_reports_what_it_played() -> None:
    out: list[str] = []
    outcomes = bench_kernel(range(4, 7), out, progress=False)
    assert [o.seed for o in outcomes] == [4, 5, 6]
    decisions = sum(o.decisions for o in outcomes)
    views = sum([await _views_sent(s) for s in (4, 5, 6)])
    assert out[0].startswith("kernel: 3 games (gruul vs orzhov, seeds 4..6) without actors")
    assert f"answered by bots: {decisions};" in out[2] and f"views built: {views})" in out[2]
    assert 0 < views < decisions
    assert out[3].startswith("per-decision cost: ") and ">= 5,000 decisions/s" in out[3]
    assert outcomes == [Outcome.of(s, play_kernel(s)[1]) for s in (4, 5, 6)]


class _Awaiting:
    """A bot that answers with an awaitable (an asynchronous bot), after ``after`` answers."""

    def __init__(self, after: int) -> None:
        self.inner = RandomBot(1)
        self.after = after

    def decide(self, view: PlayerView, decision: Decision) -> object:
        self.after -= 1
        if self.after >= 0:
            return self.inner.decide(view, decision)

        return _Later(self.inner.decide(view, decision))


class _Later:
    """An awaitable reply (never awaited here, so it warns of nothing)."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply

    def __await__(self) -> Generator[None, None, Reply]:
        yield
        return self.reply


@pytest.mark.parametrize("after", [0, 5])
def test_the_kernel_driver_refuses_a_bot_that_answers_with_an_awaitable(after: int) -> None:
    bot = _Awaiting(after)
    driver = KernelDriver(new_bench_game(2), [bot, RandomBot(2)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="the kernel driver has no event loop: its bots must answer at once"):
        driver.run()
    assert bot.after == -1  # refused at the first awaitable, the answers before it taken


@pytest.mark.parametrize("mode", ["kernel", "actors", "trace"])
def test_the_timed_modes_read_the_card_data_before_their_clock_starts(
        mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each mode's first clock reading comes after the card data are read (once a process,
    # as imports are): the first game's time is its own.
    from spellstack.harness import _bench_games, _bench_modes

    said: list[str] = []
    module = _bench_games if mode == "actors" else _bench_modes
    real_load, real_clock = module.load_cards, module.time.perf_counter

    def load() -> object:
        said.append("cards")
        return real_load()

    def clock() -> float:
        said.append("clock")
        return real_clock()

    monkeypatch.setattr(module, "load_cards", load)
    monkeypatch.setattr(module.time, "perf_counter", clock)
    out: list[str] = []
    if mode == "kernel":
        _bench_modes.bench_kernel(range(1, 2), out, progress=False)
    elif mode == "trace":
        _bench_modes.bench_trace(range(1, 2), out, progress=False)
    else:
        trio.run(_bench_games.bench_games, 1, 1, out)
    assert said[0] == "cards" and "clock" in said
    assert _bench_modes.CARDS_READ in "\n".join(out)
