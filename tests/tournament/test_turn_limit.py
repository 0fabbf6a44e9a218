"""``--turn-limit``: a game still going after N turns is drawn, with the limit in its reason;
the limit is part of the tournament's key, and bad values are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from spellstack.cards import load_cards
from spellstack.cli import main
from spellstack.rules import DEFAULT_TURN_LIMIT
from spellstack.tournament import TournamentSettings, parse_entrant, play_tournament

CARDS = load_cards()
TWO = tuple(parse_entrant(text, CARDS) for text in ("random@gruul", "random@dimir"))


async def test_games_past_the_turn_limit_are_drawn(tmp_path: Path) -> None:
    settings = TournamentSettings(TWO, "round-robin", 3, 4, turn_limit=3)
    played = await play_tournament(settings, db=tmp_path / "t.db")
    assert played.rows and all(r.turns <= 3 for r in played.rows)
    assert {r.reason for r in played.rows} == {"drawn: turn limit 3 reached"}
    assert all(r.winner == -1 for r in played.rows)
    assert settings.as_dict()["turn_limit"] == 3
    # The default stays out of the key, so tournaments recorded before keep theirs.
    assert "turn_limit" not in TournamentSettings(TWO, "round-robin", 3, 4).as_dict()
    assert DEFAULT_TURN_LIMIT == 300


@pytest.mark.parametrize("value", ["0", "10001", "x", "-5"])
def test_a_bad_turn_limit_is_refused(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["tournament", "--turn-limit", value])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.splitlines()[-1]
    assert err.startswith("spellstack tournament: error: argument --turn-limit: ")
