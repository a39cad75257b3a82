"""Win rates with confidence intervals, and the summary table of a run."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import norm

__all__ = ["wilson_interval", "summarize", "format_summary", "GROUP_COLUMNS"]

#: Parameter columns a summary groups by (those present in the results).
GROUP_COLUMNS = ("agent", "level", "height", "width", "mines", "first_click", "mode", "noise", "noise_p",
                 "first_move")


def wilson_interval(successes, trials, *, confidence: float = 0.95):
    """Wilson score interval for a binomial proportion.

    Works elementwise on arrays; returns ``(low, high)``, ``nan`` where
    ``trials == 0``.

    Examples
    --------
    >>> lo, hi = wilson_interval(58, 100)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.4821, 0.672)
    >>> [round(float(v), 5) for v in wilson_interval(0, 3000)]
    [0.0, 0.00128]
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be within (0, 1), got {confidence!r}")
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("successes must lie within [0, trials]")
    z = norm.ppf(0.5 + confidence / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
        lo = np.clip(centre - half, 0.0, 1.0)
        hi = np.clip(centre + half, 0.0, 1.0)
    lo = np.where(k == 0, 0.0, lo)
    hi = np.where(k == n, 1.0, hi)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def summarize(results: pd.DataFrame, *, by=None, confidence: float = 0.95) -> pd.DataFrame:
    """Win rate (Wilson interval), mean score, revealed share, guesses, wrong claims per group.

    Parameters
    ----------
    results : pandas.DataFrame
        Rows from :func:`sweeplab.play` (or a sweep).
    by : list of str, optional
        Grouping columns; by default the parameter columns that vary (and ``agent``, ``level``).

    Examples
    --------
    >>> df = pd.DataFrame({"agent": ["a"] * 4, "won": [True, False, True, True], "score": [1, .5, 1, 1],
    ...                    "revealed": [1, .2, 1, 1], "guesses": [1, 2, 0, 1], "wrong_claims": 0,
    ...                    "seconds": 0.5})
    >>> summarize(df)[["games", "wins", "win_rate"]].to_dict("records")
    [{'games': 4, 'wins': 3, 'win_rate': 0.75}]
    """
    if by is None:
        by = [c for c in GROUP_COLUMNS if c in results and (c in ("agent", "level", "first_click") or
                                                            results[c].nunique(dropna=False) > 1)]
    by = list(by)
    grouped = results.groupby(by, dropna=False, sort=True) if by else [((), results)]
    rows = []
    for key, g in grouped:
        key = key if isinstance(key, tuple) else (key,)
        n, k = len(g), int(g["won"].sum())
        lo, hi = wilson_interval(k, n, confidence=confidence)
        row = dict(zip(by, key, strict=True))
        row.update(games=n, wins=k, win_rate=k / n if n else np.nan, win_low=lo, win_high=hi,
                   score=float(g["score"].mean()), revealed=float(g["revealed"].mean()),
                   guesses=float(g["guesses"].mean()), wrong_claims=int(g["wrong_claims"].sum()),
                   games_per_s=n / float(g["seconds"].sum()) if g["seconds"].sum() > 0 else np.nan)
        rows.append(row)
    return pd.DataFrame(rows)


def format_summary(summary: pd.DataFrame, *, confidence: float = 0.95) -> str:
    """The summary as a plain-text table, win rates as percentages with their interval."""
    table = summary.copy()
    label = f"{round(confidence * 100)}% CI"
    table["win %"] = (100 * table["win_rate"]).map("{:.2f}".format)
    bounds = zip(table["win_low"], table["win_high"], strict=True)
    table[label] = [f"[{100 * lo:.2f}, {100 * hi:.2f}]" for lo, hi in bounds]
    for col in ("score", "revealed"):
        table[col] = table[col].map("{:.3f}".format)
    table["guesses"] = table["guesses"].map("{:.2f}".format)
    table["games/s"] = table["games_per_s"].map("{:.1f}".format)
    keep = [c for c in table.columns if c not in ("win_rate", "win_low", "win_high", "games_per_s")]
    order = [c for c in keep if c not in ("win %", label)]
    i = order.index("wins") + 1
    order[i:i] = ["win %", label]
    return table[order].to_string(index=False)
