"""Helpers of the trace tools' tests: the games traced, a way to run ``spellstack`` and read
what it printed, a trace's lines read as plain JSON, what bob had been shown of them."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import trio

from spellstack import RandomBot, play_one_game
from spellstack.cli import main
from spellstack.rules import StartSettings

NAMES = ["alice", "bob"]
GAMES = [(1, ("gruul", "orzhov")), (2, ("dimir", "orzhov")), (3, ("orzhov", "dimir")),
         (4, ("gruul", "dimir"))]
"""(seed, decks) of the games traced; the first is ``spellstack play --seed 1``'s."""

Run = Callable[..., tuple[int, str, str]]


def run_cli(*argv: str) -> tuple[int, str, str]:
    """``spellstack ARGV``: its exit status, what it printed, what it printed on stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def raw_records(path: Path) -> list[dict[str, Any]]:
    """The trace's lines as JSON objects, read without ``spellstack.trace``."""
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def make_traces(folder: Path) -> list[Path]:
    """One trace per game of ``GAMES``, written in ``folder``."""
    paths = []
    for seed, decks in GAMES:
        path = folder / f"seed{seed}.jsonl"
        if seed == 1:
            code, _, _ = run_cli("play", "--seed", "1", "--trace", str(path))
            assert code == 0
        else:
            bots = [RandomBot(2 * seed + 1), RandomBot(2 * seed + 2)]
            trio.run(partial(play_one_game, list(decks), bots, seed, names=NAMES, trace_path=path))
        paths.append(path)
    return paths


def make_match_game_trace(path: Path) -> Path:
    """The trace of a game started the way a match's is (103.1, 103.5): bob, in the second
    seat, chooses who plays first and chooses himself; bob and alice both take a mulligan."""
    bots = [RandomBot(1), RandomBot(101)]
    trio.run(partial(play_one_game, ["gruul", "orzhov"], bots, 1, names=NAMES, trace_path=path,
                     start=StartSettings(chooser=1), turn_limit=3))
    return path


BOB = 1


def shown_to_bob(records: list[dict[str, Any]], names: set[str]) -> tuple[set[str], set[int]]:
    """The card names (of ``names``) and object ids bob had been shown in ``records``."""
    seen_names: set[str] = set()
    seen_ids: set[int] = set()

    def text(t: str) -> None:
        seen_names.update(n for n in names if n in t)

    for r in records:
        p = r["payload"]
        if r["kind"] == "GameEvent" and (not p["private_to"] or BOB in p["private_to"]):
            text(p["text"])
            seen_ids.update([p["subject"], *p["refs"]])
        elif r["receiver"] == "player:bob" and "view" in p:
            v, d = p["view"], p["decision"]
            if v is not None:  # a priority request of a bot that reads no view carries none
                seen_names.update(o["name"] for o in v["objects"])
                seen_names.update(s["name"] for s in v["stack"] or ())
                seen_ids.update(o["id"] for o in v["objects"])
                seen_ids.update(s["id"] for s in v["stack"] or ())
            seen_names.update(c["name"] for c in d["choices"])
            seen_names.update(a["name"] for a in d["actions"])
            seen_ids.update(c["ref"] for c in d["choices"])
            for a in d["actions"]:
                seen_ids.add(a["object_id"])
                seen_ids.update(c for t in a["targets"] for c in t["candidates"])
    return seen_names, seen_ids


def cut_trace(path: Path, seq: int, folder: Path) -> Path:
    """The trace of ``path`` up to record ``seq``, with its result line."""
    lines = path.read_bytes().splitlines(keepends=True)
    out = folder / "cut.jsonl"
    out.write_bytes(b"".join(lines[: seq + 1] + lines[-1:]))
    return out


def hidden_from_bob(path: Path, where: float) -> tuple[int, set[str], set[int]]:
    """A point of the game of ``path`` (``where``: 0 the start, 1 the end) as the ``seq`` of a
    record, the names of alice's cards (not in bob's deck) bob had not been shown up to it, and
    the object ids he had been."""
    records = raw_records(path)
    header, messages = records[0], [r for r in records if r["event"] == "message"]
    seq = max(1, round(where * len(messages)))
    names = set(header["decklists"]["alice"]) | set(header["decklists"]["bob"])
    names_seen, ids_seen = shown_to_bob(messages[:seq], names)
    hidden = set(header["decklists"]["alice"]) - set(header["decklists"]["bob"]) - names_seen
    return seq, hidden, ids_seen


def leaked(hidden: set[str], text: str) -> set[str]:
    """The names of ``hidden`` that ``text`` holds as names (not inside a longer word)."""
    return {n for n in hidden if re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", text)}
