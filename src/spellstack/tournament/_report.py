"""What a tournament came to, told: the results file (JSON), the standings table, one line per
pair of entrants and the ratings.

The results file holds no timing unless asked (``timings``): two runs of the same tournament,
however they were run, give byte-identical files.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from typing import Any

from .._printable import printable
from .._version import __version__
from ..rules import DEFAULT_TURN_LIMIT
from ._elo import elo_pentanomial, format_pairs_line, pentanomial_counts
from ._games import GameRow
from ._in_order import first_entrant_scores
from ._pairs import GameOutcome, PairLine, format_pair_line, pair_lines
from ._rating_list import ListEntrant, ListGame, ListGames, format_rating_list, rating_list
from ._ratings import Rating, ratings
from ._run import Played, TournamentSettings
from ._sprt import SprtResult, format_sprt_line
from ._standings import Standing, standings

__all__ = ["GamePairs", "Report", "field_table", "games_csv", "interim_lines", "pair_text", "report", "results_json",
           "round_lines", "standings_csv", "standings_table", "top_cut_lines"]

_PERCENT_PLACES = 4
"""Decimal places of the percentages in the results file."""


class Report:
    """A played tournament's standings, pairs and ratings, worked out once."""

    def __init__(self, played: Played) -> None:
        self.played = played
        """The tournament."""
        settings = played.settings
        self.names = [e.name for e in settings.entrants]
        """Entrant names by index."""
        n = len(self.names)
        self.standings: list[Standing] = standings(n, [m for _, m in played.matches],
                                                   settings.best_of // 2 + 1)
        """The standings, ranked."""
        outcomes = [_outcome(row) for row in played.rows]
        self.pairs: list[PairLine] = pair_lines(outcomes, self.names)
        """One line per pair of entrants that played."""
        self.ratings: list[Rating] = ratings(outcomes, self.names)
        """The openskill ratings, best first."""
        self.game_pairs: dict[tuple[int, int], GamePairs] = (
            _game_pairs(played.rows) if settings.pairs else {})
        """With game pairs: each pair of entrants' pairs, from the lower index's side."""


@dataclass(frozen=True, slots=True)
class GamePairs:
    """The game pairs two entrants played, from the first's side."""

    pentanomial: tuple[int, int, int, int, int]
    """Complete pairs by the first's score in them: LL, LD, WL+DD, WD, WW."""
    on_play: tuple[int, int, int]
    """The first's wins, losses and draws in the games it started."""
    on_draw: tuple[int, int, int]
    """The same in the games the other started."""


def _game_pairs(rows: Sequence[GameRow]) -> dict[tuple[int, int], GamePairs]:
    """Each pair of entrants' game pairs (a pair: the two games of one match)."""
    totals: dict[tuple[int, int], list[float]] = {}
    records: dict[tuple[int, int], list[list[int]]] = {}
    for _, games in groupby(rows, key=lambda r: (r.round, r.match)):
        pair = list(games)
        a, b = sorted(pair[0].entrants)
        record = records.setdefault((a, b), [[0, 0, 0], [0, 0, 0]])
        for row in pair:
            won = -1 if row.winner < 0 else row.entrants[row.winner]
            side = record[0 if row.starting >= 0 and row.entrants[row.starting] == a else 1]
            side[2 if won < 0 else 0 if won == a else 1] += 1
        if len(pair) == 2:
            totals.setdefault((a, b), []).append(sum(first_entrant_scores(pair, a)))
    return {at: GamePairs(pentanomial_counts(totals.get(at, [])), (rec[0][0], rec[0][1], rec[0][2]),
                          (rec[1][0], rec[1][1], rec[1][2]))
            for at, rec in sorted(records.items())}


def report(played: Played) -> Report:
    """The report of ``played``."""
    return Report(played)


def _outcome(row: GameRow) -> GameOutcome:
    """A game as the pair lines and ratings read it: (a, b, a's score)."""
    a, b = row.entrants
    return (a, b, 1.0 if row.winner == 0 else 0.0 if row.winner == 1 else 0.5)


def _pct(value: Fraction) -> float:
    return round(float(value), _PERCENT_PLACES)


def results_json(rep: Report, *, timings: bool = False) -> str:
    """The results file: settings (the key among them), every game, every match, standings,
    pairs and ratings, in a fixed order; timings (each game's seconds) only if ``timings``."""
    played = rep.played
    settings = played.settings
    names = rep.names
    games: list[dict[str, Any]] = []
    for row in played.rows:
        players = [names[i] for i in row.entrants]
        game: dict[str, Any] = {
            "id": row.game_id, "round": row.round, "match": row.match, "game": row.number,
            "seed": row.seed, "players": players, "bot_seeds": list(row.bot_seeds),
            "chooser": players[row.chooser] if row.chooser >= 0 else None,
            "starting_player": players[row.starting] if row.starting >= 0 else None,
            "mulligans": list(row.mulligans),
            "winner": players[row.winner] if row.winner >= 0 else None,
            "reason": row.reason, "turns": row.turns, "decisions": row.decisions,
            "final_hash": row.final_hash,
        }
        if settings.clock is not None:  # each seat's time left at the end (machine-dependent)
            game["clock_left"] = [round(t, 3) if math.isfinite(t) else None for t in row.clock_left]
        if timings:
            game["seconds"] = round(row.seconds, 6)
        games.append(game)
    matches = []
    for spec, result in played.matches:
        if spec is None:
            matches.append({"round": result.round, "bye": names[result.a]})
            continue
        matches.append({"round": spec.round, "match": spec.match,
                        "players": [names[result.a], names[result.b]] if result.b is not None else [],
                        "wins": [result.a_wins, result.b_wins], "draws": result.draws})
    for round_no, entrant in played.sat_out:
        matches.append({"round": round_no, "sits_out": names[entrant]})
    matches.sort(key=lambda m: (m["round"], "match" not in m, m.get("match", 0)))
    doc = {
        "engine": __version__,
        "format": settings.format,
        "seed": settings.seed,
        # The organizer's: every seed comes from it (``--key-from`` plays the tournament again).
        "key": settings.secret().hex() if settings.key or settings.seed is not None else None,
        "best_of": settings.best_of,
        "rounds": settings.round_count(),
        "repeat": settings.repeat,
        # Settings added later are written only when not their default: older files stay as they were.
        **({"game_pairs": True} if settings.pairs else {}),
        **({"clock": str(settings.clock)} if settings.clock is not None else {}),
        **({} if settings.turn_limit == DEFAULT_TURN_LIMIT else {"turn_limit": settings.turn_limit}),
        "entrants": [{"name": e.name, "bot": e.bot, "deck": e.deck.name} for e in settings.entrants],
        "games": games,
        "matches": matches,
        "standings": [{"rank": s.rank, "entrant": names[s.entrant], "points": s.points,
                       "wins": s.wins, "losses": s.losses, "draws": s.draws, "byes": s.byes,
                       "omw": _pct(s.omw), "gw": _pct(s.gw), "ogw": _pct(s.ogw)}
                      for s in rep.standings],
        "pairs": [{"a": p.name_a, "b": p.name_b, "wins": p.wins, "losses": p.losses,
                   "draws": p.draws, "score": round(p.score, _PERCENT_PLACES),
                   "elo": None if p.elo is None else round(p.elo, 1),
                   # JSON has no infinity: the sign of a score of 1 or 0, as text.
                   "elo_limit": None if p.elo is not None else "+inf" if p.score > 0.5 else "-inf",
                   "elo_margin": None if p.elo_margin is None else round(p.elo_margin, 1),
                   "los": None if p.los is None else round(p.los, _PERCENT_PLACES)}
                  | _pairs_fields(rep, p) for p in rep.pairs],
        **({"sprt": played.sprt.as_dict()} if played.sprt is not None else {}),
        **({"top_cut": [{"round": spec.round, "match": spec.match, "stage": k.stage,
                         "seeds": list(k.seeds), "players": [names[k.result.a], names[k.result.b or 0]],
                         "wins": [k.result.a_wins, k.result.b_wins], "draws": k.result.draws,
                         "winner": names[k.winner], "reason": k.reason}
                        for spec, k in played.top_cut]} if played.top_cut else {}),
        "ratings": [{"entrant": r.name, "mu": round(r.mu, _PERCENT_PLACES),
                     "sigma": round(r.sigma, _PERCENT_PLACES),
                     "ordinal": round(r.ordinal, _PERCENT_PLACES)} for r in rep.ratings],
    }
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def _pairs_fields(rep: Report, p: PairLine) -> dict[str, Any]:
    """A pair line's game-pair fields in the results file (none without game pairs)."""
    found = rep.game_pairs.get((p.a, p.b))
    if found is None:
        return {}
    est = elo_pentanomial(found.pentanomial)

    def num(value: float | None) -> float | None:
        return None if value is None else round(value, 1)

    return {"pairs": sum(found.pentanomial), "pentanomial": list(found.pentanomial),
            "pairs_elo": num(est.elo), "pairs_elo_margin": num(est.elo_margin),
            "nelo": num(est.nelo), "nelo_margin": num(est.nelo_margin),
            "pairs_los": None if est.los is None else round(est.los, _PERCENT_PLACES),
            "on_play": list(found.on_play), "on_draw": list(found.on_draw)}


def pair_text(rep: Report, p: PairLine) -> str:
    """A pair of entrants' line: with game pairs, the pentanomial line (``format_pairs_line``),
    else the cutechess-style one (``format_pair_line``); the SPRT's line under it, if any."""
    found = rep.game_pairs.get((p.a, p.b))
    if found is None:
        line = format_pair_line(p)
    else:
        line = format_pairs_line(p.name_a, p.name_b, wins=p.wins, losses=p.losses, draws=p.draws,
                                 pentanomial=found.pentanomial, on_play=found.on_play,
                                 on_draw=found.on_draw)
    if rep.played.sprt is not None:
        line += "\n" + format_sprt_line(rep.played.sprt)
    return line


def round_lines(rep: Report) -> list[str]:
    """A line per round: its matches with their game scores, the match's winner first (a drawn
    match in seat order; drawn games as a third number), then its bye, as in ``round 1:
    heuristic-dimir 2-0 random-gruul; random-orzhov 2-1 random-dimir; heuristic-gruul has the
    bye``. Names are escaped (``printable``)."""
    names = [printable(n) for n in rep.names]
    told: dict[int, list[str]] = {}
    byes: dict[int, list[str]] = {}
    for spec, result in rep.played.matches:
        if spec is None or result.b is None:
            byes.setdefault(result.round, []).append(f"{names[result.a]} has the bye")
            continue
        a, b, a_wins, b_wins = result.a, result.b, result.a_wins, result.b_wins
        if b_wins > a_wins:
            a, b, a_wins, b_wins = b, a, b_wins, a_wins
        score = f"{a_wins}-{b_wins}" + (f"-{result.draws}" if result.draws else "")
        told.setdefault(result.round, []).append(f"{names[a]} {score} {names[b]}")
    return [f"round {r}: {'; '.join(told.get(r, []) + byes.get(r, []))}"
            for r in sorted(told.keys() | byes.keys())]


def standings_table(rep: Report) -> str:
    """The standings as a text table (rank, entrant, points, W-L-D, byes, OMW%, GW%, OGW%), then a
    line per pair and the ratings. Names are escaped (``printable``): a name is text from an
    entrant or a deck file, and the table goes to a terminal."""
    names = [printable(n) for n in rep.names]
    width = max(len("entrant"), *(len(n) for n in names))
    # W-L-D counts a bye as a won match (MTR appendix C); ``byes`` says how many of them were.
    lines = [f"{'rank':>4}  {'entrant':<{width}}  {'points':>6}  {'W-L-D':>8}  {'byes':>4}  "
             f"{'OMW%':>6}  {'GW%':>6}  {'OGW%':>6}"]
    for s in rep.standings:
        wld = f"{s.wins}-{s.losses}-{s.draws}"
        lines.append(f"{s.rank:>4}  {names[s.entrant]:<{width}}  {s.points:>6}  {wld:>8}  "
                     f"{s.byes:>4}  {float(s.omw) * 100:>6.2f}  {float(s.gw) * 100:>6.2f}  "
                     f"{float(s.ogw) * 100:>6.2f}")
    if rep.pairs:
        lines.append("")
        for p in rep.pairs:
            lines.extend(printable(part) for part in pair_text(rep, p).split("\n"))
    if rep.ratings:
        lines.append("")
        lines.append("ratings (openskill, Plackett-Luce; ordinal = mu - 3 sigma):")
        for r in rep.ratings:
            lines.append(f"  {printable(r.name):<{width}}  mu {r.mu:6.2f}  sigma {r.sigma:5.2f}  "
                         f"ordinal {r.ordinal:6.2f}")
    return "\n".join(lines) + "\n"


def top_cut_lines(rep: Report) -> list[str]:
    """The top cut, a line per match, round by round: ``final: heuristic-gruul (1) 2-1
    random-dimir (2)``, the higher seed first, and the winner's line at the end. A match level
    after every game says that the higher seed went through."""
    names = [printable(n) for n in rep.names]
    lines: list[str] = []
    for _, k in rep.played.top_cut:
        r = k.result
        b = r.b if r.b is not None else r.a
        score = f"{r.a_wins}-{r.b_wins}" + (f"-{r.draws}" if r.draws else "")
        told = f"; {k.reason}" if k.reason else ""
        lines.append(f"{k.stage}: {names[r.a]} ({k.seeds[0]}) {score} {names[b]} ({k.seeds[1]}){told}")
    if rep.played.top_cut:
        lines.append(f"winner: {names[rep.played.top_cut[-1][1].winner]}")
    return lines


def _csv(header: list[str], rows: list[list[object]]) -> str:
    """CSV text (the ``csv`` module's own quoting; lines end in ``\\r\\n`` as RFC 4180 has them)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def games_csv(rep: Report, *, timings: bool = False) -> str:
    """``--games-csv``: a row per game, as the results file's games: id, round, match, game,
    pair (empty without game pairs), seed, the players in seat
    order, the chooser, the starting player, the winner (empty for a draw), reason, turns,
    decisions, final hash; ``seconds`` only with ``timings``. A game pair's number counts the
    pairs of the whole tournament in schedule order, from 1."""
    names = rep.names
    played = rep.played
    pair_no = {at: i for i, at in enumerate(sorted({(r.round, r.match) for r in played.rows}), 1)}
    seats = max((len(row.entrants) for row in played.rows), default=2)
    header = ["id", "round", "match", "game", "pair", "seed",
              *(f"player_{i + 1}" for i in range(seats)), "chooser", "starting_player", "winner",
              "reason", "turns", "decisions", "final_hash",
              *((f"clock_left_{i + 1}" for i in range(seats)) if played.settings.clock is not None else ()),
              *(["seconds"] if timings else [])]
    rows: list[list[object]] = []
    for row in played.rows:
        players = [names[i] for i in row.entrants]
        rows.append([row.game_id, row.round, row.match, row.number,
                     pair_no[(row.round, row.match)] if played.settings.pairs else "", row.seed, *players,
                     players[row.chooser] if row.chooser >= 0 else "",
                     players[row.starting] if row.starting >= 0 else "",
                     players[row.winner] if row.winner >= 0 else "", row.reason, row.turns,
                     row.decisions, row.final_hash,
                     *(_left(row, seats) if played.settings.clock is not None else []),
                     *([f"{row.seconds:.6f}"] if timings else [])])
    return _csv(header, rows)


def _left(row: GameRow, seats: int) -> list[str]:
    """A game's time left on each seat's clock, in seconds with 3 decimals (empty: not known)."""
    left = list(row.clock_left) + [math.nan] * (seats - len(row.clock_left))
    return [f"{t:.3f}" if math.isfinite(t) else "" for t in left[:seats]]


def standings_csv(rep: Report) -> str:
    """``--standings-csv``: a row per entrant, ranked: rank, entrant, points, wins, losses,
    draws, byes, OMW, GW, OGW (fractions of 1, 4 decimals), and the openskill mu, sigma and
    ordinal (4 decimals), as the results file has them."""
    rated = {r.name: r for r in rep.ratings}
    rows: list[list[object]] = []
    for s in rep.standings:
        name = rep.names[s.entrant]
        r = rated[name]
        rows.append([s.rank, name, s.points, s.wins, s.losses, s.draws, s.byes,
                     f"{_pct(s.omw):.4f}", f"{_pct(s.gw):.4f}", f"{_pct(s.ogw):.4f}",
                     f"{round(r.mu, _PERCENT_PLACES):.4f}", f"{round(r.sigma, _PERCENT_PLACES):.4f}",
                     f"{round(r.ordinal, _PERCENT_PLACES):.4f}"])
    return _csv(["rank", "entrant", "points", "wins", "losses", "draws", "byes", "omw", "gw", "ogw",
                 "mu", "sigma", "ordinal"], rows)


def interim_lines(settings: TournamentSettings, rows: Sequence[GameRow], sprt: SprtResult | None) -> list[str]:
    """``--rating-interval``'s report on the first games in schedule order: with two entrants,
    their pair line (and the SPRT's); with more, a line per entrant (games, wins, losses,
    draws, score), the best score first. Names are escaped (``printable``)."""
    names = [e.name for e in settings.entrants]
    head = f"after {len(rows)} game{'s' if len(rows) != 1 else ''}:"
    if len(names) == 2:
        part = Played(settings, rows=list(rows))
        rep = Report(part)
        rep.played.sprt = sprt
        return [head, *(printable(line) for p in rep.pairs for line in pair_text(rep, p).split("\n"))]
    tally = {i: [0, 0, 0] for i in range(len(names))}
    for row in rows:
        for seat, entrant in enumerate(row.entrants):
            tally[entrant][2 if row.winner < 0 else 0 if row.winner == seat else 1] += 1
    width = max(len(printable(n)) for n in names)

    def score(entrant: int) -> float:
        won, lost, drawn = tally[entrant]
        return (won + drawn / 2) / (won + lost + drawn) if won + lost + drawn else 0.0

    lines = [head]
    for entrant in sorted(tally, key=lambda e: (-score(e), names[e])):
        won, lost, drawn = tally[entrant]
        lines.append(f"  {printable(names[entrant]):<{width}}  {won + lost + drawn:>5} games  {won}-{lost}-{drawn}  "
                     f"{100 * score(entrant):6.2f}%")
    return lines


def field_table(rep: Report) -> str:
    """With game pairs and more than two entrants: the rating list of the tournament's own games
    (``rating_list``: a Bradley-Terry Elo per entrant with a bootstrap interval drawn pair by
    pair, and openskill), as cutechess ends with a row per player; empty otherwise."""
    played = rep.played
    settings = played.settings
    if not settings.pairs or len(settings.entrants) <= 2 or not played.rows:
        return ""
    entrants = tuple(ListEntrant(e.name, e.bot, e.deck.name, tuple(sorted(e.deck.cards)))
                     for e in settings.entrants)
    pair_no = {at: i for i, at in enumerate(sorted({(r.round, r.match) for r in played.rows}))}
    games = tuple(ListGame(row.entrants[0], row.entrants[1],
                           0.5 if row.winner < 0 else 1.0 if row.winner == 0 else 0.0,
                           pair_no[(row.round, row.match)]) for row in played.rows)
    return format_rating_list(rating_list(ListGames(entrants, games, tournaments=1)))
