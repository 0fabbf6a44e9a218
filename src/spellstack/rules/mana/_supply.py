"""What a seat's mana could pay for (``ManaSupply``): whether a cost is payable at all and the
largest X, without working out a payment (Hall's condition over the pool and sources).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product
from typing import Final

from ._payment import demand_sets, type_mask
from ._pool import check_pool
from ._sources import ManaSource
from ._symbols import PHYREXIAN_LIFE, TYPE_INDEX, ManaCost

# ------------------------------------------------------------------ payability


_PRODUCES_MASKS: Final[dict[tuple[str, ...], int]] = {}
"""Type masks of the ``ManaSource.produces`` tuples seen so far (all valid)."""


_Answers = tuple[dict[int, int], dict[int, tuple["ManaCost", dict[int, bool]]],
                 dict[int, tuple["ManaCost", int | None]]]
_SHARED_ANSWERS: Final[dict[tuple[object, ...], _Answers]] = {}
"""``ManaSupply`` memos (``_supply``, ``_memo``, ``_max_x``) by what the answers depend on: a
cache of pure answers, shared by every supply alike in it."""
_SHARED_LIMIT: Final = 1024
"""The most kinds of supply whose answers are kept (then they start afresh): ~2.8 kB each, so
~3 MB at most for the process (the bench's first 100 games make ~960 kinds, 1,000 games ~2,400)."""


class ManaSupply:
    """What a pool and a list of mana sources can pay: repeated "can this be paid?" questions
    (601.2g-h) about one player's mana, each answered once, without working out the payment.

    ``can_pay(cost, x)`` is exactly ``plan_payment(cost, x, pool, sources, life_available=...)
    is not None``, decided by Hall's condition instead of a matching search: the demands can all
    be met iff every set of them has enough mana able to pay one of them, and only the sets
    "every demand whose types lie within T" for T a union of demanded type masks need checking.
    Generic mana is met by any mana, so for it only the total counts.
    """

    __slots__ = ("_available", "_life", "_life_cap", "_max_x", "_memo", "_pool", "_sources", "_supply",
                 "_total", "_units", "_without")

    def __init__(self, pool: Mapping[str, int], sources: Sequence[ManaSource], *,
                 life_available: int | None = None) -> None:
        """Args: as for :func:`plan_payment` (``ValueError`` for an unknown mana type or a
        negative amount)."""
        check_pool(pool)
        units: dict[int, int] = {}
        for t, n in pool.items():
            if n:
                units[1 << TYPE_INDEX[t]] = units.get(1 << TYPE_INDEX[t], 0) + n
        for source in sources:
            mask = _PRODUCES_MASKS.get(source.produces)
            if mask is None:
                for mana in source.produces:
                    if mana not in TYPE_INDEX:
                        raise ValueError(f"source {source.source_id} produces unknown mana type "
                                         f"{mana!r}")
                mask = _PRODUCES_MASKS[source.produces] = type_mask(source.produces)
            if mask:
                units[mask] = units.get(mask, 0) + 1
        self._units = tuple(units.items())
        """(type mask, how many mana) for each kind of unit: pool mana by type, sources by what
        they make."""
        self._total = sum(units.values())
        """All the mana there is (any of it pays generic)."""
        self._available = len(sources) + sum(pool.values())
        """The bound ``_max_x`` searched X up to: every source and every pool mana."""
        self._life_cap = None if life_available is None else max(0, life_available) // PHYREXIAN_LIFE
        """How many Phyrexian symbols life may pay (119.4), None for any number."""
        # Every answer depends only on the units, the X bound and the life cap: supplies alike in
        # those (the same lands untapped, turn after turn and game after game) share them.
        key = (tuple(sorted(self._units)), self._available, self._life_cap)
        answers = _SHARED_ANSWERS.get(key)
        if answers is None:
            if len(_SHARED_ANSWERS) >= _SHARED_LIMIT:
                _SHARED_ANSWERS.clear()
            answers = _SHARED_ANSWERS[key] = ({}, {}, {})
        self._supply: dict[int, int] = answers[0]
        """Mana able to pay a demand of some type in the mask, by mask (memo)."""
        self._memo: dict[int, tuple[ManaCost, dict[int, bool]]] = answers[1]
        """Answers so far: by the cost's id (the entry keeps the cost, so the id stays its own; a
        cost's hash is slow to compute), the cost and its answers by X."""
        self._max_x: dict[int, tuple[ManaCost, int | None]] = answers[2]
        """``max_x`` answers so far, by the cost's id as ``_memo``."""
        self._pool = dict(pool)
        """The pool, for ``without``."""
        self._sources = tuple(sources)
        """The sources, for ``without``."""
        self._life = life_available
        """The life available, for ``without``."""
        self._without: dict[int, ManaSupply] = {}
        """``without`` answers so far, by source id."""

    def without(self, source_id: int) -> ManaSupply:
        """The supply less the source with this id (a permanent whose {T} is part of the cost,
        602.5a), or this supply if no source has it (0: none)."""
        if not source_id:
            return self
        found = self._without.get(source_id)
        if found is None:
            rest = [s for s in self._sources if s.source_id != source_id]
            found = self if len(rest) == len(self._sources) else ManaSupply(
                self._pool, rest, life_available=self._life)
            self._without[source_id] = found
        return found

    def _touching(self, mask: int) -> int:
        n = self._supply.get(mask)
        if n is None:
            n = self._supply[mask] = sum(k for m, k in self._units if m & mask)
        return n

    def _meets(self, demands: dict[int, int], generic: int) -> bool:
        """Hall's condition for ``demands`` (type mask -> how many) plus ``generic`` mana."""
        if sum(demands.values()) + generic > self._total:
            return False
        items = list(demands.items())
        if len(items) == 1:
            mask, n = items[0]
            return n <= self._touching(mask)
        for union, need in demand_sets(items):
            if need > self._touching(union):
                return False
        return True

    def can_pay(self, cost: ManaCost, x: int = 0) -> bool:
        """Whether the cost can be paid with X = ``x`` (``ValueError`` if ``x`` is negative)."""
        entry = self._memo.get(id(cost))
        if entry is None or entry[0] is not cost:
            entry = self._memo[id(cost)] = (cost, {})
        found = entry[1].get(x)
        if found is None:
            found = entry[1][x] = self._can_pay(cost, x)
        return found

    def _can_pay(self, cost: ManaCost, x: int) -> bool:
        if x < 0:
            raise ValueError(f"X must not be negative, got {x}")
        demands: dict[int, int] = {}
        generic = 0
        phyrexian: dict[int, int] = {}
        mono: dict[tuple[int, int], int] = {}
        for symbol in cost.symbols:
            if symbol.is_x:
                generic += x
            elif symbol.phyrexian:
                mask = type_mask(symbol.colors)
                phyrexian[mask] = phyrexian.get(mask, 0) + 1
            elif symbol.generic and symbol.colors:
                if symbol.generic == 1:
                    generic += 1  # {1/W} as {1} needs any one mana: never worse than W
                else:
                    key = (type_mask(symbol.colors), symbol.generic)
                    mono[key] = mono.get(key, 0) + 1
            elif symbol.colors:
                mask = type_mask(symbol.colors)  # one colour, or a hybrid pair (either pays)
                demands[mask] = demands.get(mask, 0) + 1
            else:
                generic += symbol.generic
        if not phyrexian and not mono:
            return self._meets(demands, generic)
        # As _Planner.feasible: as much life as allowed on Phyrexian symbols (it only frees
        # mana), every split of the monocolored hybrids between their two halves.
        n_phyrexian = sum(phyrexian.values())
        life_room = n_phyrexian if self._life_cap is None else min(n_phyrexian, self._life_cap)
        ph_groups = list(phyrexian.items())
        mono_groups = list(mono.items())
        for ph_life in product(*(range(n + 1) for _, n in ph_groups)):
            if sum(ph_life) != life_room:
                continue
            for mono_generic in product(*(range(n + 1) for _, n in mono_groups)):
                trial = dict(demands)
                owed = generic
                for (mask, n), paid_life in zip(ph_groups, ph_life, strict=True):
                    if n > paid_life:
                        trial[mask] = trial.get(mask, 0) + n - paid_life
                for ((mask, amount), n), as_generic in zip(mono_groups, mono_generic, strict=True):
                    if n > as_generic:
                        trial[mask] = trial.get(mask, 0) + n - as_generic
                    owed += amount * as_generic
                if self._meets(trial, owed):
                    return True
        return False

    def max_x(self, cost: ManaCost) -> int | None:
        """The largest X the cost can be paid with (0 for a cost without X), None if not even
        with X = 0."""
        entry = self._max_x.get(id(cost))
        if entry is not None and entry[0] is cost:
            return entry[1]
        found = self._find_max_x(cost)
        self._max_x[id(cost)] = (cost, found)
        return found

    def _find_max_x(self, cost: ManaCost) -> int | None:
        value = x_count = 0  # the mana value with X = 0 (202.3), in the same pass
        phyrexian = False
        for sym in cost.symbols:
            if sym.is_x:
                x_count += 1
            elif sym.phyrexian:
                phyrexian = True
                value += 1
            else:
                value += max(sym.generic, 1) if sym.colors else sym.generic
        # Every symbol but a Phyrexian one needs at least one mana: a cheap test first.
        if not phyrexian and value > self._available:
            return None
        if not self.can_pay(cost, 0):
            return None
        if not x_count:
            return 0
        lo, hi = 0, (self._available - value) // x_count
        while lo < hi:  # payable X values form a prefix 0..max: binary search it
            mid = (lo + hi + 1) // 2
            if self.can_pay(cost, mid):
                lo = mid
            else:
                hi = mid - 1
        return lo
