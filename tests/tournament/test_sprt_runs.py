"""The SPRT in a tournament: results read in schedule order, the run stopped at the first pair
past a bound, later pairs left out; the same stop and the same results however many games run
at once and in what order they end. Games are played by a fake executor whose games end after a
virtual delay (``autojump_clock``), so that they end out of schedule order."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest
import trio

from spellstack.cards import load_cards
from spellstack.cli import main
from spellstack.tournament import (
    GameRow,
    GameSpec,
    SprtResult,
    SprtSettings,
    TournamentSettings,
    parse_entrant,
    report,
    results_json,
    run_tournament,
)

CARDS = load_cards()
TWO = tuple(parse_entrant(text, CARDS) for text in ("a=random@gruul", "b=random@dimir"))


class ChanceExecutor:
    """Entrant 0 wins a game with probability ``p`` (a generator seeded by the game's seed);
    each game takes a virtual time drawn the same way, so games end out of order."""

    def __init__(self, p: float, capacity: int) -> None:
        self.p = p
        self.capacity = capacity
        self.played: list[GameSpec] = []

    async def play(self, spec: GameSpec) -> GameRow:
        self.played.append(spec)
        rng = random.Random(spec.seed * 7 + spec.number)
        await trio.sleep(rng.random())
        first_wins = rng.random() < self.p
        winner = spec.entrants.index(0) if first_wins else spec.entrants.index(1)
        return GameRow(spec.game_id, spec.round, spec.match, spec.number, spec.seed, spec.entrants,
                       spec.bot_seeds, -1, 0, (0, 0), winner, "won", 9, 9, "h")

    async def aclose(self) -> None:
        pass


def _settings(sprt: SprtSettings, pairs: bool = True, repeat: int = 300) -> TournamentSettings:
    return TournamentSettings(TWO, "round-robin", 2 if pairs else 1, 5, repeat=repeat, pairs=pairs,
                              sprt=sprt)


async def test_a_clear_lead_stops_the_run_early_and_the_same_however_it_is_run(autojump_clock: object) -> None:
    sprt = SprtSettings(0, 10)
    runs = []
    for capacity in (1, 8, 3):
        executor = ChanceExecutor(0.85, capacity)
        recorded: list[GameRow] = []
        played = await run_tournament(_settings(sprt), executor, {}, recorded.append)
        runs.append((played, executor, recorded))
    first = runs[0][0]
    assert first.sprt is not None and first.sprt.decision == "H1"
    pairs = first.sprt.pairs
    assert pairs is not None and pairs < 300
    print(f"H1 accepted after {pairs} pairs")
    assert len(first.rows) == 2 * pairs and max(r.round for r in first.rows) == pairs
    for played, _executor, recorded in runs:
        assert results_json(report(played)) == results_json(report(first))
        # Pairs past the stop that ended before the test decided, or were under way, are
        # recorded, but left out; no pair is begun after it.
        assert len(played.rows) <= len(recorded) < 2 * 300
    assert len(runs[0][2]) == len(first.rows)  # one game at a time: nothing past the stop


async def test_no_lead_runs_to_the_end_of_the_schedule_with_no_decision(autojump_clock: object) -> None:
    played = await run_tournament(_settings(SprtSettings(0, 50), repeat=20), ChanceExecutor(0.5, 4),
                                  {}, lambda row: None)
    assert played.sprt is not None and played.sprt.decision is None and played.sprt.pairs == 20
    assert '"decision": null' in results_json(report(played))


async def test_single_games_use_the_trinomial_model(autojump_clock: object) -> None:
    played = await run_tournament(_settings(SprtSettings(0, 10), pairs=False, repeat=400),
                                  ChanceExecutor(0.85, 4), {}, lambda row: None)
    assert played.sprt is not None and played.sprt.decision == "H1" and played.sprt.pairs is None
    assert played.sprt.games == len(played.rows) < 400


async def test_a_resumed_run_stops_at_the_same_pair(autojump_clock: object) -> None:
    settings = _settings(SprtSettings(0, 10))
    whole = await run_tournament(settings, ChanceExecutor(0.85, 4), {}, lambda row: None)
    part: list[GameRow] = []
    with trio.CancelScope() as scope:
        def keep(row: GameRow) -> None:
            part.append(row)
            if len(part) == 30:
                scope.cancel()
        await run_tournament(settings, ChanceExecutor(0.85, 4), {}, keep)
    again = ChanceExecutor(0.85, 4)
    resumed = await run_tournament(settings, again, {r.game_id: r for r in part}, lambda row: None)
    assert results_json(report(resumed)) == results_json(report(whole))
    assert not {s.game_id for s in again.played} & {r.game_id for r in part}


async def test_interim_reports_come_in_schedule_order_whatever_ends_first(autojump_clock: object) -> None:
    seen: dict[int, list[tuple[int, str]]] = {}
    for capacity in (1, 8):
        got: list[tuple[int, str]] = []

        def interim(rows: Sequence[GameRow], sprt: SprtResult | None,
                    got: list[tuple[int, str]] = got) -> None:
            assert sprt is not None
            got.append((len(rows), f"{rows[-1].game_id} {sprt.llr:.6f}"))

        await run_tournament(_settings(SprtSettings(0, 10), repeat=30), ChanceExecutor(0.6, capacity),
                             {}, lambda row: None, interim=interim, interval=8)
        seen[capacity] = got
    assert seen[1] == seen[8]
    assert [n for n, _ in seen[1]][:3] == [8, 16, 24]


@pytest.mark.parametrize(("args", "said"), [
    (["--sprt", "elo0=10", "elo1=0", "--pairs"], "--sprt: "),
    (["--sprt", "elo0=0", "elo1=10"], "--sprt needs games that stand alone: --pairs, or --best-of 1"),
    (["--sprt", "elo0=0", "elo1=10", "--best-of", "1", "--entrant", "x=random@orzhov"],
     "give exactly 2 entrants, not 3"),
    (["--sprt", "elo0=0", "elo1=10", "--format", "swiss", "--best-of", "1"], "not --format swiss"),
    (["--sprt", "elo0=0", "elo1=10", "alpha=2", "--pairs"], "--sprt: "),
    (["--sprt", "elo1=10", "--pairs"], "--sprt: "),
    (["--sprt", "elo0=0", "elo1=10", "model=fancy", "--pairs"], "--sprt: "),
])
def test_bad_sprt_settings_are_one_line_errors(args: list[str], said: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    entrants = ["--entrant", "random@gruul", "--entrant", "random@dimir"]
    code = main(["tournament", "--db", str(tmp_path / "x.db"), *entrants, *args])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert said in err and "\n" not in err
    assert not (tmp_path / "x.db").exists()
