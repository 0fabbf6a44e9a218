"""What a player reads of a trace names nothing it had not been sent, and rebuilds nothing.

Over 32 games (morph games among them, in some of which a face-down Exalted Angel is never
revealed, and games where a seat's illegal actions are refused with reasons naming its hand):

- every line of ``trace show --as P``, for every option (each ``--kind``, ``--priority``,
  ``--player``, ``--turn``, ``--view``), and every string of the page ``trace html --as P``
  (its data and title), is judged against what P had been sent by that line's record: no
  name of a card only the opponent plays that P had not been sent, and no face-down object
  named as the card it is while P had not been shown that;
- neither holds the game's seed nor another seat's deck name, and no number in them, taken
  as a seed, rebuilds the opponent's opening hand and library.

What P had been sent is worked out here from the trace's raw JSON lines, independently of
``spellstack.trace``: the messages addressed to P (its requests with their views, the
answers to its messages, the end of the game) and the game's events public or private to P;
a refusal of a seat's message reaches that seat alone (as a ``Rejected`` or ``ErrorReply``).
The records between the engine's own actors (``Resolve``, ``Resolved``, ``AskPlayer``, ...)
are sent to no player. The game's seeds are large, so that no small number on the page (an
id, a turn, a life total) is one by chance.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from html import unescape
from pathlib import Path
from typing import Any

import orjson
import pytest
import trio

from spellstack import RandomBot, play_one_game
from spellstack.cards import Deck, load_cards, load_deck
from spellstack.protocol import MESSAGE_TYPES
from spellstack.rules import Action, Decision, PlayerView, Reply, new_game
from spellstack.trace import ShowLine, ShowOptions, format_show, format_view, read_trace, show_trace
from tests.trace.trace_helpers import raw_records, run_cli

pytestmark = pytest.mark.slow

CARDS = load_cards()
NAMES = ("alice", "bob")
NIGHT = Deck("night-vigil", tuple(n for n, k in (("Swamp", 17), ("Exalted Angel", 16), ("Typhoid Rats", 4),
                                                   ("Last Gasp", 3)) for _ in range(k)))
"""Face-down Angels that can never be turned face up (no white mana): one that stays on the
battlefield is never revealed (708.9 reveals it only as it leaves)."""
DAWN = Deck("dawn-vigil", tuple(n for n, k in (("Plains", 14), ("Swamp", 10), ("Exalted Angel", 12),
                                                 ("Savannah Lions", 4), ("Typhoid Rats", 4), ("Last Gasp", 4),
                                                 ("Doom Blade", 4), ("Mind Rot", 4)) for _ in range(k)))
"""Face-down Angels that are turned face up, die or are destroyed (revealed) along the game."""
BUILT_IN = ("gruul", "dimir", "orzhov")
GAMES = 32
SEED0 = 7_316_280_459_113
"""The first game's seed (the others follow it): large, so no small number is one by chance."""
TURNS = 24
"""The games end in a draw at the end of this turn, if not before (for time)."""
REFS = ("id", "ref", "object_id", "subject")


class Rude(RandomBot):
    """A random bot that, every other time it has priority (four times in all), tries to cast a
    card of its hand targeting another: refused with a reason that names its hand's cards."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked = 0

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        if decision.kind == "priority" and len(view.hand) >= 2 and self.asked < 8:
            self.asked += 1
            if self.asked % 2:
                return Action("cast", view.hand[-1].id, targets=(view.hand[0].id,))
        return super().decide(view, decision)


@dataclass(eq=False)
class Game:
    """One game played for these tests."""

    number: int
    """Its place among the games."""
    path: Path
    """Its trace."""
    seed: int
    """Its seed."""
    decks: tuple[Deck, ...]
    """Each seat's deck, in seat order."""
    records: list[dict[str, Any]] = field(default_factory=list)
    """The trace's lines as plain JSON."""


def _decks(k: int) -> tuple[Deck, Deck]:
    built = [load_deck(BUILT_IN[(k + i) % 3], CARDS) for i in range(2)]
    if k % 4 == 0:
        return NIGHT, built[0]
    if k % 4 == 1:
        return built[0], DAWN
    if k % 4 == 2:
        return DAWN, NIGHT
    return built[0], built[1]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[Game]:
    folder = tmp_path_factory.mktemp("viewer-knows")
    out = []
    for k in range(GAMES):
        seed = SEED0 + 1_000_003 * k
        decks = _decks(k)
        bots = [RandomBot(3 * k + 1), RandomBot(3 * k + 2)]
        if k % 3 == 1:
            bots[k % 2] = Rude(3 * k + 3)
        path = folder / f"game{k}.jsonl"
        trio.run(partial(play_one_game, list(decks), bots, seed, names=list(NAMES), trace_path=path,
                         turn_limit=TURNS))
        out.append(Game(k, path, seed, decks, raw_records(path)))
    return out


# --------------------------------------------------------------------------- what P was sent


def _walk(node: Any) -> Iterator[Any]:
    """Every dict, list and scalar in a JSON value."""
    yield node
    if isinstance(node, dict):
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def _strings(node: Any) -> list[str]:
    return [v for v in _walk(node) if isinstance(v, str)]


def _ref(d: dict[str, Any]) -> int | None:
    return next((d[k] for k in REFS if isinstance(d.get(k), int)), None)


def _names_as(text: str, oid: int, card: str) -> bool:
    """Whether ``text`` names object ``oid`` as ``card`` the ways the engine and the trace tools
    name an object with its id: ``Card (#N)``, ``Card #N``, ``#N Card``."""
    c, i = re.escape(card), rf"#{oid}(?!\d)"
    return re.search(rf"\b{c} \({i}\)|\b{c} {i}|{i} {c}\b", text) is not None


@dataclass
class Knowledge:
    """What one player had been sent, record by record (each fact with the ``seq`` it came)."""

    seat: int
    names_re: re.Pattern[str]
    """Matches a card name of the game as a name (not inside a longer word)."""
    hidden: frozenset[str]
    """The names of the opponent's cards that are not also in the player's own deck."""
    names: dict[str, int] = field(default_factory=dict)
    """Card name: the seq of the first record that sent it to the player."""
    pairs: dict[tuple[int, str], int] = field(default_factory=dict)
    """(object id, card name): the seq at which the player was shown that object as that card."""
    faceless: dict[int, str] = field(default_factory=dict)
    """The opponent's face-down spells and permanents the player met, by id: the card each is."""
    last: int = 0
    """The last record's seq."""

    def named(self, text: str) -> set[str]:
        return set(self.names_re.findall(text))

    def learn(self, seq: int, payload: Any, event: dict[str, Any] | None = None) -> None:
        for text in _strings(payload):
            for n in self.named(text):
                self.names.setdefault(n, seq)
                for oid in map(int, re.findall(r"#(\d+)", text)):
                    self.pairs.setdefault((oid, n), seq)
        for d in _walk(payload):
            if isinstance(d, dict) and isinstance(d.get("name"), str) and (oid := _ref(d)) is not None:
                for n in self.named(d["name"]):
                    self.pairs.setdefault((oid, n), seq)
        if event is not None:
            for oid in (event["subject"], *event.get("refs", ())):
                for n in self.named(event["text"]):
                    self.pairs.setdefault((oid, n), seq)

    def leaks(self, seq: int, strings: list[str], dicts: list[dict[str, Any]],
              about: int | None = None) -> list[str]:
        """What of these strings (and structured objects), read at record ``seq``, the player
        had not been sent: a hidden card's name, or a face-down object named as its card.
        ``about``: the object the record is about (a resolution's)."""
        out = []
        for text in strings:
            for n in self.named(text) & self.hidden:
                if self.names.get(n, self.last + 1) > seq:
                    out.append(f"names {n!r} before it was sent: {text!r}")
            for oid, card in self.faceless.items():
                if f"#{oid}" not in text and oid != about:
                    continue
                if ((_names_as(text, oid, card) or (oid == about and re.search(rf"\b{re.escape(card)}\b", text)))
                        and self.pairs.get((oid, card), self.last + 1) > seq):
                    out.append(f"names face-down #{oid} as {card!r}: {text!r}")
        for d in dicts:
            oid = _ref(d)
            card = self.faceless.get(oid) if oid is not None else None
            if (card is not None and oid is not None and card in str(d.get("name", ""))
                    and self.pairs.get((oid, card), self.last + 1) > seq):
                out.append(f"names face-down #{oid} as {card!r}: {d}")
        return out


def _sent_to(rec: dict[str, Any], seat: int) -> bool:
    """Whether ``rec`` reached the player of ``seat`` (as the game's event it stands for)."""
    p = rec["payload"]
    if rec["receiver"] == f"player:{NAMES[seat]}":
        return True
    if rec["kind"] != "GameEvent":
        return False
    if p["kind"] in ("refused", "malformed"):
        return bool(p["player"] == seat)  # the seat refused alone was told (Rejected, ErrorReply)
    return not p["private_to"] or seat in p["private_to"]


@functools.cache
def knowledge(game: Game, seat: int) -> Knowledge:
    header, messages = game.records[0], game.records[1:-1]
    lists = header["decklists"]
    mine, theirs = set(lists[NAMES[seat]]), set(lists[NAMES[1 - seat]])
    every = sorted(mine | theirs, key=len, reverse=True)
    names_re = re.compile(r"(?<![\w'])(" + "|".join(map(re.escape, every)) + r")(?![\w'])")
    k = Knowledge(seat, names_re, frozenset(theirs - mine), last=messages[-1]["seq"])
    # The card each face-down object of the opponent is, from what the opponent was shown and
    # from the stack actor's own account (never sent to a player).
    real: dict[int, str] = {}
    for rec in messages:
        p = rec["payload"]
        if rec["kind"] == "Resolved":
            real[p["object_id"]] = p["name"]
        elif rec["receiver"] == f"player:{NAMES[1 - seat]}":
            for d in _walk(p.get("view")):
                if isinstance(d, dict) and "id" in d and d.get("name"):
                    real.setdefault(d["id"], d["name"])
    for rec in messages:
        p = rec["payload"]
        if not _sent_to(rec, seat):
            continue
        if rec["kind"] == "GameEvent":
            if p["kind"] == "cast" and "face-down" in p["text"] and p["subject"] in real:
                k.faceless[p["subject"]] = real[p["subject"]]
            k.learn(rec["seq"], p, p)
        else:
            for d in _walk(p.get("view")):
                if (isinstance(d, dict) and "id" in d and d.get("name") == "" and d.get("controller") == 1 - seat
                        and d["id"] in real):
                    k.faceless[d["id"]] = real[d["id"]]
            k.learn(rec["seq"], p)
    return k


# --------------------------------------------------------------------------- the checks


OPTION_SETS: tuple[tuple[str, ...], ...] = (
    (), ("--priority",), ("--player", "alice"), ("--player", "bob"), ("--turn", "1"), ("--turn", "3"),
    ("--kind", "Resolved"), ("--kind", "AskPlayer"), ("--priority", "--turn", "2", "--player", "alice"),
    tuple(a for kind in MESSAGE_TYPES for a in ("--kind", kind)),
)
"""Every option of ``trace show`` (``--view`` aside); the last asks for every message kind at
once, ``GameEvent`` among them (so every event kind): each record any ``--kind`` selects is
among its lines, told in the same words (a record's line does not depend on the options)."""
CLI_EVERY = 8
"""Every this many games, each listing is also printed by ``spellstack trace show`` itself and
checked to be what ``format_show`` makes of ``show_trace`` (the others are read through the
API, for time)."""


def _options(argv: tuple[str, ...], viewer: str) -> ShowOptions:
    kinds = tuple(argv[i + 1] for i, a in enumerate(argv) if a == "--kind")
    player = next((argv[i + 1] for i, a in enumerate(argv) if a == "--player"), None)
    turn = next((int(argv[i + 1]) for i, a in enumerate(argv) if a == "--turn"), None)
    return ShowOptions(as_player=viewer, priority="--priority" in argv, player=player, turn=turn, kinds=kinds)


def _about(rec: dict[str, Any]) -> int | None:
    return rec["payload"].get("object_id") if rec["kind"] in ("Resolve", "Resolved") else None


@dataclass(frozen=True)
class Shown:
    """What one ``trace show --as P`` printed."""

    told: list[str]
    """Its lines, the result line last (with ``--view``: the view's lines)."""
    lines: list[ShowLine]
    """The lines of the account it tells (with ``--view``: the request's)."""
    view: bool = False
    """Printed with ``--view``."""


_SHOWN: dict[tuple[Path, int], list[Shown]] = {}


def _shown(game: Game, seat: int) -> list[Shown]:
    """For every option set, what ``trace show --as P`` prints (its lines, the result line
    last), with the lines of the account it tells; then, for every seventh request of the
    plain listing, what ``--view`` prints (the view as the only line)."""
    key = (game.path, seat)
    if key in _SHOWN:
        return _SHOWN[key]
    trace = read_trace(game.path)
    viewer = NAMES[seat]
    result = f"result: {trace.result.reason} (turn {trace.result.turns})"
    out = []
    for argv in OPTION_SETS:
        lines = show_trace(trace, _options(argv, viewer))
        told = (format_show(lines) or ["no record matches"]) + [result]
        if game.number % CLI_EVERY == 0:
            code, printed, err = run_cli("trace", "show", str(game.path), "--as", viewer, *argv)
            assert code == 0, (argv, err)
            assert printed.splitlines() == told, argv
        out.append(Shown(told, lines))
    plain = out[0].lines
    for number in [i for i, ln in enumerate(plain, start=1) if ln.view is not None][::7]:
        line = plain[number - 1]
        assert line.view is not None
        told = format_view(line.view)
        if game.number % CLI_EVERY == 0:
            code, printed, err = run_cli("trace", "show", str(game.path), "--as", viewer, "--view", str(number))
            assert code == 0, err
            assert printed.splitlines() == told
        out.append(Shown(told, [line], view=True))
    _SHOWN[key] = out
    return out


def _problems(game: Game, seat: int) -> list[str]:
    k = knowledge(game, seat)
    by_seq = {r["seq"]: r for r in game.records[1:-1]}
    problems: list[str] = []
    for shown in _shown(game, seat):
        if shown.view:
            problems += k.leaks(shown.lines[0].seq, shown.told, [])  # the view as of its request
            continue
        for ln in shown.lines:
            problems += k.leaks(ln.seq_last, [ln.text], [], _about(by_seq[ln.seq]))
        # the headings and the result line, read at the end of the game
        problems += k.leaks(k.last, shown.told, [])
    return problems


@functools.cache
def _page(game: Game, seat: int) -> tuple[str, dict[str, Any], str]:
    """The page ``--as`` the seat's player: its title, its embedded data, the whole file."""
    page = game.path.with_name(f"{game.path.stem}-{NAMES[seat]}.html")
    code, _, err = run_cli("trace", "html", str(game.path), "-o", str(page), "--as", NAMES[seat])
    assert code == 0, err
    html = page.read_text("utf-8")
    # the page's title, and its heading (the first of each: the script draws others)
    titles = [re.search(rf"<{tag}>(.*?)</{tag}>", html, flags=re.S) for tag in ("title", "h1")]
    data = re.search(r'<script type="application/json" id="trace-data">(.*?)</script>', html, flags=re.S)
    assert titles[0] is not None and titles[1] is not None and data is not None
    assert titles[0][1] == titles[1][1]
    return unescape(titles[0][1]), orjson.loads(data[1]), html


def _page_problems(game: Game, seat: int) -> list[str]:
    k = knowledge(game, seat)
    title, data, _ = _page(game, seat)
    # the page's lines are the plain account's: each is read at its record
    lines = _shown(game, seat)[0].lines
    assert [row[7] for row in data["lines"]] == [ln.text for ln in lines]
    by_seq = {r["seq"]: r for r in game.records[1:-1]}
    problems: list[str] = []
    for row, payload, ln in zip(data["lines"], data["payloads"], lines, strict=True):
        view = data["views"][row[8]] if row[8] >= 0 else None
        parts = [row, payload, view]
        dicts = [d for d in _walk(parts) if isinstance(d, dict)]
        # the page draws an object of a view as a list: [id, name, controller, ...]
        dicts += [{"id": o[0], "name": o[1]} for o in _walk(view) if isinstance(o, list) and len(o) == 11
                  and isinstance(o[0], int) and isinstance(o[1], str)]
        problems += k.leaks(ln.seq_last, _strings(parts), dicts, _about(by_seq[ln.seq]))
    rest = {key: v for key, v in data.items() if key not in ("lines", "payloads", "views")}
    problems += k.leaks(k.last, [title, *_strings(rest)], [])
    return problems


def _never_revealed(game: Game, seat: int) -> set[int]:
    """The opponent's face-down objects the player met and was never shown as their card."""
    k = knowledge(game, seat)
    return {oid for oid, card in k.faceless.items() if (oid, card) not in k.pairs}


def test_the_games_have_what_the_checks_are_for(games: list[Game]) -> None:
    """Face-down spells never revealed, others revealed, refusals naming a hand's cards."""
    never = [g for g in games if _never_revealed(g, 1) or _never_revealed(g, 0)]
    revealed = [g for g in games for s in (0, 1) if set(knowledge(g, s).faceless) - _never_revealed(g, s)]
    refused = [g for g in games if any(r.get("kind") == "GameEvent" and r["payload"]["kind"] == "refused"
                                       for r in g.records)]
    assert len(never) >= 3 and len(revealed) >= 3 and len(refused) >= 3, (len(never), len(revealed), len(refused))


def test_the_full_account_names_what_a_player_was_not_sent(games: list[Game]) -> None:
    """The checks can fail: read as bob would, the account of everything names alice's
    face-down Angels he was never shown, and her refused hand cards."""
    trace_problems = 0
    for game in games:
        k = knowledge(game, 1)
        by_seq = {r["seq"]: r for r in game.records[1:-1]}
        lines = show_trace(read_trace(game.path), ShowOptions(kinds=tuple(MESSAGE_TYPES)))
        trace_problems += sum(bool(k.leaks(ln.seq_last, [ln.text], [], _about(by_seq[ln.seq]))) for ln in lines)
    assert trace_problems >= 10


@pytest.mark.parametrize("seat", [0, 1])
def test_trace_show_as_a_player_names_nothing_it_was_not_sent(games: list[Game], seat: int) -> None:
    found = {g.path.name: p[:3] for g in games if (p := _problems(g, seat))}
    assert not found, found


@pytest.mark.parametrize("seat", [0, 1])
def test_the_page_as_a_player_names_nothing_it_was_not_sent(games: list[Game], seat: int) -> None:
    found = {g.path.name: p[:3] for g in games if (p := _page_problems(g, seat))}
    assert not found, found


@functools.cache
def _opening(decklists: tuple[tuple[str, ...], ...], seed: int, seat: int) -> tuple[str, ...]:
    """A seat's opening hand and library, in order, in the game ``new_game`` makes of ``seed``
    (``decklists``: each seat's, in seat order)."""
    st = new_game(CARDS, list(zip(NAMES, decklists, strict=True)), seed).state
    p = st.players[seat]
    return tuple(st.objects[i].name for i in (*p.hand, *p.library))


def _numbers(texts: list[str], data: Any) -> set[int]:
    found = {v for v in _walk(data) if isinstance(v, int) and not isinstance(v, bool)}
    for text in [*texts, *_strings(data)]:
        found.update(int(n) for n in re.findall(r"\d+", text))
    return found


@pytest.mark.parametrize("seat", [0, 1])
def test_as_a_player_no_seed_and_no_other_deck_name(games: list[Game], seat: int) -> None:
    """No seed, no other seat's deck name, and no number that rebuilds the opponent's opening
    hand and library, in ``trace show --as P`` (every option) or in the page ``--as P``."""
    rebuilt: list[str] = []
    problems: list[str] = []
    for game in games:
        decklists = tuple(tuple(game.records[0]["decklists"][n]) for n in NAMES)
        theirs = _opening(decklists, game.seed, 1 - seat)
        # The attack works given the seed: the opponent's first view holds that opening hand
        # (and the card it drew, if it drew one before its first request).
        first = next(r["payload"]["view"] for r in game.records[1:-1]
                     if r["receiver"] == f"player:{NAMES[1 - seat]}" and "view" in r["payload"])
        hand = Counter(o["name"] for o in first["objects"] if o["id"] in first["hand"])
        assert not Counter(theirs[:7]) - hand
        other, mine = game.decks[1 - seat].name, game.decks[seat].name
        assert other != mine
        title, data, html = _page(game, seat)
        shown = [line for printed in _shown(game, seat) for line in printed.told]
        where = game.path.name
        if "seed" in data:
            problems.append(f"{where}: the page's data has a seed")
        if data["decks"] != [mine if s == seat else "" for s in (0, 1)]:
            problems.append(f"{where}: the page's decks are {data['decks']}")
        if title != f"g1: alice vs bob as {NAMES[seat]}":
            problems.append(f"{where}: the page's title is {title!r}")
        for what, text in (("title", title), ("page", html), ("show", "\n".join(shown))):
            if str(game.seed) in text:
                problems.append(f"{where}: the {what} holds the seed")
            if re.search(rf"(?<![\w-]){re.escape(other)}(?![\w-])", text):
                problems.append(f"{where}: the {what} names the other deck, {other}")
        # Every number of the page and of the listings, tried as the seed.
        found = [n for n in sorted(_numbers([title, *shown], data)) if _opening(decklists, n, 1 - seat) == theirs]
        if found:
            rebuilt.append(f"{where}: seed {found[0]}")
    assert not rebuilt and not problems, (f"{len(rebuilt)} of {len(games)} games rebuilt", rebuilt[:3], problems[:6])
