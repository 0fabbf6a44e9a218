"""The sequential probability ratio test (SPRT) that stops a two-entrant test once it is clear.

Two hypotheses about the first entrant's lead: H0, it leads by ``elo0``; H1, by ``elo1``. After
each result the log-likelihood ratio (LLR) of H1 against H0 is compared with Wald's bounds: at or
past the upper one H1 is accepted, at or past the lower one H0, and either stops the test.

The LLR is the one chess-engine testers' tools compute (fastchess's models, after Van den Bergh's
"Comments on Normalized Elo"): the results are counted as the outcomes of pairs of games (the
pentanomial model, scores 0, 1/4, 1/2, 3/4, 1) or of single games (the trinomial model, scores
0, 1/2, 1); an outcome never seen counts as 0.001 of one, so that a test can stop before every
outcome has happened (Magic games between bots are rarely drawn); and each hypothesis's
distribution is the one most likely to give the observed counts among those that meet it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .._suggest import closest

__all__ = ["SPRT_MODELS", "SprtError", "SprtResult", "SprtSettings", "format_sprt_line", "llr_pentanomial",
           "llr_trinomial", "parse_sprt", "sprt_bounds", "sprt_status"]

SPRT_MODELS = ("normalized", "logistic")
"""How an Elo hypothesis becomes a distribution of outcomes: ``normalized``, by normalized Elo
(the score's distance from 1/2 in standard deviations; the default, as in fastchess), or
``logistic``, by the expected score 1 / (1 + 10^(-elo/400))."""

PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score, per game, for each of its outcomes: LL, LD, WL or DD, WD, WW."""
TRINOMIAL_SCORES = (0.0, 0.5, 1.0)
"""A game's score for a loss, a draw and a win."""
EMPTY_COUNT = 0.001
"""What an outcome never seen counts as, so that no likelihood is zero."""
NELO_SCALE = 800.0 / math.log(10.0)
"""Normalized Elo per unit of (score - 1/2) / standard deviation."""

_KEYS = ("elo0", "elo1", "alpha", "beta", "model")
_NUMBERS = frozenset(_KEYS) - {"model"}
_ELO_LIMIT = 1000.0
"""The largest lead a hypothesis may name: beyond it the logistic model's expected score is 1
to within rounding, and no test needs it."""
_GRID = 16
"""The steps of the grid on which the normalized model looks for its highest peak, where it
may have several."""


class SprtError(ValueError):
    """Bad SPRT settings; the message is one line that names the bad input."""


@dataclass(frozen=True, slots=True)
class SprtSettings:
    """An SPRT's hypotheses, error rates and model."""

    elo0: float
    """H0: the first entrant leads by this many Elo."""
    elo1: float
    """H1: the first entrant leads by this many Elo; above ``elo0``."""
    alpha: float = 0.05
    """The chance of accepting H1 when H0 holds (a false positive), in (0, 1)."""
    beta: float = 0.05
    """The chance of accepting H0 when H1 holds (a false negative), in (0, 1)."""
    model: str = "normalized"
    """One of ``SPRT_MODELS``: how ``elo0`` and ``elo1`` are read."""

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem is not None:
            raise SprtError(problem)

    def as_dict(self) -> dict[str, float | str]:
        """The settings as plain data, for the tournament's settings key and the results file."""
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "model": self.model}


def _root(f: Callable[[float], float], low: float, high: float) -> float:
    """The root of ``f`` between ``low`` and ``high``, where it changes sign (Brent's method)."""
    # scipy is imported here, not with the module: it takes about 0.4 s, which every command
    # would pay (the command line imports the tournament package) for what only an SPRT uses.
    from scipy.optimize import brentq  # type: ignore[import-untyped]

    return float(brentq(f, low, high, xtol=1e-15, maxiter=200))


def _problem(settings: SprtSettings) -> str | None:
    """What is wrong with ``settings``, in one line, or None."""
    for key in ("elo0", "elo1", "alpha", "beta"):
        value = getattr(settings, key)
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            return f"{key}={value!r} is not a finite number"
    for key in ("elo0", "elo1"):
        value = getattr(settings, key)
        if abs(value) > _ELO_LIMIT:
            return f"{key}={value:g} is outside -{_ELO_LIMIT:g}..{_ELO_LIMIT:g}"
    if settings.elo0 >= settings.elo1:
        return f"elo0 must be below elo1, but elo0={settings.elo0:g} and elo1={settings.elo1:g}"
    for key in ("alpha", "beta"):
        value = getattr(settings, key)
        if not 0.0 < value < 1.0:
            return f"{key}={value:g} is not between 0 and 1 (both excluded)"
    if settings.alpha + settings.beta >= 1.0:
        return f"alpha + beta must be below 1, but alpha={settings.alpha:g} and beta={settings.beta:g}"
    if settings.model not in SPRT_MODELS:
        hint = closest(str(settings.model), SPRT_MODELS)
        maybe = f" (did you mean {hint}?)" if hint else ""
        return f"unknown model {settings.model!r}{maybe}; the models are {', '.join(SPRT_MODELS)}"
    return None


def parse_sprt(words: Sequence[str]) -> SprtSettings:
    """The settings from ``KEY=VALUE`` words, as ``--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05
    model=normalized`` gives them (a word may hold several, separated by spaces).

    ``elo0`` and ``elo1`` are needed; ``alpha`` and ``beta`` default to 0.05, ``model`` to
    ``normalized``. Raises SprtError, one line naming the bad input, for a word without ``=``,
    an unknown or repeated key, a value that is not a number, an unknown model, a missing
    elo0 or elo1, elo0 not below elo1, alpha or beta outside (0, 1), or alpha + beta of 1 or more.
    """
    if isinstance(words, str):
        words = [words]
    given: dict[str, str] = {}
    for word in (part for text in words for part in text.split()):
        key, equals, value = word.partition("=")
        if not equals:
            raise SprtError(f"--sprt: {word!r} is not KEY=VALUE (as elo0=0 elo1=10); "
                            f"the keys are {', '.join(_KEYS)}")
        if key not in _KEYS:
            hint = closest(key, _KEYS)
            maybe = f" (did you mean {hint}?)" if hint else ""
            raise SprtError(f"--sprt: unknown key {key!r}{maybe}; the keys are {', '.join(_KEYS)}")
        if key in given:
            raise SprtError(f"--sprt: {key} is given twice ({key}={given[key]} and {word})")
        given[key] = value
    missing = [key for key in ("elo0", "elo1") if key not in given]
    if missing:
        raise SprtError(f"--sprt: {' and '.join(missing)} missing; give both, as elo0=0 elo1=10")
    numbers: dict[str, float] = {}
    for key in _KEYS:
        if key in _NUMBERS and key in given:
            try:
                number = float(given[key])
            except ValueError:
                number = math.nan
            if not math.isfinite(number):
                raise SprtError(f"--sprt: {key}={given[key]} is not a number")
            numbers[key] = number
    try:
        return SprtSettings(elo0=numbers["elo0"], elo1=numbers["elo1"], alpha=numbers.get("alpha", 0.05),
                            beta=numbers.get("beta", 0.05), model=given.get("model", "normalized"))
    except SprtError as error:
        raise SprtError(f"--sprt: {error}") from None


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR, (ln(beta / (1 - alpha)), ln((1 - beta) / alpha)): ±2.944 at 0.05."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _tilted(frequencies: Sequence[float], weights: Sequence[float]) -> list[float]:
    """The distribution p_i = f_i / (1 + θ w_i) with Σ p_i w_i = 0 (and so Σ p_i = 1).

    This is the distribution nearest the observed frequencies f (the most likely to give them)
    among those with Σ p_i w_i = 0: stationarity of Σ f_i ln p_i under that constraint and Σ p_i = 1
    gives p_i = f_i / (λ + θ w_i), and summing p_i (λ + θ w_i) = f_i over i gives λ = 1. The
    constraint, g(θ) = Σ f_i w_i / (1 + θ w_i) = 0, falls strictly in θ from +∞ to -∞ between
    the poles -1 / max w and -1 / min w, so it has one root there, which brentq finds.
    """
    high, low = max(weights), min(weights)
    if not low < 0.0 < high:
        raise ArithmeticError(f"no distribution meets the hypothesis (weights {list(weights)})")

    terms = [(f * w, w) for f, w in zip(frequencies, weights, strict=True)]

    def g(theta: float) -> float:
        return sum([fw / (1.0 + theta * w) for fw, w in terms])

    # Close to each pole the term of its weight dominates; step towards the pole until it does.
    gap = 1e-3
    while True:
        left, right = -(1.0 - gap) / high, -(1.0 - gap) / low
        if g(left) > 0.0 > g(right):
            break
        if gap < 1e-15:
            raise ArithmeticError(f"no root in the bracket (weights {list(weights)})")
        gap /= 1e3
    theta = _root(g, left, right)
    probabilities = [f / (1.0 + theta * w) for f, w in zip(frequencies, weights, strict=True)]
    total = sum(probabilities)  # 1 but for the root's rounding, which matters near a pole
    return [p / total for p in probabilities]


def _with_score(scores: Sequence[float], frequencies: Sequence[float], score: float) -> list[float]:
    """The most likely distribution with mean ``score``."""
    return _tilted(frequencies, [x - score for x in scores])


def _with_t(scores: Sequence[float], frequencies: Sequence[float], t: float) -> list[float]:
    """The most likely distribution with (mean - 1/2) / standard deviation = ``t``.

    With y = x - 1/2 and Q = E[y²], σ² = Q - E[y]², so for t > 0 the constraint is
    h(p) = E[y] - k √Q = 0 with k = t / √(1 + t²). As √Q is the least of (Q / s + s) / 2 over
    s > 0 (reached at s = √Q), h is the greatest over s of the linear L_s(p) = E[y] - k (Q / s + s) / 2,
    and L_s(p) = 0 is a mean constraint, E[y - k y² / (2s)] = k s / 2, which ``_tilted`` meets.
    Call its result p(s) and V(s) its log-likelihood. V'(s) is zero where S(s) = √Q(p(s)) is s,
    and there p(s) meets h = 0 and h's gradient is L_s's: the maximum is such an s.

    - The observed t above ``t`` (h(f) > 0): the distributions with h <= 0 are a convex set, the
      intersection of the half-spaces L_s <= 0, so the maximum is the one s where S(s) = s
      among those whose half-space leaves out f, L_s(f) > 0: s between the roots s± of
      s² - 2 (E_f[y] / k) s + Q_f. At s± the tilt is f itself, so S - s is √Q_f - s±, of opposite
      signs (s- s+ = Q_f): brentq finds the root between.
    - Below (h(f) < 0): the distributions with h >= 0 are the union of the half-spaces L_s >= 0,
      and the maximum is the greatest V(s), which may have several peaks: brentq finds each
      crossing of S(s) = s between the points of a grid, and the likeliest wins.

    A negative t is the mirror image (the scores are symmetric about 1/2); t = 0 is a mean of 1/2.
    """
    if t < 0.0:
        return _with_t(scores, frequencies[::-1], -t)[::-1]
    offsets = [x - 0.5 for x in scores]
    if t == 0.0:
        return _tilted(frequencies, offsets)
    k = t / math.sqrt(1.0 + t * t)

    def tilted_at(s: float) -> list[float]:
        return _tilted(frequencies, [y - k * (y * y / s + s) / 2.0 for y in offsets])

    def root_q(probabilities: Sequence[float]) -> float:
        return math.sqrt(sum(p * y * y for p, y in zip(probabilities, offsets, strict=True)))

    def excess(s: float) -> float:
        return root_q(tilted_at(s)) - s

    mean, q = (sum(f * y ** power for f, y in zip(frequencies, offsets, strict=True)) for power in (1, 2))
    if mean > k * math.sqrt(q):
        centre = mean / k
        low, high = centre - math.sqrt(centre * centre - q), centre + math.sqrt(centre * centre - q)
        if not excess(low) > 0.0 > excess(high):
            return list(frequencies)  # the observed t is t, to rounding
        return tilted_at(_root(excess, low, high))

    def likelihood(probabilities: Sequence[float]) -> float:
        return sum(f * math.log(p) for f, p in zip(frequencies, probabilities, strict=True))

    # The weight y - k (y² / s + s) / 2 of a score above 1/2 is positive for s between y r- and
    # y r+, r± = (1 ± √(1 - k²)) / k. The grid is geometric from just above the least such s to
    # 1/2, as the peaks of a distribution with little spread are narrow, and keeps the s where
    # some weight is positive. Here f lies outside every half-space, so the tilt's θ is negative,
    # and V rises where S(s) > s and falls where S(s) < s: each peak is where S - s turns from
    # + to -, and brentq finds each such crossing between two grid points.
    least = min(y for y in offsets if y > 0.0) * k / (1.0 + math.sqrt(1.0 - k * k)) * (1.0 + 1e-3)
    grid = [least * (0.5 / least) ** (i / _GRID) for i in range(_GRID + 1)]
    found: dict[int, tuple[list[float], float]] = {}
    """Each usable grid point's tilt and S(s) - s there."""
    for i, s in enumerate(grid):
        if any(y - k * (y * y / s + s) / 2.0 > 0.0 for y in offsets):
            try:
                probabilities = tilted_at(s)
            except ArithmeticError:  # a weight too near zero to tilt by: not a peak's place
                continue
            found[i] = (probabilities, root_q(probabilities) - s)
    if not found:
        raise ArithmeticError(f"no distribution found for t={t} and frequencies {list(frequencies)}")
    peaks = [tilted_at(_root(excess, grid[i], grid[i + 1]))
             for i in found if i + 1 in found and found[i][1] > 0.0 > found[i + 1][1]]
    # A grid point counts too: S(s) = s may hold there, or two crossings lie between two points.
    return max([*peaks, *(probabilities for probabilities, _ in found.values())], key=likelihood)


def _llr(scores: Sequence[float], counts: Sequence[int], settings: SprtSettings, t_per_elo: float) -> float:
    """N Σ f_i (ln p1_i - ln p0_i) over ``counts`` of outcomes with these ``scores``."""
    if len(counts) != len(scores):
        raise ValueError(f"{len(counts)} counts given for {len(scores)} outcomes: {list(counts)}")
    if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
        raise ValueError(f"counts must be whole numbers of 0 or more: {list(counts)}")
    if sum(counts) == 0:
        return 0.0  # no results, no evidence either way
    regularized = [float(c) if c else EMPTY_COUNT for c in counts]
    total = sum(regularized)
    frequencies = [c / total for c in regularized]
    if settings.model == "logistic":
        h0, h1 = (_with_score(scores, frequencies, 1.0 / (1.0 + 10.0 ** (-elo / 400.0)))
                  for elo in (settings.elo0, settings.elo1))
    else:
        h0, h1 = (_with_t(scores, frequencies, t_per_elo * elo) for elo in (settings.elo0, settings.elo1))
    return total * sum(f * (math.log(p1) - math.log(p0)) for f, p0, p1 in zip(frequencies, h0, h1, strict=True))


def llr_pentanomial(counts: Sequence[int], settings: SprtSettings) -> float:
    """The LLR of H1 against H0 from pairs of games, ``counts`` being the pairs (LL, LD, WL+DD, WD, WW)
    from the first entrant's side; in the normalized model t = √2 · elo / (800 / ln 10)."""
    return _llr(PENTANOMIAL_SCORES, counts, settings, math.sqrt(2.0) / NELO_SCALE)


def llr_trinomial(losses: int, draws: int, wins: int, settings: SprtSettings) -> float:
    """The LLR of H1 against H0 from single games, counted from the first entrant's side; in the
    normalized model t = elo / (800 / ln 10)."""
    return _llr(TRINOMIAL_SCORES, (losses, draws, wins), settings, 1.0 / NELO_SCALE)


@dataclass(frozen=True, slots=True)
class SprtResult:
    """Where an SPRT stands after some results."""

    settings: SprtSettings
    """The test's hypotheses, error rates and model."""
    llr: float
    """The log-likelihood ratio of H1 against H0."""
    lower: float
    """The bound at or below which H0 is accepted."""
    upper: float
    """The bound at or above which H1 is accepted."""
    decision: str | None
    """``"H1"``, ``"H0"``, or None while the LLR is between the bounds."""
    games: int
    """The games counted."""
    pairs: int | None
    """The pairs counted (the pentanomial model); None for single games (the trinomial model)."""

    def as_dict(self) -> dict[str, float | str | int | None]:
        """The fields of ``format_sprt_line``'s line, as plain data for the results file."""
        return {"elo0": self.settings.elo0, "elo1": self.settings.elo1, "model": self.settings.model,
                "alpha": self.settings.alpha, "beta": self.settings.beta, "llr": self.llr, "lower": self.lower,
                "upper": self.upper, "decision": self.decision, "games": self.games, "pairs": self.pairs}


def sprt_status(settings: SprtSettings, *, pentanomial: Sequence[int] | None = None,
                trinomial: Sequence[int] | None = None, games: int, pairs: int | None = None) -> SprtResult:
    """The SPRT's state after ``games`` games: give either ``pentanomial``, the pairs' counts
    (LL, LD, WL+DD, WD, WW), or ``trinomial``, the games' (losses, draws, wins).

    ``pairs`` defaults to the pentanomial counts' sum (it must equal it when given, and the
    games must hold that many pairs); with ``trinomial`` it stays None and ``games`` must be the
    counts' sum. Raises ValueError otherwise.
    """
    if (pentanomial is None) == (trinomial is None):
        raise ValueError("give the pentanomial counts or the trinomial counts, not both or neither")
    if pentanomial is not None:
        llr = llr_pentanomial(pentanomial, settings)
        counted = sum(pentanomial)
        if pairs is None:
            pairs = counted
        if pairs != counted:
            raise ValueError(f"pairs={pairs}, but the pentanomial counts {list(pentanomial)} hold {counted}")
        if games < 2 * pairs:
            raise ValueError(f"{games} games can't hold {pairs} pairs")
    else:
        assert trinomial is not None
        if pairs is not None:
            raise ValueError("single games (trinomial counts) have no pairs")
        if len(trinomial) != 3:
            raise ValueError(f"the trinomial counts are (losses, draws, wins), not {list(trinomial)}")
        llr = llr_trinomial(trinomial[0], trinomial[1], trinomial[2], settings)
        if games != sum(trinomial):
            raise ValueError(f"games={games}, but the trinomial counts {list(trinomial)} hold {sum(trinomial)}")
    lower, upper = sprt_bounds(settings.alpha, settings.beta)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SprtResult(settings=settings, llr=llr, lower=lower, upper=upper, decision=decision, games=games,
                      pairs=pairs)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def format_sprt_line(result: SprtResult) -> str:
    """One line, as ``SPRT [0.00, 10.00] normalized, alpha 0.05, beta 0.05: LLR 2.97 (-2.94, 2.94):
    H1 accepted after 182 games (91 pairs)``; ``no decision`` while the LLR is between the bounds,
    and no pairs for single games."""
    s = result.settings
    outcome = "no decision" if result.decision is None else f"{result.decision} accepted"
    counted = _plural(result.games, "game")
    if result.pairs is not None:
        counted += f" ({_plural(result.pairs, 'pair')})"
    return (f"SPRT [{s.elo0:.2f}, {s.elo1:.2f}] {s.model}, alpha {s.alpha:g}, beta {s.beta:g}: "
            f"LLR {result.llr:.2f} ({result.lower:.2f}, {result.upper:.2f}): {outcome} after {counted}")
