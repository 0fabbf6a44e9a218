"""The soak (``spellstack soak``): many random games with the whole implemented pool in random
legal decks, each checked after every action.

Each game is played by the kernel driver (``KernelDriver``: the coordinator's game loop without
channels, every view built and every answer checked as the coordinator does) in stepwise mode, so
that the soak sees the state between any two tasks of the loop (an action: a grant of priority, a
resolution, a state-based-action check, trigger placement, a step or turn change). After each one
it checks the state's invariants (``check_invariants``: no object in two zones, no card lost)
and that no state-based action was missed before a grant of priority; every view a seat is sent
is checked for what the seat may not see (``view_leaks``), and every decision it is asked for a
hidden card's name or id (``hidden_leaks``); a game that goes ``stall`` kernel
steps (tasks and questions) without its turn or step changing has stalled. The state hash is
taken every ``hash_every`` actions, and at the end the game is played again from its seed with
the answers recorded the first time: the hashes must be the same at the same actions.

Every game's decks, seed and bots come from the run's seed and the game's number alone, so a
failure is replayed by that one game (``soak --seed S --start K --games 1``) and the report
does not depend on how many worker processes played the games.
"""

from __future__ import annotations

import hashlib
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .._collector import tune_collector
from ..actors import GameSetup
from ..bots import Bot, RandomBot
from ..cards import Deck, load_cards
from ..protocol import to_plain
from ..rules import (
    BASIC_LAND_BY_COLOR,
    BeginTask,
    CardDefinition,
    Decision,
    Game,
    GameRandom,
    PlayerView,
    Reply,
    StartSettings,
)
from ._bench_kernel import KernelDriver
from ._bench_modes import worker_context
from ._fuzz_hidden import HiddenNames, hidden_leaks
from ._soak_checks import InvariantError, check_invariants, check_no_sba_missed, view_leaks

__all__ = ["DECK_SIZE", "DEFAULT_HASH_EVERY", "DEFAULT_STALL", "SOAK_NAMES", "GameSoak",
           "SoakFailure", "SoakReport", "SoakRun", "render_soak", "soak", "soak_deck",
           "soak_game", "soak_game_seed", "soak_pool"]

DECK_SIZE = 60
"""Cards in each random deck (100.2a: at least 60, at most four of a card but basic lands)."""
SPELLS = 36
"""Nonland cards in each random deck; the rest are lands."""
DISTINCT = 12
"""Different nonland cards in a deck (fewer when its colours allow fewer)."""
DEFAULT_HASH_EVERY = 1
"""By default the state hash is taken (and compared on the replay) after every action."""
DEFAULT_STALL = 5_000
"""Kernel steps (tasks and questions) without the turn or step changing that make a stall; the
random games' longest step takes under a hundred."""
SOAK_NAMES = ("p1", "p2", "p3", "p4")
"""The players' names, by seat."""
_COLOURS = "WUBRG"
_COLOUR_COUNTS = (1, 2, 2, 2, 3, 5)
"""How many colours a deck plays, drawn from these: mostly two; five (every card) one time in six."""


@dataclass(frozen=True, slots=True)
class SoakFailure:
    """A stall, an exception or a broken invariant in one game."""

    game: int
    """The game's number in the run."""
    game_seed: int
    """The seed the game was dealt and played from (derived from the run's seed and ``game``)."""
    kind: str
    """``exception``, ``invariant``, ``hidden`` (a view showed a hidden card), ``hash`` (the
    replay's state hash differed) or ``stall``."""
    action: int
    """The action (task of the game loop) at or after which it was found, counted from 1."""
    where: str
    """Turn and step, as ``turn 5, p1's combat_damage``."""
    detail: str
    """What was wrong."""


@dataclass(frozen=True, slots=True)
class GameSoak:
    """One game of the soak: what it played and what went wrong."""

    game: int
    """The game's number in the run."""
    game_seed: int
    """Its seed."""
    decks: tuple[Deck, ...]
    """Each seat's random deck."""
    actions: int
    """Actions (tasks of the game loop) played."""
    decisions: int
    """Questions the bots answered."""
    refused: int
    """Actions offered to a bot and then refused (the bot was asked again, as a coordinator
    would)."""
    turns: int
    """The turn the game ended in."""
    end: str
    """How it ended (empty if it failed before its end)."""
    failure: SoakFailure | None
    """The first failure, if any (the game stops there)."""
    seconds: float = field(default=0.0, compare=False)
    """Wall time spent on the game (not part of its result)."""


@dataclass(frozen=True, slots=True)
class SoakRun:
    """How a soak is run: what decides its games, and its checks."""

    seed: int
    """The run's seed."""
    games: int
    """Games to play."""
    start: int = 0
    """The first game's number."""
    players: int = 2
    """Seats per game (2 to 4)."""
    hash_every: int = DEFAULT_HASH_EVERY
    """Take (and compare on the replay) the state hash every this many actions."""
    stall: int = DEFAULT_STALL
    """Kernel steps without the turn or step changing that make a stall."""

    def command(self, game: int) -> str:
        """The command that plays game ``game`` of this run again, with its checks."""
        words = ["spellstack", "soak", "--seed", str(self.seed), "--start", str(game), "--games", "1"]
        if self.players != 2:
            words += ["--players", str(self.players)]
        if self.stall != DEFAULT_STALL:
            words += ["--stall", str(self.stall)]
        return " ".join(words)


@dataclass(slots=True)
class SoakReport:
    """A soak's results, game by game in game order (the same whatever the number of jobs)."""

    run: SoakRun
    """How it was run."""
    jobs: int = 1
    """Worker processes."""
    results: list[GameSoak] = field(default_factory=list)
    """Each game's result, in game order."""
    seconds: float = 0.0
    """Wall time of the whole run."""

    @property
    def failures(self) -> list[SoakFailure]:
        """Every game's failure, in game order."""
        return [r.failure for r in self.results if r.failure is not None]


class _Found(Exception):
    """A failure found during play (kind and detail), raised out of the game loop."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


def soak_pool(cards: Mapping[str, CardDefinition]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The cards a deck may hold (no token, no test-only card, no dungeon, no single face of a
    split, Adventure or modal double-faced card), as (nonland cards, nonbasic lands), sorted."""
    names = sorted(n for n, d in cards.items() if not d.is_token and not d.test_only
                   and "Dungeon" not in d.card_types and (not d.card_name or d.card_name == n))
    spells = tuple(n for n in names if "Land" not in cards[n].card_types)
    lands = tuple(n for n in names if "Land" in cards[n].card_types and "Basic" not in cards[n].supertypes)
    return spells, lands


def soak_deck(rng: GameRandom, cards: Mapping[str, CardDefinition]) -> tuple[str, ...]:
    """A random legal deck of ``DECK_SIZE`` cards: a few colours, ``DISTINCT`` nonland cards
    of those colours (or colourless), up to four copies each, to ``SPELLS`` cards; some
    nonbasic lands; basic lands for the rest, by the colours of the cards."""
    spells, lands = soak_pool(cards)
    colours = list(_COLOURS)
    rng.shuffle(colours)
    mine = set(colours[:rng.choice(_COLOUR_COUNTS)])
    fits = [n for n in spells if set(cards[n].colors) <= mine]
    rng.shuffle(fits)
    picks = fits[:DISTINCT]
    copies = dict.fromkeys(picks, 0)
    out: list[str] = []
    while len(out) < SPELLS and picks:
        name = rng.choice(picks)
        if copies[name] < 4:
            copies[name] += 1
            out.append(name)
        elif all(n == 4 for n in copies.values()):
            break
    for land in lands:
        if rng.below(2):
            out += [land] * (1 + rng.below(2))
    weights = {c: sum(copies[n] for n in picks if c in cards[n].colors) for c in sorted(mine)}
    pips = [c for c, n in weights.items() for _ in range(n)] or sorted(mine)
    while len(out) < DECK_SIZE:
        out.append(BASIC_LAND_BY_COLOR[rng.choice(pips)])
    return tuple(sorted(out))


def soak_game_seed(seed: int, game: int) -> int:
    """Game ``game``'s seed in the run of ``seed``: its decks, shuffles and bots come from it."""
    digest = hashlib.blake2b(f"soak {seed} {game}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class _Recorded:
    """A bot that gives back, in order, the replies recorded the first time the game was
    played (the replay); a question other than the one recorded is a failure."""

    def __init__(self, replies: Sequence[tuple[int, int, Reply]]) -> None:
        self.replies = replies
        self.at = 0

    def decide(self, view: PlayerView, decision: Decision) -> Reply:
        if self.at >= len(self.replies):
            raise _Found("hash", f"the replay asked seat {decision.player} decision "
                                 f"{decision.id} ({decision.kind}) after the recorded answers ran out")
        seat, did, reply = self.replies[self.at]
        if (seat, did) != (decision.player, decision.id):
            raise _Found("hash", f"the replay asked seat {decision.player} decision {decision.id} "
                                 f"where seat {seat} was asked decision {did}")
        self.at += 1
        return reply


class _SoakDriver(KernelDriver):
    """The kernel driver, stepwise, with the soak's checks: after each task (``begin_task``),
    each view built and each answer."""

    def __init__(self, game: Game, bots: Sequence[Bot], run: SoakRun, sizes: list[int], *,
                 replay: bool = False) -> None:
        super().__init__(game, bots)
        # Every seat's view is built at every request, read or not: each is checked for leaks.
        self._priority_views = [True] * len(bots)
        self.loop.stepwise = True
        self.run_cfg = run
        self.sizes = sizes
        self.replay = replay
        self.actions = 0
        """Tasks begun."""
        self.refused = 0
        """Actions refused."""
        self.replies: list[tuple[int, int, Reply]] = []
        """(seat, decision id, reply) of every answer, in order (not in a replay)."""
        self.hashes: list[tuple[int, str, str]] = []
        """(action, turn and step, state hash) every ``hash_every`` actions and at the end."""
        self._steps = 0
        self._key: tuple[int, str] = (-1, "")
        self._hidden = [HiddenNames(game, seat) for seat in range(len(bots))]
        self._placeholder: PlayerView | None = None

    def where(self) -> str:
        st = self.game.state
        return f"turn {st.turn}, {st.players[st.active].name}'s {st.step}"

    def _step(self) -> None:
        st = self.game.state
        key = (st.turn, st.step)
        if key != self._key:
            self._key = key
            self._steps = 0
            return
        self._steps += 1
        if self._steps > self.run_cfg.stall:
            raise _Found("stall", f"no progress in {self.run_cfg.stall} kernel steps (the turn "
                                  "and step stayed the same)")

    def begin_task(self, request: BeginTask) -> None:
        self.actions += 1
        game = self.game
        if not self.replay:
            check_invariants(game.state, self.sizes)
            check_no_sba_missed(game, request.task)
        self._step()
        if self.actions % self.run_cfg.hash_every == 0:
            self.hashes.append((self.actions, self.where(), game.state.state_hash()))

    def build_view(self, seat: int) -> PlayerView:
        if self.replay and self._placeholder is not None:
            return self._placeholder  # the recorded answers need no view
        view = super().build_view(seat)
        if self.replay:
            self._placeholder = view
        else:
            leaks = view_leaks(self.game, view, self._hidden[seat])
            if leaks:
                raise _Found("hidden", f"seat {seat}'s view {leaks[0]}")
        return view

    def _decide(self, seat: int, view: PlayerView, decision: Decision) -> Reply:
        self._step()
        if not self.replay:
            leaks = hidden_leaks(self.game, seat, to_plain(decision), self._hidden[seat])
            if leaks:
                raise _Found("hidden", f"seat {seat}'s decision {decision.id} ({decision.kind}) "
                                       f"{leaks[0]}")
        reply = super()._decide(seat, view, decision)
        if not self.replay:
            self.replies.append((seat, decision.id, reply))
        return reply

    def _outcome(self, seat: int, taken: bool) -> None:
        self.refused += not taken
        super()._outcome(seat, taken)


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


_PACKAGE = Path(__file__).resolve().parents[1]
"""spellstack's own folder: an exception is placed at the innermost of its frames there."""


def _exception_detail(err: BaseException) -> str:
    """The exception and the innermost frame of spellstack it came from."""
    frames = [f for f in traceback.extract_tb(err.__traceback__)
              if Path(f.filename).resolve().is_relative_to(_PACKAGE)]
    at = ""
    if frames:
        f = frames[-1]
        path = Path(f.filename).resolve().relative_to(_PACKAGE.parent).as_posix()
        at = f" at {path}:{f.lineno} ({f.name})"
    return _short(f"{type(err).__name__}: {err}{at}")


def _play(driver: _SoakDriver) -> tuple[str, str] | None:
    """Play the driver's game to its end; the failure's (kind, detail), if any."""
    try:
        driver.run()
    except _Found as found:
        return found.kind, _short(found.detail)
    except InvariantError as err:
        return "invariant", _short(str(err))
    except Exception as err:  # any exception of the engine is a finding
        return "exception", _exception_detail(err)
    driver.hashes.append((driver.actions, driver.where(), driver.game.state.state_hash()))
    return None


def _setup(run: SoakRun, game: int, cards: Mapping[str, CardDefinition]) -> tuple[int, GameSetup, list[int]]:
    gseed = soak_game_seed(run.seed, game)
    rng = GameRandom.from_seed(gseed)
    names = SOAK_NAMES[:run.players]
    decks = tuple(Deck(f"random {i + 1}", soak_deck(rng, cards)) for i in range(run.players))
    bot_seeds = [rng.next_u64() >> 1 for _ in names]
    setup = GameSetup(decks, gseed, names, start=StartSettings(), bot_seeds=bot_seeds)
    return gseed, setup, [len(d.cards) for d in decks]


def soak_game(run: SoakRun, game: int, cards: Mapping[str, CardDefinition] | None = None) -> GameSoak:
    """Play game ``game`` of ``run`` with every check, then again from its seed with the
    answers recorded, comparing the state hashes."""
    began = time.perf_counter()
    cards = load_cards() if cards is None else cards
    gseed, setup, sizes = _setup(run, game, cards)
    bots: list[Bot] = [RandomBot(setup.bot_seed(s)) for s in range(run.players)]
    driver = _SoakDriver(setup.build(cards), bots, run, sizes)
    found = _play(driver)
    st = driver.game.state
    failure = None
    if found is not None:
        failure = SoakFailure(game, gseed, found[0], driver.actions, driver.where(), found[1])
    else:
        recorded = _Recorded(driver.replies)
        again = _SoakDriver(setup.build(cards), [recorded] * run.players, run, sizes, replay=True)
        replayed = _play(again)
        if replayed is not None:
            failure = SoakFailure(game, gseed, replayed[0], again.actions, again.where(),
                                  f"replaying the recorded answers: {replayed[1]}")
        elif again.hashes != driver.hashes:
            first = next((a for a, b in zip(driver.hashes, again.hashes, strict=False) if a != b),
                         driver.hashes[min(len(driver.hashes), len(again.hashes)) - 1])
            failure = SoakFailure(game, gseed, "hash", first[0], first[1],
                                  "replaying the recorded answers gave another state hash")
    return GameSoak(game, gseed, tuple(d for d in setup.read_decks(cards)), driver.actions,
                    driver.result.decisions, driver.refused, st.turn,
                    st.end_reason if st.game_over else "", failure,
                    time.perf_counter() - began)


def _worker(task: tuple[SoakRun, int]) -> GameSoak:
    return soak_game(*task)


def soak(run: SoakRun, jobs: int = 1, progress: Callable[[int, float, int], None] | None = None
         ) -> SoakReport:
    """Play ``run``'s games (in ``jobs`` worker processes when more than one); ``progress``
    is called after each game with the games done, the seconds since the start and the
    failures so far."""
    report = SoakReport(run, jobs)
    began = time.perf_counter()
    numbers = range(run.start, run.start + run.games)

    def done(result: GameSoak) -> None:
        report.results.append(result)
        if progress is not None:
            progress(len(report.results), time.perf_counter() - began, len(report.failures))

    if jobs == 1:
        cards = load_cards()
        for number in numbers:
            done(soak_game(run, number, cards))
    else:
        with worker_context().Pool(jobs, initializer=tune_collector) as pool:
            for result in pool.imap(_worker, [(run, n) for n in numbers], chunksize=1):
                done(result)
    report.seconds = time.perf_counter() - began
    return report


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def render_soak(report: SoakReport) -> list[str]:
    """The report's lines: what was run, the totals, each failure with the command that
    replays it, and last the time (the only line that differs between runs)."""
    run, results = report.run, report.results
    hashes = "every action" if run.hash_every == 1 else f"every {run.hash_every} actions"
    games = f"game {run.start}" if run.games == 1 else f"games {run.start}..{run.start + run.games - 1}"
    lines = [f"soak: seed {run.seed}, {games}, "
             f"{run.players} players, random decks of the whole pool; state hash {hashes}, "
             f"stall after {run.stall:,} steps"]
    actions = sum(r.actions for r in results)
    lines.append(f"{_plural(len(results), 'game')}, {_plural(actions, 'action')}, "
                 f"{_plural(sum(r.decisions for r in results), 'decision')}, "
                 f"{_plural(sum(r.turns for r in results), 'turn')}, "
                 f"{_plural(sum(r.refused for r in results), 'refused action')}")
    ends: dict[str, int] = {}
    for r in results:
        if r.failure is None:
            how = "draw" if "draw" in r.end else "won"
            ends[how] = ends.get(how, 0) + 1
    lines.append("ended: " + ", ".join(f"{n} {how}" for how, n in sorted(ends.items())))
    failures = report.failures
    lines.append(f"failures: {len(failures)}")
    for f in failures:
        lines.append(f"  game {f.game} (game seed {f.game_seed}): {f.kind} at action {f.action} "
                     f"({f.where}): {f.detail}")
        lines.append(f"    replay: {run.command(f.game)}")
    seconds = max(report.seconds, 1e-9)
    lines.append(f"time: {report.seconds:.1f} s, {len(results) / seconds:.2f} games/s, "
                 f"{actions / seconds:,.0f} actions/s, {report.jobs} "
                 f"job{'s' if report.jobs != 1 else ''}")
    return lines
