"""``sweeplab report``: run every experiment behind the figures and write ``reports/``.

For each experiment of :data:`sweeplab.experiments.EXPERIMENTS` it writes
``tables/<name>.csv``, ``figures/<name>.png`` and ``.svg``, and a manifest
(``manifest.json``: preset, parameters, seconds, package version, git commit and whether
tracked files were edited, the code's fingerprint, the versions of Python and of the packages that can
change games, the machine);
``index.md`` maps each seed report's figure to ours, with the report's number
beside ours where the report states one.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import sys
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import count_text, interrupted
from ..provenance import environment, machine, method_fingerprints
from ..provenance import made_by as code_made_by
from ..run_directory import _DirectoryLock, atomic_write, check_manifest_writer
from . import add_plugin_argument, output_directory
from .sweep import once_each

__all__ = ["register", "run", "build_report", "index_lines"]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report", help="rebuild the figures and tables into reports/",
        description="Run the experiments behind every figure (quick preset by default, a few minutes: about "
                    "3 on two idle cores) and write figures (PNG, SVG), tables and reports/index.md. "
                    "Exits 1 when an experiment failed (the others are still written; the output names it), "
                    "or a method registered sound claimed a wrong cell in one.")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--full", action="store_true", help="publication sizes instead of the quick preset")
    size.add_argument("--preset", choices=("smoke", "quick", "full"), default=None,
                      help="parameter preset (smoke: seconds, for tests)")
    p.add_argument("--out", default="reports", help="output folder (default: reports)")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these experiments")
    p.add_argument("--seed", type=int, default=0,
                   help="root seed added to every experiment's own seed (default 0: the presets' seeds); the "
                        "experiments on a committed corpus (006-methods and 015-proofs at quick and full, "
                        "014-dominance's corpus positions) read the same positions whatever the seed")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="overrides",
                   help="an experiment parameter instead of the preset's, the value as JSON or text "
                        "(repeatable; with --only: e.g. --only 014-reach --set games=1000)")
    p.add_argument("--list", action="store_true", help="list the experiments and exit")
    add_plugin_argument(p)  # methods or agents of a plugin named with --set (methods=[...] of 014-reach)
    p.set_defaults(func=run)


def _pct(x: float, spec: str = ".1f") -> str:
    """A rate as a percentage, ``—`` when missing; ``spec="g"`` keeps a published rate at the precision it
    was published to (58.25%, 71.2%, 68%), not rounded to ours."""
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:{spec}}%"


def _game_level(name: str, df: pd.DataFrame) -> list[str]:
    """Markdown lines of the "how far linear algebra gets" section (issue 11, notebook 14): tables."""
    if name == "014-reach":
        part = df[(df["sweep"] == "level") & df["use_total"]]
        lines = []
        for fc, g in part.groupby("first_click", sort=False):
            boards = list(dict.fromkeys(g["board"]))
            lines += ["", f"Games won without a guess after the opening (first click {fc}, with the total; "
                      f"{int(g['games'].iloc[0])} games per cell, Wilson 95% interval; in brackets the share "
                      "of safe cells opened before the first forced guess):", "",
                      "| method | " + " | ".join(boards) + " |", "|---|" + "---|" * len(boards)]
            for m, gm in g.groupby("method", sort=False):
                cells = []
                for b in boards:
                    r = gm[gm["board"] == b].iloc[0]
                    cells.append(f"{_pct(r.win_rate)} [{_pct(r.ci_low)}–{_pct(r.ci_high)}] "
                                 f"({_pct(r.mean_revealed)})")
                lines.append(f"| {m} | " + " | ".join(cells) + " |")
        nototal = df[(df["sweep"] == "level") & ~df["use_total"].astype(bool)]
        if len(nototal):
            both = part.merge(nototal, on=["method", "board", "first_click"], suffixes=("", "_no"))
            gain = (both["win_rate"] - both["win_rate_no"]).abs().max()
            boards = list(dict.fromkeys(both["board"]))
            where = f"On {boards[0]}" if len(boards) == 1 else f"On {', '.join(boards[:-1])} and {boards[-1]}"
            rules = list(dict.fromkeys(both["first_click"]))
            lines += ["", f"{where} (first click {' and '.join(rules)}) the reach with and without the total "
                      f"differs by at most {100 * gain:.1f} points, either way (table "
                      "`tables/014-reach.csv`, column `use_total`)."]
        return lines
    if name == "014-cascade":
        from ..reach import published_share_text

        g = df[(df["scope"] == "game") & (df["source"] != "first")]
        groups = list(dict.fromkeys(g["group"]))
        lines = ["", "Share of the decisions after the opening credited to each method (a decision: a cell "
                 "revealed or flagged; cells a zero opens around it are not counted):", "",
                 "| source | " + " | ".join(groups) + " | brief (no source) |",
                 "|---|" + "---|" * (len(groups) + 1)]
        for src, gs in g.groupby("source", sort=False):  # every method of the cascade, 0% ones too
            row = gs.set_index("group").reindex(groups)
            pub = row["report"].iloc[-1]
            cells = [_pct(v) for v in row["share"]]
            published = "—" if math.isnan(pub) else published_share_text(src, pub)
            lines.append(f"| {src} | " + " | ".join(cells) + f" | {published} |")
        lines += ["", "The \"all\" column pools the decisions of every level (expert's games hold most of "
                  "them); the shares the project's brief (issue 11) quotes as published, naming no source, "
                  "are not per level either."]
        return lines
    if name == "014-dominance":
        from ..dominance import classes_from_table, counterexamples, hasse_from_table, witness_size

        edges = hasse_from_table(df)
        lines = ["", f"Tested on {int(df['positions'].iloc[0])} positions. Hasse diagram (A above B: A finds "
                 "every cell B finds), edges of the transitive reduction:", ""]
        lines += [f"- {' = '.join(x)} ⊇ {' = '.join(y)}" for x, y in edges]
        classes = classes_from_table(df)
        reps = [c[0] for c in classes]
        pairs = df.set_index(["a", "b"])
        ce = counterexamples()

        def witness(a, b):
            r = pairs.loc[(a, b)]
            ex = ce.get((a, b))
            size = "" if ex is None else (f", smallest found {witness_size(ex.observation)[0]} covered cells "
                                          f"on {'x'.join(map(str, ex.observation.shape))} (`{ex.name}`)")
            return f"{b} beats {a} on {int(r.witnesses)} of {int(r.tested)} positions{size}"

        lines += ["", "Incomparable pairs (neither finds every cell the other finds), with the smallest "
                  "counterexamples found, in `sweeplab.examples` (fewest covered cells, then smallest board; "
                  "the search was exhaustive on boards of up to 9 cells, larger ones come from random and "
                  "adversarial searches):", ""]
        for i, a in enumerate(reps):
            for b in reps[i + 1:]:
                if not pairs.loc[(a, b), "dominates"] and not pairs.loc[(b, a), "dominates"]:
                    lines.append(f"- {a} vs {b}: {witness(a, b)}; {witness(b, a)}")
        lines += ["", "Strictly ordered pairs (the diagram's edges and their consequences), the smallest "
                  "position found on which the stronger finds more:", ""]
        for a in reps:
            for b in reps:
                if a != b and pairs.loc[(b, a), "dominates"] and not pairs.loc[(a, b), "dominates"]:
                    lines.append(f"- {witness(a, b)}")
        return lines
    if name == "014-geometry":
        from ..reach import geometry_summary

        table = geometry_summary(df)
        lines = ["", "Positions met along the cascade player's games: median [10th–90th percentile]:", "",
                 "| level | positions | frontier | rank | nullity | log10 layouts | blocks | largest block |",
                 "|---|---|---|---|---|---|---|---|"]
        for lv, g in table.groupby("group", sort=False):
            q = g.set_index("quantity")

            def f(k, q=q):
                return f"{q.loc[k, 'median']:.3g} [{q.loc[k, 'p10']:.3g}–{q.loc[k, 'p90']:.3g}]"

            lines.append(f"| {lv} | {int(q['positions'].iloc[0])} | {f('frontier')} | {f('rank')} | "
                         f"{f('nullity')} | {f('log10 layouts')} | {f('blocks')} | {f('largest block')} |")
        lines += ["", "Report 002's \"has dimension 68\" is a hypothetical example (\"For instance if we can "
                  "conclude from 100 equations...\"), not a measurement; here is the measured nullity."]
        return lines
    if name == "014-boards":
        grades = [c for c in df.columns if c.startswith("grade_")]
        lines = ["", "| level | solvable by | boards | boards/s | layouts tried (mean) | grades |",
                 "|---|---|---|---|---|---|"]
        for r in df.itertuples():
            made = ", ".join(f"{c.removeprefix('grade_')} {getattr(r, c)}" for c in grades if getattr(r, c))
            lines.append(f"| {r.level} | {r.solvable_by} | {r.boards} | {r.boards_per_second:.2f} | "
                         f"{r.mean_tries:.1f} | {made} |")
        return lines
    return []


def _comparison(name: str, df: pd.DataFrame) -> list[str]:
    """Markdown bullet lines: the report's number beside ours, or our headline numbers."""
    if name.startswith("014-"):
        return _game_level(name, df)
    if "report" in df.columns and "win_rate" in df.columns:
        keys = [c for c in ("agent", "level", "first_click") if c in df.columns and df[c].nunique() > 1]
        keys = keys or ["agent"]
        # 011: the best published solvers' rates (issue 13's table), not a seed report's
        source = "published best" if name == "011-best" else "report"
        lines = [
            f"- {' / '.join(str(getattr(r, k)) for k in keys)}: {source} **{_pct(r.report, 'g')}**, "
            f"ours **{_pct(r.win_rate)}** (95% CI {_pct(r.ci_low)}–{_pct(r.ci_high)}, {r.games} games)"
            for r in df.itertuples()
        ]
        if name == "000-win-rates":
            rules = " and ".join(f'"{fc}"' for fc in dict.fromkeys(df["first_click"]))
            lines.append(f"- report 000 does not say whether its first click is protected (its first move is "
                         f"a random cell); ours use first click {rules}, and notebook 07 explains the gaps")
        if name == "011-best":
            lines.append(f"- {int(df['games'].min()):,} games a condition: a check that the agent plays, "
                         "not a test against the published rates (their samples are 10^7-10^8 games); the "
                         "README gives rates from 50,000-200,000 evaluation games a condition")
            lines.append("- the published rates are those the project's brief (issues 4 and 13) quotes, "
                         "with their sample sizes but no source; notebook 11 lists the public figures "
                         "nearest them")
        return lines + (_best_lines(df) if name == "011-best" else [])
    if "mean_score" in df.columns:
        lines = []
        full = df["density"] >= 1.0  # no safe cell: every game is won before a move, score 1
        for (agent, noise), g in df[~full].groupby(["agent", "noise"], sort=False):
            lo, hi = g.iloc[0], g.iloc[-1]
            games = int(g["games"].iloc[0])
            to = f" → {hi.mean_score:.2f} at {hi.density:g}" if len(g) > 1 else ""  # one density: no range
            lines.append(f"- {agent}, clues {noise}: ours {lo.mean_score:.2f} at density {lo.density:g}"
                         f"{to} ({games} games per point)")
        if full.any():
            lines.append("- at density 1 no cell is safe: every game is won before a move (score 1.00 for "
                         "every agent), so that point of the curves says nothing about the agents"
                         + (" (report 001 gives 1.0 there for its global-information agent)"
                            if name.startswith("001") else ""))
        lines.append("- the report's text gives no score read from these curves"
                     + (" besides that 1.0 (its only other score is 0.75, its Performance 1 game, in the "
                        "next section)" if name.startswith("001") else ""))
        return lines
    if name == "000-first-cell":
        best = df.loc[df["win_rate"].idxmax()]
        games, mean = int(df["games"].iloc[0]), _pct(df["win_rate"].mean())
        return [f"- cells {len(df)}, {games} games each (the same boards), first click unprotected (the "
                f"experiment asks which first cell is best; report 000 does not say); mean {mean}; the "
                f"highest, ({int(best.row)},{int(best.col)}) at {_pct(best.win_rate)} (95% CI "
                f"{_pct(best.ci_low)}–{_pct(best.ci_high)}; rows and columns from 0, the report's heatmap "
                f"counts from 1), is the maximum of {len(df)} noisy cells, not evidence of a best cell; the "
                "report's heatmap has no numbers in its text "
                "(\"border cells seem to give a bit better winrates, the difference is minor\")"]
    if name == "000-convergence":
        last = df.iloc[-1]
        lines = [f"- safe first click, after {int(last.game)} games: {_pct(last.win_rate)} (95% CI "
                 f"{_pct(last.ci_low)}–{_pct(last.ci_high)}); report 000 §5.1 claims ±1 point after 1,000 "
                 "games"]
        at = df[df["game"] == 1000]
        if len(at):  # the claim judged on our own run
            r = at.iloc[0]
            lines.append(f"- ours after 1,000 games: {_pct(r.win_rate)} (95% CI {_pct(r.ci_low)}–"
                         f"{_pct(r.ci_high)}), about ±{100 * (r.ci_high - r.ci_low) / 2:.1f} points, not ±1")
        return lines
    if name == "003-scaling":
        lines = []
        for agent, g in df[df["sweep"] == "area"].groupby("agent", sort=False):
            first, last = g.iloc[0], g.iloc[-1]
            to = f" → {1000 * last.mean_seconds:.1f} ms at {int(last.area)} cells" if len(g) > 1 else ""
            lines.append(f"- {agent}: {1000 * first.mean_seconds:.1f} ms per game at {int(first.area)} cells"
                         f"{to}")
        return lines
    if name == "006-methods":
        from ..bench import summarize

        table = summarize(df)
        table = table[table["slice"] == "all"]
        without = table[~table["use_total"].astype(bool)]
        wrong = ", ".join(f"{r.method} {int(r.wrong)}" for r in without.itertuples() if r.wrong) or "none"
        lead = ([f"With the total (the table has the runs without it too; their wrong claims: {wrong}):", ""]
                if len(without) else [])
        return lead + [f"- {r.method}: recall {_pct(r.recall)}, wrong claims {int(r.wrong)}, "
                       f"median {r.median_ms:.2f} ms per position ({int(r.answered)} positions)"
                       for r in table[table["use_total"].astype(bool)].itertuples()]
    if name == "001-game-steps":
        return [f"- {len(df) - 1} moves, final score {df.attrs.get('score', float('nan')):.2f} "
                "(report 001's own game: final score 0.75)"]
    if name == "015-proofs":
        return _proof_sizes_lines(df)
    return []


def _best_lines(df: pd.DataFrame) -> list[str]:
    """Markdown tables of the best-agent experiment (issue 13): against the baseline, speed, loss causes."""
    agent, baseline = df["agent"].iloc[0], df["baseline"].iloc[0]
    if not isinstance(baseline, str):
        return []
    lines = ["", f"`{agent}` against `{baseline}` on the same games (games only one of them won, the "
             "paired difference with its 95% interval and McNemar's p) and games per CPU second "
             "(loss classification included):", "",
             f"| level | first click | {agent} | {baseline} | only {agent} / only {baseline} | difference "
             f"(points) | p | games/CPU s, {agent} / {baseline} |", "|---|---|---|---|---|---|---|---|"]
    for r in df.itertuples():
        lines.append(f"| {r.level} | {r.first_click} | {_pct(r.win_rate)} | {_pct(r.v1_win_rate)} | "
                     f"+{r.gained} / -{r.lost_vs_v1} | {100 * r.gain:+.2f} [{100 * r.gain_low:+.2f}, "
                     f"{100 * r.gain_high:+.2f}] | {r.gain_p:.3g} | {r.games_per_cpu_s:.0f} / "
                     f"{r.v1_games_per_cpu_s:.0f} |")
    from ..experiments import loss_causes

    causes = loss_causes(df)
    lines += ["", f"Lost games per 100 played, by cause (`sweeplab.losses`), {agent} / {baseline}:", "",
              "| level | first click | " + " | ".join(causes) + " |", "|---|---|" + "---|" * len(causes)]
    for _, r in df.iterrows():
        per100 = [f"{100 * r[f'loss: {c}'] / r['games']:.1f} / {100 * r[f'v1 loss: {c}'] / r['games']:.1f}"
                  for c in causes]
        lines.append(f"| {r['level']} | {r['first_click']} | " + " | ".join(per100) + " |")
    return lines


def _proof_sizes_lines(df: pd.DataFrame) -> list[str]:
    """Markdown tables of the proofs experiment (issue 10): sizes by method, and by method and level."""
    from ..bench import summarize

    table = summarize(df)
    lines = []
    for use_total, g in table.groupby("use_total", sort=False):
        whole = g[g["slice"] == "all"]
        setting = f"{'with' if use_total else 'without'} the total"
        lines += ["", f"Proof sizes {setting} (SPEC §6: combining "
                  "steps, distinct rows; median / 90th percentile / max over the proved cells; every proof "
                  "checked):",
                  "", "| method | proved | steps | rows | case analysis | over budget | proof ms (median) |",
                  "|---|---|---|---|---|---|---|"]
        for r in whole.itertuples():
            steps = f"{r.proof_steps_median:g} / {r.proof_steps_p90:g} / {r.proof_steps_max:g}"
            sizes = f"{r.proof_rows_median:g} / {r.proof_rows_p90:g} / {r.proof_rows_max:g}"
            lines.append(f"| {r.method} | {r.proved} | {steps} | {sizes} | {_pct(r.case_share)} | "
                         f"{r.over_budget} | {r.proof_median_ms:.1f} |")
        levels = [s for s in dict.fromkeys(g["slice"]) if s != "all"]
        lines += ["", f"Median [90th percentile] distinct rows per proof, by level, {setting}:", "",
                  "| method | " + " | ".join(levels) + " |", "|---|" + "---|" * len(levels)]
        for method, gm in g[g["slice"] != "all"].groupby("method", sort=False):
            row = gm.set_index("slice").reindex(levels)
            cells = ["—" if not math.isfinite(m) else f"{m:g} [{p:g}]"
                     for m, p in zip(row["proof_rows_median"], row["proof_rows_p90"], strict=True)]
            lines.append(f"| {method} | " + " | ".join(cells) + " |")
    return lines


def index_lines(results: list[dict[str, Any]], *, preset: str, mixed_code: bool = False) -> list[str]:
    """The lines of ``index.md``: one section per experiment, report number beside ours.

    ``preset`` is the run's (``"mixed"`` when the folder holds experiments of several: each
    record's own ``preset`` and ``seed`` are in the table); ``mixed_code`` says that different
    code made them (each record's ``git_commit`` and ``code`` are in ``manifest.json``).
    """
    from ..experiments import EXPERIMENTS

    lines = [
        "# sweeplab report",
        "",
        f"Preset **{preset}**, generated {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}. "
        "Each section maps a seed report's figure to ours (figures/ as PNG and SVG, tables/ as CSV); "
        "where the report states a number it stands beside ours. Notebooks 07–10 discuss every difference "
        "from seed reports 000, 001, 003 and 004 (report 002, which has no section here: notebooks 02 "
        "and 04); notebooks 06, 11, 14 and 15 discuss our own experiments (the sections "
        "006, 011, 014 and 015)."
        + (" **Different code made these experiments**: each one's git commit and code fingerprint are in "
           "`manifest.json`." if mixed_code else ""),
        "",
        "| report | report's figure | our figure | table | preset | seed | seconds |",
        "|---|---|---|---|---|---|---|",
    ]
    for res in results:
        exp = EXPERIMENTS[res["name"]]
        fig = f"[{res['name']}](figures/{res['name']}.png)" if res.get("figures") else "—"
        table = f"[csv](tables/{res['name']}.csv)" if res.get("table") else "—"
        lines.append(f"| {exp.report} | {exp.reference} | {fig} | {table} | {res.get('preset', preset)} | "
                     f"{res.get('seed', 0)} | {res['seconds']:.1f} |")
    lines += ["", "Not reproduced, as they hold no data to compare: report 000's example boards (§2.2.4, "
              "§2.4.1: in `sweeplab.examples` and notebook 01), report 004's diagrams (§3's border and its "
              "splitting: notebook 01; §4's lost and under clues: notebook 10) and report 004 §5's running "
              "results, screenshots of single games."]
    for res in results:
        exp = EXPERIMENTS[res["name"]]
        ours = f"`figures/{res['name']}.png`" if res.get("figures") else "none (failed)"
        lines += ["", f"## {exp.report}: {exp.title}", "", f"Report: {exp.reference}. Ours: {ours}.", ""]
        if res.get("error"):
            lines.append(f"- **failed**: {res['error']}")
        if res.get("bugs"):
            lines.append(f"- **bugs**: methods registered sound claimed wrong cells: {res['bugs']}")
        lines += res.get("comparison", [])
    return lines


def build_report(out: str | Path, *, preset: str = "quick", only: list[str] | None = None, seed: int = 0,
                 overrides: dict[str, Any] | None = None, progress: bool = True) -> list[dict[str, Any]]:
    """Run the experiments and write tables, figures, ``manifest.json`` and ``index.md`` under ``out``.

    Experiments an earlier report left in ``out`` and not run now (``only``) are
    kept in the manifest and the index with the preset, seed and code (git commit
    and fingerprint) that made them; the top level says ``"mixed"`` where they
    differ.  The manifest and the index are written after each experiment, so a
    report stopped part way (Ctrl-C) describes every table it leaves.

    ``overrides`` replace the preset's parameters in every experiment run (each must take them:
    :func:`~sweeplab.experiments.check_overrides`); a record's ``preset`` then names them
    (``"quick, games=1000"``).

    Returns one record per experiment run now (name, preset, seed, seconds, paths, comparison lines).
    """
    import matplotlib

    matplotlib.use("Agg")
    from ..experiments import EXPERIMENTS, check_override_values, check_overrides

    names = list(only) if only else list(EXPERIMENTS)
    unknown = [n for n in names if n not in EXPERIMENTS]
    if unknown:
        raise ValueError(f"unknown experiment(s) {unknown}; choose from {sorted(EXPERIMENTS)}")
    overrides = dict(overrides or {})
    for name in names:  # before any experiment runs
        try:
            check_overrides(name, overrides)
        except ValueError as exc:
            raise ValueError(f"{exc}; choose the experiments that take it with --only") from None
        check_override_values(name, overrides, preset=preset)
    label = ", ".join([preset, *(f"{k}={v!r}" for k, v in overrides.items())])
    out = Path(out)
    check_manifest_writer(out, "report", flag="out")  # a sweep's folder: its manifest would be replaced
    (out / "tables").mkdir(parents=True, exist_ok=True)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    iterator = _experiments_progress(names, preset=preset) if progress else names
    made_by = {**code_made_by(), "environment": environment(), "machine": machine()}
    lock = _DirectoryLock(out, "report")  # two reports in one folder would write each other's records
    try:
        earlier = _earlier_records(out, rerun=names)  # read before any table of theirs is replaced
        results: list[dict[str, Any]] = []
        for name in iterator:
            try:
                results.append(_report_one(
                    out, name, preset=preset, label=label, seed=seed, overrides=overrides, made_by=made_by,
                    progress=progress, before_writing=lambda record: _write_manifest(
                        out, earlier, [*results, record], preset=label, seed=seed)))
            except _Stopped as stop:  # the index says so, then the report stops
                results.append(stop.record)
                _write_manifest(out, earlier, results, preset=label, seed=seed)
                raise
            _write_manifest(out, earlier, results, preset=label, seed=seed)
    finally:
        lock.release()
    return results


def _experiments_progress(names: list[str], *, preset: str) -> Iterator[str]:
    """The experiments, with a bar over them where bars can nest (a terminal, a notebook), or one line
    each on stderr where they cannot: in a log file the experiments' own bars below it would write the
    cursor-moving escape codes of nested bars."""
    from tqdm.auto import tqdm

    if sys.stderr.isatty() or "notebook" in tqdm.__module__:
        bar = tqdm(names, desc=f"report ({preset})", unit="experiment")
        for name in bar:
            bar.set_postfix_str(name)
            yield name
        return
    for k, name in enumerate(names, 1):
        print(f"report ({preset}): {name}, experiment {k} of {len(names)}", file=sys.stderr, flush=True)
        yield name


class _Stopped(KeyboardInterrupt):
    """A Ctrl-C while an experiment's table and figures were written, with the record that says so."""

    def __init__(self, record: dict[str, Any]):
        super().__init__()
        self.record = record


def _report_one(out: Path, name: str, *, preset: str, label: str, seed: int, overrides: dict[str, Any],
                made_by: dict[str, Any], progress: bool,
                before_writing: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """Run experiment ``name``, write its table and figures, and return its record.  A failure leaves no
    table or figures of it (an earlier run's are gone too, as its record says); so does a Ctrl-C once its
    files are being written (a new table beside old figures), which then ends the report.  Before its
    files are touched, ``before_writing`` records that they are being written, and the earlier run's are
    removed: a process killed meanwhile (SIGKILL, which nothing catches) leaves a record that says so, not
    the earlier record beside a new table."""
    from ..experiments import EXPERIMENTS
    from ..experiments import run as run_experiment
    from ..figures import FIGURE_FORMATS, FIGURES, save_figure

    start = time.perf_counter()
    record: dict[str, Any] = {"name": name, "preset": label, "seed": seed, **made_by, "figures": [],
                              "comparison": []}
    files = [out / "tables" / f"{name}.csv", *(out / "figures" / f"{name}.{ext}" for ext in FIGURE_FORMATS)]
    writing = False
    try:
        exp = EXPERIMENTS[name]
        own = exp.parameters(preset).get("seed", inspect.signature(exp.function).parameters["seed"].default)
        # a preset's resumable sweep folder ("sweeps/014-reach") in this report's folder, not where the
        # command runs (two reports from one place would share it), one per seed and --set values (another
        # would be refused as another run, and the failed experiment lose its earlier table)
        sweeps = exp.parameters(preset).get("out")
        inside = ({"out": str(out / (sweeps + _run_tag(seed, overrides)))}
                  if sweeps and "out" not in overrides else {})
        df = run_experiment(name, preset=preset, progress=progress, **({"seed": own + seed} if seed else {}),
                            **inside, **overrides)
        writing = True
        before_writing({**record, "error": _KILLED, "seconds": time.perf_counter() - start})
        for path in files:
            path.unlink(missing_ok=True)
        df.to_csv(files[0], index=False)
        record["table"] = str(files[0])
        record["figures"] = save_figure(FIGURES[name](df), out / "figures" / name)
        record["comparison"] = _comparison(name, df)
        record["parameters"] = {k: repr(v) for k, v in df.attrs.get("parameters", {}).items()}
        # the code of a plugin's methods and agents it ran (sweeplab's own is "code"): named in the
        # parameters, or in the table (006's methods=None runs every registered method)
        ran = sorted(df["method"].astype(str).unique()) if "method" in df.columns else []
        record["methods"] = method_fingerprints([exp.parameters(preset), overrides, ran])
        bugs = _sound_methods_wrong(df)
        if bugs:
            record["bugs"] = bugs
    except BaseException as exc:  # one failed experiment must not lose the others' results
        stopped = not isinstance(exc, Exception) or interrupted(exc)  # compiled code may wrap a Ctrl-C
        if stopped and not writing:  # the earlier run's files and record stand, as they were
            if isinstance(exc, Exception):
                raise KeyboardInterrupt from exc
            raise
        record["error"] = ("stopped while its table and figures were written: run it again" if stopped
                           else f"{type(exc).__name__}: {exc}")
        record.pop("table", None)
        record.update(figures=[], comparison=[], seconds=time.perf_counter() - start)
        for path in files:
            path.unlink(missing_ok=True)
        if stopped:
            raise _Stopped(record) from exc
    record["seconds"] = time.perf_counter() - start
    return record


def _sound_methods_wrong(df: Any) -> str:
    """The methods registered sound that claimed wrong cells in a table of scored claims (a ``wrong``
    column per ``method``), with their counts; ``""`` for none.  SPEC §4: a bug, not a score, as
    ``sweeplab bench`` says too."""
    from ..methods import METHODS

    if not {"method", "wrong"} <= set(df.columns):
        return ""
    sound = [m for m in df["method"].unique() if m in METHODS and METHODS[m].sound]
    wrong = df[df["method"].isin(sound)].groupby("method", sort=False)["wrong"].sum()
    return ", ".join(f"{m!r} {int(n)}" for m, n in wrong[wrong > 0].items())


def _run_tag(seed: int, overrides: dict[str, Any]) -> str:
    """What tells a preset's sweep folder of this report from another's: ``""`` for the preset as it is,
    else the seed and a hash of the ``--set`` values.

    Examples
    --------
    >>> _run_tag(0, {}), _run_tag(3, {}), _run_tag(0, {"games": 500})
    ('', '-seed3', '-seta6acffde')
    """
    import hashlib

    tag = f"-seed{seed}" if seed else ""
    if overrides:
        text = json.dumps(overrides, sort_keys=True, default=repr)
        tag += "-set" + hashlib.sha256(text.encode()).hexdigest()[:8]
    return tag


#: The record of an experiment whose files are being written, until they all are: what a killed report leaves.
_KILLED = ("its table and figures were being written when the report was killed; they may be incomplete: "
           "run it again")


def _write_manifest(out: Path, earlier: list[dict[str, Any]], results: list[dict[str, Any]], *, preset: str,
                    seed: int) -> None:
    """``manifest.json`` and ``index.md`` of the experiments run so far and those kept from ``earlier``.

    An earlier report's experiments keep their places, those run again take theirs, new ones come last.
    Each of ``preset``, ``seed`` and :data:`_MADE_BY` is written at the top when every experiment shares
    it, else ``"mixed"`` (a record from before records carried them has none: mixed)."""
    now = {r["name"]: r for r in results}
    every = [now.pop(r["name"], r) for r in earlier] + list(now.values())
    top: dict[str, Any] = {}
    for key, value in (("preset", preset), ("seed", seed), *((k, results[0][k]) for k in _MADE_BY)):
        top[key] = value if all(key in r and r[key] == value for r in every) else "mixed"
    manifest = {**top, "created": datetime.now(UTC).isoformat(timespec="seconds"), "experiments": every}
    index = "\n".join(index_lines(every, preset=str(top["preset"]), mixed_code=top["code"] == "mixed"))
    atomic_write(out / "manifest.json", lambda tmp: tmp.write_text(json.dumps(manifest, indent=2) + "\n"))
    atomic_write(out / "index.md", lambda tmp: tmp.write_text(index + "\n"))


#: What each experiment's record says of the code that made it, the versions that can change its games and
#: the machine its seconds were timed on (also at the top when all agree).
_MADE_BY = ("version", "git_commit", "git_dirty", "code", "environment", "machine")


def _earlier_records(out: Path, *, rerun: list[str]) -> list[dict[str, Any]]:
    """The records of an earlier report in ``out`` (its ``manifest.json``): of the experiments in ``rerun``,
    and of the others whose table is still there, each with its preset, seed and code (older manifests kept
    them once, at the top)."""
    from ..experiments import EXPERIMENTS

    try:
        earlier = json.loads((out / "manifest.json").read_text())
        records = list(earlier["experiments"])
    except (OSError, ValueError, KeyError, TypeError):  # none, or not a report's manifest
        return []
    kept = []
    for r in records:  # what an index needs, each checked: a hand-edited manifest must not stop the report
        name = r.get("name") if isinstance(r, dict) else None
        if not isinstance(name, str) or name not in EXPERIMENTS:
            continue
        if name not in rerun and not (out / "tables" / f"{name}.csv").is_file():
            continue
        seconds = r.get("seconds")
        lines = r.get("comparison")
        made_by = {k: earlier[k] for k in _MADE_BY if k in earlier and k not in r}  # older: at the top only
        kept.append({**r, **made_by, "preset": str(r.get("preset", earlier.get("preset"))),
                     "seed": r.get("seed", earlier.get("seed", 0)),
                     "seconds": float(seconds) if isinstance(seconds, int | float) else 0.0,
                     "comparison": [str(x) for x in lines] if isinstance(lines, list) else []})
    return kept


def _key_value(text: str) -> tuple[str, Any]:
    """``"games=1000"`` -> ``("games", 1000)``: the value read as JSON (numbers, lists, true), else as text.

    Examples
    --------
    >>> _key_value("games=1000"), _key_value('levels=["expert"]'), _key_value("agent=csp")
    (('games', 1000), ('levels', ['expert']), ('agent', 'csp'))
    """
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ValueError(f"--set takes KEY=VALUE (for example --set games=1000), got {text!r}")
    try:
        return key.strip(), json.loads(value)
    except ValueError:
        return key.strip(), value


def run(args: argparse.Namespace) -> int:
    from ..experiments import EXPERIMENTS

    if args.list:
        for exp in EXPERIMENTS.values():
            print(f"{exp.name:20s} report {exp.report:4s} {exp.title}")
        return 0
    if args.seed < 0:  # every experiment would fail on it, after the others had run
        raise ValueError(f"--seed must be a non-negative integer, got {args.seed}")
    check_manifest_writer(output_directory(args.out), "report")  # as build_report will, naming --out
    preset = args.preset or ("full" if args.full else "quick")
    overrides = once_each(map(_key_value, args.overrides), flag="--set")
    if "seed" in overrides:
        raise ValueError("give the seed with --seed, not --set seed=...")
    start = time.perf_counter()
    results = build_report(args.out, preset=preset, only=args.only, seed=args.seed, overrides=overrides)
    seconds = time.perf_counter() - start
    print(f"wrote {count_text(len(results), 'experiment')} to {args.out}/ in {seconds:.0f} s (preset "
          f"{preset}); see {args.out}/index.md")
    for res in results:
        print(f"\n{res['name']}:")
        failed = [f"FAILED: {res['error']}"] if "error" in res else ["(no lines to compare)"]
        for line in res["comparison"] or failed:
            print(" ", line)
        if res.get("bugs"):
            print(f"sweeplab report: error: in {res['name']}, methods registered sound claimed wrong cells "
                  f"(bugs; the 'wrong' column of its table): {res['bugs']}", file=sys.stderr)
    return 1 if any("error" in r or r.get("bugs") for r in results) else 0
