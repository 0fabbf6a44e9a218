"""The SPRT: its bounds, its LLR against fastchess's test vectors and numbers worked out apart,
its decision, its text line and its settings' parsing."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from scipy.optimize import minimize  # type: ignore[import-untyped]

from spellstack.tournament import (
    SPRT_MODELS,
    SprtError,
    SprtResult,
    SprtSettings,
    format_sprt_line,
    llr_pentanomial,
    llr_trinomial,
    parse_sprt,
    sprt_bounds,
    sprt_status,
)


def pairs(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> tuple[int, int, int, int, int]:
    """fastchess's six pair counts as the five the LLR takes (WL and DD score the same)."""
    return ll, ld, wl + dd, wd, ww


def test_bounds_at_five_percent_are_2_944() -> None:
    assert sprt_bounds(0.05, 0.05) == pytest.approx((-2.944439, 2.944439), abs=1e-6)
    # ln(0.2 / 0.9) and ln(0.8 / 0.1)
    assert sprt_bounds(0.1, 0.2) == pytest.approx((-1.504077, 2.079442), abs=1e-6)


@pytest.mark.parametrize(("counts", "settings", "llr"), [
    # fastchess's sprt_test.cpp, its counts as LL, LD, WL, DD, WD, WW
    (pairs(365, 16618, 36029, 200, 16974, 390), SprtSettings(0, 2), 2.25),
    (pairs(127, 4883, 10311, 401, 5150, 104), SprtSettings(-1.75, 0.25), 3.01),
    (pairs(223, 9863, 20279, 1000, 10037, 246), SprtSettings(0.5, 2.5, model="logistic"), -3.07),
    (pairs(871, 26175, 55003, 980, 26678, 821), SprtSettings(0, 2, model="logistic"), -4.98),
])
def test_pentanomial_llr_matches_fastchess(counts: Sequence[int], settings: SprtSettings, llr: float) -> None:
    assert round(llr_pentanomial(counts, settings), 2) == llr


@pytest.mark.parametrize(("wins", "losses", "draws", "settings", "llr"), [
    (36433, 36027, 68692, SprtSettings(0, 2), 0.92),
    (21404, 21184, 40708, SprtSettings(0.5, 2.5, model="logistic"), -1.57),
])
def test_trinomial_llr_matches_fastchess(wins: int, losses: int, draws: int, settings: SprtSettings,
                                         llr: float) -> None:
    assert round(llr_trinomial(losses, draws, wins, settings), 2) == llr


def test_magic_like_results_with_no_draws() -> None:
    # Worked out apart for the issue: pairs LL 5, WL 30, WW 65 (the empty LD and WD count 0.001).
    magic = (5, 0, 30, 0, 65)
    assert round(llr_pentanomial(magic, SprtSettings(0, 10)), 3) == 2.840  # not yet past 2.944
    assert round(llr_pentanomial(magic, SprtSettings(0, 10, model="logistic")), 3) == 2.421
    # Games 340 - 60 - 0, one by one.
    assert round(llr_trinomial(60, 0, 340, SprtSettings(0, 10)), 3) == 7.892


def _log_likelihood(frequencies: Sequence[float], probabilities: Sequence[float]) -> float:
    return sum(f * math.log(max(p, 1e-300)) for f, p in zip(frequencies, probabilities, strict=True))


def _most_likely(frequencies: Sequence[float], t: float) -> list[float]:
    """The distribution on 0, 1/4 .. 1 most likely to give ``frequencies`` with (mean - 1/2) / sd = t,
    by a general constrained optimizer (SLSQP) from several starts: an independent computation.
    The most likely point that meets the constraints, whether or not SLSQP calls its run a
    success: near a peak, that flag turns on the last bits of rounding (with OpenBLAS on one
    thread it was false at the higher of two peaks), and no feasible point can be more likely
    than the constrained maximum."""
    scores = (0.0, 0.25, 0.5, 0.75, 1.0)

    def normalized(p: Sequence[float]) -> float:
        mean = sum(a * x for a, x in zip(p, scores, strict=True))
        variance = sum(a * (x - mean) ** 2 for a, x in zip(p, scores, strict=True))
        return mean - 0.5 - t * math.sqrt(max(variance, 1e-300))

    best: list[float] | None = None
    for start in ([0.2] * 5, [0.05, 0.1, 0.2, 0.3, 0.35], [0.35, 0.3, 0.2, 0.1, 0.05], list(frequencies),
                  [0.1, 0.1, 0.6, 0.1, 0.1], [0.02, 0.02, 0.3, 0.3, 0.36], [0.001, 0.001, 0.6, 0.2, 0.198]):
        found = minimize(lambda p: -_log_likelihood(frequencies, p), start, method="SLSQP",
                         bounds=[(1e-12, 1.0)] * 5, options={"ftol": 1e-15, "maxiter": 1000},
                         constraints=[{"type": "eq", "fun": lambda p: sum(p) - 1.0}, {"type": "eq", "fun": normalized}])
        if abs(sum(found.x) - 1.0) < 1e-9 and abs(normalized(found.x)) < 1e-9 and (
                best is None or _log_likelihood(frequencies, found.x) > _log_likelihood(frequencies, best)):
            best = list(found.x)
    assert best is not None
    return best


@pytest.mark.parametrize(("counts", "elo1"), [
    ((0, 0, 5000, 200, 5), 200.0),  # the likelihood along the constraint has two peaks
    ((5, 3, 200, 70000, 1), 700.0),  # the results far past H1, with a spurious fixed point
    ((0, 0, 30, 0, 0), 200.0),  # two peaks of nearly the same height, the higher one further out
    ((20, 0, 100, 0, 20), 50.0),
    ((5, 0, 30, 0, 65), 10.0),
])
@pytest.mark.slow
def test_normalized_llr_uses_the_most_likely_distributions(counts: Sequence[int], elo1: float) -> None:
    total = sum(c or 0.001 for c in counts)
    frequencies = [(c or 0.001) / total for c in counts]
    # H0 at elo0 = 0 fixes the mean at 1/2: there the most likely distribution is exactly known.
    h0 = _most_likely(frequencies, 0.0)
    h1 = _most_likely(frequencies, math.sqrt(2.0) * elo1 * math.log(10.0) / 800.0)
    expected = total * (_log_likelihood(frequencies, h1) - _log_likelihood(frequencies, h0))
    assert llr_pentanomial(counts, SprtSettings(0.0, elo1)) == pytest.approx(expected, rel=1e-6, abs=1e-4)


def test_a_negative_lead_mirrors_a_positive_one() -> None:
    # The scores are symmetric about 1/2: the counts reversed and the hypotheses negated and
    # swapped give the opposite LLR.
    counts = (12, 3, 40, 7, 30)
    for model in SPRT_MODELS:
        forward = llr_pentanomial(counts, SprtSettings(-5, 20, model=model))
        mirrored = llr_pentanomial(counts[::-1], SprtSettings(-20, 5, model=model))
        assert forward == pytest.approx(-mirrored, rel=1e-9)


def test_no_results_no_evidence() -> None:
    assert llr_pentanomial((0, 0, 0, 0, 0), SprtSettings(0, 10)) == 0.0
    assert llr_trinomial(0, 0, 0, SprtSettings(0, 10, model="logistic")) == 0.0


def test_bad_counts_are_refused() -> None:
    with pytest.raises(ValueError, match=r"4 counts given for 5 outcomes"):
        llr_pentanomial((1, 2, 3, 4), SprtSettings(0, 10))
    with pytest.raises(ValueError, match=r"whole numbers of 0 or more: \[1, -2, 3\]"):
        llr_trinomial(1, -2, 3, SprtSettings(0, 10))


def test_status_decides_at_the_bounds() -> None:
    settings = SprtSettings(0, 10)
    undecided = sprt_status(settings, pentanomial=(5, 0, 30, 0, 65), games=200)
    assert undecided.decision is None and undecided.pairs == 100
    assert undecided.lower < undecided.llr < undecided.upper
    assert format_sprt_line(undecided) == ("SPRT [0.00, 10.00] normalized, alpha 0.05, beta 0.05: LLR 2.84 "
                                           "(-2.94, 2.94): no decision after 200 games (100 pairs)")
    # Ten more pairs of the same kind (LL 1, WL 3, WW 6 per ten) carry it past 2.944.
    accepted = sprt_status(settings, pentanomial=(6, 0, 33, 0, 71), games=220)
    assert accepted.decision == "H1" and accepted.llr >= accepted.upper
    assert format_sprt_line(accepted).endswith(": H1 accepted after 220 games (110 pairs)")
    # The first entrant behind: H0.
    rejected = sprt_status(settings, pentanomial=(65, 0, 30, 0, 5), games=200)
    assert rejected.decision == "H0" and rejected.llr <= rejected.lower
    # Single games: no pairs.
    games = sprt_status(settings, trinomial=(60, 0, 340), games=400)
    assert games.decision == "H1" and games.pairs is None
    assert format_sprt_line(games) == ("SPRT [0.00, 10.00] normalized, alpha 0.05, beta 0.05: LLR 7.89 "
                                       "(-2.94, 2.94): H1 accepted after 400 games")


def test_the_line_reads_as_the_issue_gives_it() -> None:
    settings = SprtSettings(0, 10)
    lower, upper = sprt_bounds(0.05, 0.05)
    h1 = SprtResult(settings=settings, llr=2.97, lower=lower, upper=upper, decision="H1", games=182, pairs=91)
    assert format_sprt_line(h1) == ("SPRT [0.00, 10.00] normalized, alpha 0.05, beta 0.05: LLR 2.97 (-2.94, 2.94): "
                                    "H1 accepted after 182 games (91 pairs)")
    h0 = SprtResult(settings=SprtSettings(-1.75, 0.25, alpha=0.1, beta=0.025, model="logistic"), llr=-3.5,
                    lower=-3.58, upper=2.28, decision="H0", games=1, pairs=None)
    assert format_sprt_line(h0) == ("SPRT [-1.75, 0.25] logistic, alpha 0.1, beta 0.025: LLR -3.50 (-3.58, 2.28): "
                                    "H0 accepted after 1 game")
    undecided = SprtResult(settings=settings, llr=1.23, lower=lower, upper=upper, decision=None, games=150, pairs=None)
    assert format_sprt_line(undecided).endswith(": LLR 1.23 (-2.94, 2.94): no decision after 150 games")
    one_pair = SprtResult(settings=settings, llr=0.1, lower=lower, upper=upper, decision=None, games=2, pairs=1)
    assert format_sprt_line(one_pair).endswith("no decision after 2 games (1 pair)")


def test_the_result_as_data_has_the_line_s_fields() -> None:
    result = sprt_status(SprtSettings(0, 10), trinomial=(60, 0, 340), games=400)
    data = result.as_dict()
    assert list(data) == ["elo0", "elo1", "model", "alpha", "beta", "llr", "lower", "upper", "decision", "games",
                          "pairs"]
    assert data["decision"] == "H1" and data["games"] == 400 and data["pairs"] is None
    assert data["llr"] == result.llr and data["upper"] == result.upper
    assert SprtSettings(0, 10).as_dict() == {"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05,
                                             "model": "normalized"}


def test_status_refuses_counts_that_do_not_fit() -> None:
    settings = SprtSettings(0, 10)
    with pytest.raises(ValueError, match="not both or neither"):
        sprt_status(settings, games=2)
    with pytest.raises(ValueError, match="not both or neither"):
        sprt_status(settings, pentanomial=(0, 0, 1, 0, 0), trinomial=(1, 0, 1), games=2)
    with pytest.raises(ValueError, match=r"pairs=2, but the pentanomial counts \[0, 0, 1, 0, 0\] hold 1"):
        sprt_status(settings, pentanomial=(0, 0, 1, 0, 0), games=4, pairs=2)
    with pytest.raises(ValueError, match="3 games can't hold 2 pairs"):
        sprt_status(settings, pentanomial=(0, 0, 1, 0, 1), games=3)
    with pytest.raises(ValueError, match=r"games=5, but the trinomial counts \[1, 0, 1\] hold 2"):
        sprt_status(settings, trinomial=(1, 0, 1), games=5)
    with pytest.raises(ValueError, match=r"single games .* have no pairs"):
        sprt_status(settings, trinomial=(1, 0, 1), games=2, pairs=1)


def test_parse_reads_the_words_and_defaults() -> None:
    assert parse_sprt(["elo0=0", "elo1=10"]) == SprtSettings(0.0, 10.0, 0.05, 0.05, "normalized")
    assert parse_sprt(["elo0=-1.75", "elo1=0.25", "alpha=0.1", "beta=0.2", "model=logistic"]) == SprtSettings(
        -1.75, 0.25, 0.1, 0.2, "logistic")
    # One string, split at spaces, as a shell would give it quoted.
    assert parse_sprt(["elo0=0 elo1=5  model=logistic"]) == SprtSettings(0, 5, model="logistic")
    assert parse_sprt("beta=0.1 elo1=5 elo0=0") == SprtSettings(0, 5, beta=0.1)


@pytest.mark.parametrize(("words", "message"), [
    (["elo0=10", "elo1=0"], r"^--sprt: elo0 must be below elo1, but elo0=10 and elo1=0$"),
    (["elo0=5", "elo1=5"], r"elo0 must be below elo1, but elo0=5 and elo1=5"),
    (["elo0=0", "elo1=10", "alpha=0"], r"alpha=0 is not between 0 and 1"),
    (["elo0=0", "elo1=10", "beta=1.5"], r"beta=1.5 is not between 0 and 1"),
    (["elo0=0", "elo1=10", "alpha=0.5", "beta=0.5"], r"alpha \+ beta must be below 1, but alpha=0.5 and beta=0.5"),
    (["elo1=10"], r"^--sprt: elo0 missing; give both, as elo0=0 elo1=10$"),
    (["alpha=0.1"], r"elo0 and elo1 missing"),
    ([], r"elo0 and elo1 missing"),
    (["elo0=0", "elo1=10", "alpah=0.1"], r"unknown key 'alpah' \(did you mean alpha\?\); the keys are elo0, elo1, "),
    (["elo0=0", "elo1=10", "colour=red"], r"unknown key 'colour'; the keys are"),
    (["elo0=0", "elo1=10", "model=logistc"], r"unknown model 'logistc' \(did you mean logistic\?\); the models are "
                                             r"normalized, logistic"),
    (["elo0=0", "elo1=ten"], r"^--sprt: elo1=ten is not a number$"),
    (["elo0=0", "elo1=inf"], r"elo1=inf is not a number"),
    (["elo0=0", "elo1=nan"], r"elo1=nan is not a number"),
    (["elo0=0", "elo1"], r"'elo1' is not KEY=VALUE"),
    (["elo0=0", "elo1=5000"], r"^--sprt: elo1=5000 is outside -1000\.\.1000$"),
    (["elo0=0", "elo1=10", "elo0=1"], r"^--sprt: elo0 is given twice \(elo0=0 and elo0=1\)$"),
])
def test_parse_errors_name_the_bad_input(words: list[str], message: str) -> None:
    with pytest.raises(SprtError, match=message) as raised:
        parse_sprt(words)
    assert "\n" not in str(raised.value)


def test_hypotheses_at_the_limits_still_give_an_llr() -> None:
    for model in SPRT_MODELS:
        for counts in ((5, 0, 30, 0, 65), (0, 0, 0, 0, 10), (1, 2, 3, 4, 5)):
            assert math.isfinite(llr_pentanomial(counts, SprtSettings(-1000, 1000, model=model)))
            assert math.isfinite(llr_trinomial(counts[0], counts[2], counts[4], SprtSettings(0, 1000, model=model)))


def test_settings_check_themselves() -> None:
    with pytest.raises(SprtError, match="elo0 must be below elo1"):
        SprtSettings(10, 0)
    with pytest.raises(SprtError, match="unknown model 'elo'"):
        SprtSettings(0, 10, model="elo")
    with pytest.raises(SprtError, match=r"alpha=nan is not a finite number"):
        SprtSettings(0, 10, alpha=math.nan)
    assert isinstance(SprtError("x"), ValueError)
