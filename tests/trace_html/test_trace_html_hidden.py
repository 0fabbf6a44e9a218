"""The page written ``--as bob`` holds nothing hidden from bob at that point: no name of a card
of alice's that bob had not been shown, in the page's embedded data or its text. What bob had
been shown is worked out from the raw JSON lines, as for ``trace show --as bob``
(``trace_helpers.hidden_from_bob``): the page of the trace cut after any record must hold
nothing hidden from bob at that record."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.trace import trace_helpers as helpers


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(game=st.integers(0, len(helpers.GAMES) - 1), where=st.floats(0.0, 1.0))
def test_as_bob_the_page_holds_nothing_hidden_from_bob(html_traces: list[Path], game: int,
                                                       where: float) -> None:
    path = html_traces[game]
    seq, hidden, _ = helpers.hidden_from_bob(path, where)
    with tempfile.TemporaryDirectory() as folder:
        cut = helpers.cut_trace(path, seq, Path(folder))
        page = Path(folder) / "bob.html"
        code, _, err = helpers.run_cli("trace", "html", str(cut), "-o", str(page), "--as", "bob")
        assert code == 0, err
        text = page.read_text(encoding="utf-8")
    assert '"viewer":"bob"' in text
    assert not helpers.leaked(hidden, text), f"seq {seq}: {helpers.leaked(hidden, text)}"


def test_the_full_page_names_what_the_page_as_bob_leaves_out(html_traces: list[Path],
                                                              tmp_path: Path) -> None:
    """The check above can fail: the page of everything names alice's hidden cards."""
    path = html_traces[0]
    seq, hidden, _ = helpers.hidden_from_bob(path, 0.1)
    assert hidden
    path = helpers.cut_trace(path, seq, tmp_path)
    full, bob = tmp_path / "full.html", tmp_path / "bob.html"
    assert helpers.run_cli("trace", "html", str(path), "-o", str(full))[0] == 0
    assert helpers.run_cli("trace", "html", str(path), "-o", str(bob), "--as", "bob")[0] == 0
    assert helpers.leaked(hidden, full.read_text(encoding="utf-8"))
    assert not helpers.leaked(hidden, bob.read_text(encoding="utf-8"))
