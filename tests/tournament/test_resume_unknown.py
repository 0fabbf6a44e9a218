"""Resuming a tournament from a database that holds none: refused, and no file made or
changed (no empty database, no write-ahead log beside it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spellstack.cards import load_cards
from spellstack.tournament import StoreError, TournamentSettings, parse_entrant, play_tournament

CARDS = load_cards()
TWO = tuple(parse_entrant(text, CARDS) for text in ("a=random@gruul", "b=random@dimir"))


async def test_resuming_from_no_file_refuses_and_makes_none(tmp_path: Path) -> None:
    db = tmp_path / "fresh.db"
    with pytest.raises(StoreError, match=r"fresh\.db: no such file, so no tournament to resume"):
        await play_tournament(TournamentSettings(TWO, "round-robin", 1, 7), db=db, resume=True)
    assert list(tmp_path.iterdir()) == []


async def test_resuming_from_an_empty_file_refuses_and_leaves_it_empty(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    db.write_bytes(b"")
    with pytest.raises(StoreError, match=r"empty\.db: no tournament to resume \(it holds no "
                                         r"results\)"):
        await play_tournament(TournamentSettings(TWO, "round-robin", 1, 7), db=db, resume=True)
    assert list(tmp_path.iterdir()) == [db]
    assert db.read_bytes() == b""
