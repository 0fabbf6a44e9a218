"""Many games in one host (one with a crashing bot), the largest board they show rendered within
a chat message, a forced overflow, and no hidden card named in any text a user is given."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spellstack.bots import RandomBot
from spellstack.cards import load_cards
from spellstack.chat import MESSAGE_LIMIT, BotSeat, GameHost, GameInfo, render_view
from spellstack.rules import Decision, PlayerView, Reply, visible_to
from spellstack.rules.views import ObjectView, PlayerPublic
from tests.chat._driver import User, scripted_seat

GAMES = 100


class CrashingBot:
    """Raises on its third question."""

    def __init__(self) -> None:
        self.asked = 0

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        self.asked += 1
        if self.asked >= 3:
            raise RuntimeError("bot bug")
        return RandomBot(1).decide(view, decision)


@dataclass
class Biggest:
    """A random bot that keeps the largest view (most permanents) it was asked with."""

    seed: int
    best: tuple[int, PlayerView | None, Decision | None] = field(default=(-1, None, None))

    def __post_init__(self) -> None:
        self.bot = RandomBot(self.seed)

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        size = len(view.battlefield) + len(view.hand) + len(view.stack)
        if size > self.best[0]:
            self.best = (size, view, decision)
        return self.bot.decide(view, decision)


@pytest.fixture(scope="module")
def hundred() -> tuple[list[GameInfo], list[Biggest], float]:
    bots = [Biggest(seed) for seed in range(GAMES)]

    async def main() -> list[GameInfo]:
        async with GameHost() as host:
            ids = []
            for i, bot in enumerate(bots):
                other: BotSeat = (BotSeat("p2", CrashingBot()) if i == 17 else BotSeat("p2", "random"))
                ids.append(await host.create_game([BotSeat("p1", bot), other],
                                                  ["gruul", "dimir"], seed=i, turn_limit=20))
            return [await host.wait(gid) for gid in ids]

    start = time.perf_counter()
    infos = asyncio.run(main())
    return infos, bots, time.perf_counter() - start


@pytest.mark.slow
def test_a_hundred_games_in_one_host_finish_and_a_crashing_bot_ends_its_own(
        hundred: tuple[list[GameInfo], list[Biggest], float]) -> None:
    infos, _, seconds = hundred
    assert len(infos) == GAMES and not any(i.running for i in infos)
    crashed = infos[17]
    assert crashed.reason == "p1 wins: p2 forfeited: policy raised RuntimeError: bot bug"
    others = [i for n, i in enumerate(infos) if n != 17]
    assert all(i.result is not None and not i.result.forfeits for i in others)
    assert all(i.reason.startswith(("p1 wins", "p2 wins", "draw")) for i in others)
    assert seconds < 60


@pytest.mark.slow
def test_the_largest_board_of_a_hundred_games_fits_a_message(
        hundred: tuple[list[GameInfo], list[Biggest], float]) -> None:
    _, bots, _ = hundred
    size, view, decision = max((b.best for b in bots), key=lambda b: b[0])
    assert view is not None and size >= 15
    text, _ = render_view(view, decision)
    assert len(text) <= MESSAGE_LIMIT
    assert "left out" not in text  # it fits whole


def _big_view() -> PlayerView:
    names = ["Gigantosaurus Rex of the Endless Marsh", "Overgrown Battlement Sentinel"]
    perms = tuple(ObjectView(100 + i, names[i % 2], i % 2, i % 2, ("Creature",), i % 3 == 0,
                             power=5, toughness=5, counters=(("+1/+1", 2),)) for i in range(70))
    hand = tuple(ObjectView(300 + i, f"Very Long Spell Name Number {i}", 0, 0, ("Instant",))
                 for i in range(80))
    players = tuple(PlayerPublic(s, n, 20, 0, 40, 30, (), (), False) for s, n in enumerate(("alice", "bob")))
    return PlayerView(0, 5, "precombat_main", 0, 0, players, hand, perms, (), ())


def test_a_view_too_big_says_what_it_left_out_and_how_to_see_it() -> None:
    text, numbering = render_view(_big_view(), None)
    assert len(text) <= MESSAGE_LIMIT
    assert "(left out to fit: the battlefield (`board`), your hand (`hand`);" in text
    assert "70 permanents" in text and "Your hand: 80 cards" in text
    assert numbering.ids  # the numbers still stand for the objects


_POOL = sorted(load_cards(), key=len, reverse=True)
_PATTERN = re.compile(r"(?<![\w'])(" + "|".join(re.escape(n) for n in _POOL) + r")(?![\w'])")


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), decks=st.sampled_from([("gruul", "dimir"), ("orzhov", "gruul"),
                                                           ("dimir", "orzhov")]))
def test_no_text_names_a_card_its_user_could_not_see(seed: int, decks: tuple[str, str]) -> None:
    leaks: list[str] = []
    told = 0

    async def main() -> None:
        host: GameHost

        def check(game_id: str, player: str, text: str) -> None:
            nonlocal told
            told += 1
            game = host.engine_game(game_id)
            seat = next(p.seat for p in game.state.players if p.name == player)
            seen = {o.name for o in (*game.state.objects.values(), *game.state.lki.values())
                    if visible_to(game, seat, o)}
            leaks.extend(f"{player}: {m}" for m in set(_PATTERN.findall(text)) - seen)

        host = GameHost(on_text=check)
        async with host:
            gid = await host.create_game([scripted_seat("alice"), scripted_seat("bob")], list(decks),
                                         seed=seed, turn_limit=12)
            users = [User(host, gid, "alice"), User(host, gid, "bob")]
            await asyncio.gather(*(u.play() for u in users))
            for u in users:
                for command in ("hand", "board", "stack", "view"):
                    await host.submit(gid, u.name, command)

    asyncio.run(main())
    assert told > 20
    assert leaks == []
