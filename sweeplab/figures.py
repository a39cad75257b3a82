"""Figures for the experiments of :mod:`sweeplab.experiments` (seaborn and matplotlib).

:data:`FIGURES` maps each experiment name to a function that takes its tidy
table and returns a :class:`matplotlib.figure.Figure`; where a seed report
gives numbers, they are drawn beside ours (black diamonds).

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> import pandas as pd
>>> df = pd.DataFrame({"agent": ["trivial"], "games": [100], "win_rate": [0.6], "ci_low": [0.5],
...                    "ci_high": [0.7], "report": [0.5825]})
>>> fig = win_rates_figure(df)
>>> len(fig.axes)
1
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

import numpy as np
import pandas as pd

__all__ = [
    "FIGURES",
    "win_rates_figure",
    "first_cell_figure",
    "convergence_figure",
    "density_score_figure",
    "game_steps_figure",
    "scaling_figure",
    "best_figure",
    "methods_figure",
    "methods_density_figure",
    "methods_time_figure",
    "reach_figure",
    "cascade_figure",
    "dominance_figure",
    "geometry_figure",
    "boards_figure",
    "hasse_layers",
    "proofs_figure",
    "save_figure",
]


#: Markers of the lines of methods that may coincide (reach against density).
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")


def _plt():
    import matplotlib.pyplot as plt
    import seaborn as sns

    sns.set_theme(style="whitegrid", context="notebook", font_scale=0.9)
    return plt, sns


def _boxplot(data: pd.DataFrame, **kwargs) -> None:
    """``seaborn.boxplot``, without the deprecation warning it makes Matplotlib 3.11 give for its own
    ``vert=`` argument (seaborn 0.13.2, the latest, still passes it; nothing a caller can change)."""
    import warnings

    import seaborn as sns  # the theme is the caller's (_plt), set once per figure

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="vert: bool was deprecated", category=DeprecationWarning)
        sns.boxplot(data, **kwargs)


def _draws_table(*columns: str) -> Callable[[Callable], Callable]:
    """Refuse, naming the fix, a table the figure cannot draw: not a non-empty DataFrame, or one
    without one of the ``columns`` the figure reads (which pandas or seaborn would report deep inside
    the drawing)."""

    def decorate(func: Callable) -> Callable:
        signature = inspect.signature(func)
        table = next(iter(signature.parameters))  # "df" or "rows", by position or by name

        @functools.wraps(func)
        def figure(*args, **kwargs):
            df = signature.bind(*args, **kwargs).arguments[table]
            experiments = [name for name, f in FIGURES.items() if f is figure]
            source = f"the table of {' or '.join(experiments)} from sweeplab.experiments.run"
            if not isinstance(df, pd.DataFrame) or df.empty:
                kind = "an empty table" if isinstance(df, pd.DataFrame) else type(df).__name__
                raise ValueError(f"{func.__name__} draws {source}, got {kind}")
            missing = [c for c in columns if c not in df.columns]
            if missing:
                raise ValueError(f"{func.__name__} needs the columns {missing}, which the table lacks (its "
                                 f"columns: {list(df.columns)}); give it {source}")
            return func(*args, **kwargs)

        return figure

    return decorate


def _percent():
    """A tick formatter writing shares of 1 as percentages, for axes whose bars are labelled in %."""
    import matplotlib.ticker

    return matplotlib.ticker.PercentFormatter(xmax=1.0, decimals=0)


def _report_markers(ax, xs, values, label: str | None = "report") -> None:
    values = np.asarray(values, dtype=float)
    keep = np.isfinite(values)
    if keep.any():
        ax.scatter(np.asarray(xs)[keep], values[keep], marker="D", s=50, color="black", zorder=5, label=label)


def _grouped_rates(ax, df: pd.DataFrame, *, group: str, hue: str, sns, source: str = "report") -> None:
    """Bars of win rates grouped by ``group`` and coloured by ``hue``, with intervals and diamonds for the
    ``source``'s rates (a seed report's, or the published best)."""
    groups = list(dict.fromkeys(df[group]))
    hues = list(dict.fromkeys(df[hue]))
    width = 0.8 / len(hues)
    colours = sns.color_palette("deep", len(hues))
    for k, h in enumerate(hues):
        part = df[df[hue] == h].set_index(group).reindex(groups)
        x = np.arange(len(groups)) + (k - (len(hues) - 1) / 2) * width
        rate = part["win_rate"]
        ax.bar(x, rate, width=width * 0.95, color=colours[k], label=f"sweeplab, {hue.replace('_', ' ')} {h}")
        ax.errorbar(x, rate, yerr=[rate - part["ci_low"], part["ci_high"] - rate], fmt="none", color="#333",
                    capsize=3)
        for xi, r, top, rep in zip(x, rate, part["ci_high"], part["report"], strict=True):
            if np.isfinite(r):
                y = top + 0.015  # the label's bottom; it is about 0.045 high, a diamond about 0.06
                if np.isfinite(rep) and y - 0.03 < rep < y + 0.075:  # the report's diamond would cover it
                    y = rep + 0.035
                ax.text(xi, y, f"{100 * r:.1f}%", ha="center", va="bottom", fontsize=7)
        _report_markers(ax, x, part["report"], label=source if k == 0 else None)
    ax.set_xticks(np.arange(len(groups)), groups)
    ax.set_ylim(0, 1.1)
    ax.yaxis.set_major_formatter(_percent())  # as the bars' labels
    ax.set_ylabel("win rate (bars: Wilson 95% interval)")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=len(hues) + 1, frameon=False)


@_draws_table("agent", "games", "win_rate", "ci_low", "ci_high", "report")
def win_rates_figure(df: pd.DataFrame, *, title: str = "Intermediate win rates (report 000)"):
    """Our win rates (Wilson 95 % intervals) per agent and first-click rule; the report's as diamonds."""
    plt, sns = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.8))
    frame = df if "first_click" in df.columns else df.assign(first_click="safe")
    _grouped_rates(ax, frame, group="agent", hue="first_click", sns=sns)
    ax.set_title(f"{title}, {int(df['games'].iloc[0])} games each")
    fig.tight_layout()
    return fig


@_draws_table("row", "col", "games", "win_rate", "ci_low", "ci_high")
def first_cell_figure(df: pd.DataFrame):
    """Heatmap of the win rate by fixed first cell (report 000 §2.3.2).

    The colours start at 0, and the title gives the noise of one cell: with a few games per
    cell, a scale stretched between the lowest and the highest rate shows patterns of noise.
    """
    plt, sns = _plt()
    table = df.pivot(index="row", columns="col", values="win_rate")
    fig, ax = plt.subplots(figsize=(6.4, 5.4))
    sns.heatmap(table, ax=ax, cmap="viridis", annot=len(table) * len(table.columns) <= 64, fmt=".2f",
                cbar_kws={"label": "win rate"}, square=True, vmin=0, vmax=max(0.5, float(table.max().max())))
    games = int(df["games"].iloc[0])
    rule = f"first click rule {df['first_click'].iloc[0]!r}, " if "first_click" in df else ""
    widest = 100 * float((df["ci_high"] - df["ci_low"]).max()) / 2  # the Wilson intervals of the table
    noise = f"one cell's 95% interval: up to ±{widest:.0f} points" if np.isfinite(widest) else "no games"
    ax.set_title(f"Win rate by first cell ({games} games per cell, the same boards for every cell)\n"
                 f"{rule}{noise}", fontsize=9)
    ax.set(xlabel="column (from 0; report 000 counts from 1)",
           ylabel="row (from 0; report 000 counts from 1)")
    fig.tight_layout()
    return fig


@_draws_table("game", "win_rate", "ci_low", "ci_high", "agent")
def convergence_figure(df: pd.DataFrame):
    """Running win rate with its 95 % band against the number of games (report 000 §5.1)."""
    plt, _ = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.plot(df["game"], df["win_rate"], label="running win rate")
    ax.fill_between(df["game"], df["ci_low"], df["ci_high"], alpha=0.25, label="Wilson 95% interval")
    final = float(df["win_rate"].iloc[-1])
    ax.axhspan(final - 0.01, final + 0.01, color="grey", alpha=0.2,
               label="final ± 1 point (report 000's claim)")
    ax.set_xscale("log")
    ax.set_xlabel("games played")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    rules = (f", {df['level'].iloc[0]}, {df['first_click'].iloc[0]} first click"
             if "first_click" in df.columns else "")  # tables saved before had neither column
    ax.set_title(f"Convergence of the win rate ({df['agent'].iloc[0]} agent{rules})")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


@_draws_table("agent", "noise", "density", "games", "mean_score", "sem_score")
def density_score_figure(df: pd.DataFrame):
    """Average final score against mine density, one line per agent (reports 001, 004).

    With several noise models (report 004 §4) there is one panel per model.  Bars are 95 % t
    intervals of the mean (:func:`_t_half_width`), as the tables of differences beside them use (none
    where every game scored the same).  A density of 1 leaves no safe cell (every game is won before a
    move): its points are drawn hollow, off the lines.
    """
    plt, sns = _plt()
    noises = list(dict.fromkeys(df["noise"]))
    # one x range for every panel (a panel with one density would otherwise span a hundredth), and a
    # line style per agent: agents with equal scores draw one line over the other
    fig, axes = plt.subplots(1, len(noises), figsize=(4.2 * len(noises), 3.6), sharex=True, sharey=True,
                             squeeze=False)
    styles = dict(zip(dict.fromkeys(df["agent"]), [("o", "-"), ("s", "--"), ("^", ":"), ("D", "-."),
                                                   ("v", "-"), ("P", "--")] * 4, strict=False))
    for ax, noise in zip(axes[0], noises, strict=True):
        part = df[df["noise"] == noise]
        for label, g in part.groupby("agent", sort=False):
            full = g["density"] >= 1.0
            marker, line = styles[label]
            bars = ax.errorbar(g.loc[~full, "density"], g.loc[~full, "mean_score"],
                               yerr=_t_half_width(g.loc[~full], "sem_score"), marker=marker, ms=3.5,
                               ls=line, capsize=2, label=label)
            if full.any():
                ax.plot(g.loc[full, "density"], g.loc[full, "mean_score"], "o", mfc="none", ms=5,
                        color=bars.lines[0].get_color())
        ax.set_xlabel("mine density (hollow: no safe cell)" if (part["density"] >= 1.0).any()
                      else "mine density")
        ax.set_title(f"clues: {noise}")
        ax.set_ylim(0, 1.02)
    axes[0][0].set_ylabel("average final score (95% interval)")
    axes[0][-1].legend(fontsize=7, loc="best")
    fig.tight_layout()
    return fig


@_draws_table("step", "kind", "row", "col", "source", "position")
def game_steps_figure(df: pd.DataFrame, *, columns: int = 6, max_panels: int = 12):
    """A strip of board pictures, one per move (report 001 "Performance 1").

    Each move's cell is outlined (a square): green when a method proved it (a reveal or a flag), orange
    for a guess or the first click.  Games longer than ``max_panels`` pictures show the start, the first
    click, the last move and evenly spaced moves between; the title says how many moves are shown.
    """
    from matplotlib.patches import Rectangle

    from .methods import RESERVED_SOURCES
    from .plotting import plot_position
    from .positions import Observation

    if max_panels < 3:
        raise ValueError(f"max_panels must be at least 3 (the start, the first click and the last move), "
                         f"got {max_panels}")
    plt, _ = _plt()
    if len(df) <= max_panels:
        keep = np.arange(len(df))
    else:  # the start, the first click (row 1), the last move and evenly spaced moves between
        keep = np.unique(np.r_[0, np.linspace(1, len(df) - 1, max_panels - 1).round().astype(int)])
    shown = df.iloc[keep]
    n = len(shown)
    rows = -(-n // columns)
    height = 2.0 * rows + 0.5  # inches: each board with its title and column numbers, and the title above
    fig, axes = plt.subplots(rows, columns, figsize=(1.6 * columns, height), squeeze=False)
    for ax in axes.ravel()[n:]:
        ax.axis("off")
    for ax, row in zip(axes.ravel(), shown.itertuples(), strict=False):
        obs = Observation.from_text(row.position)
        plot_position(obs, ax=ax)
        if row.kind != "start":  # the move's cell outlined, not covered: proved green, guessed orange
            colour = "#d95f02" if row.source in RESERVED_SOURCES else "#1b9e3a"
            ax.add_patch(Rectangle((row.col - 0.5, row.row - 0.5), 1, 1, fill=False, edgecolor=colour,
                                   linewidth=1.8, zorder=5))
        what = "start" if row.kind == "start" else f"{row.kind} ({row.row},{row.col})\n{row.source}"
        ax.set_title(f"{row.step}: {what}", fontsize=7)
    score = df.attrs.get("score")
    notes = ([f"final score {score:.2f}"] if score is not None else []) + \
        ([f"{int((shown['kind'] != 'start').sum())} of {int((df['kind'] != 'start').sum())} moves shown"]
         if len(shown) < len(df) else [])
    fig.suptitle("One game, move by move" + (f" ({'; '.join(notes)})" if notes else ""), fontsize=10)
    fig.subplots_adjust(left=0.03, right=0.98, bottom=0.02, top=1 - 0.85 / height, wspace=0.15, hspace=0.75)
    return fig


def _t_half_width(g: pd.DataFrame, sem: str) -> np.ndarray:
    """Half widths of 95 % t intervals of means: ``t(0.975, games - 1)`` standard errors (1.96 of them,
    the normal interval, is 10 % too narrow on 12 games and 6.5 times on 2); 0 where there is none."""
    from scipy.stats import t

    games = g["games"].to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        half = t.ppf(0.975, games - 1) * g[sem].to_numpy(dtype=float)
    return np.nan_to_num(half, nan=0.0)


def _share_error(g: pd.DataFrame) -> np.ndarray:
    """Error bars of a mean share: its 95 % t interval, cut at 0 and 1 (an interval of a mean near 1
    would pass 1, which no share can)."""
    mean, half = g["mean_revealed"].to_numpy(), _t_half_width(g, "sem_revealed")
    return np.array([np.minimum(half, mean), np.minimum(half, 1.0 - mean)])


def _twos_and_fives(x: float, _position: int) -> str:
    """A minor tick's label on a log axis: its value at 2 and 5 times a power of ten, else none."""
    if x <= 0:
        return ""
    leading = round(x / 10 ** np.floor(np.log10(x)), 6)
    return f"{x:g}" if leading in (2, 5) else ""


def _log_ms_axis(ax) -> None:
    """A log axis of milliseconds in plain numbers: the 2s and 5s between powers of ten labelled too (1.3 ms
    sat between bare ticks), and every minor tick when the data span less than a decade (one label else)."""
    import matplotlib.ticker

    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:g}"))
    low, high = ax.get_ylim()
    minor = matplotlib.ticker.StrMethodFormatter("{x:g}") if high < 10 * low else \
        matplotlib.ticker.FuncFormatter(_twos_and_fives)
    ax.yaxis.set_minor_formatter(minor)


@_draws_table("agent", "sweep", "area", "density", "games", "mean_seconds", "mean_revealed", "sem_revealed")
def scaling_figure(df: pd.DataFrame):
    """Report 003: runtime and fraction revealed against grid area (top) and against density (bottom)."""
    import matplotlib.ticker

    plt, _ = _plt()
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.4))
    area = df[df["sweep"] == "area"]
    dens = df[df["sweep"] == "density"]
    for label, g in area.groupby("agent", sort=False):
        axes[0, 0].plot(g["area"], 1000 * g["mean_seconds"], marker="o", label=label)
        axes[0, 1].errorbar(g["area"], g["mean_revealed"], yerr=_share_error(g), marker="o", capsize=2,
                            label=label)
    for label, g in dens.groupby("agent", sort=False):
        axes[1, 0].plot(g["density"], 1000 * g["mean_seconds"], marker="o", label=label)
        axes[1, 1].errorbar(g["density"], g["mean_revealed"], yerr=_share_error(g), marker="o", capsize=2,
                            label=label)
    densities = ", ".join(f"{d:g}" for d in dict.fromkeys(area["density"]))
    areas = ", ".join(str(int(a)) for a in dict.fromkeys(dens["area"]))
    at_density = f" (density {densities})" if densities else ""
    at_area = f" ({areas} cells)" if areas else ""
    axes[0, 0].set(xscale="log", xlabel="grid area (cells)", ylabel="ms per game",
                   title=f"runtime against grid area{at_density}, one timing run")
    axes[0, 0].axvline(300, color="grey", ls=":", label="report 003: B impractical above 300")
    revealed = "fraction of safe cells revealed\n(95% interval)"
    axes[0, 1].set(xscale="log", xlabel="grid area (cells)", ylabel=revealed,
                   title=f"fraction revealed against area{at_density}", ylim=(0, 1.02))
    axes[1, 0].set(xlabel="mine density", ylabel="ms per game",
                   title=f"runtime against density{at_area}, one timing run")
    axes[1, 1].set(xlabel="mine density", ylabel=revealed,
                   title=f"fraction revealed against density{at_area}", ylim=(0, 1.02))
    for ax in (axes[0, 0], axes[1, 0]):
        _log_ms_axis(ax)
    for ax in axes[0]:  # areas in plain numbers too, not 4 x 10^1
        ax.xaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:g}"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.FuncFormatter(_twos_and_fives))
    for ax in axes.ravel():
        if ax.get_legend_handles_labels()[0]:  # a sweep left out draws nothing to name
            ax.legend(fontsize=7)
    fig.suptitle("Report 003's plots, ours: classic games (play stops at the first mine), safe first click",
                 fontsize=10)
    fig.tight_layout()
    return fig


@_draws_table("agent", "baseline", "level", "first_click", "games", "win_rate", "ci_low", "ci_high", "report")
def best_figure(df: pd.DataFrame):
    """The best agent's win rates per level and first-click rule, published rates as diamonds; beside
    them, where the games were lost (lost games per 100 by cause, the agent's bar over the baseline's)."""
    from .experiments import loss_causes

    plt, sns = _plt()
    causes = loss_causes(df)
    fig, axes = plt.subplots(1, 2 if causes else 1, figsize=(14 if causes else 7, 4.2), squeeze=False)
    ax = axes[0, 0]
    _grouped_rates(ax, df, group="level", hue="first_click", sns=sns, source="published best")
    games = int(df["games"].iloc[0])
    check = "" if games >= 10_000 else ": a check that it plays, not a test"
    ax.set_title(f"Best agent against the published win rates ({games:,} games each{check})")
    if causes:
        ax = axes[0, 1]
        colours = sns.color_palette("Set2", len(causes))
        rows = [(f"{r['level']}, {r['first_click']}", name, prefix, r) for _, r in df.iterrows()
                for name, prefix in ((r["agent"], ""), (r["baseline"], "v1 "))]
        # pairs of bars (agent over baseline), a gap between conditions
        y = -(np.arange(len(rows)) + 0.6 * (np.arange(len(rows)) // 2))
        left = np.zeros(len(rows))
        for cause, colour in zip(causes, colours, strict=True):
            per100 = np.array([100 * r[f"{prefix}loss: {cause}"] / r["games"] for _, _, prefix, r in rows])
            ax.barh(y, per100, left=left, color=colour, label=cause)
            left += per100
        ax.set_yticks(y, [f"{label} · {name}" for label, name, _, _ in rows], fontsize=8)
        ax.set(xlabel="lost games per 100 played", title="where the games were lost, by cause")
        ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    return fig


@_draws_table("id", "slice", "method", "use_total", "status", "ms", "forced", "found", "missed", "wrong")
def methods_figure(rows: pd.DataFrame):
    """Deductive power (recall of the forced cells) and median time per position, by method and slice."""
    from .bench import summarize

    plt, sns = _plt()
    table = summarize(rows)
    table = table[table["use_total"] & (table["slice"] != "all")]
    fig, axes = plt.subplots(1, 2, figsize=(13, 4))
    sns.barplot(table, x="method", y="recall", hue="slice", ax=axes[0])
    axes[0].set(ylim=(0, 1.05), ylabel="share of forced cells found",
                title="deductive power (with the total)")
    sns.barplot(table, x="method", y="median_ms", hue="slice", ax=axes[1], legend=False)
    axes[1].set(yscale="log", ylabel="median ms per position", title="time per position (with the total)")
    for ax in axes:  # long method names: slanted, anchored at their tick (centred, they overlap)
        plt.setp(ax.get_xticklabels(), rotation=40, ha="right", rotation_mode="anchor")
    handles, labels = axes[0].get_legend_handles_labels()
    axes[0].get_legend().remove()
    fig.legend(handles, labels, title="slice", loc="center right", fontsize=8)
    wrong = table.groupby("method")["wrong"].sum()
    bad = ", ".join(f"{m}: {int(n)}" for m, n in wrong.items() if n) or "none"
    fig.suptitle(f"every method against enumeration; wrong claims with the total: {bad}", fontsize=10)
    fig.tight_layout(rect=(0, 0, 0.89, 1))
    return fig


def methods_density_figure(rows: pd.DataFrame):
    """Recall of each method at each mine density: a heatmap of :func:`~sweeplab.bench.recall_by_density`."""
    from .bench import recall_by_density

    plt, sns = _plt()
    table = recall_by_density(rows)
    fig, ax = plt.subplots(figsize=(1.1 * table.shape[1] + 3, 0.32 * len(table) + 1.2))
    sns.heatmap(table, annot=True, fmt=".2f", vmin=0, vmax=1, cmap="viridis", cbar_kws={"label": "recall"},
                ax=ax)
    ax.set(xlabel="mine density", ylabel="",
           title=f"share of forced cells found, by density ({', '.join(table.attrs['slices'])})")
    return fig


def methods_time_figure(rows: pd.DataFrame, *, columns: int = 4):
    """Median time per position against board area: one panel per method (in colour), the other
    methods in grey behind it, so each curve reads on its own and its place among the others at a glance.
    ``rows``: :func:`sweeplab.bench.run_bench`'s (or :func:`sweeplab.experiments.method_power`'s)."""
    from .bench import median_ms_by_area
    from .methods import METHODS

    plt, _ = _plt()
    times = median_ms_by_area(rows)
    shown = [m for m in METHODS if m in set(times["method"])]
    n_rows = -(-len(shown) // columns)
    fig, axes = plt.subplots(n_rows, columns, figsize=(11, 2.2 * n_rows), sharex=True, sharey=True,
                             squeeze=False)
    for ax, method in zip(axes.flat, shown, strict=False):  # spare panels are hidden below
        for _, other in times.groupby("method"):
            ax.plot(other["area"], other["ms"], color="0.85", lw=1)
        mine = times[times["method"] == method]
        ax.plot(mine["area"], mine["ms"], color="C0", lw=2, marker="o", ms=3)
        ax.set(xscale="log", yscale="log", title=method)
    for ax in axes.flat[len(shown):]:
        ax.set_visible(False)
    fig.supxlabel("board area (cells)")
    fig.supylabel("median ms per position")
    fig.tight_layout()
    return fig


# ------------------------------------------------ how far linear algebra gets (issue 11, notebook 14)
@_draws_table("sweep", "board", "method", "use_total", "height", "width", "density", "first_click",
              "win_rate", "ci_low", "ci_high", "mean_revealed")
def reach_figure(df: pd.DataFrame):
    """Reach per method: win rate without a guess per level (Wilson 95 %), against density, and cells opened.

    Solid bars and lines: with the total; hatched bars and dashed lines: without it.  The bars, the
    density lines and the heat map show one first-click rule each (the first of the table, named in
    the titles).
    """
    plt, sns = _plt()
    levels = df[df["sweep"] == "level"]
    dens = df[df["sweep"] == "density"]
    methods = list(dict.fromkeys(df["method"]))
    colours = dict(zip(methods, sns.color_palette("tab10", len(methods)), strict=True))
    clicks = list(dict.fromkeys(levels["first_click"]))
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.4), gridspec_kw={"width_ratios": [1.5, 1, 1]})
    ax = axes[0]
    zero = levels[levels["first_click"] == clicks[0]] if clicks else levels
    boards = list(dict.fromkeys(zero["board"]))
    totals = sorted(set(zero["use_total"]), reverse=True)
    width = 0.8 / max(len(methods) * len(totals), 1)
    for k, (m, t) in enumerate((m, t) for m in methods for t in totals):
        part = zero[(zero["method"] == m) & (zero["use_total"] == t)].set_index("board").reindex(boards)
        x = np.arange(len(boards)) + (k - (len(methods) * len(totals) - 1) / 2) * width
        rate = part["win_rate"]
        ax.bar(x, rate, width=width * 0.95, color=colours[m], hatch=None if t else "//", edgecolor="white",
               label=m if t else None)
        ax.errorbar(x, rate, yerr=[rate - part["ci_low"], part["ci_high"] - rate], fmt="none", color="#333",
                    capsize=1.5, lw=0.8)
    ax.set_xticks(np.arange(len(boards)), boards)
    ax.set(ylim=(0, 1.05), ylabel="games won without a guess (Wilson 95%)",
           title=f"reach per method (first click {clicks[0] if clicks else '?'}; hatched: no total)")
    ax.legend(fontsize=7, ncol=5, loc="upper center", bbox_to_anchor=(0.5, -0.08), frameon=False)
    ax = axes[1]
    # one first-click rule (the left panel's, where the density sweep has it): the full preset sweeps two,
    # and one line per method through both would join rates of different games
    dclicks = list(dict.fromkeys(dens["first_click"]))
    dclick = clicks[0] if clicks and clicks[0] in dclicks else (dclicks[0] if dclicks else None)
    dens = dens[dens["first_click"] == dclick]
    for (m, t), g in dens.groupby(["method", "use_total"], sort=False):
        g = g.sort_values("density")
        err = [g["win_rate"] - g["ci_low"], g["ci_high"] - g["win_rate"]]
        # methods that reach the same games draw the same line: each its own marker, the later smaller
        k = methods.index(m)
        ax.errorbar(g["density"], g["win_rate"], yerr=err, color=colours[m], ls="-" if t else "--",
                    marker=_MARKERS[k % len(_MARKERS)], ms=7 - 0.4 * k, mfc="none" if k % 2 else colours[m],
                    capsize=2, label=m if t else None)
    if len(dens):
        h, w = int(dens["height"].iloc[0]), int(dens["width"].iloc[0])
        dashed = "; dashed: no total" if not dens["use_total"].astype(bool).all() else ""
        ax.set_title(f"{h}x{w} boards against mine density (first click {dclick}{dashed})")
    ax.set(xlabel="mine density (a whole number of mines: ticks at the densities played)",
           ylabel="games won without a guess (Wilson 95%)", ylim=(0, 1.05))
    if len(dens):
        played = sorted(set(dens["density"]))
        ax.set_xticks(played, [f"{d:.3f}" for d in played], fontsize=7)
        ax.legend(fontsize=7, loc="upper right")
    ax = axes[2]
    if len(zero):
        table = zero[zero["use_total"] == totals[0]].pivot(index="method", columns="board",
                                                            values="mean_revealed")
        table = table.reindex(index=methods, columns=boards)
        sns.heatmap(table, ax=ax, annot=True, fmt=".2f", cmap="viridis", vmin=0, vmax=1,
                    cbar_kws={"label": "share of safe cells"})
    with_total = "with" if totals and totals[0] else "without"
    ax.set(title=f"safe cells open at the first forced guess\n(first click {clicks[0] if clicks else '?'}, "
                 f"{with_total} the total)", xlabel="", ylabel="")
    fig.tight_layout()
    return fig


@_draws_table("scope", "group", "move", "source", "share", "report", "games")
def cascade_figure(df: pd.DataFrame):
    """Share of the decisions of each method of the cascade per level (the brief's shares beside), and by
    move."""
    plt, sns = _plt()
    games = df[(df["scope"] == "game") & (df["source"] != "first")]
    sources = list(dict.fromkeys(games["source"]))
    colours = dict(zip(sources, sns.color_palette("tab10", len(sources)), strict=True))
    groups = list(dict.fromkeys(games["group"]))
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
    ax = axes[0]
    bottom = np.zeros(len(groups))
    for src in sources:
        share = games[games["source"] == src].set_index("group").reindex(groups)["share"].fillna(0).to_numpy()
        ax.bar(groups, share, bottom=bottom, color=colours[src], label=src)
        for i, (b0, v) in enumerate(zip(bottom, share, strict=True)):
            if v >= 0.03:
                ax.text(i, b0 + v / 2, f"{100 * v:.1f}%", ha="center", va="center", fontsize=7, color="white")
        bottom += share
    published = games[games["group"] == "all"].set_index("source")["report"].dropna()
    if len(published):  # one more bar, hatched: the shares the brief quotes (no source), the rest grey
        from .reach import published_share_text

        x, b = len(groups), 0.0
        for src in sources:
            v = float(published.get(src, 0.0))
            if v:
                ax.bar(x, v, bottom=b, color=colours[src], edgecolor="black", hatch="..")
                ax.text(x, b + v / 2, published_share_text(src, v), ha="center", va="center", fontsize=7,
                        bbox={"fc": "white", "ec": "none", "pad": 1, "alpha": 0.85})  # legible on the hatch
                b += v
        ax.bar(x, 1 - b, bottom=b, color="#ccc", edgecolor="black", hatch="..", label="brief: not stated")
        ax.set_xticks(np.arange(len(groups) + 1), [*groups, "brief\n(no source)"])
    ax.set(ylim=(0, 1.02), ylabel="share of the decisions after the opening",
           title=f"who decides each cell ({int(df['games'].iloc[0])} games per level)")
    ax.yaxis.set_major_formatter(_percent())  # as the bars' labels
    ax.legend(fontsize=7, loc="lower left")
    ax = axes[1]
    moves = df[(df["scope"] == "move") & (df["group"] == "all") & (df["source"] != "first")]
    if len(moves):
        table = moves.pivot(index="move", columns="source", values="share").reindex(columns=sources).fillna(0)
        starts = [int(m) for m in table.index]  # bins of unequal width: bars, not a line between them
        names = [str(a) if b == a + 1 else f"{a}-{b - 1}" for a, b in zip(starts, starts[1:], strict=False)]
        bottom = np.zeros(len(table))
        for source in table.columns:
            ax.bar(np.arange(len(table)), table[source], bottom=bottom, color=colours[source], width=0.85,
                   label=source)
            bottom += table[source].to_numpy()
        ax.set_xticks(np.arange(len(table)), [*names, f"{starts[-1]}+"])
    ax.set(xlabel="move number", ylabel="share of the decisions", ylim=(0, 1),
           title="by move number, all levels")
    ax.yaxis.set_major_formatter(_percent())
    fig.tight_layout()
    return fig


def hasse_layers(classes: list[tuple[str, ...]], edges: list[tuple[tuple[str, ...], tuple[str, ...]]]
                 ) -> dict[tuple[str, ...], int]:
    """Layer of each class in a Hasse diagram: 0 for the bottom, then the longest path from it.

    Examples
    --------
    >>> hasse_layers([("a",), ("b",), ("c",)], [(("b",), ("a",)), (("c",), ("b",))])
    {('a',): 0, ('b',): 1, ('c',): 2}
    """
    below = {c: [y for x, y in edges if x == c] for c in classes}
    layer: dict[tuple[str, ...], int] = {}

    def depth(c):
        if c not in layer:
            layer[c] = 1 + max((depth(y) for y in below[c]), default=-1)
        return layer[c]

    for c in classes:
        depth(c)
    return {c: layer[c] for c in classes}


@_draws_table("a", "b", "tested", "witnesses")
def dominance_figure(df: pd.DataFrame):
    """Hasse diagram of dominance between the sound methods (drawn by hand, layered), and witness counts."""
    from .dominance import classes_from_table, hasse_from_table

    plt, sns = _plt()
    classes = classes_from_table(df)
    edges = hasse_from_table(df)
    layer = hasse_layers(classes, edges)
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.6), gridspec_kw={"width_ratios": [1, 1.1]})
    ax = axes[0]
    pos: dict[tuple[str, ...], tuple[float, int]] = {}
    for k in sorted(set(layer.values()), reverse=True):  # top down, each layer ordered by its parents
        row = [c for c in classes if layer[c] == k]
        parents = {c: [pos[x][0] for x, y in edges if y == c and x in pos] for c in row}
        row.sort(key=lambda c: (sum(parents[c]) / len(parents[c]) if parents[c] else 0.5))
        for i, c in enumerate(row):
            pos[c] = ((i + 1) / (len(row) + 1), k)
    for upper, lower in edges:
        (x0, y0), (x1, y1) = pos[upper], pos[lower]
        # an edge over several layers bends around a box it would cross (a straight edge through a box
        # reads as two edges: milp -> gf2 through lp drew "lp finds everything gf2 finds", which is false)
        crossed = [xc for c, (xc, yc) in pos.items() if y1 < yc < y0
                   and abs(x0 + (x1 - x0) * (y0 - yc) / (y0 - y1) - xc) < 0.08]
        # arc3 bends to the left of the travel direction for rad > 0: away from a box on the line's right
        rad = 0.0 if not crossed else (0.3 if crossed[0] >= x0 + (x1 - x0) / 2 else -0.3)
        ax.annotate("", xy=(x1, y1 + 0.12), xytext=(x0, y0 - 0.12),
                    arrowprops={"arrowstyle": "->", "color": "#555", "lw": 1.2,
                                "connectionstyle": f"arc3,rad={rad}"})
    for c, (xc, yc) in pos.items():
        ax.text(xc, yc, "\n= ".join(c), ha="center", va="center", fontsize=9,
                bbox={"boxstyle": "round,pad=0.35", "fc": "#e8eef7", "ec": "#335"})
    top = max(layer.values(), default=0)
    ax.set(xlim=(0, 1), ylim=(-0.6, top + 0.6))
    ax.axis("off")
    n = int(df["positions"].iloc[0]) if "positions" in df.columns else 0
    ax.set_title(f"A above B: A finds every cell B finds ({n} positions)", fontsize=10)
    ax = axes[1]
    methods = list(dict.fromkeys([*df["a"], *df["b"]]))
    table = df.pivot(index="a", columns="b", values="witnesses").reindex(index=methods, columns=methods)
    sns.heatmap(np.log10(table.astype(float) + 1), ax=ax, annot=table.fillna(-1).astype(int).replace(-1, ""),
                fmt="", cmap="rocket_r", cbar_kws={"label": "log10(1 + positions)"})
    ax.set(title="positions where B (column) proves a cell A (row) misses", xlabel="B", ylabel="A")
    fig.tight_layout()
    return fig


@_draws_table("level", "revealed", "nullity", "log10_layouts", "components")
def geometry_figure(df: pd.DataFrame):
    """Nullity and number of layouts per level, and along a game (report 002's example "dimension 68")."""
    plt, sns = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    levels = list(dict.fromkeys(df["level"]))
    _boxplot(df, x="level", y="nullity", hue="level", order=levels, ax=axes[0], legend=False)
    axes[0].set(title="nullity of the frontier's clue matrix", ylabel="variables - rank")
    for lv in levels:
        g = df[df["level"] == lv]
        bins = np.linspace(0, 1, 11)
        idx = np.clip(np.digitize(g["revealed"], bins) - 1, 0, 9)
        med = g.groupby(idx)["log10_layouts"].median()
        axes[1].plot((bins[med.index] + 0.05), med.to_numpy(), marker="o", label=lv)
    axes[1].set(xlabel="share of safe cells open", ylabel="log10 consistent layouts (median)",
                title="layouts left along a game (with the total)")
    axes[1].legend(fontsize=8)
    sizes = [(lv, int(s)) for lv, text in zip(df["level"], df["components"], strict=True)
             for s in str(text).split()]
    if sizes:
        frame = pd.DataFrame(sizes, columns=["level", "size"])
        sns.histplot(frame, x="size", hue="level", hue_order=levels, ax=axes[2], element="step",
                     stat="proportion", common_norm=False, discrete=True)
    axes[2].set(xlabel="frontier cells per independent block", ylabel="share of the blocks (per level)",
                title="block sizes")
    fig.tight_layout()
    return fig


@_draws_table("level", "solvable_by", "boards_per_second")
def boards_figure(df: pd.DataFrame):
    """Boards per second per level and method, and the grades of the boards made."""
    plt, sns = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(13, 4))
    # points, not bars: a bar's length means nothing on a log axis (seaborn's dodge needs two levels)
    sns.pointplot(df, x="solvable_by", y="boards_per_second", hue="level", ax=axes[0], linestyle="none",
                  dodge=0.3 if df["level"].nunique() > 1 else False, markers="o")
    axes[0].set(yscale="log", ylabel="boards per second (one core)", xlabel="solvable by",
                title="generation speed (a level left out was not generated)")
    grades = [c for c in df.columns if c.startswith("grade_")]
    table = df.set_index(df["level"] + " / " + df["solvable_by"])[grades]
    table.columns = [c.removeprefix("grade_") for c in grades]
    table.plot.barh(stacked=True, ax=axes[1], colormap="tab10", width=0.8)
    axes[1].set(xlabel="boards", ylabel="",
                title="grade: the first method of the cascade that solves the board")
    axes[1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))  # outside: inside it hid bars
    fig.tight_layout()
    return fig


# ------------------------------------------------ proof size as a difficulty (issue 10, notebook 15)
@_draws_table("id", "slice", "method", "use_total", "status", "ms", "forced", "found", "missed", "wrong",
              "over_budget", "unproved", "proof_ms", "proof_sizes")
def proofs_figure(rows: pd.DataFrame):
    """Proof sizes by method and level, and the share of proofs that need case analysis (issue 10).

    ``rows`` are ``run_bench(..., proofs=True)`` rows (experiment ``015-proofs``), drawn with the total
    (without it when no row uses it).  Left and middle: distinct rows and combining steps per proof, one
    box per method and level.  Right: share of proved cells whose proof needs an ``assume`` or a
    ``split``, per method and level.  The title counts the proofs drawn and the claims over the prover's
    budget, at that use of the total.
    """
    import matplotlib.ticker

    from .bench import proof_cells, summarize

    plt, sns = _plt()
    cells = proof_cells(rows)
    methods = list(dict.fromkeys(rows["method"]))
    levels = list(dict.fromkeys(rows["slice"]))
    total = bool(rows["use_total"].any())
    setting = f"{'with' if total else 'without'} the total"
    drawn = cells[cells["use_total"] == total]
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.2), gridspec_kw={"width_ratios": [1.3, 1.3, 1]})
    for ax, column, label in ((axes[0], "proof_rows", "distinct rows per proof"),
                              (axes[1], "steps", "combining steps per proof")):
        if len(drawn):
            _boxplot(drawn, x="method", y=column, hue="slice", order=methods, hue_order=levels, ax=ax,
                     fliersize=2, linewidth=0.8, legend=ax is axes[0])
        ax.set_yscale("log", base=2)
        ax.yaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:g}"))
        ax.set(xlabel="", ylabel=label, title=f"{label} ({setting})")
        ax.tick_params(axis="x", rotation=30)
    if axes[0].get_legend() is not None:
        handles, labels = axes[0].get_legend_handles_labels()
        axes[0].get_legend().remove()
        fig.legend(handles, labels, title="level", loc="center right", fontsize=8, title_fontsize=8)
    table = summarize(rows)
    table = table[table["use_total"] == total]
    over = int(table.loc[table["slice"] == "all", "over_budget"].sum())
    table = table[table["slice"] != "all"].assign(case_percent=lambda t: 100 * t["case_share"])
    sns.barplot(table, x="method", y="case_percent", hue="slice", order=methods, hue_order=levels, ax=axes[2],
                legend=False)
    for bars in axes[2].containers:
        axes[2].bar_label(bars, labels=[f"{v:.0f}" if v >= 0.5 else "" for v in bars.datavalues], fontsize=6)
    top = float(table["case_percent"].max()) if table["case_percent"].notna().any() else 0.0
    axes[2].set(xlabel="", ylabel="% of proofs", ylim=(0, max(1.0, 1.2 * top)),
                title=f"proofs that need an assume or a split ({setting})")
    axes[2].tick_params(axis="x", rotation=30)
    if top == 0:
        axes[2].text(0.5, 0.5, "no proof here needs case analysis", transform=axes[2].transAxes, ha="center",
                     fontsize=9, color="#555")
    fig.suptitle(f"Proof size as a measure of difficulty ({setting}): {len(drawn)} proofs, all checked; "
                 f"{over} claim{'s' if over != 1 else ''} over the prover's budget", fontsize=10)
    fig.tight_layout(rect=(0, 0, 0.91, 1))
    return fig


#: Experiment name -> figure function.
FIGURES: dict[str, Callable[[pd.DataFrame], object]] = {
    "000-win-rates": win_rates_figure,
    "000-first-cell": first_cell_figure,
    "000-convergence": convergence_figure,
    "001-density-score": density_score_figure,
    "001-game-steps": game_steps_figure,
    "003-scaling": scaling_figure,
    "004-density-score": density_score_figure,
    "006-methods": methods_figure,
    "011-best": best_figure,
    "014-reach": reach_figure,
    "014-cascade": cascade_figure,
    "014-dominance": dominance_figure,
    "014-geometry": geometry_figure,
    "014-boards": boards_figure,
    "015-proofs": proofs_figure,
}


#: The files :func:`save_figure` writes for one figure: ``<stem>.png`` and ``<stem>.svg``.
FIGURE_FORMATS = ("png", "svg")


def save_figure(fig, path_stem) -> list[str]:
    """Write ``<stem>.png`` and ``<stem>.svg`` (:data:`FIGURE_FORMATS`); returns the paths written."""
    import matplotlib.pyplot as plt

    paths = []
    for ext in FIGURE_FORMATS:
        path = f"{path_stem}.{ext}"
        fig.savefig(path, dpi=130, bbox_inches="tight")
        paths.append(path)
    plt.close(fig)
    return paths
