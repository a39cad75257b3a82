"""The experiments behind every figure of the notebooks and of ``sweeplab report``.

Each experiment is a keyword-only function returning a tidy
:class:`pandas.DataFrame`, registered in :data:`EXPERIMENTS` with three
parameter presets:

``smoke``
    seconds; what the test suite runs (``SWEEPLAB_PRESET=smoke``);
``quick``
    the default of ``sweeplab report`` and of the notebooks, a few minutes for
    everything (about 3 on two idle cores);
``full``
    publication sizes (``sweeplab report --full``).

Where a seed report states a number, the experiment's table carries it beside
ours in a ``report`` column, so a reader (and ``reports/index.md``) sees both.

Examples
--------
>>> sorted(EXPERIMENTS)[:2]
['000-convergence', '000-first-cell']
>>> EXPERIMENTS["000-win-rates"].report
'000'
"""

from __future__ import annotations

import gc
import inspect
import json
import math
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from .game import LEVELS
from .stats import paired_difference, wilson_interval

__all__ = [
    "PRESETS",
    "Experiment",
    "EXPERIMENTS",
    "preset_from_env",
    "describe_preset",
    "PresetNote",
    "PRESET_PURPOSES",
    "run",
    "check_overrides",
    "check_override_values",
    "difference_table",
    "PUBLISHED_000",
    "PUBLISHED_BEST",
    # the experiments (``run`` calls them with a preset's parameters; call them with your own)
    "win_rates",
    "first_cell_map",
    "convergence",
    "density_scores",
    "game_steps",
    "scaling",
    "best_vs_published",
    "loss_causes",
    "method_power",
    "reach",
    "cascade",
    "dominance",
    "geometry_along_games",
    "board_generation",
    "proof_sizes",
]

PRESETS = ("smoke", "quick", "full")

#: Report 000's win rates on Intermediate (§2.1.3: 0 wins in 3,000 games; §2.2.3; §2.5.3; §3.1.3).
PUBLISHED_000 = MappingProxyType({"random": 0.0, "trivial": 0.5825, "csp": 0.712, "lstsq": 0.68})
#: The best solvers' win rates as the project's brief (issues 4 and 13) quotes them as published: first
#: click safe in a corner, and first click always a zero (10^8 games, expert 10^7 safe; expert zero to
#: three digits).  The brief names no source; notebook 11 lists the public figures nearest them.
PUBLISHED_BEST = MappingProxyType({
    ("beginner", "safe"): 0.9169, ("intermediate", "safe"): 0.7823, ("expert", "safe"): 0.4113,
    ("beginner", "zero"): 0.9717, ("intermediate", "zero"): 0.8908, ("expert", "zero"): 0.543,
})


def preset_from_env(default: str = "quick") -> str:
    """The preset named by the ``SWEEPLAB_PRESET`` environment variable, else ``default``.

    Examples
    --------
    >>> preset_from_env("smoke") in PRESETS
    True
    """
    preset = os.environ.get("SWEEPLAB_PRESET", default).strip().lower() or default
    if preset not in PRESETS:
        raise ValueError(f"SWEEPLAB_PRESET must be one of {PRESETS}, got {preset!r}")
    return preset


#: What each preset is for, in a sentence (:func:`describe_preset`).
PRESET_PURPOSES = MappingProxyType({
    "smoke": "a handful of games per point, only to show that the notebook runs (the tests and the "
             "rendered book use it): its tables and figures are noise",
    "quick": "12 to 40 games per point on the curves against density or area, 100 to 400 per win rate; "
             "minutes on two cores (the default)",
    "full": "publication sizes, hours on two cores",
})


def describe_preset(preset: str) -> str:
    """A line saying what the numbers of a run at ``preset`` can be trusted for.

    Examples
    --------
    >>> describe_preset("quick")
    'preset quick: 12 to 40 games per point on the curves against density or area, 100 to 400 per win \
rate; minutes on two cores (the default); the numbers quoted in the text come from larger runs, each says \
which (set SWEEPLAB_PRESET to change it)'
    """
    if preset not in PRESETS:
        raise ValueError(f"preset must be one of {PRESETS}, got {preset!r}")
    return (f"preset {preset}: {PRESET_PURPOSES[preset]}; the numbers quoted in the text come from larger "
            f"runs, each says which (set SWEEPLAB_PRESET to change it)")


@dataclass(frozen=True)
class PresetNote:
    """:func:`describe_preset` as a notebook shows it: a box above the results, yellow at the smoke
    preset (its tables and figures are noise; the book runs it), so no reader takes them for findings.

    Examples
    --------
    >>> str(PresetNote("smoke")) == describe_preset("smoke")
    True
    >>> "#fff3cd" in PresetNote("smoke")._repr_html_(), "#fff3cd" in PresetNote("quick")._repr_html_()
    (True, False)
    """

    preset: str

    def __post_init__(self) -> None:
        describe_preset(self.preset)  # ValueError naming the presets

    def __str__(self) -> str:
        return describe_preset(self.preset)

    def _repr_html_(self) -> str:
        import html

        noise = self.preset == "smoke"
        colour, edge = ("#fff3cd", "#d39e00") if noise else ("#eef3fb", "#1f5fd1")
        head, _, rest = str(self).partition(": ")
        lead = "These results are noise. " if noise else ""
        style = f"background:{colour};border-left:5px solid {edge};padding:6px 10px;color:#1d1d1d"
        return (f'<div style="{style}"><b>{lead}{html.escape(head.capitalize())}</b>: '
                f"{html.escape(rest)}</div>")


# --------------------------------------------------------------------------- play
def _agent(name: str, options: Mapping[str, Any] | None = None):
    from .agents import make_agent

    return make_agent(name, **dict(options or {}))


def _play(agent: str, options: Mapping[str, Any] | None = None, **kwargs) -> pd.DataFrame:
    """One batch of games through :func:`sweeplab.simulate.play`, one row per game.

    No game is ever left out: a game the agent could not finish (``status ==
    "stuck"``, possible only after wrong flags) stays in the table as lost, and
    ``attrs["aborted"]`` counts them so tables can say so.  A method refusing a
    position is not such a case: agents move on to their next method or a guess.
    """
    from .simulate import play

    df = play(agent, **kwargs, **dict(options or {}))
    df.attrs["aborted"] = int((df["status"] == "stuck").sum()) if len(df) else 0
    return df


def _rate_row(df: pd.DataFrame, column: str = "won") -> dict[str, float]:
    wins = int(df[column].sum())
    n = len(df)
    lo, hi = wilson_interval(wins, n)
    return {"games": n, "wins": wins, "win_rate": wins / n if n else math.nan, "ci_low": float(lo),
            "ci_high": float(hi)}


def _mean_row(df: pd.DataFrame, column: str) -> dict[str, float]:
    values = df[column].to_numpy(dtype=float) if column in df.columns else np.zeros(0)
    n = values.size
    if n == 0:
        return {"games": 0, f"mean_{column}": math.nan, f"sem_{column}": math.nan}
    sem = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return {"games": n, f"mean_{column}": float(values.mean()), f"sem_{column}": sem}


def _progress(iterable, *, total: int, desc: str, progress: bool):
    if not progress:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc, leave=False)


# ---------------------------------------------------------------- experiments
def win_rates(
    *,
    agents: tuple[str, ...],
    level: str = "intermediate",
    games: int,
    first_clicks: tuple[str, ...] = ("safe",),
    first_move: str | tuple[int, int] = "random",
    seed: int = 0,
    progress: bool = False,
) -> pd.DataFrame:
    """Win rate of each agent on a level, with Wilson 95 % intervals (report 000 §2–3).

    Every agent plays the same boards (the same seeds) under each first-click
    rule of ``first_clicks``.  Returns one row per (first_click, agent):
    ``agent, level, first_click, games, wins, win_rate, ci_low, ci_high,
    wrong_claims, report`` (report 000's number, where it has one).
    """
    grid = [(fc, name) for fc in first_clicks for name in agents]
    rows = []
    for fc, name in _progress(grid, total=len(grid), desc="win rates", progress=progress):
        df = _play(name, {"first_move": first_move}, level=level, games=games, seed=seed, first_click=fc)
        rows.append({"agent": name, "level": level, "first_click": fc, **_rate_row(df),
                     "wrong_claims": int(df["wrong_claims"].sum()),
                     "report": PUBLISHED_000.get(name, math.nan)})
    return pd.DataFrame(rows)


def first_cell_map(
    *,
    agent: str = "trivial",
    level: str = "intermediate",
    games_per_cell: int,
    stride: int = 1,
    first_click: str = "none",
    seed: int = 0,
    progress: bool = False,
) -> pd.DataFrame:
    """Win rate by fixed first cell (report 000 §2.3's 16x16 heatmap).

    Every ``stride``-th row and column is tried; the same seeds are used for
    every cell, so cells are compared on the same boards.  Returns one row per
    cell: ``row, col, first_click, games, wins, win_rate, ci_low, ci_high``.
    """
    h, w = LEVELS[level].shape
    cells = [(r, c) for r in range(0, h, stride) for c in range(0, w, stride)]
    rows = []
    for r, c in _progress(cells, total=len(cells), desc="first cell", progress=progress):
        df = _play(agent, {"first_move": (r, c)}, level=level, games=games_per_cell, seed=seed,
                   first_click=first_click)
        rows.append({"row": r, "col": c, "first_click": first_click, **_rate_row(df)})
    return pd.DataFrame(rows)


def convergence(
    *,
    agent: str = "trivial",
    level: str = "intermediate",
    games: int,
    first_click: str = "safe",
    seed: int = 0,
) -> pd.DataFrame:
    """Running win rate against the number of games (report 000 §5.1's convergence graph).

    Returns one row per game: ``game`` (1-based), ``won``, ``win_rate`` (so far),
    ``ci_low``, ``ci_high``, and the run's ``agent``, ``level`` and ``first_click``.
    """
    df = _play(agent, {"first_move": "random"}, level=level, games=games, seed=seed, first_click=first_click)
    won = df["won"].to_numpy(dtype=int)
    n = np.arange(1, won.size + 1)
    wins = np.cumsum(won)
    lo, hi = wilson_interval(wins, n)
    return pd.DataFrame({"game": n, "won": won.astype(bool), "win_rate": wins / n, "ci_low": lo,
                         "ci_high": hi, "agent": agent, "level": level, "first_click": first_click})


def density_scores(
    *,
    agents: Mapping[str, tuple[str, Mapping[str, Any]]],
    shape: tuple[int, int] = (10, 10),
    densities: tuple[float, ...],
    games: int,
    noise: Mapping[str, tuple[str, float] | None] | None = None,
    noise_densities: Mapping[str, tuple[float, ...]] | None = None,
    first_click: str = "none",
    seed: int = 0,
    baseline: str | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Average final score in score mode against mine density (reports 001 and 004).

    Every agent plays the same boards at a given noise model and density.

    Parameters
    ----------
    agents : mapping
        Label -> ``(agent name, agent options)``.
    first_click : str, default "none"
        Neither report protects the first click: like every guess it can hit a mine, which in
        score mode costs score, not the game.
    baseline : str, optional
        The label every other agent is compared with on the same boards (default: the first of
        ``agents``).
    noise : mapping, optional
        Label -> clue noise ``(kind, p)``; every agent plays every noise model
        (``{"exact": None}`` when omitted).
    noise_densities : mapping, optional
        Noise label -> the densities to play for that model instead of
        ``densities`` (exact enumeration under lower-bound clues explodes at
        high density, see notebook 10).

    Returns
    -------
    pandas.DataFrame
        One row per (agent, noise, density): ``agent, noise, density, games, mean_score,
        sem_score, aborted`` (games the agent could not finish; they count in the mean with the
        score they reached, as every game is kept), and against ``baseline`` on the same boards:
        ``baseline`` (its label), ``diff`` (this agent's mean score minus the baseline's) and its
        paired 95 % t interval ``diff_low, diff_high``
        (:func:`sweeplab.stats.paired_mean_difference`; ``nan`` for the baseline itself).
    """
    from .stats import paired_mean_difference

    noise = dict(noise or {"exact": None})
    per_noise = {nz: tuple((noise_densities or {}).get(nz, densities)) for nz in noise}
    if baseline is None:
        baseline = next(iter(agents), None)
    elif baseline not in agents:
        raise ValueError(f"baseline {baseline!r} is not one of the agents' labels; "
                         f"choose from {list(agents)}")
    grid = [(a, nz, d) for a in agents for nz in noise for d in per_noise[nz]]
    rows, scores = [], {}
    for label, nz, d in _progress(grid, total=len(grid), desc="density", progress=progress):
        name, options = agents[label]
        # every agent plays the same boards at a given density: paired comparisons
        board_seed = seed + 1000 * list(noise).index(nz) + int(round(1000 * d))
        df = _play(name, options, shape=shape, density=d, games=games, seed=board_seed,
                   first_click=first_click, mode="score", noise=noise[nz])
        scores[label, nz, d] = df.sort_values("game")["score"].to_numpy(dtype=float)
        rows.append({"agent": label, "noise": nz, "density": d, **_mean_row(df, "score"),
                     "aborted": df.attrs["aborted"], "baseline": baseline})
    for row in rows:
        key = row["agent"], row["noise"], row["density"]
        diff = ((math.nan,) * 3 if row["agent"] == baseline
                else paired_mean_difference(scores[baseline, *key[1:]], scores[key]))
        row.update(diff=diff[0], diff_low=diff[1], diff_high=diff[2])
    return pd.DataFrame(rows)


def difference_table(scores: pd.DataFrame, *, columns: tuple[str, ...] = ("agent",), digits: int = 3
                     ) -> pd.DataFrame:
    """Each agent's mean score minus its baseline's, with the paired 95% interval, as text by density.

    Parameters
    ----------
    scores : pandas.DataFrame
        A table of :func:`density_scores` (experiments ``"001-density-score"`` and
        ``"004-density-score"``).
    columns : tuple of str, default ("agent",)
        The columns of the table (``("noise", "agent")`` when several noise models play).
    digits : int, default 3

    Examples
    --------
    >>> scores = pd.DataFrame({"agent": ["a", "b"], "density": [0.5, 0.5], "baseline": ["a", "a"],
    ...                        "diff": [math.nan, 0.05], "diff_low": [math.nan, 0.01],
    ...                        "diff_high": [math.nan, 0.09]})
    >>> difference_table(scores, digits=2).loc[0.5, "b"]
    '+0.05 [+0.01, +0.09]'
    >>> difference_table(scores.assign(diff=-1e-17, diff_low=-0.002), digits=2).loc[0.5, "b"]
    '+0.00 [-0.00, +0.09]'
    """
    diffs = scores[scores["agent"] != scores["baseline"]]

    def signed(x: float) -> str:  # a rounding error of 0 is "+0.000"; a value just below 0 keeps its "-"
        return f"{0.0 if abs(x) < 1e-12 else x:+.{digits}f}"

    text = [f"{signed(d)} [{signed(lo)}, {signed(hi)}]"
            for d, lo, hi in zip(diffs["diff"], diffs["diff_low"], diffs["diff_high"], strict=True)]
    return diffs.assign(difference=text).pivot(index="density", columns=list(columns), values="difference")


def game_steps(
    *,
    agent: str = "reductio",
    options: Mapping[str, Any] | None = None,
    shape: tuple[int, int] = (5, 5),
    density: float = 0.3,
    seed: int = 0,
    max_steps: int = 40,
) -> pd.DataFrame:
    """Every move of one score-mode game, with the position after it (report 001, "Performance 1").

    Returns one row per move: ``step, kind, row, col, source`` (why the agent
    played it: ``first``, ``guess`` or the method that proved it) and
    ``position`` (text form after the move).
    """
    from . import new_game
    from .referee import referee
    from .simulate import agent_generator_beside

    game = new_game(shape=shape, density=density, first_click="none", mode="score", seed=seed)
    player = _agent(agent, options)
    rng = agent_generator_beside(seed)  # not the board's stream (from which the mines could be redrawn)
    rows = [{"step": 0, "kind": "start", "row": -1, "col": -1, "source": "",
             "position": game.observation.to_text()}]
    for played in referee(player, game, rng):
        if len(rows) > max_steps:
            break
        move = played.move
        rows.append({"step": len(rows), "kind": move.kind, "row": move.row, "col": move.col,
                     "source": move.source, "position": game.observation.to_text()})
    out = pd.DataFrame(rows)
    assert game.layout is not None  # placed by the first reveal
    out.attrs["layout"] = game.layout.astype(int).tolist()
    out.attrs["score"] = game.score
    return out


def scaling(
    *,
    agents: Mapping[str, str],
    areas: tuple[int, ...] = (),
    densities: tuple[float, ...] = (),
    density: float = 0.15,
    area: int = 300,
    games: int,
    seed: int = 0,
    progress: bool = False,
) -> pd.DataFrame:
    """Runtime and fraction revealed against grid area and density (report 003, Figs 1-4).

    Square-ish boards of the given ``areas`` at ``density``, then boards of
    ``area`` cells at each of ``densities``.  Returns one row per game
    aggregate: ``agent, sweep ("area" | "density"), area, density, games,
    mean_seconds, mean_revealed, sem_revealed``.
    """
    points = [("area", a, density) for a in areas] + [("density", area, d) for d in densities]
    grid = [(label, k) for label in agents for k in range(len(points))]
    for label in agents:  # one untimed game each, or compiling would count in the first point's time
        _play(agents[label], {"first_move": "random"}, shape=(6, 6), density=density, games=1, seed=seed,
              first_click="safe")
    rows = []
    for label, k in _progress(grid, total=len(grid), desc="scaling", progress=progress):
        sweep, a, d = points[k]
        h = max(2, int(round(math.sqrt(a))))
        shape = (h, max(2, int(round(a / h))))
        # as timeit does: no garbage collection inside the timed games (a full one, tens of ms, fell in
        # Algorithm A's 1,024-cell point of the quick preset and quadrupled its time per game)
        collecting = gc.isenabled()
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            df = _play(agents[label], {"first_move": "random"}, shape=shape, density=d, games=games,
                       seed=seed + k, first_click="safe")  # both algorithms play the same boards
            seconds = (time.perf_counter() - start) / max(len(df), 1)
        finally:
            if collecting:
                gc.enable()
        rows.append({"agent": label, "sweep": sweep, "area": shape[0] * shape[1], "density": d,
                     "games": len(df), "mean_seconds": seconds,
                     "mean_revealed": float(df["revealed"].mean()),
                     "sem_revealed": float(df["revealed"].std(ddof=1) / math.sqrt(len(df))) if len(df) > 1
                     else math.nan})
    return pd.DataFrame(rows)


def loss_causes(table: pd.DataFrame) -> list[str]:
    """The loss causes of a :func:`best_vs_published` table that either agent lost a game to, in its
    column order (the report's table and figure show these)."""
    return [c.removeprefix("loss: ") for c in table.columns if c.startswith("loss: ")
            and f"v1 {c}" in table.columns and (table[c].sum() or table[f"v1 {c}"].sum())]


def best_vs_published(
    *,
    agent: str = "best",
    baseline: str | None = "best-v1",
    levels: tuple[str, ...] = ("beginner", "intermediate", "expert"),
    first_clicks: tuple[str, ...] = ("safe", "zero"),
    games: int,
    seed: int = 0,
    progress: bool = False,
) -> pd.DataFrame:
    """The best agent's win rates under both first-click rules, beside ``best-v1`` and the published ones.

    Each agent starts where it chooses from the public rules (``best``: the
    corner under ``safe``; on the guaranteed zero (3, 3) on expert, (2, 2) on
    the smaller levels), and ``agent`` and ``baseline`` play the same games
    (:func:`sweeplab.losses.play_losses`, as :func:`sweeplab.play`; under the
    zero rule the two may open different cells).  Returns one row per
    (level, first_click): ``agent``'s ``games, wins, win_rate, ci_low,
    ci_high`` (Wilson 95 %), the baseline's as ``v1_*``, the paired counts
    ``gained`` / ``lost_vs_v1`` (games only one of them won) with the paired
    difference ``gain`` (``agent`` minus baseline), its 95 % interval
    ``gain_low, gain_high`` and McNemar's ``gain_p``
    (:func:`sweeplab.stats.paired_difference`), ``games_per_cpu_s`` (loss
    classification included, after one untimed game of each agent on every condition; ``v1_``
    likewise), ``report`` (published), and the lost games by cause
    (:data:`sweeplab.losses.CAUSES`) as ``loss: <cause>`` and ``v1 loss: <cause>``.
    """
    from .losses import CAUSES, play_losses
    from .warm_up import warm_up

    grid = [(lv, fc) for fc in first_clicks for lv in levels]
    # every kernel compiled (a fresh clone has no cache), then one untimed game each on every condition:
    # compiling and first calls of code only some boards reach would count in a row's speed (beginner's
    # first row read 47 games/CPU s, its second 585; 32 against best-v1's 1,243 from a fresh clone)
    warm_up()
    for name in (agent, baseline):
        if name is not None:
            for lv, fc in grid:
                play_losses(name, level=lv, games=1, seed=seed, first_click=fc)
    rows = []
    for i, (lv, fc) in enumerate(_progress(grid, total=len(grid), desc="best", progress=progress)):
        row: dict[str, Any] = {"agent": agent, "baseline": baseline, "level": lv, "first_click": fc}
        played = {}
        for key, name in (("", agent), ("v1_", baseline)):
            if name is None:
                continue
            cpu = time.process_time()
            df = play_losses(name, level=lv, games=games, seed=seed + i, first_click=fc)
            cpu = time.process_time() - cpu
            played[key] = df["won"].to_numpy(bool)
            row.update({f"{key}{k}": v for k, v in _rate_row(df).items() if not (key and k == "games")})
            row[f"{key}games_per_cpu_s"] = len(df) / cpu if cpu > 0 else math.nan
            causes = df.loc[~df["won"].astype(bool), "cause"].value_counts()
            prefix = "loss" if not key else "v1 loss"
            row.update({f"{prefix}: {c}": int(causes.get(c, 0)) for c in CAUSES})
        if "v1_" in played:
            d = paired_difference(played["v1_"], played[""])
            row.update(gained=d.only_b, lost_vs_v1=d.only_a, gain=d.difference, gain_low=d.low,
                       gain_high=d.high, gain_p=d.p_value)
        row["report"] = PUBLISHED_BEST[(lv, fc)]
        rows.append(row)
    return pd.DataFrame(rows)


def method_power(
    *,
    corpus: str = "tiny",
    seed: int = 0,
    methods: tuple[str, ...] | None = None,
    budget_seconds: float | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Deductive power and speed of every method against enumeration (issue 5, :mod:`sweeplab.bench`).

    ``corpus`` is a path to a corpus file (:func:`sweeplab.corpus.load_corpus`)
    or a preset of :func:`sweeplab.corpus.generate_corpus`: the committed
    ``data/corpus/corpus-<preset>.jsonl.gz`` (shipped in the wheel too),
    else generated from ``seed``.  Returns :func:`sweeplab.bench.run_bench`'s tidy rows (one per
    position, method and use of the total) with ``area`` and ``density``
    columns added.
    """
    from .bench import run_bench
    from .corpus import corpus_positions

    positions = corpus_positions(corpus, seed=seed, progress=progress)
    rows = run_bench(positions, methods=methods, budget_seconds=budget_seconds, progress=progress)
    density = {p.id: (p.obs.mines or 0) / (p.obs.shape[0] * p.obs.shape[1]) for p in positions}
    rows["area"] = rows["height"] * rows["width"]
    rows["density"] = rows["id"].map(density).round(3)
    return rows


# ------------------------------------------------ how far linear algebra gets (issue 11, notebook 14)
def _density_label(h: int, w: int, d: float) -> str:
    return f"{h}x{w} d={d:.2f}"


def reach(
    *,
    methods: tuple[str, ...] | None = None,
    levels: tuple[str, ...] = ("beginner", "intermediate", "expert"),
    first_clicks: tuple[str, ...] = ("zero", "safe"),
    use_totals: tuple[bool, ...] = (True, False),
    games: int,
    density_shape: tuple[int, int] = (16, 16),
    densities: tuple[float, ...] = (),
    density_first_clicks: tuple[str, ...] = ("zero",),
    density_games: int | None = None,
    seed: int = 0,
    out: str | None = None,
    workers: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Share of games each method wins alone, without a guess after the opening (issue 11 item 1).

    Every method (by default :data:`sweeplab.reach.REACH_METHODS`, the sound
    ones) plays the same boards (game ``i`` of ``seed``, as in
    :func:`sweeplab.play`) on each level and first-click rule, with and
    without the total, then on ``density_shape`` boards at each density
    (:func:`sweeplab.reach.reach_games`, run by :func:`sweeplab.reach.run_games`:
    resumable in ``out``, rows independent of ``workers``).

    Returns one row per point: ``sweep`` ("level" | "density"), ``board``,
    ``method, use_total, first_click, first_move, level, height, width, mines,
    density, games, wins, win_rate, ci_low, ci_high`` (Wilson 95 %),
    ``mean_revealed, sem_revealed`` (share of safe cells open at the first
    forced guess).
    """
    from pathlib import Path

    from .game import resolve_board
    from .reach import REACH_METHODS, reach_summary, run_games

    methods = REACH_METHODS if methods is None else methods
    parts = []
    runs = [("level", [{"method": m, "level": lv, "first_click": fc, "use_total": t}
                       for fc in first_clicks for lv in levels for t in use_totals for m in methods], games)]
    if densities:
        h, w = density_shape
        mines = {d: resolve_board(shape=(h, w), density=d)[1] for d in densities}  # refuses a density > 1
        runs.append(("density", [{"method": m, "shape": [h, w], "mines": mines[d], "first_click": fc,
                                  "use_total": t}
                                 for fc in density_first_clicks for d in densities for t in use_totals
                                 for m in methods], density_games or games))
    for sweep, points, n in runs:
        rows = run_games("reach", points, games=n, seed=seed, out=None if out is None else Path(out) / sweep,
                         workers=workers, progress=progress)
        table = reach_summary(rows)
        table.insert(0, "sweep", sweep)
        board = [lv if sweep == "level" else _density_label(h_, w_, d)
                 for lv, h_, w_, d in zip(table["level"], table["height"], table["width"], table["density"],
                                          strict=True)]
        table.insert(1, "board", board)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


def cascade(
    *,
    levels: tuple[str, ...] = ("beginner", "intermediate", "expert"),
    games: int,
    first_click: str = "zero",
    move_bins: tuple[int, ...] = (1, 2, 3, 5, 10, 20, 50, 100, 200),
    seed: int = 0,
    out: str | None = None,
    workers: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Share of each game decided by each method of the cascade, beside the published shares (item 2).

    One player tries trivial -> subset -> rref -> bounded -> lp -> enumerate
    (with the total) and guesses when all fail; each decision goes to the
    first method that proved it (:func:`sweeplab.reach.cascade_games`).
    Returns :func:`sweeplab.reach.cascade_shares` per level and overall, per
    move-number bin, with ``report`` (published: single-clue about 88%, subset
    about 8%, guessed under 2%) and ``games``.
    """
    from .reach import cascade_shares, run_games

    points = [{"level": lv, "first_click": first_click} for lv in levels]
    rows = run_games("cascade", points, games=games, seed=seed, out=out, workers=workers, progress=progress)
    table = cascade_shares(rows, move_bins=move_bins)
    won = rows.groupby(["level", "game"])["won"].first()
    rate = {**won.groupby(level=0).mean().to_dict(), "all": float(won.mean())}
    table["games"] = [games * (len(levels) if g == "all" else 1) for g in table["group"]]
    table["cascade_win_rate"] = table["group"].map(rate)
    return table


def dominance(
    *,
    corpus: str | None = "small",
    random: int = 0,
    seed: int = 0,
    max_side: int = 6,
    use_total: bool = True,
    progress: bool = False,
) -> pd.DataFrame:
    """Does A find everything B finds, for every ordered pair of sound methods? (item 3)

    Tested on the corpus and ``random`` random small positions
    (:func:`sweeplab.dominance.dominance`).  Returns one row per ordered pair:
    ``a, b, tested, witnesses`` (positions where B proves a cell A misses),
    ``dominates``, and the size of the committed smallest witness
    (``witness_covered``, ``witness_area``; :mod:`sweeplab.examples`).
    """
    from .dominance import dominance as run_dominance
    from .dominance import dominance_positions, summary_rows

    positions = dominance_positions(corpus=corpus, random=random, seed=seed, max_side=max_side)
    result = run_dominance(positions, use_total=use_total, progress=progress)
    table = summary_rows(result)
    table["positions"] = result.positions
    return table


def geometry_along_games(
    *,
    levels: tuple[str, ...] = ("beginner", "intermediate", "expert"),
    games: int,
    first_click: str = "zero",
    every: int = 1,
    seed: int = 0,
    out: str | None = None,
    workers: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Rank, nullity, number of layouts and blocks of the positions met along games (item 4).

    The cascade player's positions (:func:`sweeplab.reach.geometry_games`),
    one row each; report 002's hypothetical "dimension 68"
    becomes the measured distribution of ``nullity``.
    """
    from .reach import run_games

    points = [{"level": lv, "first_click": first_click, "every": every} for lv in levels]
    return run_games("geometry", points, games=games, seed=seed, out=out, workers=workers,
                     progress=progress).drop(columns="point")


def board_generation(
    *,
    cases: tuple[tuple[str, str], ...],
    count: int,
    seed: int = 0,
    max_tries: int = 20_000,
    progress: bool = False,
) -> pd.DataFrame:
    """Boards solvable without a guess by a named method: speed and grades (item 5).

    For each ``(level, method)`` of ``cases``, ``count`` boards of
    :func:`sweeplab.generate_board`; returns one row per case: ``level,
    solvable_by, boards, seconds, boards_per_second, mean_tries`` and the
    number of boards of each grade (``grade_<method>``).
    """
    from .boards import GRADES, generate_boards
    from .noguess import CASCADE, solve_layout

    # every method once, untimed: the first case's time was mostly loading the methods' code and compiled
    # kernels (beginner boards solvable by trivial at 5 a second instead of 60)
    warm = np.zeros((4, 4), dtype=bool)
    warm[0, 3] = True
    for m in dict.fromkeys((*CASCADE, *(m for _, m in cases))):
        solve_layout(warm, (3, 0), m)
    rows = []
    for level, method in _progress(cases, total=len(cases), desc="boards", progress=progress):
        start = time.perf_counter()
        boards = [b for _, b in generate_boards(count, level=level, solvable_by=method, seed=seed,
                                                  max_tries=max_tries)]
        seconds = time.perf_counter() - start
        row = {"level": level, "solvable_by": method, "boards": len(boards), "seconds": seconds,
               "boards_per_second": len(boards) / seconds if seconds else math.nan,
               "mean_tries": float(np.mean([b.tries for b in boards]))}
        row.update({f"grade_{g}": sum(b.grade == g for b in boards) for g in GRADES})
        rows.append(row)
    return pd.DataFrame(rows)


# ------------------------------------------------------- proof size as a difficulty (issue 10)
#: Methods whose proofs the proofs experiment measures: one per style of proof (prover.METHOD_STYLES), and
#: enumerate's shortest proofs (case analysis only where no linear chain does).
PROOF_METHODS = ("trivial", "subset", "rref", "bounded", "lp", "gfp", "enumerate")


def proof_sizes(
    *,
    corpus: str = "small",
    methods: tuple[str, ...] = PROOF_METHODS,
    slices: tuple[str, ...] | None = ("beginner", "intermediate", "expert", "dense30", "examples"),
    per_slice: int | None = None,
    totals: tuple[bool, ...] = (True, False),
    seed: int = 0,
    budget_seconds: float | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Proof sizes of every claim, by method and level (issue 10 item 4, notebook 15).

    Runs :func:`sweeplab.bench.run_bench` with ``proofs=True`` on a corpus:
    ``corpus`` is a corpus file or a preset of
    :func:`sweeplab.corpus.generate_corpus` (the committed
    ``data/corpus/corpus-<preset>.jsonl.gz`` (shipped in the wheel too),
    else generated from ``seed``), restricted to ``slices`` and to the first
    ``per_slice`` positions of each.  The levels are positions met in real
    games; ``examples`` are the hand-made positions of
    :mod:`sweeplab.examples` (where case analysis shows up).

    Returns the bench's tidy rows (one per position, method and use of the
    total) with its proof columns; :func:`sweeplab.bench.proof_cells` gives
    one row per proved cell and :func:`sweeplab.bench.summarize` the sizes
    per method and slice.
    """
    from .bench import run_bench
    from .corpus import corpus_positions

    positions = corpus_positions(corpus, seed=seed, progress=progress)
    if slices is not None:
        positions = [p for p in positions if p.slice in slices]
    if per_slice is not None:
        taken: dict[str, int] = {}
        kept = []
        for p in positions:
            if taken.get(p.slice, 0) < per_slice:
                taken[p.slice] = taken.get(p.slice, 0) + 1
                kept.append(p)
        positions = kept
    if not positions:
        raise ValueError(f"no corpus positions in slices {slices} of {corpus!r}")
    return run_bench(positions, methods=methods, totals=totals, budget_seconds=budget_seconds,
                     progress=progress, proofs=True)


# ------------------------------------------------------------------ registry
@dataclass(frozen=True)
class Experiment:
    """A registered experiment: what it reproduces and its parameter presets.

    Attributes
    ----------
    name : str
        Registry key, ``"<report>-<what>"``.
    report : str
        Seed report number (``"000"``..``"004"``), or ``"new"``.
    reference : str
        The report's figure or section this reproduces.
    title : str
    function : callable
        The experiment; keyword-only, returns a tidy DataFrame.
    presets : mapping
        ``smoke``, ``quick`` and ``full`` keyword arguments for ``function``.
    """

    name: str
    report: str
    reference: str
    title: str
    function: Callable[..., pd.DataFrame]
    presets: Mapping[str, Mapping[str, Any]] = field(repr=False)

    def parameters(self, preset: str) -> dict[str, Any]:
        """The keyword arguments of a preset."""
        if preset not in PRESETS:
            raise ValueError(f"preset must be one of {PRESETS}, got {preset!r}")
        return dict(self.presets[preset])


_AGENTS_000 = ("random", "trivial", "csp", "lstsq")
_AGENTS_001 = {
    "basic": ("trivial", {}),
    "advanced": ("reductio", {"use_total": False, "better_decisions": False}),
    "advanced + global information": ("reductio", {"use_total": True, "better_decisions": False}),
    "advanced + better decisions": ("reductio", {"use_total": False, "better_decisions": True}),
}
_AGENTS_004 = {
    "basic": ("trivial", {}),
    "improved": ("probability", {"use_total": False}),
    "improved + total mines": ("probability", {"use_total": True}),
}
_NOISE_004 = {"exact": None, "lost 0.5": ("lost", 0.5), "under 0.5": ("under", 0.5),
              "over 0.5": ("over", 0.5)}
_ALGORITHMS_003 = {"Algorithm A (trivial)": "trivial", "Algorithm B (rref)": "rref"}


def _densities(step: float, stop: float, start: float = 0.05) -> tuple[float, ...]:
    return tuple(round(float(d), 3) for d in np.arange(start, stop + 1e-9, step))


_BOARD_CASES_QUICK = (
    ("beginner", "trivial"), ("beginner", "subset"), ("beginner", "rref"), ("beginner", "bounded"),
    ("intermediate", "trivial"), ("intermediate", "subset"), ("intermediate", "rref"),
    ("expert", "subset"), ("expert", "rref"),
)
_BOARD_CASES_FULL = tuple((lv, m) for lv in ("beginner", "intermediate", "expert")
                          for m in ("trivial", "subset", "rref", "bounded", "lp", "enumerate"))


_REGISTRY = [
    Experiment(
        "000-win-rates", "000", "§2.1.3, §2.2.3, §2.5.3, §3.1.3 (win rates on Intermediate)",
        "Win rates of random, simple logic, logic + CSP and least squares on Intermediate",
        win_rates,
        {
            "smoke": {"agents": _AGENTS_000, "games": 8},
            "quick": {"agents": _AGENTS_000, "games": 400, "first_clicks": ("safe", "zero")},
            "full": {"agents": _AGENTS_000, "games": 3000, "first_clicks": ("none", "safe", "zero")},
        },
    ),
    Experiment(
        "000-first-cell", "000", "§2.3.2 heatmap (win rate by fixed first cell, 16x16)",
        "Simple-logic win rate by fixed first cell on Intermediate",
        first_cell_map,
        {
            "smoke": {"games_per_cell": 2, "stride": 8},
            "quick": {"games_per_cell": 30, "stride": 1},
            "full": {"games_per_cell": 1000, "stride": 1},
        },
    ),
    Experiment(
        "000-convergence", "000", "§5.1 graph (win rate against number of trials)",
        "Running win rate of simple logic against the number of games",
        convergence,
        {"smoke": {"games": 20}, "quick": {"games": 3000}, "full": {"games": 20000}},
    ),
    Experiment(
        "001-density-score", "001", "Figures 1-3 (mine density against average final score)",
        "Score mode: basic and advanced agents, global information, better decisions",
        density_scores,
        {
            "smoke": {"agents": _AGENTS_001, "densities": (0.1, 0.5, 1.0), "games": 2},
            "quick": {"agents": _AGENTS_001, "densities": _densities(0.1, 1.0, start=0.1), "games": 25},
            "full": {"agents": _AGENTS_001, "densities": _densities(0.05, 1.0), "games": 300},
        },
    ),
    Experiment(
        "001-game-steps", "001", "Performance 1 (step-by-step pictures of one 5x5 game, density 0.3)",
        "One game of the advanced agent, move by move",
        game_steps,
        {p: {"options": {"use_total": False, "better_decisions": False}, "seed": 3} for p in PRESETS},
    ),
    Experiment(
        "003-scaling", "003", "Algorithm A Figures 1-4 and Algorithm B plots (runtime, fraction revealed)",
        "Runtime and fraction revealed against grid area and density, Algorithms A and B",
        scaling,
        {
            "smoke": {"agents": _ALGORITHMS_003, "areas": (36, 100), "densities": (0.1, 0.3),
                      "area": 100, "games": 2},
            "quick": {"agents": _ALGORITHMS_003, "areas": (36, 100, 196, 300, 484, 1024),
                      "densities": (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4), "area": 300, "games": 15},
            "full": {"agents": _ALGORITHMS_003, "areas": (36, 100, 196, 300, 484, 1024, 2500, 4900, 10000),
                     "densities": _densities(0.05, 0.5), "area": 300, "games": 100},
        },
    ),
    Experiment(
        "004-density-score", "004",
        "§3 Performance and Improvements plots; §4 lost and under clue plots (density against score; "
        "the over-clue panel is ours)",
        "Score mode: basic and improved agents, total mines, noisy clues",
        density_scores,
        {
            "smoke": {"agents": _AGENTS_004, "noise": _NOISE_004, "densities": (0.1, 0.4),
                      "noise_densities": {"under 0.5": (0.1,)}, "games": 2},
            "quick": {"agents": _AGENTS_004, "noise": _NOISE_004, "densities": _densities(0.15, 0.8),
                      "noise_densities": {"under 0.5": (0.05, 0.1, 0.15, 0.2)}, "games": 12},
            "full": {"agents": _AGENTS_004, "noise": _NOISE_004, "densities": _densities(0.05, 0.9),
                     "noise_densities": {"under 0.5": _densities(0.05, 0.25)}, "games": 200},
        },
    ),
    Experiment(
        "006-methods", "new", "issue 5 (deductive power and speed of every method against enumeration)",
        "Recall, wrong claims and time per position of every method, by board family",
        method_power,
        {"smoke": {"corpus": "tiny", "budget_seconds": 5.0},
         "quick": {"corpus": "small", "budget_seconds": 20.0},
         "full": {"corpus": "full", "budget_seconds": 600.0}},
    ),
    Experiment(
        "011-best", "new", "published best win rates (91.7/78.2/41.1 safe corner; 97.2/89.1/54.3 zero)",
        "Best agent beside best-v1 and the published win rates, both first-click rules; loss causes",
        best_vs_published,
        {"smoke": {"games": 3}, "quick": {"games": 300}, "full": {"games": 10000}},
    ),
    Experiment(
        "014-reach", "new", "issue 11 item 1 (games won by one method alone, without a guess)",
        "Reach: share of games each method wins alone without guessing, per level and density",
        reach,
        {
            "smoke": {"methods": ("trivial", "rref"), "levels": ("beginner",), "first_clicks": ("zero",),
                      "use_totals": (True,), "games": 4, "densities": (0.1,), "density_games": 2,
                      "workers": 1},
            "quick": {"games": 100, "densities": _densities(0.05, 0.25),
                      "density_games": 40},
            "full": {"games": 10_000, "densities": _densities(0.025, 0.3),
                     "density_first_clicks": ("zero", "safe"), "density_games": 10_000,
                     "out": "sweeps/014-reach"},
        },
    ),
    Experiment(
        "014-cascade", "new", "issue 11 item 2 (published: single-clue 88%, subset 8%, guessed <2%)",
        "Share of each game decided by trivial, subset, rref, bounded, lp, enumerate and guesses",
        cascade,
        {"smoke": {"levels": ("beginner",), "games": 2, "workers": 1},
         "quick": {"games": 300},
         "full": {"games": 10_000, "out": "sweeps/014-cascade"}},
    ),
    Experiment(
        "014-dominance", "new", "issue 11 item 3 (which method finds everything another finds)",
        "Dominance between the sound methods, and the smallest counterexamples",
        dominance,
        {"smoke": {"corpus": None, "random": 20},
         "quick": {"corpus": "small", "random": 300},
         "full": {"corpus": "small", "random": 20_000}},
    ),
    Experiment(
        "014-geometry", "new", "issue 11 item 4; report 002's example (\"has dimension 68\", not measured)",
        "Rank, nullity, number of layouts and blocks of the positions along games",
        geometry_along_games,
        {"smoke": {"levels": ("beginner",), "games": 1, "workers": 1},
         "quick": {"games": 40},
         "full": {"games": 2000, "out": "sweeps/014-geometry"}},
    ),
    Experiment(
        "014-boards", "new", "issue 11 item 5 (boards solvable without a guess, graded by method)",
        "Generated boards: speed per level and method, and their grades",
        board_generation,
        {"smoke": {"cases": (("beginner", "trivial"),), "count": 1},
         "quick": {"cases": _BOARD_CASES_QUICK, "count": 5},
         "full": {"cases": _BOARD_CASES_FULL, "count": 100}},
    ),
    Experiment(
        "015-proofs", "new", "issue 10 (proof size as a measure of difficulty)",
        "Proof sizes (combining steps, distinct rows) and case analysis by method and level",
        proof_sizes,
        {"smoke": {"methods": ("trivial", "rref", "enumerate"), "slices": ("beginner", "expert", "examples"),
                   "per_slice": 2},
         "quick": {"per_slice": 25, "budget_seconds": 120.0},
         "full": {"methods": PROOF_METHODS + ("gf2", "lstsq-certified", "milp"), "slices": None,
                  "budget_seconds": 1200.0}},
    ),
]

#: Read-only registry of every experiment, by name.
EXPERIMENTS: MappingProxyType[str, Experiment] = MappingProxyType({e.name: e for e in _REGISTRY})


def check_overrides(name: str, overrides: Mapping[str, Any]) -> None:
    """``ValueError`` naming the parameters ``overrides`` gives that experiment ``name`` does not take.

    Examples
    --------
    >>> check_overrides("014-reach", {"games": 1000})
    >>> check_overrides("001-game-steps", {"games": 1000})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: experiment '001-game-steps' has no parameter 'games'; its parameters: ...
    """
    exp = EXPERIMENTS[name]
    accepted = set(inspect.signature(exp.function).parameters) - {"progress"}
    unknown = sorted(set(overrides) - accepted)
    if unknown:
        raise ValueError(f"experiment {name!r} has no parameter {', '.join(map(repr, unknown))}; its "
                         f"parameters: {', '.join(sorted(accepted))}")


#: Parameters of the experiments that count something of which at least one is needed (games, workers, a
#: board's side); ``random`` (extra random positions) and ``seed`` may be 0.
AT_LEAST_ONE = frozenset({"games", "games_per_cell", "density_games", "count", "every", "stride", "workers",
                          "max_side", "max_steps", "max_tries", "per_slice", "area", "areas"})


def check_override_values(name: str, overrides: Mapping[str, Any], *,
                          preset: str | None = None) -> dict[str, Any]:
    """``overrides`` in the form experiment ``name`` takes them (lists as tuples, one name where it
    takes several as a list of one); ``ValueError`` naming a parameter whose value is not of the
    kind it takes (``games="abc"``, a negative count; :func:`check_overrides` first).  Checked
    against what ``preset`` gives (as :func:`run` does); where it gives nothing (or without a preset),
    against the first value another preset or the default gives (:func:`_reference`).

    Examples
    --------
    >>> check_override_values("014-reach", {"games": 1000, "levels": "expert"})
    {'games': 1000, 'levels': ('expert',)}
    >>> check_override_values("014-reach", {"games": [1000]})
    Traceback (most recent call last):
    ...
    ValueError: experiment '014-reach': games takes a whole number (such as 4), got [1000]
    """
    exp = EXPERIMENTS[name]
    chosen = {} if preset is None else exp.parameters(preset)
    taken = inspect.signature(exp.function).parameters
    out: dict[str, Any] = {}
    for key, value in overrides.items():
        annotation = str(taken[key].annotation)
        given = _given(exp, key)
        if "tuple[int, int]" in annotation:  # a board's shape, or a cell (first_move) beside a name
            shape = annotation.startswith("tuple[int, int]")
            pair = _cell_pair(name, key, value, least=1 if shape else 0, required=shape)
            if pair is not None:
                out[key] = pair
                continue
        reference = chosen.get(key)
        if reference is None:
            reference = _reference(exp, key)
        if value is None and None in given:  # a preset or the default gives None
            out[key] = None
            continue
        out[key] = _as_parameter(name, key, value, reference)
        if key in AT_LEAST_ONE and any(n < 1 for n in _numbers(out[key])):
            what = "a JSON list of whole numbers, each" if isinstance(out[key], tuple) else "a whole number,"
            raise ValueError(f"experiment {name!r}: {key} takes {what} at least 1 (such as "
                             f"{json.dumps(_lists(reference))}), got {value!r}")
        if key.endswith(("density", "densities")) and any(d > 1 for d in _numbers(out[key])):
            such = f" (such as {json.dumps(_lists(reference))})" if reference else ""
            raise ValueError(f"experiment {name!r}: {key} takes mine densities from 0 to 1{such}, got "
                             f"{value!r}")
        if out[key] == () and () not in given:  # levels=[], densities=[]: no preset runs on none
            such = f" (such as {json.dumps(_lists(reference))})" if reference else ""
            raise ValueError(f"experiment {name!r}: {key} takes at least one item{such}, got {value!r}")
    for key, names in out.items():
        _check_names(name, key, names)
    _check_kinds(name, exp, out, chosen, taken)
    cell = out.get("first_move")
    if isinstance(cell, tuple) and "level" in taken:  # 000-win-rates
        level = out.get("level", chosen.get("level", _reference(exp, "level")))
        height, width = LEVELS[level].height, LEVELS[level].width
        if cell[0] >= height or cell[1] >= width:
            raise ValueError(f"experiment {name!r}: first_move {list(cell)} is off the {level} board "
                             f"({height}x{width}): rows 0..{height - 1}, columns 0..{width - 1}")
    return out


def _check_names(name: str, key: str, value: Any) -> None:
    """``ValueError`` when parameter ``key`` names a level, first-click rule, method or agent that does
    not exist (``--set level=nope`` failed inside its experiment, after the earlier ones had run)."""
    from .agents import AGENTS
    from .game import FIRST_CLICKS
    from .methods import METHODS

    kinds = {"level": ("level", LEVELS), "levels": ("level", LEVELS), "methods": ("method", METHODS),
             "agents": ("agent", AGENTS), "agent": ("agent", AGENTS)}
    kind, known = kinds.get(key, ("first-click rule", FIRST_CLICKS) if "first_click" in key else (None, ()))
    if kind is None or value is None:
        return
    items = value.values() if isinstance(value, Mapping) else value if isinstance(value, tuple) else (value,)
    for item in items:  # an agent given as (name, options) under a label (001-density-score)
        given = item[0] if isinstance(item, (tuple, list)) and item else item
        if isinstance(given, str) and given not in known:
            raise ValueError(f"experiment {name!r}: {key} names an unknown {kind} {given!r}; choose from "
                             f"{', '.join(sorted(known))}")


def _check_kinds(name: str, exp: Experiment, out: Mapping[str, Any], chosen: Mapping[str, Any],
                 parameters: Mapping[str, inspect.Parameter]) -> None:
    """``ValueError`` for an overridden value ``out`` holds that names what does not exist, read with the
    values it goes with (a ``baseline`` among the ``agents``, ``slices`` of the ``corpus``; ``parameters``:
    those the experiment takes): each failed inside its experiment, after the earlier ones had run, and
    removed its earlier table."""
    from .agents import AGENTS, make_agent
    from .agents.base import check_first_move
    from .corpus import PRESETS as CORPORA
    from .game import check_noise
    from .methods import METHODS

    def given(key: str) -> Any:  # what the experiment runs with (None: it takes no such parameter)
        if key in out or key not in parameters:
            return out.get(key)
        return chosen.get(key, _reference(exp, key))

    where = f"experiment {name!r}"
    if isinstance(out.get("first_move"), str):
        try:
            check_first_move(out["first_move"])
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    for label, noise in (out.get("noise") or {}).items():
        try:
            check_noise(tuple(noise) if isinstance(noise, list) else noise)
        except ValueError as exc:
            raise ValueError(f"{where}: noise {label!r}: {exc}") from None
    for case in out.get("cases") or ():
        level, method = (case if isinstance(case, tuple) and len(case) == 2 else (None, None))
        if level not in LEVELS or method not in METHODS or not METHODS[str(method)].sound:
            sound = sorted(m for m, info in METHODS.items() if info.sound)
            raise ValueError(f"{where}: cases takes pairs [level, method] of {sorted(LEVELS)} and a sound "
                             f"method ({', '.join(sound)}), got {_lists(case)!r}")
    made = []  # the agents it makes, with their options (the preset's options belong to its agent)
    if ("agent" in out or "options" in out) and "agent" in parameters and "options" in parameters:
        hint = "" if "options" in out else " (the preset's options are its agent's: give --set options=...)"
        made.append((given("agent"), given("options") or {}, hint))
    if isinstance(out.get("agents"), Mapping):
        pairs = "tuple[str, Mapping" in str(parameters["agents"].annotation)  # label -> [name, options]
        form = '{"label": ["trivial", {}]}' if pairs else '{"label": "trivial"}'
        for label, v in out["agents"].items():
            if pairs != isinstance(v, (tuple, list)) or (pairs and len(v) != 2):
                what = "[agent, options]" if pairs else "agents"
                raise ValueError(f"{where}: agents takes labels of {what} (such as {form}), got {label!r}: "
                                 f"{_lists(v)!r}")
            made.append((v[0], v[1] or {}, "") if pairs else (v, {}, ""))
    shape = given("shape")
    for agent, options, hint in made:
        try:
            make_agent(agent, **dict(options))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{where}: {exc}{hint}") from None
        cell = dict(options).get("first_move")
        if isinstance(shape, tuple) and isinstance(cell, (list, tuple)) and (
                cell[0] >= shape[0] or cell[1] >= shape[1]):  # on the board it plays
            raise ValueError(f"{where}: first_move {list(cell)} is off the {shape[0]}x{shape[1]} board")
    if out.get("baseline") is not None:
        agents = given("agents")
        labels = sorted(agents) if isinstance(agents, Mapping) else sorted(AGENTS)
        if out["baseline"] not in labels:
            raise ValueError(f"{where}: baseline {out['baseline']!r} is no agent it compares; choose from "
                             f"{labels}")
    own = out.get("corpus")
    corpus_file = isinstance(own, str) and os.path.isfile(own) and own.endswith((".jsonl", ".gz"))
    if isinstance(own, str) and own not in CORPORA and not corpus_file:  # as corpus_positions reads it
        raise ValueError(f"{where}: corpus {own!r} is neither a preset ({', '.join(CORPORA)}) nor a corpus "
                         f"file (.jsonl or .jsonl.gz)")
    corpus = given("corpus")
    if out.get("slices") and corpus in CORPORA:
        known = {s.name for s in CORPORA[corpus]} | {"examples"}
        unknown = [s for s in out["slices"] if s not in known]
        if unknown:
            raise ValueError(f"{where}: slices {unknown} are not in corpus {corpus!r}; choose from "
                             f"{sorted(known)}")
    bins = out.get("move_bins")
    if bins and (min(bins) < 1 or list(bins) != sorted(set(bins))):
        raise ValueError(f"{where}: move_bins takes increasing move numbers from 1 (such as [1, 2, 5, 10]), "
                         f"got {_lists(bins)}")


def _cell_pair(name: str, key: str, value: Any, *, least: int, required: bool) -> tuple[int, int] | None:
    """``value`` as a pair of whole numbers each at least ``least`` (a board's shape, a cell); ``None``
    when it is no list and a pair is not ``required`` (``first_move="random"``); ``ValueError`` for
    anything else (``shape=[0, 0]``, ``first_move=[3]``)."""
    if not isinstance(value, (list, tuple)):
        if not required:
            return None
    elif len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) and v >= least
                                 for v in value):
        return (value[0], value[1])
    example = "[16, 30]" if required else "[3, 3]"
    raise ValueError(f"experiment {name!r}: {key} takes a pair of whole numbers, each at least {least} "
                     f"(such as {example}), got {value!r}")


def _given(exp: Experiment, key: str) -> list[Any]:
    """The values experiment ``exp``'s presets and its function's default give parameter ``key``."""
    default = inspect.signature(exp.function).parameters[key].default
    given = [exp.presets[p][key] for p in PRESETS if key in exp.presets[p]]
    return given if default is inspect.Parameter.empty else [*given, default]


def _reference(exp: Experiment, key: str) -> Any:
    """What experiment ``exp`` gives parameter ``key`` when not overridden: a preset's value, else the
    function's default, the first that is not ``None``; where all are ``None``, an empty value of the
    kind its annotation names (``tuple[str, ...] | None``: a list); else ``None`` (any value passes)."""
    given = next((g for g in _given(exp, key) if g is not None), None)
    if given is not None:
        return given
    annotation = str(inspect.signature(exp.function).parameters[key].annotation)
    kinds = {"tuple[": (), "Sequence[": (), "Mapping[": {}, "str ": ""}
    return next((empty for prefix, empty in kinds.items() if annotation.startswith(prefix)), None)


def _as_parameter(name: str, key: str, value: Any, reference: Any) -> Any:
    """``value`` for parameter ``key`` in the form of ``reference`` (what the preset or default gives):
    lists as tuples, lists in them too, one value where it gives several as a list of one
    (``levels="expert"``); ``ValueError`` naming the parameter and the form it takes when the kinds
    differ (``games="abc"``, a negative count).

    Examples
    --------
    >>> _as_parameter("014-reach", "levels", "expert", ("beginner", "intermediate"))
    ('expert',)
    >>> _as_parameter("014-reach", "games", "abc", 100)
    Traceback (most recent call last):
    ...
    ValueError: experiment '014-reach': games takes a whole number (such as 100), got 'abc'
    """
    def kind(v: Any) -> str | None:
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, int):
            return "int"
        if isinstance(v, float):
            return "number"
        if isinstance(v, str):
            return "text"
        if isinstance(v, Mapping):
            return "mapping"
        return "list" if isinstance(v, (tuple, list)) else None

    words = {"bool": "true or false", "int": "a whole number", "number": "a number", "text": "a name",
             "mapping": "a JSON object", "list": "a JSON list"}
    want, got = kind(reference), kind(value)
    nested = want == "list" and any(isinstance(v, (tuple, list, dict)) for v in reference)
    item = kind(reference[0]) if want == "list" and reference else None
    if (want == "list" and not nested and got not in ("list", "mapping", None)
            and item in (None, got, "number" if got == "int" else None)):  # one where it takes several
        value, got = (value,), "list"
    def fits(v: Any) -> bool:  # an item of the list's kind (a whole number where numbers are taken)
        return kind(v) == item or (item == "number" and kind(v) == "int")

    if want == "list" and got == "list" and not nested and item is not None and not all(map(fits, value)):
        raise ValueError(f"experiment {name!r}: {key} takes a JSON list whose items are each {words[item]} "
                         f"(such as {json.dumps(_lists(reference))}), got {value!r}")
    if want == "list" and got == "list" and item in ("int", "number") and any(v < 0 for v in value):
        raise ValueError(f"experiment {name!r}: {key} takes a JSON list of numbers, each at least 0 "
                         f"(such as {json.dumps(_lists(reference))}), got {value!r}")
    if want is None or got == want or (want == "number" and got == "int"):
        if want in ("int", "number") and value < 0:  # counts, seeds, densities, budgets, rates
            what = "a count" if want == "int" else "a number"
            raise ValueError(f"experiment {name!r}: {key} takes {what}, at least 0, got {value!r}")
        return _tuples(value)
    such = f" (such as {json.dumps(_lists(reference))})" if reference not in ((), "", {}) else ""
    raise ValueError(f"experiment {name!r}: {key} takes {words[want]}{such}, got {value!r}")


def _numbers(value: Any) -> list[float]:
    """The numbers in ``value``, in its lists and its mapping's values too (``noise_densities``)."""
    if isinstance(value, Mapping):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in _numbers(v)]
    return [value] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


def _tuples(value: Any) -> Any:
    """``value`` with its lists, and lists in them, as tuples (``[["beginner", "rref"]]`` ->
    ``(("beginner", "rref"),)``; a dict's values stay as they are)."""
    return tuple(map(_tuples, value)) if isinstance(value, list) else value


def _lists(value: Any) -> Any:
    """``value`` with its tuples as lists, as JSON (``--set``) writes them."""
    return list(map(_lists, value)) if isinstance(value, tuple) else value


def run(name: str, *, preset: str = "quick", progress: bool = False, **overrides: Any) -> pd.DataFrame:
    """Run a registered experiment with a preset's parameters (and any overrides).

    Parameters
    ----------
    name : str
        A key of :data:`EXPERIMENTS`.
    preset : {"smoke", "quick", "full"}
    progress : bool
        Show a progress bar where the experiment loops.
    **overrides
        Parameters replacing the preset's.  A list (JSON from ``sweeplab report
        --set``) becomes a tuple, lists in it too, as the presets give them.

    Returns
    -------
    pandas.DataFrame
        The experiment's tidy table; ``attrs`` hold the experiment name, the
        preset and every parameter it ran with, defaults included (the
        report's manifest records them).
    """
    try:
        exp = EXPERIMENTS[name]
    except KeyError:
        raise ValueError(f"unknown experiment {name!r}; choose from {sorted(EXPERIMENTS)}") from None
    preset_params = exp.parameters(preset)
    check_overrides(name, overrides)
    # in the preset's form: tuples for JSON lists, one name where it gives several (agents="trivial")
    params = {**preset_params, **check_override_values(name, overrides, preset=preset)}
    if progress and "progress" in inspect.signature(exp.function).parameters:
        params["progress"] = True
    df = exp.function(**params)
    played = inspect.signature(exp.function).bind(**params)
    played.apply_defaults()  # the board, first-click rule, agent... a preset leaves at their defaults
    df.attrs.update({"experiment": name, "preset": preset,
                     "parameters": {k: v for k, v in played.arguments.items() if k != "progress"}})
    return df
