"""Soundness at scale: every sound method, with its options, against exact answers on adversarial positions.

Run it as ``python -m sweeplab.testing.fuzz --positions N --seed S`` (issue 14, Deliver 7).
Each position comes from :func:`sweeplab.testing.random_positions` (random layouts
with flags, revealed mines, lost clues, clue noise, unknown totals, and clue
grids drawn at random, most of them inconsistent).  For each position and each
use of the total:

* every sound method of :data:`sweeplab.METHODS` (and the option settings of
  :data:`OPTION_SETTINGS`) is compared with exact enumeration: a wrong claim, a
  consistent position called inconsistent, or an exception other than
  :class:`~sweeplab.MethodRefused` / :class:`~sweeplab.InconsistentPositionError`
  is a failure;
* :func:`sweeplab.probabilities` is compared with a plain count of every
  layout of the covered cells (positions with at most :data:`MAX_COUNTED`
  covered cells), exact to 1e-9.

Enumeration, the truth, runs without a time budget; the methods and
``probabilities`` keep their defaults, and a refusal past them
(:class:`~sweeplab.MethodRefused`, as on a starved machine) is not a failure.

It prints positions per second and, for any failure, a reproducer (the
position's text, total, noise and the call), and exits 1 when anything failed.
Runs split into parts (``--start``) cover disjoint positions of the same seed; a part
costs only its own positions, wherever it starts.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InconsistentPositionError, MethodRefused, unknown_choice
from ..methods import METHODS, Deduction, deduce, load_plugins, method_use_total
from ..positions import COVERED, FLAG, MINE, Observation
from ..probability import probabilities
from . import random_positions

__all__ = ["Failure", "OPTION_SETTINGS", "count_probabilities", "fuzz", "fuzz_parts", "main"]

#: Option settings checked besides each method's defaults.
OPTION_SETTINGS: dict[str, tuple[dict[str, Any], ...]] = {
    "gfp": ({"p": 2}, {"p": 3}, {"p": 31}, {"p": 2**31 - 1}, {"p": 4294967311}, {"p": 2**61 - 1},
            {"p": 5, "engine": "galois"}),
    "gf2": ({"engine": "galois"},),
    "rref": ({"iterate": True},),
    "enumerate": ({"max_nodes": 0}, {"max_nodes": 1}),
    "brute": ({"max_variables": 16},),
}
#: Largest number of covered cells whose layouts :func:`count_probabilities` counts one by one.
MAX_COUNTED = 14


@dataclass(frozen=True)
class Failure:
    """One disagreement, with what it takes to reproduce it."""

    index: int
    call: str
    what: str
    observation: Observation

    def __str__(self) -> str:
        o = self.observation
        return (f"position {self.index}: {self.call}: {self.what}\n"
                f"  Observation.from_text({o.to_text()!r}, mines={o.mines}, noise={o.noise!r})")


def count_probabilities(obs: Observation, *, use_total: bool = True) -> np.ndarray | None:
    """Mine probabilities by listing every layout of the covered cells (``None`` past :data:`MAX_COUNTED`).

    Independent of the package's methods: it reads the cell codes and checks
    each clue (an equality, or a bound under ``"under"``/``"over"`` noise) and
    the total on every layout.  Raises :class:`InconsistentPositionError` when
    no layout fits.
    """
    grid = obs.grid
    h, w = grid.shape
    covered = np.flatnonzero(grid == COVERED)
    if covered.size > MAX_COUNTED:
        return None
    known = ((grid == FLAG) | (grid == MINE)).ravel()
    # every layout of the covered cells, one row each
    layouts = (np.arange(1 << covered.size)[:, None] >> np.arange(covered.size)) & 1
    ok = np.ones(len(layouts), dtype=bool)
    if use_total and obs.mines is not None:
        ok &= layouts.sum(axis=1) == obs.mines - int(known.sum())
    column = {int(i): k for k, i in enumerate(covered)}
    for r, c in np.argwhere(grid >= 0):
        around = [i * w + j for i in range(r - 1, r + 2) for j in range(c - 1, c + 2)
                  if (i, j) != (r, c) and 0 <= i < h and 0 <= j < w]
        n = layouts[:, [column[i] for i in around if i in column]].sum(axis=1) + int(known[around].sum())
        shown = int(grid[r, c])
        if obs.noise == "under":
            ok &= n >= shown
        elif obs.noise == "over":
            ok &= n <= shown
        else:
            ok &= n == shown
    total = int(ok.sum())
    if total == 0:
        raise InconsistentPositionError("no layout fits")
    out = np.full(h * w, np.nan)
    out[known] = 1.0
    out[covered] = layouts[ok].sum(axis=0) / total
    return out.reshape(h, w)


def _calls(methods: Sequence[str] | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
    for name, info in METHODS.items():
        if info.sound and (methods is None or name in methods):
            yield name, {}
            for options in OPTION_SETTINGS.get(name, ()):
                yield name, options


def fuzz(n: int, *, seed: int = 0, start: int = 0, progress: bool = False,
         methods: Sequence[str] | None = None) -> tuple[int, list[Failure]]:
    """Check ``n`` positions (indices ``start .. start + n - 1`` of ``seed``) with ``methods`` (every
    sound one by default); ``(calls, failures)``."""
    calls = list(_calls(methods))
    failures: list[Failure] = []
    n_calls = 0
    positions = random_positions(n, seed=seed, start=start)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n, unit="position", desc="fuzz")
    for index, obs in enumerate(positions, start):
        truths: dict[bool, Deduction | None] = {}
        for use_total in (True, False):
            try:  # the ground truth answers whatever the time: a starved process must not stop a run
                truths[use_total] = deduce(obs, "enumerate", use_total=use_total, time_limit=None)
            except InconsistentPositionError:
                truths[use_total] = None
        for use_total in (True, False):
            for name, options in calls:
                extra = "".join(f", {k}={v!r}" for k, v in options.items())
                call = f"deduce(obs, {name!r}, use_total={use_total}{extra})"
                truth = truths[method_use_total(name, use_total)]  # a partial may fix its own
                n_calls += 1
                try:
                    got = deduce(obs, name, use_total=use_total, **options)
                except MethodRefused:
                    continue
                except InconsistentPositionError:
                    if truth is not None:
                        failures.append(Failure(index, call, "called a consistent position inconsistent",
                                                obs))
                    continue
                except Exception as exc:  # noqa: BLE001 - every other exception is a finding
                    failures.append(Failure(index, call, f"raised {type(exc).__name__}: {exc}", obs))
                    continue
                if truth is None:
                    if got.cells:
                        failures.append(Failure(index, call, "claimed cells on a position no layout fits",
                                                obs))
                    continue
                wrong = (got.safe - truth.safe) | (got.mines - truth.mines)
                if wrong:
                    failures.append(Failure(index, call, f"wrong claims {sorted(wrong)}", obs))
            n_calls += 1
            call = f"probabilities(obs, use_total={use_total})"
            want: np.ndarray | str | None
            try:
                want = count_probabilities(obs, use_total=use_total)
            except InconsistentPositionError:
                want = "inconsistent"
            if want is None:
                continue
            try:
                got_p = probabilities(obs, use_total=use_total)
            except MethodRefused:
                continue
            except InconsistentPositionError:
                if not isinstance(want, str):
                    failures.append(Failure(index, call, "called a consistent position inconsistent", obs))
                continue
            except Exception as exc:  # noqa: BLE001
                failures.append(Failure(index, call, f"raised {type(exc).__name__}: {exc}", obs))
                continue
            if isinstance(want, str):
                failures.append(Failure(index, call, "gave probabilities for a position no layout fits", obs))
            elif not np.allclose(got_p, want, atol=1e-9, rtol=0, equal_nan=True):
                failures.append(Failure(index, call, f"off by {np.nanmax(np.abs(got_p - want)):.3g}", obs))
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    return n_calls, failures


def fuzz_parts(n: int, *, seed: int = 0, start: int = 0, workers: int | None = 1, part: int = 1000,
               progress: bool = False, methods: Sequence[str] | None = None) -> tuple[int, list[Failure]]:
    """:func:`fuzz` in parts of ``part`` positions on ``workers`` processes (same positions, result)."""
    if workers == 1:
        return fuzz(n, seed=seed, start=start, progress=progress, methods=methods)
    from ..executor import run_tasks, split_range

    tasks = [{"n": count, "seed": seed, "start": start + k, "methods": methods}
             for k, count in split_range(n, part)]
    n_calls, failures = 0, []
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n, unit="position", desc=f"fuzz ({workers or 'all'} workers)")
    for i, (calls, found) in run_tasks(fuzz, tasks, workers=workers, preload=("sweeplab.testing.fuzz",)):
        n_calls += calls
        failures += found
        if bar is not None:
            bar.update(tasks[i]["n"])
    if bar is not None:
        bar.close()
    return n_calls, sorted(failures, key=lambda f: f.index)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sweeplab.testing.fuzz",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000, help="positions to check (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="root seed of the positions")
    parser.add_argument("--start", type=int, default=0, help="index of the first position (to split a run)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes, each checking parts of 1000 positions (default 1; 0: every core)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--methods", help="comma-separated sound methods to check (default: every one)")
    parser.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                        help="import a module that registers methods first (repeatable)")
    args = parser.parse_args(argv)
    if args.positions < 1:
        parser.error(f"--positions must be positive, got {args.positions}")
    for flag in ("seed", "start", "workers"):
        if getattr(args, flag) < 0:
            parser.error(f"--{flag} must be non-negative, got {getattr(args, flag)}")
    try:
        load_plugins(args.plugin)
    except ValueError as exc:
        parser.error(str(exc))
    methods = None if args.methods is None else [m.strip() for m in args.methods.split(",") if m.strip()]
    sound = [name for name, info in METHODS.items() if info.sound]
    for name in methods or ():
        if name not in sound:
            parser.error(unknown_choice("method", name, sound) if name not in METHODS
                         else f"{name!r} is not registered sound: the fuzzer checks sound methods ({sound})")
    if methods == []:
        parser.error("--methods names no method")
    t0 = time.perf_counter()
    n_calls, failures = fuzz_parts(args.positions, seed=args.seed, start=args.start, methods=methods,
                                   workers=args.workers or None, progress=not args.no_progress)
    seconds = time.perf_counter() - t0
    print(f"{args.positions} positions (seed {args.seed}, from {args.start}), {n_calls} calls, "
          f"{len(failures)} failures, {seconds:.1f} s: {args.positions / seconds:.1f} positions/s")
    for f in failures[:20]:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
