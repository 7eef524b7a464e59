"""Confidence intervals against scipy and textbook values."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelib.analysis.stats import bootstrap_interval, mean_interval, t_quantile, wilson_interval

scipy_stats = pytest.importorskip("scipy.stats")


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 7, 10, 20, 30, 60, 120, 1000])
@pytest.mark.parametrize("p", [0.9, 0.95, 0.975, 0.995])
def test_t_quantile_matches_scipy(df: int, p: float) -> None:
    expected = scipy_stats.t.ppf(p, df)
    tolerance = 2e-2 if df <= 4 else 1e-3
    assert t_quantile(p, df) == pytest.approx(expected, rel=tolerance)


def test_t_quantile_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="p must be"):
        t_quantile(1.0, 5)
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_quantile(0.975, 0)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [(5, 10, 0.2366, 0.7634), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (81, 263, 0.2553, 0.3662)],
)
def test_wilson_interval_textbook_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(k, n)
    assert (lo, hi) == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4))


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_interval_contains_the_rate_and_stays_in_0_1(kn: tuple[int, int]) -> None:
    k, n = kn
    lo, hi = wilson_interval(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


def test_wilson_interval_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(11, 10)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_interval_matches_scipy() -> None:
    rng = random.Random(0)
    values = [rng.gauss(3.0, 2.0) for _ in range(40)]
    mean, low, high = mean_interval(values)
    expected = scipy_stats.t.interval(0.95, len(values) - 1, loc=mean, scale=scipy_stats.sem(values))
    assert (low, high) == (pytest.approx(expected[0], rel=1e-3), pytest.approx(expected[1], rel=1e-3))


def test_mean_interval_degenerate_cases() -> None:
    assert math.isnan(mean_interval([])[0])
    assert mean_interval([2.0]) == (2.0, 2.0, 2.0)


def test_bootstrap_is_seeded_and_close_to_t() -> None:
    rng = random.Random(1)
    values = [rng.choice([-1.0, 0.0, 1.0, 1.0]) for _ in range(400)]
    a = bootstrap_interval(values, seed=3)
    assert a == bootstrap_interval(values, seed=3)
    t = mean_interval(values)
    assert a[1] == pytest.approx(t[1], abs=0.02) and a[2] == pytest.approx(t[2], abs=0.02)
