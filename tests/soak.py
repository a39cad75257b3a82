"""A long soundness soak against the independent oracle: ``python tests/soak.py --seed S --minutes M``.

``sweeplab.testing.fuzz`` takes the package's own ``enumerate`` as the truth;
this soak takes the SAT oracle of ``tests/oracle.py``, which shares no code with
the methods.  For every position and both uses of the total, every method
registered sound, with its defaults and the option settings of
``sweeplab.testing.fuzz.OPTION_SETTINGS`` (with ``--options``: the budgets as
well, ``time_limit`` and ``max_bytes`` down to nothing, and ``enumerate``
without its fallback), is run with ``proofs=True``, and

* a claim the oracle does not force, a consistent position called
  inconsistent, an exception other than ``MethodRefused``, a complete method
  that misses a forced cell or answers a position no layout fits, and
  ``consistent=True`` on such a position are failures;
* every proof must pass ``sweeplab.check_proof``, and the same proof with its
  value flipped, or moved to a cell the oracle leaves open, must not;
* ``sweeplab.probabilities`` must equal the oracle's exact model counts to
  1e-9 (positions with at most :data:`MAX_MODELS` frontier models), and raise
  ``InconsistentPositionError`` where no layout fits.

Positions cycle through four kinds, seeded by ``--seed`` alone: random small
positions (``sweeplab.testing.random_positions``: flags, noise, random clue
grids), beginner and intermediate play with clue noise, custom boards with
many flags, and expert play.  It prints running counts, then every failure
with a reproducer, and exits 1 when anything failed.
"""

from __future__ import annotations

import argparse
import copy
import inspect
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))  # run as a script: the oracle beside it
import oracle  # noqa: E402

import sweeplab  # noqa: E402
from sweeplab import METHODS, InconsistentPositionError, MethodRefused, Observation, check_proof, deduce  # noqa: E402
from sweeplab.positions import COVERED  # noqa: E402
from sweeplab.testing import random_positions  # noqa: E402
from sweeplab.testing.fuzz import _calls as fuzz_calls  # noqa: E402

#: Largest number of frontier models the oracle counts for a probability check.
MAX_MODELS = 5000
#: With ``--options``: budget values for every sound method that takes them, and a few combinations.
BUDGETS = {"time_limit": (1e-9, 1e-4, 3e-3, 1e-2, 3e-2), "max_bytes": (1, 200, 5000)}
EXTRA_SETTINGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("enumerate", {"fallback": None}), ("enumerate", {"fallback": None, "max_nodes": 3}),
    ("enumerate", {"probabilities": True}), ("enumerate", {"max_nodes": 0, "time_limit": 1e-3}),
    ("gfp", {"p": 3, "engine": "galois"}), ("gfp", {"p": 101, "engine": "galois"}),
    ("brute", {"max_variables": 0}), ("rref", {"iterate": True, "max_bytes": 300}),
)


@dataclass
class Soak:
    """Counts and failures of a run."""

    positions: int = 0
    calls: int = 0
    claims: int = 0
    proofs: int = 0
    mutations: int = 0
    probabilities: int = 0
    failures: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (f"{self.positions} positions, {self.calls} calls, {self.claims} claims, "
                f"{self.proofs} proofs, {self.mutations} mutated proofs, {self.probabilities} probability "
                f"tables, {len(self.failures)} failures")


def settings(*, options: bool = False) -> list[tuple[str, dict[str, Any]]]:
    """The (method, options) calls made on every position."""
    out = list(fuzz_calls())  # the fuzzer's: every sound method, its defaults and OPTION_SETTINGS
    if options:
        for m, info in METHODS.items():
            if info.sound:
                params = inspect.signature(info.function).parameters
                out += [(m, {k: v}) for k, values in BUDGETS.items() if k in params for v in values]
        out += [(m, o) for m, o in EXTRA_SETTINGS if m in METHODS]
    return out


def positions(seed: int) -> Iterator[Observation]:
    """The positions of ``seed``, without end (see the module docstring)."""
    rng = random.Random(seed)
    for i in range(sys.maxsize):
        kind = i % 4
        if kind == 0:
            yield from random_positions(20, seed=seed, start=i * 20, max_side=7)
        elif kind == 1:
            noise = rng.choice([None, None, ("under", 0.2), ("over", 0.2), ("lost", 0.2)])
            yield from oracle.play_positions(rng.choice(["beginner", "intermediate"]), seed=[seed, i], n=3,
                                             noise=noise)
        elif kind == 2:
            h, w = rng.randint(3, 9), rng.randint(3, 9)
            mines = rng.randint(1, min(20, h * w - 1))
            yield from oracle.play_positions(shape=(h, w), mines=mines, seed=[seed, i], n=5,
                                             flag_rate=rng.random(), wander=rng.random() / 2)
        else:
            yield from oracle.play_positions("expert", seed=[seed, i], n=1)


def answer(call: Callable[[], Any], consistent: bool, where: str, run: Soak) -> Any:
    """``call()``, or ``None`` after a refusal, or after recording a failure: a consistent position called
    inconsistent, or any other exception."""
    try:
        return call()
    except MethodRefused:
        return None
    except InconsistentPositionError:
        if consistent:
            run.failures.append(f"a consistent position called inconsistent: {where}")
        return None
    except Exception as exc:  # noqa: BLE001 -- any other error is a failure to report
        run.failures.append(f"{type(exc).__name__}: {exc}: {where}")
        return None


def check(obs: Observation, calls: list[tuple[str, dict[str, Any]]], run: Soak, rng: random.Random) -> None:
    """Every call of ``calls`` on ``obs``, both uses of the total, against the oracle."""
    run.positions += 1
    covered = [(int(r), int(c)) for r, c in zip(*np.nonzero(np.asarray(obs.grid) == COVERED), strict=True)]
    for use_total in (True, False):
        try:
            safe, mines = oracle.forced(obs, use_total=use_total)
            consistent = True
        except InconsistentPositionError:
            consistent = False
        checked = obs if use_total else Observation(obs.grid, mines=None, noise=obs.noise)
        check_probabilities(obs, use_total, consistent, run)
        for method, options in calls:
            run.calls += 1
            where = (f"{method} {options} use_total={use_total} on mines={obs.mines} noise={obs.noise!r}:\n"
                     f"{obs.to_text()}")
            d = answer(partial(deduce, obs, method=method, use_total=use_total, proofs=True, **options),
                       consistent, where, run)
            if d is None:
                continue
            if not consistent:
                if METHODS[method].complete:
                    run.failures.append(f"a complete method answered a position no layout fits: {where}")
                if d.consistent is True:
                    run.failures.append(f"consistent=True where no layout fits: {where}")
                continue
            run.claims += len(d.safe) + len(d.mines)
            if not (d.safe <= safe and d.mines <= mines):
                run.failures.append(f"WRONG CLAIM safe {sorted(d.safe - safe)} "
                                    f"mines {sorted(d.mines - mines)}: {where}")
            elif METHODS[method].complete and (d.safe, d.mines) != (safe, mines):
                missed = sorted((safe | mines) - d.safe - d.mines)
                run.failures.append(f"a complete method missed {missed}: {where}")
            open_cells = [c for c in covered if c not in safe and c not in mines]
            for cell, proof in d.proofs.items():
                run.proofs += 1
                text = proof.to_dict()
                if not check_proof(checked, text):
                    run.failures.append(f"the proof of {cell} is rejected: {where}")
                    continue
                flipped = {**copy.deepcopy(text), "value": 1 - text["value"]}
                mutated = [flipped]
                if open_cells:
                    mutated.append({**copy.deepcopy(text), "cell": list(rng.choice(open_cells))})
                for bad in mutated:
                    run.mutations += 1
                    if check_proof(checked, bad):
                        run.failures.append(f"a mutated proof of {cell} is accepted ({bad['cell']} = "
                                            f"{bad['value']}): {where}")


def check_probabilities(obs: Observation, use_total: bool, consistent: bool, run: Soak) -> None:
    """``sweeplab.probabilities`` against the oracle's model counts (when it counts them all)."""
    where = f"probabilities use_total={use_total} on mines={obs.mines} noise={obs.noise!r}:\n{obs.to_text()}"
    truth = oracle.probabilities(obs, use_total=use_total, limit=MAX_MODELS) if consistent else None
    if consistent and truth is None:
        return
    p = answer(partial(sweeplab.probabilities, obs, use_total=use_total), consistent, where, run)
    if p is None:
        return
    if not consistent:
        run.failures.append(f"probabilities where no layout fits: {where}")
        return
    run.probabilities += 1
    if not np.allclose(p, truth, rtol=0, atol=1e-9, equal_nan=True):
        worst = np.nanmax(np.abs(p - truth))
        run.failures.append(f"probabilities off by {worst:.3g}: {where}")


def soak(seed: int, *, positions_: int | None = None, minutes: float | None = None, options: bool = False,
         report_every: int = 0) -> Soak:
    """Check the positions of ``seed`` until ``positions_`` are checked or ``minutes`` have passed."""
    if positions_ is None and minutes is None:
        raise ValueError("soak needs positions_ or minutes (or both), got neither")
    calls, run, rng = settings(options=options), Soak(), random.Random(seed)
    deadline = time.monotonic() + 60 * minutes if minutes is not None else float("inf")
    for obs in positions(seed):
        if (positions_ is not None and run.positions >= positions_) or time.monotonic() > deadline:
            break
        check(obs, calls, run, rng)
        if report_every and run.positions % report_every == 0:
            print(run.summary(), flush=True)
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tests/soak.py",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seed", type=int, required=True, help="root seed of the positions")
    parser.add_argument("--positions", type=int, help="stop after this many positions")
    parser.add_argument("--minutes", type=float, help="stop after this many minutes")
    parser.add_argument("--options", action="store_true", help="also the budgets: time_limit, max_bytes, ...")
    args = parser.parse_args(argv)
    if args.positions is None and args.minutes is None:
        parser.error("give --positions or --minutes (or both)")
    start = time.perf_counter()
    run = soak(args.seed, positions_=args.positions, minutes=args.minutes, options=args.options,
               report_every=200)
    print(f"seed {args.seed}{' with budgets' if args.options else ''}: {run.summary()} in "
          f"{time.perf_counter() - start:.0f} s (sweeplab {sweeplab.__version__})")
    for failure in run.failures[:30]:
        print(failure)
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
