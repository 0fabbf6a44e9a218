"""``spellstack trace html``: one self-contained page (nothing fetched), its data the account's
lines with their payloads and views, the command's errors."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

from spellstack.trace import ShowOptions, TraceQueryError, page_data, read_trace, show_trace, trace_html
from tests.trace import trace_helpers as helpers


def _data(page: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="trace-data">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, object] = orjson.loads(found.group(1))
    return data


@pytest.mark.slow
def test_the_page_is_self_contained(html_traces: list[Path]) -> None:
    page = trace_html(read_trace(html_traces[0]))
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", page)
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", page)
    assert page.count("<script") == 2 and page.count("<style>") == 1


def test_the_data_holds_the_account(html_traces: list[Path]) -> None:
    trace = read_trace(html_traces[1])
    data = _data(trace_html(trace))
    lines = show_trace(trace)
    rows = data["lines"]
    assert isinstance(rows, list) and len(rows) == len(lines)
    assert [r[7] for r in rows] == [ln.text for ln in lines]
    assert data["players"] == ["alice", "bob"]
    views = data["views"]
    assert isinstance(views, list) and len(views) == sum(ln.view is not None for ln in lines)
    payloads = data["payloads"]
    assert isinstance(payloads, list)
    for row, payload in zip(rows, payloads, strict=True):
        assert (payload is None) == (row[6] == "fold")


def test_as_a_player_the_lines_are_numbered_from_1(html_traces: list[Path]) -> None:
    trace = read_trace(html_traces[0])
    data = page_data(trace, "bob").data
    assert [r[0] for r in data["lines"]] == [str(i) for i in range(1, len(data["lines"]) + 1)]
    assert len(data["lines"]) == len(show_trace(trace, ShowOptions(as_player="bob")))
    assert {v["seat"] for v in data["views"]} == {1}
    # no record's seq is in a payload: the payloads of the lines are bob's or public
    for p in data["payloads"]:
        if p is not None:
            assert "seq" not in p
            assert p["receiver"] in ("player:bob", "tracer", "coordinator") or p["sender"] == "player:bob"


def test_the_life_chart_follows_the_life_events(html_traces: list[Path]) -> None:
    trace = read_trace(html_traces[0])
    life = page_data(trace).data["life"]
    # seed 1: alice wins on poison; bob's poison climbs to 10 or more
    assert life[-1][2][1] >= 10
    assert all(0 <= p[0] for p in life) and [p[0] for p in life] == sorted({p[0] for p in life})


def test_script_data_cannot_close_its_element() -> None:
    from spellstack.trace._html import _script_json

    text = _script_json({"x": "</script><!-- \u2028"})
    assert "<" not in text and "\u2028" not in text
    assert orjson.loads(text) == {"x": "</script><!-- \u2028"}


def test_an_unknown_player_is_refused(html_traces: list[Path], tmp_path: Path) -> None:
    with pytest.raises(TraceQueryError, match="--as carol: no such player"):
        trace_html(read_trace(html_traces[0]), "carol")
    code, _, err = helpers.run_cli("trace", "html", str(html_traces[0]), "-o", str(tmp_path / "p.html"),
                                   "--as", "carol")
    assert code == 2 and "no such player" in err
    assert not (tmp_path / "p.html").exists()


def test_bad_output_paths_are_one_line_errors(html_traces: list[Path], tmp_path: Path) -> None:
    code, _, err = helpers.run_cli("trace", "html", str(html_traces[0]), "-o", str(tmp_path))
    assert code == 2 and "is a folder" in err
    code, _, err = helpers.run_cli("trace", "html", str(html_traces[0]), "-o", str(tmp_path / "no" / "p.html"))
    assert code == 2 and "no such folder" in err
    code, out, _ = helpers.run_cli("trace", "html", str(html_traces[0]), "-o", str(tmp_path / "p.html"))
    assert code == 0 and "wrote" in out and (tmp_path / "p.html").stat().st_size > 10_000


def test_the_choices_before_the_game_are_turn_0(match_trace: Path) -> None:
    rows = page_data(read_trace(match_trace)).data["lines"]
    chosen = next(i for i, row in enumerate(rows) if row[6] == "starting_player")
    first_turn = next(i for i, row in enumerate(rows) if row[1] == 1)
    assert all(row[1] == 0 and row[9] == 0 for row in rows[:first_turn])
    assert {row[2] for row in rows[:chosen + 1]} == {"starting_player"}
    assert {row[2] for row in rows[chosen + 1:first_turn]} == {"opening_hands_and_mulligans"}
    assert rows[first_turn][3] == 1  # bob, who took the first turn


@pytest.mark.slow
def test_a_step_row_carries_its_step_change_and_a_folded_row_its_passes(html_traces: list[Path]) -> None:
    trace = read_trace(html_traces[0])
    rows = page_data(trace).data["lines"]
    assert next(r[9] for r in rows if r[2] == "precombat_main" and r[1] == 1) == 5
    unfolded = {ln.seq: ln for ln in show_trace(trace, ShowOptions(unfold=True))}
    folds = [r for r in rows if r[6] == "fold"]
    assert folds and all(r[10] for r in folds) and not any(r[10] for r in rows if r[6] != "fold")
    for r in folds:
        first, last = map(int, r[0].split("-")) if "-" in r[0] else (int(r[0]), int(r[0]))
        held = [s for s in range(first, last + 1) if s in unfolded]
        assert [sub[0] for sub in r[10]] == [str(s) for s in held]
        assert [sub[3] for sub in r[10]] == [unfolded[s].text for s in held]
        assert all(sub[2] == "pass" for sub in r[10])


def test_as_a_player_folded_passes_carry_no_record_number(html_traces: list[Path]) -> None:
    rows = page_data(read_trace(html_traces[0]), "bob").data["lines"]
    subs = [sub for r in rows for sub in r[10]]
    assert subs and all(sub[0] == "" for sub in subs)
    assert all(r[9] == 0 for r in rows)
    assert any(sub[3] == "alice passes" for sub in subs)


def _off_battlefield(data: dict[str, object]) -> list[list[object]]:
    """Every object the page's views show in a hand, a graveyard or exile."""
    views = data["views"]
    assert isinstance(views, list)
    return [o for v in views for o in [*v["hand"], *v["exile"], *(o for p in v["players"] for o in p["graveyard"])]]


def test_cards_off_the_battlefield_have_their_printed_power_and_toughness(html_traces: list[Path]) -> None:
    data = dict(page_data(read_trace(html_traces[0])).data)
    objects = _off_battlefield(data)
    # seed 1: Serra Angel and Elvish Visionary reach a graveyard (the view says 0/0 there)
    angels = [o for o in objects if o[1] == "Serra Angel"]
    assert angels and all(o[5:7] == [4, 4] for o in angels)
    assert all(o[5:7] == [1, 1] for o in objects if o[1] == "Elvish Visionary")
    # no creature card off the battlefield is 0/0 (none in these decks is printed so)
    assert not [o for o in objects if "Creature" in o[3] and o[5:7] == [0, 0]]
    # an instant has no P/T
    assert all(o[5:7] == [None, None] for o in objects if o[1] == "Shock")


def test_the_page_has_each_shown_card_printed_once(html_traces: list[Path]) -> None:
    data = page_data(read_trace(html_traces[0])).data
    cards = data["cards"]
    assert cards["Serra Angel"] == {"cost": "{3}{W}{W}", "type": "Creature — Angel", "pt": "4/4",
                                    "text": "Flying, vigilance"}
    assert cards["Mountain"] == {"cost": "", "type": "Basic Land — Mountain", "pt": "", "text": "({T}: Add {R}.)"}
    shown = {o[1] for v in data["views"] for o in [*v["battlefield"], *v["hand"], *v["exile"],
                                                   *(o for p in v["players"] for o in p["graveyard"])]}
    shown |= {s[1] for v in data["views"] for s in v["stack"]}
    assert set(cards) == shown - {""}


def test_as_a_player_the_card_table_holds_only_what_it_was_shown(html_traces: list[Path], tmp_path: Path) -> None:
    path = html_traces[0]
    seq, hidden, _ = helpers.hidden_from_bob(path, 0.1)
    cut = helpers.cut_trace(path, seq, tmp_path)
    cards = page_data(read_trace(cut), "bob").data["cards"]
    assert cards and not set(cards) & hidden
    # the check can fail: the page of everything has alice's hidden cards in its table
    assert set(page_data(read_trace(cut)).data["cards"]) & hidden


def test_the_readme_s_picture_of_the_page_is_under_200_kb() -> None:
    picture = Path(__file__).resolve().parents[2] / "docs" / "images" / "trace-html.png"
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and picture.stat().st_size < 200_000
