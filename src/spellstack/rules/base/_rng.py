"""The game's one seeded random generator, as plain data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

_MASK = (1 << 64) - 1
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
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection so there is no modulo bias."""
        if n <= 0:
            raise ValueError(f"below({n}): n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.next_u64()
            if v < limit:
                return v % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place (701.20a: a random order)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        """One item, uniformly."""
        return items[self.below(len(items))]
