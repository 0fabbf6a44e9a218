"""Planning how to pay a cost (601.2g-h): which mana from the pool and which mana abilities, with
hybrid, Phyrexian and generic symbols (107.4e-f), as one ``Payment``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Final

from ._pool import check_pool
from ._sources import ManaSource
from ._symbols import COLORS, MANA_TYPES, PHYREXIAN_LIFE, TYPE_INDEX, ManaCost, ManaSymbol

# Generic costs take colorless mana from the pool first: coloured mana can pay
# more kinds of later costs in the same step, so it is the better to keep.
_POOL_GENERIC_ORDER: Final[tuple[int, ...]] = tuple(TYPE_INDEX[t] for t in ("C", *COLORS))

# ------------------------------------------------------------------------ payment


@dataclass(frozen=True, slots=True)
class Payment:
    """A complete plan to pay a cost."""

    from_pool: tuple[tuple[str, int], ...] = ()
    """Mana spent from the pool, sorted by ``MANA_TYPES`` order, zero entries omitted."""
    activations: tuple[tuple[int, str], ...] = ()
    """(source_id, mana type) for each source activated, in activation order."""
    life: int = 0
    """Life paid for Phyrexian symbols."""
    abilities: tuple[int, ...] = ()
    """For each of ``activations``, the ``ManaSource.ability`` it activates; empty when every
    one is 0 (each source's first mana ability whose only cost is {T})."""


# A choice symbol is settled into one of these options. Option values:
# a mana type index (pay with that colour), _GENERIC (pay the generic half of a
# monocolored hybrid) or _LIFE (pay 2 life for a Phyrexian symbol).
_GENERIC: Final = -1
_LIFE: Final = -2


def _options(symbol: ManaSymbol) -> tuple[int, ...]:
    """How a hybrid or Phyrexian symbol can be paid, in default preference order."""
    opts = [TYPE_INDEX[c] for c in symbol.colors]
    if symbol.generic:
        opts.append(_GENERIC)
    if symbol.phyrexian:
        opts.append(_LIFE)
    return tuple(opts)


def _option_for_entry(symbol: ManaSymbol, entry: str) -> int:
    if entry in symbol.colors:
        return TYPE_INDEX[entry]
    if symbol.generic and entry == str(symbol.generic):
        return _GENERIC
    if symbol.phyrexian and entry == "life":
        return _LIFE
    allowed = list(symbol.colors)
    if symbol.generic:
        allowed.append(str(symbol.generic))
    if symbol.phyrexian:
        allowed.append("life")
    raise ValueError(
        f"pay_as entry {entry!r} cannot pay {symbol}; expected one of "
        + ", ".join(repr(a) for a in allowed)
    )


def _matching(
    demands: Sequence[int],
    unit_masks: Sequence[int],
    capacity: Sequence[int] | None = None,
    *,
    all_or_nothing: bool = False,
) -> list[int]:
    """A maximum bipartite b-matching of demands to units of mana.

    Args:
        demands: For each demand, the bit mask of the mana types that can pay it.
        unit_masks: For each unit (a pool type or a source), the types it can give.
        capacity: How many demands each unit can take; 1 each if None.
        all_or_nothing: Stop at the first demand that cannot be matched, when
            only a complete matching is of interest.

    Returns:
        For each demand, the index of its unit, or -1 if it got none.
    """
    caps = capacity if capacity is not None else [1] * len(unit_masks)
    owner = [-1] * len(demands)
    holders: list[list[int]] = [[] for _ in unit_masks]

    def augment(d: int, visited: list[bool]) -> bool:
        # Augmenting path search (Kuhn); a full unit may still take the demand
        # if one of the demands it holds can move to another unit.
        for j, unit in enumerate(unit_masks):
            if visited[j] or not unit & demands[d]:
                continue
            visited[j] = True
            if len(holders[j]) < caps[j]:
                holders[j].append(d)
                owner[d] = j
                return True
            for k, other in enumerate(holders[j]):
                if augment(other, visited):
                    holders[j][k] = d
                    owner[d] = j
                    return True
        return False

    for d in range(len(demands)):
        if not augment(d, [False] * len(unit_masks)) and all_or_nothing:
            break
    return owner


def demand_sets(groups: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """For Hall's condition: for every non-empty set of demand groups (each a mask of the mana
    types that pay it and how many it is), the union of their masks and their total demand."""
    out: list[tuple[int, int]] = []
    for subset in range(1, 1 << len(groups)):
        union = need = 0
        for k, (mask, n) in enumerate(groups):
            if subset >> k & 1:
                union |= mask
                need += n
        out.append((union, need))
    return out


def type_mask(types: Sequence[str]) -> int:
    """A bit mask of mana types (``MANA_TYPES`` order)."""
    mask = 0
    for t in types:
        mask |= 1 << TYPE_INDEX[t]
    return mask


class _Planner:
    """Works out a :class:`Payment` for one call of :func:`plan_payment`."""

    __slots__ = (
        "_life_cap",
        "_pool",
        "_source_masks",
        "_sources",
        "_unit_capacity",
        "_unit_masks",
        "_usable",
    )

    def __init__(
        self, pool: Sequence[int], sources: Sequence[ManaSource], life_cap: int | None
    ) -> None:
        self._pool = pool
        self._sources = sources
        self._source_masks = [type_mask(s.produces) for s in sources]
        self._life_cap = life_cap
        # Units of mana: one per pool type (holding that many mana), then the sources.
        self._unit_masks = [1 << t for t in range(len(MANA_TYPES))] + self._source_masks
        self._unit_capacity = list(pool) + [1] * len(sources)
        # Every pool mana and every source that makes anything can pay generic.
        self._usable = sum(pool) + sum(1 for m in self._source_masks if m)

    # ------------------------------------------------------------------ choices

    def feasible(
        self, fixed: Sequence[int], generic: int, lives: int, free: Sequence[ManaSymbol]
    ) -> bool:
        """Whether some way of paying the ``free`` symbols makes the whole cost payable.

        Args:
            fixed: Type masks of the coloured demands already settled.
            generic: Generic mana already owed.
            lives: Phyrexian symbols already settled as life.
            free: Hybrid/Phyrexian symbols still unsettled.
        """
        if self._life_cap is not None and lives > self._life_cap:
            return False
        # Hybrid symbols without a non-mana alternative are plain demands with
        # two acceptable colours: the matching decides the colour.
        demands = list(fixed)
        phyrexian: dict[int, int] = {}
        mono: dict[tuple[int, int], int] = {}
        for symbol in free:
            mask = type_mask(symbol.colors)
            if symbol.phyrexian:
                phyrexian[mask] = phyrexian.get(mask, 0) + 1
            elif symbol.generic == 1:
                # {1/W} paid as {1} needs any one mana: never worse than W.
                generic += 1
            elif symbol.generic:
                mono[(mask, symbol.generic)] = mono.get((mask, symbol.generic), 0) + 1
            else:
                demands.append(mask)
        # Paying life for a Phyrexian symbol only frees mana, so use as much life
        # as allowed and enumerate only which symbols get the life; for {2/W}-style
        # symbols neither half dominates, so enumerate how many take each.
        n_phyrexian = sum(phyrexian.values())
        life_room = n_phyrexian if self._life_cap is None else self._life_cap - lives
        life_room = max(0, min(n_phyrexian, life_room))
        ph_groups = list(phyrexian.items())
        mono_groups = list(mono.items())
        ph_ranges = [range(count + 1) for _, count in ph_groups]
        mono_ranges = [range(count + 1) for _, count in mono_groups]
        for ph_life in product(*ph_ranges):
            if sum(ph_life) != life_room:
                continue
            for mono_generic in product(*mono_ranges):
                trial = list(demands)
                owed = generic
                for (mask, count), paid_life in zip(ph_groups, ph_life, strict=True):
                    trial.extend([mask] * (count - paid_life))
                for ((mask, amount), count), as_generic in zip(
                    mono_groups, mono_generic, strict=True
                ):
                    trial.extend([mask] * (count - as_generic))
                    owed += amount * as_generic
                if len(trial) + owed <= self._usable and self._match_all(trial):
                    return True
        return False

    def _match_all(self, demands: list[int]) -> bool:
        """Whether every demand gets its own mana: Hall's condition (as ``ManaSupply``)."""
        counts: dict[int, int] = {}
        for mask in demands:
            counts[mask] = counts.get(mask, 0) + 1
        for union, need in demand_sets(list(counts.items())):
            have = sum(c for m, c in zip(self._unit_masks, self._unit_capacity, strict=True) if m & union)
            if need > have:
                return False
        return True

    # ------------------------------------------------------------------ payment

    def pay(self, demand: Sequence[int], generic: int, life: int) -> Payment | None:
        """The preferred payment of fixed demands, or None.

        Args:
            demand: How many mana of each type (by ``MANA_TYPES`` index) are owed.
            generic: Generic mana owed.
            life: Life owed.
        """
        # Pool mana first (601.2g-h: it is there anyway). Pool mana of a type
        # best pays demands of that type; what is left pays generic, C first.
        # This uses the most pool mana possible: any payment can be rearranged
        # this way without needing more from sources.
        use = [min(p, d) for p, d in zip(self._pool, demand, strict=True)]
        rest = [d - u for d, u in zip(demand, use, strict=True)]
        for t in _POOL_GENERIC_ORDER:
            take = min(self._pool[t] - use[t], generic)
            use[t] += take
            generic -= take
        chosen = self._choose_sources(rest, generic)
        if chosen is None:
            return None
        from_pool = tuple((MANA_TYPES[t], n) for t, n in enumerate(use) if n)
        sources = self._sources
        activations = tuple((sources[i].source_id, mana) for i, mana in chosen)
        abilities = tuple(sources[i].ability for i, _ in chosen)
        return Payment(from_pool=from_pool, activations=activations, life=life,
                       abilities=abilities if any(abilities) else ())

    def _choose_sources(self, rest: list[int], generic: int) -> tuple[tuple[int, str], ...] | None:
        """Activations paying ``rest`` coloured and ``generic`` generic mana, or None: (index in
        the sources, mana type) for each.

        Every plan activates exactly ``sum(rest) + generic`` sources; this picks
        the one whose sources come earliest (lexicographically smallest list of
        positions) by keeping each source, in order, whenever some plan still
        exists that uses it together with the sources kept so far.
        """
        needed = sum(rest) + generic
        if needed == 0:
            return ()
        masks = self._source_masks
        if all(not m & (m - 1) for m in masks):
            return self._choose_single(rest, generic, needed)
        demands = [1 << t for t, n in enumerate(rest) for _ in range(n)]
        usable = [m for m in masks if m]
        if len(usable) < needed:
            return None
        # The size of a maximum matching of the coloured demands to some sources is, by
        # Hall's theorem, the number of demands less the largest deficit over the sets T of
        # demanded types: (demands of a type in T) - (those sources that make a type in T).
        groups = [(1 << t, n) for t, n in enumerate(rest) if n]
        sets = demand_sets(groups)  # (T, demands of a type in T)

        def unmatched(touching: list[int]) -> int:
            return max([0, *(need - t for (_, need), t in zip(sets, touching, strict=True))])

        if unmatched([sum(1 for m in usable if m & union) for union, _ in sets]):
            return None
        # Invariant: before looking at source i, a plan exists that activates
        # all of ``chosen`` and otherwise only sources from i on.
        chosen: list[int] = []
        touching = [0] * len(sets)  # for each T, the chosen sources that make a type in T
        for i, mask in enumerate(masks):
            if len(chosen) == needed:
                break
            if not mask:
                continue
            trial = [t + 1 if mask & union else t for t, (union, _) in zip(touching, sets, strict=True)]
            # The union of ``chosen + [i]`` and the later sources is the one the
            # invariant says can pay. A plan through all of ``chosen + [i]`` then exists
            # iff its coloured demands not matched inside it fit in the
            # slots still free: the later sources complete a maximum matching of
            # it by augmenting paths, which never unmatch a source.
            if len(chosen) + 1 + unmatched(trial) <= needed:
                chosen.append(i)
                touching = trial
        assert len(chosen) == needed, "the invariant guarantees a complete plan"
        return self._assign(demands, chosen)

    def _choose_single(self, rest: list[int], generic: int, needed: int) -> tuple[tuple[int, str], ...] | None:
        """``_choose_sources`` when every source makes one type of mana (basic lands): keeping
        each source, in order, that pays a colour still owed or, failing that, generic mana
        still owed is then the same plan. (Taking it always leaves a plan: one that used a later
        source of its type for the colour, or any later source for generic, can use it instead;
        one that pays neither would need more generic payers than there is generic mana.)"""
        owed = list(rest)
        chosen: list[tuple[int, str]] = []
        for i, mask in enumerate(self._source_masks):
            if not mask:
                continue
            t = mask.bit_length() - 1
            if owed[t]:
                owed[t] -= 1
            elif generic:
                generic -= 1
            else:
                continue
            chosen.append((i, MANA_TYPES[t]))
            if len(chosen) == needed:
                return tuple(chosen)
        return None

    def _assign(self, demands: list[int], chosen: list[int]) -> tuple[tuple[int, str], ...]:
        """Which type each chosen source (by index) adds: its matched colour, else its first
        type."""
        owners = _matching(demands, [self._source_masks[j] for j in chosen])
        made: dict[int, str] = {}
        for d, k in enumerate(owners):
            made[k] = MANA_TYPES[demands[d].bit_length() - 1]
        result: list[tuple[int, str]] = []
        for k, j in enumerate(chosen):
            result.append((j, made.get(k, self._sources[j].produces[0])))
        return tuple(result)


def plan_payment(
    cost: ManaCost,
    x: int,
    pool: Mapping[str, int],
    sources: Sequence[ManaSource],
    *,
    pay_as: Sequence[str] | None = None,
    life_available: int | None = None,
) -> Payment | None:
    """Plan how to pay a mana cost (601.2f total cost, 601.2g mana abilities, 601.2h payment).

    Each source is one mana ability, activated at most once for one mana of a type
    it produces. The plan is exact: it finds a payment whenever one exists.

    Choices, in priority order:

    1. Hybrid and Phyrexian symbols (107.4e, 107.4f) are settled in written order.
       With ``pay_as`` each takes the given half. Otherwise each takes its first
       option, in the order colours as written, then the generic half of a
       monocolored hybrid, then 2 life, that still leaves the whole cost payable.
       So ``{G/W}`` is paid with G whenever that works, and a Phyrexian symbol
       with mana whenever that works.
    2. Then pool mana is used as much as possible (it is there anyway), pool mana
       of a demanded colour for that colour and the rest for generic, colorless first.
    3. Then the fewest sources are activated, the earliest ones in ``sources``
       order (the caller's order: lands first, then other permanents).

    Args:
        cost: The total cost, additional costs included.
        x: The value of X; each ``{X}`` costs ``x`` generic mana (107.3).
        pool: Mana in the player's pool, by type.
        sources: Mana abilities the payment may activate, in preference order.
        pay_as: One entry per hybrid or Phyrexian symbol of ``cost``, in order: a
            colour of the symbol, the generic number of a ``{2/W}`` symbol (``"2"``)
            or ``"life"`` for a Phyrexian symbol. None, or an empty sequence, lets the
            planner choose as above.
        life_available: If not None, life paid for Phyrexian symbols may not exceed
            it (119.4: life can be paid only up to the life total).

    Returns:
        The payment, or None if the cost cannot be paid.

    Raises:
        ValueError: If ``x`` is negative, the pool or a source names an unknown
            mana type, or ``pay_as`` has the wrong length or an entry that does not
            fit its symbol.
    """
    if x < 0:
        raise ValueError(f"X must not be negative, got {x}")
    check_pool(pool)
    for source in sources:
        for mana in source.produces:
            if mana not in TYPE_INDEX:
                raise ValueError(f"source {source.source_id} produces unknown mana type {mana!r}")

    # Split the cost into settled demands and the symbols that offer a choice.
    demand = [0] * len(MANA_TYPES)
    generic = 0
    choice_symbols: list[ManaSymbol] = []
    for symbol in cost.symbols:
        if symbol.is_x:
            generic += x
        elif symbol.is_hybrid or symbol.phyrexian:
            choice_symbols.append(symbol)
        elif symbol.colors:
            demand[TYPE_INDEX[symbol.colors[0]]] += 1
        else:
            generic += symbol.generic

    life_cap = None if life_available is None else max(0, life_available) // PHYREXIAN_LIFE
    planner = _Planner([pool.get(t, 0) for t in MANA_TYPES], sources, life_cap)

    if pay_as:
        if len(pay_as) != len(choice_symbols):
            raise ValueError(
                f"pay_as has {len(pay_as)} entries but {cost} has "
                f"{len(choice_symbols)} hybrid or Phyrexian symbols"
            )
        choices = [
            _option_for_entry(symbol, entry)
            for symbol, entry in zip(choice_symbols, pay_as, strict=True)
        ]
    elif choice_symbols:
        found = _default_choices(planner, demand, generic, choice_symbols)
        if found is None:
            return None
        choices = found
    else:
        # Nothing to settle: ``pay`` finds a payment exactly when one exists (it uses the pool
        # as much as any payment can), so no feasibility test first.
        choices = []

    lives = 0
    for symbol, option in zip(choice_symbols, choices, strict=True):
        if option == _LIFE:
            lives += 1
        elif option == _GENERIC:
            generic += symbol.generic
        else:
            demand[option] += 1
    if life_cap is not None and lives > life_cap:
        return None
    return planner.pay(demand, generic, lives * PHYREXIAN_LIFE)


def _default_choices(
    planner: _Planner, demand: list[int], generic: int, symbols: Sequence[ManaSymbol]
) -> list[int] | None:
    """Settle each symbol to its first option that leaves the cost payable, or None."""
    fixed = [1 << t for t, n in enumerate(demand) for _ in range(n)]
    lives = 0
    if not planner.feasible(fixed, generic, lives, symbols):
        return None
    choices: list[int] = []
    for i, symbol in enumerate(symbols):
        rest = symbols[i + 1 :]
        options = _options(symbol)
        for n, option in enumerate(options):
            last = n == len(options) - 1
            if option == _LIFE:
                # Feasibility so far guarantees the last option works; no need to test it.
                if last or planner.feasible(fixed, generic, lives + 1, rest):
                    lives += 1
                    break
            elif option == _GENERIC:
                if last or planner.feasible(fixed, generic + symbol.generic, lives, rest):
                    generic += symbol.generic
                    break
            elif last or planner.feasible([*fixed, 1 << option], generic, lives, rest):
                fixed.append(1 << option)
                break
        choices.append(option)
    return choices
