"""What a Telegram user can't do through the adapter: make the server open a file (a deck word
is only a name: a built-in deck, or a deck file of the operator's folder), or learn a game's
seed (drawn from the operating system, kept in ``GameInfo.seed``, in no text the player gets).
Driven by fakes of the platform's objects (``_telegram_fakes``): no network."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from spellstack.cards import load_cards, load_deck
from spellstack.chat import BotSeat, GameHost, HumanSeat, TelegramChat
from spellstack.chat._decks import MAX_DECK_FILE
from spellstack.cli import build_parser
from spellstack.rules import new_game

from ._telegram_fakes import FakeBot, command

pytest.importorskip("telegram")

# ---------------------------------------------------------------- a spy on every open

_OPENED: list[str] = []
_SPYING: list[bool] = [False]


def _audit(event: str, args: tuple[Any, ...]) -> None:
    # Every io.open and os.open raises the "open" audit event before it opens anything. While
    # spying, the open is recorded and refused, so an open that would block (a FIFO) can't hang
    # the test: it fails it.
    if event == "open" and _SPYING[0]:
        _OPENED.append(str(args[0]))
        raise PermissionError(f"test spy: the adapter opened {args[0]!r}")


sys.addaudithook(_audit)


@contextmanager
def no_open() -> Iterator[list[str]]:
    """Records (and refuses) every file opened inside the block."""
    _OPENED.clear()
    _SPYING[0] = True
    try:
        yield _OPENED
    finally:
        _SPYING[0] = False


def test_the_spy_sees_an_open(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    with no_open() as opened, pytest.raises(PermissionError, match="test spy"):
        (tmp_path / "f").read_text()
    assert opened == [str(tmp_path / "f")]


# ---------------------------------------------------------------- deck words

SECRET = "TOKEN=sk-live-0123456789abcdef"
"""A line no reply may ever quote."""


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """An operator's deck folder (one good deck, a FIFO named as a deck), a secret file, a
    FIFO, and a working folder holding a secret file by a bare name."""
    decks = tmp_path / "decks"
    decks.mkdir()
    gruul = load_deck("gruul", load_cards())
    body = "".join(f'"{n}" = {gruul.cards.count(n)}\n' for n in dict.fromkeys(gruul.cards))
    (decks / "mine.toml").write_text(f'name = "mine"\n[cards]\n{body}')
    os.mkfifo(decks / "trap.toml")
    secret = tmp_path / "secret.env"
    secret.write_text(SECRET + "\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    work = tmp_path / "work"
    work.mkdir()
    (work / "token.txt").write_text(SECRET + "\n")
    monkeypatch.chdir(work)
    return {"decks": decks, "secret": secret, "fifo": fifo, "work": work}


def _refused_words(places: dict[str, Path]) -> list[str]:
    return [str(places["secret"]),           # an absolute path
            os.path.relpath(places["secret"]),  # a relative path
            "token.txt",                      # a file of the working folder, by its bare name
            "..", "../secret.env", "decks/mine.toml", "mine/", "..\\secret.env", "a\\b",
            "nosuch",                         # no deck has that name
            "mine.toml",                      # a deck file's name, not the deck's
            str(places["fifo"]),              # a FIFO: opening it would block
            "trap",                           # a FIFO in the deck folder, named as a deck
            "/etc/passwd", "/proc/self/environ"]


@pytest.mark.parametrize("position", ["player", "bot"])
def test_a_word_that_is_not_a_deck_name_gets_the_fixed_reply_and_opens_nothing(
        places: dict[str, Path], position: str) -> None:
    async def main() -> tuple[list[tuple[str, str, float]], list[str], str, int]:
        async with GameHost() as host:
            chat = TelegramChat(host, deck_dir=places["decks"])
            bot = FakeBot()
            seen: list[tuple[str, str, float]] = []
            opened_all: list[str] = []
            for word in _refused_words(places):
                text = f"/play random {word}" if position == "player" else f"/play random gruul {word}"
                update, context = command(text, bot)
                with no_open() as opened:
                    # Real time: the adapter runs on the real loop, and a blocking open would
                    # hold the thread itself; the bound is the issue's, 1 s.
                    start = time.monotonic()
                    await asyncio.wait_for(chat.on_play(update, context), 1)
                    took = time.monotonic() - start
                opened_all.extend(opened)
                (reply,) = update.effective_message.replies
                seen.append((word, reply, took))
            return seen, opened_all, chat.shelf.refusal(), len(host.games())

    seen, opened, refusal, games = asyncio.run(main())
    assert opened == []
    assert games == 0
    assert refusal.startswith("Unknown deck.") and "gruul, orzhov, mine." in refusal
    for word, reply, took in seen:
        assert reply == refusal, word  # one fixed reply: it tells nothing of what exists
        assert took < 1.0, word
        assert "sk-live" not in reply and "root:" not in reply


def test_too_many_words_get_the_fixed_reply(places: dict[str, Path]) -> None:
    async def main() -> tuple[str, str]:
        async with GameHost() as host:
            chat = TelegramChat(host, deck_dir=places["decks"])
            update, context = command("/play random gruul dimir " + str(places["secret"]), FakeBot())
            with no_open() as opened:
                await chat.on_play(update, context)
            assert opened == []
            return update.effective_message.replies[0], chat.shelf.refusal()

    reply, refusal = asyncio.run(main())
    assert reply == refusal


def test_a_broken_deck_of_the_folder_is_refused_by_name_and_its_reason_logged(
        places: dict[str, Path], caplog: pytest.LogCaptureFixture) -> None:
    decks = places["decks"]
    (decks / "broken.toml").write_text(f'{SECRET}\nname = "x"\n')         # not TOML
    (decks / "short.txt").write_text(f"4 Lightning Bolt\n{SECRET}\n")      # a bad line
    (decks / "unknown.toml").write_text('name = "x"\n[cards]\n"' + SECRET + '" = 40\n')
    huge = decks / "huge.txt"
    huge.write_text("40 Mountain\n" + "#" * MAX_DECK_FILE)

    async def main() -> tuple[dict[str, str], list[str], int]:
        async with GameHost() as host:
            chat = TelegramChat(host, deck_dir=decks)
            replies: dict[str, str] = {}
            opened_all: list[str] = []
            for name in ("broken", "short", "unknown", "huge"):
                update, context = command(f"/play random {name}", FakeBot())
                if name == "huge":  # refused unread, from its size
                    with no_open() as opened:
                        await chat.on_play(update, context)
                    opened_all.extend(opened)
                else:  # read, and found broken
                    await chat.on_play(update, context)
                (replies[name],) = update.effective_message.replies
            return replies, opened_all, len(host.games())

    with caplog.at_level(logging.WARNING, logger="spellstack.chat"):
        replies, opened, games = asyncio.run(main())
    assert opened == [] and games == 0
    for name, reply in replies.items():
        assert reply == f"The deck {name} can't be loaded: the bot's operator can see why in its log."
    logged = "\n".join(r.getMessage() for r in caplog.records if r.name == "spellstack.chat")
    for name in ("broken", "short", "unknown", "huge"):
        assert f"deck {name!r} can't be loaded" in logged
    assert "line 2" in logged and "more than 1048576" in logged


def test_a_deck_of_the_folder_and_a_built_in_deck_are_played(places: dict[str, Path]) -> None:
    async def main() -> tuple[list[str], list[list[str]]]:
        async with GameHost() as host:
            chat = TelegramChat(host, deck_dir=places["decks"])
            update, context = command("/play random MINE Orzhov", FakeBot())
            await chat.on_play(update, context)
            gid = chat.seats[42, 1].game_id
            game = host.engine_game(gid)
            decks = [sorted(o.name for o in game.state.objects.values() if o.owner == seat)
                     for seat in (0, 1)]
            await host.concede(gid, "alice")
            await host.wait(gid)
            return update.effective_message.replies, decks

    replies, decks = asyncio.run(main())
    assert re.fullmatch(r"Game tg-[0-9a-f]{12}: alice against random-bot\. Type help for the "
                        r"commands\.", replies[0])
    cards = load_cards()
    assert decks == [sorted(load_deck("gruul", cards).cards), sorted(load_deck("orzhov", cards).cards)]


def test_the_operator_gives_names_not_paths(places: dict[str, Path]) -> None:
    host = GameHost()
    with pytest.raises(ValueError, match="'/etc/passwd' is not a deck name"):
        TelegramChat(host, decks=("/etc/passwd", "dimir"))
    with pytest.raises(NotADirectoryError, match=r"deck_dir .*secret\.env.*: not a folder"):
        TelegramChat(host, deck_dir=places["secret"])
    assert TelegramChat(host, decks=("mine", "dimir"), deck_dir=places["decks"]).decks == ("mine", "dimir")


# ---------------------------------------------------------------- seeds

def test_create_game_without_a_seed_draws_a_different_one_each_time_and_records_it() -> None:
    async def main() -> list[tuple[int, int | None]]:
        async with GameHost() as host:
            out = []
            for seed in (None, None, 7):
                gid = await host.create_game([HumanSeat("alice"), BotSeat("bot")], ["gruul", "dimir"],
                                             seed=seed)
                out.append((host.info(gid).seed, host.engine_game(gid).state.seed))
            return out

    (a, a_state), (b, b_state), (c, c_state) = asyncio.run(main())
    assert a != b and a == a_state and b == b_state
    assert a.bit_length() > 32 and b.bit_length() > 32  # not a count (2^-31 odds of failing)
    assert (c, c_state) == (7, 7)


def test_the_cli_draws_a_secret_seed_unless_given_one() -> None:
    parser = build_parser()
    assert parser.parse_args(["chat"]).seed is None
    assert parser.parse_args(["chat", "--seed", "3"]).seed == 3


GAMES = 1_000


def _hands(seed: int, decks: list[tuple[str, tuple[str, ...]]]) -> tuple[tuple[str, ...], ...]:
    """Each seat's opening hand, in order, of the game ``new_game`` builds from ``seed``."""
    game = new_game(load_cards(), decks, seed)
    return tuple(tuple(game.state.objects[i].name for i in p.hand) for p in game.state.players)


@pytest.mark.slow
def test_a_thousand_telegram_games_have_secret_seeds_a_player_cant_rebuild() -> None:
    told: dict[int, list[str]] = {}

    async def main() -> tuple[dict[int, tuple[str, int, int | None, list[str]]], str]:
        async with GameHost() as host:
            chat = TelegramChat(host)
            bot = FakeBot()
            replies: dict[int, list[str]] = {}
            for c in range(1, GAMES + 1):
                update, context = command("/play", bot, chat=c)
                await chat.on_play(update, context)
                replies[c] = update.effective_message.replies
            # Every player is sent its first question, with its view, before the host stops.
            while len(bot.sent) < GAMES:
                bot.arrived.clear()
                await asyncio.wait_for(bot.arrived.wait(), 60)
            seats = {c: seat for (c, _), seat in chat.seats.items()}
            views = {c: host.player_view(s.game_id, s.player) for c, s in seats.items()}
            out = {c: (s.game_id, host.info(s.game_id).seed, host.engine_game(s.game_id).state.seed,
                       [v.name for v in views[c].hand] if views[c] else [])
                   for c, s in seats.items()}
        for s in seats.values():  # the last messages ("the host stopped") are sent too
            assert s.forward is not None
            await s.forward
        for c in seats:
            told[c] = replies[c] + bot.sent[c]
        return out, chat.decks[0]

    games, _ = asyncio.run(main())
    cards = load_cards()
    decks = [("alice", load_deck("gruul", cards).cards), ("heuristic-bot", load_deck("dimir", cards).cards)]
    seeds = [seed for _, seed, _, _ in games.values()]
    assert len(games) == GAMES and len(set(seeds)) == GAMES
    counts = set(range(GAMES + 2)) | set(games)  # game counts and chat ids
    cache: dict[int, tuple[tuple[str, ...], ...]] = {}

    def hands(seed: int) -> tuple[tuple[str, ...], ...]:
        if seed not in cache:
            cache[seed] = _hands(seed, decks)
        return cache[seed]

    rebuilt = 0
    for c, (gid, seed, state_seed, own_hand) in games.items():
        assert re.fullmatch(r"tg-[0-9a-f]{12}", gid)
        assert seed == state_seed and seed not in counts
        numbers = {int(n) for text in told[c] for n in re.findall(r"\d+", text)}
        assert seed not in numbers
        assert any(gid in text for text in told[c]) and own_hand  # the player was told its game
        real = _hands(seed, decks)
        # The seed recorded is the game's own: the player's first view holds the opening hand
        # (and maybe its first draw).
        assert not Counter(real[0]) - Counter(own_hand) and len(own_hand) - len(real[0]) in (0, 1)
        # The player's part: every seed it could try from what it was told, and the small ones.
        guesses = numbers | {int(gid[3:], 16)} | set(range(300))
        rebuilt += any(hands(guess) == real for guess in guesses)
    assert rebuilt == 0
