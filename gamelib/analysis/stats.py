"""Confidence intervals for tournament results, with no dependency beyond the standard library.

* Win rates: the **Wilson score interval**, which stays inside [0, 1] and keeps its coverage
  for rates near 0 or 1 and for small samples, where the textbook ``p ± z·sqrt(p(1-p)/n)`` fails.
* Mean scores: **Student's t** interval (the quantile from the Cornish-Fisher expansion,
  exact for 1 and 2 degrees of freedom), or a seeded percentile **bootstrap** for skewed scores.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from statistics import NormalDist


def normal_quantile(p: float) -> float:
    """The standard normal quantile: ``normal_quantile(0.975) ≈ 1.96``."""
    return NormalDist().inv_cdf(p)


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile with ``df`` degrees of freedom (error < 1e-3 for df >= 3)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = normal_quantile(p)
    z2 = z * z
    g1 = (z2 + 1) * z / 4
    g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
    g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
    g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
    v = float(df)
    return z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``successes / n``.

    >>> lo, hi = wilson_interval(0, 10)
    >>> (lo, round(hi, 3))
    (0.0, 0.278)
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n={n}, got {successes}")
    z = normal_quantile(0.5 + confidence / 2)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n)
    # exact at the ends (rounding would otherwise leave 1e-18 above a rate of 0)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def mean_interval(
    values: Sequence[float], confidence: float = 0.95, bounds: tuple[float, float] | None = None
) -> tuple[float, float, float]:
    """``(mean, low, high)``: the t interval of the mean (degenerate for fewer than 2 values).

    ``bounds``: the range the values cannot leave (a game's ``min_return``/``max_return``); the
    interval is cut to it, since a mean outside that range is impossible (a t interval around a
    mean near the top, say 0.98 out of a maximum of 1, otherwise reaches past 1).

    >>> mean_interval([1.0] * 49 + [-1.0], bounds=(-1.0, 1.0))[2]
    1.0
    """
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, mean, mean)
    variance = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = t_quantile(0.5 + confidence / 2, n - 1) * math.sqrt(variance / n)
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(low, min(bounds[0], mean)), min(high, max(bounds[1], mean))
    return (mean, low, high)


def bootstrap_interval(
    values: Sequence[float], confidence: float = 0.95, resamples: int = 2000, seed: int = 0
) -> tuple[float, float, float]:
    """``(mean, low, high)``: a seeded percentile bootstrap of the mean."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    rng = random.Random(seed)
    data = list(values)
    means = sorted(math.fsum(rng.choices(data, k=n)) / n for _ in range(resamples))
    tail = (1 - confidence) / 2
    low = means[int(tail * (resamples - 1))]
    high = means[math.ceil((1 - tail) * (resamples - 1))]
    return (mean, low, high)
