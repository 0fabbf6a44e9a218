"""The results database: every finished game, written (and committed) the moment it ends.

One SQLite file (``--db``) holds any number of tournaments, each under the key of its settings
(``settings_key``: entrants, their bots and deck lists, format, rounds, best-of, seed). A game
row is committed on its own, so a process killed at any point loses at most the games it was
playing; ``--resume`` reads the rows back and plays only the games that are missing.

SQLite's write-ahead log with ``synchronous=NORMAL``: a committed row survives the process
being killed (the log is in the operating system's hands once written); only a crash of the
machine itself can lose the last rows, which ``--resume`` then plays again from their seeds.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._games import GameRow

__all__ = ["DEFAULT_DB", "ResultsStore", "StoreError", "StoredTournament", "settings_key"]

DEFAULT_DB = Path("spellstack-tournament.db")
"""The results database when none is given: in the working folder."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    tournament INTEGER NOT NULL REFERENCES tournaments(id),
    game_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    match INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    players TEXT NOT NULL,
    entrants TEXT NOT NULL,
    bot_seeds TEXT NOT NULL,
    chooser INTEGER NOT NULL,
    starting INTEGER NOT NULL,
    mulligans TEXT NOT NULL,
    winner TEXT,
    winner_seat INTEGER NOT NULL,
    reason TEXT NOT NULL,
    turns INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    final_hash TEXT NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (tournament, game_id)
);
"""

_COLUMNS = ("game_id", "round", "match", "number", "seed", "players", "entrants", "bot_seeds",
            "chooser", "starting", "mulligans", "winner", "winner_seat", "reason", "turns",
            "decisions", "final_hash", "seconds")


class StoreError(Exception):
    """The results database can't be used as asked (not a database, a folder, a tournament to
    resume that it does not hold)."""


def settings_key(settings: Mapping[str, Any]) -> str:
    """The key of a tournament's settings: a hash of their canonical JSON."""
    text = json.dumps(settings, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredTournament:
    """A tournament the database holds."""

    key: str
    """Its settings' key."""
    settings: Mapping[str, Any]
    """Its settings."""
    games: int
    """Games recorded for it."""


class ResultsStore:
    """One open results database."""

    def __init__(self, path: Path) -> None:
        self.path = path
        """The database file."""
        if path.is_dir():
            raise StoreError(f"{path}: is a folder, not a results database")
        try:
            self._db = sqlite3.connect(path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{path}: not a results database ({err})") from None
        self._id = 0
        self._names: tuple[str, ...] = ()

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def tournaments(self) -> list[StoredTournament]:
        """Every tournament it holds, oldest first."""
        out = []
        for key, settings, games in self._db.execute(
                "SELECT key, settings, (SELECT COUNT(*) FROM games WHERE tournament = t.id) "
                "FROM tournaments t ORDER BY id"):
            out.append(StoredTournament(key, json.loads(settings), games))
        return out

    def open_tournament(self, settings: Mapping[str, Any], names: tuple[str, ...], *,
                        resume: bool) -> list[GameRow]:
        """Start recording the tournament of ``settings`` (entrant ``names`` by index); returns
        the games recorded for it already (none for a new one). ``resume`` needs a tournament
        the file holds: StoreError otherwise."""
        key = settings_key(settings)
        found = self._db.execute("SELECT id FROM tournaments WHERE key = ?", (key,)).fetchone()
        if found is None and resume:
            held = self.tournaments()
            told = "; ".join(f"{t.settings.get('format')} of {len(t.settings.get('entrants', []))} "
                             f"entrants, seed {t.settings.get('seed')}, {t.games} games"
                             for t in held[-5:]) or "none"
            raise StoreError(f"{self.path}: no tournament with these settings to resume (it "
                             f"holds: {told}); start it without --resume, or give the settings "
                             "it was started with")
        if found is None:
            cur = self._db.execute("INSERT INTO tournaments (key, settings) VALUES (?, ?)",
                                   (key, json.dumps(settings, sort_keys=True)))
            assert cur.lastrowid is not None
            self._id = cur.lastrowid
        else:
            self._id = found[0]
        self._names = names
        return self.rows()

    def rows(self) -> list[GameRow]:
        """The games recorded for the open tournament, by round, match and number."""
        rows = self._db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM games WHERE tournament = ? "
            "ORDER BY round, match, number", (self._id,)).fetchall()
        return [GameRow(r[0], r[1], r[2], r[3], r[4], tuple(json.loads(r[6])),
                        tuple(json.loads(r[7])), r[8], r[9], tuple(json.loads(r[10])), r[12],
                        r[13], r[14], r[15], r[16], r[17]) for r in rows]

    def record(self, row: GameRow) -> None:
        """Write one finished game, committed at once."""
        players = [self._names[i] for i in row.entrants]
        winner = players[row.winner] if row.winner >= 0 else None
        self._db.execute(
            f"INSERT INTO games (tournament, {', '.join(_COLUMNS)}) "
            f"VALUES ({', '.join('?' * (len(_COLUMNS) + 1))})",
            (self._id, row.game_id, row.round, row.match, row.number, row.seed,
             json.dumps(players), json.dumps(list(row.entrants)), json.dumps(list(row.bot_seeds)),
             row.chooser, row.starting, json.dumps(list(row.mulligans)), winner, row.winner,
             row.reason, row.turns, row.decisions, row.final_hash, row.seconds))
