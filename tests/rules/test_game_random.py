"""The game's generator (``GameRandom``): SplitMix64, uniform draws without modulo bias, and a
Fisher-Yates shuffle written out over the same draws."""

from __future__ import annotations

import pytest

from spellstack.rules.base import GameRandom

_MASK = (1 << 64) - 1


def _splitmix64(state: int) -> tuple[int, int]:
    """The next state and output of SplitMix64, as its reference states it."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def test_the_outputs_are_splitmix64_s() -> None:
    rng = GameRandom.from_seed(1234567)
    state = 1234567
    for _ in range(1000):
        state, out = _splitmix64(state)
        assert rng.next_u64() == out and rng.state == state
    # Its published first output for seed 0.
    assert GameRandom.from_seed(0).next_u64() == 0xE220A8397B1DCDAF


@pytest.mark.parametrize("seed", [0, 1, 7, 2**63 + 5, -3])
def test_a_shuffle_is_fisher_yates_over_below_from_the_last_place(seed: int) -> None:
    for size in (0, 1, 2, 3, 7, 40, 60, 61):
        shuffled, drawn = GameRandom.from_seed(seed), GameRandom.from_seed(seed)
        items = list(range(size))
        expected = list(range(size))
        shuffled.shuffle(items)
        for i in range(size - 1, 0, -1):
            j = drawn.below(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        assert items == expected
        assert shuffled.state == drawn.state  # the same draws, rejections included


def test_below_rejects_the_draws_that_would_bias_it() -> None:
    # n = 3 * 2**62: 2**64 % n = 2**62, so outputs at or past 3 * 2**62 are drawn again.
    n = 3 << 62
    for seed in range(200):
        rng, state = GameRandom.from_seed(seed), seed & _MASK
        while True:
            state, out = _splitmix64(state)
            if out < n:
                break
        assert rng.below(n) == out % n and rng.state == state
    with pytest.raises(ValueError, match=r"below\(0\): n must be positive"):
        GameRandom.from_seed(1).below(0)
