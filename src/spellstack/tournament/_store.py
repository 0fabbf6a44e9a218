"""The results database: every finished game, written (and committed) soon after it ends.

One SQLite file (``--db``) holds any number of tournaments, each under the key of its settings
(``settings_key``: entrants, their bots and deck lists, format, rounds, best-of, seed, a Swiss
tournament's pairing rule) with its secret key beside them (``secret``, hex: every seed comes
from it). Rows are committed a batch at a time (``record_many``, one transaction: all of the
batch or none of it), so a process killed at any point loses at most the games it was playing
and those that ended since the last batch was written (``RowWriter``: at most about a second's
worth); ``--resume`` reads the rows back and plays only the games that are missing.

SQLite's write-ahead log with ``synchronous=NORMAL``: a committed row survives the process
being killed (the log is in the operating system's hands once written); only a crash of the
machine itself can lose the last rows, which ``--resume`` then plays again from their seeds.

Schema versions (``PRAGMA user_version``): 3 has each game's time left on its clocks
(``clock_left``); 2 has the tournaments' keys; a file without a version whose tables are those
of before is version 1, whose tournaments have no key: they can be listed, not resumed or
checked. A file is brought to the current version only when it is written (a new tournament
recorded, or one resumed). A newer version, or tables of another shape, is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._games import GameRow
from ._keys import parse_key
from ._run_lock import RunLock, RunLocked

__all__ = ["DEFAULT_DB", "SCHEMA_VERSION", "ResultsStore", "StoreError", "StoredTournament", "settings_key"]

DEFAULT_DB = Path("spellstack-tournament.db")
"""The results database when none is given: in the working folder."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    settings TEXT NOT NULL,
    secret TEXT
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
    clock_left TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (tournament, game_id)
);
"""

SCHEMA_VERSION = 3
"""The schema this version writes."""

_TOURNAMENT_COLUMNS = {1: ("id", "key", "settings"), 2: ("id", "key", "settings", "secret"),
                       3: ("id", "key", "settings", "secret")}
"""The tournaments table's columns in each schema version."""

_COLUMNS = ("game_id", "round", "match", "number", "seed", "players", "entrants", "bot_seeds",
            "chooser", "starting", "mulligans", "winner", "winner_seat", "reason", "turns",
            "decisions", "final_hash", "seconds", "clock_left")


class StoreError(Exception):
    """The results database can't be used as asked (not a database, a folder, a tournament to
    resume that it does not hold, read-only, locked by another run, a row that can't be read, a
    write that failed)."""


def _columns(version: int) -> tuple[str, ...]:
    """The games table's columns in a schema version (``clock_left`` from 3)."""
    return _COLUMNS if version >= 3 else _COLUMNS[:-1]


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
    keyed: bool = True
    """Whether its key is recorded (not in a tournament recorded before there were keys)."""



def _cause(err: BaseException) -> str:
    """What a database error says, in the words a user needs."""
    text = str(err)
    if "readonly" in text or "read-only" in text:
        return "read-only: the file or its filesystem can't be written"
    if "disk is full" in text:
        return "the disk is full"
    if "locked" in text:
        return "locked by another process"
    return text or type(err).__name__


def _shown(value: object) -> str:
    """A stored value as an error line quotes it: cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_pairing(path: Path, settings: Mapping[str, Any], held: list[StoredTournament]) -> None:
    """StoreError if ``held`` has the tournament of ``settings`` but for the rule its Swiss
    rounds were paired by (``"pairing"``; none recorded: rule 1): its rounds would not be
    paired as they were, so it is not resumed, nor mixed with rounds paired anew."""
    if "pairing" not in settings:
        return
    rest = settings_key({k: v for k, v in settings.items() if k != "pairing"})
    for t in held:
        if settings_key({k: v for k, v in t.settings.items() if k != "pairing"}) == rest:
            raise StoreError(f"{path}: this Swiss tournament was paired by pairing rule "
                             f"{t.settings.get('pairing', 1)}, and this spellstack pairs by rule "
                             f"{settings['pairing']} (a least-cost matching), so its rounds can't "
                             "be resumed; start it again without --resume, or resume it with the "
                             "spellstack that started it")


class ResultsStore:
    """One open results database."""

    def __init__(self, path: Path, *, create: bool = True, read: bool = False) -> None:
        """Open ``path``; ``create=False`` (to resume a tournament): StoreError, and no file
        made or changed, if it doesn't exist or holds no results yet. ``read=True`` (to read
        its games, ``every_game``): the same, said without resuming (``not a results database``
        for a file without its tables)."""
        self.path = path
        """The database file."""
        self.read_only = False
        """Whether the file (or its filesystem) can't be written: it can be read, not added to."""
        if path.is_dir():
            raise StoreError(f"{path}: is a folder, not a results database")
        if read and not path.exists():
            raise StoreError(f"{path}: no such file")
        create = create and not read
        if not create and not path.exists():
            raise StoreError(f"{path}: no such file, so no tournament to resume; start it "
                             "without --resume, or give --db the file it was recorded in")
        self._db = self._connect(path)
        try:
            self.version = self._version()
            """Its schema version (0 for a new, empty file)."""
            if self.version == 0 and read:
                raise StoreError(f"{path}: not a results database (it has no tournaments or "
                                 "games tables)")
            if self.version == 0 and not create:
                raise StoreError(f"{path}: no tournament to resume (it holds no results); start "
                                 "it without --resume, or give --db the file it was recorded in")
            if not self.read_only and self.version != 1:
                # A version 1 file is left as it is until a new tournament is recorded in it.
                self._db.execute("PRAGMA journal_mode=WAL")
            if self.version == 0:
                if self.read_only:
                    raise StoreError(f"{path}: {_cause(sqlite3.OperationalError('readonly'))}, "
                                     "and it holds no results yet")
                with self._db:
                    self._db.execute("BEGIN")
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                self.version = SCHEMA_VERSION
        except StoreError:
            self._db.close()
            raise
        except sqlite3.DatabaseError as err:
            self._db.close()
            raise StoreError(f"{path}: not a results database ({err})") from None
        self._id = 0
        self._names: tuple[str, ...] = ()
        self._count = 0
        self._lock: RunLock | None = None

    def _connect(self, path: Path) -> sqlite3.Connection:
        """The file opened for writing, or, if it can't be written, for reading only."""
        writable = not path.exists() or os.access(path, os.W_OK)
        # The write-ahead log needs files beside the database: a folder that can't be written
        # leaves the database read-only too.
        writable = writable and os.access(path.parent if str(path.parent) else Path("."), os.W_OK)
        if writable:
            try:
                db = sqlite3.connect(path, isolation_level=None)
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
                return db
            except sqlite3.OperationalError as err:
                if not path.exists() or ("readonly" not in str(err) and "unable to open" not in str(err)):
                    raise StoreError(f"{path}: can't be opened ({_cause(err)})") from None
            except sqlite3.DatabaseError as err:
                raise StoreError(f"{path}: not a results database ({err})") from None
        if not path.exists():
            raise StoreError(f"{path}: {_cause(sqlite3.OperationalError('readonly'))}")
        self.read_only = True
        uri = path.resolve().as_uri()
        last: sqlite3.Error | None = None
        # Read-only; ``immutable`` reads a write-ahead-log file whose folder can't be written.
        for mode in ("?mode=ro", "?mode=ro&immutable=1"):
            try:
                db = sqlite3.connect(uri + mode, uri=True, isolation_level=None)
                db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
                return db
            except sqlite3.Error as err:
                last = err
        raise StoreError(f"{path}: read-only (the file or its filesystem can't be written), and "
                         f"it can't be read either ({last})")

    def _version(self) -> int:
        """The file's schema version, after checking its tables have that version's shape
        (0: no tables yet); StoreError for a newer version or tables of another shape."""
        declared = self._db.execute("PRAGMA user_version").fetchone()[0]
        tables = {name: tuple(c[1] for c in self._db.execute(f"PRAGMA table_info('{name}')"))
                  for (name,) in self._db.execute(
                      "SELECT name FROM sqlite_master WHERE type = 'table' "
                      "AND name IN ('tournaments', 'games')")}
        if declared > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: results database schema version {declared}, newer "
                             f"than this spellstack's ({SCHEMA_VERSION}); use a newer spellstack")
        if not tables and declared == 0:
            return 0
        version = declared or 1
        expected = {"tournaments": _TOURNAMENT_COLUMNS.get(version),
                    "games": ("tournament", *_columns(version))}
        if tables != expected:
            found = "; ".join(f"{name}({', '.join(cols)})" for name, cols in sorted(tables.items()))
            cut = found if len(found) <= 200 else found[:197] + "..."
            raise StoreError(f"{self.path}: not a results database of schema version {version}: "
                             f"its tables are {cut or 'missing'}")
        return version

    def close(self) -> None:
        """Give up the tournament's lock and close the file."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        self._db.close()

    def _settings(self, text: object, tid: int) -> Mapping[str, Any]:
        """A tournament's stored settings; StoreError if they can't be read."""
        try:
            settings = json.loads(text) if isinstance(text, str) else None
        except json.JSONDecodeError:
            settings = None
        if not isinstance(settings, dict):
            raise StoreError(f"{self.path}: tournament {tid}: column settings can't be read "
                             f"({_shown(text)}); nothing in the file was changed")
        return settings

    def tournaments(self) -> list[StoredTournament]:
        """Every tournament it holds, oldest first."""
        secret = "secret" if self.version >= 2 else "NULL"
        out = []
        for tid, key, settings, games, kept in self._db.execute(
                "SELECT id, key, settings, (SELECT COUNT(*) FROM games WHERE tournament = t.id), "
                f"{secret} FROM tournaments t ORDER BY id"):
            out.append(StoredTournament(key, self._settings(settings, tid), games, kept is not None))
        return out

    def open_tournament(self, settings: Mapping[str, Any], names: tuple[str, ...], *,
                        resume: bool, key: bytes, explicit: bool = False) -> tuple[list[GameRow], bytes]:
        """Start recording the tournament of ``settings`` (entrant ``names`` by index); returns
        the games recorded for it already (none for a new one) and its key: the one recorded,
        or ``key`` for a new tournament. ``explicit``: ``key`` was given (``--key-from``, a
        seed), and a recorded key must be the same.

        StoreError if: ``resume`` and the file does not hold the tournament; it holds it
        without a key (recorded before there were keys) or with another key than an explicit
        one; a new tournament in a read-only file; another run holds the tournament's lock; a
        row can't be read."""
        try:
            return self._open(settings, names, resume=resume, key=key, explicit=explicit)
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: {_cause(err)}; nothing in the file was changed") from None

    def _upgrade(self) -> None:
        """Bring the file to ``SCHEMA_VERSION``, inside the caller's transaction: the keys'
        column (2), each game's time left on its clocks (3)."""
        if self.version < 2:
            self._db.execute("ALTER TABLE tournaments ADD COLUMN secret TEXT")
        if self.version < 3:
            self._db.execute("ALTER TABLE games ADD COLUMN clock_left TEXT NOT NULL DEFAULT '[]'")
        self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @property
    def _select(self) -> str:
        """The games' columns to read, as this file's version has them."""
        return ", ".join(c if c in _columns(self.version) else "'[]'" for c in _COLUMNS)

    def _open(self, settings: Mapping[str, Any], names: tuple[str, ...], *, resume: bool,
              key: bytes, explicit: bool) -> tuple[list[GameRow], bytes]:
        skey = settings_key(settings)
        found = self._find(skey)
        if found is None and resume:
            held = self.tournaments()
            _check_pairing(self.path, settings, held)
            told = "; ".join(f"{t.settings.get('format')} of {len(t.settings.get('entrants', []))} "
                             f"entrants, {_seed_told(t.settings.get('seed'))}, {t.games} games"
                             for t in held[-5:]) or "none"
            raise StoreError(f"{self.path}: no tournament with these settings to resume (it "
                             f"holds: {told}); start it without --resume, or give the settings "
                             "it was started with")
        if found is None:
            if self.read_only:
                raise StoreError(f"{self.path}: read-only (the file or its filesystem can't be "
                                 "written): a new tournament can't be recorded in it")
            with self._db:
                if self.version < SCHEMA_VERSION:
                    self._db.execute("PRAGMA journal_mode=WAL")
                    self._db.execute("BEGIN IMMEDIATE")
                    self._upgrade()
                else:
                    self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("INSERT OR IGNORE INTO tournaments (key, settings, secret) "
                                 "VALUES (?, ?, ?)",
                                 (skey, json.dumps(settings, sort_keys=True), key.hex()))
            self.version = SCHEMA_VERSION
            found = self._find(skey)
            assert found is not None
        tid, secret = found
        if secret is not None and self.version < SCHEMA_VERSION and not self.read_only:
            with self._db:  # resumed or checked: its games are written as this version writes them
                self._db.execute("BEGIN IMMEDIATE")
                self._upgrade()
            self.version = SCHEMA_VERSION
        if secret is None:
            raise StoreError(f"{self.path}: this tournament was recorded before tournaments had "
                             "keys, so its games can't be resumed or checked; nothing in the file "
                             "was changed (to play it anew, use another --db)")
        try:
            recorded = parse_key(secret)
        except ValueError as err:
            raise StoreError(f"{self.path}: tournament {tid}: column secret can't be read "
                             f"({err}); nothing in the file was changed") from None
        if explicit and recorded != key:
            raise StoreError(f"{self.path}: holds this tournament with another key than the one "
                             "given (--key-from or --seed); nothing in the file was changed")
        if not self.read_only:
            try:
                self._lock = RunLock.acquire(self.path, tid)
            except RunLocked as held:
                who = f"process {held.pid}" if held.pid is not None else "another process"
                raise StoreError(f"{self.path}: this tournament is being played by another run "
                                 f"({who}); wait for it to end, or stop it and use "
                                 "--resume") from None
            except OSError as err:
                raise StoreError(f"{self.path}: can't make its run lock "
                                 f"({err.strerror or err})") from None
        self._id = tid
        self._names = names
        rows = self.rows()
        self._count = len(rows)
        return rows, recorded

    def _find(self, skey: str) -> tuple[int, str | None] | None:
        """The tournament's id and recorded key (None: none recorded), or None: not held."""
        secret = "secret" if self.version >= 2 else "NULL"
        found = self._db.execute(f"SELECT id, {secret} FROM tournaments WHERE key = ?",
                                 (skey,)).fetchone()
        return None if found is None else (found[0], found[1])

    def rows(self) -> list[GameRow]:
        """The games recorded for the open tournament, by round, match and number; StoreError
        naming the game and column of a row that can't be read."""
        rows = self._db.execute(
            f"SELECT {self._select} FROM games WHERE tournament = ? "
            "ORDER BY round, match, number", (self._id,)).fetchall()
        return [self._row(r) for r in rows]

    def _row(self, r: tuple[Any, ...]) -> GameRow:
        """One stored row as a game; StoreError naming the column that can't be read."""
        values = dict(zip(_COLUMNS, r, strict=True))

        def bad(column: str) -> StoreError:
            return StoreError(f"{self.path}: game {_shown(values['game_id'])}: column {column} "
                              f"can't be read ({_shown(values[column])}); nothing in the file "
                              "was changed")

        def whole(column: str) -> int:
            value = values[column]
            if not isinstance(value, int) or isinstance(value, bool):
                raise bad(column)
            return value

        def numbers(column: str) -> tuple[int, ...]:
            try:
                value = json.loads(values[column])
            except (TypeError, json.JSONDecodeError):
                raise bad(column) from None
            if not isinstance(value, list) or not all(type(v) is int for v in value):
                raise bad(column)
            return tuple(value)

        def text(column: str) -> str:
            value = values[column]
            if not isinstance(value, str):
                raise bad(column)
            return value

        seconds = values["seconds"]
        if type(seconds) not in (int, float):
            raise bad("seconds")
        try:
            left = json.loads(values["clock_left"])
        except (TypeError, json.JSONDecodeError):
            raise bad("clock_left") from None
        if not isinstance(left, list) or not all(type(v) in (int, float) for v in left):
            raise bad("clock_left")
        text("game_id")
        return GameRow(values["game_id"], whole("round"), whole("match"), whole("number"),
                       whole("seed"), numbers("entrants"), numbers("bot_seeds"), whole("chooser"),
                       whole("starting"), numbers("mulligans"), whole("winner_seat"),
                       text("reason"), whole("turns"), whole("decisions"), text("final_hash"),
                       float(seconds), tuple(float(v) for v in left))

    def every_game(self) -> list[tuple[StoredTournament, list[GameRow]]]:
        """Every tournament it holds, oldest first, each with its games by round, match and
        number, read at one moment (a tournament being played goes on writing); StoreError
        naming the game and column of a row that can't be read."""
        try:
            self._db.execute("BEGIN")
            try:
                held = self.tournaments()
                ids = [tid for (tid,) in self._db.execute("SELECT id FROM tournaments ORDER BY id")]
                return [(tournament, [self._row(r) for r in self._db.execute(
                            f"SELECT {self._select} FROM games WHERE tournament = ? "
                            "ORDER BY round, match, number", (tid,))])
                        for tid, tournament in zip(ids, held, strict=True)]
            finally:
                self._db.execute("COMMIT")
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: can't be read ({_cause(err)})") from None

    @property
    def recorded(self) -> int:
        """Games of the open tournament the file holds."""
        return self._count

    def record(self, row: GameRow) -> None:
        """Write one finished game, committed at once (``record_many`` of it)."""
        self.record_many((row,))

    def record_many(self, rows: Sequence[GameRow]) -> None:
        """Write finished games in one transaction: the file then holds all of them or, if the
        write failed (or the process was killed during it), none; StoreError if they can't be
        written, saying how many games are recorded (``--resume`` goes on from there)."""
        if not rows:
            return
        insert = (f"INSERT INTO games (tournament, {', '.join(_COLUMNS)}) "
                  f"VALUES ({', '.join('?' * (len(_COLUMNS) + 1))})")
        row = rows[0]
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for row in rows:
                    self._db.execute(insert, self._values(row))
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.Error as err:
            n = self._count
            raise StoreError(f"{self.path}: can't write game {row.game_id} ({_cause(err)}); "
                             f"{n} game{'s' if n != 1 else ''} of this tournament are recorded, "
                             "and --resume goes on from there") from None
        self._count += len(rows)

    def _values(self, row: GameRow) -> tuple[object, ...]:
        """One game as the games table's values, the tournament's id first."""
        players = [self._names[i] for i in row.entrants]
        winner = players[row.winner] if row.winner >= 0 else None
        return (self._id, row.game_id, row.round, row.match, row.number, row.seed,
                json.dumps(players), json.dumps(list(row.entrants)),
                json.dumps(list(row.bot_seeds)), row.chooser, row.starting,
                json.dumps(list(row.mulligans)), winner, row.winner, row.reason, row.turns,
                row.decisions, row.final_hash, row.seconds, json.dumps(list(row.clock_left)))


def _seed_told(seed: object) -> str:
    """A stored tournament's seed as a listing tells it."""
    return "a secret key" if seed is None else f"seed {seed}"
