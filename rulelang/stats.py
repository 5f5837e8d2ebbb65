"""Intervals for rates and for differences between two simulations, in plain Python (no numpy, so
that `rulelang compare` without --report needs nothing beyond the core install)."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes out of n."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """95% interval of p2 - p1 by Newcombe's hybrid score method (his method 10):
    the two Wilson intervals combined. Good at small counts and rates near 0 or 1,
    where the plain Wald interval is not."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, Z95)
    l2, u2 = wilson(k2, n2, Z95)
    d = p2 - p1
    return (
        d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2),
        d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2),
    )


def welch(a: list[int] | list[float], b: list[int] | list[float]) -> tuple[float, float]:
    """95% interval of mean(b) - mean(a) by Welch's method (unequal variances)."""
    n1, n2 = len(a), len(b)
    m1, m2 = sum(a) / n1, sum(b) / n2
    d = m2 - m1
    if n1 < 2 or n2 < 2:
        return (-math.inf, math.inf)  # one game says nothing about the spread
    v1 = sum((x - m1) ** 2 for x in a) / (n1 - 1) / n1
    v2 = sum((x - m2) ** 2 for x in b) / (n2 - 1) / n2
    se = math.sqrt(v1 + v2)
    if se == 0:
        return (d, d)  # every game of both the same length: the difference is exact
    df = (v1 + v2) ** 2 / (v1**2 / (n1 - 1) + v2**2 / (n2 - 1))
    half = t_quantile(0.975, df) * se
    return (d - half, d + half)


def t_quantile(p: float, df: float) -> float:
    """The p-quantile (p > 0.5) of Student's t with df degrees of freedom (not
    necessarily whole), by bisection on its distribution function."""
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for t >= 0, from the regularised incomplete beta function."""
    x = df / (df + t * t)
    return 1 - 0.5 * _betainc(df / 2, 0.5, x)


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) (Numerical Recipes 6.4)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


@dataclass
class Difference:
    """One figure of two simulations, B - A, with its 95% interval."""

    what: str  # "seat 1 win rate", "mean turns", ...
    kind: str  # "rate" or "mean"
    a: float
    b: float
    low: float
    high: float

    @property
    def difference(self) -> float:
        return self.b - self.a

    @property
    def significant(self) -> bool:
        """The interval leaves out 0: at the 5% level, A and B differ."""
        return self.low > 0 or self.high < 0

    def as_json(self) -> dict[str, object]:
        return {
            "what": self.what,
            "kind": self.kind,
            "a": self.a + 0.0,  # + 0.0: a negative zero is a zero (JSON has "-0.0")
            "b": self.b + 0.0,
            "difference": self.difference + 0.0,
            # null for an unknown bound (fewer than two games of one side)
            "ci95": [x + 0.0 if math.isfinite(x) else None for x in (self.low, self.high)],
            "significant": self.significant,
        }


def rate_difference(what: str, k1: int, n1: int, k2: int, n2: int) -> Difference:
    lo, hi = newcombe(k1, n1, k2, n2)
    return Difference(what, "rate", k1 / n1 if n1 else 0.0, k2 / n2 if n2 else 0.0, lo, hi)


def mean_difference(
    what: str, a: list[int] | list[float], b: list[int] | list[float]
) -> Difference:
    lo, hi = welch(a, b)
    return Difference(what, "mean", sum(a) / len(a), sum(b) / len(b), lo, hi)
