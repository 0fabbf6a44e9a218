"""The mutation check (``mutate.py``) stays able to run: every mutant's anchor occurs exactly
once in today's source, planting it changes the file, and an anchor that is missing or occurs
twice stops the check instead of planting nothing."""

from __future__ import annotations

import pytest

from tests.mutation.mutate import MUTANTS, ROOT, AnchorError, Mutant, Outcome, plant, table


def test_the_mutants_are_the_ten_named_ones() -> None:
    assert len({m.name for m in MUTANTS}) == len(MUTANTS) == 10
    assert {m.rule for m in MUTANTS} == {
        "704.5g",
        "704.5f",
        "704.5j",
        "608.2b",
        "613.7",
        "702.16e",
        "603.3b",
        "601.2h",
        "704.5k",
        "704.5i",
    }


@pytest.mark.parametrize("mutant", MUTANTS, ids=[m.name for m in MUTANTS])
def test_each_anchor_occurs_exactly_once_and_planting_changes_the_file(mutant: Mutant) -> None:
    source = (ROOT / mutant.path).read_text("utf-8")
    assert source.count(mutant.old) == 1, f"{mutant.name}: anchor not found once in {mutant.path}"
    planted = plant(source, mutant)
    assert planted != source
    assert planted.count(mutant.new) == source.count(mutant.new) + 1
    compile(planted, mutant.path, "exec")  # the planted bug is still Python


def test_a_missing_or_repeated_anchor_is_an_error() -> None:
    mutant = Mutant("m", "0", "test", "x.py", "a = 1", "a = 2")
    with pytest.raises(AnchorError, match=r"m: the anchor 'a = 1' occurs 0 times in x\.py"):
        plant("b = 1\n", mutant)
    with pytest.raises(AnchorError, match=r"occurs 2 times"):
        plant("a = 1\na = 1\n", mutant)
    assert plant("a = 1\n", mutant) == "a = 2\n"


def test_the_table_names_the_catching_tests_and_marks_a_mutant_nothing_caught() -> None:
    caught = Outcome(MUTANTS[0], ["tests.rules.test_x::test_y", "tests/scenarios/a.toml::a"], ["h1", "h2"])
    missed = Outcome(MUTANTS[1], [], ["h1"])
    text = table([caught, missed], hashes=True)
    assert "| 2: `test_x::test_y`, `a` | 2 recorded games differ |" in text
    assert "| **not caught** | 1 recorded game differs |" in text
