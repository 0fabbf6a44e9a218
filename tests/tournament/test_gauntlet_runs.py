"""``--format gauntlet``: the first N entrants each meet every other entrant, K times with
``--repeat K`` (pairs or matches); the others never meet; bad settings are one-line errors."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from spellstack.cards import load_cards
from spellstack.cli import main
from spellstack.tournament import GameRow, GameSpec, TournamentSettings, parse_entrant, run_tournament

CARDS = load_cards()
FIVE = tuple(parse_entrant(f"e{i}=random@gruul", CARDS) for i in range(5))


class SeatZeroWins:
    """Plays no game: seat 0 wins every one."""

    capacity = 4

    async def play(self, spec: GameSpec) -> GameRow:
        return GameRow(spec.game_id, spec.round, spec.match, spec.number, spec.seed, spec.entrants,
                       spec.bot_seeds, -1, 0, (0, 0), 0, "won", 5, 5, "h")

    async def aclose(self) -> None:
        pass


@pytest.mark.parametrize(("seeds", "pairs"), [(1, False), (2, True)])
async def test_each_gauntlet_entrant_meets_every_other_k_times(seeds: int, pairs: bool) -> None:
    settings = TournamentSettings(FIVE, "gauntlet", 2 if pairs else 3, 1, repeat=3, pairs=pairs,
                                  gauntlet=seeds)
    played = await run_tournament(settings, SeatZeroWins(), {}, lambda row: None)
    met = Counter(frozenset((m.a, m.b)) for _, m in played.matches)
    assert all(min(pair) < seeds for pair in met)  # every match has a gauntlet entrant
    for g in range(seeds):
        for other in range(5):
            if other != g:
                assert met[frozenset((g, other))] == 3
    assert sum(met.values()) == 3 * sum(5 - 1 - g for g in range(seeds))
    assert settings.as_dict()["gauntlet"] == seeds


@pytest.mark.parametrize(("args", "said"), [
    (["--format", "gauntlet", "--gauntlet", "0"], "--gauntlet 0: from 1 to 2"),
    (["--format", "gauntlet", "--gauntlet", "6"], "--gauntlet 6: from 1 to 2"),
    (["--gauntlet", "2"], "--gauntlet is for --format gauntlet"),
])
def test_bad_gauntlet_settings(args: list[str], said: str, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tournament", "--db", str(tmp_path / "x.db"), *args])  # three built-in entrants
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert said in err and "\n" not in err
    assert not (tmp_path / "x.db").exists()
