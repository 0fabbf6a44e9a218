"""tests/cards/pool.toml is an exact copy of the required pool, ../shared/cards/pool.toml."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
COPY = HERE / "pool.toml"
SHARED = HERE.parents[2] / "shared" / "cards" / "pool.toml"


def test_the_pool_copy_is_byte_for_byte_the_shared_pool() -> None:
    if not SHARED.is_file():
        pytest.skip(f"no shared folder beside the checkout ({SHARED} is absent): "
                    "nothing to compare tests/cards/pool.toml with")
    assert COPY.read_bytes() == SHARED.read_bytes(), (
        f"{COPY} differs from {SHARED}: copy the shared pool here again")
