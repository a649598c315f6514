"""The lab's statistics: rates with Wilson 95 % intervals, two-proportion and Welch tests,
distributions. Plain Python (math only): the numbers are few, their meaning is what counts."""

import math

Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval
ALPHA = 0.05  # "significant": a two-sided p-value below this


def rate(wins, n):
    """wins out of n as {"wins", "games", "rate", "low", "high"}: Wilson's 95 % interval (it
    stays inside 0..1 and is honest for rates near 0 or 1)."""
    if n == 0:
        return {"wins": wins, "games": 0, "rate": None, "low": None, "high": None}
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return {"wins": wins, "games": n, "rate": p, "low": max(0.0, centre - half),
            "high": min(1.0, centre + half)}


def normal_p(z):
    """The two-sided p-value of a standard normal statistic z."""
    return math.erfc(abs(z) / math.sqrt(2))


def versus(expected, wins, n):
    """Is a rate different from the expected one (a fair share, say)? A binomial z-test."""
    if n == 0:
        return {"expected": expected, "p_value": None, "significant": False}
    se = math.sqrt(expected * (1 - expected) / n)
    z = (wins / n - expected) / se if se else 0.0
    p = normal_p(z)
    return {"expected": expected, "p_value": p, "significant": p < ALPHA}


def two_rates(a_wins, a_n, b_wins, b_n):
    """Rate b less rate a, its 95 % interval, and the pooled two-proportion test."""
    if not a_n or not b_n:
        return {"difference": None, "low": None, "high": None, "p_value": None,
                "significant": False}
    pa, pb = a_wins / a_n, b_wins / b_n
    d = pb - pa
    se = math.sqrt(pa * (1 - pa) / a_n + pb * (1 - pb) / b_n)
    pool = (a_wins + b_wins) / (a_n + b_n)
    se0 = math.sqrt(pool * (1 - pool) * (1 / a_n + 1 / b_n))
    p = normal_p(d / se0) if se0 else 1.0
    return {"difference": d, "low": d - Z95 * se, "high": d + Z95 * se, "p_value": p,
            "significant": p < ALPHA}


def two_means(a, b):
    """Mean of b less mean of a, its 95 % interval, and Welch's test (normal approximation:
    the lab's samples are hundreds of games)."""
    if len(a) < 2 or len(b) < 2:
        return {"difference": None, "low": None, "high": None, "p_value": None,
                "significant": False}
    ma, mb = mean(a), mean(b)
    se = math.sqrt(variance(a) / len(a) + variance(b) / len(b))
    d = mb - ma
    p = normal_p(d / se) if se else (1.0 if d == 0 else 0.0)
    return {"difference": d, "low": d - Z95 * se, "high": d + Z95 * se, "p_value": p,
            "significant": p < ALPHA}


def mean(xs):
    return sum(xs) / len(xs) if xs else None


def variance(xs):
    m = mean(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


def quantile(sorted_xs, q):
    """The q-quantile of a sorted list (nearest rank)."""
    if not sorted_xs:
        return None
    i = min(len(sorted_xs) - 1, max(0, math.ceil(q * len(sorted_xs)) - 1))
    return sorted_xs[i]


def distribution(xs):
    """Mean, spread, quantiles, and the counts of each value (a histogram's data)."""
    s = sorted(xs)
    counts = {}
    for x in s:
        counts[x] = counts.get(x, 0) + 1
    return {
        "mean": mean(s),
        "sd": math.sqrt(variance(s)) if len(s) > 1 else 0.0,
        "min": s[0] if s else None,
        "p10": quantile(s, 0.10),
        "median": quantile(s, 0.50),
        "p90": quantile(s, 0.90),
        "max": s[-1] if s else None,
        "counts": [[x, c] for x, c in counts.items()],
    }
