"""The example in docs/scenarios.md passes as written, uses the steps the doc shows it for,
and can fail."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from spellstack.cli import main
from spellstack.scenarios import run_scenario_file

DOC = Path(__file__).resolve().parents[2] / "docs" / "scenarios.md"
SPIDER_STAYS = "objects.spider.zone: expected 'exile', got 'battlefield'"


def _example() -> str:
    [text] = re.findall(r"```toml\n(.*?)```", DOC.read_text("utf-8"), re.S)
    return text


def test_the_example_uses_by_advance_attack_and_choose() -> None:
    steps = tomllib.loads(_example())["step"]
    for key in ("by", "advance", "attack", "choose", "resolve", "cast", "expect"):
        assert any(key in step for step in steps), key


def test_the_example_passes_as_the_doc_says(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "fiend-hunter.toml").write_text(_example(), "utf-8")
    monkeypatch.chdir(tmp_path)
    [command] = re.findall(r"```sh\n(.*?)\n```", DOC.read_text("utf-8"), re.S)
    assert command.split()[:3] == ["spellstack", "scenario", "run"]
    assert main(command.split()[1:]) == 0
    out = capsys.readouterr().out
    [said] = re.findall(r"It prints `(PASS [^`]*)`", DOC.read_text("utf-8"))
    assert out.splitlines()[0] == said


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('choose = ["spider", "yes"]', 'choose = ["bears", "yes"]', SPIDER_STAYS),
        ('choose = ["spider", "yes"]', 'choose = ["spider", "no"]', SPIDER_STAYS),
        ("alice = 18, bob = 18", "alice = 18, bob = 20", "life.bob: expected 20, got 18"),
    ],
)
def test_the_example_can_fail(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in _example()
    path = tmp_path / "changed.toml"
    path.write_text(_example().replace(old, new), "utf-8")
    result = run_scenario_file(path)
    assert result.status == "FAIL"
    assert message in result.message
