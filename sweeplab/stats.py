"""Win rates with confidence intervals, paired comparisons, and the summary table of a run."""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
import pandas as pd

from .errors import count_text

__all__ = ["wilson_interval", "rate_text", "paired_difference", "PairedDifference", "paired_mean_difference",
           "summarize", "format_summary", "GROUP_COLUMNS", "check_distinct_games"]

#: Parameter columns a summary groups by (those present in the results).
GROUP_COLUMNS = ("agent", "options", "level", "height", "width", "mines", "first_click", "mode", "noise",
                 "noise_p", "first_move")


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
    ks, ns = np.asarray(successes), np.asarray(trials)
    if ks.dtype.kind not in "iuf" or ns.dtype.kind not in "iuf":
        raise ValueError(f"successes and trials must be numbers, got {successes!r:.40} and {trials!r:.40}")
    k, n = ks.astype(float), ns.astype(float)
    if not (np.all(np.isfinite(k)) and np.all(np.isfinite(n))) or np.any(k % 1) or np.any(n % 1):
        raise ValueError(f"successes and trials must be whole numbers, got {successes!r:.40} and "
                         f"{trials!r:.40}")
    if np.any(k < 0) or np.any(k > n):
        raise ValueError("successes must lie within [0, trials]")
    # the upper (1 - confidence) / 2 quantile from the lower tail, which keeps its precision near 1 (not
    # inv_cdf(0.5 + confidence / 2), which rounds to inf there); the standard library's, as scipy.stats
    # takes 0.4-0.9 s to import and every command-line run summarises with this
    z = -NormalDist().inv_cdf((1 - confidence) / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
        lo = np.clip(centre - half, 0.0, 1.0)
        hi = np.clip(centre + half, 0.0, 1.0)
    lo = np.where((k == 0) & (n > 0), 0.0, lo)
    hi = np.where((k == n) & (n > 0), 1.0, hi)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def rate_text(wins: int, games: int, *, confidence: float = 0.95) -> str:
    """A win rate with its Wilson interval, as one line (the rate padded to six characters, for columns).

    Examples
    --------
    >>> rate_text(4158, 10_000)
    ' 41.58% [40.62, 42.55]  (4158/10000)'
    """
    for name, value in (("wins", wins), ("games", games)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise ValueError(f"{name} must be a whole number, got {value!r}")
    if not 0 <= wins <= games or games == 0:
        raise ValueError(f"need 0 <= wins <= games and games > 0, got {wins} wins of {games} games")
    lo, hi = wilson_interval(wins, games, confidence=confidence)
    return f"{100 * wins / games:6.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]  ({wins}/{games})"


@dataclass(frozen=True)
class PairedDifference:
    """Two players on the same games: how much more often the second one wins.

    Attributes
    ----------
    games : int
    wins_a, wins_b : int
        Games each won.
    only_a, only_b : int
        Games only ``a`` won, and only ``b`` (the discordant pairs; ``+only_b/-only_a``).
    difference : float
        ``(wins_b - wins_a) / games``: ``b``'s win rate minus ``a``'s.
    low, high : float
        Confidence interval of the difference (Newcombe's hybrid score interval for paired data).
    p_value : float
        Exact two-sided McNemar test of "equally strong" (a binomial test of
        ``only_b`` among the discordant games, at one half); 1 without them.
    confidence : float
    """

    games: int
    wins_a: int
    wins_b: int
    only_a: int
    only_b: int
    difference: float
    low: float
    high: float
    p_value: float
    confidence: float

    def __str__(self) -> str:
        return (f"+{self.only_b}/-{self.only_a} of {self.games} games: {100 * self.difference:+.2f} points "
                f"[{100 * self.low:+.2f}, {100 * self.high:+.2f}] ({100 * self.confidence:g}% CI), "
                f"McNemar p = {self.p_value:.3g}")


def paired_difference(won_a, won_b, *, confidence: float = 0.95) -> PairedDifference:
    """Compare two players that played the same games, game by game.

    Two agents played on the same seeds (``sweeplab.play(..., seed=s)`` with
    the same ``seed``, ``start`` and ``games``; or two points of one sweep)
    meet the same boards, so most games end alike and only the others tell
    them apart.  The paired interval uses that: it is much narrower than the
    two Wilson intervals side by side.  Interval: Newcombe (1998), "Improved
    confidence intervals for the difference between binomial proportions
    based on paired data", method 10 (Wilson intervals of the two rates,
    combined with the corrected correlation of the pairs); test: exact McNemar.
    The two are not dual: at the edge the interval can just exclude 0 while
    ``p_value`` is just above 0.05, or the other way round.

    Parameters
    ----------
    won_a, won_b : array_like of bool, or pandas.DataFrame
        Outcomes of the same games, in the same order (for example the ``won``
        columns of two :func:`sweeplab.play` results with the same seeds);
        two pandas Series must have the same index.  Or two tables of results
        (two points of one sweep, two :func:`sweeplab.play` results): their
        games are paired by ``seed`` and ``game``, the games only one of them
        holds left out (a sweep loaded part way); the board columns both
        hold (level, shape, mines, first-click rule, ...) must agree.
    confidence : float, default 0.95

    Returns
    -------
    PairedDifference

    Examples
    --------
    >>> a = [True] * 40 + [False] * 60
    >>> b = [True] * 38 + [False] * 2 + [True] * 12 + [False] * 48  # 38 both, 2 only a, 12 only b
    >>> d = paired_difference(a, b)
    >>> d.only_b, d.only_a, round(d.difference, 2)
    (12, 2, 0.1)
    >>> round(d.low, 4), round(d.high, 4), round(d.p_value, 4)
    (0.0266, 0.1708, 0.0129)
    >>> print(d)
    +12/-2 of 100 games: +10.00 points [+2.66, +17.08] (95% CI), McNemar p = 0.0129
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be within (0, 1), got {confidence!r}")
    if isinstance(won_a, pd.DataFrame) or isinstance(won_b, pd.DataFrame):
        won_a, won_b = _paired_games(won_a, won_b)
    if (isinstance(won_a, pd.Series) and isinstance(won_b, pd.Series) and len(won_a) == len(won_b)
            and not won_a.index.equals(won_b.index)):  # pairs are by position: a re-sorted Series mis-pairs
        raise ValueError("won_a and won_b are Series with different indexes, so their games may be in "
                         "different orders; pass the two tables of results instead (rows with seed, game and "
                         "won: their games are paired by seed and game), or .to_numpy() of each if their "
                         "rows are the same games in the same order")
    a, b = (_outcomes(won, name) for won, name in ((won_a, "won_a"), (won_b, "won_b")))
    if a.size != b.size:
        raise ValueError(f"won_a and won_b must hold the same games: got {a.size} and {b.size} outcomes")
    if a.size == 0:
        raise ValueError("no games to compare: won_a and won_b are empty")
    n = a.size
    both = int(np.count_nonzero(a & b))
    only_a = int(np.count_nonzero(a & ~b))
    only_b = int(np.count_nonzero(~a & b))
    neither = n - both - only_a - only_b
    pa, pb = (both + only_a) / n, (both + only_b) / n
    la, ua = wilson_interval(both + only_a, n, confidence=confidence)
    lb, ub = wilson_interval(both + only_b, n, confidence=confidence)
    # Newcombe's phi: the correlation of the pairs, corrected towards 0 when positive (by n/2, as in
    # his paper and Altman's "Statistics with confidence"), and 0 when a margin is empty
    margins = float(both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    cross = float(both) * neither - float(only_a) * only_b
    cross = cross - n / 2 if cross > n / 2 else min(cross, 0.0)
    phi = cross / np.sqrt(margins) if margins > 0 else 0.0
    d = pb - pa
    low = d - np.sqrt(max(0.0, (pb - lb) ** 2 - 2 * phi * (pb - lb) * (ua - pa) + (ua - pa) ** 2))
    high = d + np.sqrt(max(0.0, (ub - pb) ** 2 - 2 * phi * (ub - pb) * (pa - la) + (pa - la) ** 2))
    discordant = only_a + only_b
    from scipy.stats import binomtest

    p_value = binomtest(only_b, discordant, 0.5).pvalue if discordant else 1.0
    return PairedDifference(games=n, wins_a=both + only_a, wins_b=both + only_b, only_a=only_a,
                            only_b=only_b, difference=d, low=float(max(-1.0, low)),
                            high=float(min(1.0, high)), p_value=float(p_value), confidence=confidence)


def paired_mean_difference(a, b, *, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of ``b - a`` over paired values (the same games) and its t interval: ``(mean, low, high)``.

    For scores rather than wins (reports 001 and 004: the mean score of two agents on the same boards).
    ``nan`` bounds with fewer than two pairs.

    Examples
    --------
    >>> [round(v, 3) for v in paired_mean_difference([0.5, 0.6, 0.7, 0.4], [0.6, 0.6, 0.9, 0.5])]
    [0.1, -0.03, 0.23]
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be within (0, 1), got {confidence!r}")
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"a and b must be two 1-D sequences of the same length (paired), got shapes "
                         f"{x.shape} and {y.shape}")
    d = y - x
    mean = float(d.mean()) if d.size else float("nan")
    if d.size < 2:
        return mean, float("nan"), float("nan")
    from scipy.stats import t  # imported here: scipy.stats takes most of a second to import

    half = float(t.ppf(0.5 + confidence / 2, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size))
    return mean, mean - half, mean + half


#: The columns that say which board a game was played on (of a sweep's or play's rows), besides its seed
#: and number: two tables paired game by game must agree on those they both hold.
BOARD_COLUMNS = ("level", "height", "width", "mines", "first_click", "mode", "noise", "noise_p")


def _paired_games(a, b) -> tuple[pd.Series, pd.Series]:
    """The ``won`` of the games both tables hold, paired by ``seed`` and ``game``."""
    for frame, name in ((a, "won_a"), (b, "won_b")):
        if not isinstance(frame, pd.DataFrame):
            raise ValueError(f"{name} must be a table of results like the other (a DataFrame), got "
                             f"{type(frame).__name__}")
        missing = [c for c in ("seed", "game", "won") if c not in frame.columns]
        if missing:
            raise ValueError(f"{name} has no column {missing[0]!r}: tables are paired by seed and game")
        check_known_outcomes(frame, function=f"paired_difference ({name})")
        repeated = frame.duplicated(["seed", "game"])
        if repeated.any():
            seed, game = frame.loc[repeated, ["seed", "game"]].iloc[0]
            raise ValueError(f"{name} holds game {game} of seed {seed} twice: give the rows of one agent "
                             f"and one board each (one point of a sweep: df[df.point == k])")
    for column in BOARD_COLUMNS:
        if column in a.columns and column in b.columns:
            there, here = set(a[column].dropna().unique()), set(b[column].dropna().unique())
            if len(there | here) > 1:
                raise ValueError(f"won_a and won_b were not played on the same boards: their {column!r} "
                                 f"differs ({sorted(map(str, there))} and {sorted(map(str, here))})")
    pairs = a[["seed", "game", "won"]].merge(b[["seed", "game", "won"]], on=["seed", "game"])
    if pairs.empty:
        raise ValueError("won_a and won_b share no game (the same seed and game number)")
    return pairs["won_x"], pairs["won_y"]


def _outcomes(won, name: str) -> np.ndarray:
    """``won`` as a 1-d boolean array; 0/1 numbers are accepted, anything else is an error."""
    x = np.asarray(won)
    if x.ndim != 1:
        raise ValueError(f"{name} must be a 1-d sequence of game outcomes, got shape {x.shape}")
    if x.dtype == object and all(isinstance(v, (bool, np.bool_)) for v in x):
        x = x.astype(bool)
    if x.dtype == bool:
        return x
    if x.size and not (np.issubdtype(x.dtype, np.number) and np.isin(x, (0, 1)).all()):
        raise ValueError(f"{name} must hold booleans (True: won) or 0/1, got values like {x[:3].tolist()!r}")
    return x.astype(bool)


def check_known_outcomes(rows: pd.DataFrame, *, function: str) -> None:
    """``ValueError`` when a row's ``won`` is missing: counted, it would be a loss (or, read as a
    boolean, a win), and the interval's ``n`` one game too many.

    Examples
    --------
    >>> check_known_outcomes(pd.DataFrame({"won": [True, None]}), function="loss_table")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: loss_table: 1 game has no 'won' value; drop it or fill it first (a missing result is not ...
    """
    missing = int(rows["won"].isna().sum())
    if missing:
        it = "it" if missing == 1 else "them"
        raise ValueError(f"{function}: {count_text(missing, 'game')} {'has' if missing == 1 else 'have'} no "
                         f"'won' value; drop {it} or fill {it} first (a missing result is not a loss)")


def check_distinct_games(rows: pd.DataFrame, point_columns, *, function: str) -> None:
    """``ValueError`` when ``rows`` hold one game of one point twice: the same ``seed`` and ``game``
    with the same values in ``point_columns`` (those present).  A summary of them would count it twice
    and give an interval too narrow (``pd.concat([a, a])``, or ``first_move="auto"`` beside the cell it
    chooses).

    Examples
    --------
    >>> rows = pd.DataFrame({"agent": ["a", "a"], "seed": [0, 0], "game": [3, 3], "won": [True, True]})
    >>> check_distinct_games(rows, GROUP_COLUMNS, function="summarize")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: summarize: 1 row repeats a game of the same point (seed=0, game=3, agent=a); each game ...
    """
    if not {"seed", "game"} <= set(rows.columns):
        return
    key = [c for c in point_columns if c in rows.columns] + ["seed", "game"]
    repeated = rows.duplicated(key)
    if repeated.any():
        first = rows[repeated].iloc[0]
        point = "".join(f", {c}={first[c]}" for c in key[:-2] if not pd.isna(first[c]))
        n = int(repeated.sum())
        verb = "repeats" if n == 1 else "repeat"
        raise ValueError(f"{function}: {count_text(n, 'row')} {verb} a game of the same point (seed="
                         f"{first['seed']}, game={first['game']}{point}); each game counts once: drop them "
                         f"with rows.drop_duplicates({key}), or play the others with another seed or start")


def summarize(results: pd.DataFrame, *, by=None, confidence: float = 0.95) -> pd.DataFrame:
    """Win rate (Wilson interval), mean score, revealed share, guesses, wrong claims (and stuck games,
    with a ``status`` column) per group.

    Parameters
    ----------
    results : pandas.DataFrame
        Rows from :func:`sweeplab.play` (or a sweep).
    by : list of str, optional
        Grouping columns; by default the parameter columns that vary (and ``agent``, ``level``,
        ``first_click``; ``options`` when any were given; ``noise_p`` beside ``noise``; the board's
        size where it has no level).

    Examples
    --------
    >>> df = pd.DataFrame({"agent": ["a"] * 4, "won": [True, False, True, True], "score": [1, .5, 1, 1],
    ...                    "revealed": [1, .2, 1, 1], "guesses": [1, 2, 0, 1], "wrong_claims": 0,
    ...                    "seconds": 0.5})
    >>> summarize(df)[["games", "wins", "win_rate"]].to_dict("records")
    [{'games': 4, 'wins': 3, 'win_rate': 0.75}]
    """
    read = ("won", "score", "revealed", "guesses", "wrong_claims", "seconds")
    missing = [c for c in read if c not in results]
    if missing:
        raise ValueError(f"results lack the columns {missing}: summarize reads the rows of sweeplab.play")
    check_known_outcomes(results, function="summarize")
    if isinstance(by, str):  # one column, not its letters
        by = [by]
    if by is None:
        by = [c for c in GROUP_COLUMNS if c in results and (c in ("agent", "level", "first_click") or
                                                            results[c].nunique(dropna=False) > 1 or
                                                            (c == "options" and (results[c] != "").any()))]
        if ("noise" in by) != ("noise_p" in by) and {"noise", "noise_p"} <= set(results):
            by = sorted({*by, "noise", "noise_p"}, key=GROUP_COLUMNS.index)  # a kind means little without p
        if "level" in results and results["level"].isna().any():  # a board given by its shape: say it
            board = (c for c in ("height", "width", "mines") if c in results)
            by = sorted({*by, *board}, key=GROUP_COLUMNS.index)
    by = list(by)
    # the same game twice in a group; columns of the user's own (a "version") tell rows apart too
    check_distinct_games(results, [*GROUP_COLUMNS, *(c for c in by if c not in GROUP_COLUMNS)],
                         function="summarize")
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
        if "status" in g:  # games the agent left with no move (a bug in a registered agent, or by design)
            row["stuck"] = int((g["status"] == "stuck").sum())
        rows.append(row)
    summary = pd.DataFrame(rows)
    summary.attrs["confidence"] = confidence  # what format_summary labels the intervals with
    return summary


def format_summary(summary: pd.DataFrame, *, confidence: float | None = None) -> str:
    """The summary as a plain-text table, win rates as percentages with their interval.

    The interval is labelled with the confidence :func:`summarize` used (``confidence`` given here
    must agree with it).  A summary that no longer says (pandas drops it in a ``merge``, or a ``concat``
    of summaries at different levels) is labelled ``CI`` alone, unless ``confidence`` is given.

    Examples
    --------
    >>> df = pd.DataFrame({"agent": ["a"] * 4, "won": [True, False, True, True], "score": 1.0,
    ...                    "revealed": 1.0, "guesses": 1, "wrong_claims": 0, "seconds": 0.5})
    >>> "99.5% CI" in format_summary(summarize(df, confidence=0.995))
    True
    """
    held = summary.attrs.get("confidence")
    if confidence is not None and held is not None and confidence != held:
        raise ValueError(f"the summary's intervals are at confidence {held!r}, not {confidence!r}: give "
                         f"summarize(..., confidence={confidence!r}), or leave confidence out here")
    confidence = confidence if confidence is not None else held
    if summary.empty:
        return "(no games)"
    table = summary.copy()
    if "level" in table:  # a board given by its shape has no level: its height and width say it
        table["level"] = table["level"].astype(object).fillna("-")
    if "noise" in table:  # exact clues: no noise kind
        table["noise"] = table["noise"].astype(object).fillna("none")
    label = "CI" if confidence is None else f"{100 * confidence:.10g}% CI"
    table["win %"] = (100 * table["win_rate"]).map("{:.2f}".format)
    bounds = zip(table["win_low"], table["win_high"], strict=True)
    table[label] = [f"[{100 * lo:.2f}, {100 * hi:.2f}]" for lo, hi in bounds]
    for col in ("score", "revealed"):  # a lost game of a huge board is not shown as a perfect 1.000
        table[col] = table[col].map(lambda v: ">0.999" if 0.9995 <= v < 1 else f"{v:.3f}")
    table["guesses"] = table["guesses"].map("{:.2f}".format)
    table["games/s"] = table["games_per_s"].map("{:.1f}".format)
    hidden = ["win_rate", "win_low", "win_high", "games_per_s"]
    if "stuck" in table and not table["stuck"].any():  # shown only when a game was left stuck
        hidden.append("stuck")
    keep = [c for c in table.columns if c not in hidden]
    order = [c for c in keep if c not in ("win %", label)]
    i = order.index("wins") + 1
    order[i:i] = ["win %", label]
    return table[order].to_string(index=False)
