"""The game's one seeded random generator, as plain data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeVar

_MASK: Final = (1 << 64) - 1
_SPAN: Final = 1 << 64
_GOLDEN: Final = 0x9E3779B97F4A7C15
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB
T = TypeVar("T")


@dataclass(slots=True)
class GameRandom:
    """SplitMix64: tiny, fast, and its whole state is one integer, so it hashes and copies with the game."""

    state: int
    """The generator's 64-bit state."""

    @classmethod
    def from_seed(cls, seed: int) -> GameRandom:
        """A generator for this seed (any integer)."""
        return cls(seed & _MASK)

    def next_u64(self) -> int:
        """The next 64-bit output."""
        z = self.state = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection so there is no modulo bias."""
        if n <= 0:
            raise ValueError(f"below({n}): n must be positive")
        limit = _SPAN - _SPAN % n
        while True:
            v = self.next_u64()
            if v < limit:
                return v % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place (701.20a: a random order): for each place from the
        last, ``below(place + 1)``, written out here (every game shuffles its libraries at the
        start and again at each mulligan; the state is written back once)."""
        z = state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - _SPAN % n
            while True:
                z = state = (state + _GOLDEN) & _MASK
                z = ((z ^ (z >> 30)) * _MIX1) & _MASK
                z = ((z ^ (z >> 27)) * _MIX2) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        """One item, uniformly."""
        return items[self.below(len(items))]
