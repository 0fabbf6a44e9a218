"""Mana: symbols, costs, pools and planning how to pay a cost.

Covers mana symbols (107.4), X (107.3), mana value (202.3), colour from a
mana cost (105.2, 202.2), mana and mana pools (106) and the cost
determination and payment steps of casting (601.2f, 601.2g, 601.2h).

Everything here is pure data and pure functions: costs and symbols are
immutable, and pools are plain ``dict[str, int]`` values that functions
return fresh rather than mutate.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from itertools import product

__all__ = [
    "COLORS",
    "MANA_TYPES",
    "ManaCost",
    "ManaCostSyntaxError",
    "ManaSource",
    "ManaSupply",
    "ManaSymbol",
    "Payment",
    "add_mana",
    "format_pool",
    "parse_mana_cost",
    "parse_pool",
    "plan_payment",
    "spend",
]

COLORS: tuple[str, ...] = ("W", "U", "B", "R", "G")
"""The five colours (105.1), in WUBRG order."""

MANA_TYPES: tuple[str, ...] = ("W", "U", "B", "R", "G", "C")
"""The six types of mana (106.1): the five colours and colorless."""

_TYPE_INDEX: dict[str, int] = {t: i for i, t in enumerate(MANA_TYPES)}

# Generic costs take colorless mana from the pool first: coloured mana can pay
# more kinds of later costs in the same step, so it is the better to keep.
_POOL_GENERIC_ORDER: tuple[int, ...] = tuple(_TYPE_INDEX[t] for t in ("C", *COLORS))

_PHYREXIAN_LIFE = 2
"""107.4f: each Phyrexian symbol may be paid with 2 life instead of mana."""


class ManaCostSyntaxError(ValueError):
    """Malformed mana text; the message quotes the text and the position of the fault."""

    def __init__(
        self, message: str, *, text: str | None = None, position: int | None = None
    ) -> None:
        super().__init__(message)
        self.text = text
        """The whole text being parsed, when known."""
        self.position = position
        """0-based index of the offending character in ``text``, when known."""


def _syntax_error(text: str, position: int, what: str, why: str = "") -> ManaCostSyntaxError:
    message = f"{what} at position {position} in {text!r}"
    if why:
        message += f": {why}"
    return ManaCostSyntaxError(message, text=text, position=position)


@dataclass(frozen=True, slots=True)
class ManaSymbol:
    """One mana symbol of a cost (107.4).

    The kinds, and how they are represented:

    * generic ``{N}`` (107.4b): ``generic=N``, no colours;
    * coloured ``{W}`` (107.4a) and colorless ``{C}`` (107.4c): one entry in ``colors``;
    * hybrid ``{G/W}`` (107.4e): two colours, in the order written;
    * monocolored hybrid ``{2/W}`` (107.4e): ``generic=2`` and one colour, payable by
      either that colour or ``generic`` mana of any type;
    * Phyrexian ``{U/P}`` and Phyrexian hybrid ``{G/W/P}`` (107.4f): ``phyrexian=True``,
      payable by one of its colours or 2 life;
    * ``{X}`` (107.3): ``is_x=True``, paid as X generic mana.
    """

    generic: int = 0
    """Generic amount: N for ``{N}``, the number half for ``{2/W}``, 0 otherwise."""
    colors: tuple[str, ...] = ()
    """Mana types that can pay it, in the order written; ``("C",)`` for ``{C}``."""
    phyrexian: bool = False
    """Whether 2 life may be paid instead of mana (107.4f)."""
    is_x: bool = False
    """Whether this is ``{X}`` (107.3)."""

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem:
            raise ValueError(f"invalid mana symbol {self!r}: {problem}")

    def _problem(self) -> str:
        """What makes the fields inconsistent, or "" when they describe a real symbol."""
        if self.generic < 0:
            return "generic amount is negative"
        if self.is_x:
            if self.generic or self.colors or self.phyrexian:
                return "{X} has no generic amount, colours or Phyrexian mark"
            return ""
        if not self.colors:
            return "a Phyrexian symbol needs a colour" if self.phyrexian else ""
        if self.colors == ("C",):
            if self.generic or self.phyrexian:
                return "{C} cannot be hybrid or Phyrexian"
            return ""
        if any(c not in COLORS for c in self.colors):
            return f"colours must be among {''.join(COLORS)}"
        if len(self.colors) > 2:
            return "at most two colours"
        if len(set(self.colors)) != len(self.colors):
            return "a hybrid symbol cannot repeat a colour"
        if self.generic and (len(self.colors) != 1 or self.phyrexian):
            return "a generic half combines with exactly one colour and no Phyrexian mark"
        return ""

    @property
    def is_hybrid(self) -> bool:
        """Whether it offers a choice between two halves (107.4e), ``{G/W}`` or ``{2/W}``."""
        return len(self.colors) == 2 or (self.generic > 0 and len(self.colors) == 1)

    def mana_value(self, x: int = 0) -> int:
        """This symbol's share of a mana value (202.3).

        Args:
            x: The value of X.

        Returns:
            ``x`` for ``{X}``; the larger half of a hybrid symbol; 1 for a Phyrexian
            symbol; N for ``{N}``; 1 for any other symbol.
        """
        if self.is_x:
            return x
        if self.phyrexian:
            return 1
        if self.colors:
            return max(self.generic, 1)
        return self.generic

    def __str__(self) -> str:
        if self.is_x:
            return "{X}"
        parts: list[str] = []
        if self.generic or not self.colors:
            parts.append(str(self.generic))
        parts.extend(self.colors)
        if self.phyrexian:
            parts.append("P")
        return "{" + "/".join(parts) + "}"


@dataclass(frozen=True, slots=True)
class ManaCost:
    """A mana cost: a sequence of mana symbols (107.4, 202.1), kept in written order."""

    symbols: tuple[ManaSymbol, ...] = ()
    """The symbols as written; empty for no cost."""

    def mana_value(self, x: int = 0) -> int:
        """The mana value (202.3).

        Args:
            x: The value of X: the announced value while on the stack, 0 elsewhere.

        Returns:
            The total: X counts ``x``, a hybrid symbol its largest half, a Phyrexian
            symbol 1.

        Raises:
            ValueError: If ``x`` is negative.
        """
        if x < 0:
            raise ValueError(f"X must not be negative, got {x}")
        return sum(symbol.mana_value(x) for symbol in self.symbols)

    def colors(self) -> frozenset[str]:
        """The colours the cost gives its object (105.2, 202.2); colorless ``{C}`` is no colour."""
        return frozenset(c for symbol in self.symbols for c in symbol.colors if c in COLORS)

    @property
    def has_x(self) -> bool:
        """Whether the cost contains ``{X}`` (107.3)."""
        return any(symbol.is_x for symbol in self.symbols)

    def __str__(self) -> str:
        return "".join(str(symbol) for symbol in self.symbols)

    def __add__(self, other: ManaCost) -> ManaCost:
        """The total of two costs, as when adding an additional cost (601.2f).

        Symbols are concatenated, not merged, so that ``pay_as`` entries for the
        sum are this cost's hybrid/Phyrexian symbols followed by ``other``'s.
        """
        if not isinstance(other, ManaCost):
            return NotImplemented
        return ManaCost(self.symbols + other.symbols)


def _parse_symbol_body(body: str) -> ManaSymbol | str:
    """The symbol for the text between braces, or why it is not one."""
    if body != body.upper():
        return "mana symbols are written in upper case"
    parts = body.split("/")
    if len(parts) == 1:
        (part,) = parts
        if part == "X":
            return ManaSymbol(is_x=True)
        if part in MANA_TYPES:
            return ManaSymbol(colors=(part,))
        if _is_number(part):
            return ManaSymbol(generic=int(part))
        if part.isascii() and part.isdigit():
            return "numbers are written without leading zeros"
        return "not a mana symbol"
    if len(parts) == 2:
        first, second = parts
        if second == "P":
            if first in COLORS:
                return ManaSymbol(colors=(first,), phyrexian=True)
            return "Phyrexian mana needs one of the colours WUBRG before /P"
        if _is_number(first) and first != "0":
            if second in COLORS:
                return ManaSymbol(generic=int(first), colors=(second,))
            return "a monocolored hybrid symbol needs one of the colours WUBRG after the number"
        if first in COLORS and second in COLORS:
            if first == second:
                return "a hybrid symbol needs two different colours"
            return ManaSymbol(colors=(first, second))
        return "hybrid halves must be two colours, or a positive number then a colour"
    if len(parts) == 3:
        first, second, third = parts
        if third == "P" and first in COLORS and second in COLORS and first != second:
            return ManaSymbol(colors=(first, second), phyrexian=True)
        return "a Phyrexian hybrid symbol is two different colours then P"
    return "too many halves"


def _is_number(text: str) -> bool:
    # ASCII digits only, and no leading zeros, so that every accepted text is
    # canonical and str(parse_mana_cost(t)) == t.
    return (
        text != ""
        and all("0" <= ch <= "9" for ch in text)
        and (text == "0" or not text.startswith("0"))
    )


def _iter_braced(text: str) -> Iterator[tuple[int, str]]:
    """Each ``{...}`` group of ``text`` as (position of its brace, body); nothing else allowed."""
    i = 0
    while i < len(text):
        if text[i] != "{":
            raise _syntax_error(
                text, i, f"unexpected {text[i]!r}", "every mana symbol is enclosed in braces"
            )
        j = i + 1
        while j < len(text) and text[j] not in "{}":
            j += 1
        if j == len(text) or text[j] == "{":
            raise _syntax_error(text, i, f"unterminated symbol {text[i:j]!r}", "missing '}'")
        yield i, text[i + 1 : j]
        i = j + 1


def parse_mana_cost(text: str) -> ManaCost:
    """Parse a mana cost written with mana symbols (107.4), e.g. ``"{2}{W}{U/P}{X}{G/W}"``.

    Accepted symbols: ``{N}`` (no leading zeros), ``{W}{U}{B}{R}{G}``, ``{C}``, ``{X}``,
    hybrid ``{G/W}``, monocolored hybrid ``{2/W}``, Phyrexian ``{U/P}`` and
    Phyrexian hybrid ``{G/W/P}``. Letters are upper case and nothing may stand
    between symbols. The result keeps the written order, so ``str()`` of it gives
    the text back.

    Args:
        text: The cost; ``""`` means no mana symbols.

    Returns:
        The cost.

    Raises:
        ManaCostSyntaxError: If the text is malformed; the message quotes the text
            and the position of the offending symbol or character.
    """
    symbols: list[ManaSymbol] = []
    for position, body in _iter_braced(text):
        parsed = _parse_symbol_body(body)
        if isinstance(parsed, str):
            raise _syntax_error(text, position, f"invalid mana symbol '{{{body}}}'", parsed)
        symbols.append(parsed)
    return ManaCost(tuple(symbols))


# --------------------------------------------------------------------------- pools


def _check_pool(pool: Mapping[str, int]) -> None:
    for mana, amount in pool.items():
        if mana not in _TYPE_INDEX:
            raise ValueError(f"unknown mana type {mana!r} in pool; expected one of {MANA_TYPES}")
        if amount < 0:
            raise ValueError(f"negative amount {amount} of {mana!r} in pool")


def _normalized(counts: Mapping[str, int]) -> dict[str, int]:
    """A pool dict in MANA_TYPES order with zero entries left out."""
    return {t: counts[t] for t in MANA_TYPES if counts.get(t, 0)}


def add_mana(pool: Mapping[str, int], mana: str, amount: int = 1) -> dict[str, int]:
    """Add mana to a mana pool (106.4).

    Args:
        pool: The pool; not modified.
        mana: A mana type from ``MANA_TYPES``.
        amount: How much to add; 0 or more.

    Returns:
        A new pool in ``MANA_TYPES`` order, with zero entries left out.

    Raises:
        ValueError: For an unknown mana type or a negative amount.
    """
    _check_pool(pool)
    if mana not in _TYPE_INDEX:
        raise ValueError(f"unknown mana type {mana!r}; expected one of {MANA_TYPES}")
    if amount < 0:
        raise ValueError(f"cannot add a negative amount ({amount}) of mana")
    result = dict(pool)
    result[mana] = result.get(mana, 0) + amount
    return _normalized(result)


def spend(pool: Mapping[str, int], payment: Payment) -> dict[str, int]:
    """Remove the pool part of a payment from a pool (601.2h).

    Mana from the payment's activations is added and spent in the same step
    (601.2g then 601.2h), so it never shows in the returned pool.

    Args:
        pool: The pool; not modified.
        payment: A plan from :func:`plan_payment`.

    Returns:
        A new pool in ``MANA_TYPES`` order, with zero entries left out.

    Raises:
        ValueError: If the pool lacks any of the mana ``payment.from_pool`` spends.
    """
    _check_pool(pool)
    result = dict(pool)
    for mana, amount in payment.from_pool:
        have = result.get(mana, 0)
        if have < amount:
            raise ValueError(
                f"cannot spend {amount} {{{mana}}} from a pool holding {have} "
                f"({format_pool(pool) or 'empty'})"
            )
        result[mana] = have - amount
    return _normalized(result)


def format_pool(pool: Mapping[str, int]) -> str:
    """Write a pool as mana symbols in ``MANA_TYPES`` order, e.g. ``"{W}{W}{C}"``; ``""`` if empty.

    Raises:
        ValueError: For an unknown mana type or a negative amount.
    """
    _check_pool(pool)
    return "".join("{" + t + "}" for t in MANA_TYPES for _ in range(pool.get(t, 0)))


def parse_pool(text: str) -> dict[str, int]:
    """Parse mana written as symbols, e.g. ``"{R}{R}{C}"``, into a pool.

    Only the six mana type symbols ``{W}{U}{B}{R}{G}{C}`` are allowed, in any order.

    Returns:
        The pool in ``MANA_TYPES`` order, with zero entries left out.

    Raises:
        ManaCostSyntaxError: If the text is malformed or holds any other symbol.
    """
    counts: dict[str, int] = {}
    for position, body in _iter_braced(text):
        if body not in _TYPE_INDEX:
            raise _syntax_error(
                text,
                position,
                f"invalid mana '{{{body}}}'",
                "only {W}{U}{B}{R}{G}{C} are types of mana",
            )
        counts[body] = counts.get(body, 0) + 1
    return _normalized(counts)


# ------------------------------------------------------------------------ payment


@dataclass(frozen=True, slots=True)
class ManaSource:
    """One mana ability a payment may activate."""

    source_id: int
    """The permanent's object id."""
    produces: tuple[str, ...]
    """The mana types it can add, one mana per activation (e.g. ``("G",)``)."""


def _source_init(self: ManaSource, source_id: int, produces: tuple[str, ...]) -> None:
    """``ManaSource.__init__`` writing the slots through their descriptors: the seat's mana is
    listed again whenever what is tapped changes (``_casting.mana_sources``), and the frozen
    dataclass's ``__init__`` (``object.__setattr__`` for each field) takes twice as long."""
    _set_source_id(self, source_id)
    _set_produces(self, produces)


if tuple(f.name for f in fields(ManaSource)) != ("source_id", "produces"):
    raise AssertionError("_source_init sets source_id and produces, ManaSource has other fields")
_set_source_id = ManaSource.__dict__["source_id"].__set__
_set_produces = ManaSource.__dict__["produces"].__set__
setattr(ManaSource, "__init__", _source_init)  # noqa: B010 (mypy refuses assigning to a method)


@dataclass(frozen=True, slots=True)
class Payment:
    """A complete plan to pay a cost."""

    from_pool: tuple[tuple[str, int], ...] = ()
    """Mana spent from the pool, sorted by ``MANA_TYPES`` order, zero entries omitted."""
    activations: tuple[tuple[int, str], ...] = ()
    """(source_id, mana type) for each source activated, in activation order."""
    life: int = 0
    """Life paid for Phyrexian symbols."""


# A choice symbol is settled into one of these options. Option values:
# a mana type index (pay with that colour), _GENERIC (pay the generic half of a
# monocolored hybrid) or _LIFE (pay 2 life for a Phyrexian symbol).
_GENERIC = -1
_LIFE = -2


def _options(symbol: ManaSymbol) -> tuple[int, ...]:
    """How a hybrid or Phyrexian symbol can be paid, in default preference order."""
    opts = [_TYPE_INDEX[c] for c in symbol.colors]
    if symbol.generic:
        opts.append(_GENERIC)
    if symbol.phyrexian:
        opts.append(_LIFE)
    return tuple(opts)


def _option_for_entry(symbol: ManaSymbol, entry: str) -> int:
    if entry in symbol.colors:
        return _TYPE_INDEX[entry]
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


def _demand_sets(groups: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
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


def _mask(types: Sequence[str]) -> int:
    mask = 0
    for t in types:
        mask |= 1 << _TYPE_INDEX[t]
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
        self._source_masks = [_mask(s.produces) for s in sources]
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
            mask = _mask(symbol.colors)
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
        for union, need in _demand_sets(list(counts.items())):
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
        return Payment(from_pool=from_pool, activations=chosen, life=life)

    def _choose_sources(self, rest: list[int], generic: int) -> tuple[tuple[int, str], ...] | None:
        """Activations paying ``rest`` coloured and ``generic`` generic mana, or None.

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
        sets = _demand_sets(groups)  # (T, demands of a type in T)

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
        sources = self._sources
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
            chosen.append((sources[i].source_id, MANA_TYPES[t]))
            if len(chosen) == needed:
                return tuple(chosen)
        return None

    def _assign(self, demands: list[int], chosen: list[int]) -> tuple[tuple[int, str], ...]:
        """Which type each chosen source adds: its matched colour, else its first type."""
        owners = _matching(demands, [self._source_masks[j] for j in chosen])
        made: dict[int, str] = {}
        for d, k in enumerate(owners):
            made[k] = MANA_TYPES[demands[d].bit_length() - 1]
        result: list[tuple[int, str]] = []
        for k, j in enumerate(chosen):
            source = self._sources[j]
            result.append((source.source_id, made.get(k, source.produces[0])))
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
    _check_pool(pool)
    for source in sources:
        for mana in source.produces:
            if mana not in _TYPE_INDEX:
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
            demand[_TYPE_INDEX[symbol.colors[0]]] += 1
        else:
            generic += symbol.generic

    life_cap = None if life_available is None else max(0, life_available) // _PHYREXIAN_LIFE
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
    return planner.pay(demand, generic, lives * _PHYREXIAN_LIFE)


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


# ------------------------------------------------------------------ payability


_PRODUCES_MASKS: dict[tuple[str, ...], int] = {}
"""Type masks of the ``ManaSource.produces`` tuples seen so far (all valid)."""


_Answers = tuple[dict[int, int], dict[int, tuple["ManaCost", dict[int, bool]]],
                 dict[int, tuple["ManaCost", int | None]]]
_SHARED_ANSWERS: dict[tuple[object, ...], _Answers] = {}
"""``ManaSupply`` memos (``_supply``, ``_memo``, ``_max_x``) by what the answers depend on: a
cache of pure answers, shared by every supply alike in it."""
_SHARED_LIMIT = 1024
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
        _check_pool(pool)
        units: dict[int, int] = {}
        for t, n in pool.items():
            if n:
                units[1 << _TYPE_INDEX[t]] = units.get(1 << _TYPE_INDEX[t], 0) + n
        for source in sources:
            mask = _PRODUCES_MASKS.get(source.produces)
            if mask is None:
                for mana in source.produces:
                    if mana not in _TYPE_INDEX:
                        raise ValueError(f"source {source.source_id} produces unknown mana type "
                                         f"{mana!r}")
                mask = _PRODUCES_MASKS[source.produces] = _mask(source.produces)
            if mask:
                units[mask] = units.get(mask, 0) + 1
        self._units = tuple(units.items())
        """(type mask, how many mana) for each kind of unit: pool mana by type, sources by what
        they make."""
        self._total = sum(units.values())
        """All the mana there is (any of it pays generic)."""
        self._available = len(sources) + sum(pool.values())
        """The bound ``_max_x`` searched X up to: every source and every pool mana."""
        self._life_cap = None if life_available is None else max(0, life_available) // _PHYREXIAN_LIFE
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
        for union, need in _demand_sets(items):
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
                mask = _mask(symbol.colors)
                phyrexian[mask] = phyrexian.get(mask, 0) + 1
            elif symbol.generic and symbol.colors:
                if symbol.generic == 1:
                    generic += 1  # {1/W} as {1} needs any one mana: never worse than W
                else:
                    key = (_mask(symbol.colors), symbol.generic)
                    mono[key] = mono.get(key, 0) + 1
            elif symbol.colors:
                mask = _mask(symbol.colors)  # one colour, or a hybrid pair (either pays)
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
