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
    "proofs_figure",
    "save_figure",
]


def _plt():
    import matplotlib.pyplot as plt
    import seaborn as sns

    sns.set_theme(style="whitegrid", context="notebook", font_scale=0.9)
    return plt, sns


def _report_markers(ax, xs, values, label: str = "report") -> None:
    values = np.asarray(values, dtype=float)
    keep = np.isfinite(values)
    if keep.any():
        ax.scatter(np.asarray(xs)[keep], values[keep], marker="D", s=50, color="black", zorder=5, label=label)


def _grouped_rates(ax, df: pd.DataFrame, *, group: str, hue: str, sns) -> None:
    """Bars of win rates grouped by ``group`` and coloured by ``hue``, with intervals and report diamonds."""
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
        for xi, r, top in zip(x, rate, part["ci_high"], strict=True):
            if np.isfinite(r):
                ax.text(xi, top + 0.02, f"{100 * r:.1f}", ha="center", fontsize=7)
        _report_markers(ax, x, part["report"], label="report" if k == 0 else None)
    ax.set_xticks(np.arange(len(groups)), groups)
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("win rate")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=len(hues) + 1, frameon=False)


def win_rates_figure(df: pd.DataFrame, *, title: str = "Intermediate win rates (report 000)"):
    """Our win rates (Wilson 95 % intervals) per agent and first-click rule; the report's as diamonds."""
    plt, sns = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.8))
    frame = df if "first_click" in df.columns else df.assign(first_click="safe")
    _grouped_rates(ax, frame, group="agent", hue="first_click", sns=sns)
    ax.set_title(f"{title}, {int(df['games'].iloc[0])} games each")
    fig.tight_layout()
    return fig


def first_cell_figure(df: pd.DataFrame):
    """Heatmap of the win rate by fixed first cell (report 000 §2.3.2)."""
    plt, sns = _plt()
    table = df.pivot(index="row", columns="col", values="win_rate")
    fig, ax = plt.subplots(figsize=(6.4, 5.2))
    sns.heatmap(table, ax=ax, cmap="viridis", annot=len(table) * len(table.columns) <= 64, fmt=".2f",
                cbar_kws={"label": "win rate"}, square=True)
    ax.set_title(f"Win rate by first cell ({int(df['games'].iloc[0])} games per cell)")
    fig.tight_layout()
    return fig


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
    ax.set_title(f"Convergence of the win rate ({df['agent'].iloc[0]} agent)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def density_score_figure(df: pd.DataFrame):
    """Average final score against mine density, one line per agent (reports 001, 004).

    With several noise models (report 004 §4) there is one panel per model.
    """
    plt, sns = _plt()
    noises = list(dict.fromkeys(df["noise"]))
    fig, axes = plt.subplots(1, len(noises), figsize=(4.2 * len(noises), 3.6), sharey=True, squeeze=False)
    for ax, noise in zip(axes[0], noises, strict=True):
        part = df[df["noise"] == noise]
        for label, g in part.groupby("agent", sort=False):
            ax.errorbar(g["density"], g["mean_score"], yerr=1.96 * g["sem_score"].fillna(0), marker="o",
                        ms=3, capsize=2, label=label)
        ax.set_xlabel("mine density")
        ax.set_title(f"clues: {noise}")
        ax.set_ylim(0, 1.02)
    axes[0][0].set_ylabel("average final score")
    axes[0][-1].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    return fig


def game_steps_figure(df: pd.DataFrame, *, columns: int = 6, max_panels: int = 12):
    """A strip of board pictures, one per move (report 001 "Performance 1").

    Games longer than ``max_panels`` show evenly spaced moves, always the first and the last.
    """
    from .plotting import plot_position
    from .positions import Observation

    plt, _ = _plt()
    keep = np.unique(np.linspace(0, len(df) - 1, min(len(df), max_panels)).round().astype(int))
    shown = df.iloc[keep]
    n = len(shown)
    rows = -(-n // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(1.6 * columns, 1.8 * rows), squeeze=False)
    for ax in axes.ravel()[n:]:
        ax.axis("off")
    for ax, row in zip(axes.ravel(), shown.itertuples(), strict=False):
        obs = Observation.from_text(row.position)
        proved = row.kind == "reveal" and row.source not in ("guess", "first")
        plot_position(obs, ax=ax, safe=[(row.row, row.col)] if proved else None)
        what = "start" if row.kind == "start" else f"{row.kind} ({row.row},{row.col})\n{row.source}"
        ax.set_title(f"{row.step}: {what}", fontsize=7)
    score = df.attrs.get("score")
    fig.suptitle("One game, move by move" + (f" (final score {score:.2f})" if score is not None else ""),
                 fontsize=10)
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.02, top=0.88, wspace=0.1, hspace=0.6)
    return fig


def scaling_figure(df: pd.DataFrame):
    """Report 003: runtime and fraction revealed against area, and fraction revealed against density."""
    plt, _ = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    area = df[df["sweep"] == "area"]
    dens = df[df["sweep"] == "density"]
    for label, g in area.groupby("agent", sort=False):
        axes[0].plot(g["area"], 1000 * g["mean_seconds"], marker="o", label=label)
        axes[1].errorbar(g["area"], g["mean_revealed"], yerr=1.96 * g["sem_revealed"].fillna(0), marker="o",
                         capsize=2, label=label)
    for label, g in dens.groupby("agent", sort=False):
        axes[2].errorbar(g["density"], g["mean_revealed"], yerr=1.96 * g["sem_revealed"].fillna(0),
                         marker="o", capsize=2, label=label)
    axes[0].set(xscale="log", yscale="log", xlabel="grid area (cells)", ylabel="ms per game",
                title="runtime against grid area")
    axes[0].axvline(300, color="grey", ls=":", label="report 003: B impractical above 300")
    axes[1].set(xscale="log", xlabel="grid area (cells)", ylabel="fraction of safe cells revealed",
                title="fraction revealed against area", ylim=(0, 1.02))
    area_d = int(dens["area"].iloc[0]) if len(dens) else 0
    axes[2].set(xlabel="mine density", ylabel="fraction of safe cells revealed",
                title=f"fraction revealed against density ({area_d} cells)", ylim=(0, 1.02))
    for ax in axes:
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def best_figure(df: pd.DataFrame):
    """The best agent's win rates per level and first-click rule, published rates as diamonds."""
    plt, sns = _plt()
    fig, ax = plt.subplots(figsize=(7, 3.8))
    _grouped_rates(ax, df, group="level", hue="first_click", sns=sns)
    ax.set_title(f"Best agent against the published win rates ({int(df['games'].iloc[0])} games each)")
    fig.tight_layout()
    return fig


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
    axes[1].set(yscale="log", ylabel="median ms per position", title="time per position")
    for ax in axes:
        ax.tick_params(axis="x", rotation=45)
    handles, labels = axes[0].get_legend_handles_labels()
    axes[0].get_legend().remove()
    fig.legend(handles, labels, title="slice", loc="center right", fontsize=8)
    wrong = table.groupby("method")["wrong"].sum()
    bad = ", ".join(f"{m}: {int(n)}" for m, n in wrong.items() if n) or "none"
    fig.suptitle(f"every method against enumeration; wrong claims: {bad}", fontsize=10)
    fig.tight_layout(rect=(0, 0, 0.89, 1))
    return fig


# ------------------------------------------------ proof size as a difficulty (issue 10, notebook 15)
def proofs_figure(rows: pd.DataFrame):
    """Proof sizes by method and level, and the share of proofs that need case analysis (issue 10).

    ``rows`` are ``run_bench(..., proofs=True)`` rows (experiment ``015-proofs``).  Left and middle:
    distinct rows and combining steps per proof, with the total, one box per method and level.
    Right: share of proved cells whose proof needs an ``assume`` or a ``split``, per method and
    level (with the total); the title counts the claims over the prover's budget.
    """
    import matplotlib.ticker

    from .bench import proof_cells, summarize

    plt, sns = _plt()
    cells = proof_cells(rows)
    methods = list(dict.fromkeys(rows["method"]))
    levels = list(dict.fromkeys(rows["slice"]))
    with_total = cells[cells["use_total"]] if cells["use_total"].any() else cells
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.2), gridspec_kw={"width_ratios": [1.3, 1.3, 1]})
    for ax, column, label in ((axes[0], "proof_rows", "distinct rows per proof"),
                              (axes[1], "steps", "combining steps per proof")):
        if len(with_total):
            sns.boxplot(with_total, x="method", y=column, hue="slice", order=methods, hue_order=levels, ax=ax,
                        fliersize=2, linewidth=0.8, legend=ax is axes[0])
        ax.set_yscale("log", base=2)
        ax.yaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:g}"))
        ax.set(xlabel="", ylabel=label, title=f"{label} (with the total)")
        ax.tick_params(axis="x", rotation=30)
    if axes[0].get_legend() is not None:
        handles, labels = axes[0].get_legend_handles_labels()
        axes[0].get_legend().remove()
        fig.legend(handles, labels, title="level", loc="center right", fontsize=8, title_fontsize=8)
    table = summarize(rows)
    over = int(table.loc[table["slice"] == "all", "over_budget"].sum())
    total = bool(table["use_total"].any())
    table = table[(table["slice"] != "all") & (table["use_total"] == total)].assign(
        case_percent=lambda t: 100 * t["case_share"])
    sns.barplot(table, x="method", y="case_percent", hue="slice", order=methods, hue_order=levels, ax=axes[2],
                legend=False)
    for bars in axes[2].containers:
        axes[2].bar_label(bars, labels=[f"{v:.0f}" if v >= 0.5 else "" for v in bars.datavalues], fontsize=6)
    top = float(table["case_percent"].max()) if table["case_percent"].notna().any() else 0.0
    axes[2].set(xlabel="", ylabel="% of proofs", ylim=(0, max(1.0, 1.2 * top)),
                title=f"proofs that need an assume or a split ({'with' if total else 'without'} the total)")
    axes[2].tick_params(axis="x", rotation=30)
    if top == 0:
        axes[2].text(0.5, 0.5, "no proof here needs case analysis", transform=axes[2].transAxes, ha="center",
                     fontsize=9, color="#555")
    fig.suptitle(f"Proof size as a measure of difficulty: {len(cells)} proofs, all checked; "
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
    "015-proofs": proofs_figure,
}


def save_figure(fig, path_stem) -> list[str]:
    """Write ``<stem>.png`` and ``<stem>.svg``; returns the paths written."""
    import matplotlib.pyplot as plt

    paths = []
    for ext in ("png", "svg"):
        path = f"{path_stem}.{ext}"
        fig.savefig(path, dpi=130, bbox_inches="tight")
        paths.append(path)
    plt.close(fig)
    return paths
