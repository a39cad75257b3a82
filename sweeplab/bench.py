"""Deductive power and speed of every method against exhaustive enumeration (issue 5).

:func:`run_bench` runs methods on a labelled corpus (:mod:`sweeplab.corpus`)
and scores every claim against the truth: one tidy row per position, method
and use of the total.  :func:`summarize` turns those rows into the table of
the study: per method and slice, the positions, the truly forced cells, the
cells found (recall), the wrong claims, the share of positions where the
method made progress when progress was possible, the median and 90th
percentile milliseconds per position, and the speed relative to ``enumerate``.

Conventions (so that the figures can be recomputed independently):

* A claim is correct when the cell is in the truth with the same label
  (safe or mine); every other claim (a cell not forced, forced the other way,
  or not covered) is wrong.  ``found + missed = forced`` and
  ``found + wrong = claims`` on every row.
* Truth is the corpus label for the same use of the total.
* A method that raises :class:`~sweeplab.MethodRefused` (brute above its size
  limit, exact methods under noisy bounds) is "refused" on that position; any
  other exception (an :class:`~sweeplab.InconsistentPositionError` on these
  consistent positions, a ``MemoryError``, a bug) is an "error"; positions past
  the time budget are "skipped".  Only
  answered positions enter ``forced``, ``found``, ``recall`` and the timings.
* "progress" means at least one correct claim; ``progress_share`` is taken
  over answered positions where something is forced.
* With ``proofs=True`` (issue 10) every claim also gets a proof (SPEC §6,
  :func:`sweeplab.deduce` with ``proofs=True``); ``ms`` is then the method's own
  time (``Deduction.seconds``) and ``proof_ms`` the proof search's.  Proof
  sizes (combining steps, distinct rows) are taken over the proved cells;
  ``case_share`` is the share of proved cells whose proof needs an ``assume``
  or a ``split``; cells over the prover's budget are counted in
  ``over_budget``, apart from the sizes (:func:`proof_cells` lists every
  proved cell).

:func:`scaling_study` times methods against board area (81 cells to 10^6)
and density, and :func:`peer_compare` times ms-toollib on the same positions.
"""

from __future__ import annotations

import json
import multiprocessing
import sys
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .clue_system import clue_system
from .corpus import CorpusPosition, corpus_hash, midgame_positions
from .errors import MethodRefused, unknown_choice
from .methods import METHODS, MethodInfo, deduce, method_use_total
from .positions import COVERED, FLAG, MINE, NOCLUE, Observation
from .provenance import machine, source_commit
from .run_directory import _DirectoryLock, atomic_write, check_manifest_writer

__all__ = [
    "score_claims",
    "run_bench",
    "summarize",
    "recall_by_board",
    "recall_by_density",
    "median_ms_by_area",
    "proof_cells",
    "format_table",
    "manifest",
    "write_bench",
    "scaling_study",
    "peer_compare",
    "format_peer",
    "format_scaling",
    "scaling_reach",
    "RREF_VARIANTS",
]

Cell = tuple[int, int]


def score_claims(
    safe: Iterable[Cell], mines: Iterable[Cell], truth_safe: frozenset[Cell], truth_mines: frozenset[Cell],
) -> dict[str, int]:
    """Score one method's claims against the truth.

    Examples
    --------
    >>> s = score_claims({(0, 0), (0, 1)}, set(), frozenset({(0, 0)}), frozenset({(1, 1)}))
    >>> s["found"], s["wrong"], s["missed"], s["forced"]
    (1, 1, 1, 2)
    """
    safe, mines = set(safe), set(mines)
    found_safe = len(safe & truth_safe)
    found_mines = len(mines & truth_mines)
    forced_safe, forced_mines = len(truth_safe), len(truth_mines)
    wrong_safe, wrong_mines = len(safe) - found_safe, len(mines) - found_mines
    found = found_safe + found_mines
    forced = forced_safe + forced_mines
    return {
        "forced_safe": forced_safe, "forced_mines": forced_mines, "forced": forced,
        "found_safe": found_safe, "found_mines": found_mines, "found": found,
        "missed": forced - found,
        "wrong_safe": wrong_safe, "wrong_mines": wrong_mines, "wrong": wrong_safe + wrong_mines,
        "claims": len(safe) + len(mines),
    }


def _resolve(methods: Sequence[str | MethodInfo] | None) -> list[MethodInfo]:
    if methods is None:
        return list(METHODS.values())
    out = []
    for m in methods:
        if isinstance(m, MethodInfo):
            out.append(m)
        elif m in METHODS:
            out.append(METHODS[m])
        else:
            raise ValueError(unknown_choice("method", m, METHODS))
        twice = [i for i in out[:-1] if i.name == out[-1].name]
        if twice:  # the rows, time budgets and summary are kept by method name: they would mix
            what = "twice" if twice[0] is out[-1] else "by two methods (a MethodInfo and another)"
            raise ValueError(f"methods name {out[-1].name!r} {what}; bench rows are kept by method name, "
                             f"so give each method once, under a name of its own")
    return out


def _call(info: MethodInfo, obs: Observation, use_total: bool, options: dict[str, Any],
          proofs: bool = False):
    """``(status, safe, mines, seconds, error, wall, proof_columns)`` for one call.

    ``seconds`` is the call's wall time, or with ``proofs`` the method's own
    time (``Deduction.seconds``); ``wall`` is always the whole call's, and
    ``proof_columns`` (with ``proofs`` only) the proof figures of
    :func:`_proof_columns`.
    """
    start = time.perf_counter()
    try:
        target = info.name if METHODS.get(info.name) is info else info.function
        d = deduce(obs, target, use_total=use_total, check_consistency=False, proofs=proofs, **options)
        safe, mines = d.safe, d.mines
    except MethodRefused as exc:
        wall = time.perf_counter() - start
        return "refused", set(), set(), wall, f"{type(exc).__name__}: {exc}"[:300], wall, {}
    except Exception as exc:  # noqa: BLE001 - a crashing method is a measured outcome, not a bench crash
        wall = time.perf_counter() - start
        return "error", set(), set(), wall, f"{type(exc).__name__}: {exc}"[:300], wall, {}
    wall = time.perf_counter() - start
    if not proofs:
        return "ok", set(safe), set(mines), wall, "", wall, {}
    return "ok", set(safe), set(mines), d.seconds, "", wall, _proof_columns(d, wall - d.seconds)


#: Proof columns of a bench row (``run_bench(..., proofs=True)``), with their value when not answered.
_PROOF_COLUMNS = {"proved": 0, "over_budget": 0, "unproved": 0, "case_cells": 0,
                  "proof_steps_mean": float("nan"), "proof_steps_max": 0, "proof_rows_mean": float("nan"),
                  "proof_rows_max": 0, "case_share": float("nan"), "proof_ms": float("nan"),
                  "proof_sizes": "[]"}


def _proof_columns(d: Any, proof_seconds: float) -> dict[str, Any]:
    """Proof figures of one Deduction with proofs: counts, sizes, case analysis.

    ``proof_sizes`` is JSON, one ``[row, col, value, steps, rows, case]``
    per proved cell in row-major order (``case`` 1 when the proof needs an
    ``assume`` or a ``split``), so that per-cell distributions can be rebuilt
    from the tidy rows (:func:`proof_cells`).
    """
    cells = sorted(d.proofs.items())
    sizes = [[c[0], c[1], p.value, p.size.steps, p.size.rows, int(p.case_analysis)] for c, p in cells]
    steps = [s[3] for s in sizes]
    rows = [s[4] for s in sizes]
    case = sum(s[5] for s in sizes)
    n = len(sizes)
    return {
        "proved": n, "over_budget": len(d.over_budget), "unproved": len(d.unproved), "case_cells": case,
        "proof_steps_mean": float(np.mean(steps)) if n else float("nan"),
        "proof_steps_max": max(steps, default=0),
        "proof_rows_mean": float(np.mean(rows)) if n else float("nan"),
        "proof_rows_max": max(rows, default=0),
        "case_share": case / n if n else float("nan"),
        "proof_ms": proof_seconds * 1e3,
        "proof_sizes": json.dumps(sizes, separators=(",", ":")),
    }


def _warm_up(infos: Sequence[MethodInfo]) -> None:
    """Import every method module and run it once, so no import time lands in the timings."""
    obs = Observation.from_text("?1.\n11.", mines=1)
    for info in infos:
        try:
            info.function(obs, use_total=True)
        except Exception:  # noqa: BLE001, S110 - warm-up only; real failures are scored later
            pass


def run_bench(
    corpus: Sequence[CorpusPosition],
    *,
    methods: Sequence[str | MethodInfo] | None = None,
    totals: Sequence[bool] = (True, False),
    options: dict[str, dict[str, Any]] | None = None,
    budget_seconds: float | None = None,
    progress: bool = False,
    proofs: bool = False,
) -> pd.DataFrame:
    """Run methods on every corpus position and score them; one tidy row per position, method, total.

    Parameters
    ----------
    corpus : sequence of CorpusPosition
    methods : sequence of str or MethodInfo, optional
        Default: every method of :data:`sweeplab.METHODS`.  A ``MethodInfo``
        not in the registry can be passed directly (tests inject a wrong one).
    totals : sequence of bool, default (True, False)
        Uses of the total to bench (``use_total`` values).
    options : dict, optional
        Per-method options, e.g. ``{"gfp": {"p": 7}}``.
    budget_seconds : float, optional
        Per method and slice: once a method has spent this long on a slice
        (with ``proofs``, the proof search counts too), its remaining
        positions there are "skipped".
    progress : bool, default False
        tqdm bar over positions.
    proofs : bool, default False
        Also prove every claim (``deduce(..., proofs=True)``) and record the
        proof sizes; off by default, so the bench costs what it did.

    Returns
    -------
    pandas.DataFrame
        Columns ``id, slice, source, method, use_total, status, error, height,
        width, n_covered, ms`` and the counts of :func:`score_claims`.  With
        ``proofs``, ``ms`` is the method's own time and the columns ``proved,
        over_budget, unproved`` (every claim without a proof, over budget
        included, as ``Deduction.unproved``), ``case_cells, proof_steps_mean,
        proof_steps_max, proof_rows_mean, proof_rows_max, case_share`` (over the
        proved cells), ``proof_ms`` and ``proof_sizes`` (JSON, see
        :func:`proof_cells`) follow.

    Examples
    --------
    >>> from sweeplab.corpus import label
    >>> p = label(Observation.from_text("???\\n121", mines=2), id="e-0", slice="e", source="example")
    >>> rows = run_bench([p], methods=["enumerate"], totals=[True])
    >>> rows[["method", "forced", "found", "wrong"]].values.tolist()
    [['enumerate', 3, 3, 0]]
    >>> rows = run_bench([p], methods=["rref"], totals=[True], proofs=True)
    >>> rows.loc[0, ["proved", "over_budget", "proof_steps_max", "proof_rows_max", "case_cells"]].tolist()
    [3, 0, 1, 3, 0]
    """
    infos = _resolve(methods)
    totals = [bool(t) for t in totals]
    if not totals:
        raise ValueError("totals must hold at least one of True, False")
    options = options or {}
    _warm_up(infos)
    spent: dict[tuple[str, str], float] = {}
    rows: list[dict[str, Any]] = []
    items: Iterable[CorpusPosition] = corpus
    if progress:
        from tqdm.auto import tqdm

        items = tqdm(corpus, desc="bench", unit="position")
    for pos in items:
        h, w = pos.obs.shape
        base = {"id": pos.id, "slice": pos.slice, "source": pos.source, "height": h, "width": w,
                "n_covered": pos.n_covered}
        for info in infos:
            key = (info.name, pos.slice)
            for use_total in totals:
                result: tuple[str, set[Cell], set[Cell], float, str, float, dict[str, Any]]
                if budget_seconds is not None and spent.get(key, 0.0) > budget_seconds:
                    result = ("skipped", set(), set(), float("nan"), "time budget spent on this slice",
                              0.0, {})
                else:
                    result = _call(info, pos.obs, use_total, options.get(info.name, {}), proofs)
                    spent[key] = spent.get(key, 0.0) + result[5]
                status, safe, mines, seconds, error, _, proof_columns = result
                t_safe, t_mines = pos.truth(use_total=method_use_total(info.function, use_total))
                scores = score_claims(safe, mines, t_safe, t_mines)
                if status != "ok":
                    scores = dict.fromkeys(scores, 0)
                row = {**base, "method": info.name, "use_total": use_total, "status": status,
                       "error": error, "ms": seconds * 1e3 if status == "ok" else float("nan"), **scores}
                if proofs:
                    row.update(_PROOF_COLUMNS | proof_columns)
                rows.append(row)
    return pd.DataFrame(rows)


def _answered_with_total(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows a method answered with the total, with each board's ``area``."""
    answered = rows[(rows["status"] == "ok") & rows["use_total"]]
    return answered.assign(area=answered["height"] * answered["width"])


def _recall(rows: pd.DataFrame, column: str) -> pd.DataFrame:
    """found / forced of each method (index) at each value of ``column`` (columns)."""
    grouped = rows.groupby(["method", column], sort=False)[["forced", "found"]].sum()
    return (grouped["found"] / grouped["forced"]).unstack(column)


def recall_by_board(rows: pd.DataFrame) -> pd.DataFrame:
    """Recall of each method (rows) on each board size (columns ``"HxW"``, smallest area first), with
    the total, from :func:`run_bench`'s rows (or :func:`sweeplab.experiments.method_power`'s).

    A board whose positions force no cell has no recall and is left out (listed in
    ``attrs["no_forced_cell"]``); a method that refused every position of a size shows NaN there.
    """
    answered = _answered_with_total(rows)
    answered = answered.assign(board=answered["height"].astype(str) + "x" + answered["width"].astype(str))
    recall = _recall(answered, "board")
    sizes = answered.drop_duplicates("board").sort_values(["area", "height"])["board"]
    empty = [b for b in sizes if recall[b].isna().all()]
    table = recall[[b for b in sizes if b not in empty]]
    table.attrs["no_forced_cell"] = empty
    return table


def median_ms_by_area(rows: pd.DataFrame) -> pd.DataFrame:
    """Median ms per position of each method at each board area, with the total: columns ``method,
    area, ms`` (:func:`run_bench`'s rows, answered ones only)."""
    return _answered_with_total(rows).groupby(["method", "area"])["ms"].median().reset_index()


def recall_by_density(rows: pd.DataFrame, *, slice_name: str = "dense30") -> pd.DataFrame:
    """Recall of each method (rows, in :data:`~sweeplab.METHODS` order) at each mine density
    (columns), with the total, on the positions of ``slice_name``; without any, on the game
    positions (every slice but the hand-made ``"examples"``), as ``attrs["slices"]`` says.

    ``rows`` need a ``density`` column, as :func:`sweeplab.experiments.method_power` adds it.
    """
    from .methods import METHODS

    answered = _answered_with_total(rows)
    chosen = answered[answered["slice"] == slice_name]
    if chosen.empty:
        chosen = answered[(answered["density"] > 0) & (answered["slice"] != "examples")]
    table = _recall(chosen, "density").sort_index(axis=1).dropna(axis=1, how="all")
    table = table.reindex(index=[m for m in METHODS if m in set(chosen["method"])])
    table.attrs["slices"] = sorted(chosen["slice"].unique())
    return table


def summarize(rows: pd.DataFrame, *, infos: Sequence[MethodInfo] | None = None) -> pd.DataFrame:
    """The study's table: one row per method, use of the total and slice (plus slice ``"all"``).

    ``x_enumerate`` is the method's median ms over the median ms of
    ``enumerate`` on the same positions (those both answered, same use of
    the total; NaN when ``enumerate`` was not run).

    Rows from ``run_bench(..., proofs=True)`` add, over the proved cells of
    answered positions: ``proved, over_budget, unproved, proof_steps_mean,
    proof_steps_median, proof_steps_p90, proof_steps_max`` and the same for
    ``proof_rows``, ``case_share`` (share of proved cells whose proof needs
    an ``assume`` or a ``split``) and ``proof_median_ms`` (proof search per
    position).

    ``infos``: the :class:`MethodInfo` given to :func:`run_bench` directly; their promises (``sound``,
    ``complete``) are read before those of a registered method of the same name.
    """
    if rows.empty:
        raise ValueError("no bench rows to summarize")
    # the MethodInfo given is the method benched under its name, even one a registered method also has
    info_by_name = dict(METHODS) | {i.name: i for i in (infos or [])}
    ref = rows[(rows.method == "enumerate") & (rows.status == "ok")].set_index(["id", "use_total"]).ms
    both = pd.concat([rows, rows.assign(slice="all")], ignore_index=True)
    out = []
    for (method, use_total, sl), g in both.groupby(["method", "use_total", "slice"], sort=False):
        ok = g[g.status == "ok"]
        possible = ok[ok.forced > 0]
        ms = ok.ms.to_numpy()
        info = info_by_name.get(method)
        forced, found = int(ok.forced.sum()), int(ok.found.sum())
        out.append({
            "method": method, "use_total": bool(use_total), "slice": sl,
            "sound": None if info is None else info.sound,
            "complete": None if info is None else info.complete,
            "positions": len(g), "answered": len(ok),
            "refused": int((g.status == "refused").sum()), "errors": int((g.status == "error").sum()),
            "skipped": int((g.status == "skipped").sum()),
            "forced": forced, "found": found, "missed": int(ok.missed.sum()),
            "recall": found / forced if forced else float("nan"),
            "wrong": int(ok.wrong.sum()), "wrong_positions": int((ok.wrong > 0).sum()),
            "progress_possible": len(possible),
            "progress": int((possible.found > 0).sum()),
            "progress_share": float((possible.found > 0).mean()) if len(possible) else float("nan"),
            "median_ms": float(np.median(ms)) if ms.size else float("nan"),
            "p90_ms": float(np.percentile(ms, 90)) if ms.size else float("nan"),
            "x_enumerate": _paired_ratio(ok, ref),
        })
        if "proof_sizes" in ok.columns:
            out[-1].update(_proof_summary(ok))
    return pd.DataFrame(out)


def proof_cells(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per proved cell of ``run_bench(..., proofs=True)`` rows.

    Returns
    -------
    pandas.DataFrame
        Columns ``id, slice, method, use_total, row, col, value, steps,
        proof_rows, case`` (``case`` True when the proof needs an ``assume``
        or a ``split``); empty when nothing was proved.

    Examples
    --------
    >>> from sweeplab.corpus import label
    >>> p = label(Observation.from_text("???\\n121", mines=2), id="e-0", slice="e", source="example")
    >>> cells = proof_cells(run_bench([p], methods=["subset"], totals=[True], proofs=True))
    >>> cells[["row", "col", "value", "steps", "proof_rows", "case"]].values.tolist()
    [[0, 0, 1, 1, 2, False], [0, 1, 0, 2, 3, False], [0, 2, 1, 1, 2, False]]
    """
    if "proof_sizes" not in rows.columns:
        raise ValueError("no proof columns: run the bench with proofs=True")
    columns = ["id", "slice", "method", "use_total", "row", "col", "value", "steps", "proof_rows", "case"]
    out = [(r.id, r.slice, r.method, bool(r.use_total), *cell)
           for r in rows[["id", "slice", "method", "use_total", "proof_sizes"]].itertuples(index=False)
           for cell in json.loads(r.proof_sizes)]
    cells = pd.DataFrame(out, columns=columns)
    return cells.astype({"row": int, "col": int, "value": int, "steps": int, "proof_rows": int, "case": bool})


def _proof_summary(ok: pd.DataFrame) -> dict[str, Any]:
    """Proof-size figures over the proved cells of answered rows (see :func:`summarize`)."""
    sizes = np.array([s for text in ok.proof_sizes for s in json.loads(text)], dtype=int).reshape(-1, 6)
    out: dict[str, Any] = {"proved": len(sizes), "over_budget": int(ok.over_budget.sum()),
                           "unproved": int(ok.unproved.sum())}
    for name, column in (("steps", 3), ("rows", 4)):
        values = sizes[:, column]
        stats = ((np.mean(values), np.median(values), np.percentile(values, 90), np.max(values))
                 if len(values) else (float("nan"),) * 4)
        out |= {f"proof_{name}_{k}": float(v) for k, v in zip(("mean", "median", "p90", "max"), stats,
                                                                strict=True)}
    out["case_share"] = float(sizes[:, 5].mean()) if len(sizes) else float("nan")
    out["proof_median_ms"] = float(ok.proof_ms.median()) if len(ok) else float("nan")
    return out


def _paired_ratio(ok: pd.DataFrame, ref: pd.Series) -> float:
    """Median ms over the median ms of ``enumerate`` on the same answered positions."""
    keys = [k for k in zip(ok.id, ok.use_total, strict=True) if k in ref.index]
    if not keys:
        return float("nan")
    mine = ok.set_index(["id", "use_total"]).ms.loc[keys]
    return float(mine.median() / ref.loc[keys].median())


def format_table(summary: pd.DataFrame, *, slices: Sequence[str] | None = None) -> str:
    """A printable view of :func:`summarize` (one block per use of the total)."""
    cols = ["method", "slice", "positions", "refused", "errors", "forced", "found", "recall", "wrong",
            "progress_share", "median_ms", "p90_ms", "x_enumerate"]
    parts = []
    for use_total, g in summary.groupby("use_total", sort=False):
        if slices is not None:
            g = g[g.slice.isin(slices)]
        view = g[cols].rename(columns={"progress_share": "progress", "x_enumerate": "x_enum"})
        parts.append(f"use_total={use_total}\n" + view.to_string(
            index=False, float_format=lambda v: f"{v:.3g}", na_rep="-"))
        if "proof_rows_median" in g.columns:
            proof_cols = ["method", "slice", "proved", "over_budget", "proof_steps_mean", "proof_steps_max",
                          "proof_rows_mean", "proof_rows_median", "proof_rows_p90", "proof_rows_max",
                          "case_share", "proof_median_ms"]
            view = g[proof_cols].rename(columns=lambda c: c.replace("proof_", "").replace("median", "med"))
            parts.append(f"proof sizes (combining steps, distinct rows), use_total={use_total}\n"
                         + view.to_string(index=False, float_format=lambda v: f"{v:.3g}", na_rep="-"))
    return "\n\n".join(parts)


def manifest(*, corpus_path: str | Path | None, methods: Sequence[str], **extra: Any) -> dict[str, Any]:
    """Provenance of a bench run: package version, git commit, corpus hash, methods, machine."""
    from . import __version__

    commit, dirty = source_commit()
    return {
        "package": "sweeplab",
        "version": __version__,
        "git_commit": commit,
        "git_dirty": dirty,
        "corpus": None if corpus_path is None else str(corpus_path),
        "corpus_sha256": None if corpus_path is None else corpus_hash(corpus_path),
        "methods": list(methods),
        "created_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            **machine(),
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "pandas": pd.__version__,
        },
        **extra,
    }


def write_bench(out: str | Path, *, rows: pd.DataFrame, summary: pd.DataFrame,
                meta: dict[str, Any]) -> list[Path]:
    """Write ``bench.csv`` (the table), ``bench_positions.csv`` (every row) and ``manifest.json``, under
    the folder's lock; a folder holding another kind of results (a sweep's) is refused.

    Each file is written whole or not at all.  The earlier manifest goes first and the new one comes
    last, so a bench killed between its files leaves tables without a manifest, never a manifest
    beside tables of another run.
    """
    out = Path(out)
    check_manifest_writer(out, "bench")
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "bench.csv", out / "bench_positions.csv", out / "manifest.json"]
    lock = _DirectoryLock(out, "bench")  # two benches in one folder would mix their three files
    try:
        paths[2].unlink(missing_ok=True)
        atomic_write(paths[0], lambda tmp: summary.to_csv(tmp, index=False))
        atomic_write(paths[1], lambda tmp: rows.to_csv(tmp, index=False))
        atomic_write(paths[2], lambda tmp: tmp.write_text(json.dumps(meta, indent=1) + "\n"))
    finally:
        lock.release()
    return paths


# --- scaling ----------------------------------------------------------------------------------------

#: Exact RREF variants timed by the scaling study beside the methods (report 003 Algorithm B's claim).
RREF_VARIANTS = ("rref-whole-dense", "rref-components")

#: Above this many matrix entries the dense whole-system RREF is refused (memory).
_DENSE_LIMIT = 25_000_000


def _rref_variant(name: str, obs: Observation) -> int:
    """Run an exact RREF variant (python-flint ``fmpq_mat``); returns the rank found.

    ``rref-whole-dense`` row-reduces the whole frontier system as one dense
    matrix, as report 003 Algorithm B does; ``rref-components`` splits it
    into independent components first (report 004 §3's split borders) and
    row-reduces each small block.
    """
    import flint

    system = clue_system(obs, use_total=False)
    blocks = [system] if name == "rref-whole-dense" else system.components()
    rank = 0
    for block in blocks:
        if block.n_variables == 0:
            continue
        if block.n_equations * (block.n_variables + 1) > _DENSE_LIMIT:
            raise MemoryError(f"dense {block.n_equations}x{block.n_variables + 1} matrix over the limit")
        aug = np.hstack([block.A, block.b[:, None]])
        _, r = flint.fmpq_mat(aug.tolist()).rref()
        rank += int(r)
    return rank


#: Address-space limit of a scaling child process: a method that would need more fails with
#: ``MemoryError`` (counted as refused) instead of swapping the machine.
_CHILD_MEMORY = 6 << 30


def _scaling_worker(conn, name: str, positions: list[Observation], use_total: bool) -> None:
    """Child process: time ``name`` on each position, sending one result per position (with the
    child's peak resident memory so far, in MB)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (_CHILD_MEMORY, _CHILD_MEMORY))
    info = METHODS.get(name)
    if info is not None:
        _warm_up([info])
    else:
        _rref_variant(name, Observation.from_text("?1.\n11."))
    for obs in positions:
        start = time.perf_counter()
        try:
            if info is None:
                found = _rref_variant(name, obs)
            else:
                found = len(deduce(obs, info.name, use_total=use_total, check_consistency=False))
            status, error = "ok", ""
        except MethodRefused as exc:
            status, found, error = "refused", -1, f"{type(exc).__name__}: {exc}"[:200]
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            status, found, error = "error", -1, f"{type(exc).__name__}: {exc}"[:200]
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        conn.send((status, (time.perf_counter() - start) * 1e3, found, error, peak_mb))
    conn.close()


def _position_stats(obs: Observation) -> dict[str, Any]:
    system = clue_system(obs, use_total=False)
    comps = system.components()
    sizes = [c.n_variables for c in comps] or [0]
    return {
        "n_covered": int(np.count_nonzero(obs.grid == COVERED)),
        "n_frontier": system.n_frontier,
        "n_equations": system.n_equations,
        "n_components": len(comps),
        "largest_component": int(max(sizes)),
        # what storing [A|b] costs: dense int64 (report 003's whole matrix) against CSR
        "dense_bytes": int(system.n_equations) * (system.n_frontier + 1) * 8,
        "sparse_bytes": int(system.A_sparse.data.nbytes + system.A_sparse.indices.nbytes
                            + system.A_sparse.indptr.nbytes + system.b.nbytes),
        # report 003 Algorithm B's constraint array: grid area squared
        "area_squared_bytes": obs.grid.size ** 2 * 8,
    }


def scaling_study(
    *,
    shapes: Sequence[tuple[int, int]] = ((9, 9), (16, 16), (16, 30), (30, 30), (50, 50), (100, 100),
                                         (316, 316), (1000, 1000)),
    densities: Sequence[float] = (0.10, 0.15, 0.20),
    methods: Sequence[str] | None = None,
    positions: int = 3,
    reveal: float = 0.5,
    seed: int = 0,
    cap_seconds: float = 20.0,
    without_total: Sequence[str] = ("rref",),
    progress: bool = False,
) -> pd.DataFrame:
    """Time per position against board area and density (issue 5, report 003's RREF claim).

    Positions come from :func:`sweeplab.corpus.midgame_positions` (a perfect
    player's mid-game, ``reveal`` of the safe cells open).  Each method (and
    each of :data:`RREF_VARIANTS`) runs with its default budget in a child
    process per board size and density, killed after ``cap_seconds`` and
    limited to 6 GB of address space; a method that timed out is not run on
    larger boards at that density.  Methods run with the total; those in
    ``without_total`` run once more without it (for ``rref`` this is the
    difference between reducing the whole system, which the total row links,
    and reducing each component).  Beside the time, each row has the child's
    peak resident memory after that position (``peak_mb``: the board's
    positions run one after another in the child, so it is the peak so far);
    ``benchmarks/scaling_memory.py`` measures one call per fresh process on
    half-revealed and dense boards.

    Returns
    -------
    pandas.DataFrame
        One row per method, board, density and position: ``method, height,
        width, area, density, position, status, ms, found, peak_mb`` plus the
        position's size figures (frontier, components, dense and sparse bytes).
    """
    names = list(METHODS) + list(RREF_VARIANTS) if methods is None else list(methods)
    unknown = [n for n in names if n not in METHODS and n not in RREF_VARIANTS]
    if unknown:
        raise ValueError(f"unknown method(s) {unknown}; choose from {sorted(METHODS) + list(RREF_VARIANTS)}")
    jobs = [(n, n in METHODS) for n in names]
    jobs += [(n, False) for n in names if n in without_total and n in METHODS]
    shapes = sorted(((int(s[0]), int(s[1])) for s in shapes), key=lambda s: s[0] * s[1])
    ctx = multiprocessing.get_context("fork")
    timed_out: set[tuple[str, bool, float]] = set()
    rows: list[dict[str, Any]] = []
    cells = [(shape, d) for shape in shapes for d in densities]
    bar = cells
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(cells, desc="scaling", unit="board")
    for k, (shape, density) in enumerate(bar):
        obs_list = midgame_positions(shape=shape, density=density, n=positions, reveal=reveal,
                                     seed=[seed, k])
        stats = [_position_stats(o) for o in obs_list]
        for name, use_total in jobs:
            base = {"method": name, "height": shape[0], "width": shape[1], "area": shape[0] * shape[1],
                    "density": density, "use_total": use_total}
            if (name, use_total, density) in timed_out:
                why = f"timed out on a smaller board (cap {cap_seconds} s)"
                results = [("skipped", float("nan"), -1, why, float("nan"))] * len(obs_list)
            else:
                results = _run_capped(ctx, name, obs_list, use_total, cap_seconds)
                if any(r[0] == "timeout" for r in results):
                    timed_out.add((name, use_total, density))
            for i, (status, ms, found, error, peak_mb) in enumerate(results):
                rows.append({**base, "position": i, "status": status,
                             "ms": ms if status == "ok" else float("nan"),
                             "found": found if status == "ok" else -1, "error": error, "peak_mb": peak_mb,
                             **stats[i]})
    return pd.DataFrame(rows)


def format_scaling(table: pd.DataFrame) -> str:
    """Median ms per position, and the largest peak memory (MB), method against board area,
    one block per density.

    Cells read ``timeout``, ``refused``, ``error`` or ``skipped`` when no
    position of that board was answered.
    """
    parts = []
    for density, g in table.groupby("density"):
        def cell(s: pd.DataFrame) -> str:
            ok = s[s.status == "ok"]
            if len(ok):
                return f"{ok.ms.median():.3g}"
            return str(s.status.mode().iat[0])

        plain = g.use_total | ~g.method.isin(list(METHODS))
        g = g.assign(method=np.where(plain, g.method, g.method + " (no total)"))
        view = g.groupby(["method", "area"], sort=False).apply(cell, include_groups=False).unstack("area")
        peak = g.groupby(["method", "area"], sort=False).peak_mb.max().round().unstack("area")
        sizes = g.groupby("area").agg(frontier=("n_frontier", "median"), largest=("largest_component", "max"))
        head = "  ".join(f"{a}: frontier {int(r.frontier)}, largest component {int(r.largest)}"
                         for a, r in sizes.iterrows())
        parts.append(f"density {density}: median ms per position by board area\n({head})\n"
                     + view.to_string()
                     + f"\n\ndensity {density}: peak resident memory (MB) of the child process\n"
                     + peak.to_string())
    return "\n\n".join(parts)


def scaling_reach(table: pd.DataFrame, *, limit_ms: float = 1000.0) -> pd.DataFrame:
    """Largest board area where a method answered every position within ``limit_ms`` (median).

    One row per method, use of the total and density: ``reach_area`` (0 when
    not even the smallest board qualifies) and the median ms there.
    """
    out = []
    for (method, use_total, density), g in table.groupby(["method", "use_total", "density"], sort=False):
        reach, at_ms = 0, float("nan")
        for area, a in g.groupby("area"):
            if (a.status == "ok").all() and a.ms.median() <= limit_ms:
                reach, at_ms = int(area), float(a.ms.median())
            else:
                break
        out.append({"method": method, "use_total": bool(use_total), "density": density,
                    "reach_area": reach, "median_ms_there": at_ms})
    return pd.DataFrame(out)


def _run_capped(ctx, name: str, obs_list: list[Observation], use_total: bool, cap: float) -> list[tuple]:
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_scaling_worker, args=(child, name, obs_list, use_total), daemon=True)
    proc.start()
    child.close()
    deadline = time.monotonic() + cap
    results: list[tuple] = []
    try:
        while len(results) < len(obs_list):
            left = deadline - time.monotonic()
            if left <= 0 or not parent.poll(left):
                break
            try:
                results.append(parent.recv())
            except EOFError:
                break
    finally:
        if proc.is_alive():
            proc.terminate()
        proc.join()
        parent.close()
    while len(results) < len(obs_list):
        status = "timeout" if proc.exitcode in (None, -15) else "error"
        results.append((status, float("nan"), -1, f"over the {cap} s cap" if status == "timeout"
                        else f"child exited with code {proc.exitcode}", float("nan")))
    return results


# --- peer: ms-toollib -----------------------------------------------------------------------------


def _toollib_board(obs: Observation) -> list[list[int]] | None:
    """ms-toollib's board: 0-8 clues, 10 covered; ``None`` if it cannot express the position.

    ms-toollib reads a flag (11) as a player's mark that may be wrong, not as a
    known mine (SPEC §1), so positions with flags or revealed mines are left out.
    """
    g = obs.grid.astype(np.int64)
    if (g == NOCLUE).any() or (g == FLAG).any() or (g == MINE).any() or obs.noise is not None:
        return None
    return np.where(g == COVERED, 10, g).tolist()


def _best(fn, repeats: int) -> tuple[float, Any]:
    """Best time in ms over ``repeats`` calls, and the last value."""
    times, value = [], None
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1e3, value


def peer_compare(corpus: Sequence[CorpusPosition], *, repeats: int = 3) -> pd.DataFrame:
    """Time ms-toollib beside sweeplab on the same (consistent) positions.

    Compares ``ms_toollib.get_all_not_and_is_mine_on_board`` (forced cells
    from the clues; ``solve_enumerate`` alone reports fewer) with
    ``enumerate`` without the total, and
    ``ms_toollib.cal_probability_onboard`` with :func:`sweeplab.probabilities`.
    Only labelled corpus positions are passed: they are consistent, since
    ms-toollib aborts the interpreter on contradictory boards.  Times are the
    best of ``repeats`` calls.

    Raises
    ------
    ModuleNotFoundError
        When ms-toollib is not installed.
    """
    import ms_toollib

    from . import probabilities
    from .methods import deduce

    rows = []
    for pos in corpus:
        board = _toollib_board(pos.obs)
        if board is None or pos.obs.mines is None:
            continue

        obs, mines = pos.obs, float(pos.obs.mines)
        ms_tl_solve, (_, tl_safe, tl_mines) = _best(
            lambda b=board: ms_toollib.get_all_not_and_is_mine_on_board([r[:] for r in b]), repeats)
        ms_sl_solve, d = _best(lambda o=obs: deduce(o, method="enumerate", use_total=False), repeats)
        ms_tl_prob, (tl_prob, _) = _best(
            lambda b=board, m=mines: ms_toollib.cal_probability_onboard([r[:] for r in b], m), repeats)
        ms_sl_prob, prob = _best(lambda o=obs: probabilities(o), repeats)
        covered = pos.obs.grid == COVERED
        diff = np.abs(np.asarray(tl_prob, dtype=float)[covered] - np.asarray(prob, dtype=float)[covered])
        tl_cells = {(int(r), int(c)) for r, c in tl_safe} | {(int(r), int(c)) for r, c in tl_mines}
        rows.append({
            "id": pos.id, "slice": pos.slice, "n_covered": pos.n_covered,
            "toollib_solve_ms": ms_tl_solve, "sweeplab_enumerate_ms": ms_sl_solve,
            "toollib_probability_ms": ms_tl_prob, "sweeplab_probability_ms": ms_sl_prob,
            "forced_agree": tl_cells == set(d.safe | d.mines),
            "max_probability_diff": float(diff.max()) if diff.size else 0.0,
        })
    return pd.DataFrame(rows)


def format_peer(table: pd.DataFrame) -> str:
    """Medians and ratios of :func:`peer_compare`, per slice and overall."""
    if table.empty:
        return "ms-toollib: no position it can read"
    both = pd.concat([table, table.assign(slice="all")], ignore_index=True)
    view = both.groupby("slice", sort=False).agg(
        positions=("id", "size"),
        toollib_solve_ms=("toollib_solve_ms", "median"),
        enumerate_ms=("sweeplab_enumerate_ms", "median"),
        toollib_prob_ms=("toollib_probability_ms", "median"),
        probabilities_ms=("sweeplab_probability_ms", "median"),
        forced_agree=("forced_agree", "mean"),
        max_prob_diff=("max_probability_diff", "max"),
    )
    view["solve_ratio"] = view.enumerate_ms / view.toollib_solve_ms
    view["prob_ratio"] = view.probabilities_ms / view.toollib_prob_ms
    return ("ms-toollib side by side (median ms; ratio = sweeplab / ms-toollib)\n"
            + view.to_string(float_format=lambda v: f"{v:.3g}"))
